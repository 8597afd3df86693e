"""Keys of what a player sees of a position, to tell positions already seen in a game.

A visible key covers exactly what the public view shows (``view.py``): per column the
face-down count and the face-up cards, the deals left and the runs removed. Never a face-
down card or the stock's order, so whatever is decided from it (the hints' "no way back to
a position already seen") is the same for two games that look the same.

Face-down counts only ever go down in a game (an undo leaves a card it turned face up), so
once a card is turned over no earlier position can come back: a Board keeps the keys of the
positions since the last card turned over (``Board.seen_keys``), a short list whatever the
game's length.

    >>> visible_key((1, 0), ((5,), ()), deals_left=5, runs_removed=0)
    '41ee83e9b335'
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from hashlib import blake2b
from typing import Final

KEY_CHARS: Final = 12  # 48 bits, in hex: a false "seen" is a chance in 2**48 / positions


def visible_key(
    hidden: Sequence[int], cards: Iterable[Sequence[int]], deals_left: int, runs_removed: int
) -> str:
    """The key of a position as the player sees it: ``hidden`` the face-down count of each
    column, ``cards`` each column's face-up cards (card ints, bottom to top)."""
    # The counts first (as many as columns), then the columns' cards, 255 between columns
    # (no card is 255): one byte string, one position.
    head = bytes((deals_left, runs_removed, *hidden))
    return blake2b(head + b"\xff".join(map(bytes, cards)), digest_size=KEY_CHARS // 2).hexdigest()


def split_keys(text: str) -> frozenset[str]:
    """The keys of a stored string of keys (``KEY_CHARS`` each, no separator)."""
    return frozenset(text[i : i + KEY_CHARS] for i in range(0, len(text), KEY_CHARS))


def has_key(text: str, key: str) -> bool:
    """Whether ``key`` is one of the keys of ``text`` (a match across two keys is none)."""
    at = text.find(key)
    while at > 0 and at % KEY_CHARS:
        at = text.find(key, at + 1)
    return at >= 0
