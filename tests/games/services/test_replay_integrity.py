"""The stored snapshot is always what replaying the log from the deal gives: after random
play with undos, after a win, on a staff layout, after every kind of ending."""

import random

import pytest

from games import services
from games.engine import DEAL, Action, LayoutError, dump, load, replay
from games.engine.errors import IllegalAction
from games.models import Game
from games.services import ActionRequest
from tests.games.api.helpers import NEAR_WIN, layout_json, log_rows

pytestmark = pytest.mark.django_db


def replayed(game_id):
    game = Game.objects.select_related("deal").get(pk=game_id)
    log = [Action(row.kind, row.src, row.dst, row.count) for row in log_rows(game_id)]
    return game, replay(game.deal.layout(), log)


def assert_replays(game_id):
    game, board = replayed(game_id)
    assert dump(board) == game.snapshot
    assert (board.actions, board.undos, board.score) == (game.actions, game.undos, game.score)
    assert game.version == len(log_rows(game_id))


def random_request(board, rng):
    choices = board.legal_actions()
    if board.can_undo and (not choices or rng.random() < 0.15):
        return ActionRequest("undo")
    move = rng.choice(choices)
    if move == DEAL:
        return ActionRequest("deal")
    src, dst, count = move
    roll = rng.random()
    if roll < 0.2:
        return ActionRequest("move", src, dst)  # the longest run that fits
    if roll < 0.3:
        return ActionRequest("move", src)  # one-tap (may be refused: no destination)
    return ActionRequest("move", src, dst, count)


@pytest.mark.parametrize("suits", [1, 2, 4])
def test_random_play_with_undos_replays_to_the_snapshot(stock_pool, player, suits):
    stock_pool(suits, 1)
    game = services.game_create(player=player, suits=suits)
    rng = random.Random(suits)
    applied = refused = 0

    while applied < 200:
        board = load(Game.objects.get(pk=game.pk).snapshot)
        try:
            services.game_act(player=player, game_id=game.pk, action=random_request(board, rng))
        except Exception as exc:  # only a one-tap with nowhere to go may be refused
            assert getattr(exc, "code", None) == "no_destination", exc
            refused += 1
            continue
        applied += 1
        if applied % 40 == 0:
            assert_replays(game.pk)

    kinds = {row.kind for row in log_rows(game.pk)}
    assert kinds == {"move", "deal", "undo"}
    services.game_resign(player=player, game_id=game.pk)
    assert_replays(game.pk)


def test_a_won_game_replays_to_its_final_snapshot(stock_pool, player):
    (deal,) = stock_pool(2, 1)
    game = services.game_create(player=player, suits=2)

    for entry in deal.solver_line:
        action = Action.from_json(entry)
        request = ActionRequest(action.kind, action.src, action.dst, action.count)
        result = services.game_act(player=player, game_id=game.pk, action=request)

    assert result.game.status == "won"
    assert_replays(game.pk)
    _, board = replayed(game.pk)
    assert board.won


def test_a_staff_layout_game_replays_from_its_layout(staff):
    columns = ["5s" + NEAR_WIN[0], "4s|As", "|Ks", "|Ks", "|Qs", "|Qs", "|Js", "|Js", "|Ts", "|Ts"]
    layout = layout_json(columns, stock="9s9s8s8s7s7s6s6s3s3s")
    game = services.game_create(player=staff, suits=1, layout=layout)
    for request in (
        ActionRequest("move", 1, 0),  # completes a run, turns the 5s and the 4s
        ActionRequest("undo"),
        ActionRequest("move", 1, 0),
        ActionRequest("deal"),
        ActionRequest("undo"),
        ActionRequest("deal"),
    ):
        services.game_act(player=staff, game_id=game.pk, action=request)

    assert_replays(game.pk)


def test_an_abandoned_game_replays_too(stock_pool, player):
    stock_pool(1, 2)
    game = services.game_create(player=player, suits=1)
    services.game_act(player=player, game_id=game.pk, action=ActionRequest("deal"))
    services.game_act(player=player, game_id=game.pk, action=ActionRequest("undo"))

    services.game_create(player=player, suits=1)

    assert Game.objects.get(pk=game.pk).end_reason == "abandoned"
    assert_replays(game.pk)


def test_a_tampered_log_does_not_replay_to_the_snapshot(stock_pool, player):
    stock_pool(1, 1)
    game = services.game_create(player=player, suits=1)
    for request in (ActionRequest("deal"), ActionRequest("deal"), ActionRequest("undo")):
        services.game_act(player=player, game_id=game.pk, action=request)
    game.refresh_from_db()
    log = [Action(row.kind, row.src, row.dst, row.count) for row in log_rows(game.pk)]

    assert dump(replay(game.deal.layout(), log)) == game.snapshot
    assert dump(replay(game.deal.layout(), log[:-1])) != game.snapshot
    with pytest.raises((IllegalAction, LayoutError)):
        replay(game.deal.layout(), [log[2], *log[:2]])  # an undo before anything to undo
