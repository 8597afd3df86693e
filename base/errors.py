"""One error shape for the whole API: `{"code": "...", "detail": "human sentence", ...extra}`.

Domain code raises `DomainError` (an instance or a subclass); `exception_handler` renders it, and
every DRF and Django exception, in that shape. `code` is stable and meant for programs; `detail`
is for people and may be reworded. Django's own 400/403/404/500 pages, used for paths outside
DRF, are replaced by the JSON views at the bottom, so the API never answers HTML.
"""

import logging
from collections.abc import Mapping
from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import InterfaceError, OperationalError
from django.http import Http404, HttpRequest, JsonResponse
from rest_framework import exceptions
from rest_framework.response import Response
from rest_framework.serializers import as_serializer_error
from rest_framework.settings import api_settings
from rest_framework.views import exception_handler as drf_exception_handler
from rest_framework.views import set_rollback

from base.authentication import BEARER_CHALLENGE
from base.serializers import UNKNOWN_FIELD

# DRF's default codes that we rename; every other DRF code (not_authenticated,
# permission_denied, not_found, method_not_allowed, unsupported_media_type, throttled, ...) is
# used as it is.
_RENAMED_CODES = {"parse_error": "malformed_json", "authentication_failed": "invalid_token"}

# The database is down, restarting or unreachable: 503 `database_unavailable` with Retry-After,
# logged as one line (no traceback: it is an outage, not a bug).
DATABASE_ERRORS = (OperationalError, InterfaceError)
DATABASE_RETRY_AFTER_SECONDS = 5
_log = logging.getLogger("spider_api.errors")  # the service's log names (docs/operations.md)


def database_unavailable_body() -> dict[str, Any]:
    return {
        "code": "database_unavailable",
        "detail": "The database is unavailable; retry shortly. (A request sent with `version` "
        "or an Idempotency-Key is safe to retry.)",
        "retry_after": DATABASE_RETRY_AFTER_SECONDS,
    }


def _log_database_unavailable(exc: Exception, path: str) -> None:
    reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    _log.warning("database unavailable on %s: %s", path, reason, extra={"error": reason})


def database_unavailable_response(exc: Exception, path: str) -> JsonResponse:
    """The answer to a request that failed because the database could not be reached."""
    _log_database_unavailable(exc, path)
    response = JsonResponse(database_unavailable_body(), status=503)
    response["Retry-After"] = str(DATABASE_RETRY_AFTER_SECONDS)
    response._has_been_logged = True  # type: ignore[attr-defined]  # once is enough
    return response


