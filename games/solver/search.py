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
from collections.abc import Mapping
from operator import itemgetter
from typing import Final, NamedTuple

from games.engine.layout import COLUMNS, DEAL_SIZE

from .model import RANK_MASK, STOCK_SIZE, Column, deal, move, search_moves, top_run


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

# A position's key (``position_key``) packs the deals made under the sum of its column
# hashes: this must exceed the most deals a game makes.
KEY_DEAL_ROOM: Final = 8

# A candidate child of the beam: a plain tuple, for the search builds one per new position
# and a NamedTuple costs ten times as much to build; these name its fields.
SCORE: Final = 0  # its score (lower is better)
SEQ: Final = 1  # generation order within the pass (ties go to the earlier)
PARENT: Final = 2  # the Node it was generated from
MOVE: Final = 3  # the move or deal that made it
CHANGE: Final = 4  # ((column, col, down, chaos, hash), ...) of the columns that changed
REMOVED: Final = 5  # runs the move removed
DEALT: Final = 6  # stock cards dealt: its deal group
KEY: Final = 7  # its position key (``position_key``)
Candidate = tuple[int, int, "Node", tuple[int, int, int], tuple, int, int, int]
_BEAM_ORDER: Final = itemgetter(SCORE, SEQ)


class Shortcut(NamedTuple):
    """A target position a pass met early (``beam_pass``'s ``hits``)."""

    saving: int  # actions saved: its distance less the depth it was met at
    distance: int  # its distance from the pass's root along the known line
    candidate: Candidate  # ``materialise(candidate).line()`` reaches it


def col_chaos(col: Column, d: int, w: Weights = DEFAULT_WEIGHTS) -> int:
    """A column's share of the score (``d`` face down): from scratch."""
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
            if b & RANK_MASK == (a & RANK_MASK) - 1:
                c += W_SOFT
            else:
                c += W_HARD
        a = b
    if w.tail:
        c -= w.tail * (top_run(col, d) - 1)
    return c


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


def col_hash(i: int, col: Column, d: int, ordered: bool) -> int:
    """A column's share of the position key. While cards remain in the stock the column's
    index is part of it (the next deal puts stock card i onto column i, so two positions
    that differ only by column order are different); once the stock is dealt, column
    order no longer matters and the key is column-order blind."""
    return hash((i, d, col)) if ordered else hash((d, col))


def position_key(hsum: int, dealt: int) -> int:
    """The key of ``seen``: the sum of the column hashes, and the deals made."""
    return hsum * KEY_DEAL_ROOM + dealt // DEAL_SIZE


def root_node(
    cols, down, dealt: int, removed: int, w: Weights = DEFAULT_WEIGHTS, stock_len: int = STOCK_SIZE
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


def moves_of(node: Node, stock: tuple[int, ...]) -> list[tuple[int, int, int]]:
    """The move list of a position and the deal when it is legal (``model.search_moves``)."""
    return search_moves(node.cols, node.down, node.dealt, stock)


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
    targets: dict[int, int] | None = None,
    hits: list[Shortcut] | None = None,
    cuts: list[int] | None = None,
    progress: bool = True,
    goals: Mapping[int, object] | None = None,
    reached: list[object] | None = None,
) -> Node | None:
    """One beam pass at ``width`` per deal group; returns a won node or None.

    ``root`` must have been built with the same weights ``w``. With ``max_depth`` the pass
    gives up rather than look at lines longer than that (a known line bounds a re-search:
    each level of the beam is one action deeper, so the first win is the pass's shortest).

    ``targets`` maps position keys (as in ``seen``) to a distance: a position met at a
    depth below its distance is a shortcut, and ``hits`` keeps the one that saves most as
    ``[Shortcut]``.

    ``cuts[0]`` counts the positions the pass dropped unexpanded (past the beam's width, or
    sideways moves the progress rule left out): a pass that returns None with nothing cut
    and the budget not spent has searched every position reachable from ``root`` under the
    pruned move list, so the position has no win (``api.exhaust``). ``progress=False`` drops
    the progress rule (``_expand``), for such a search of everything.

    ``goals`` maps position keys to positions known to be won (``goals.Goals.keyed``): the
    first one met ends the pass, its node returned (not itself won) and the goal put in
    ``reached``, whose caller finishes the line (``goals.finish``)."""
    root_key = position_key(root.hsum, root.dealt)
    if goals is not None and root_key in goals:
        assert reached is not None
        reached.append(goals[root_key])
        return root
    seen = {root_key}
    beam = [root]
    seq = 0
    depth = 0
    while beam:
        if max_depth is not None and depth >= max_depth:
            if cuts is not None:
                cuts[0] += len(beam)  # left unexpanded: not a search of everything
            return None
        depth += 1
        groups: dict[int, list[Candidate]] = {}
        for node in beam:
            if budget.spent():
                return None
            kids, seq, won = _expand(node, stock, w, seen, seq, budget, cuts, progress)
            if won is not None:
                return won
            met = _admit(kids, seen, groups, depth, targets, hits, goals)
            if met is not None:
                assert goals is not None and reached is not None
                reached.append(goals[met[KEY]])
                return materialise(met)
        beam = _next_beam(groups, width, cuts)
    return None


