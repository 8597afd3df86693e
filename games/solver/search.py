"""The full-information search: a beam search over positions, grouped by deals made.

The search sees every card (face-down ones and the stock order included). It works on its
own compact copy of the position (columns as tuples of card ints) so that one candidate
position costs only two new column tuples; the engine is used to read the start and to
replay every line found (``api.py``), so a bug here can cost a win, never fake one.

How it searches (one "pass" at beam width ``W``):

* Level by level: every position of the beam is expanded with the pruned move list
  (``moves_of``), each child is scored and checked against a set of position hashes so a
  position is never expanded twice in one pass. When some of a position's moves lower its
  score, its other moves are dropped (a sideways move there only makes the line longer;
  deals always stay). The key sees column order while cards
  remain in the stock (the next deal puts stock card i onto column i) and is column-order
  blind once the stock is dealt.
* The children are grouped by how many deals have been made, and the best ``W`` of each
  group (lowest score, ties by generation order) form the next beam. Grouping keeps lines
  that have just dealt (dealing makes a position look worse for a while) alive next to
  the lines that have not dealt yet.
* The score ("chaos") counts what stands between the position and a win: face-down
  cards, breaks between neighbouring face-up cards (an off-suit placement is a soft break,
  a rank break a hard one), cards still in the stock; empty columns and removed runs
  lower it.

Passes run with growing widths (8, 24, 64, 160, 400, 1000, then x4), each width once with
each of three weight sets (``DEFAULT_WEIGHTS``, ``ALT_WEIGHTS``, ``TAIL_WEIGHTS``), until a
win or the node budget is spent: a cheap narrow pass finds most wins, and the heuristics
fail on different deals. Everything is deterministic for a given node budget.
"""

from __future__ import annotations

import time
from typing import Final, NamedTuple

from games.engine.actions import DEAL
from games.engine.cards import RUN_LENGTH
from games.engine.layout import COLUMNS
from games.engine.moves import pruned_moves


class Weights(NamedTuple):
    """Heuristic weights (lower score is better). Scores are only compared between
    positions with the same number of deals made, so the stock needs no weight."""

    down: int = 6  # a face-down card
    hard: int = 4  # neighbouring face-up cards that do not even fit by rank
    soft: int = 3  # fit by rank, wrong suit
    empty: int = 12  # bonus for an empty column
    run: int = 40  # bonus for a run removed
    bury: int = 0  # extra for each break (hard or soft) in a column with face-down cards
    tail: int = 0  # bonus for each card of a column's top same-suit run after its first


# A break above face-down cards costs one more than a break in a column with none: it
# stands between the search and a hidden card. An empty column earns little (3): with more
# the beam keeps columns empty, and emptying and refilling them costs moves (the lines
# found are 15-20% shorter with 3 than with 12; figures: bench/NOTES.md).
DEFAULT_WEIGHTS: Final = Weights(down=5, empty=3, bury=1)
# A second opinion: rank breaks cost less next to suit breaks. Passes alternate between
# the two, which finds wins that a wider beam with one heuristic misses.
ALT_WEIGHTS: Final = Weights(hard=3, soft=2, empty=3, bury=1)
# A third: a long same-suit run on top of a column earns a bonus per card. Alone it wins
# fewer deals at width 64 than the others, but largely different ones.
TAIL_WEIGHTS: Final = Weights(empty=3, bury=1, tail=1)
# Expanding a position, keep only the moves that lower its score when there are some (a
# sideways move then only lengthens the line); deals are always kept, and nothing is
# dropped while an empty column waits for a deal.
PROGRESS: Final = True


def col_chaos(col: tuple[int, ...], d: int, w: Weights = DEFAULT_WEIGHTS) -> int:
    n = len(col)
    if not n:
        return -w.empty
    W_SOFT = w.soft
    W_HARD = w.hard
    if d:
        W_SOFT += w.bury
        W_HARD += w.bury
    c = d * w.down
    j = d
    a = col[j]
    for j in range(d + 1, n):
        b = col[j]
        if b != a - 1:
            if (b & 15) == (a & 15) - 1:
                c += W_SOFT
            else:
                c += W_HARD
        a = b
    if w.tail:
        c -= w.tail * (top_run(col, d) - 1)
    return c


