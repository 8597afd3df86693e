"""The game's figures (games/metrics.py): actions applied and refused by code and suit mode,
games started and ended by mode, kind and result, hints and analyses with their CPU time,
and the vetted pool (its depth when scraped, each deal's vetting, an empty pool met)."""

from __future__ import annotations

import pytest
from django.test import Client

from games.pool import vet_seed
from tests.games.api.helpers import NEAR_WIN, act, game_url, layout_json, new_game, ok, refused
from tests.games.api.test_analysis import _analysis_settings, analysis_url, lost_trap_game  # noqa: F401
from tests.games.api.test_hint_endpoint import TEACHING, ask
from tests.games.conftest import QUICK_SEEDS
from tests.metrics.helpers import scrape, value

pytestmark = pytest.mark.django_db


def test_actions_applied_and_refused_by_code_and_suit_mode(metrics_on, staff_client):
    game = new_game(staff_client, 1, layout=layout_json(NEAR_WIN))
    applied = value("spider_game_actions_total", suits="1", result="applied")
    code = act(staff_client, game["id"], "move", from_=0, to=1).json()["code"]
    wrong = value("spider_game_actions_total", suits="1", result=code)
    stale = value("spider_game_actions_total", suits="1", result="version_conflict")

    refused(act(staff_client, game["id"], "move", from_=0, to=1), 422, code)
    refused(
        act(staff_client, game["id"], "move", from_=1, to=0, version=7), 409, "version_conflict"
    )
    ok(act(staff_client, game["id"], "move", from_=1, to=0))

    assert value("spider_game_actions_total", suits="1", result=code) == wrong + 1
    assert value("spider_game_actions_total", suits="1", result="version_conflict") == stale + 1
    assert value("spider_game_actions_total", suits="1", result="applied") == applied + 1


def test_an_action_on_no_game_is_refused_in_no_mode(metrics_on, player_client):
    before = value("spider_game_actions_total", suits="unknown", result="not_found")
    missing = "00000000-0000-0000-0000-000000000000"
    refused(act(player_client, missing, "deal"), 404, "not_found")
    assert value("spider_game_actions_total", suits="unknown", result="not_found") == before + 1


def test_games_started_and_ended_once_committed(
    metrics_on, staff_client, django_capture_on_commit_callbacks
):
    started = value("spider_games_started_total", suits="1", kind="casual")
    won = value("spider_games_ended_total", suits="1", kind="casual", result="won", reason="won")
    resigned = {"suits": "1", "kind": "casual", "result": "given_up", "reason": "resigned"}
    given_up = value("spider_games_ended_total", **resigned)

    with django_capture_on_commit_callbacks(execute=True):
        game = new_game(staff_client, 1, layout=layout_json(NEAR_WIN))
    with django_capture_on_commit_callbacks(execute=True):
        ok(act(staff_client, game["id"], "move", from_=1, to=0))
    with django_capture_on_commit_callbacks(execute=True):
        other = new_game(staff_client, 1, layout=layout_json(NEAR_WIN))
    with django_capture_on_commit_callbacks(execute=True):
        ok(staff_client.post(f"{game_url(other['id'])}/resign"))
    with django_capture_on_commit_callbacks(execute=False):  # rolled back: never counted
        new_game(staff_client, 1, layout=layout_json(NEAR_WIN))

    assert value("spider_games_started_total", suits="1", kind="casual") == started + 2
    ended = value("spider_games_ended_total", suits="1", kind="casual", result="won", reason="won")
    assert ended == won + 1
    assert value("spider_games_ended_total", **resigned) == given_up + 1


def test_hints_by_source_with_the_searches_cpu_time(metrics_on, staff_client):
    game = new_game(staff_client, 4, layout=layout_json(TEACHING))
    searched = value("spider_hint_lookups_total", suits="4", source="search")
    cached = value("spider_hint_lookups_total", suits="4", source="cache")
    timed = value("spider_hint_cpu_seconds_count", suits="4")
    ok(ask(staff_client, game["id"]))
    ok(ask(staff_client, game["id"], n=1))  # the same position: the ranking kept
    assert value("spider_hint_lookups_total", suits="4", source="search") == searched + 1
    assert value("spider_hint_lookups_total", suits="4", source="cache") == cached + 1
    assert value("spider_hint_cpu_seconds_count", suits="4") == timed + 1
    assert value("spider_hint_cpu_seconds_sum", suits="4") > 0


def test_an_analysis_by_status_with_its_cpu_time(
    metrics_on, staff_client, django_capture_on_commit_callbacks
):
    done = value("spider_analyses_total", suits="1", status="done")
    timed = value("spider_analysis_cpu_seconds_count", suits="1")
    game_id = lost_trap_game(staff_client)
    with django_capture_on_commit_callbacks(execute=True):
        ok(staff_client.post(analysis_url(game_id)), 202)
    assert value("spider_analyses_total", suits="1", status="done") == done + 1
    assert value("spider_analysis_cpu_seconds_count", suits="1") == timed + 1


def test_each_vetting_is_timed_by_verdict(metrics_on, settings):
    settings.POOL_PAR_MAX_NODES = 0
    pooled = value("spider_pool_vet_seconds_count", suits="1", verdict="pooled")
    rejected = value("spider_pool_vet_seconds_count", suits="1", verdict="rejected")
    assert vet_seed(suits=1, seed=QUICK_SEEDS[1][0]).state == "pooled"
    settings.POOL_SOLVER_MAX_NODES = {**settings.POOL_SOLVER_MAX_NODES, 1: 1000}
    assert vet_seed(suits=1, seed=QUICK_SEEDS[1][1]).state == "rejected"  # not proved
    assert value("spider_pool_vet_seconds_count", suits="1", verdict="pooled") == pooled + 1
    assert value("spider_pool_vet_seconds_count", suits="1", verdict="rejected") == rejected + 1


def test_the_pool_depth_when_scraped_and_an_empty_pool_met(
    metrics_on, stock_pool, player_client, settings
):
    stock_pool(1, 2)
    samples = scrape(Client())
    assert samples["spider_pool_deals"][(("suits", "1"),)] == 2
    assert samples["spider_pool_deals"][(("suits", "2"),)] == 0
    assert samples["spider_pool_low_water_deals"][()] == settings.POOL_LOW_WATER

    before = value("spider_pool_empty_total", suits="2")
    refused(player_client.post("/api/v1/games", {"suits": 2}, format="json"), 503, "pool_empty")
    assert value("spider_pool_empty_total", suits="2") == before + 1
