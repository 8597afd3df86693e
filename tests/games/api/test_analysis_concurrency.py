"""The post-game analysis on PostgreSQL: eight players asking for one game's analysis at the
same moment get one analysis; a real Celery worker runs it from Redis, on its own queue."""

from __future__ import annotations

import time

import pytest

from games.models import Analysis, Deal
from spider_api import celery_app
from tests.celery_worker import celery_worker, needs_redis
from tests.games.api.helpers import act, game_url, layout_json, new_game, ok
from tests.games.api.test_concurrency import client_for, together
from tests.solver.test_analysis import LOSE, WIN

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

TRAP_LAYOUT = layout_json(
    ["|KsQsJsTs9s8s7s6s5s4s3s2s", "|As", "|Ks", "|Qs", "|Js"], stock="Ts9s8s7s6s5s4s3s2sAs"
)
SMALL_BUDGET = {
    "ANALYSIS_PROBE_MAX_NODES_1": "60000",
    "ANALYSIS_MAX_NODES": "1000000",
    "ANALYSIS_PROOF_MAX_NODES": "20000",
    "REVIEW_SAMPLE": "6",
    "REVIEW_WORLD_SEARCH_NODES_1": "10000",
    "REVIEW_MAX_NODES_1": "1000000",
}


def lost_trap_game(client) -> str:
    game_id = new_game(client, 1, layout=TRAP_LAYOUT)["id"]
    Deal.objects.filter(games=game_id).update(solver_line=[a.to_json() for a in WIN])
    ok(act(client, game_id, "move", from_=LOSE.src, to=LOSE.dst, count=1))
    ok(client.post(f"{game_url(game_id)}/resign"))
    return game_id


def test_eight_players_asking_at_once_make_one_analysis(make_user, settings, monkeypatch) -> None:
    settings.ANALYSIS_QUEUE_MAX = 100
    queued: list[int] = []
    monkeypatch.setattr("games.services.analyses.queue_analysis", queued.append)  # nothing runs
    owner = make_user(is_staff=True)
    game_id = lost_trap_game(client_for(owner))
    players = [owner] + [make_user() for _ in range(7)]
    clients = [client_for(p) for p in players]
    answers = together(8, lambda i: clients[i].post(f"{game_url(game_id)}/analysis"))
    assert [r.status_code for r in answers] == [202] * 8, [r.content for r in answers]
    assert Analysis.objects.count() == 1
    assert len({r.json()["requested_at"] for r in answers}) == 1  # the same analysis
    assert queued == [Analysis.objects.get().pk]  # queued once, by the one that made it


@pytest.mark.slow
@needs_redis
def test_a_real_worker_runs_the_analysis_from_redis(make_user, settings) -> None:
    owner = make_user(is_staff=True)
    client = client_for(owner)
    game_id = lost_trap_game(client)
    with celery_worker(**SMALL_BUDGET) as worker:
        settings.ANALYSIS_QUEUE = worker.queue  # this test's worker, nobody else's
        settings.CELERY_TASK_ALWAYS_EAGER = False
        ok(client.post(f"{game_url(game_id)}/analysis"), 202)
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            if Analysis.objects.get().status != Analysis.Status.PENDING:
                break
            time.sleep(0.5)
        body = ok(client.get(f"{game_url(game_id)}/analysis"))
    assert body["status"] == "done", (body, worker.output[-3000:])
    assert body["result"]["turning_point"]["index"] == 0
    assert "games.tasks.analyse_game" in worker.output, worker.output[-2000:]
    assert celery_app.conf.task_routes["games.tasks.analyse_game"]["queue"] == "analysis"
