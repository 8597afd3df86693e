"""Hints: rank what the player may do next, seeing only what the player sees.

The input is a ``VisiblePosition``, built from ``games.engine.public_view`` (a Board's public
view: face-up cards, face-down *counts*, deals left). It holds no face-down card and no stock
card, so nothing here can peek: two boards with the same public view get the same hints.

    >>> from games.engine import Board, deal_layout
    >>> board = Board(deal_layout(suits=2, seed=7))
    >>> best = hints(VisiblePosition.from_board(board), last_move=board.last_move)[0]
    >>> best.action, best.reason  # doctest: +SKIP
    ({'type': 'move', 'from': 4, 'to': 1, 'count': 1}, 'turns over a hidden card in column 5')

How it ranks (docs/rules.md#hints):

* A look-ahead search over moves, in a model of the position where unknown cards stay
  unknown: a move that turns over a face-down card is valued as "turns over a hidden card";
  the card it shows is unknown, so the look-ahead treats that column as ending there (nothing
  goes onto it, nothing leaves it). The deal is opaque: the stock is unknown.
* Positions are valued by what good play is after (``_col_value``): hidden cards turned over,
  empty columns, runs completed, cards joined in suit (more per card the longer the run in
  suit it extends; a joined off-suit card counts less);
  every move costs a little, so the shortest way to a gain wins.
* A candidate move is worth the best position its look-ahead reaches (iterative deepening
  under a node budget, so the answer is the same on any machine). It is *useful* only when
  that beats the position as it stands and the move itself is needed for it (a move the
  same gain could be had without, such as a card stepping between two equal parents, is
  not listed). Useful moves come first, best first; the deal comes after them, and is the
  top hint only when no useful move is left. With an empty column blocking the deal and
  nothing else useful, the hint fills it.
* Before a deal, a move that empties a column (completing no run) is not useful when the
  column would have to be filled again for nothing: when only splitting a run could fill
  it, or when nothing is face down (every card known, so it only shuffles them). When
  filling the columns takes splitting runs, the fillers are the hints. (Without this the
  hints went round in circles at the last deal: fill a column, empty one, fill it again.)
* Once the stock is out, an empty column past the second is worth less (``W_EMPTY_NTH``):
  spare ones are there to be used for turning cards over. And when the look-ahead then
  sees no gain, before giving the game up the hint looks further: the deep level's look-
  ahead, then the shortest line to any card turned over (``_dig``).
* Under the game's table rule deal_over_gap (``deal_over_gap=``,
  docs/rules.md#deal-over-a-gap), once fewer than ten cards are on the table the deal may
  go over the empty columns: nothing needs filling first, and too few cards no longer means
  the game is lost.
* The move just made is never suggested back, and no move leading back to a position the
  game has already been in (``seen``: visible keys, ``games.engine.seen``; ``board_hints``
  takes them from the Board). Followed blindly, the hints went round in circles without
  it. The deal is never barred; when every useful move is, the deal is the hint.
* One hint is bounded: ``HINT_MAX_NODES`` positions over every stage together.
* ``hints(..., level="rollout")`` (served by the API under its ``HINT_LEVEL`` setting):
  the default ranking, then its first ``ROLLOUT_CANDIDATES`` hints played on by the native
  core in ``ROLLOUT_WORLDS`` worlds drawn from exactly the cards not in view, with a seed
  taken from the visible position (``_rollouts``; games/solver/native/rollout.cpp): the
  moves among them by their mean outcome, each with its chance to win (``Hint.chance``)
  where the sample supports it. Still fair: nothing but the visible position goes in.
* ``hints(..., level="deep")``: the same look-ahead with a larger node budget and depth
  (``DEEP_*``); it sees no more than the default. Not offered by the API: followed at
  every step it has not won more deals (bench/NOTES.md); it is the first fallback above.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from typing import Any, Final

from games.engine import (
    DEAL,
    Action,
    Board,
    Move,
    parse_card,
    public_view,
    say_card,
    say_column,
)
from games.engine.cards import (
    KING,
    RUN_LENGTH,
    SUIT_MODES,
    SUIT_NAMES,
    SUITS,
    copies_allowed,
    make_card,
)
from games.engine.layout import COLUMNS
from games.engine.moves import legal_moves, pruned_moves
from games.engine.seen import visible_key

from . import _core
from .collector import collector_paused
from .model import (
    ALL_RUNS,
    RANK_MASK,
    UNKNOWN,
    Columns,
    rank,
    suit,
    visible_can_deal,
    visible_move,
    visible_step,
)

Cols = Columns
Hid = tuple[int, ...]  # face-down counts, per column
Line = tuple[Move, ...]  # a look-ahead's moves from a position (DEAL ends one)
# A position after a move, as the look-ahead carries it: (cols, hid, per-column values,
# value, empty columns, cards, what the move itself earned).
_Child = tuple[Cols, Hid, tuple[int, ...], int, int, int, int]
# The hints' columns list face-up cards only: every card of them is past the face-down ones.
_ALL_UP: Final = (0,) * COLUMNS

# Position values (higher is better).
W_REVEAL: Final = 100  # a face-down card turned over (scored as -W_REVEAL per hidden card)
W_EMPTY: Final = 60  # an empty column
# Once the stock is out, what the k-th empty column is worth (the rest: the last figure).
# One or two empty columns are what moving runs about takes; more only pay when put to use
# (turning cards over), yet at a flat 60 each, filling two of five to turn one card over
# looked like a loss, and the hints gave up with five empty columns (bench/NOTES.md).
W_EMPTY_NTH: Final = (W_EMPTY, W_EMPTY, 20)
W_RUN: Final = 400  # a completed run (13 cards gone for good)
W_SUIT: Final = 12  # a card on the next-higher card of its suit
# A run in suit is worth more than its joins one by one: the n-th join of a run (from its
# highest card down, n from 0) earns W_SUIT + n * W_LEN, so joining two runs into one earns
# more than the join itself. It pulls the look-ahead towards long runs, the ones a run is
# completed from. Not with one suit (``_Search``), where it loses games (bench/NOTES.md).
W_LEN: Final = 2
W_OFF: Final = 2  # a card on a next-higher card of another suit
W_KING: Final = 6  # a King at the bottom of a column with nothing face down under it
C_MOVE: Final = 1  # every move costs (the score does too)
# The deal, an opaque action: what being able to deal is worth. Empty columns must be filled
# first, so an empty column pays only if it is put to use before the deal.
W_DEAL: Final = 300
# What filling an empty column typically costs on top of losing it. At least W_SUIT: else
# filling a column by splitting a run, then joining it back (emptying the column) both look
# useful, and a hint-follower goes round in circles.
W_FILL: Final = 12
# Deals left but fewer than ten cards on the table, too few to fill every column: the deal,
# and so the win, can never come (unless the game's table rule lets it go over the gaps).
LOST: Final = -1_000_000

MAX_DEPTH: Final = 6
NODE_BUDGET: Final = 20000  # positions generated per hint search (deterministic)
# One suit is won with less look-ahead, and answers sooner (bench/NOTES.md).
MAX_DEPTH_1: Final = 5
NODE_BUDGET_1: Final = 12000
# The levels a hint may be asked at: (node budget, depth) per suit count. "deep" looks
# further and answers slower (bench/NOTES.md has the figures of each).
LEVELS: Final = ("default", "deep", "rollout")
DEEP_DEPTH: Final = 8
DEEP_BUDGET: Final = 150000
DEEP_DEPTH_1: Final = 6
DEEP_BUDGET_1: Final = 60000
# The last resort's budget (``_dig``): positions generated looking for any card to turn over.
DIG_BUDGET: Final = 30000
# What one hint may cost, every stage together: the look-ahead, then (stuck with the stock
# out) the deep look-ahead going on from it with a third of what is left, then the last
# resort with the rest (its positions counted ``DIG_COST`` each: they cost up to twice as
# much). The last resort is the cheaper way out: a fresh deep search spent its share
# redoing the depths already searched, and the last resort, left too little, missed lines
# it finds in 6000 positions (bench/NOTES.md).
# The bound on a hint's CPU: about 3 us a look-ahead position, so at most about 150 ms
# (bench/hint.py reports the worst hint; bench/NOTES.md).
HINT_MAX_NODES: Final = 45000
DIG_COST: Final = 2
DEEP_SHARE: Final = 3  # the deep look-ahead's part of what is left: a third

# The rollout level (``_rollouts``, docs/rules.md#hints): the look-ahead's first
# ``ROLLOUT_CANDIDATES`` hints, each played on in ``ROLLOUT_WORLDS`` worlds drawn from the
# cards not in view, ``ROLLOUT_PLAYOUT_MOVES`` actions at most a playout (a whole game's
# worth: the playouts end, won or given up, long before). The CPU bound: at most
# ``ROLLOUT_MAX_STEPS`` playout actions a hint (about 1 us each, bench/NOTES.md; no new
# world is started past it, so the answer is the same on any machine), and a safety net of
# ``ROLLOUT_MAX_SECONDS`` of CPU (the thread's, not the wall clock's: on a loaded machine a
# wall clock cut the worlds short, and the same position got other hints), ten times what
# the step bound costs, so that it never fires on a working machine.
ROLLOUT_CANDIDATES: Final = 4
ROLLOUT_WORLDS: Final = 48
ROLLOUT_PLAYOUT_MOVES: Final = 400
ROLLOUT_MAX_STEPS: Final = 30_000
ROLLOUT_MAX_SECONDS: Final = 0.5
# The rollouts reorder only the moves whose look-ahead value is within this of the best's
# (a join in suit's worth): where the look-ahead hardly tells them apart.
ROLLOUT_MARGIN: Final = W_SUIT
# The chance to win is said only from this many worlds, every playout played to its end.
CHANCE_MIN_WORLDS: Final = 20
CHANCE_SCALE: Final = 10  # a chance is said in tenths: "about 3 in 10"

NOTHING_WON: Final = "the game is won"
NOTHING_DEAL: Final = "no useful move: deal"
NOTHING_UNDO: Final = "no useful move: undo or start a new game"
NOTHING_LEFT: Final = "no move left: start a new game"


# -- the input ----------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class VisiblePosition:
    """What the player sees: per column the face-down count and the face-up cards (card
    ints, bottom to top), deals left, runs removed. Nothing else is reachable from it."""

    suits: int
    hidden: tuple[int, ...]
    cards: tuple[tuple[int, ...], ...]
    deals_left: int
    runs_removed: int = 0
    removed: tuple[int, ...] = ()  # the suits of the runs removed, in order (if known)

    @classmethod
    def from_view(cls, view: Mapping[str, Any]) -> VisiblePosition:
        """From ``games.engine.public_view(board)`` (or the same JSON as the API sends)."""
        columns = view["columns"]
        return cls(
            suits=int(view["suits"]),
            hidden=tuple(int(c["hidden"]) for c in columns),
            cards=tuple(tuple(parse_card(t) for t in c["cards"]) for c in columns),
            deals_left=int(view["deals_left"]),
            runs_removed=int(view.get("runs_removed", 0)),
            removed=tuple(SUITS.index(s) for s in view.get("removed_suits", ())),
        )

    @classmethod
    def from_board(cls, board: Board) -> VisiblePosition:
        """Through the public view, so the face-down cards never get here."""
        return cls.from_view(public_view(board))

    @property
    def won(self) -> bool:
        return self.runs_removed == ALL_RUNS or (
            self.deals_left == 0 and not any(self.cards) and not any(self.hidden)
        )

    def can_deal(self, deal_over_gap: bool = False) -> bool:
        """Whether the deal is legal, in a game under the table rule ``deal_over_gap`` or
        not (docs/rules.md#deal-over-a-gap)."""
        empty = sum(1 for c in self.cards if not c)
        return visible_can_deal(self.deals_left, empty, self.cards_on_table, deal_over_gap)

    @property
    def cards_on_table(self) -> int:
        return sum(self.hidden) + sum(map(len, self.cards))

    def may_deal_over_gap(self, deal_over_gap: bool) -> bool:
        """The deal may go over the empty columns now, so none needs filling. A move never
        adds a card to the table: it stays so until the deal."""
        return not all(self.cards) and self.can_deal(deal_over_gap)

    def legal_moves(self) -> list[Move]:
        """Every legal move (the engine's ``legal_moves`` on the visible cards)."""
        return legal_moves(self.cards, _ALL_UP)


@dataclass(frozen=True, slots=True)
class Hint:
    """One suggestion: ``action`` in the shape the actions endpoint accepts, ``reason`` in
    words, ``score`` how much better the look-ahead found it than standing still."""

    action: dict[str, Any]
    reason: str
    score: float
    # The rollout level: how many of ``sample`` worlds (ways the unseen cards may lie) its
    # playouts won, as a fraction; None where the sample does not support saying it.
    chance: float | None = None
    sample: int = 0

    @property
    def chance_sentence(self) -> str | None:
        """The chance to win in the player's words (None: not said)."""
        if self.chance is None:
            return None
        wins = round(self.chance * self.sample)
        if wins == 0:
            return f"no win found in {self.sample} ways the hidden cards may lie"
        if wins == self.sample:
            return f"won in all {self.sample} ways the hidden cards may lie"
        # Between none and all, said in tenths that never round to either end.
        tenths = min(CHANCE_SCALE - 1, max(1, round(self.chance * CHANCE_SCALE)))
        return f"wins about {tenths} in {CHANCE_SCALE} of the ways the hidden cards may lie"

    @property
    def move(self) -> Move:
        if self.action["type"] == "deal":
            return DEAL
        return (self.action["from"], self.action["to"], self.action["count"])


# -- the public functions ----------------------------------------------------------------
def hints(
    visible: VisiblePosition,
    *,
    last_move: Any = None,
    level: str = "default",
    seen: Collection[str] = frozenset(),
    deal_over_gap: bool = False,
) -> list[Hint]:
    """The useful actions of ``visible``, best first (``[n]`` is the n-th best alternative).

    ``last_move`` is the move just made (a ``(src, dst, count)`` tuple, an engine
    ``Action`` or its JSON); its reverse is never suggested. ``seen``: the visible keys
    (``games.engine.seen``) of positions the game has already been in; no move leading to
    one is suggested. ``[]`` when nothing useful is left: ``no_hint_reason`` says what to do
    then. ``level`` is one of ``LEVELS``. ``deal_over_gap``: the game's table rule.
    """
    if level not in LEVELS:
        raise ValueError(f"unknown hint level {level!r}")
    with collector_paused():  # see games/solver/collector.py
        if level == "rollout":
            found = _rank(visible, _as_move(last_move), "default", seen, over_gap=deal_over_gap)
            return _rollouts(visible, found, deal_over_gap)
        return _rank(visible, _as_move(last_move), level, seen, over_gap=deal_over_gap)


def board_hints(board: Board, *, level: str = "default") -> list[Hint]:
    """The hints of a game's position, as the API serves them: ranked from its public view
    only, never the move just made taken back, never a way back to a position the game has
    been in (``Board.seen_keys``: judged by what the player sees)."""
    return hints(
        VisiblePosition.from_board(board),
        last_move=board.last_move,
        level=level,
        seen=board.seen_keys(),
        deal_over_gap=board.deal_over_gap,
    )


def no_hint_reason(
    visible: VisiblePosition, *, last_move: Any = None, deal_over_gap: bool = False
) -> str:
    """What to tell the player when ``hints`` has nothing (more) to suggest (``deal_over_gap``:
    the game's table rule)."""
    if visible.won:
        return NOTHING_WON
    if visible.can_deal(deal_over_gap):
        return NOTHING_DEAL
    reverse = _reverse(_as_move(last_move))
    if any(m != reverse for m in visible.legal_moves()):
        return NOTHING_UNDO
    return NOTHING_LEFT


# -- the rollouts -----------------------------------------------------------------------
def _rollouts(visible: VisiblePosition, found: list[Hint], over_gap: bool) -> list[Hint]:
    """The look-ahead's first hints played out by the native core (games/solver/native/
    rollout.cpp) in worlds drawn from the cards not in view, with a seed taken from the
    visible position: the moves among them ranked by their mean outcome (runs completed,
    cards turned over, won), ties in the look-ahead's order; the deal stays after the moves.
    Each gets its chance to win where the sample supports it."""
    top = found[:ROLLOUT_CANDIDATES]
    removed = visible.removed
    if visible.suits == 1 and len(removed) != visible.runs_removed:
        removed = (0,) * visible.runs_removed
    if not top or len(removed) != visible.runs_removed or not _dealt_from_a_deck(visible, removed):
        return found  # the cards not in view are unknown: the look-ahead's ranking stands
    worlds, _, timed_out, outcomes = _core.rollouts(
        visible.cards,
        visible.hidden,
        visible.deals_left * COLUMNS,
        visible.suits,
        removed,
        [h.move for h in top],
        ROLLOUT_WORLDS,
        ROLLOUT_PLAYOUT_MOVES,
        ROLLOUT_MAX_STEPS,
        ROLLOUT_MAX_SECONDS,
        deal_over_gap=over_gap,
    )
    if not worlds:
        return found
    said = worlds >= CHANCE_MIN_WORLDS and not timed_out
    rated = [
        Hint(
            h.action,
            h.reason,
            h.score,
            wins / worlds if said and ended == worlds else None,
            worlds,
        )
        for h, (wins, ended, _) in zip(top, outcomes, strict=True)
    ]
    # The moves the look-ahead can hardly tell from its best (within ROLLOUT_MARGIN): the
    # rollouts rank those. A clear lead of the look-ahead's stands: followed blindly, the
    # quick player's outcomes alone lost games the look-ahead wins (bench/NOTES.md).
    near = [
        i
        for i, h in enumerate(top)
        if h.action["type"] != "deal" and top[0].score - h.score <= ROLLOUT_MARGIN
    ]
    best = sorted(near, key=lambda i: (-outcomes[i][2], i))
    order = best + [i for i in range(len(top)) if i not in near]
    return [rated[i] for i in order] + found[len(top) :]


def _dealt_from_a_deck(visible: VisiblePosition, removed: tuple[int, ...]) -> bool:
    """Whether the suit mode's deck, less the cards in view and the runs removed, fills the
    face-down places and the stock exactly (a made-up layout, such as a staff game's, may
    not: it has no cards not in view to draw from)."""
    left = copies_allowed(visible.suits)
    for s in removed:
        left.subtract(make_card(s, r) for r in range(1, KING + 1))
    left.subtract(c for col in visible.cards for c in col)
    places = sum(visible.hidden) + visible.deals_left * COLUMNS
    return min(left.values(), default=0) >= 0 and sum(left.values()) == places


# -- the ranking ------------------------------------------------------------------------
def _as_move(last: Any) -> Move | None:
    if last is None:
        return None
    if isinstance(last, Action):
        return last.as_move if last.kind in ("move", "deal") else None
    if isinstance(last, Mapping):
        if last.get("type") == "move":
            return (int(last["from"]), int(last["to"]), int(last["count"]))
        return DEAL if last.get("type") == "deal" else None
    src, dst, count = last
    return (int(src), int(dst), int(count))


def _reverse(last: Move | None) -> Move | None:
    if last is None or last[0] < 0:
        return None
    return (last[1], last[0], last[2])


def _limits(suits: int, level: str) -> tuple[int, int]:
    """(node budget, depth) of a hint search at ``level``."""
    if level == "deep":
        return (DEEP_BUDGET, DEEP_DEPTH) if suits > 1 else (DEEP_BUDGET_1, DEEP_DEPTH_1)
    return (NODE_BUDGET, MAX_DEPTH) if suits > 1 else (NODE_BUDGET_1, MAX_DEPTH_1)


def _rank(
    visible: VisiblePosition,
    last: Move | None,
    level: str = "default",
    seen: Collection[str] = frozenset(),
    search: _Search | None = None,
    *,
    over_gap: bool = False,
) -> list[Hint]:
    """The ranked hints (see ``hints``); ``search``: the look-ahead of this hint's first
    stage, which a later stage goes on with (``HINT_MAX_NODES``); ``over_gap``: the game's
    table rule deal_over_gap."""
    cols: Cols = visible.cards
    hid = visible.hidden
    gap_deal = visible.may_deal_over_gap(over_gap)  # the deal may go over the gaps now
    if visible.won or (visible.deals_left and visible.cards_on_table < COLUMNS and not gap_deal):
        return []  # won; or lost: too few cards left to fill every column for a deal
    budget, depth = _limits(visible.suits, level)
    if search is None:
        search = _Search(visible.deals_left, visible.suits, budget, depth, gap_deal)
    else:
        # The deep stage goes on with the look-ahead's own table, so the depths it has done
        # cost nothing again; a third of what the hint has left, the rest for ``_dig``.
        search.budget = search.nodes + max(
            1, min(budget, (HINT_MAX_NODES - search.nodes) // DEEP_SHARE)
        )
        search.max_depth = depth
    base = search.value(cols, hid)
    # The moves never suggested: the last one taken back, and any way back to a position
    # already seen in this game (a hint-follower went round in circles without it). The
    # deal is never one: it cannot lead back (only undoing it does).
    barred = _barred(visible, last, seen)
    if visible.deals_left and not gap_deal and _must_split(cols, hid):
        return _fillers(search, cols, hid, barred, base)
    roots = [m for m in _moves(cols, hid) if not barred(m)]
    values = search.run(cols, hid, roots)
    floor = search.leaf(cols, hid)[0]
    ranked = []
    for i, move in enumerate(roots):
        total, line = values[move]
        if total <= floor:
            continue
        child = _apply(cols, hid, move)
        refill = visible.deals_left and not gap_deal
        if refill and not child[2] and _refill_churn(hid, child[0], child[1]):
            continue
        delta = search.value(child[0], child[1]) + W_RUN * child[2] - base
        if delta <= 0 and not _needed(search, cols, hid, line, total):
            continue
        ranked.append((-total, -delta, i, move, line))
    ranked.sort()
    out = [
        Hint(_action(move), _reason(cols, hid, line), float(-neg - floor))
        for neg, _, _, move, line in ranked
    ]
    if visible.can_deal(over_gap):
        reason = "deals: no useful move left" if not out else "deals ten new cards"
        out.append(Hint({"type": "deal"}, reason, 0.0))
    elif not out and visible.deals_left and any(not c for c in cols):
        out = _fillers(search, cols, hid, barred, base)
    elif not out and not visible.deals_left:
        # Stuck with the stock out: the game is lost unless a longer way is found.
        if level != "deep":
            return _rank(visible, last, "deep", seen, search, over_gap=over_gap)
        line = _dig(cols, hid, barred, max(1, (HINT_MAX_NODES - search.nodes) // DIG_COST))
        if line:
            out = [Hint(_action(line[0]), _reason(cols, hid, line), 0.0)]
    return out


def _barred(
    visible: VisiblePosition, last: Move | None, seen: Collection[str]
) -> Callable[[Move], bool]:
    """``barred(move)``: whether ``move`` may not be suggested from ``visible``: it takes
    back ``last``, or it leads to a position seen before (by visible key; a move that turns
    a card over never does: face-down counts never grow back)."""
    reverse = _reverse(last)
    cols, hid = visible.cards, visible.hidden
    deals, runs = visible.deals_left, visible.runs_removed

    def barred(move: Move) -> bool:
        if move == reverse:
            return True
        if not seen:
            return False
        ncols, nhid, done = _apply(cols, hid, move)
        return nhid == hid and visible_key(nhid, ncols, deals, runs + done) in seen

    return barred


def _dig(
    cols: Cols,
    hid: tuple[int, ...],
    barred: Callable[[Move], bool] | None,
    budget: int = DIG_BUDGET,
) -> tuple[Move, ...]:
    """The shortest line (breadth first, about ``budget`` positions) to a card turned
    over or a run completed, or ``()``. The last resort once the stock is out and the look-
    ahead sees no gain: any card turned over is progress there, however many moves and
    empty columns it takes, and the alternative is giving the game up."""
    frontier: list[tuple[Cols, tuple[int, ...], tuple[Move, ...]]] = [(cols, hid, ())]
    seen = {(cols, hid)}
    hidden = sum(hid)
    nodes = 0
    while frontier:
        deeper = []
        for c, h, line in frontier:
            if nodes >= budget:  # checked per position: a level can hold thousands
                return ()
            for move in _moves(c, h):
                if not line and barred is not None and barred(move):
                    continue
                nc, nh, runs = _apply(c, h, move)
                nodes += 1
                if runs or sum(nh) < hidden:
                    return (*line, move)
                if (nc, nh) not in seen:
                    seen.add((nc, nh))
                    deeper.append((nc, nh, (*line, move)))
        frontier = deeper
    return ()


def _needed(search: _Search, cols: Cols, hid: Hid, line: Line, total: int) -> bool:
    """Whether the first move of ``line`` is needed for what the rest of it gains: the
    rest, played without it, is illegal or reaches less."""
    rest = search.line_value(cols, hid, line[1:])
    return rest is None or rest < total


def _must_split(cols: Cols, hid: tuple[int, ...]) -> bool:
    """Whether filling the empty columns for a deal takes splitting runs: there are more
    empty columns than runs with cards under them (each of those, moved whole, fills one).
    Then every other move only shuffles the same cards around (and the look-ahead, valuing
    empty columns and joins, would empty the columns as fast as they are filled)."""
    empty = sum(1 for c in cols if not c)
    if not empty:
        return False
    fillers = sum(1 for i, c in enumerate(cols) if c and (hid[i] or _tail(c) < len(c)))
    return empty > fillers


def _refill_churn(hid: tuple[int, ...], cols: Cols, child_hid: tuple[int, ...]) -> bool:
    """Whether a move (which completed no run) reached ``cols`` by emptying a column that
    must be filled again before the deal for nothing gained: only splitting a run could
    fill it, or nothing is face down (every card is known, so moving cards into the empty
    column and out again only shuffles them: the hints went round in such circles)."""
    if all(cols):
        return False
    return _must_split(cols, child_hid) or not any(hid)


def _fillers(
    search: _Search, cols: Cols, hid: tuple[int, ...], barred: Callable[[Move], bool], base: int
) -> list[Hint]:
    """Moves that fill an empty column so the deal becomes possible, best first."""
    empty = next(i for i in range(COLUMNS) if not cols[i])
    cands = []
    for src in range(COLUMNS):
        c = cols[src]
        k = _tail(c)
        if not k:
            continue
        for n in range(k, 0, -1):
            if n == len(c) and not hid[src]:
                continue  # the whole column: it only changes its index
            move = (src, empty, n)
            if barred(move):
                continue
            ncols, nhid, runs = _apply(cols, hid, move)
            value = search.value(ncols, nhid) + W_RUN * runs
            cands.append((-value, -rank(c[-n]), src, -n, move))
    cands.sort()
    return [
        Hint(_action(m), f"fills empty {say_column(m[1])} so you can deal", float(-v - base))
        for v, _, _, _, m in cands
    ]


def _action(move: Move) -> dict[str, Any]:
    return {"type": "move", "from": move[0], "to": move[1], "count": move[2]}


# -- the model: columns of face-up cards over a count of face-down ones -------------------
def _tail(col: tuple[int, ...]) -> int:
    """How many cards at the end of ``col`` lift together (0: empty or unknown)."""
    n = len(col)
    if not n or col[-1] == UNKNOWN:
        return 0
    j = n - 1
    while j > 0 and col[j - 1] == col[j] + 1:
        j -= 1
    return n - j


def _moves(cols: Cols, hid: tuple[int, ...]) -> list[Move]:
    """The look-ahead's moves: the engine's ``pruned_moves`` (a same-suit run splits only
    onto its own suit; into an empty column only the whole liftable run, only into the
    first empty column, and never a whole column)."""
    return pruned_moves(cols, _ALL_UP, hid)


# The position after a move in the model, and how many runs it completed.
_apply = visible_step


_COL_CACHE: dict[tuple[int, tuple[int, ...], int], int] = {}
_COL_CACHE_SIZE: Final = 200_000  # column values kept (then the cache starts again)


def _col_value(h: int, col: tuple[int, ...], w_len: int = W_LEN) -> int:
    key = (h, col, w_len)
    v = _COL_CACHE.get(key)
    if v is not None:
        return v
    if not col:
        v = W_EMPTY if not h else 0
    else:
        v = -W_REVEAL * h
        prev = col[0]
        if prev != UNKNOWN:
            if not h and prev & RANK_MASK == KING:
                v += W_KING
            run = 0  # joins so far in the run in suit that ``prev`` ends
            for c in col[1:]:
                if c == prev - 1:
                    v += W_SUIT + run * w_len
                    run += 1
                else:
                    run = 0
                    if c & RANK_MASK == (prev & RANK_MASK) - 1:
                        v += W_OFF
                prev = c
    if len(_COL_CACHE) > _COL_CACHE_SIZE:
        _COL_CACHE.clear()
    _COL_CACHE[key] = v
    return v


class _Search:
    """Iterative-deepening look-ahead with a transposition table and a node budget.

    Values are kept incrementally: a position carries its per-column values, their sum, its
    empty-column count and its card count, so a move costs two column values (cached).
    """

    def __init__(
        self,
        deals_left: int,
        suits: int = max(SUIT_MODES),
        budget: int = 0,
        depth: int = 0,
        over_gap: bool = False,
    ) -> None:
        self.deals_left = deals_left
        # The deal may go over the empty columns (``VisiblePosition.may_deal_over_gap``): it
        # needs no filling first, and with so few cards it stays so until it is made.
        self.over_gap = over_gap
        # With one suit every join is in suit and runs are long anyway: valuing length
        # there only makes splitting a run (often needed late in the game) look costly.
        self.w_len = W_LEN if suits > 1 else 0
        self.nodes = 0
        default_budget, default_depth = _limits(suits, "default")
        self.budget = budget or default_budget
        self.max_depth = depth or default_depth
        self.table: dict[tuple[Cols, Hid, int], tuple[int, int, Line]] = {}

    def value(self, cols: Cols, hid: tuple[int, ...]) -> int:
        w_len = self.w_len
        v = sum(_col_value(h, c, w_len) for h, c in zip(hid, cols, strict=True))
        return v if self.deals_left else v - _EMPTY_EXCESS[sum(1 for c in cols if not c)]

    def leaf(self, cols: Cols, hid: Hid) -> tuple[int, Line]:
        """A position's value where the look-ahead stops (see ``_leaf``)."""
        empty = sum(1 for c in cols if not c)
        cards = sum(hid) + sum(len(c) for c in cols)
        raw = sum(_col_value(h, c, self.w_len) for h, c in zip(hid, cols, strict=True))
        return self._leaf(raw, empty, cards)

    def _leaf(self, v: int, empty: int, cards: int) -> tuple[int, Line]:
        """With deals left the game goes on only through a deal, so a position is valued as
        dealing from it: its empty columns filled first (each valued at a typical fill's
        cost), or ``LOST`` when too few cards are left to fill them (the deal, and so the
        win, can never come)."""
        if not self.deals_left:
            return v - _EMPTY_EXCESS[empty], ()
        if self.over_gap:  # dealt over the gaps as they are: each loses its worth
            return v - empty * W_EMPTY + W_DEAL - C_MOVE, (DEAL,)
        if cards < COLUMNS:
            return LOST, (DEAL,)
        return v - empty * (W_EMPTY + W_FILL + C_MOVE) + W_DEAL - C_MOVE, (DEAL,)

    def run(self, cols: Cols, hid: Hid, roots: list[Move]) -> dict[Move, tuple[int, Line]]:
        """The best (value, line) each root move leads to, from the deepest look-ahead that
        finished within the budget."""
        vals = tuple(_col_value(h, c, self.w_len) for h, c in zip(hid, cols, strict=True))
        empty = sum(1 for c in cols if not c)
        cards = sum(hid) + sum(len(c) for c in cols)
        return self._run(cols, hid, roots, vals, empty, cards)

    def _run(
        self,
        cols: Cols,
        hid: Hid,
        roots: list[Move],
        vals: tuple[int, ...],
        empty: int,
        cards: int,
    ) -> dict[Move, tuple[int, Line]]:
        children = [(m, self.child(cols, hid, vals, sum(vals), empty, cards, m)) for m in roots]
        result = {}
        for m, (_, _, _, v, e, cc, bonus) in children:
            lv, line = self._leaf(v, e, cc)
            result[m] = (lv + bonus, (m, *line))
        for depth in range(1, self.max_depth):
            found = {}
            for m, (c, h, vs, v, e, cc, bonus) in children:
                # the cards just moved do not move again straight away (see ``best``)
                avoid = m[1] if bonus < 0 else -1
                bv, line = self.best(c, h, vs, v, e, cc, depth, avoid)
                if self.nodes > self.budget:
                    return result
                found[m] = (bv + bonus, (m, *line))
            result = found
        return result

    def child(
        self,
        cols: Cols,
        hid: Hid,
        vals: tuple[int, ...],
        v: int,
        empty: int,
        cards: int,
        move: Move,
    ) -> _Child:
        """The position after ``move``: (cols, hid, vals, value, empty, cards, bonus) where
        bonus is what the move itself earns on the way (runs completed, less its cost)."""
        src, dst, cnt = move
        d = cols[dst]
        ns, hs, nd, hd, runs = visible_move(cols[src], hid[src], d, hid[dst], cnt)
        if not d:
            empty -= 1  # filled
        if not ns:
            empty += 1  # emptied
        bonus = -C_MOVE
        if runs:
            bonus += W_RUN * runs
            cards -= RUN_LENGTH * runs
            if not nd:
                empty += 1  # emptied by the run that left
        lc = list(cols)
        lc[src] = ns
        lc[dst] = nd
        if hs != hid[src] or hd != hid[dst]:
            lh = list(hid)
            lh[src] = hs
            lh[dst] = hd
            nhid = tuple(lh)
        else:
            nhid = hid
        # The two column values: straight from ``_col_value``'s cache when it has them (a
        # call less per column: this is the look-ahead's innermost step).
        w_len = self.w_len
        vs = _COL_CACHE.get((hs, ns, w_len))
        if vs is None:
            vs = _col_value(hs, ns, w_len)
        vd = _COL_CACHE.get((hd, nd, w_len))
        if vd is None:
            vd = _col_value(hd, nd, w_len)
        lv = list(vals)
        nv = v - lv[src] - lv[dst] + vs + vd
        lv[src] = vs
        lv[dst] = vd
        return tuple(lc), nhid, tuple(lv), nv, empty, cards, bonus

    def best(
        self,
        cols: Cols,
        hid: Hid,
        vals: tuple[int, ...],
        v: int,
        empty: int,
        cards: int,
        depth: int,
        avoid: int,
    ) -> tuple[int, Line]:
        """The best value reachable from here in at most ``depth`` moves, and its line
        (runs completed and moves made on the way are counted; ``DEAL`` ends a line).

        Nothing moves from column ``avoid``, where the last move put its cards: moving them
        on again (or back) is one move done in two, and would make a pointless first
        move look like the way to a gain.
        """
        key = (cols, hid, avoid)
        hit = self.table.get(key)
        if hit is not None and hit[0] >= depth:
            return hit[1], hit[2]
        best_v, best_line = self._leaf(v, empty, cards)
        moves = _moves(cols, hid)
        self.nodes += 1 + len(moves)
        if self.nodes > self.budget:
            return best_v, best_line
        child = self.child
        for move in moves:
            if move[0] == avoid:
                continue
            c, h, vs, nv, e, cc, bonus = child(cols, hid, vals, v, empty, cards, move)
            if depth > 1:
                bv, line = self.best(c, h, vs, nv, e, cc, depth - 1, move[1] if bonus < 0 else -1)
            else:
                bv, line = self._leaf(nv, e, cc)
            bv += bonus
            if bv > best_v:
                best_v = bv
                best_line = (move, *line)
        self.table[key] = (depth, best_v, best_line)
        return best_v, best_line

    def line_value(self, cols: Cols, hid: Hid, line: Line) -> int | None:
        """The value of playing ``line`` from here, or None if it is not legal here."""
        bonus = 0
        for move in line:
            if move == DEAL:
                break
            if move not in _moves(cols, hid):
                return None
            cols, hid, runs = _apply(cols, hid, move)
            bonus += W_RUN * runs - C_MOVE
        return self.leaf(cols, hid)[0] + bonus


# By empty-column count: how much less than W_EMPTY each they are worth together
# (``W_EMPTY_NTH``), taken off a position's value once the stock is out.
_EMPTY_EXCESS: Final = tuple(
    sum(W_EMPTY - W_EMPTY_NTH[min(k, len(W_EMPTY_NTH) - 1)] for k in range(n))
    for n in range(COLUMNS + 1)
)


# -- reasons ------------------------------------------------------------------------------
def _reason(cols: Cols, hid: Hid, line: Line) -> str:
    """The reason in words: what the move itself does, else what it makes possible."""
    first = _effects(cols, hid, line[0])
    if first:
        return first
    move = line[0]
    ncols, nhid, _ = _apply(cols, hid, move)
    if not cols[move[1]] and DEAL in line:
        return f"fills empty {say_column(move[1])} so you can deal"
    for later in line[1:]:
        if later == DEAL:
            break
        effect = _effects(ncols, nhid, later, later=True)
        if effect:
            return "makes way: " + effect
        ncols, nhid, _ = _apply(ncols, nhid, later)
    return "tidies the columns"


def _effects(cols: Cols, hid: tuple[int, ...], move: Move, *, later: bool = False) -> str:
    src, dst, cnt = move
    s = cols[src]
    d = cols[dst]
    card = s[-cnt]
    suit_name = SUIT_NAMES[suit(card)]
    ncols, nhid, runs = _apply(cols, hid, move)
    if runs:
        return f"completes a run of {suit_name}"
    parts = []
    revealed = nhid[src] < hid[src]
    emptied = not ncols[src]
    if not d and rank(card) == KING and (revealed or len(s) > cnt):
        parts.append("frees a King into an empty column")
    if revealed:
        parts.append(f"turns over a hidden card in {say_column(src)}")
    elif emptied:
        parts.append(f"empties {say_column(src)}")
    if parts:
        return ", ".join(parts)
    if d and d[-1] == card + 1:
        if cnt < len(s) and s[-cnt - 1] == card + 1:
            return ""  # a run that was already joined: no gain by itself
        return f"builds {suit_name} in suit"
    if later:
        return ""
    if d and cnt < len(s) and rank(s[-cnt - 1]) != rank(card) + 1:
        return f"puts the {say_card(card)} in order on the {say_card(d[-1])}"
    return ""
