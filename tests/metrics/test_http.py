"""The HTTP figures: per route (the URL pattern, never the path), method and status; the time
to answer in buckets around the objectives; the requests in flight; throttled requests by
scope. No label holds a player, a game, a token or an address."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.games.api.helpers import NEAR_WIN, game_url, layout_json, new_game
from tests.metrics.helpers import AUTH, TOKEN, scrape, value

pytestmark = pytest.mark.django_db

GAME_ROUTE = "/api/v1/games/<uuid:game_id>"


def test_a_request_is_counted_under_its_route_pattern(metrics_on, staff_client, staff):
    game = new_game(staff_client, 1, layout=layout_json(NEAR_WIN))
    labels = {"route": GAME_ROUTE, "method": "GET"}
    before = value("spider_http_requests_total", **labels, status="200")
    timed = value("spider_http_request_duration_seconds_count", **labels)
    for _ in range(3):
        assert staff_client.get(game_url(game["id"])).status_code == 200
    assert value("spider_http_requests_total", **labels, status="200") == before + 3
    assert value("spider_http_request_duration_seconds_count", **labels) == timed + 3

    text = staff_client.get("/metrics", **AUTH).content.decode()
    assert game["id"] not in text and staff.username not in text and TOKEN not in text
    assert "127.0.0.1" not in text


def test_statuses_are_counted_apart(metrics_on, staff_client):
    missing = "/api/v1/games/00000000-0000-0000-0000-000000000000"
    labels = {"route": GAME_ROUTE, "method": "GET", "status": "404"}
    before = value("spider_http_requests_total", **labels)
    assert staff_client.get(missing).status_code == 404
    assert value("spider_http_requests_total", **labels) == before + 1


def test_a_path_no_pattern_matches_is_unmatched_and_odd_methods_other(metrics_on):
    client = Client()
    before = value("spider_http_requests_total", route="unmatched", method="GET", status="404")
    client.get("/no/such/page/12345")
    client.get("/another/made-up-path")
    after = value("spider_http_requests_total", route="unmatched", method="GET", status="404")
    assert after == before + 2

    odd = value("spider_http_requests_total", route="/health/live", method="other", status="405")
    assert client.generic("BREW", "/health/live").status_code == 405
    later = value("spider_http_requests_total", route="/health/live", method="other", status="405")
    assert later == odd + 1


def test_the_latency_buckets_hold_the_objective(metrics_on):
    Client().get("/health/live")
    samples = scrape(Client())["spider_http_request_duration_seconds_bucket"]
    bounds = {dict(labels)["le"] for labels in samples}
    assert {"0.1", "0.15", "0.25", "+Inf"} <= bounds


def test_the_scrape_itself_is_in_flight(metrics_on):
    samples = scrape(Client())
    assert samples["spider_http_requests_in_flight"][()] >= 1
    assert value("spider_http_requests_in_flight") == 0  # none once answered


def test_throttled_requests_by_scope(metrics_on, set_throttle_rate, player_client):
    set_throttle_rate("game_create", "1/min")
    before = value("spider_throttled_requests_total", scope="game_create")
    player_client.post("/api/v1/games", {"suits": 1}, format="json")  # counted (any answer)
    assert player_client.post("/api/v1/games", {"suits": 1}, format="json").status_code == 429
    assert value("spider_throttled_requests_total", scope="game_create") == before + 1
