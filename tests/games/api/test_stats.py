"""Per-player, per-suit-mode statistics: streaks, records, the five best wins; every way a
game ends; staff-made games never count; the update is part of the game-ending transaction.

A player's wins come from pooled deals whose start is ``NEAR_WIN`` (one move from the end),
through the ordinary creation path: the Ace is walked through ``extra`` empty columns first
(one action each), then onto the King..2 run.
"""

from datetime import timedelta

import pytest

from games.models import Game, PlayerStats
from games.services import games_expire_idle
from tests.games.api.helpers import (
    GAMES_URL,
    ME_URL,
    NEAR_WIN,
    act,
    game_record,
    layout_json,
    new_game,
    ok,
    player_url,
    pooled_layout_deal,
    resign_url,
)

pytestmark = pytest.mark.django_db


def _start(client):
    pooled_layout_deal(NEAR_WIN)
    return new_game(client, 1)["id"]


def _win(client, clock, extra=0, think_ms=0, undo=False):
    """Win a fresh game in ``extra + 1`` actions (+2 with ``undo``), the last one
    ``think_ms`` after the first."""
    gid = _start(client)
    column = 1
    for _ in range(extra):
        ok(act(client, gid, "move", from_=column, to=column + 1))
        column += 1
    if undo:
        ok(act(client, gid, "move", from_=column, to=column + 1))
        ok(act(client, gid, "undo"))
    clock.advance(ms=think_ms)
    body = ok(act(client, gid, "move", from_=column, to=0))
    assert body["status"] == "won"
    clock.advance(seconds=1)
    return body


def _lose(client):
    gid = _start(client)
    ok(act(client, gid, "move", from_=1, to=2))
    body = ok(client.post(resign_url(gid)))
    assert body["status"] == "lost"
    return body


def _mode(client, username, suits=1):
    stats = ok(client.get(player_url(username)))["stats"]
    return next(s for s in stats if s["suits"] == suits)


STREAKS = "played wins current_win_streak best_win_streak current_loss_streak worst_loss_streak"


def test_streaks_follow_a_sequence_of_wins_and_losses(player, player_client, clock):
    expected = {
        # result: played, wins, current/best win streak, current/worst losing streak
        1: ("W", (1, 1, 1, 1, 0, 0)),
        2: ("W", (2, 2, 2, 2, 0, 0)),
        3: ("L", (3, 2, 0, 2, 1, 1)),
        4: ("W", (4, 3, 1, 2, 0, 1)),
        5: ("L", (5, 3, 0, 2, 1, 1)),
        6: ("L", (6, 3, 0, 2, 2, 2)),
        7: ("L", (7, 3, 0, 2, 3, 3)),
        8: ("W", (8, 4, 1, 2, 0, 3)),
        9: ("W", (9, 5, 2, 2, 0, 3)),
        10: ("W", (10, 6, 3, 3, 0, 3)),
        11: ("L", (11, 6, 0, 3, 1, 3)),
    }
    for n, (result, counts) in expected.items():
        _win(player_client, clock) if result == "W" else _lose(player_client)

        mode = _mode(player_client, player.username)
        assert tuple(mode[k] for k in STREAKS.split()) == counts, n
        assert mode["win_rate"] == round(counts[1] / counts[0], 4)


def test_records_and_the_five_best_wins(player, player_client, clock):
    wins = {
        "A": _win(player_client, clock, extra=2, think_ms=10_000),  # 597
        "B": _win(player_client, clock, extra=1, think_ms=20_000),  # 598
        "C": _win(player_client, clock, extra=1, think_ms=5_000),  # 598
        "D": _win(player_client, clock, extra=3, think_ms=1_500),  # 596, the fastest
        "E": _win(player_client, clock, extra=4, think_ms=40_000),  # 595
        "F": _win(player_client, clock, extra=5, think_ms=3_000),  # 594
        "G": _win(player_client, clock, think_ms=2_000, undo=True),  # 597, not perfect
    }
    _lose(player_client)
    assert [w["score"] for w in wins.values()] == [597, 598, 598, 596, 595, 594, 597]

    mode = _mode(player_client, player.username)

    assert (mode["played"], mode["wins"], mode["win_rate"]) == (8, 7, 0.875)
    assert mode["fastest_win_ms"] == 1500
    assert mode["fewest_actions_win"] == 2
    assert mode["best_score"] == 598
    # By score, then time, then finish time.
    assert [w["game"] for w in mode["best_wins"]] == [wins[k]["id"] for k in "CBGAD"]
    best = mode["best_wins"][2]
    assert best == {
        "game": wins["G"]["id"],
        "score": 597,
        "actions": 3,
        "elapsed_ms": 2000,
        "finished_at": wins["G"]["finished_at"],
        "perfect": False,
    }
    assert mode["best_wins"][0]["perfect"] is True


