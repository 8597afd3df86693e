"""OpenAPI pieces shared by every view: the schema class, the error components and responses.

A view's `@extend_schema` declares its own answers (success bodies and the errors particular
to it); `AutoSchema` adds the answers every endpoint of its kind can give, so no endpoint can
forget them: 401 where a token is read, 400 `malformed_json`/`json_too_deep`, 413 and 415 where
a body is parsed (and `unknown_field` where a serializer reads it: every request body is
`additionalProperties: false`),
406 everywhere, 403 `insufficient_scope` where a token's scopes are checked
(base.permissions), 429 where a throttle scope applies, 500 everywhere and 503
`database_unavailable` wherever the database is used. Response headers are declared the same
way (`X-Request-ID` on every answer, `Retry-After` on 429/503, `WWW-Authenticate` on 401 and
on a 403 for scope).

    @extend_schema(
        request=InputSerializer,
        responses={
            201: OutputSerializer,
            400: bad_request(invalid_example("username", "This field is required.")),
            409: error_response("The username is taken.", "username_taken", "That ... taken."),
        },
    )
"""

from __future__ import annotations

import copy
from typing import Any, Literal, TypeVar

from drf_spectacular import openapi
from drf_spectacular.contrib.django_oauth_toolkit import DjangoOAuthToolkitScheme
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse
from jsonschema import Draft202012Validator
from rest_framework import serializers
from rest_framework.settings import api_settings

from base import parsers
from base.authentication import BearerTokenAuthentication
from base.errors import DomainError, unknown_fields_detail
from base.logging import HEADER as REQUEST_ID_HEADER
from base.permissions import ACCOUNT, HasRequiredScopes, declared_scopes
from base.serializers import UNKNOWN_FIELD, JsonInputSerializer, unknown_field_message
from base.throttling import ScopedRateThrottle

BODY_METHODS = ("POST", "PUT", "PATCH")

# A view class as an app's schema_docs function decorates it: the function reads the view's
# own serializers off it (InputSerializer, OutputSerializer, ...), which each view declares
# as it needs, so the class is typed loosely here; the schema's generation checks them.
View = TypeVar("View", bound=type[Any])


class ErrorSerializer(serializers.Serializer):
    code = serializers.CharField(help_text="Stable, machine-readable: branch on this.")
    detail = serializers.CharField(help_text="One sentence for people; the wording may change.")


class ValidationErrorSerializer(ErrorSerializer):
    errors = serializers.DictField(  # type: ignore[assignment]  # a declared field, not .errors
        child=serializers.ListField(child=serializers.CharField()),
        required=False,
        help_text="With code `invalid`: field -> messages (`non_field_errors` for the body; "
        "a field inside a list or object by its path: `redirect_uris.1`, `columns[1].up`). "
        "With `unknown_field`: each field the body does not take -> what it may have meant.",
    )


class ScopeErrorSerializer(ErrorSerializer):
    scopes = serializers.ListField(
        child=serializers.CharField(),
        required=False,
        help_text="With code `insufficient_scope`: the scopes this needs (`account`: only the "
        "web client's own sign-in, never an app's token).",
    )


class RetryErrorSerializer(ErrorSerializer):
    retry_after = serializers.IntegerField(
        help_text="Seconds to wait before retrying; the `Retry-After` header says the same."
    )


def error_example(code: str, detail: str, **extra: Any) -> OpenApiExample:
    """An example error body, named after its code: an answer's, never a request's."""
    return OpenApiExample(code, value={"code": code, "detail": detail, **extra}, response_only=True)


def code_examples(*errors: type[DomainError] | str) -> list[OpenApiExample]:
    """One example per error an answer can carry: a DomainError class (its code and detail),
    or a code whose sentence is made where it is raised (the rules' own, for instance). The
    schema's enum of `code` values is made of these (see `error_code_enums`)."""
    return [
        error_example(e, f"(a sentence saying why: `{e}`)")
        if isinstance(e, str)
        else error_example(e.code, e.detail)
        for e in errors
    ]


def invalid_example(field: str, message: str) -> OpenApiExample:
    """An example 400 `invalid` body for one field of this endpoint."""
    return error_example("invalid", f"Invalid input: {field}: {message}", errors={field: [message]})


