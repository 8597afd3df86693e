"""Coins are paid exactly once per game and the daily cap holds when requests arrive together:
real threads, each with its own client and PostgreSQL connection, released by a barrier."""

from __future__ import annotations

import time
from collections import Counter

import pytest
from django.core.management import call_command
from django.utils import timezone

from coins import rules
from coins import services as coin_services
from coins.models import CoinDay, CoinEntry
from games import services
from games.models import Game
from tests.games.api.helpers import NEAR_WIN, act, new_game, pooled_layout_deal
from tests.games.api.test_concurrency import client_for, together

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

THREADS = 8


def test_one_winning_action_sent_from_many_threads_with_one_key_pays_once(player):
    pooled_layout_deal(NEAR_WIN, suits=4)
    game = new_game(client_for(player), 4)
    clients = [client_for(player) for _ in range(THREADS)]

    responses = together(
        THREADS,
        lambda i: act(clients[i], game["id"], "move", key="the-win", from_=1, to=0),
    )

    assert [r.status_code for r in responses] == [200] * THREADS
    assert sum(r.headers.get("Idempotent-Replayed") == "true" for r in responses) == THREADS - 1
    first = responses[0].json()
    assert all(r.json() == first for r in responses)  # the first answer, coins included
    assert first["coins"]["earned"] == 80
    assert list(CoinEntry.objects.values_list("game_id", "amount")) == [(Game.objects.get().pk, 80)]
    assert CoinDay.objects.get().earned == 80


def test_one_winning_action_sent_from_many_threads_without_a_key_pays_once(player):
    pooled_layout_deal(NEAR_WIN, suits=2)
    game = new_game(client_for(player), 2)
    clients = [client_for(player) for _ in range(THREADS)]

    responses = together(THREADS, lambda i: act(clients[i], game["id"], "move", from_=1, to=0))

    codes = Counter(
        (r.status_code, r.json().get("code") if r.status_code != 200 else "won") for r in responses
    )
    assert codes == {(200, "won"): 1, (422, "game_over"): THREADS - 1}
    (won,) = [r.json() for r in responses if r.status_code == 200]
    assert won["coins"]["earned"] == 40
    assert CoinEntry.objects.count() == 1


def test_wins_of_several_games_at_once_never_pass_the_daily_cap(player, monkeypatch):
    # 160 coins earned today, then a casual 1-suit game and the day's 2-suit daily game won
    # together, both perfect: 20 + 40 = 60 more by the rules, of which the cap allows 40.
    # The modes differ so that nothing but the coins' own lock (the stats row is per mode)
    # serialises them; each reward is slowed between reading the day's tally and writing it,
    # so without that lock both would read 160 and credit 60.
    client = client_for(player)
    for _ in range(2):
        pooled_layout_deal(NEAR_WIN, suits=4)
        game = new_game(client, 4)
        assert act(client, game["id"], "move", from_=1, to=0).json()["coins"]["earned"] == 80
    games = [
        services.game_start(player=player, deal=pooled_layout_deal(NEAR_WIN, suits=1)).pk,
        services.game_start(
            player=player,
            deal=pooled_layout_deal(NEAR_WIN, suits=2),
            kind=Game.Kind.DAILY,
            daily_date=timezone.now().date(),
        ).pk,
    ]

    def slow_capped(total: int, earned_today: int) -> tuple[int, int]:
        time.sleep(0.3)
        return rules.capped(total, earned_today)

    monkeypatch.setattr(coin_services, "capped", slow_capped)
    # Through the game service, each thread its own connection and transaction.
    win = services.ActionRequest(type="move", src=1, dst=0)

    results = together(
        len(games), lambda i: services.game_act(player=player, game_id=str(games[i]), action=win)
    )

    paid = [r.coins for r in results]
    assert sum(c.earned for c in paid) == 40
    assert sum(c.cut for c in paid) == 20
    assert max(c.earned_today for c in paid) == 200
    assert CoinDay.objects.get().earned == 200
    assert sum(CoinEntry.objects.values_list("amount", flat=True)) == 200
    call_command("verify_coins")  # raises if the ledger disagrees with the games