def top_run(col: tuple[int, ...], d: int) -> int:
    """How many cards the top same-suit run of a non-empty column holds (all face up)."""
    j = len(col) - 1
    while j > d and col[j - 1] == col[j] + 1:
        j -= 1
    return len(col) - j


def settle(col: tuple[int, ...], d: int) -> tuple[tuple[int, ...], int, int]:
    """Remove completed K..A runs from the end of ``col`` and flip a face-down top card.

    Returns (col, down, runs_removed)."""
    removed = 0
    while (
        len(col) - d >= RUN_LENGTH
        and col[-1] & 15 == 1
        and col[-RUN_LENGTH] == col[-1] + RUN_LENGTH - 1
        and all(col[j] == col[j + 1] + 1 for j in range(-RUN_LENGTH, -1))
    ):
        col = col[:-RUN_LENGTH]
        removed += 1
    if col and len(col) == d:
        d -= 1
    return col, d, removed


class Node:
    """A position in the search tree (materialised only for beam members)."""

    __slots__ = (
        "cols",
        "down",
        "dealt",
        "chaos",
        "hashes",
        "hsum",
        "score",
        "removed",
        "parent",
        "move",
    )

    def __init__(self, cols, down, dealt, chaos, hashes, score, removed, parent, move):
        self.cols = cols
        self.down = down
        self.dealt = dealt
        self.chaos = chaos
        self.hashes = hashes
        self.hsum = sum(hashes)
        self.score = score
        self.removed = removed
        self.parent = parent
        self.move = move

    def line(self) -> list[tuple[int, int, int]]:
        moves = []
        node = self
        while node.parent is not None:
            moves.append(node.move)
            node = node.parent
        moves.reverse()
        return moves


def col_hash(i: int, col: tuple[int, ...], d: int, ordered: bool) -> int:
    """A column's share of the position key. While cards remain in the stock the column's
    index is part of it (the next deal puts stock card i onto column i, so two positions
    that differ only by column order are different); once the stock is dealt, column
    order no longer matters and the key is column-order blind."""
    return hash((i, d, col)) if ordered else hash((d, col))


def root_node(
    cols, down, dealt: int, removed: int, w: Weights = DEFAULT_WEIGHTS, stock_len: int = 50
) -> Node:
    cols = tuple(tuple(c) for c in cols)
    down = tuple(down)
    chaos = tuple(col_chaos(c, d, w) for c, d in zip(cols, down, strict=True))
    hashes = tuple(
        col_hash(i, c, d, dealt < stock_len)
        for i, (c, d) in enumerate(zip(cols, down, strict=True))
    )
    score = sum(chaos) - w.run * removed
    return Node(cols, down, dealt, chaos, hashes, score, removed, None, None)


def moves_of(node: Node, stock_len: int) -> list[tuple[int, int, int]]:
    """The pruned move list of a position (``games.engine.moves.pruned_moves``), and the
    deal when it is allowed."""
    out = pruned_moves(node.cols, node.down, deal_pending=node.dealt < stock_len)
    if node.dealt < stock_len and all(node.cols):
        out.append(DEAL)
    return out


class Budget:
    """The node budget (primary, deterministic) and the seconds cap (a safety net)."""

    __slots__ = ("max_nodes", "deadline", "nodes", "timed_out")

    def __init__(self, max_nodes: int, max_seconds: float) -> None:
        self.max_nodes = max_nodes
        self.deadline = time.perf_counter() + max_seconds
        self.nodes = 0
        self.timed_out = False

    def spent(self) -> bool:
        if self.nodes >= self.max_nodes:
            return True
        if time.perf_counter() >= self.deadline:
            self.timed_out = True
            return True
        return False


