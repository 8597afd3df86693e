"""Every response the test suite sees is checked against the OpenAPI schema the API publishes.

tests/conftest.py wraps Django's test client (and so DRF's APIClient) with ``check``: each
answer to a path of the schema must be documented for its operation, status code included,
with its documented headers and a body that matches its schema. The checker is openapi-core
(a strict OpenAPI 3.1 validator); on top of the published schema, every object is closed
(``additionalProperties: false`` where the schema leaves it open), so a field the schema does
not declare fails too. The schema is generated and parsed once per test session.

Not checked: paths outside the schema (the docs, the admin, ``/health/live``, unknown paths:
those are tested where they are served), OPTIONS and HEAD, answers with a test-only URLconf,
and the redirect of plain HTTP to HTTPS (``SECURE_SSL_REDIRECT``, before the API is reached).
Streamed answers (event streams) are checked by their own tests. A method a path does not
take must answer 405 in the documented error shape.
"""

from __future__ import annotations

import copy
import json
from functools import cache
from typing import Any

from django.http import HttpResponse
from drf_spectacular.generators import SchemaGenerator
from drf_spectacular.renderers import OpenApiJsonRenderer
from openapi_core import OpenAPI
from openapi_core.templating.paths.exceptions import OperationNotFound, PathNotFound
from openapi_core.testing import MockRequest, MockResponse

SKIPPED_METHODS = ("options", "head")


class SchemaMismatch(AssertionError):
    """A response that the schema does not describe."""


@cache
def published_schema() -> dict[str, Any]:
    """The schema as `/api/schema/` serves it (as JSON)."""
    schema = SchemaGenerator().get_schema(request=None, public=True)
    return json.loads(OpenApiJsonRenderer().render(schema))


def closed(node: Any) -> Any:
    """A copy of ``node`` in which every object schema with properties admits no others."""
    if isinstance(node, list):
        return [closed(item) for item in node]
    if not isinstance(node, dict):
        return node
    out = {key: closed(value) for key, value in node.items()}
    if out.get("type") == "object" and "properties" in out:
        out.setdefault("additionalProperties", False)
    return out


@cache
def _openapi() -> OpenAPI:
    spec = copy.deepcopy(published_schema())
    spec["components"]["schemas"] = closed(spec["components"]["schemas"])
    return OpenAPI.from_dict(spec)


def _headers(response: HttpResponse) -> dict[str, str]:
    return {name: value for name, value in response.headers.items()}


def check(method: str, path: str, query: dict[str, Any], response: HttpResponse) -> None:
    """Raise SchemaMismatch unless ``response`` to ``method path`` is documented as it is."""
    method = method.lower()
    if method in SKIPPED_METHODS or _https_redirect(response):
        return
    if getattr(response, "streaming", False):
        return  # an event stream has no body to hold whole; its tests check its events
    request = MockRequest("http://testserver", method, path, args=query)
    content_type = response.headers.get("Content-Type", "application/json").split(";")[0]
    answer = MockResponse(
        response.content, response.status_code, _headers(response), content_type=content_type
    )
    openapi = _openapi()
    try:
        openapi.validate_response(request, answer)
    except PathNotFound:
        return  # not an API operation (docs, admin, liveness, unknown paths)
    except OperationNotFound:
        _check_method_not_allowed(method, path, response)
    except Exception as exc:  # openapi-core's errors: say what and where
        raise SchemaMismatch(
            f"{method.upper()} {path} answered {response.status_code} "
            f"{response.content[:300]!r}, which the schema does not describe: {exc!r}"
            + (f" ({exc.__cause__!r})" if exc.__cause__ else "")
        ) from exc


def _https_redirect(response: HttpResponse) -> bool:
    """SECURE_SSL_REDIRECT's answer to plain HTTP: the proxy's concern, not the API's."""
    location = response.headers.get("Location", "")
    return response.status_code == 301 and location.startswith("https://")


def _check_method_not_allowed(method: str, path: str, response: HttpResponse) -> None:
    """A method no operation of the path has: 405 `method_not_allowed` with `Allow`."""
    body = json.loads(response.content) if response.content else None
    if (
        response.status_code != 405
        or "Allow" not in response.headers
        or not isinstance(body, dict)
        or set(body) != {"code", "detail"}
        or body["code"] != "method_not_allowed"
    ):
        raise SchemaMismatch(
            f"{method.upper()} {path} is no operation of the schema, so it must answer 405 "
            f"method_not_allowed with Allow; it answered {response.status_code} "
            f"{response.content[:300]!r}"
        )
