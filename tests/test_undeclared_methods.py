"""A method an endpoint does not have (TRACE, say) answers 405 with a JSON body, signed in or
not; never a 500. A format no renderer has (`?format=AAA`) is 406, not a 404 for a path that
exists."""

from __future__ import annotations

import pytest

from tests.conftest import token_of

pytestmark = pytest.mark.django_db

PATHS = ["/api/v1/me", "/api/v1/me/settings", "/api/v1/leaderboard", "/api/v1/daily"]


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("method", ["TRACE", "PURGE"])
def test_an_undeclared_method_is_a_json_405(api_client, make_user, path, method) -> None:
    api_client.credentials(HTTP_AUTHORIZATION=f"Bearer {token_of(make_user())}")
    response = api_client.generic(method, path)
    assert response.status_code == 405, response.content
    assert response.json()["code"] == "method_not_allowed"


@pytest.mark.parametrize("path", ["/api/v1/me/export", "/api/v1/me", "/api/v1/leaderboard"])
def test_an_unknown_format_is_406_naming_the_formats_there_are(api_client, make_user, path) -> None:
    api_client.credentials(HTTP_AUTHORIZATION=f"Bearer {token_of(make_user())}")
    response = api_client.get(path, {"format": "AAA"})
    assert response.status_code == 406, response.content
    body = response.json()
    assert body["code"] == "not_acceptable"
    assert "'AAA'" in body["detail"] and "json" in body["detail"]


@pytest.mark.parametrize("path", PATHS)
def test_options_describes_the_endpoint_to_a_signed_in_player(api_client, make_user, path) -> None:
    api_client.credentials(HTTP_AUTHORIZATION=f"Bearer {token_of(make_user())}")
    response = api_client.options(path)
    assert response.status_code == 200, response.content
    assert "name" in response.json()


def test_head_answers_every_read_as_get_does_without_a_body(auth_client, user):
    """HEAD is GET without the body, on every read of the schema: the same status (never a
    500 for a view whose scopes are declared per method). The servers drop the body
    (tests/oauth/test_processes.py sees none come over the wire)."""
    from races import services as race_services
    from tests.games.conftest import pooled_deal
    from tests.schema_check import published_schema

    player = auth_client(user)
    pooled_deal(1, 1)
    game = player.post("/api/v1/games", {"suits": 1}, format="json").json()
    table = race_services.table_open(player=user, suits=1)
    values = {
        "game_id": game["id"],
        "step": "0",
        "day": "2026-01-01",
        "username": user.username,
        "code": table.code,
    }
    checked = 0
    for path, item in published_schema()["paths"].items():
        if "get" not in item or path.endswith("/events"):  # the stream: its own ASGI view
            continue
        concrete = path.format(**values)
        got, head = player.get(concrete), player.head(concrete)
        assert head.status_code == got.status_code, (path, head.status_code, got.status_code)
        checked += 1
    assert checked >= 20
