"""Where a ranked daily attempt stands among the day's, and its share text: aggregates only
while the day is open (no card, no seed, no other player's line), the final place once it has
closed; never for an attempt in progress, a practice game or a guest."""

from __future__ import annotations

import json
from datetime import date, timedelta
from typing import Any

import pytest

from games.models import Game
from leaderboard.models import DailyChallenge
from leaderboard.share import share_text
from leaderboard.standing import BIN_FLOORS, DayCounts, standing
from tests.games.api.helpers import cards_named
from tests.leaderboard.helpers import DAILY, DAILY_PLAY, GAMES, line_of, play_service

pytestmark = pytest.mark.django_db


def test_a_loss_ranks_below_every_win_and_equal_results_share_a_place():
    counts = DayCounts(rows=[(True, 1000, 2), (True, 900, 1), (False, 950, 3), (False, 400, 4)])
    win = standing(counts, won=True, score=900, final=False)
    assert (win["players"], win["winners"], win["won_percent"]) == (10, 3, 30)
    assert (win["place"], win["better_than_percent"]) == (3, 70)
    loss = standing(counts, won=False, score=950, final=True)
    assert (loss["place"], loss["better_than_percent"], loss["final"]) == (4, 40, True)
    marked = [b for b in loss["distribution"] if b["mine"]]
    assert [(b["from"], b["to"]) for b in marked] == [(900, 1099)]
    assert sum(b["players"] for b in loss["distribution"]) == 10
    assert len(loss["distribution"]) == len(BIN_FLOORS)


def test_the_share_names_no_card_and_says_so_far_until_the_close():
    where = standing(
        DayCounts(rows=[(True, 1000, 1), (False, 480, 3)]), won=False, score=480, final=False
    )
    text = share_text(
        day=date(2026, 3, 1),
        suits=2,
        won=False,
        elapsed_ms=754_000,
        actions=20,
        score=480,
        runs=3,
        standing=where,
        streak=4,
    )
    assert text.splitlines() == [
        "Spider daily 2026-03-01 · 2 suits",
        "Not won · 20 actions · score 480",
        "Place 2 of 4 so far · better than 0% of the day's players",
        "🟩🟩🟩⬜⬜⬜⬜⬜",
        "4 days in a row",
    ]
    assert cards_named(text) == set()


def leaves(value: Any) -> list[Any]:
    if isinstance(value, dict):
        return [leaf for v in value.values() for leaf in leaves(v)]
    if isinstance(value, list):
        return [leaf for v in value for leaf in leaves(v)]
    return [value]


@pytest.fixture
def four(make_user, auth_client, days):
    """Day 0: a and b win (the same line, the same score), d resigns at once (500), c after
    three actions (497)."""
    players = {name: make_user(username=f"player_{name}") for name in "abcd"}
    clients = {name: auth_client(p) for name, p in players.items()}
    days(0)
    games = {n: c.post(DAILY_PLAY, {}, format="json").json()["id"] for n, c in clients.items()}
    for name in "ab":
        play_service(players[name], games[name], line_of(games[name]))
    play_service(players["c"], games["c"], line_of(games["c"])[:3])
    for name in "cd":
        assert clients[name].post(f"{GAMES}/{games[name]}/resign").status_code == 200
    return players, clients, games


def test_every_attempt_won_or_lost_is_told_where_it_stands(four):
    players, clients, _ = four
    seen = {n: clients[n].get(DAILY).json()["attempt"]["standing"] for n in "abcd"}
    assert {n: s["place"] for n, s in seen.items()} == {"a": 1, "b": 1, "c": 4, "d": 3}
    assert {n: s["better_than_percent"] for n, s in seen.items()} == {
        "a": 50,
        "b": 50,
        "c": 0,
        "d": 25,
    }
    assert {(s["players"], s["winners"], s["won_percent"], s["final"]) for s in seen.values()} == {
        (4, 2, 50, False)
    }
    share = clients["a"].get(DAILY).json()["attempt"]["share"]
    assert share["path"].startswith("/daily/")
    assert "🟩" * 8 in share["text"] and "Place 1 of 4 so far" in share["text"]


def test_nothing_of_the_deal_nor_another_players_line_leaves_before_the_close(four):
    players, clients, games = four
    challenge = DailyChallenge.objects.select_related("deal").get()
    for name, client in clients.items():
        body = client.get(DAILY).content.decode()
        others = [p for n, p in players.items() if n != name]
        assert cards_named(body) == set(), name
        # The seed (a quick test seed is a small number: it is looked for as a value) and
        # the nonce.
        assert challenge.nonce not in body
        assert str(challenge.deal.seed) not in {str(v) for v in leaves(json.loads(body))}
        assert not any(p.username in body for p in others)
        assert not any(games[n] in body for n in games if n != name)
        parsed = json.loads(body)
        assert cards_named(parsed["attempt"]["share"]["text"]) == set()


def test_no_standing_in_progress_for_practice_or_for_a_guest(make_user, auth_client, days):
    player, guest = make_user(), make_user(is_guest=True)
    client, guest_client = auth_client(player), auth_client(guest)
    days(0)
    game_id = client.post(DAILY_PLAY, {}, format="json").json()["id"]
    assert client.get(DAILY).json()["attempt"]["standing"] is None  # in progress
    client.post(f"{GAMES}/{game_id}/resign")
    practice = client.post(DAILY_PLAY, {"unranked": True}, format="json").json()["id"]
    play_service(player, practice, line_of(practice))
    attempt = client.get(DAILY).json()["attempt"]
    assert attempt["game"] == game_id and attempt["standing"]["players"] == 1
    guest_game = guest_client.post(DAILY_PLAY, {}, format="json").json()["id"]
    play_service(guest, guest_game, line_of(guest_game))
    assert guest_client.get(DAILY).json()["attempt"] == {
        "game": guest_game,
        "status": "won",
        "score": Game.objects.get(pk=guest_game).score,
        "ranked": False,
        "standing": None,
        "share": None,
    }
    assert client.get(DAILY).json()["attempt"]["standing"]["players"] == 1  # not counted


def test_the_place_is_final_once_the_day_has_closed(four, clock):
    _, clients, _ = four
    day = Game.objects.filter(kind="daily").first().daily_date
    clock.now = clock.now + timedelta(days=1)
    body = clients["c"].get(DAILY, {"date": day.isoformat()}).json()["attempt"]
    assert (body["standing"]["place"], body["standing"]["final"]) == (4, True)
    assert "so far" not in body["share"]["text"]


def test_the_standing_read_is_a_few_queries(four, django_assert_max_num_queries):
    _, clients, _ = four
    with django_assert_max_num_queries(12):
        assert clients["a"].get(DAILY).status_code == 200
