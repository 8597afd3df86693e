"""Real concurrent racers (threads, each its own connection) on PostgreSQL: two wins
committed at once give exactly one winner; a win against a resign or a draw never
deadlocks and leaves one consistent result."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.db import connection
from rest_framework.test import APIClient

from games.models import Game
from races.models import Race, Racer, TableEvent
from tests.conftest import token_of
from tests.games.api.helpers import act, ok
from tests.races.conftest import post, start_race
from tests.races.test_race_api import WIN2

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres]


def together(*calls) -> list[Any]:
    """Run the calls in threads released at the same instant; return their results."""
    barrier = threading.Barrier(len(calls))
    results: list[Any] = [None] * len(calls)

    def run(i: int, call) -> None:
        try:
            barrier.wait()
            results[i] = call()
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    return results


def client(user) -> APIClient:
    c = APIClient()
    c.credentials(HTTP_AUTHORIZATION=f"Bearer {token_of(user)}")
    return c


@pytest.mark.parametrize("rounds", [6])
def test_two_wins_at_once_give_exactly_one_winner(racers, rounds):
    for _ in range(rounds):
        players = racers(3)
        table = start_race([c for _, c in players], layout=WIN2)
        games = {r["player"]: r["game"] for r in table["race"]["racers"]}
        (u1, c1), (u2, c2), _ = players
        ok(act(c1, games[u1.username], "move", from_=1, to=0))
        ok(act(c2, games[u2.username], "move", from_=1, to=0))
        r1, r2 = together(
            lambda u=u1, g=games[u1.username]: act(client(u), g, "move", from_=1, to=0),
            lambda u=u2, g=games[u2.username]: act(client(u), g, "move", from_=1, to=0),
        )
        codes = sorted([r1.status_code, r2.status_code])
        assert codes == [200, 422], (r1.content, r2.content)
        loser = r1 if r1.status_code == 422 else r2
        assert loser.json()["code"] == "race_over"
        race = Race.objects.get(table__code=table["code"])
        assert race.status == "finished"
        assert Racer.objects.filter(race=race, state="won").count() == 1
        assert Game.objects.filter(racer__race=race, status="won").count() == 1
        finished = TableEvent.objects.filter(table__code=table["code"], kind="finished")
        assert finished.count() == 1


def test_a_win_against_resigns_and_draws_at_once(racers):
    players = racers(4)
    (u1, c1), (u2, c2), (u3, c3), (u4, c4) = players
    table = start_race([c for _, c in players], layout=WIN2)
    code = table["code"]
    games = {r["player"]: r["game"] for r in table["race"]["racers"]}
    ok(act(c1, games[u1.username], "move", from_=1, to=0))
    ok(post(c2, code, "draw", {"accept": True}))
    results = together(
        lambda: act(client(u1), games[u1.username], "move", from_=1, to=0),
        lambda: post(client(u2), code, "resign"),
        lambda: post(client(u3), code, "draw", {"accept": True}),
        lambda: post(client(u4), code, "resign"),
    )
    assert all(r.status_code in (200, 409) for r in results), [r.content for r in results]
    race = Race.objects.get(table__code=code)
    assert race.status == "finished"
    winners = Racer.objects.filter(race=race, state="won")
    assert winners.count() <= 1
    seqs = list(
        TableEvent.objects.filter(table__code=code).order_by("seq").values_list("seq", flat=True)
    )
    assert seqs == list(range(1, len(seqs) + 1))
