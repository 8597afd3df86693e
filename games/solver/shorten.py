"""Shortening a winning line: the same win in fewer actions (the deal's par).

The beam search finds a win, not the shortest one: its lines carry sideways moves (a card
stepping between two equal parents, a run parked and moved on) and loops. ``shorten`` takes
a winning line and rewrites it, keeping it a win at every step, never longer:

* Loops: a position met twice (once the stock is dealt, up to column order: the rest of the
  line is then renumbered) — everything between is cut.
* Shortcuts: from each position, every position one or two moves away is looked up among
  the later positions of the line; a later position reached in fewer moves replaces the
  moves in between.
* Parked moves: a move that puts cards on a column from which a later move takes exactly
  those cards on (``a -> b`` ... ``b -> d``) becomes one move ``a -> d`` at the later
  point, when nothing in between touches ``a`` or the parked cards (``a -> b`` ...
  ``b -> a`` just disappears).
* Re-searched ends: from the position after each deal (the latest first), beam passes of
  the search's own kind, each bounded by the length of the end it may replace (a pass
  gives up at that depth), look for a shorter way to the win, or to a later position of
  the line (once the stock is dealt, up to column order), whichever saves more.

Every rewrite is checked by playing it through the solver's compact model of the rules
(``model.step``), and ``api.solve`` replays the final line through the engine, so a bug
here can cost length, never a win. The work is bounded by ``max_nodes`` positions (deterministic).
"""

from __future__ import annotations

from typing import Final

from games.engine.actions import DEAL, Move
from games.engine.layout import COLUMNS

from .model import Position, search_moves, step, won
from .search import Budget, Shortcut, Weights, beam_pass, position_key, root_node

__all__ = ["Pos", "deepen", "positions", "shorten", "step", "won"]

Pos = Position  # (cols, down, dealt): ``model.Position``

# Window sizes of the shortcut search: from position i, positions up to SHORTCUT_DEPTH
# moves away are matched against the next SHORTCUT_SPAN positions of the line.
SHORTCUT_DEPTH: Final = 2
SHORTCUT_SPAN: Final = 40
# Beam widths of the re-searches of the line's end (``_resolve_suffixes``).
RESOLVE_WIDTHS: Final = (24, 64)


def positions(start: Pos, line: list[Move], stock: tuple[int, ...]) -> list[Pos] | None:
    """Every position of ``line`` (start first, len(line) + 1 of them), or None if a move
    is illegal."""
    out = [start]
    pos = start
    for move in line:
        nxt = step(pos, move, stock)
        if nxt is None:
            return None
        out.append(nxt)
        pos = nxt
    return out


def _key(pos: Pos, stock_len: int) -> object:
    """Exact while cards remain in the stock; column-order blind once it is dealt."""
    cols, down, dealt = pos
    if dealt < stock_len:
        return pos
    return tuple(sorted(zip(down, cols, strict=True)))


def _renumber(frm: Pos, to: Pos) -> list[int]:
    """A column permutation ``p`` with ``to`` column ``p[i]`` equal to ``frm`` column ``i``
    (the two positions are equal up to column order)."""
    frm_cols, frm_down, _ = frm
    to_cols, to_down, _ = to
    free: dict[tuple[int, tuple[int, ...]], list[int]] = {}
    for i in range(COLUMNS - 1, -1, -1):
        free.setdefault((to_down[i], to_cols[i]), []).append(i)
    return [free[(frm_down[i], frm_cols[i])].pop() for i in range(COLUMNS)]


def _mapped(line: list[Move], perm: list[int]) -> list[Move]:
    return [(src, dst, n) if src < 0 else (perm[src], perm[dst], n) for src, dst, n in line]


def shorten(
    start: Pos,
    line: list[Move],
    stock: tuple[int, ...],
    heuristics: tuple[Weights, ...],
    budget: Budget,
) -> list[Move]:
    """A winning line from ``start`` no longer than ``line`` (a winning line from it).

    ``budget`` bounds the positions generated (its node count is the primary,
    deterministic bound: the same input gives the same line; its seconds are a safety cap
    only). ``heuristics`` are the weights the wider re-searches of the line's end use."""
    trail = positions(start, line, stock)
    if trail is None or not won(trail[-1], stock):
        return list(line)  # not a win: nothing to keep
    # The cheap rewrites first, then the re-searches of the end while the budget is whole
    # (they win most on a long line, where the shortcut search would spend it all), then
    # the local rewrites on what they left (figures: bench/NOTES.md).
    best = _cut_loops(start, list(line), stock)
    best = _unpark(start, best, stock, budget)
    best = _resolve_suffixes(start, best, stock, heuristics, budget)
    return _local(start, best, stock, budget)