def unknown_example(fields: list[str]) -> OpenApiExample:
    """An example 400 `unknown_field` body: the first of ``fields`` misspelt (or `extra`)."""
    typo = f"{fields[0]}s" if fields else "extra"
    errors = {typo: [unknown_field_message(typo, fields)]}
    return error_example(UNKNOWN_FIELD, unknown_fields_detail(errors), errors=errors)


def error_response(
    description: str, code: str, detail: str, *more: OpenApiExample
) -> OpenApiResponse:
    """A documented error response whose body is `{"code": code, "detail": detail}`."""
    return OpenApiResponse(
        ErrorSerializer, description, examples=[error_example(code, detail), *more]
    )


MALFORMED_JSON = error_example(
    "malformed_json", "JSON parse error - Expecting value: line 1 column 1 (char 0)"
)
JSON_TOO_DEEP = error_example(
    parsers.JSON_TOO_DEEP, "The body nests arrays and objects over 32 deep."
)


def bad_request(*examples: OpenApiExample, body: bool = True) -> OpenApiResponse:
    """400: a field is wrong (`invalid`, see `errors`), or (with a body) it is not JSON or
    names a field it does not take."""
    what = (
        "The body is not JSON (`malformed_json`), nests arrays and objects deeper than "
        "REQUEST_JSON_MAX_DEPTH (32; `json_too_deep`), names a field it does not take "
        "(`unknown_field`, see `errors`), or a"
        if body
        else "A"
    )
    return OpenApiResponse(
        ValidationErrorSerializer,
        f"{what} field is wrong (`invalid`, see `errors`).",
        examples=[*examples, *([MALFORMED_JSON, JSON_TOO_DEEP] if body else [])],
    )


BODY_TOO_LARGE = error_response(
    "The body is over REQUEST_BODY_MAX_BYTES (64 KiB).",
    parsers.BODY_TOO_LARGE,
    "The body is over 65536 bytes.",
)


UNAUTHORIZED = error_response(
    "No token was sent (`not_authenticated`) or it is unknown (`invalid_token`).",
    "not_authenticated",
    "Authentication credentials were not provided.",
    error_example("invalid_token", "Invalid token."),
)

