"""``manage.py verify_coins`` recomputes every ledger entry from the games and flags one that
is wrong; the ledger itself refuses changes to a written entry."""

from __future__ import annotations

from collections.abc import Callable
from io import StringIO
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.db import DatabaseError, IntegrityError, transaction

from coins.models import CoinDay, CoinEntry
from games import services
from games.models import Game
from games.services import endings
from tests.games.api.helpers import NEAR_WIN, layout_json, pooled_layout_deal

pytestmark = pytest.mark.django_db

WIN = services.ActionRequest(type="move", src=1, dst=0)


def won_game(player: Any, suits: int | None = 1, **create: Any) -> Game:
    """A game won through the service: a fresh ranked one of ``suits``, or as ``create`` says."""
    if not create:
        assert suits is not None
        pooled_layout_deal(NEAR_WIN, suits=suits)
    game = services.game_create(player=player, suits=suits, **create)
    result = services.game_act(player=player, game_id=str(game.pk), action=WIN)
    assert result.game.status == Game.Status.WON
    return result.game


def verify() -> tuple[bool, str]:
    out = StringIO()
    try:
        call_command("verify_coins", stdout=out)
    except CommandError:
        return False, out.getvalue()
    return True, out.getvalue()


@pytest.fixture
def ledger(player, staff) -> dict[str, Game]:
    """A few real wins: 4-suit (80), 2-suit (40), a replay and a staff game (nothing)."""
    four = won_game(player, 4)
    two = won_game(player, 2)
    replay = won_game(player, None, replay_of=str(two.pk))
    staff_game = won_game(staff, layout=layout_json(NEAR_WIN), suits=1)
    return {"four": four, "two": two, "replay": replay, "staff": staff_game}


def test_a_consistent_ledger_passes(ledger):
    passed, out = verify()

    assert passed, out
    assert out.strip().endswith("checked 2 coin entries: 0 problems")
    assert CoinEntry.objects.count() == 2  # the replay and the staff game earned nothing


def _entry_for_a_replay(games: dict[str, Game]) -> tuple[str, str]:
    entry = _plant(games["replay"], base=20, bonus=20, amount=40, cut=0)
    return f"entry {entry.pk} (game {games['replay'].pk})", "earns nothing"


def _inflated_amount(games: dict[str, Game]) -> tuple[str, str]:
    game = games["two"]
    game.coin_entry.delete()  # replaced by a wrong one (the planted row is what is checked)
    entry = _plant(game, base=40, bonus=40, amount=80, cut=0)
    return f"entry {entry.pk} (game {game.pk})", "but the game earns 20 + 20"


def _past_the_cap(games: dict[str, Game]) -> tuple[str, str]:
    # One more 4-suit win fills the day (80 + 40 + 80 = 200); then a 1-suit win whose reward
    # was not written gets a planted entry that credits it in full.
    player = games["four"].player
    won_game(player, 4)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(endings, "game_reward", lambda **kwargs: None)
        game = won_game(player, 1)
    entry = _plant(game, base=10, bonus=10, amount=20, cut=0)
    return f"entry {entry.pk} (game {game.pk})", "the cap allows 0 (cut 20)"


def _lost_game(games: dict[str, Game]) -> tuple[str, str]:
    pooled_layout_deal(NEAR_WIN, suits=1)
    game = services.game_create(player=games["four"].player, suits=1)
    services.game_act(
        player=game.player,
        game_id=str(game.pk),
        action=services.ActionRequest(type="move", src=1, dst=2),
    )
    game = services.game_resign(player=game.player, game_id=str(game.pk))
    entry = _plant(game, base=10, bonus=10, amount=20, cut=0)
    return f"entry {entry.pk} (game {game.pk})", "the game is lost, not won"


def _missing_entry(games: dict[str, Game]) -> tuple[str, str]:
    game = games["four"]
    game.coin_entry.delete()
    return f"game {game.pk}", "has no coin entry"


def _tampered_tally(games: dict[str, Game]) -> tuple[str, str]:
    CoinDay.objects.update(earned=999)
    return f"player {games['four'].player_id}", "tally 999 but the ledger sums to 120"


@pytest.mark.parametrize(
    "plant",
    [
        _entry_for_a_replay,
        _inflated_amount,
        _past_the_cap,
        _lost_game,
        _missing_entry,
        _tampered_tally,
    ],
)
def test_a_planted_wrong_entry_is_flagged(ledger, plant: Callable[..., tuple[str, str]]):
    where, what = plant(ledger)

    passed, out = verify()

    assert not passed
    flagged = [line for line in out.splitlines() if line.startswith(where)]
    assert len(flagged) == 1, out
    assert what in flagged[0], out


def _plant(game: Game, **amounts: int) -> CoinEntry:
    assert game.finished_at is not None
    return CoinEntry.objects.create(
        player_id=game.player_id,
        game=game,
        day=game.finished_at.date(),
        suits=game.suits,
        kind=game.kind,
        created_at=game.finished_at,
        **amounts,
    )


# -- append-only ------------------------------------------------------------------------------
def test_a_written_entry_cannot_be_saved_again(ledger):
    entry = CoinEntry.objects.first()
    entry.amount = 1_000

    with pytest.raises(ValueError, match="append-only"):
        entry.save()


def test_the_database_refuses_to_update_an_entry(ledger):
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
        CoinEntry.objects.update(amount=1_000)

    assert sorted(CoinEntry.objects.values_list("amount", flat=True)) == [40, 80]


def test_an_entry_must_add_up(ledger):
    game = ledger["replay"]
    with pytest.raises(DatabaseError), transaction.atomic():
        _plant(game, base=20, bonus=20, amount=50, cut=0)


def test_a_game_has_at_most_one_entry(ledger):
    with pytest.raises(IntegrityError), transaction.atomic():
        _plant(ledger["four"], base=40, bonus=40, amount=80, cut=0)

    assert CoinEntry.objects.filter(game=ledger["four"]).count() == 1