class DomainError(Exception):
    """A well-formed request that the domain refuses, answered with `status` and
    `{"code": code, "detail": detail, **extra}`.

    Raise an instance, or declare a subclass whose class attributes are the defaults:

        raise DomainError("stock_empty", "The stock is empty.", 422)

        class VersionConflict(DomainError):
            code, detail, status = "version_conflict", "The game has moved on.", 409

        raise VersionConflict(extra={"state": state})
    """

    code: str = "refused"
    detail: str = "The request was refused."
    status: int = 400

    def __init__(
        self,
        code: str | None = None,
        detail: str | None = None,
        status: int | None = None,
        extra: Mapping[str, Any] | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> None:
        self.code = code or self.code
        self.headers = dict(headers or {})  # e.g. Retry-After on a 503
        self.detail = detail or self.detail
        self.status = status or self.status
        self.extra = dict(extra or {})
        if {"code", "detail"} & self.extra.keys():
            raise ValueError("`extra` may not override `code` or `detail`.")
        super().__init__(self.detail)

    def as_dict(self) -> dict[str, Any]:
        return {"code": self.code, "detail": self.detail, **self.extra}


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """DRF's EXCEPTION_HANDLER: render `exc` in the API's error shape.

    Returns None for exceptions nobody expected; Django then answers with `server_error` (500).
    """
    if isinstance(exc, DomainError):
        set_rollback()
        response = Response(exc.as_dict(), status=exc.status, headers=exc.headers)
        if exc.status == 401:
            response["WWW-Authenticate"] = BEARER_CHALLENGE
        return response

    if isinstance(exc, DATABASE_ERRORS):
        set_rollback()
        _log_database_unavailable(exc, context["request"].path if context.get("request") else "")
        response = Response(
            database_unavailable_body(),
            status=503,
            headers={"Retry-After": str(DATABASE_RETRY_AFTER_SECONDS)},
        )
        response._has_been_logged = True  # type: ignore[attr-defined]  # once is enough
        return response

    if isinstance(exc, DjangoValidationError):
        exc = exceptions.ValidationError(as_serializer_error(exc))
    elif isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied()

    # DRF's handler sets WWW-Authenticate and Retry-After and marks the transaction for rollback.
    answer = drf_exception_handler(exc, context)
    if answer is None:
        return None  # not an APIException: nobody expected it
    assert isinstance(exc, exceptions.APIException)
    answer.data = _body(exc)
    return answer


def _body(exc: exceptions.APIException) -> dict[str, Any]:
    if isinstance(exc, exceptions.ValidationError):
        errors = exc.detail
        if not isinstance(errors, dict):
            errors = {api_settings.NON_FIELD_ERRORS_KEY: errors}
        flat = _flat(errors)
        if _codes(exc.get_codes()) == {UNKNOWN_FIELD}:  # only fields the body does not take
            return {"code": UNKNOWN_FIELD, "detail": unknown_fields_detail(flat), "errors": flat}
        return {"code": "invalid", "detail": _summary(errors), "errors": flat}

    code = getattr(exc.detail, "code", None) or exc.default_code
    detail = exc.detail if isinstance(exc.detail, str) else exc.default_detail
    body: dict[str, Any] = {"code": _RENAMED_CODES.get(code, code), "detail": str(detail)}
    wait = getattr(exc, "wait", None)  # Throttled sets it (its stubs do not declare it)
    if isinstance(exc, exceptions.Throttled) and wait is not None:
        body["retry_after"] = wait
    body.update(getattr(exc, "extra", {}))  # base.permissions.InsufficientScope's scopes
    return body


def _summary(errors: dict[str, Any]) -> str:
    """A sentence naming the first problem: 'Invalid input: password: This field is required.'"""
    path, message = _first_error(errors)
    where = "" if path in ("", api_settings.NON_FIELD_ERRORS_KEY) else f"{path}: "
    return f"Invalid input: {where}{message}"


def unknown_fields_detail(flat: dict[str, list[str]]) -> str:
    """'Unknown field: deal_over_gaps. Did you mean deal_over_gap?' (one), or the fields'
    names (several; `errors` says of each what it may have meant)."""
    if len(flat) == 1:
        path, messages = next(iter(flat.items()))
        hint = messages[0].removeprefix("Unknown field: ")
        return f"Unknown field: {path}. {hint[:1].upper()}{hint[1:]}"
    return f"Unknown fields: {', '.join(flat)}."


def _codes(codes: Any) -> set[str]:
    """Every code in ValidationError.get_codes()'s nesting."""
    if isinstance(codes, dict):
        return set().union(*(_codes(value) for value in codes.values()))
    if isinstance(codes, list):
        return set().union(*(_codes(value) for value in codes))
    return {str(codes)}


def _flat(errors: Any, path: str = "") -> dict[str, list[str]]:
    """Each field's messages under its path, as the schema promises (a field -> a list of
    sentences): ``{"redirect_uris": {"0": [...]}}`` is ``{"redirect_uris.0": [...]}``, a
    list of nested objects' errors ``items[1].name``; the same paths as ``_summary``'s."""
    if isinstance(errors, dict):
        flat: dict[str, list[str]] = {}
        for key, value in errors.items():
            flat.update(_flat(value, f"{path}.{key}" if path else str(key)))
        return flat
    if isinstance(errors, list) and any(isinstance(value, (dict, list)) for value in errors):
        flat = {}
        for index, value in enumerate(errors):
            if isinstance(value, dict):
                flat.update(_flat(value, f"{path}[{index}]"))
            elif value:
                flat.update(_flat(value, path))
        return flat
    messages = errors if isinstance(errors, list) else [errors]
    return {path: [str(m) for m in messages]}


def _first_error(errors: Any, path: str = "") -> tuple[str, str]:
    if isinstance(errors, dict):
        for key, value in errors.items():
            return _first_error(value, f"{path}.{key}" if path else str(key))
    if isinstance(errors, list):
        for index, value in enumerate(errors):
            if value:  # a list of nested serializers has {} for the valid items
                inner = f"{path}[{index}]" if isinstance(value, dict) else path
                return _first_error(value, inner)
    return path, str(errors)


# --- Django's handlers for paths outside DRF (handler400/403/404/500 in the root URLconf) ------


def handle_bad_request(request: HttpRequest, exception: Exception | None = None) -> JsonResponse:
    return JsonResponse({"code": "bad_request", "detail": "The request is malformed."}, status=400)


def permission_denied(request: HttpRequest, exception: Exception | None = None) -> JsonResponse:
    body = {"code": "permission_denied", "detail": "You may not do this."}
    return JsonResponse(body, status=403)


def page_not_found(request: HttpRequest, exception: Exception | None = None) -> JsonResponse:
    body = {"code": "not_found", "detail": f"Nothing is at {request.path}. See /api/docs/."}
    return JsonResponse(body, status=404)


def server_error(request: HttpRequest) -> JsonResponse:
    body = {"code": "server_error", "detail": "Something went wrong on our side; it is logged."}
    return JsonResponse(body, status=500)
