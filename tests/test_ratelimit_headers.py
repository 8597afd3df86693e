"""The limits a client can read: the RateLimit-* fields (draft-ietf-httpapi-ratelimit-headers-06)
on every answer of a throttled endpoint, Retry-After on every 429 and 503, per player and, for
an app's OAuth2 token, per app as well; exposed to browsers and described in the schema."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
from rest_framework.test import APIRequestFactory

from base.throttling import ScopedRateThrottle
from tests.games.api.helpers import act, new_game, pooled_layout_deal, refused
from tests.schema_check import published_schema

pytestmark = pytest.mark.django_db
FIELDS = ("RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset", "RateLimit-Policy")


def test_actions_carry_the_ratelimit_fields_down_to_the_429(user, auth_client, set_throttle_rate):
    set_throttle_rate("actions", "3/min")
    client = auth_client(user)
    pooled_layout_deal(["|KsQsJsTs9s8s7s6s5s4s3s", "|2s", "|As"])  # a deal in the pool
    game = new_game(client, 1)

    # The 2s goes to an empty column and back, and again: three legal moves, then one more.
    moves = [(1, 5), (5, 1), (1, 5), (5, 1)]
    answers = [act(client, game["id"], "move", from_=a, to=b) for a, b in moves[:3]]
    refusal = act(client, game["id"], "move", from_=5, to=1)

    assert [a.status_code for a in answers] == [200, 200, 200]
    assert [a["RateLimit-Remaining"] for a in answers] == ["2", "1", "0"]
    for answer in [*answers, refusal]:
        assert answer["RateLimit-Limit"] == "3"
        assert answer["RateLimit-Policy"] == "3;w=60"
        assert 1 <= int(answer["RateLimit-Reset"]) <= 60
    body = refused(refusal, 429, "throttled")
    assert refusal["RateLimit-Remaining"] == "0"
    assert refusal["RateLimit-Reset"] == refusal["Retry-After"] == str(body["retry_after"])


def test_the_tightest_of_two_scopes_is_reported(user, auth_client, set_throttle_rate):
    set_throttle_rate("game_create", "10/min")
    set_throttle_rate("pool", "2/min")  # a new game counts in both
    client = auth_client(user)
    pooled_layout_deal(["|KsQsJsTs9s8s7s6s5s4s3s", "|2s", "|As"])  # a deal in the pool
    response = client.post("/api/v1/games", {"suits": 1}, format="json")
    assert response.status_code == 201
    assert (response["RateLimit-Limit"], response["RateLimit-Remaining"]) == ("2", "1")


def test_an_unthrottled_endpoint_has_no_ratelimit_fields(api_client):
    response = api_client.get("/api/v1/leaderboard", {"suits": 1})
    assert response.status_code == 200
    assert not any(response.has_header(name) for name in FIELDS)


def test_an_apps_token_is_counted_for_the_player_and_for_the_app(user, set_throttle_rate):
    set_throttle_rate("actions", "4/min")
    view = type("View", (), {"throttle_scope": "actions"})()

    def ask(app: int | None) -> tuple[bool, int]:
        request: Any = APIRequestFactory().post("/")
        request.user = user
        request.auth = SimpleNamespace(application_id=app)  # a DOT AccessToken's shape
        allowed = ScopedRateThrottle().allow_request(request, view)
        return allowed, request.ratelimit.remaining

    assert ask(7) == (True, 3)  # app 7 for the player: the player's count and the app's
    assert ask(7) == (True, 2)
    assert ask(None) == (True, 1)  # the player's own token: the same player's budget
    assert ask(8) == (True, 0)  # another app: its own count is fresh, the player's is not
    assert ask(8) == (False, 0)  # the player's budget is one, whatever the number of apps
    assert ask(None) == (False, 0)

    from django.core.cache import cache

    apps = {k.split(":app:")[1].split(":")[0] for k in cache._cache if ":app:" in k}
    assert apps == {"7", "8"}  # one count per app (LocMem's own store)


def test_browsers_may_read_the_ratelimit_fields(client, settings):
    settings.CORS_ALLOWED_ORIGINS = ["https://app.example.com"]
    response = client.get(
        "/api/v1/leaderboard", {"suits": 1}, HTTP_ORIGIN="https://app.example.com"
    )
    exposed = {h.strip().lower() for h in response["Access-Control-Expose-Headers"].split(",")}
    assert {f.lower() for f in FIELDS} | {"retry-after"} <= exposed


def test_a_degraded_health_says_when_to_poll_again(client, settings):
    from spider_api import health

    settings.POOL_AUTOFILL = False
    response = client.get("/health")  # no vetted deal in any suit mode: the pool is down
    assert response.status_code == 503
    assert int(response["Retry-After"]) == health.HEALTH_RETRY_AFTER_SECONDS


def test_the_schema_describes_the_limits_of_throttled_operations():
    paths = published_schema()["paths"]
    act = paths["/api/v1/games/{game_id}/actions"]["post"]["responses"]
    for status in ("200", "429"):
        assert set(FIELDS) <= set(act[status]["headers"]), status
    assert "Retry-After" in act["429"]["headers"]
    export = paths["/api/v1/me/export"]["get"]["responses"]
    assert "429" in export and set(FIELDS) <= set(export["200"]["headers"])
    board = paths["/api/v1/leaderboard"]["get"]["responses"]["200"]
    assert not set(FIELDS) & set(board.get("headers", {}))
    health = paths["/health"]["get"]["responses"]["503"]
    assert "Retry-After" in health["headers"]
