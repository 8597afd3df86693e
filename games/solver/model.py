"""The solver's compact model of the rules of play: positions as tuples, and the step.

``games.engine.Board`` is where the rules are defined; the shortening, the carried wins and
the hints need them on immutable tuples they can hash and share, so this module says them
once more in that form (``shorten``, ``transplant`` and ``hint`` step through it). The beam
search's passes run in the native core (``games/solver/native``), whose position says them
in C++. Tests hold both to the engine: every step agrees with ``Board.push`` (the resulting
position, the cards turned over, the runs removed; tests/solver/test_step.py, one test
over both).

A column is a tuple of card ints, bottom to top; ``down`` counts its face-down cards (the
index of its first face-up card). A full-information position (the solver's) is
``(cols, down, dealt)``: every column, face-down cards included, and how many stock cards
have been dealt (the stock itself, in dealing order, is passed beside it). The hints'
model (``visible_step``) keeps the face-up cards only, over a count of hidden ones.

Cards are ``suit << SUIT_SHIFT | rank`` (``games.engine.cards``), so the two questions the
rules ask all the time are single integer comparisons, written inline in the hot loops:

* ``lower == upper - 1``: same suit, one rank below (a joined run; ``joins``);
* ``lower & RANK_MASK == (upper & RANK_MASK) - 1``: one rank below, any suit (``fits``).

The deal's legality is ``can_deal`` alone (the hints' model: ``visible_can_deal``). A game's
table rule deal_over_gap (docs/rules.md#deal-over-a-gap) rides on its stock: ``stock_of``
gives a ``GapStock`` under that rule, a plain tuple under the standard rules, and every step
that may deal is handed the stock already, so no search or rewrite takes a rule of its own.
"""

from __future__ import annotations

from typing import Final

from games.engine.actions import DEAL, Move
from games.engine.board import GAP_DEAL_CARDS, Board
from games.engine.cards import ACE, DECK_SIZE, KING, RANK_MASK, RUN_LENGTH, SETS_PER_GAME
from games.engine.deal import TABLEAU_CARDS
from games.engine.layout import COLUMNS, DEAL_SIZE, Layout
from games.engine.moves import legal_moves, pruned_moves

__all__ = [
    "ACE",
    "KING",
    "RANK_MASK",
    "RUN_LENGTH",
    "ALL_RUNS",
    "STOCK_SIZE",
    "SUIT_SHIFT",
    "UNKNOWN",
    "Column",
    "Columns",
    "GapStock",
    "Position",
    "can_deal",
    "completes_run",
    "deal",
    "deals_made",
    "fits",
    "joins",
    "move",
    "push",
    "rank",
    "search_moves",
    "settle",
    "step",
    "stock_of",
    "suit",
    "top_run",
    "turned",
    "visible_can_deal",
    "visible_move",
    "visible_step",
    "won",
]

# A card is ``suit << SUIT_SHIFT | rank``: the rank takes the bits of RANK_MASK.
SUIT_SHIFT: Final = RANK_MASK.bit_length()
# A game of the full deck is won with this many runs removed (one per set of Ace..King).
ALL_RUNS: Final = SETS_PER_GAME
# The stock of a dealt game: the cards the tableau does not take.
STOCK_SIZE: Final = DECK_SIZE - TABLEAU_CARDS

Column = tuple[int, ...]
Columns = tuple[Column, ...]
# (cols, down, dealt): every column (face-down cards included), the face-down counts, and
# how many stock cards have gone out. A plain tuple: the searches build millions of them.
Position = tuple[Columns, tuple[int, ...], int]


class GapStock(tuple[int, ...]):
    """The stock of a game under the table rule deal_over_gap: its deal may go over empty
    columns while fewer than GAP_DEAL_CARDS cards are on the table (``can_deal``). A plain
    tuple is a stock under the standard rules."""

    __slots__ = ()


def stock_of(board: Board) -> tuple[int, ...]:
    """``board``'s whole stock in dealing order, under the board's table rule."""
    return GapStock(board.stock) if board.deal_over_gap else tuple(board.stock)


def start(layout: Layout) -> tuple[Position, tuple[int, ...]]:
    """``layout`` as the model's position (none of its own stock dealt yet) and its stock
    (``stock_of``: under the layout's table rule)."""
    board = Board(layout)
    cols = tuple(tuple(c) for c in board.cols)
    return (cols, tuple(board.down), board.dealt), stock_of(board)


# -- cards ----------------------------------------------------------------------------------
def rank(card: int) -> int:
    return card & RANK_MASK


def suit(card: int) -> int:
    return card >> SUIT_SHIFT


def joins(lower: int, upper: int) -> bool:
    """``lower`` on ``upper`` is a join: the same suit, one rank below."""
    return lower == upper - 1