def beam_pass(
    root: Node,
    stock: tuple[int, ...],
    width: int,
    budget: Budget,
    w: Weights = DEFAULT_WEIGHTS,
    max_depth: int | None = None,
    progress: bool = PROGRESS,
    targets: dict[int, int] | None = None,
    hits: list[tuple[int, int, tuple]] | None = None,
    cuts: list[int] | None = None,
) -> Node | None:
    """One beam pass at ``width`` per deal group; returns a won node or None.

    ``root`` must have been built with the same weights ``w``. With ``max_depth`` the pass
    gives up rather than look at lines longer than that (a known line bounds a re-search:
    each level of the beam is one action deeper, so the first win is the pass's shortest).

    ``targets`` maps position keys (as in ``seen``) to a distance: a position met at a
    depth below its distance is a shortcut, and ``hits`` keeps the one that saves most as
    ``[(saving, distance, candidate)]`` (``materialise(candidate).line()`` reaches it).

    ``cuts[0]`` counts the positions the pass dropped unexpanded (past the beam's width, or
    sideways moves the progress rule left out): a pass that returns None with nothing cut
    and the budget not spent has searched every position reachable from ``root`` under the
    pruned move list, so the position has no win (``api.exhaust``)."""
    W_DOWN, W_HARD, W_SOFT, W_EMPTY, W_RUN, W_BURY, W_TAIL = w
    stock_len = len(stock)
    seen = {root.hsum * 8 + root.dealt // 10}
    beam = [root]
    seq = 0
    depth = 0
    while beam:
        if max_depth is not None and depth >= max_depth:
            if cuts is not None:
                cuts[0] += len(beam)  # left unexpanded: not a search of everything
            return None
        depth += 1
        groups: dict[int, list] = {}
        for node in beam:
            if budget.spent():
                return None
            cols = node.cols
            down = node.down
            chaos = node.chaos
            hashes = node.hashes
            hsum = node.hsum
            base = node.score
            dealt = node.dealt
            mv = moves_of(node, stock_len)
            ordered = dealt < stock_len
            budget.nodes += len(mv)
            kids = []
            for move in mv:
                src, dst, cnt = move
                if src >= 0:
                    s = cols[src]
                    dcol = cols[dst]
                    ns = s[:-cnt]
                    sd = down[src]
                    if ns and len(ns) == sd:
                        sd -= 1
                    first = s[-cnt]
                    nd = dcol + s[-cnt:]
                    dd = down[dst]
                    removed = 0
                    if nd[-1] & 15 == 1 and len(nd) - dd >= RUN_LENGTH:
                        nd, dd, removed = settle(nd, dd)
                    if ordered:
                        hs = hash((src, sd, ns))
                        hd = hash((dst, dd, nd))
                    else:
                        hs = hash((sd, ns))
                        hd = hash((dd, nd))
                    key = (hsum - hashes[src] - hashes[dst] + hs + hd) * 8 + dealt // 10
                    if key in seen:
                        continue
                    # Chaos of the two columns, incrementally: the lifted cards are a
                    # same-suit run (no breaks inside), so only the two seams change.
                    if not ns:
                        cs = -W_EMPTY
                    elif sd < down[src]:  # the whole face-up run left: no break, one card
                        cs = chaos[src] - W_DOWN + W_TAIL * (cnt - 1)
                    else:
                        a = ns[-1]
                        if first == a - 1:  # a run split: the top run is cnt shorter
                            cs = chaos[src] + W_TAIL * cnt
                        else:
                            if (first & 15) == (a & 15) - 1:
                                cs = chaos[src] - W_SOFT - (W_BURY if sd else 0)
                            else:
                                cs = chaos[src] - W_HARD - (W_BURY if sd else 0)
                            if W_TAIL:
                                cs += W_TAIL * (cnt - top_run(ns, sd))
                    if removed:
                        cd = col_chaos(nd, dd, w)
                    elif dcol:
                        if first == dcol[-1] - 1:
                            cd = chaos[dst] - W_TAIL * cnt
                        else:
                            cd = chaos[dst] + W_SOFT + (W_BURY if dd else 0)
                            if W_TAIL:
                                cd += W_TAIL * (top_run(dcol, dd) - cnt)
                    else:
                        cd = -W_TAIL * (cnt - 1)
                    score = base - chaos[src] - chaos[dst] + cs + cd - W_RUN * removed
                    change: tuple[tuple[int, tuple[int, ...], int, int, int], ...]
                    change = ((src, ns, sd, cs, hs), (dst, nd, dd, cd, hd))
                    g = dealt
                else:
                    ncols = []
                    ndown = []
                    removed = 0
                    for i in range(COLUMNS):
                        col = cols[i] + (stock[dealt + i],)
                        dd = down[i]
                        if col[-1] & 15 == 1 and len(col) - dd >= RUN_LENGTH:
                            col, dd, r = settle(col, dd)
                            removed += r
                        ncols.append(col)
                        ndown.append(dd)
                    if dealt + COLUMNS < stock_len:
                        nh = [hash((i, ndown[i], ncols[i])) for i in range(COLUMNS)]
                    else:
                        nh = [hash((ndown[i], ncols[i])) for i in range(COLUMNS)]
                    key = sum(nh) * 8 + dealt // 10 + 1
                    if key in seen:
                        continue
                    nc = []
                    for i in range(COLUMNS):
                        col = ncols[i]
                        if len(col) == len(cols[i]) + 1:  # nothing removed: one new seam
                            a = col[-2]
                            b = col[-1]
                            if b == a - 1:
                                nc.append(chaos[i] - W_TAIL)
                            else:
                                c = chaos[i] + (W_BURY if ndown[i] else 0)
                                if (b & 15) == (a & 15) - 1:
                                    c += W_SOFT
                                else:
                                    c += W_HARD
                                if W_TAIL:
                                    c += W_TAIL * (top_run(cols[i], ndown[i]) - 1)
                                nc.append(c)
                        else:
                            nc.append(col_chaos(col, ndown[i], w))
                    score = sum(nc) - W_RUN * (node.removed + removed)
                    change = tuple((i, ncols[i], ndown[i], nc[i], nh[i]) for i in range(COLUMNS))
                    g = dealt + COLUMNS
                seq += 1
                cand = (score, seq, node, move, change, removed, g)
                if removed and g == stock_len:
                    child = materialise(cand)
                    if not any(child.cols):
                        return child
                kids.append((cand, key))
            # Not while an empty column waits for a deal: the moves that fill it (a run
            # split into it, say) may be the only way to the deal, progress or not.
            if (
                progress
                and (dealt >= stock_len or all(cols))
                and any(c[0] < base and c[6] == dealt for c, _ in kids)
            ):
                kept = [(c, k) for c, k in kids if c[0] < base or c[6] != dealt]
                if cuts is not None:
                    cuts[0] += len(kids) - len(kept)
                kids = kept
            for cand, key in kids:
                if key in seen:
                    continue
                seen.add(key)
                if targets is not None and hits is not None:
                    far = targets.get(key)
                    if far is not None and far - depth > (hits[0][0] if hits else 0):
                        hits[:] = [(far - depth, far, cand)]
                g = cand[6]
                grp = groups.get(g)
                if grp is None:
                    groups[g] = [cand]
                else:
                    grp.append(cand)
        beam = []
        for g in sorted(groups):
            grp = groups[g]
            grp.sort(key=_order)
            if cuts is not None and len(grp) > width:
                cuts[0] += len(grp) - width
            for cand in grp[:width]:
                beam.append(materialise(cand))
    return None


def _order(cand):
    return (cand[0], cand[1])


def materialise(cand) -> Node:
    score, _, parent, move, change, removed, g = cand
    cols = list(parent.cols)
    down = list(parent.down)
    chaos = list(parent.chaos)
    hashes = list(parent.hashes)
    for i, col, d, c, h in change:
        cols[i] = col
        down[i] = d
        chaos[i] = c
        hashes[i] = h
    return Node(
        tuple(cols),
        tuple(down),
        g,
        tuple(chaos),
        tuple(hashes),
        score,
        parent.removed + removed,
        parent,
        move,
    )