def deepen(
    start: Pos,
    line: list[Move],
    stock: tuple[int, ...],
    heuristics: tuple[Weights, ...],
    widths: tuple[int, ...],
    budget: Budget,
    reserve: int,
) -> list[Move]:
    """A winning line from ``start`` no longer than ``line``, found by searching the whole
    line again with wider beams: for each of ``widths``, one pass per heuristic from the
    start, bounded by the line's length, keeping a shorter win or a shorter way to a later
    position of the line (as the re-searches of the end do). Then the re-searches of the
    end and the local rewrites polish what the passes left, with what is left of
    ``budget`` (at least ``reserve`` positions: the passes stop short of it).

    The vetting search's narrow beams find a win cheaply; a pass at width 64 from the start
    typically cuts a tenth off the line, at a few hundred thousand positions (figures:
    bench/NOTES.md): worth spending where the line is shown, the daily's par."""
    trail = positions(start, line, stock)
    if trail is None or not won(trail[-1], stock):
        return list(line)
    passes = Budget(max(0, budget.max_nodes - budget.nodes - reserve), 0.0)
    passes.deadline = budget.deadline
    for width in widths:
        for weights in heuristics:
            if passes.spent():
                break
            line, trail = _research(line, trail, 0, len(line), width, weights, stock, passes)
    budget.nodes += passes.nodes
    budget.timed_out = passes.timed_out
    line = _resolve_suffixes(start, line, stock, heuristics, budget)
    return _local(start, line, stock, budget)


def _local(start: Pos, line: list[Move], stock: tuple[int, ...], budget: Budget) -> list[Move]:
    """Loops, parked moves and shortcuts, until they find nothing more."""
    while True:
        before = len(line)
        line = _cut_loops(start, line, stock)
        line = _unpark(start, line, stock, budget)
        line = _shortcuts(start, line, stock, budget)
        if len(line) >= before or budget.spent():
            return line


def _resolve_suffixes(
    start: Pos,
    line: list[Move],
    stock: tuple[int, ...],
    heuristics: tuple[Weights, ...],
    budget: Budget,
) -> list[Move]:
    """Search the line's end again from positions on it (the latest first: the later the
    start, the cheaper the search), each search bounded by the length of the end it may
    replace, and keep a shorter end found, or a shorter way to a later position of the
    line met on the way (``_research``).

    The first search stops at its first win, found by its narrowest beam; a beam from a
    later position, where few levels remain, often wins in fewer moves."""
    trail = positions(start, line, stock)
    assert trail is not None
    for width in RESOLVE_WIDTHS:
        # The cuts of the line as it is now (an end replaced at one width has its own
        # deals); latest first, so the prefix up to each later cut never changes.
        for cut in reversed(_cuts(line)):
            if cut >= len(line):
                continue
            for weights in heuristics:
                if budget.spent():
                    return line
                line, trail = _research(line, trail, cut, len(line), width, weights, stock, budget)
    return line


def _research(
    line: list[Move],
    trail: list[Pos],
    cut: int,
    end: int,
    width: int,
    weights: Weights,
    stock: tuple[int, ...],
    budget: Budget,
) -> tuple[list[Move], list[Pos]]:
    """One beam pass from ``trail[cut]``, no deeper than ``end - cut - 1`` levels: the line
    (and its positions) with the stretch from ``cut`` replaced by a shorter win found, or
    by a shorter way to a position ``trail[j]`` (``cut + 1 < j <= end``) that the pass met
    (once the stock is dealt, up to column order), whichever saves more; else unchanged."""
    n = len(stock)
    cols, down, dealt = trail[cut]
    root = root_node(cols, down, dealt, 0)
    targets = {_beam_key(trail[k], n): k - cut for k in range(end, cut + 1, -1)}
    hits: list[Shortcut] = []
    node = beam_pass(root, stock, width, budget, weights, end - cut - 1, targets=targets, hits=hits)
    saved = hits[0].saving if hits else 0
    if node is not None:
        win = node.line()
        if len(line) - cut - len(win) > saved:
            tail = positions(trail[cut], win, stock)
            if tail is not None and won(tail[-1], stock):
                return line[:cut] + win, trail[:cut] + tail
    if not hits:
        return line, trail
    _, far, mid = hits[0]
    j = cut + far
    got = positions(trail[cut], mid, stock)
    if got is None or _key(got[-1], n) != _key(trail[j], n):
        return line, trail  # a hash collision, not the same position
    rest = line[j:]
    if got[-1] != trail[j]:
        rest = _mapped(rest, _renumber(trail[j], got[-1]))
    new = line[:cut] + mid + rest
    tail = positions(trail[cut], new[cut:], stock)
    if tail is None or not won(tail[-1], stock):
        return line, trail
    return new, trail[:cut] + tail


def _beam_key(pos: Pos, stock_len: int) -> int:
    """The beam search's key of ``pos`` (``search.beam_pass``'s ``seen`` set)."""
    cols, down, dealt = pos
    return position_key(cols, down, dealt, stock_len)


def _cuts(line: list[Move]) -> list[int]:
    """Where the re-searches start: after each deal (the line's end is cheapest to re-search
    from there; cuts every few actions were tried and spent the budget for less)."""
    return [i + 1 for i, move in enumerate(line) if move == DEAL]


