"""A known win carried over to a later position of the same game (the analysis's).

The analysis (games/solver/analysis.py) knows a win from position ``i`` of a game's line
and asks whether the positions after it can still be won. The player's action at ``i`` was
not the first of that win, but it often only moved a card the win would have moved later,
or somewhere the win did not need: the same play, each move made where it still can be,
wins from ``i + 1`` too. ``carry`` tries exactly that, a replay of the known win and no
search, so it costs a few hundred steps where a search that finds the same win may cost a
million positions (bench/NOTES.md).

Each of the win's moves is played as it stands if it is legal; else the cards it lifts are
taken from the column where the player's actions left them, and put on a card like the one
it put them on, or into an empty column if it went into one; else the move is skipped. A
deal the player has made already is skipped once. The result is a win or nothing: the
caller replays it through the engine as every line reported is (``api.verify``).
"""

from __future__ import annotations

from collections.abc import Sequence

from games.engine import DEAL, Action, Layout, Move
from games.engine.layout import COLUMNS, DEAL_SIZE

from .model import Position, start, step, won


def carry(frm: Layout, line: Sequence[Action], to: Layout) -> list[Action] | None:
    """The win ``line`` of ``frm`` played from ``to`` (a later position of the same game),
    its moves moved to where their cards are now: the line played, if it wins; else None."""
    pos, stock = start(frm)
    before: list[Position] = []  # the position each move of ``line`` was played from
    for action in line:
        before.append(pos)
        after = step(pos, action.as_move, stock)
        if after is None:
            return None  # not a line of ``frm``: nothing to carry
        pos = after
    for by_cards in (True, False):
        played = _replay(to, line, before, len(stock), by_cards)
        if played is not None:
            return played
    return None


def _replay(
    to: Layout, line: Sequence[Action], before: list[Position], stock_len: int, by_cards: bool
) -> list[Action] | None:
    pos, stock = start(to)
    dealt_already = (stock_len - len(stock)) // DEAL_SIZE
    played: list[Move] = []
    for action, was in zip(line, before, strict=True):
        m = action.as_move
        if m == DEAL:
            if dealt_already > 0:
                dealt_already -= 1
                continue
            after = step(pos, m, stock)
        elif by_cards:
            m, after = _moved(pos, stock, was, m)
        else:
            after = step(pos, m, stock)
            if after is None:
                m, after = _moved(pos, stock, was, m)
        if after is not None:
            pos = after
            played.append(m)
    if not won(pos, stock):
        return None
    return [Action("deal") if m == DEAL else Action.move(*m) for m in played]


def _moved(
    pos: Position, stock: tuple[int, ...], was: Position, m: Move
) -> tuple[Move, Position | None]:
    """The move ``m`` of the known win (played there from ``was``) as it may be played from
    ``pos``: the same cards lifted from wherever they are now, onto a card like the one
    they went on (or into an empty column, if they went into one); (m, None) if they are
    there already, or cannot be moved so."""
    src, dst, count = m
    cols, down, _ = pos
    cards = was[0][src][-count:]
    onto = was[0][dst][-1] if was[0][dst] else None
    if cols[src][-count:] == cards and (cols[dst][-1] if cols[dst] else None) == onto:
        return m, step(pos, m, stock)  # the move as it stands
    sources = []
    for c in range(COLUMNS):
        col = cols[c]
        if len(col) - down[c] < count or col[-count:] != cards:
            continue
        under = col[-count - 1] if len(col) > count else None
        if under == onto:
            return m, None  # the player has made this move already
        sources.append(c)
    if src in sources:  # where the known win lifted them, if they are still there
        sources.remove(src)
        sources.insert(0, src)
    targets = [c for c in range(COLUMNS) if (cols[c][-1] if cols[c] else None) == onto]
    if dst in targets:
        targets.remove(dst)
        targets.insert(0, dst)
    for s in sources:
        for d in targets:
            if s != d:
                after = step(pos, (s, d, count), stock)
                if after is not None:
                    return (s, d, count), after
    return m, None