def fits(lower: int, upper: int) -> bool:
    """``lower`` may be placed on ``upper``: one rank below, any suit."""
    return lower & RANK_MASK == (upper & RANK_MASK) - 1


def deals_made(dealt: int) -> int:
    return dealt // DEAL_SIZE


# -- runs -----------------------------------------------------------------------------------
def completes_run(col: Column) -> bool:
    """Whether the last RUN_LENGTH cards of ``col`` (it holds that many) are King down to
    Ace of one suit."""
    top = col[-1]
    if top & RANK_MASK != ACE or col[-RUN_LENGTH] != top + RUN_LENGTH - 1:
        return False
    return all(col[j] == col[j + 1] + 1 for j in range(-RUN_LENGTH, -1))


def settle(col: Column, d: int) -> tuple[Column, int, int]:
    """Remove completed runs from the end of ``col`` (``d`` face down), then turn its top
    card face up if it is face down: (col, down, runs removed)."""
    removed = 0
    while len(col) - d >= RUN_LENGTH and completes_run(col):
        col = col[:-RUN_LENGTH]
        removed += 1
    if col and len(col) == d:
        d -= 1
    return col, d, removed


def top_run(col: Column, d: int) -> int:
    """How many cards the top same-suit run of a non-empty column holds (``d`` face down:
    the run is all face up)."""
    j = len(col) - 1
    while j > d and col[j - 1] == col[j] + 1:
        j -= 1
    return len(col) - j


# -- the deal's legality -------------------------------------------------------------------
def can_deal(cols: Columns, dealt: int, stock: tuple[int, ...]) -> bool:
    """Whether the deal is legal (``Board.can_deal``, docs/rules.md#deal): cards are left in
    the stock, and every column holds a card or, under deal_over_gap (a ``GapStock``), fewer
    than GAP_DEAL_CARDS cards are on the table."""
    return dealt < len(stock) and (
        all(cols) or (type(stock) is GapStock and sum(map(len, cols)) < GAP_DEAL_CARDS)
    )


def visible_can_deal(deals_left: int, empty: int, cards: int, over_gap: bool) -> bool:
    """``can_deal`` in the hints' model, which knows counts only: ``empty`` columns,
    ``cards`` on the table (face down or up), the game's rule (``over_gap``)."""
    return deals_left > 0 and (not empty or (over_gap and cards < GAP_DEAL_CARDS))


def search_moves(
    cols: Columns, down: tuple[int, ...], dealt: int, stock: tuple[int, ...]
) -> list[Move]:
    """The moves a search tries from a position (``games.engine.moves.pruned_moves``), and
    the deal last when it is legal. Where the deal may go over empty columns they are no
    longer alike (stock card i lands on column i, whatever is there), so every legal move
    is tried: with fewer than GAP_DEAL_CARDS cards on the table there are few."""
    deal = can_deal(cols, dealt, stock)
    if deal and not all(cols):
        out = legal_moves(cols, down)
    else:
        out = pruned_moves(cols, down, deal_pending=dealt < len(stock))
    if deal:
        out.append(DEAL)
    return out


# -- the step (unchecked: the move is legal) ------------------------------------------------
def move(s: Column, sd: int, d: Column, dd: int, n: int) -> tuple[Column, int, Column, int, int]:
    """``n`` cards from column ``s`` (``sd`` face down) onto column ``d`` (``dd``):
    (source, its down, destination, its down, runs removed).

    The source's new top card turns face up if it was face down; a run the cards complete
    on the destination leaves the table (and the card under it turns face up); so does a
    completed run the lifted cards uncover (only a layout can bury one under other cards)."""
    ns = s[:-n]
    removed = 0
    if ns:
        if len(ns) == sd:
            sd -= 1
        elif ns[-1] & RANK_MASK == ACE and len(ns) - sd >= RUN_LENGTH:
            ns, sd, removed = settle(ns, sd)
    nd = d + s[-n:]
    if nd[-1] & RANK_MASK == ACE and len(nd) - dd >= RUN_LENGTH:
        nd, dd, runs = settle(nd, dd)
        removed += runs
    return ns, sd, nd, dd, removed


def deal(
    cols: Columns, down: tuple[int, ...], cards: tuple[int, ...]
) -> tuple[list[Column], list[int], int]:
    """One card of ``cards`` onto each column (the deal): (columns, downs, runs removed)."""
    ncols = []
    ndown = list(down)
    removed = 0
    for i in range(COLUMNS):
        col = cols[i] + (cards[i],)
        if col[-1] & RANK_MASK == ACE and len(col) - ndown[i] >= RUN_LENGTH:
            col, ndown[i], runs = settle(col, ndown[i])
            removed += runs
        ncols.append(col)
    return ncols, ndown, removed


