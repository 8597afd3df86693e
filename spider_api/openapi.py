"""OpenAPI pieces shared by every view: the schema class, the error components and responses.

Reference errors in a view's `@extend_schema` like this:

    @extend_schema(
        request=InputSerializer,
        responses={
            201: OutputSerializer,
            400: BAD_REQUEST,
            409: error_response("The username is taken.", "username_taken", "That ... taken."),
            429: THROTTLED,
        },
    )
"""

from typing import Any

from drf_spectacular import openapi
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.utils import OpenApiExample, OpenApiResponse
from rest_framework import serializers

from spider_api.authentication import BearerTokenAuthentication


class AutoSchema(openapi.AutoSchema):
    """Names the components of nested view serializers after their view.

    `UserRegisterApi.InputSerializer` becomes `UserRegisterRequest` (drf-spectacular adds
    `Request` to request bodies) and `UserRegisterApi.OutputSerializer` becomes `UserRegister`,
    so every view can have its own `InputSerializer`/`OutputSerializer` without clashing names.
    """

    def get_serializer_name(self, serializer: serializers.Serializer, direction: str) -> str:
        parts = type(serializer).__qualname__.split(".")
        if len(parts) < 2 or "<locals>" in parts:
            return super().get_serializer_name(serializer, direction)
        head = parts[0].removesuffix("Api").removesuffix("View")
        tail = [p.removesuffix("Serializer") for p in parts[1:]]
        return head + "".join(p for p in tail if p not in ("Input", "Output"))


class BearerTokenScheme(OpenApiAuthenticationExtension):
    """Documents BearerTokenAuthentication as the `bearerAuth` security scheme."""

    target_class = BearerTokenAuthentication
    name = "bearerAuth"

    def get_security_definition(self, auto_schema):
        return {
            "type": "http",
            "scheme": "bearer",
            "description": "`Authorization: Bearer <token>`, the token from "
            "`POST /api/v1/auth/register` or `POST /api/v1/auth/token`.",
        }


class ErrorSerializer(serializers.Serializer):
    code = serializers.CharField(help_text="Stable, machine-readable: branch on this.")
    detail = serializers.CharField(help_text="One sentence for people; the wording may change.")


class ValidationErrorSerializer(ErrorSerializer):
    errors = serializers.DictField(
        child=serializers.ListField(child=serializers.CharField()),
        required=False,
        help_text="With code `invalid`: field name -> messages (`non_field_errors` for the body).",
    )


class ThrottledErrorSerializer(ErrorSerializer):
    retry_after = serializers.IntegerField(
        help_text="Seconds to wait before retrying; the `Retry-After` header says the same."
    )


def error_example(code: str, detail: str, **extra: Any) -> OpenApiExample:
    """An example error body, named after its code."""
    return OpenApiExample(code, value={"code": code, "detail": detail, **extra})


def error_response(
    description: str, code: str, detail: str, *more: OpenApiExample
) -> OpenApiResponse:
    """A documented error response whose body is `{"code": code, "detail": detail}`."""
    return OpenApiResponse(
        ErrorSerializer, description, examples=[error_example(code, detail), *more]
    )


BAD_REQUEST = OpenApiResponse(
    ValidationErrorSerializer,
    "The body is not JSON (`malformed_json`) or a field is wrong (`invalid`, see `errors`).",
    examples=[
        error_example(
            "invalid",
            "Invalid input: username: This field is required.",
            errors={"username": ["This field is required."]},
        ),
        error_example("malformed_json", "JSON parse error - Expecting value: line 1 column 1."),
    ],
)

UNAUTHORIZED = error_response(
    "No token was sent (`not_authenticated`) or it is unknown (`invalid_token`).",
    "not_authenticated",
    "Authentication credentials were not provided.",
    error_example("invalid_token", "Invalid token."),
)

THROTTLED = OpenApiResponse(
    ThrottledErrorSerializer,
    "Too many requests: wait `retry_after` seconds (also in the `Retry-After` header).",
    examples=[
        error_example(
            "throttled", "Request was throttled. Expected available in 42 seconds.", retry_after=42
        )
    ],
)

FORBIDDEN = error_response(
    "Authenticated, but not allowed to do this.",
    "permission_denied",
    "You do not have permission to perform this action.",
)

NOT_FOUND = error_response("No such object, or it is not yours.", "not_found", "Not found.")
