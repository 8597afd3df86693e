"""The daily challenge's par: a worker searches the open challenges' lines again, wider, and
the shorter line it finds is the par shown once the day closes (leaderboard.services.
daily_improve_pars, games.deals.deal_improve_line)."""

from __future__ import annotations

import io
import logging
import threading
import time
from datetime import timedelta
from unittest import mock

import pytest
from django.core.management import call_command
from django.utils import timezone

from games import deals
from games.daily import day_closes_at
from games.engine import Action, replay
from games.models import Deal
from leaderboard import services
from leaderboard.models import DailyChallenge
from leaderboard.selectors import daily_info
from leaderboard.services import daily_ensure, daily_improve_pars
from leaderboard.tasks import create_daily_challenges
from spider_api import celery_app
from tests.celery_worker import celery_worker, needs_redis
from tests.games.conftest import pooled_deal
from tests.leaderboard.helpers import DAILY
from tests.leaderboard.test_daily_concurrency import run_threads

# 2-suit seed 1: vetting's line is 125 actions long; 300 000 positions find one of 96.
SEED, NODES = 1, 300_000


def wins(deal: Deal) -> bool:
    assert deal.solver_line is not None
    line = [Action.from_json(a) for a in deal.solver_line]
    return len(line) == deal.par and replay(deal.layout(), line).won


@pytest.fixture
def challenge(db, settings) -> DailyChallenge:
    """Today's challenge on 2-suit seed 1 (the only deal in the pool). The search's budget
    is a token one (no pass completes: the line stays) unless a test sets more."""
    settings.DAILY_PAR_MAX_NODES = 1_000
    pooled_deal(2, SEED)
    return daily_ensure(day=timezone.now().date())


def test_an_open_challenge_gets_a_shorter_par_that_wins(challenge, api_client, settings):
    settings.DAILY_PAR_MAX_NODES = NODES
    deal = challenge.deal
    before = deal.par
    assert before is not None and deal.improved_nodes is None and wins(deal)

    assert daily_improve_pars() == [challenge.date]

    deal.refresh_from_db()
    assert deal.par is not None and deal.par <= before - 10, (before, deal.par)
    assert wins(deal)  # the stored line is the par, and it replays to a win
    assert 0 < deal.improved_nodes <= NODES + 200
    # Shown once the day has closed, not before.
    assert api_client.get(DAILY).json()["par"] is None
    closed = day_closes_at(challenge.date) + timedelta(seconds=1)
    challenge.refresh_from_db()
    body = daily_info(challenge=challenge, viewer=None, now=closed)
    assert body["closed"] is True and body["par"] == deal.par


def test_each_deal_is_searched_once(challenge):
    assert daily_improve_pars() == []  # searched, nothing shorter found in 1000 positions
    deal = Deal.objects.get(pk=challenge.deal_id)
    searched = (deal.par, deal.solver_line, deal.improved_nodes)

    with mock.patch.object(deals, "improve", wraps=deals.improve) as improve:
        assert daily_improve_pars() == []
    assert improve.call_count == 0
    deal.refresh_from_db()
    assert (deal.par, deal.solver_line, deal.improved_nodes) == searched


def test_a_closed_day_keeps_the_par_it_showed(challenge):
    after_close = day_closes_at(challenge.date) + timedelta(minutes=5)
    assert daily_improve_pars(now=after_close) == []
    deal = Deal.objects.get(pk=challenge.deal_id)
    assert deal.improved_nodes is None and deal.par == challenge.deal.par


def test_no_budget_no_search(challenge, settings):
    settings.DAILY_PAR_MAX_NODES = 0
    with mock.patch.object(deals, "improve") as improve:
        assert daily_improve_pars() == []
    assert improve.call_count == 0
    assert Deal.objects.get(pk=challenge.deal_id).improved_nodes is None


def test_a_search_that_finds_nothing_shorter_marks_the_deal_and_keeps_the_line(challenge):
    before = Deal.objects.get(pk=challenge.deal_id)
    assert daily_improve_pars() == []
    deal = Deal.objects.get(pk=challenge.deal_id)
    assert (deal.par, deal.solver_line) == (before.par, before.solver_line)
    assert deal.improved_nodes is not None


def test_without_a_broker_creating_the_challenges_does_not_wait_for_the_search(db, settings):
    settings.DAILY_PAR_MAX_NODES = NODES
    pooled_deal(2, SEED)
    pooled_deal(2, 11)
    with mock.patch.object(services, "deal_improve_line") as search:
        create_daily_challenges()
    assert search.call_count == 0
    assert DailyChallenge.objects.count() == 2


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_workers_at_once_store_one_result(settings, caplog):
    """Both read the unsearched deal and search it (held at a barrier until both are done);
    the conditional write lets exactly one store, and the row is that one's whole result."""
    settings.DAILY_PAR_MAX_NODES = 30_000
    pooled_deal(2, SEED)
    challenge = daily_ensure(day=timezone.now().date())
    both_searched = threading.Barrier(2)

    def search_then_wait(*args, **kwargs):
        result = real_improve(*args, **kwargs)
        both_searched.wait(timeout=60)
        return result

    real_improve = deals.improve
    caplog.set_level(logging.INFO, logger="games.deals")
    with mock.patch.object(deals, "improve", side_effect=search_then_wait):
        _, errors = run_threads(2, daily_improve_pars)

    assert not errors, errors
    lines = [r.getMessage() for r in caplog.records if r.name == "games.deals"]
    assert len(lines) == 2, lines
    assert sum("another worker stored first" in line for line in lines) == 1, lines
    deal = Deal.objects.get(pk=challenge.deal_id)
    assert deal.improved_nodes is not None and wins(deal)


@pytest.mark.postgres
@pytest.mark.slow
@needs_redis
@pytest.mark.django_db(transaction=True)
def test_a_real_worker_runs_the_search_from_the_broker():
    """The task by its name, through Redis, on a worker process of its own queue."""
    pooled_deal(2, SEED)
    challenge = daily_ensure(day=timezone.now().date())
    with celery_worker(DAILY_PAR_MAX_NODES="20000") as worker:
        celery_app.send_task("leaderboard.tasks.improve_daily_pars", queue=worker.queue)
        deal = Deal.objects.get(pk=challenge.deal_id)
        deadline = time.monotonic() + 90
        while deal.improved_nodes is None and time.monotonic() < deadline:
            time.sleep(0.3)
            deal.refresh_from_db()
    assert deal.improved_nodes is not None, worker.output[-2000:]
    assert 0 < deal.improved_nodes <= 20_000 + 200
    assert wins(deal)
    assert "leaderboard.tasks.improve_daily_pars" in worker.output, worker.output[-2000:]


def test_the_command_runs_the_same_search(challenge, settings):
    settings.DAILY_PAR_MAX_NODES = NODES
    out = io.StringIO()
    call_command("improve_daily_pars", stdout=out)
    assert out.getvalue().strip() == f"shorter par: {challenge.date.isoformat()}"
    assert Deal.objects.get(pk=challenge.deal_id).improved_nodes is not None
    out = io.StringIO()
    call_command("improve_daily_pars", stdout=out)
    assert out.getvalue().strip() == "no open challenge's par changed"
