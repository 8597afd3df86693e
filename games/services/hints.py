"""A hint on the player's game (``game_hint``): the n-th best suggestion, seen from the
player's side only, searched without the row lock and recorded under it; the ranked
suggestions of a position cached."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.utils import timezone

from games import kinds
from games.engine import load
from games.errors import DayClosed, GameNotFound, GameOver, VersionConflict
from games.models import Action, Game
from games.services.expiry import game_close_day
from games.services.lookups import day_closed_on, game_store, locked_own_game
from games.solver.hint import Hint, VisiblePosition, board_hints, no_hint_reason

if TYPE_CHECKING:
    from accounts.models import User


@dataclass(frozen=True, slots=True)
class HintResult:
    game: Game
    hint: Hint | None  # None: nothing useful to suggest at this n
    reason: str
    n: int
    alternatives: int  # how many useful suggestions there are in all


HINT_SEARCH_TRIES = 3
# The ranked hints of a position, cached (the Django cache: Redis with CACHE_URL) so asking
# again, or for the next n, costs no second search. The key is the game and its position
# (its action count, which every move, deal and undo raises and a hint does not, and the
# position's visible key): an entry is never served for another position, and a hint
# entry in the log leaves the position as it was. Deterministic (a node budget), so a hit
# answers what a search would have; a miss (evicted, Redis down) only searches again.
HINT_CACHE_SECONDS = 15 * 60
_HINT_CACHE_TAG = "hint2"  # bump when the ranking changes, so no entry outlives its code


def game_hint(
    *, player: User, game_id: str, n: int = 0, expected_version: int | None = None
) -> HintResult:
    """The n-th best suggestion for the player's game, seen from the player's side only.

    A hint served counts on the game (``hints``; no longer perfect) and is logged. Asking
    the same n again straight away is answered the same and counted once, so a retried
    request costs nothing more.

    The search runs without the game row lock (it takes far longer than an action): it reads
    the game, searches, then locks the row and writes only if the game is still at the
    version searched; if an action came in between, it searches again.
    """
    for attempt in range(HINT_SEARCH_TRIES):
        game = Game.objects.filter(pk=game_id, player=player).first()
        if game is None:
            raise GameNotFound()
        if day_closed_on(game, timezone.now()):
            game_close_day(game_id=game.pk)
            raise DayClosed()
        _check_playable(game, expected_version)
        searched = _hint_search(game, n)
        with transaction.atomic():
            locked = locked_own_game(player, game_id)
            _check_playable(locked, expected_version)
            if locked.version == game.version or attempt == HINT_SEARCH_TRIES - 1:
                if locked.version != game.version:  # busy game: search under the lock
                    searched = _hint_search(locked, n)
                return _hint_record(locked, searched)
    raise AssertionError("unreachable")  # the last try always returns


def _check_playable(game: Game, expected_version: int | None) -> None:
    if expected_version is not None and expected_version != game.version:
        raise VersionConflict(expected_version, game)
    if game.over:
        raise GameOver()
    policy = kinds.policy_for(game.kind)
    if policy is not None:
        policy.before_hint(game=game)  # races: no hints


def _hint_search(game: Game, n: int) -> HintResult:
    """Rank the suggestions for ``game``'s position (no lock, no write), or take them from
    the cache."""
    board = load(game.snapshot)
    level = settings.HINT_LEVEL  # the entry names its level: one never answers for another
    key = f"{_HINT_CACHE_TAG}:{level}:{game.pk}:{board.actions}:{board.visible_key()}"
    cached = cache.get(key)
    if cached is not None:
        found = [Hint(*fields) for fields in cached]
    else:
        # From the public view only, never back to a position this game has been in.
        found = board_hints(board, level=level)
        entry = [(h.action, h.reason, h.score, h.chance, h.sample) for h in found]
        cache.set(key, entry, HINT_CACHE_SECONDS)
    if n >= len(found):
        visible = VisiblePosition.from_board(board)
        reason = (
            no_hint_reason(visible, last_move=board.last_move, deal_over_gap=board.deal_over_gap)
            if not found
            else f"no further suggestion: there are {len(found)}"
        )
        return HintResult(game, None, reason, n, len(found))
    return HintResult(game, found[n], found[n].reason, n, len(found))


def _hint_record(game: Game, searched: HintResult) -> HintResult:
    """Count and log a hint served on the locked ``game`` (once for the same n in a row)."""
    if searched.hint is not None:
        last = Action.objects.filter(game=game).order_by("-seq").first()
        if last is None or last.kind != Action.Kind.HINT or last.count != searched.n:
            board = load(game.snapshot)
            board.note_hint()
            game.version += 1
            Action.objects.create(
                game=game,
                seq=game.version,
                kind=Action.Kind.HINT,
                count=searched.n,
                created_at=timezone.now(),
            )
            game_store(game, board)
            game.save()
    return HintResult(game, searched.hint, searched.reason, searched.n, searched.alternatives)
