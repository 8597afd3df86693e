"""The pool of solver-vetted deals as the game service uses it: each pooled deal goes to one
game, an empty pool answers 503 (never an unvetted deal), replays and staff games do not
touch it, and only games on pooled vetted deals are ranked."""

import pytest

from base import queueing
from games import pool
from games.engine import DEAL_VERSION, Action, Board, deal_layout, replay
from games.models import Deal, Game
from games.pool import VetBudget, pool_fill, pool_level, vet_seed
from games.solver import solve
from tests.games.api.helpers import (
    GAMES_URL,
    act,
    game_record,
    layout_json,
    new_game,
    ok,
    public_columns,
    refused,
    resign_url,
)
from tests.games.conftest import QUICK_SEEDS

pytestmark = pytest.mark.django_db


def test_each_pooled_deal_goes_to_one_game(stock_pool, make_user, auth_client):
    deals = stock_pool(1, 3)
    clients = [auth_client(make_user()) for _ in range(3)]

    games = [new_game(client, 1) for client in clients]

    rows = [Game.objects.select_related("deal").get(pk=g["id"]) for g in games]
    assert sorted(r.deal_id for r in rows) == sorted(d.pk for d in deals)
    for row, game in zip(rows, games, strict=True):
        assert game["columns"] == public_columns(Board(deal_layout(1, row.deal.seed)))
        assert game["ranked"] is True
        assert row.deal.state == Deal.State.DEALT


def test_an_empty_pool_is_503_pool_empty_with_retry_after(
    stock_pool, settings, player, player_client
):
    settings.POOL_RETRY_AFTER_SECONDS = 17
    stock_pool(1, 1)
    running = new_game(player_client, 1)
    ok(act(player_client, running["id"], "deal"))
    before = game_record(running["id"])

    response = player_client.post(GAMES_URL, {"suits": 1}, format="json")

    body = refused(response, 503, "pool_empty")
    assert response["Retry-After"] == "17"
    assert body["retry_after"] == 17
    # Nothing happened: the game in progress is not abandoned, no unvetted deal was made.
    assert game_record(running["id"]) == before
    assert Game.objects.filter(player=player).count() == 1
    assert Deal.objects.count() == 1


def test_each_suit_mode_has_its_own_pool(stock_pool, player_client):
    (two,) = stock_pool(2, 1)

    refused(player_client.post(GAMES_URL, {"suits": 1}, format="json"), 503, "pool_empty")
    refused(player_client.post(GAMES_URL, {"suits": 4}, format="json"), 503, "pool_empty")

    two.refresh_from_db()
    assert two.state == Deal.State.POOLED
    assert new_game(player_client, 2)["suits"] == 2


def test_rejected_dealt_and_staff_deals_are_never_handed_out(
    stock_pool, staff_client, player_client
):
    (deal,) = stock_pool(1, 1)
    Deal.objects.filter(pk=deal.pk).update(state=Deal.State.REJECTED, vetted=False)
    new_game(staff_client, 1, seed=QUICK_SEEDS[1][1])
    new_game(staff_client, 1, layout=layout_json(["|Ks"]))

    refused(player_client.post(GAMES_URL, {"suits": 1}, format="json"), 503, "pool_empty")


def test_a_replay_reuses_the_deal_and_is_not_ranked(stock_pool, player_client, other_client):
    (deal,) = stock_pool(1, 1)
    first = new_game(player_client, 1)
    ok(player_client.post(resign_url(first["id"])))

    mine = new_game(player_client, None, replay_of=first["id"])
    theirs = new_game(other_client, None, replay_of=first["id"])

    for game in (mine, theirs):
        assert game["ranked"] is False
        assert game["replay_of"] == first["id"]
        assert Game.objects.get(pk=game["id"]).deal_id == deal.pk
    assert first["ranked"] is True
    assert Deal.objects.count() == 1


def test_staff_games_are_never_ranked_even_on_a_vetted_seed(stock_pool, staff_client):
    (deal,) = stock_pool(1, 1)
    Deal.objects.filter(pk=deal.pk).update(state=Deal.State.DEALT)

    body = new_game(staff_client, 1, seed=deal.seed)

    assert Game.objects.get(pk=body["id"]).deal_id == deal.pk  # the vetted row itself
    assert body["ranked"] is False


def test_an_empty_pool_is_vetted_on_the_spot_when_time_allows(settings, monkeypatch, player_client):
    settings.POOL_SYNC_VET_SECONDS = 30
    monkeypatch.setattr(pool, "random_seeds", lambda: iter(QUICK_SEEDS[1]))

    body = new_game(player_client, 1)

    game = Game.objects.select_related("deal").get(pk=body["id"])
    deal = game.deal
    assert (deal.seed, deal.state, deal.vetted) == (QUICK_SEEDS[1][0], Deal.State.DEALT, True)
    assert replay(deal.layout(), map(Action.from_json, deal.solver_line)).won
    assert body["ranked"] is True


