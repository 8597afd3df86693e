"""A slow reference of the beam pass, as games/solver/search.py's docstring describes it: the
oracle the native core's pass is held to (tests/solver/test_reference_search.py).

Written for clarity, not speed: every child is built whole through the Python model
(``model.push``, itself held to the engine), scored from scratch, and keyed by the exact
position (its columns in order while cards remain in the stock, as a multiset once it is
dealt), so a hash collision cannot make it differ. Only the tests import it.
"""

from __future__ import annotations

from typing import NamedTuple

from games.engine import DEAL, Move
from games.solver import model
from games.solver.model import Position
from games.solver.search import Weights


class Outcome(NamedTuple):
    line: list[Move] | None  # the won line, or None
    nodes: int  # candidate moves generated (the budget's count)
    cuts: int  # positions dropped unexpanded


def chaos(col: tuple[int, ...], d: int, w: Weights) -> int:
    """A column's share of the score: face-down cards, breaks (a soft one where the cards
    fit by rank, a hard one where they do not; more above face-down cards), the top
    same-suit run's bonus, an empty column's bonus."""
    if not col:
        return -w.empty
    bury = w.bury if d else 0
    c = d * w.down
    for a, b in zip(col[d:], col[d + 1 :], strict=False):
        if b != a - 1:
            c += (w.soft if b & 15 == (a & 15) - 1 else w.hard) + bury
    run = 1
    while run < len(col) - d and col[-run - 1] == col[-run] + 1:
        run += 1
    return c - w.tail * (run - 1)


def score(pos: Position, removed: int, w: Weights) -> int:
    cols, down, _ = pos
    return sum(chaos(c, d, w) for c, d in zip(cols, down, strict=True)) - w.run * removed


def key(pos: Position, stock_len: int) -> object:
    """Column order counts while cards remain in the stock (the next deal puts stock card
    i onto column i); once it is dealt it does not."""
    cols, down, dealt = pos
    pairs = tuple(zip(down, cols, strict=True))
    return (dealt, pairs) if dealt < stock_len else (dealt, tuple(sorted(pairs)))


def beam_pass(
    start: Position,
    removed: int,
    stock: tuple[int, ...],
    width: int,
    w: Weights,
    max_nodes: int,
    max_depth: int | None = None,
    progress: bool = True,
) -> Outcome:
    n = len(stock)
    seen = {key(start, n)}
    beam: list[tuple[Position, int, list[Move]]] = [(start, removed, [])]
    seq = nodes = cuts = depth = 0
    while beam:
        if max_depth is not None and depth >= max_depth:
            return Outcome(None, nodes, cuts + len(beam))
        depth += 1
        groups: dict[int, list[tuple[int, int, Position, int, list[Move], object]]] = {}
        for pos, runs, line in beam:
            if nodes >= max_nodes:
                return Outcome(None, nodes, cuts)
            base = score(pos, runs, w)
            mv = model.search_moves(*pos, stock)
            nodes += len(mv)
            kids = []
            lowered = False
            for m in mv:
                child, gone = model.push(pos, m, stock)
                k = key(child, n)
                if k in seen:
                    continue
                s = score(child, runs + gone, w)
                lowered = lowered or (m != DEAL and s < base)
                seq += 1
                if model.won(child, stock):
                    return Outcome([*line, m], nodes, cuts)
                kids.append((s, seq, child, runs + gone, [*line, m], k))
            # The progress rule: when some moves lower the score, only they and the deal
            # stay (not while an empty column waits for a deal).
            if progress and lowered and (pos[2] >= n or all(pos[0])):
                kept = [kid for kid in kids if kid[0] < base or kid[4][-1] == DEAL]
                cuts += len(kids) - len(kept)
                kids = kept
            for kid in kids:
                if kid[5] in seen:
                    continue
                seen.add(kid[5])
                groups.setdefault(kid[2][2], []).append(kid)
        beam = []
        for dealt in sorted(groups):
            group = sorted(groups[dealt], key=lambda kid: (kid[0], kid[1]))
            cuts += max(0, len(group) - width)
            beam.extend((kid[2], kid[3], kid[4]) for kid in group[:width])
    return Outcome(None, nodes, cuts)