def _cut_loops(start: Pos, line: list[Move], stock: tuple[int, ...]) -> list[Move]:
    """Cut every stretch of ``line`` that comes back to a position it has been in."""
    n = len(stock)
    out: list[Move] = []
    seen: dict[object, int] = {}
    trail = [start]  # positions of ``out``
    seen[_key(start, n)] = 0
    pos = start
    i = 0
    while i < len(line):
        move = line[i]
        pos = step(pos, move, stock)  # type: ignore[assignment]
        out.append(move)
        trail.append(pos)
        k = _key(pos, n)
        j = seen.get(k)
        if j is not None:
            # back at the position after out[:j]: drop out[j:], renumber what follows
            old = trail[j]
            del out[j:]
            del trail[j + 1 :]
            for key in [key for key, at in seen.items() if at > j]:
                del seen[key]
            if old != pos:
                perm = _renumber(pos, old)
                line = line[: i + 1] + _mapped(line[i + 1 :], perm)
            pos = old
        else:
            seen[k] = len(out)
        i += 1
    return out


def _unpark(start: Pos, line: list[Move], stock: tuple[int, ...], budget: Budget) -> list[Move]:
    """Merge each parked move into the move that takes the same cards on (see module)."""
    trail = positions(start, line, stock)
    assert trail is not None
    i = 0
    while i < len(line) and not budget.spent():
        merged = _merge(trail, line, i, stock, budget)
        if merged is not None:
            line = merged
            tail = positions(trail[i], line[i:], stock)
            assert tail is not None
            trail = trail[:i] + tail
            continue
        i += 1
    return line


def _merge(
    trail: list[Pos], line: list[Move], i: int, stock: tuple[int, ...], budget: Budget
) -> list[Move] | None:
    """``line`` without move ``i``, the parked cards' later move rewritten, or None."""
    a, b, g = line[i]
    if a < 0:
        return None
    pos = trail[i]
    new: list[Move] = []
    active = True
    for j in range(i + 1, len(line)):
        budget.nodes += 1
        move = line[j]
        s, d, c = move
        rewritten: Move | None = move
        if active:
            if s < 0 or d == b or s == a or d == a and not (s == b and c == g):
                return None
            if s == b:
                if c != g:
                    return None  # part of the parked cards, or more: not one move
                active = False
                rewritten = None if d == a else (a, d, c)
        if rewritten is not None:
            nxt = step(pos, rewritten, stock)
            if nxt is None:
                return None
            pos = nxt
            new.append(rewritten)
        if not active and pos == trail[j + 1]:
            return line[:i] + new + line[j + 1 :]
    return None


def _shortcuts(start: Pos, line: list[Move], stock: tuple[int, ...], budget: Budget) -> list[Move]:
    """Replace stretches of the line by shorter ones found by a small breadth-first search."""
    n = len(stock)
    trail = positions(start, line, stock)
    assert trail is not None
    keys = [_key(p, n) for p in trail]
    i = 0
    while i < len(line) and not budget.spent():
        later: dict[object, int] = {}
        for j in range(min(len(line), i + SHORTCUT_SPAN), i + 1, -1):
            later[keys[j]] = j
        found = _reach(trail[i], i, later, stock, budget)
        if found is not None:
            moves, end, j = found
            rest = line[j:]
            if end != trail[j]:
                rest = _mapped(rest, _renumber(trail[j], end))
            line = line[:i] + moves + rest
            tail = positions(trail[i], line[i:], stock)
            assert tail is not None
            trail = trail[:i] + tail
            keys = keys[:i] + [_key(p, n) for p in tail]
            continue
        i += 1
    return line


def _reach(
    pos: Pos, here: int, later: dict[object, int], stock: tuple[int, ...], budget: Budget
) -> tuple[list[Move], Pos, int] | None:
    """The furthest later position reachable from ``pos`` in fewer moves than the line
    takes (at most SHORTCUT_DEPTH): (moves, the position reached, its index). ``here``
    is the index of ``pos`` in the line."""
    n = len(stock)
    best: tuple[list[Move], Pos, int] | None = None
    furthest = here  # the index of ``best``'s position
    frontier: list[tuple[list[Move], Pos]] = [([], pos)]
    for depth in range(1, SHORTCUT_DEPTH + 1):
        nxt_frontier = []
        for moves, p in frontier:
            cand = search_moves(*p, stock)
            budget.nodes += len(cand)
            for move in cand:
                q = step(p, move, stock)
                if q is None:
                    continue
                path = [*moves, move]
                j = later.get(_key(q, n))
                if j is not None and j - here > depth and (best is None or j > furthest):
                    best = (path, q, j)
                    furthest = j
                if depth < SHORTCUT_DEPTH:
                    nxt_frontier.append((path, q))
        frontier = nxt_frontier
        if budget.spent():
            break
    return best
