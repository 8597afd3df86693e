"""The published schema says what the API really does: every error field, status code and
header, enums where values are enums, one pagination shape, valid OpenAPI 3.1, no quirks that
client generators misread. (The responses themselves are checked against it in
tests/conftest.py; tests/test_generated_client.py plays a game through a generated client.)
"""

from __future__ import annotations

import inspect
import json
from collections.abc import Iterator
from typing import Any

import pytest
from openapi_spec_validator import validate

from tests.schema_check import published_schema

METHODS = ("get", "post", "put", "patch", "delete")
BOARDS = ("/api/v1/leaderboard", "/api/v1/daily/{day}/leaderboard")
IDEMPOTENT = (
    ("post", "/api/v1/games"),
    ("post", "/api/v1/games/{game_id}/actions"),
    ("post", "/api/v1/games/{game_id}/resign"),
)


@pytest.fixture(scope="module")
def schema() -> dict[str, Any]:
    return published_schema()


def operations(schema: dict[str, Any]) -> Iterator[tuple[str, str, dict[str, Any]]]:
    for path, item in schema["paths"].items():
        for method in METHODS:
            if method in item:
                yield method, path, item[method]


def ref(schema: dict[str, Any], node: dict[str, Any]) -> dict[str, Any]:
    if "$ref" in node:
        return schema["components"]["schemas"][node["$ref"].rsplit("/", 1)[-1]]
    return node


def body_schema(schema: dict[str, Any], response: dict[str, Any]) -> dict[str, Any]:
    return ref(schema, response["content"]["application/json"]["schema"])


def walk(node: Any) -> Iterator[dict[str, Any]]:
    if isinstance(node, dict):
        yield node
        for value in node.values():
            yield from walk(value)
    elif isinstance(node, list):
        for value in node:
            yield from walk(value)


def test_the_schema_is_valid_openapi_3_1_with_no_nullable(schema):
    assert schema["openapi"].startswith("3.1")
    validate(schema)  # openapi-spec-validator, strict
    assert not [node for node in walk(schema) if "nullable" in node]


def test_a_version_conflict_documents_the_game_it_carries(schema):
    conflict = schema["paths"]["/api/v1/games/{game_id}/actions"]["post"]["responses"]["409"]
    body = body_schema(schema, conflict)

    game = body["properties"]["game"]
    assert game.get("allOf", [game])[0] == {"$ref": "#/components/schemas/GameState"}
    assert set(body["required"]) == {"code", "detail", "game"}


def test_every_endpoint_documents_the_answers_it_can_give(schema):
    for method, path, operation in operations(schema):
        codes = set(operation["responses"])
        where = f"{method.upper()} {path}"
        assert {"406", "500", "503"} <= codes, where
        if method == "post":
            assert {"400", "415"} <= codes, where
        if operation.get("security"):
            assert "401" in codes, where
        if path != "/health":
            retry = body_schema(schema, operation["responses"]["503"])
            assert set(retry["required"]) == {"code", "detail", "retry_after"}, where


@pytest.mark.parametrize(
    ("method", "path", "codes", "why"),
    [
        ("post", "/api/v1/daily/play", {"429", "503"}, "pool_empty"),
        ("get", "/api/v1/daily", {"503"}, "daily_not_ready"),
        ("get", "/api/v1/daily/{day}/leaderboard", {"503"}, "daily_not_ready"),
        ("post", "/api/v1/games", {"429", "503"}, "pool_empty"),
        ("post", "/api/v1/games/{game_id}/actions", {"429", "503"}, "database_unavailable"),
        ("post", "/api/v1/auth/register", {"429", "503"}, "database_unavailable"),
    ],
)
def test_throttled_and_pool_backed_endpoints_say_so(schema, method, path, codes, why):
    responses = schema["paths"][path][method]["responses"]
    assert codes <= set(responses)
    assert why in responses["503"]["description"]
    assert "database_unavailable" in responses["503"]["description"]


def test_response_headers_are_declared(schema):
    for method, path, operation in operations(schema):
        for code, response in operation["responses"].items():
            headers = response.get("headers", {})
            assert "X-Request-ID" in headers, (method, path, code)
            if code in ("429",) or (code == "503" and path != "/health"):
                assert "Retry-After" in headers, (method, path, code)
            if code == "401":
                assert "WWW-Authenticate" in headers, (method, path, code)
    for path in BOARDS:
        operation = schema["paths"][path]["get"]
        for code in ("200", "304"):
            assert {"ETag", "Cache-Control"} <= set(operation["responses"][code]["headers"])
        headers = {p["name"] for p in operation["parameters"] if p["in"] == "header"}
        assert "If-None-Match" in headers
    for method, path in IDEMPOTENT:
        responses = schema["paths"][path][method]["responses"]
        success = "201" if path == "/api/v1/games" else "200"
        assert "Idempotent-Replayed" in responses[success]["headers"], path
    assert "Allow" in schema["components"]["responses"]["MethodNotAllowed"]["headers"]