def push(pos: Position, m: Move, stock: tuple[int, ...]) -> tuple[Position, int]:
    """The position after the legal move or deal ``m``, and the runs it removed."""
    cols, down, dealt = pos
    src, dst, n = m
    if src < 0:
        ncols, ndown, removed = deal(cols, down, stock[dealt : dealt + DEAL_SIZE])
        return (tuple(ncols), tuple(ndown), dealt + DEAL_SIZE), removed
    ns, sd, nd, dd, removed = move(cols[src], down[src], cols[dst], down[dst], n)
    lc = list(cols)
    lc[src] = ns
    lc[dst] = nd
    ld = list(down)
    ld[src] = sd
    ld[dst] = dd
    return (tuple(lc), tuple(ld), dealt), removed


# -- the checked step -----------------------------------------------------------------------
def step(pos: Position, m: Move, stock: tuple[int, ...]) -> Position | None:
    """The position after ``m`` (runs removed, cards turned), or None if it is illegal."""
    cols, down, dealt = pos
    src, dst, n = m
    if src < 0:
        if not can_deal(cols, dealt, stock):
            return None
        ncols, ndown, _ = deal(cols, down, stock[dealt : dealt + DEAL_SIZE])
        return tuple(ncols), tuple(ndown), dealt + DEAL_SIZE
    if src == dst or not 0 <= src < COLUMNS or not 0 <= dst < COLUMNS or n < 1:
        return None
    s = cols[src]
    if n > len(s) - down[src]:
        return None
    for j in range(len(s) - n, len(s) - 1):
        if s[j] != s[j + 1] + 1:
            return None
    d = cols[dst]
    if d and d[-1] & RANK_MASK != (s[-n] & RANK_MASK) + 1:
        return None
    ns, sd, nd, dd, _ = move(s, down[src], d, down[dst], n)
    lc = list(cols)
    lc[src] = ns
    lc[dst] = nd
    ld = list(down)
    ld[src] = sd
    ld[dst] = dd
    return tuple(lc), tuple(ld), dealt


def won(pos: Position, stock: tuple[int, ...]) -> bool:
    """Every card has left the table: the stock is dealt and every column is empty."""
    cols, _, dealt = pos
    return dealt == len(stock) and not any(cols)


def turned(before: Position, after: Position) -> list[tuple[int, int]]:
    """(column, card) of each card a step from ``before`` to ``after`` turned face up."""
    out = []
    for i, (d0, d1) in enumerate(zip(before[1], after[1], strict=True)):
        if d1 < d0:
            out.append((i, after[0][i][d1]))
    return out


# -- the hints' model: face-up cards only, over a count of hidden ones ----------------------
# A card a step turned over, face up but its identity unknown. A rank above King takes
# nothing and is never lifted (``games.engine.moves.pruned_moves``).
UNKNOWN: Final = KING + 2
UNKNOWN_COLUMN: Final = (UNKNOWN,)


def visible_move(
    s: Column, hs: int, d: Column, hd: int, n: int
) -> tuple[Column, int, Column, int, int]:
    """``n`` cards from column ``s`` (over ``hs`` hidden cards) onto column ``d`` (over
    ``hd``) in the hints' model: (source, its hidden count, destination, its hidden count,
    runs removed). A column left with only hidden cards ends in ``UNKNOWN``."""
    ns = s[:-n]
    runs = 0
    if ns and ns[-1] & RANK_MASK == ACE:  # a run uncovered (only a layout buries one)
        ns, _, runs = settle(ns, 0)
    if not ns and hs:
        hs -= 1
        ns = UNKNOWN_COLUMN
    nd = d + s[-n:]
    if nd[-1] & RANK_MASK == ACE and len(nd) >= RUN_LENGTH:
        nd, _, completed = settle(nd, 0)
        runs += completed
        if not nd and hd:
            hd -= 1
            nd = UNKNOWN_COLUMN
    return ns, hs, nd, hd, runs


def visible_step(
    cols: Columns, hid: tuple[int, ...], m: Move
) -> tuple[Columns, tuple[int, ...], int]:
    """The hints' position after the legal move ``m``, and the runs it removed."""
    src, dst, n = m
    ns, hs, nd, hd, runs = visible_move(cols[src], hid[src], cols[dst], hid[dst], n)
    lc = list(cols)
    lc[src] = ns
    lc[dst] = nd
    if hs != hid[src] or hd != hid[dst]:
        lh = list(hid)
        lh[src] = hs
        lh[dst] = hd
        hid = tuple(lh)
    return tuple(lc), hid, runs