def test_every_way_of_losing_counts_and_ends_the_win_streak(player, player_client, clock):
    _win(player_client, clock)
    _win(player_client, clock)

    # Abandoned: a new game while this one has an action.
    abandoned = _start(player_client)
    ok(act(player_client, abandoned, "move", from_=1, to=2))
    fresh = _start(player_client)
    assert Game.objects.get(pk=abandoned).end_reason == "abandoned"
    mode = _mode(player_client, player.username)
    assert (mode["played"], mode["current_win_streak"], mode["current_loss_streak"]) == (3, 0, 1)

    # Discarded: no action taken, so no game at all (and the next creation is what ends it).
    assert _start(player_client) and not Game.objects.filter(pk=fresh).exists()
    assert _mode(player_client, player.username)["played"] == 3

    # Resigned with no action: a loss all the same.
    ok(player_client.post(resign_url(Game.objects.get(player=player, status="in_progress").pk)))
    assert _mode(player_client, player.username)["current_loss_streak"] == 2

    # Expired: idle too long with an action taken.
    idle = _start(player_client)
    ok(act(player_client, idle, "move", from_=1, to=2))
    assert games_expire_idle(idle=timedelta(hours=1), now=clock.now + timedelta(hours=2)) == 1
    assert Game.objects.get(pk=idle).end_reason == "expired"

    mode = _mode(player_client, player.username)
    assert (mode["played"], mode["wins"]) == (5, 2)
    assert (mode["current_loss_streak"], mode["worst_loss_streak"]) == (3, 3)
    assert (mode["current_win_streak"], mode["best_win_streak"]) == (0, 2)


def test_each_suit_mode_has_its_own_statistics(stock_pool, player, player_client, clock):
    _win(player_client, clock)
    stock_pool(2, 1)
    game = new_game(player_client, 2)
    ok(player_client.post(resign_url(game["id"])))

    stats = {s["suits"]: s for s in ok(player_client.get(player_url(player.username)))["stats"]}

    assert (stats[1]["played"], stats[1]["wins"], stats[1]["current_win_streak"]) == (1, 1, 1)
    assert (stats[2]["played"], stats[2]["wins"], stats[2]["current_loss_streak"]) == (1, 0, 1)
    assert (stats[4]["played"], stats[4]["best_wins"]) == (0, [])


def test_staff_made_games_never_count(
    stock_pool, staff, staff_client, player, player_client, clock
):
    won = new_game(staff_client, 1, layout=layout_json(NEAR_WIN))
    assert ok(act(staff_client, won["id"], "move", from_=1, to=0))["status"] == "won"
    seeded = new_game(staff_client, 1, seed=12345)
    ok(act(staff_client, seeded["id"], "deal"))
    ok(staff_client.post(resign_url(seeded["id"])))
    abandoned = new_game(staff_client, 1, layout=layout_json(NEAR_WIN))
    ok(act(staff_client, abandoned["id"], "move", from_=1, to=2))
    expired = new_game(staff_client, 1, layout=layout_json(NEAR_WIN))  # abandons the last
    ok(act(staff_client, expired["id"], "move", from_=1, to=2))
    games_expire_idle(idle=timedelta(hours=1), now=clock.now + timedelta(hours=2))
    assert Game.objects.get(pk=abandoned["id"]).end_reason == "abandoned"
    assert Game.objects.get(pk=expired["id"]).end_reason == "expired"
    # A player's replay of a staff game is staff-made too.
    replay = ok(player_client.post(GAMES_URL, {"replay_of": won["id"]}, format="json"), 201)
    ok(act(player_client, replay["id"], "move", from_=1, to=0))

    assert not PlayerStats.objects.exists()
    for client, user in ((staff_client, staff), (player_client, player)):
        for mode in ok(client.get(player_url(user.username)))["stats"]:
            assert (mode["played"], mode["wins"], mode["best_wins"]) == (0, 0, [])


def test_statistics_change_in_the_transaction_that_ends_the_game(
    player, player_client, monkeypatch
):
    gid = _start(player_client)
    ok(act(player_client, gid, "move", from_=1, to=2))
    before = game_record(gid)

    def broken(*, game):
        raise RuntimeError("stats store down")

    monkeypatch.setattr("games.services.endings.player_stats_record", broken)
    player_client.raise_request_exception = False

    assert player_client.post(resign_url(gid)).status_code == 500
    assert act(player_client, gid, "move", from_=2, to=0).status_code == 500

    # Neither the resignation nor the winning move happened without its statistics.
    assert game_record(gid) == before
    assert not PlayerStats.objects.exists()
    monkeypatch.undo()
    assert ok(act(player_client, gid, "move", from_=2, to=0))["status"] == "won"
    assert _mode(player_client, player.username)["wins"] == 1


def test_me_shows_your_statistics(player, player_client, clock):
    _win(player_client, clock, extra=1, think_ms=700)

    me = ok(player_client.get(ME_URL))

    assert me["username"] == player.username
    assert me["stats"] == ok(player_client.get(player_url(player.username)))["stats"]
    one = next(s for s in me["stats"] if s["suits"] == 1)
    assert (one["wins"], one["fastest_win_ms"], one["fewest_actions_win"]) == (1, 700, 2)