def test_no_operation_reads_as_needing_a_token_it_does_not_need(schema):
    """`security: [{}]` alone, or `[{bearerAuth: []}, {}]`, makes generators demand an
    authenticated client: a public operation has no security entry."""
    public = {
        ("post", "/api/v1/auth/register"),
        ("post", "/api/v1/auth/token"),
        ("post", "/api/v1/auth/guest"),
        ("post", "/api/v1/auth/password-reset"),
        ("post", "/api/v1/auth/password-reset/confirm"),
        ("get", "/api/v1/leaderboard"),
        ("get", "/api/v1/daily/{day}/leaderboard"),
        ("get", "/api/v1/daily/days"),
        ("get", "/api/v1/leaderboard/games/{game_id}"),
        ("get", "/api/v1/players/{username}/places"),
        ("get", "/api/v1/rules"),
        ("get", "/health"),
        # A token is optional on these (it adds the caller's own details): public all the same.
        ("get", "/api/v1/daily"),
        ("get", "/api/v1/games/{game_id}"),
        ("get", "/api/v1/games/{game_id}/actions"),
        ("get", "/api/v1/games/{game_id}/analysis"),
        ("get", "/api/v1/games/{game_id}/positions/{step}"),
        ("get", "/api/v1/games/{game_id}/analysis"),
        ("get", "/api/v1/players/{username}"),
        ("get", "/api/v1/players/{username}/races"),
        ("get", "/api/v1/players/{username}/games"),
        ("get", "/api/v1/players/{username}/daily"),
    }
    for method, path, operation in operations(schema):
        security = operation.get("security")
        assert security != [{}], (method, path)
        assert not security or {} not in security, (method, path)
        if (method, path) in public:
            assert security is None, (method, path)
        else:
            assert {"bearerAuth": []} in security, (method, path)


def test_the_oauth2_scheme_lists_every_scope_and_each_operation_its_own(schema):
    from base.scopes import SCOPES

    scheme = schema["components"]["securitySchemes"]["oauth2"]
    flow = scheme["flows"]["authorizationCode"]
    assert scheme["type"] == "oauth2" and set(scheme["flows"]) == {"authorizationCode"}
    assert flow["authorizationUrl"] == "/oauth/authorize"
    assert flow["tokenUrl"] == flow["refreshUrl"] == "/oauth/token"
    assert flow["scopes"] == SCOPES  # every scope, with what the approval page says of it
    for method, path, operation in operations(schema):
        for requirement in operation.get("security") or []:
            assert set(requirement) <= {"oauth2", "bearerAuth"}, (method, path)
            assert set(requirement.get("oauth2", [])) <= set(SCOPES), (method, path)
    security = {(m, p): op.get("security") for m, p, op in operations(schema) if op.get("security")}
    assert security["post", "/api/v1/games"] == [{"oauth2": ["game:play"]}, {"bearerAuth": []}]
    assert security["post", "/api/v1/races"] == [{"oauth2": ["race:play"]}, {"bearerAuth": []}]
    # Managing the account and its apps: first-party tokens only, so no oauth2 entry.
    assert security["post", "/api/v1/apps"] == [{"bearerAuth": []}]
    assert security["post", "/api/v1/auth/claim"] == [{"bearerAuth": []}]


def test_the_health_report_documents_each_check(schema):
    health = body_schema(schema, schema["paths"]["/health"]["get"]["responses"]["200"])
    checks = ref(schema, health["properties"]["checks"])

    assert set(checks["properties"]) == {"database", "broker", "pool", "beat"}
    fields = {
        name: set(ref(schema, node)["properties"]) for name, node in checks["properties"].items()
    }
    assert fields["database"] == {"status", "error", "latency_ms"}
    assert fields["broker"] == {"status", "error", "latency_ms"}
    assert fields["pool"] == {"status", "error", "low_water", "target", "modes"}
    assert fields["beat"] == {"status", "error", "last_run", "age_s", "stale_after_s"}
    assert health["properties"]["status"] == {"$ref": "#/components/schemas/HealthStatusEnum"}