def _expand(
    node: Node,
    stock: tuple[int, ...],
    w: Weights,
    seen: set[int],
    seq: int,
    budget: Budget,
    cuts: list[int] | None = None,
    progress: bool = True,
) -> tuple[list[Candidate], int, Node | None]:
    """The candidates of ``node``'s moves not met before in the pass (keys included); the
    next ``seq``; and a won child if one of the moves wins.

    When some moves lower the score, only they and the deal are kept (``_lowering``: the
    progress rule), unless ``progress`` is off."""
    W_DOWN, W_HARD, W_SOFT, W_EMPTY, W_RUN, W_BURY, W_TAIL = w
    stock_len = len(stock)
    cols = node.cols
    down = node.down
    chaos = node.chaos
    hashes = node.hashes
    hsum = node.hsum
    base = node.score
    dealt = node.dealt
    ordered = dealt < stock_len
    deals = dealt // DEAL_SIZE
    room = KEY_DEAL_ROOM
    move_cards = move
    mv = moves_of(node, stock)
    budget.nodes += len(mv)
    kids: list[Candidate] = []
    lowered = False  # some move lowers the score
    for m in mv:
        src, dst, cnt = m
        if src < 0:
            dealt_child = _deal_child(node, stock, w, seen)
            if dealt_child is None:
                continue
            score, change, removed, key = dealt_child
            g = dealt + DEAL_SIZE
        else:
            s = cols[src]
            dcol = cols[dst]
            ns, sd, nd, dd, removed = move_cards(s, down[src], dcol, down[dst], cnt)
            if ordered:
                hs = hash((src, sd, ns))
                hd = hash((dst, dd, nd))
            else:
                hs = hash((sd, ns))
                hd = hash((dd, nd))
            key = (hsum - hashes[src] - hashes[dst] + hs + hd) * room + deals
            if key in seen:
                continue
            # The chaos of the two columns, incrementally: the lifted cards are a same-suit
            # run (no breaks inside), so only the two seams change.
            first = s[-cnt]
            if not ns:
                cs = -W_EMPTY
            elif removed and len(ns) + cnt < len(s):  # a buried run uncovered and removed
                cs = col_chaos(ns, sd, w)
            elif sd < down[src]:  # the whole face-up run left: no break, one card
                cs = chaos[src] - W_DOWN + W_TAIL * (cnt - 1)
            else:
                a = ns[-1]
                if first == a - 1:  # a run split: the top run is cnt shorter
                    cs = chaos[src] + W_TAIL * cnt
                else:
                    if first & RANK_MASK == (a & RANK_MASK) - 1:
                        cs = chaos[src] - W_SOFT - (W_BURY if sd else 0)
                    else:
                        cs = chaos[src] - W_HARD - (W_BURY if sd else 0)
                    if W_TAIL:
                        cs += W_TAIL * (cnt - top_run(ns, sd))
            if removed and len(nd) < len(dcol) + cnt:  # a run completed and removed
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
            change = ((src, ns, sd, cs, hs), (dst, nd, dd, cd, hd))
            g = dealt
            if score < base:
                lowered = True
        seq += 1
        cand = (score, seq, node, m, change, removed, g, key)
        if removed and g == stock_len:
            child = materialise(cand)
            if not any(child.cols):
                return kids, seq, child
        kids.append(cand)
    # Not while an empty column waits for a deal: the moves that fill it (a run split into
    # it, say) may be the only way to the deal, lowering the score or not.
    if progress and lowered and (dealt >= stock_len or all(cols)):
        kept = _lowering(kids, base, dealt)
        if cuts is not None:
            cuts[0] += len(kids) - len(kept)
        kids = kept
    return kids, seq, None


