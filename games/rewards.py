"""Coins for wins: the bridge from a game to the coin ledger (coins/ knows nothing of games).

``game_reward`` runs inside the transaction that wins the game; ``coins_problems`` is the
check behind ``manage.py verify_coins``: it recomputes every ledger entry from the games.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date, datetime
from itertools import groupby
from typing import Any

from coins.models import CoinDay, CoinEntry
from coins.rules import Reward, capped, coin_day, reward_for
from coins.services import CoinAward, coins_award
from games.models import Game


def game_reward(*, game: Game, now: datetime) -> CoinAward:
    """Credit what ``game`` earns for its win (nothing for a replay or a staff game), under
    the player's daily cap; called by ``games.services`` wherever a game ends as won, so a
    race won on time (ended as won by the race) pays like one won on the board. Race games
    pay without the perfect bonus. Once per game (a unique constraint)."""
    return coins_award(
        player_id=game.player_id,
        game_id=game.pk,
        suits=game.suits,
        kind=game.kind,
        reward=_reward(game),
        now=now,
    )


def _reward(game: Game) -> Reward | None:
    return reward_for(
        suits=game.suits,
        kind=game.kind,
        perfect=game.perfect,
        ranked=game.ranked,
        staff_made=game.staff_made,
    )


def coins_problems(*, since: date | None = None) -> Iterator[str]:
    """Every disagreement between the ledger and the games, one sentence each.

    Each entry is recomputed from its game: the rules' base and bonus, the UTC day of the
    win, and what the cap allowed given the entries written before it that day. Every
    rewarding win must have its entry, and each day's tally must equal its entries' sum.
    ``since``: only days from this one on (the ledger starts when coins were introduced).
    """
    entries = CoinEntry.objects.select_related("game").order_by("player_id", "day", "id")
    tallies = CoinDay.objects.all()
    if since is not None:
        entries = entries.filter(day__gte=since)
        tallies = tallies.filter(day__gte=since)
    sums: dict[tuple[Any, date], int] = {}
    for (player_id, day), group in groupby(entries.iterator(), lambda e: (e.player_id, e.day)):
        earned = 0
        for entry in group:
            problem = _entry_problem(entry, earned)
            if problem:
                yield f"entry {entry.pk} (game {entry.game_id}): {problem}"
            earned += entry.amount
        sums[(player_id, day)] = earned
    for tally in tallies.iterator():
        expected = sums.pop((tally.player_id, tally.day), 0)
        if tally.earned != expected:
            yield (
                f"player {tally.player_id} on {tally.day}: tally {tally.earned} but the "
                f"ledger sums to {expected}"
            )
    for player_id, day in sums:
        yield f"player {player_id} on {day}: entries but no tally"
    unpaid = Game.objects.filter(status=Game.Status.WON, staff_made=False, coin_entry__isnull=True)
    if since is not None:
        unpaid = unpaid.filter(finished_at__date__gte=since)
    for game in unpaid.iterator():
        if _reward(game) is not None:
            won_on = coin_day(game.finished_at) if game.finished_at else "?"
            yield f"game {game.pk}: won on {won_on} but has no coin entry"


def _entry_problem(entry: CoinEntry, earned_before: int) -> str | None:
    game = entry.game
    if entry.player_id != game.player_id:
        return f"credited to player {entry.player_id}, but the game is player {game.player_id}'s"
    if game.status != Game.Status.WON:
        return f"the game is {game.status}, not won"
    reward = _reward(game)
    if reward is None:
        return "the game earns nothing (a replay, a staff game or unranked)"
    if (entry.suits, entry.kind) != (game.suits, game.kind):
        return f"recorded as {entry.suits} suits {entry.kind}, the game is {game.suits} {game.kind}"
    if (entry.base, entry.bonus) != (reward.base, reward.bonus):
        return (
            f"base {entry.base} + bonus {entry.bonus}, but the game earns "
            f"{reward.base} + {reward.bonus}"
        )
    if game.finished_at is not None and entry.day != coin_day(game.finished_at):
        return f"dated {entry.day}, but the game was won on {coin_day(game.finished_at)}"
    amount, cut = capped(reward.total, earned_before)
    if (entry.amount, entry.cut) != (amount, cut):
        return (
            f"credited {entry.amount} (cut {entry.cut}), but after {earned_before} earned "
            f"that day the cap allows {amount} (cut {cut})"
        )
    return None