@pytest.mark.parametrize(
    ("name", "enum"),
    [
        ("suits", "SuitsEnum"),
        ("kind", None),  # a game's GameKindEnum, a token's ApiTokenKindEnum
        ("status", None),  # a named enum, which one depends on the object
        ("end_reason", None),  # a game's EndReasonEnum, a race's RaceEndReasonEnum
    ],
)
def test_enum_values_are_one_named_enum_everywhere(schema, name, enum):
    seen = []
    for node in walk(schema):
        field = node.get("properties", {}).get(name)
        if field is None:
            continue
        refs = [f["$ref"] for f in [field, *field.get("oneOf", [])] if "$ref" in f]
        assert refs and refs[0].endswith("Enum"), (name, field)
        seen.append(refs[0].rsplit("/", 1)[-1])
    for _method, _path, operation in operations(schema):
        for parameter in operation.get("parameters", []):
            if parameter["name"] == name:
                seen.append(parameter["schema"]["$ref"].rsplit("/", 1)[-1])
    assert seen
    if enum is not None:
        assert set(seen) == {enum}
    assert schema["components"]["schemas"]["SuitsEnum"]["enum"] == [1, 2, 4]
    game = schema["components"]["schemas"]["GameState"]["properties"]
    assert "#/components/schemas/EndReasonEnum" in [
        f.get("$ref") for f in game["end_reason"]["oneOf"]
    ]


def test_every_list_is_paged_alike_with_a_maximum_page_size(schema):
    lists = 0
    for _method, path, operation in operations(schema):
        parameters = {p["name"]: p["schema"] for p in operation.get("parameters", [])}
        if "page_size" in parameters:
            lists += 1
            assert parameters["page_size"]["maximum"] == 100, path
            assert parameters["page"]["minimum"] == 1, path
            page = body_schema(schema, operation["responses"]["200"])
            assert set(page["properties"]) == {"page", "page_size", "has_next", "results"}, path
    for node in schema["components"]["schemas"].values():
        if "results" in node.get("properties", {}):
            assert set(node["properties"]) == {"page", "page_size", "has_next", "results"}
    assert lists == 6  # your games, a player's finished games, the boards, the daily days, apps


def test_dates_are_documented_as_dates(schema):
    daily = schema["paths"]["/api/v1/daily"]["get"]["parameters"]
    board = schema["paths"]["/api/v1/daily/{day}/leaderboard"]["get"]["parameters"]
    assert next(p for p in daily if p["name"] == "date")["schema"] == {
        "type": "string",
        "format": "date",
    }
    assert next(p for p in board if p["name"] == "day")["schema"] == {
        "type": "string",
        "format": "date",
    }


def test_examples_belong_to_their_endpoint(schema):
    """An `invalid` example names a field the endpoint really takes; an `unknown_field` one a
    field it does not take."""
    for method, path, operation in operations(schema):
        taken = {p["name"] for p in operation.get("parameters", [])}
        request = operation.get("requestBody", {}).get("content", {}).get("application/json")
        if request:
            taken |= set(ref(schema, request["schema"]).get("properties", {}))
        for response in operation["responses"].values():
            content = response.get("content", {}).get("application/json", {})
            for example in content.get("examples", {}).values():
                errors = example["value"].get("errors", {})
                if example["value"].get("code") == "unknown_field":
                    assert errors and not set(errors) & taken, (method, path, errors)
                else:
                    assert set(errors) <= taken, (method, path, errors)


def _our_docstrings() -> set[str]:
    import accounts.views
    import base.openapi
    import base.pagination
    import games.serializers
    import games.views
    import leaderboard.views
    import spider_api.health

    modules = (
        accounts.views,
        games.serializers,
        games.views,
        leaderboard.views,
        spider_api.health,
        base.openapi,
        base.pagination,
    )
    return {
        inspect.cleandoc(cls.__doc__)
        for module in modules
        for _, cls in inspect.getmembers(module, inspect.isclass)
        if cls.__module__ == module.__name__ and cls.__doc__
    }


def test_no_internal_docstring_is_published(schema):
    published = json.dumps(schema)
    for doc in _our_docstrings():
        assert json.dumps(doc)[1:-1] not in published, doc


def test_a_hint_is_the_body_of_an_action(schema):
    hint = schema["components"]["schemas"]["Hint"]["properties"]["action"]
    body = schema["paths"]["/api/v1/games/{game_id}/actions"]["post"]["requestBody"]
    act = body["content"]["application/json"]["schema"]

    assert hint["oneOf"] == [act, {"type": "null"}]
    assert "post" in schema["paths"]["/api/v1/games/{game_id}/hint"]
    assert "get" not in schema["paths"]["/api/v1/games/{game_id}/hint"]