def _deal_child(
    node: Node, stock: tuple[int, ...], w: Weights, seen: set[int]
) -> tuple[int, tuple, int, int] | None:
    """The deal from ``node``: (score, change, runs removed, key), or None if the position
    it deals to was met before in the pass."""
    W_HARD, W_SOFT, W_RUN, W_BURY, W_TAIL = w.hard, w.soft, w.run, w.bury, w.tail
    cols = node.cols
    chaos = node.chaos
    dealt = node.dealt
    ncols, ndown, removed = deal(cols, node.down, stock[dealt : dealt + DEAL_SIZE])
    if dealt + DEAL_SIZE < len(stock):
        nh = list(map(hash, zip(range(COLUMNS), ndown, ncols, strict=True)))
    else:
        nh = list(map(hash, zip(ndown, ncols, strict=True)))
    key = position_key(sum(nh), dealt + DEAL_SIZE)
    if key in seen:
        return None
    nc = []
    for i in range(COLUMNS):
        col = ncols[i]
        # Nothing removed: one new seam (none on a column the deal went into empty, as it
        # may under deal_over_gap: that one is scored from scratch below).
        if cols[i] and len(col) == len(cols[i]) + 1:
            a = cols[i][-1]
            b = col[-1]
            if b == a - 1:
                nc.append(chaos[i] - W_TAIL)
            else:
                c = chaos[i] + (W_BURY if ndown[i] else 0)
                if b & RANK_MASK == (a & RANK_MASK) - 1:
                    c += W_SOFT
                else:
                    c += W_HARD
                if W_TAIL:
                    c += W_TAIL * (top_run(cols[i], ndown[i]) - 1)
                nc.append(c)
        else:
            nc.append(col_chaos(col, ndown[i], w))
    score = sum(nc) - W_RUN * (node.removed + removed)
    return score, tuple(zip(range(COLUMNS), ncols, ndown, nc, nh, strict=True)), removed, key


def _lowering(kids: list[Candidate], base: int, dealt: int) -> list[Candidate]:
    """The moves that lower the score (``base``, the parent's), and the deal: a sideways
    move there only makes the line longer."""
    return [c for c in kids if c[SCORE] < base or c[DEALT] != dealt]


def _admit(
    kids: list[Candidate],
    seen: set[int],
    groups: dict[int, list[Candidate]],
    depth: int,
    targets: dict[int, int] | None,
    hits: list[Shortcut] | None,
    goals: Mapping[int, object] | None = None,
) -> Candidate | None:
    """Mark the candidates seen and put each into its deal group; keep the best shortcut
    to a target position met (``beam_pass``'s ``targets`` and ``hits``). Returns the first
    candidate that is one of ``goals``, if any (the rest are then left out)."""
    track = targets if hits is not None else None
    for cand in kids:
        key = cand[KEY]
        if key in seen:
            continue
        seen.add(key)
        if goals is not None and key in goals:
            return cand
        if track is not None:
            far = track.get(key)
            if far is not None:
                assert hits is not None
                if far - depth > (hits[0].saving if hits else 0):
                    hits[:] = [Shortcut(far - depth, far, cand)]
        g = cand[DEALT]
        grp = groups.get(g)
        if grp is None:
            groups[g] = [cand]
        else:
            grp.append(cand)
    return None


def _next_beam(
    groups: dict[int, list[Candidate]], width: int, cuts: list[int] | None = None
) -> list[Node]:
    """The best ``width`` candidates of each deal group (lowest score, ties by generation
    order), fewest deals first, as nodes."""
    beam = []
    for g in sorted(groups):
        grp = groups[g]
        grp.sort(key=_BEAM_ORDER)
        if cuts is not None and len(grp) > width:
            cuts[0] += len(grp) - width
        for cand in grp[:width]:
            beam.append(materialise(cand))
    return beam


def materialise(cand: Candidate) -> Node:
    score, _, parent, m, change, removed, g, _ = cand
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
        m,
    )
