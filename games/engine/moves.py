"""The move generators: every legal move, and the pruned list a search needs.

One place for "which moves exist" (the board, the solver and the hints once each had
their own). Both work on plain columns of card ints, bottom to top, with ``down[i]`` the
index of column i's first face-up card, so the board, the solver's compact positions and
the hints' visible columns (``down`` all zero) share them. What a move *does* is
``Board.push``'s, and on the searches' compact tuples the solver's model's (held to
``Board.push`` by a test); which moves there are comes from here.
"""

from __future__ import annotations

from collections.abc import Sequence

from .actions import Move
from .cards import KING, RANK_MASK
from .layout import COLUMNS

Columns = Sequence[Sequence[int]]


def legal_moves(cols: Columns, down: Sequence[int]) -> list[Move]:
    """Every legal move (not the deal), ordered by source, destination, then count.

    Moves into an empty column are listed for every liftable count, whole columns
    included: they are legal, only pointless (``pruned_moves`` leaves them out).
    """
    moves: list[Move] = []
    tops = [c[-1] & RANK_MASK if c else 0 for c in cols]
    for src in range(COLUMNS):
        c = cols[src]
        n = len(c)
        if not n:
            continue
        j = n - 1
        lim = down[src]
        while j > lim and c[j - 1] == c[j] + 1:
            j -= 1
        k = n - j
        low = c[-1] & RANK_MASK  # rank of the last card
        high = low + k  # one above the rank of the deepest liftable card
        for dst in range(COLUMNS):
            t = tops[dst]
            if t:
                if low < t <= high and dst != src:
                    moves.append((src, dst, t - low))
            elif dst != src:
                for count in range(1, k + 1):
                    moves.append((src, dst, count))
    return moves


def pruned_moves(
    cols: Columns,
    down: Sequence[int],
    hidden: Sequence[object] | None = None,
    *,
    deal_pending: bool = False,
) -> list[Move]:
    """The moves worth searching: a subset of ``legal_moves`` that loses no win.

    * A same-suit run is split only onto a card of its own suit (the split makes a
      same-suit join there; an off-suit split gains nothing a whole move would not).
    * Into an empty column: only the whole liftable run, only into the first empty column
      (they are all alike), and never a whole column (that only renumbers it).
    * Except when a deal is still to come (``deal_pending``) and there are more empty
      columns than runs with cards under them: a deal needs every column filled, and
      moving whole runs cannot fill them all, so splitting a run into an empty column
      (any count) is tried too. (Late in a game, with few cards left, that is the only
      way to the last deal.)

    ``hidden[i]`` (a count, or the cards themselves) is what lies face down under column
    i and ``cols[i]`` does not list (the hints' models, whose columns are the face-up cards
    only): a run on such cards is not a whole column. A card of rank above King (the
    hints' placeholder for a card turned over but not yet known) never moves and takes
    nothing.
    """
    # at[r]: the columns whose top card has rank r, in column order (at[0]: the empty
    # ones): a run of ranks low..high-1 goes only onto tops low+1..high, so each source
    # looks up those few ranks instead of testing all ten columns.
    at: dict[int, list[int]] = {}
    for i in range(COLUMNS):
        c = cols[i]
        t = c[-1] & RANK_MASK if c else 0
        found = at.get(t)
        if found is None:
            at[t] = [i]
        else:
            found.append(i)
    empties = at.get(0)
    first_empty = empties[0] if empties else -1
    out: list[Move] = []
    fillers = 0  # runs with cards under them: moved whole, each fills an empty column
    splits: list[tuple[int, int]] = []  # (src, liftable run length) of the runs to split
    for src in range(COLUMNS):
        c = cols[src]
        n = len(c)
        if not n:
            continue
        last = c[-1]
        low = last & RANK_MASK
        if low > KING:
            continue
        lim = down[src]
        j = n - 1
        while j > lim and c[j - 1] == c[j] + 1:
            j -= 1
        k = n - j
        if k == 1:  # one card: onto any top one rank higher (never its own column)
            onto = at.get(low + 1)
            if onto:
                for dst in onto:
                    out.append((src, dst, 1))
        else:
            suit = last >> 4
            found_moves: list[Move] = []
            for cnt in range(1, k + 1):
                onto = at.get(low + cnt)
                if onto:
                    for dst in onto:
                        # A run split only onto its own suit.
                        if cnt == k or cols[dst][-1] >> 4 == suit:
                            found_moves.append((src, dst, cnt))
            if len(found_moves) > 1:
                found_moves.sort()  # by destination, as the legal list orders them
            out.extend(found_moves)
        if first_empty >= 0 and (j > 0 or (hidden is not None and hidden[src])):
            out.append((src, first_empty, k))
            fillers += 1
        if k > 1:
            splits.append((src, k))
    if deal_pending and empties and len(empties) > fillers:
        out.extend((src, first_empty, cnt) for src, k in splits for cnt in range(1, k))
    return out