THROTTLED = OpenApiResponse(
    RetryErrorSerializer,
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

INSUFFICIENT_SCOPE = OpenApiResponse(
    ScopeErrorSerializer,
    "`insufficient_scope`: the token does not allow this (an OAuth2 or personal access "
    "token without the scopes in `scopes`, also named by `WWW-Authenticate`).",
    examples=[
        error_example(
            "insufficient_scope",
            "This token does not allow this: it needs race:play.",
            scopes=["race:play"],
        )
    ],
)

FIRST_PARTY_ONLY = OpenApiResponse(
    ScopeErrorSerializer,
    "`first_party_only`: managing the account is for first-party sign-ins, never for an "
    "app's token (OAuth2 or personal access token).",
    examples=[
        error_example(
            "first_party_only",
            "Only a first-party sign-in (POST /auth/token) may do this, not an app's token.",
            scopes=["account"],
        )
    ],
)

NOT_FOUND = error_response("No such object, or it is not yours.", "not_found", "Not found.")

NOT_ACCEPTABLE = error_response(
    "The `Accept` header asks for something other than JSON: the API only speaks JSON.",
    "not_acceptable",
    "Could not satisfy the request Accept header.",
)

UNSUPPORTED_MEDIA_TYPE = error_response(
    "The body is not sent as `Content-Type: application/json`.",
    "unsupported_media_type",
    'Unsupported media type "text/plain" in request.',
)

SERVER_ERROR = error_response(
    "A bug on our side; it is logged with the request id (`X-Request-ID`).",
    "server_error",
    "Something went wrong on our side; it is logged.",
)

DATABASE_UNAVAILABLE_DETAIL = (
    "The database is unavailable; retry shortly. (A request sent with `version` or an "
    "Idempotency-Key is safe to retry.)"
)
DATABASE_UNAVAILABLE = OpenApiResponse(
    RetryErrorSerializer,
    "`database_unavailable`: the database is restarting or unreachable; nothing was applied. "
    "Retry after `retry_after` seconds (also the `Retry-After` header).",
    examples=[error_example("database_unavailable", DATABASE_UNAVAILABLE_DETAIL, retry_after=5)],
)

METHOD_NOT_ALLOWED = error_response(
    "The path exists but not with this method; the `Allow` header lists those it takes.",
    "method_not_allowed",
    'Method "DELETE" not allowed.',
)

# -- response headers -------------------------------------------------------------------------
REQUEST_ID = OpenApiParameter(
    REQUEST_ID_HEADER,
    str,
    OpenApiParameter.HEADER,
    required=True,
    response=True,
    description="This request's id (yours if you sent a well-formed one): quote it in reports.",
)
RETRY_AFTER = OpenApiParameter(
    "Retry-After",
    int,
    OpenApiParameter.HEADER,
    required=True,
    response=[429, 503],
    description="Seconds to wait before retrying.",
)
# draft-ietf-httpapi-ratelimit-headers-06, on every answer of a throttled operation whose scope
# has a rate (base/throttling.py); of the counts the request was held to, the tightest.
RATELIMIT = [
    OpenApiParameter(
        name,
        int if name != "RateLimit-Policy" else str,
        OpenApiParameter.HEADER,
        required=False,
        response=True,
        description=text,
    )
    for name, text in (
        ("RateLimit-Limit", "Requests allowed in the window (the scope's rate)."),
        ("RateLimit-Remaining", "Requests left in it now (0 on a 429)."),
        (
            "RateLimit-Reset",
            "Seconds until one more request is admitted when none is left (as "
            "`Retry-After`), else until the current window ends.",
        ),
        ("RateLimit-Policy", "The quota policy: `<limit>;w=<window seconds>`, e.g. `1200;w=60`."),
    )
]
WWW_AUTHENTICATE = OpenApiParameter(
    "WWW-Authenticate",
    str,
    OpenApiParameter.HEADER,
    required=True,
    response=[401],
    description="`Bearer`, with the error when a token was refused.",
)
WWW_AUTHENTICATE_SCOPE = OpenApiParameter(
    "WWW-Authenticate",
    str,
    OpenApiParameter.HEADER,
    required=False,
    response=[403],
    description='With `insufficient_scope` (RFC 6750): `Bearer realm="api", '
    'error="insufficient_scope", scope="<the scopes needed>"`.',
)


class AutoSchema(openapi.AutoSchema):
    """The project's schema class: component names, security, implicit answers and headers.

    Names: `UserRegisterApi.InputSerializer` becomes `UserRegisterRequest` (drf-spectacular
    adds `Request` to request bodies) and `UserRegisterApi.OutputSerializer` `UserRegister`,
    so every view can have its own `InputSerializer`/`OutputSerializer` without clashing names.

    Security: an endpoint that needs a token has `[{"bearerAuth": []}]`; a public one none at
    all, whether it reads no token or an optional one (a token adds the caller's own
    details; an unknown one is still 401 `invalid_token`). OpenAPI's way to say "optional",
    `[{"bearerAuth": []}, {}]`, reads to client generators as "needs a token" (an
    openapi-python-client function then demands an `AuthenticatedClient`).
    """

    def get_serializer_name(
        self, serializer: serializers.Serializer, direction: Literal["request", "response"]
    ) -> str:
        parts = type(serializer).__qualname__.split(".")
        if len(parts) < 2 or "<locals>" in parts:
            return super().get_serializer_name(serializer, direction)
        head = parts[0].removesuffix("Api").removesuffix("View")
        tail = [p.removesuffix("Serializer") for p in parts[1:]]
        return head + "".join(p for p in tail if p not in ("Input", "Output"))

    def _map_basic_serializer(self, serializer: Any, direction: Any) -> dict[str, Any]:
        # A request body's rules across its fields (JsonInputSerializer.schema_rules), which no
        # one field's schema can say: a PATCH that must name something, fields that exclude
        # each other. Its `properties` narrow the fields' own schemas.
        schema = super()._map_basic_serializer(serializer, direction)
        if direction == "request" and isinstance(serializer, JsonInputSerializer):
            schema["additionalProperties"] = False  # an unknown field is 400 unknown_field
        rules = getattr(serializer, "schema_rules", None)
        if direction == "request" and rules:
            for key, value in copy.deepcopy(rules).items():
                if key == "properties":
                    for name, narrowed in value.items():
                        schema["properties"][name].update(narrowed)
                elif key == "required":
                    schema["required"] = sorted({*schema.get("required", []), *value})
                else:
                    schema[key] = value
        return schema

    def _get_request_for_media_type(self, serializer: Any, direction: Any = "request") -> Any:
        # drf-spectacular makes a body required when a field is; one whose rules refuse `{}`
        # (an absent body is read as one) is required as well.
        schema, required = super()._get_request_for_media_type(serializer, direction)
        rules = getattr(serializer, "schema_rules", None) or {}
        return schema, required or not Draft202012Validator(rules).is_valid({})

    def get_auth(self) -> list[dict[str, Any]]:
        if not self.view.get_authenticators():
            return []
        auth = super().get_auth()  # registers the scheme's component as well
        return [] if {} in auth else auth  # `{}`: anonymous allowed, so public

    def _scoped(self) -> bool:
        """The token's scopes are checked here (base.permissions)."""
        return any(isinstance(p, HasRequiredScopes) for p in self.view.get_permissions())

    def _throttled(self) -> bool:
        for throttle in self.view.get_throttles():
            if not isinstance(throttle, ScopedRateThrottle):
                return True
            if getattr(self.view, "throttle_scope", None):
                return True
        return False

    def _invalid_body(self) -> list[OpenApiExample]:
        """`invalid`, naming the body's first field, and `unknown_field`, naming that field
        misspelt, where a serializer reads the body."""
        serializer = self.get_request_serializer()
        if serializer is None:
            return []
        instance = serializer() if isinstance(serializer, type) else serializer
        fields = [str(name) for name in instance.fields]
        field = next(iter(fields), api_settings.NON_FIELD_ERRORS_KEY)
        return [invalid_example(field, "This field is required."), unknown_example(fields)]

    def _implicit_responses(self) -> dict[int, OpenApiResponse]:
        """The answers this endpoint can give whatever its view declares."""
        implicit = {406: NOT_ACCEPTABLE, 500: SERVER_ERROR}
        if self.view.get_authenticators():
            implicit[401] = UNAUTHORIZED
        if self._scoped():
            scopes = declared_scopes(self.view, self.method) or ()
            implicit[403] = FIRST_PARTY_ONLY if ACCOUNT in scopes else INSUFFICIENT_SCOPE
        if self.method in BODY_METHODS:
            # `invalid` where a serializer reads the body; the parser's codes wherever one is sent.
            implicit[400] = bad_request(*self._invalid_body())
            implicit[413] = BODY_TOO_LARGE
            implicit[415] = UNSUPPORTED_MEDIA_TYPE
        if self._throttled():
            implicit[429] = THROTTLED
        if getattr(self.view, "uses_database", True):
            implicit[503] = DATABASE_UNAVAILABLE
        return implicit

    def _get_response_bodies(self, direction: Any = "response") -> dict[str, Any]:
        # `@extend_schema(responses=...)` replaces get_response_serializers(), so the implicit
        # answers join here, after the declared ones (which win for the same code).
        # A declared answer also lists the implicit one's codes (a declared 503 `pool_empty`
        # is `database_unavailable` too).
        responses = super()._get_response_bodies(direction)
        for code, answer in self._implicit_responses().items():
            built = self._get_response_for_code(answer, str(code), direction=direction)
            if str(code) not in responses:
                responses[str(code)] = built
                continue
            declared = responses[str(code)].get("content", {}).get("application/json")
            implicit = built.get("content", {}).get("application/json", {})
            if declared is not None and code == 403:  # the body may carry `scopes` too
                declared["schema"] = implicit["schema"]
            if declared is not None and code >= 400:
                examples = declared.setdefault("examples", {})
                for name, example in implicit.get("examples", {}).items():
                    examples.setdefault(name, example)
        return dict(sorted(responses.items()))

    def get_override_parameters(self) -> list[Any]:
        headers = [REQUEST_ID, WWW_AUTHENTICATE]
        if self._scoped():
            headers.append(WWW_AUTHENTICATE_SCOPE)
        if self._throttled() or getattr(self.view, "uses_database", True):
            headers.append(RETRY_AFTER)  # on 429 and 503 (health declares its own)
        if self._throttled():
            headers.extend(RATELIMIT)
        return [*super().get_override_parameters(), *headers]


class BearerTokenScheme(OpenApiAuthenticationExtension):
    """Documents BearerTokenAuthentication as the `bearerAuth` security scheme."""

    target_class = BearerTokenAuthentication
    name = "bearerAuth"

    def get_security_definition(self, auto_schema: Any) -> dict[str, str]:
        return {
            "type": "http",
            "scheme": "bearer",
            "description": "`Authorization: Bearer <token>`, the token from "
            "`POST /api/v1/auth/register` or `POST /api/v1/auth/token`.",
        }


class OAuthScheme(DjangoOAuthToolkitScheme):
    """The `oauth2` security scheme (authorization code with PKCE; the flow's URLs and scopes
    from SPECTACULAR_SETTINGS), with each operation's scopes as its view declares them for
    the method. An operation for first-party tokens only has no `oauth2` entry at all."""

    target_class = "base.oauth.OAuthTokenAuthentication"
    priority = 1

    def get_security_requirement(self, auto_schema: Any) -> Any:
        if not any(isinstance(p, HasRequiredScopes) for p in auto_schema.view.get_permissions()):
            return None
        scopes = declared_scopes(auto_schema.view, auto_schema.method) or ()
        if ACCOUNT in scopes:
            return None
        return {self.name: list(scopes)}

    def get_security_definition(self, auto_schema: Any) -> dict[str, Any]:
        definition = super().get_security_definition(auto_schema)
        definition["description"] = (
            "OAuth2 for third-party apps: the authorization-code grant with PKCE (S256 only), "
            "for public apps (no secret) and confidential ones; refresh tokens rotate. Apps "
            "are registered at `/api/v1/apps` (or `/oauth/register`, RFC 7591); server "
            "metadata at `/.well-known/oauth-authorization-server`. Send the access token as "
            "`Authorization: Bearer <token>`. Each operation lists the scopes it needs."
        )
        return definition


def postprocess(result: dict[str, Any], generator: Any, request: Any, public: bool) -> Any:
    """drf-spectacular postprocessing hook: the answers no operation declares itself, and each
    error answer's `code` as an enum.

    405 is answered to a method a path does not take, so it belongs to no operation: it is a
    reusable component response (`MethodNotAllowed`) and the API description says so.
    """
    responses = result.setdefault("components", {}).setdefault("responses", {})
    responses["MethodNotAllowed"] = {
        "description": METHOD_NOT_ALLOWED.description,
        "headers": {
            "Allow": {"schema": {"type": "string"}, "description": "The methods it takes."},
        },
        "content": {
            "application/json": {
                "schema": {"$ref": "#/components/schemas/Error"},
                "examples": {"method_not_allowed": {"value": METHOD_NOT_ALLOWED_BODY}},
            },
        },
    }
    error_code_enums(result)
    return result


# The code sets several operations answer with, named by what they are about: the component
# is `<name><body>` (`BodyValidationError`: a body's field is wrong, or it is not JSON).
SHARED_ERRORS: dict[tuple[str, tuple[str, ...]], str] = {
    ("Error", ("invalid_token", "not_authenticated")): "Unauthorized",
    ("Error", ("future_date", "no_challenge")): "NoChallenge",
    ("Error", ("not_ready", "table_busy")): "NotReady",
    ("Error", ("not_a_guest", "username_taken")): "GuestName",
    ("Error", ("not_seated", "table_busy")): "NotSeated",
    ("ValidationError", ("invalid", "json_too_deep", "malformed_json", "unknown_field")): "Body",
    ("ValidationError", ("json_too_deep", "malformed_json")): "MalformedBody",
    ("ValidationError", ("bad_date", "invalid")): "Date",
    (
        "ValidationError",
        ("bad_card", "bad_layout", "bad_suits", "json_too_deep", "malformed_json"),
    ): "LayoutBody",
    ("ScopeError", ("insufficient_scope", "staff_only")): "StaffOnly",
    ("ScopeError", ("insufficient_scope", "not_opener")): "NotOpener",
    ("RetryError", ("daily_not_ready", "database_unavailable")): "DailyNotReady",
    ("RetryError", ("database_unavailable", "pool_empty")): "PoolEmpty",
}

METHOD_NOT_ALLOWED_BODY = {"code": "method_not_allowed", "detail": 'Method "DELETE" not allowed.'}
_REF = "#/components/schemas/"


def _pascal(name: str) -> str:
    return "".join(part[:1].upper() + part[1:] for part in name.replace("-", "_").split("_"))


def error_code_enums(result: dict[str, Any]) -> None:
    """Every error answer's `code` becomes an enum of the codes its examples name (one example
    per code each view can answer with that status, built from the errors the code raises), so
    a client can switch on them and the schema cannot quietly drift from the code.

    A body component used with one set of codes gets the enum itself; one used with several
    (`Error` is) is copied per set: `NotFoundError` for `not_found` alone; a set several
    operations answer with by its name in SHARED_ERRORS (so a generated client does not name
    it after whichever operation came first); else `<OperationId><status>Error`. The shared
    shape stays as it was, for reference. An error answer without an example, or a set shared
    by several operations without a name, is a bug in its declaration, refused here."""
    schemas = result.setdefault("components", {}).setdefault("schemas", {})
    answers: list[tuple[str, str, dict[str, Any], tuple[str, ...]]] = []
    for operation_id, status, content in _error_contents(result):
        base = content["schema"].get("$ref", "").removeprefix(_REF)
        if "code" not in schemas.get(base, {}).get("properties", {}):
            continue  # not the error shape (/health's 503 is its report)
        codes = tuple(sorted({ex["value"]["code"] for ex in content.get("examples", {}).values()}))
        if not codes:
            raise ValueError(f"{operation_id} {status}: an error answer with no example code")
        answers.append((operation_id, status, content, codes))
    sets: dict[str, set[tuple[str, ...]]] = {}
    operations: dict[tuple[str, tuple[str, ...]], set[str]] = {}
    for operation_id, _status, content, codes in answers:
        base = content["schema"]["$ref"].removeprefix(_REF)
        sets.setdefault(base, set()).add(codes)
        operations.setdefault((base, codes), set()).add(operation_id)
    made: dict[tuple[str, tuple[str, ...]], str] = {}
    for operation_id, status, content, codes in answers:
        base = content["schema"]["$ref"].removeprefix(_REF)
        if len(sets[base]) == 1:
            name = base
        elif (base, codes) in made:
            name = made[base, codes]
        else:
            if len(codes) == 1:
                head = _pascal(codes[0])
            elif len(operations[base, codes]) > 1:
                if (base, codes) not in SHARED_ERRORS:
                    raise ValueError(f"{base} {codes}: shared, so name it in SHARED_ERRORS")
                head = SHARED_ERRORS[base, codes]
            else:
                head = f"{_pascal(operation_id)}{status}"
            name = f"{head}{base}" if not base.startswith(head) else base + status
            if name in schemas:
                raise ValueError(f"error component {name} would replace another")
            schemas[name] = copy.deepcopy(schemas[base])
            made[base, codes] = name
        code = schemas[name]["properties"]["code"]
        code["enum"] = list(codes)
        code["type"] = "string"
        content["schema"] = {"$ref": _REF + name}


def _error_contents(result: dict[str, Any]) -> Any:
    for path_item in result.get("paths", {}).values():
        for method, operation in path_item.items():
            if not isinstance(operation, dict) or "responses" not in operation:
                continue
            for status, response in operation["responses"].items():
                content = response.get("content", {}).get("application/json")
                if status.isdigit() and int(status) >= 400 and content:
                    yield operation.get("operationId", method), status, content
    for name, response in result.get("components", {}).get("responses", {}).items():
        content = response.get("content", {}).get("application/json")
        if content:
            yield name, "", content


def etag_parameters(what: str, cache_control: str) -> list[OpenApiParameter]:
    """The conditional-GET headers of a cached read (base.conditional): ``If-None-Match``
    in, ``ETag`` and ``Cache-Control`` out (``what`` names the thing the ETag versions)."""
    return [
        OpenApiParameter(
            "If-None-Match",
            str,
            OpenApiParameter.HEADER,
            required=False,
            description=f"The `ETag` of {what} you hold (or a list of them, or `*`; `W/` is "
            "ignored, RFC 9110's weak comparison): 304 with no body if it is unchanged.",
        ),
        OpenApiParameter(
            "ETag",
            str,
            OpenApiParameter.HEADER,
            required=True,
            response=[200, 304],
            description=f"{what[0].upper()}{what[1:]}'s version; send it as `If-None-Match`.",
        ),
        OpenApiParameter(
            "Cache-Control",
            str,
            OpenApiParameter.HEADER,
            required=True,
            response=[200, 304],
            description=cache_control,
        ),
    ]


def not_modified(what: str) -> OpenApiResponse:
    """The 304 of a cached read whose ``If-None-Match`` matched: no body, the same headers."""
    return OpenApiResponse(description=f"Not modified: {what} is the one you hold.")
