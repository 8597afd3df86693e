"""For every operation, the `code` values the schema declares per status are the codes its view
can answer with (read from the source by tests/error_codes.py), so a client that switches on
the enum misses none and the schema lists none that cannot happen."""

from __future__ import annotations

from typing import Any

import pytest
from drf_spectacular.generators import SchemaGenerator

from tests.error_codes import DYNAMIC, REFUSED, RULE_ERROR, project, raised_by
from tests.schema_check import published_schema

# Answered by the framework or for every operation of a kind (base.openapi adds them):
# no view raises them itself.
IMPLICIT = {
    400: {"malformed_json", "json_too_deep", "invalid", "unknown_field"},
    401: {"not_authenticated", "invalid_token"},
    403: {
        "permission_denied",
        "insufficient_scope",
        "first_party_only",
    },  # the scope check: base.permissions
    406: {"not_acceptable"},
    413: {"body_too_large"},
    415: {"unsupported_media_type"},
    429: {"throttled"},
    500: {"server_error"},
    503: {"database_unavailable"},
}


def _view_key(view: Any, method: str) -> str:
    cls = type(view)
    if cls.__name__ == "RaceEventsApi":  # documents races.stream's async view
        return "races.stream:race_events"
    return f"{cls.__module__}:{cls.__qualname__}.{method.lower()}"


def _declared(operation: dict[str, Any], schema: dict[str, Any]) -> dict[int, set[str]]:
    out = {}
    for status, response in operation["responses"].items():
        content = response.get("content", {}).get("application/json")
        if not content or int(status) < 400:
            continue
        name = content["schema"].get("$ref", "").rsplit("/", 1)[-1]
        code = schema["components"]["schemas"].get(name, {}).get("properties", {}).get("code")
        if code is not None:
            out[int(status)] = set(code["enum"])
    return out


def _operations() -> list[tuple[str, str, str]]:
    generator = SchemaGenerator()
    generator.parse(None, True)
    paths = published_schema()["paths"]
    return [
        (method, path, _view_key(view, method))
        for path, _regex, method, view in generator._get_paths_and_endpoints()
        if method.lower() in paths.get(path, {})
    ]


@pytest.mark.parametrize(("method", "path", "key"), _operations())
def test_the_schema_declares_the_codes_the_view_raises(method, path, key):
    schema = published_schema()
    declared = _declared(schema["paths"][path][method.lower()], schema)
    raised: dict[int, set[str]] = {}
    for status, code in raised_by(key):
        if status != 405:  # a method the path does not take: components/responses/MethodNotAllowed
            raised.setdefault(status, set()).add(code)

    undeclared = {s: codes - declared.get(s, set()) for s, codes in raised.items()}
    assert not {s: c for s, c in undeclared.items() if c}, f"{key} raises, undeclared"
    stale = {
        s: codes - raised.get(s, set()) - IMPLICIT.get(s, set()) for s, codes in declared.items()
    }
    assert not {s: c for s, c in stale.items() if c}, f"{key}: declared, never raised"


def test_every_error_answer_declares_its_codes_as_an_enum():
    schema = published_schema()
    for path, item in schema["paths"].items():
        for method, operation in item.items():
            for status, response in operation["responses"].items():
                content = response.get("content", {}).get("application/json")
                if int(status) < 400 or not content or (path, status) == ("/health", "503"):
                    continue
                name = content["schema"]["$ref"].rsplit("/", 1)[-1]
                code = schema["components"]["schemas"][name]["properties"]["code"]
                assert code["type"] == "string" and code["enum"], (method, path, status)
    allowed = schema["components"]["responses"]["MethodNotAllowed"]["content"]
    name = allowed["application/json"]["schema"]["$ref"].rsplit("/", 1)[-1]
    assert schema["components"]["schemas"][name]["properties"]["code"]["enum"] == [
        "method_not_allowed"
    ]


def test_the_edges_no_name_shows_still_exist():
    """A renamed service would silently drop a DYNAMIC edge: each end must be a function."""
    functions = {
        f"{name}:{qualname}" for name, module in project().items() for qualname in module.functions
    }
    for caller, callees in DYNAMIC.items():
        assert caller in functions, caller
        for callee in callees:
            assert callee in functions, callee
    assert {REFUSED, RULE_ERROR} <= functions