def test_fill_vets_until_the_target_and_stores_winning_lines():
    seeds = iter([11, 12, 13])

    added = pool_fill(suits=1, target=2, seeds=seeds)

    assert added == 2
    assert pool_level(suits=1) == 2
    assert next(seeds) == 13  # it stopped at the target
    for deal in Deal.objects.all():
        assert (deal.state, deal.vetted, deal.deal_version) == ("pooled", True, DEAL_VERSION)
        line = [Action.from_json(a) for a in deal.solver_line]
        assert deal.par == len(line)
        assert replay(deal_layout(1, deal.seed), line).won
    # The same seeds again add nothing: each seed is stored once.
    assert pool_fill(suits=1, target=5, seeds=iter([11, 12])) == 0
    assert Deal.objects.count() == 2


def test_the_stored_line_is_the_shortened_one_and_its_length_the_par(settings):
    settings.POOL_PAR_MAX_NODES = 0  # the vetting line alone, not searched again
    deal = vet_seed(suits=2, seed=3)

    result = solve(deal_layout(2, 3), max_nodes=VetBudget.from_settings(2).max_nodes)
    assert result.found_par is not None and result.par is not None
    assert result.par <= result.found_par  # shortened (never longer than found)
    assert deal.solver_line == [a.to_json() for a in result.line]
    assert deal.par == result.par == len(deal.solver_line)
    assert deal.improved_nodes is None
    assert replay(deal_layout(2, 3), result.line).won


def test_the_par_is_searched_again_as_the_dailys_is(settings):
    """Every vetted deal's line is searched again, wider (games.solver.improve), within
    POOL_PAR_MAX_NODES: the par players are shown is as short as the daily's, and the
    daily's own search of that deal finds it done."""
    from games.deals import deal_improve_line

    settings.POOL_PAR_MAX_NODES = 2_000_000
    plain = solve(deal_layout(2, 3), max_nodes=VetBudget.from_settings(2).max_nodes)
    deal = vet_seed(suits=2, seed=3)

    assert deal.improved_nodes is not None and deal.improved_nodes > 0
    assert deal.par == len(deal.solver_line) <= plain.par
    line = [Action.from_json(a) for a in deal.solver_line]
    assert replay(deal_layout(2, 3), line).won
    assert deal_improve_line(deal=deal, max_nodes=2_000_000) is False  # searched already


def test_the_solver_budget_is_nodes_unless_seconds_are_configured(settings):
    # 0 (the default): the solver's own cap, derived from the node budget, so a busy
    # machine spends the whole node budget rather than lose deals to the clock.
    settings.POOL_SOLVER_MAX_SECONDS = 0
    assert VetBudget.from_settings(4) == VetBudget(settings.POOL_SOLVER_MAX_NODES[4], None)
    settings.POOL_SOLVER_MAX_SECONDS = 30
    assert VetBudget.from_settings(4).max_seconds == 30


def test_a_deal_the_solver_cannot_win_in_budget_is_rejected_and_never_dealt(player_client):
    deal = vet_seed(suits=4, seed=11, budget=VetBudget(max_nodes=1000, max_seconds=5))

    assert (deal.state, deal.vetted, deal.solver_line) == (Deal.State.REJECTED, False, None)
    assert vet_seed(suits=4, seed=11) is None  # already judged: not solved again
    refused(player_client.post(GAMES_URL, {"suits": 4}, format="json"), 503, "pool_empty")


def test_a_low_pool_queues_its_fill_task_after_commit(
    stock_pool, player_client, settings, monkeypatch, django_capture_on_commit_callbacks
):
    from games.tasks import fill_pool

    settings.CELERY_TASK_ALWAYS_EAGER = False  # a broker: the fill is a queued task
    settings.POOL_AUTOFILL = True
    settings.POOL_LOW_WATER = 5
    queued: list[tuple[str, tuple]] = []
    monkeypatch.setattr(
        queueing.current_app, "send_task", lambda name, args=(), **kw: queued.append((name, args))
    )
    stock_pool(1, 1)

    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        new_game(player_client, 1)
    assert queued == []  # nothing is queued while the transaction may still roll back
    for callback in callbacks:
        callback()

    assert queued == [(fill_pool.name, (1,))]  # by the name the task is registered under


def test_beats_top_up_queues_a_fill_for_each_mode_below_the_low_water_mark(
    stock_pool, settings, monkeypatch
):
    from games.tasks import fill_pool, top_up_pools

    settings.CELERY_TASK_ALWAYS_EAGER = False  # a worker runs it, with a broker
    settings.POOL_LOW_WATER = 2
    queued: list[tuple[str, tuple]] = []
    monkeypatch.setattr(
        queueing.current_app, "send_task", lambda name, args=(), **kw: queued.append((name, args))
    )
    stock_pool(1, 2)

    assert top_up_pools() == {1: 2, 2: 0, 4: 0}
    assert queued == [(fill_pool.name, (2,)), (fill_pool.name, (4,))]


def test_without_a_broker_the_top_up_fills_each_mode_in_process(settings, monkeypatch):
    from games.tasks import top_up_pools

    settings.POOL_LOW_WATER = 1
    filled: list[int] = []
    monkeypatch.setattr(pool, "pool_fill", lambda *, suits: filled.append(suits) or 0)

    top_up_pools()

    assert filled == [1, 2, 4]
