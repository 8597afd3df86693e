"""The Spider position and the rules that change it: ``Board``.

Like python-chess's ``Board``: ``push(move)`` applies a move or a deal in place and
``pop()`` reverses it exactly (the solver's tool); ``play(...)`` is the checked path a
player's action takes, and ``undo()`` is the player's undo, which reverses the last move or
deal but leaves every card it turned face up (docs/rules.md#undo: for mistakes, not peeking).

Representation: ``cols[i]`` is a list of card ints, bottom to top; the first ``down[i]`` of
them are face down, the rest face up. The stock is the full list of stock cards in dealing
order and ``dealt`` says how many have gone out, so a deal and its undo only move an index.
Every push leaves one record on ``_stack`` holding just what is needed to reverse it
(``records.py``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

from . import errors as E
from .actions import DEAL, Move
from .cards import ACE, RANK_MASK, RUN_LENGTH, SUITS, Card, format_card
from .errors import IllegalAction
from .layout import COLUMNS, DEAL_SIZE, Layout, run_cards
from .moves import legal_moves
from .records import FLIPPED, DealRecord, Record, Settled, parse_record
from .seen import has_key, split_keys, visible_key
from .words import say_card, say_column

START_SCORE: Final = 500
RUN_POINTS: Final = 100
# docs/rules.md#deal-over-a-gap: under the table rule deal_over_gap a deal may go over empty
# columns while fewer cards than this are on the table: too few to fill every column.
GAP_DEAL_CARDS: Final = COLUMNS


@dataclass(slots=True)
class Outcome:
    """What one action did, for the client: cards turned face up, runs removed or put back."""

    turned: list[tuple[int, Card]] = field(default_factory=list)
    runs_removed: list[tuple[int, int]] = field(default_factory=list)
    runs_restored: list[tuple[int, int]] = field(default_factory=list)
    score_change: int = 0

    def to_json(self) -> dict[str, object]:
        return {
            "turned": [{"column": c, "card": format_card(card)} for c, card in self.turned],
            "runs_removed": [{"column": c, "suit": SUITS[s]} for c, s in self.runs_removed],
            "runs_restored": [{"column": c, "suit": SUITS[s]} for c, s in self.runs_restored],
            "score_change": self.score_change,
        }


class Board:
    """A Spider game in progress: the position, its counters and its undo stack."""

    __slots__ = (
        "suits",
        "deal_over_gap",
        "cols",
        "down",
        "stock",
        "dealt",
        "removed",
        "actions",
        "undos",
        "hints",
        "_stack",
        "_shelved",
        "_seen",
    )

    def __init__(self, layout: Layout) -> None:
        self.suits = layout.suits
        self.deal_over_gap = layout.deal_over_gap  # a table rule, fixed for the game
        self.cols: list[list[Card]] = [list(d) + list(u) for d, u in layout.columns]
        self.down: list[int] = [len(d) for d, _ in layout.columns]
        self.stock: list[Card] = list(layout.stock)
        self.dealt = 0
        self.removed: list[int] = list(layout.removed)
        self.actions = 0
        self.undos = 0
        self.hints = 0
        self._stack: list[Record] = []
        # Records older than ``_stack``'s, still in their stored text form (records.py, joined
        # by spaces): ``snapshot.load`` leaves a game's history unparsed, for only an undo
        # reaches into it and the history grows with every action.
        self._shelved = ""
        # A layout may show a completed run; the rules remove it before play starts.
        for i in range(COLUMNS):
            self._settle(i)
        # The visible keys (seen.py) of the positions since a card was last turned face up,
        # this one included, joined: what the hints must not lead back to. Kept by the
        # player's path (play, undo) only; the search's push and pop leave it alone.
        self._seen = self.visible_key()

    # -- reading the position ---------------------------------------------------------------
    @property
    def runs_removed(self) -> int:
        return len(self.removed)

    @property
    def score(self) -> int:
        return max(0, START_SCORE - self.actions + RUN_POINTS * len(self.removed))

    @property
    def deals_left(self) -> int:
        return (len(self.stock) - self.dealt) // DEAL_SIZE

    @property
    def won(self) -> bool:
        """Every card has left the table: the stock is dealt and every column is empty."""
        return self.dealt == len(self.stock) and not any(self.cols)

    @property
    def perfect(self) -> bool:
        return self.won and self.undos == 0 and self.hints == 0

    @property
    def can_undo(self) -> bool:
        return bool(self._stack or self._shelved)

    @property
    def last_move(self) -> Move | None:
        """The last move or deal not yet undone, or None."""
        record = self._top()
        if record is None:
            return None
        return DEAL if isinstance(record, DealRecord) else record[:3]

    def _top(self) -> Record | None:
        """The newest undo record (taken off the shelf if need be), or None."""
        if not self._stack:
            if not self._shelved:
                return None
            self._stack.append(self._unshelve())
        return self._stack[-1]

    def _unshelve(self) -> Record:
        """Parse the newest shelved record and take it off the shelf."""
        cut = self._shelved.rfind(" ")
        record = parse_record(self._shelved[cut + 1 :])  # a broken record changes nothing
        self._shelved = self._shelved[:cut] if cut >= 0 else ""
        return record

    def history(self) -> list[Record]:
        """Every undo record, oldest first (the shelved ones parsed)."""
        shelved = self._shelved.split(" ") if self._shelved else []
        return [parse_record(text) for text in shelved] + self._stack

    def can_deal(self) -> bool:
        """The deal is legal (docs/rules.md#deal): cards are left in the stock, and every
        column holds a card or the game's table rule lets the deal go over the gaps."""
        return self.dealt < len(self.stock) and (all(self.cols) or self.may_deal_over_gap())

    def may_deal_over_gap(self) -> bool:
        """Whether a deal may go over empty columns now (docs/rules.md#deal-over-a-gap):
        the game is played under deal_over_gap and fewer than GAP_DEAL_CARDS cards are on
        the table."""
        return self.deal_over_gap and self.cards_on_table() < GAP_DEAL_CARDS

    def cards_on_table(self) -> int:
        """Every card in the columns, face down or up (not the stock, not removed runs)."""
        return sum(map(len, self.cols))

    def visible_key(self) -> str:
        """The key of what the player sees of this position (``seen.visible_key``)."""
        down = self.down
        return visible_key(
            down,
            (c[down[i] :] for i, c in enumerate(self.cols)),
            self.deals_left,
            len(self.removed),
        )

    def seen_keys(self) -> frozenset[str]:
        """The visible keys of every position this game has been in that could come back:
        those since a card was last turned face up (face-down counts never grow again), as
        far back as this board's history goes (a snapshot keeps them)."""
        return split_keys(self._seen)

    def _note_seen(self, hidden_before: int) -> None:
        key = self.visible_key()
        if sum(self.down) != hidden_before:
            self._seen = key  # a card turned over: no position before can come back
        elif not has_key(self._seen, key):  # once each: shuffling back and forth adds none
            self._seen += key

    def is_stuck(self) -> bool:
        """Not won, no legal move and no legal deal (undo does not count as a way out)."""
        return not self.won and not self.can_deal() and not self.legal_moves()

    def face_up(self, i: int) -> list[Card]:
        return self.cols[i][self.down[i] :]

    def tail_run(self, i: int) -> int:
        """How many cards at the end of column ``i`` can be lifted together (0 if empty)."""
        c = self.cols[i]
        n = len(c)
        if not n:
            return 0
        j = n - 1
        lim = self.down[i]
        while j > lim and c[j - 1] == c[j] + 1:
            j -= 1
        return n - j

    def legal_moves(self) -> list[Move]:
        """Every legal move (not the deal), ordered by source, destination, then count.

        Moves into an empty column are listed for every liftable count, whole columns
        included: they are legal, only pointless, and the solver prunes them itself.
        """
        return legal_moves(self.cols, self.down)

    def legal_actions(self) -> list[Move]:
        moves = self.legal_moves()
        if self.can_deal():
            moves.append(DEAL)
        return moves

    def key(self) -> tuple[object, ...]:
        """An exact, hashable key of the position (cards, face-down counts, stock left).

        Two positions with equal keys play identically; counters are not part of it.
        """
        down = self.down
        return (self.dealt, *[(down[i], *c) for i, c in enumerate(self.cols)])

    def canonical_key(self) -> tuple[object, ...]:
        """Like ``key`` but blind to column order once the stock is dealt: then positions
        that differ only by which column holds what are one position to a search. While
        cards remain in the stock the order counts, since a deal puts card i on column i."""
        down = self.down
        columns = [(down[i], *c) for i, c in enumerate(self.cols)]
        if self.dealt == len(self.stock):
            columns.sort()
        return (self.dealt, *columns)

    # -- checking and playing (the player's path) -------------------------------------------
    def check_move(self, src: int, dst: int, count: int) -> None:
        """Raise IllegalAction with the precise code unless moving ``count`` cards from
        column ``src`` to column ``dst`` is legal now."""
        self._check_not_over()
        self._check_lift(src, count)
        _check_column(dst, "to")
        if dst == src:
            raise IllegalAction(E.BAD_COLUMN, "a move needs two different columns")
        d = self.cols[dst]
        if d:
            first = self.cols[src][-count]
            if d[-1] & RANK_MASK != (first & RANK_MASK) + 1:
                raise IllegalAction(
                    E.RANK_MISMATCH,
                    f"{say_card(first)} cannot go on {say_card(d[-1])} in {say_column(dst)}: "
                    "a card goes only on a card exactly one rank higher",
                )

    def _check_lift(self, src: int, count: int) -> None:
        _check_column(src, "from")
        c = self.cols[src]
        if isinstance(count, bool) or not isinstance(count, int) or count < 1:
            raise IllegalAction(
                E.BAD_COUNT, f"count must be a whole number of at least 1, not {count!r}"
            )
        if not c:
            raise IllegalAction(
                E.BAD_COUNT, f"{say_column(src)} is empty: there is nothing to move"
            )
        if count > len(c):
            raise IllegalAction(
                E.BAD_COUNT, f"{say_column(src)} holds only {len(c)} cards, not {count}"
            )
        if count > len(c) - self.down[src]:
            raise IllegalAction(
                E.FACE_DOWN, f"{say_column(src)} has only {len(c) - self.down[src]} face-up cards"
            )
        if count > self.tail_run(src):
            raise IllegalAction(
                E.NOT_A_RUN,
                f"the last {count} cards of {say_column(src)} are not one suit in descending order",
            )

    def check_deal(self) -> None:
        self._check_not_over()
        if self.dealt >= len(self.stock):
            raise IllegalAction(E.STOCK_EMPTY, "the stock is empty: there is nothing left to deal")
        if self.may_deal_over_gap():
            return
        for i, c in enumerate(self.cols):
            if not c:
                # Under deal_over_gap the sentence says why this gap still blocks the deal.
                rule = (
                    f" (over a gap only with fewer than {GAP_DEAL_CARDS} cards on the table, "
                    f"not {self.cards_on_table()})"
                    if self.deal_over_gap
                    else ""
                )
                raise IllegalAction(
                    E.EMPTY_COLUMN_BLOCKS_DEAL,
                    f"{say_column(i)} is empty: fill every empty column before you deal{rule}",
                )

    def _check_not_over(self) -> None:
        if self.won:
            raise IllegalAction(E.GAME_OVER, "the game is won: no further action is possible")

    def resolve_move(self, src: int, dst: int | None = None, count: int | None = None) -> Move:
        """Complete a move the player named only partly, then check it.

        ``count`` omitted: the longest movable run that fits ``dst``. ``dst`` omitted: the
        one-tap destination (see onetap.py). Raises IllegalAction when nothing fits.
        """
        from .onetap import choose_destination  # onetap ranks moves of this Board

        self._check_not_over()
        self._check_lift(src, 1 if count is None else count)  # an empty source says so
        if dst is None:
            move = choose_destination(self, src, count)
            if move is None:
                raise IllegalAction(
                    E.NO_DESTINATION, f"no column can take a card from {say_column(src)}"
                )
            return move
        _check_column(dst, "to")
        if count is None:
            if dst == src:
                raise IllegalAction(E.BAD_COLUMN, "a move needs two different columns")
            count = self.fitting_count(src, dst)
            if count is None:
                raise IllegalAction(
                    E.RANK_MISMATCH,
                    f"no run at the end of {say_column(src)} fits on {say_column(dst)}",
                )
        self.check_move(src, dst, count)
        return (src, dst, count)

    def fitting_count(self, src: int, dst: int) -> int | None:
        """The longest count from ``src`` that may be placed on ``dst``, or None."""
        if src == dst:
            return None
        k = self.tail_run(src)
        if not k:
            return None
        d = self.cols[dst]
        if not d:
            return k
        low = self.cols[src][-1] & RANK_MASK
        t = d[-1] & RANK_MASK
        return t - low if low < t <= low + k else None

    def play(self, move: Move) -> Outcome:
        """Check and apply a move or ``DEAL`` for a player; returns what happened."""
        if move == DEAL:
            self.check_deal()
        else:
            self.check_move(*move)
        before = self.score
        hidden = sum(self.down)
        self.push(move)
        self._note_seen(hidden)
        return self._outcome(self._stack[-1], before)

    def undo(self) -> Outcome:
        """The player's undo: reverse the last move or deal not yet undone, keeping every
        card that was turned face up, and count one action.

        If the cards put back complete a run on a card that stays face up (possible only
        when that card was turned by the undone move), the run leaves the table as the
        rules demand, and the undo history before it is cleared: those cards are gone.
        """
        self._check_not_over()
        record = self._top()
        if record is None:
            raise IllegalAction(E.NOTHING_TO_UNDO, "there is no move or deal left to undo")
        before = self.score
        hidden = sum(self.down)
        self._reverse(exact=False)
        self.actions += 1
        self.undos += 1
        outcome = Outcome()
        for column, suits in _runs_in(record):
            outcome.runs_restored.extend((column, s) for s in suits)
        touched = range(COLUMNS) if isinstance(record, DealRecord) else (record[0], record[1])
        for i in touched:
            settled = self._settle(i)
            if settled is not None:
                outcome.runs_removed.extend((i, s) for s in settled[0])
                if settled[1]:
                    outcome.turned.append((i, self.cols[i][self.down[i]]))
                if settled[0]:
                    self._stack.clear()
                    self._shelved = ""
        outcome.score_change = self.score - before
        self._note_seen(hidden)
        return outcome

    def note_hint(self) -> None:
        """Count a hint served on this game (it costs the perfect flag, not points)."""
        self.hints += 1

    # -- applying (the search's path: no checks) --------------------------------------------
    def push(self, move: Move) -> None:
        """Apply a legal move or ``DEAL`` in place, unchecked; ``pop`` reverses it exactly."""
        src, dst, n = move
        if src < 0:
            self._push_deal()
            return
        cols = self.cols
        down = self.down
        s = cols[src]
        d = cols[dst]
        d.extend(s[-n:])
        del s[-n:]
        settled_src = None
        if s:
            if len(s) == down[src]:
                down[src] -= 1
                settled_src = FLIPPED
            elif s[-1] & RANK_MASK == ACE:  # only a layout can leave a run under other cards
                settled_src = self._settle(src)
        settled_dst = None
        if d[-1] & RANK_MASK == ACE and len(d) - down[dst] >= RUN_LENGTH:
            settled_dst = self._settle(dst)
        self._stack.append((src, dst, n, settled_src, settled_dst))
        self.actions += 1

    def _push_deal(self) -> None:
        cols = self.cols
        down = self.down
        stock = self.stock
        at = self.dealt
        for i in range(COLUMNS):
            cols[i].append(stock[at + i])
        self.dealt = at + DEAL_SIZE
        settled: list[tuple[int, Settled]] | None = None
        for i in range(COLUMNS):
            c = cols[i]
            if c[-1] & RANK_MASK == ACE and len(c) - down[i] >= RUN_LENGTH:
                result = self._settle(i)
                if result is not None:
                    settled = settled or []
                    settled.append((i, result))
        self._stack.append(DealRecord(tuple(settled) if settled else ()))
        self.actions += 1

    def pop(self) -> Move:
        """Reverse the last push exactly (face-down cards included) and return its move."""
        move = self._reverse(exact=True)
        self.actions -= 1
        return move

    def _reverse(self, *, exact: bool) -> Move:
        """Take the last record off the stack and reverse it; returns its move."""
        try:
            record = self._stack.pop()
        except IndexError:  # a loaded board's history: off the shelf (never on the search's path)
            if not self._shelved:
                raise
            record = self._unshelve()
        cols = self.cols
        if isinstance(record, DealRecord):
            for i, result in reversed(record.settled):
                self._unsettle(i, result, exact)
            for c in cols:
                c.pop()
            self.dealt -= DEAL_SIZE
            return DEAL
        src, dst, n, settled_src, settled_dst = record
        if settled_dst is not None:
            self._unsettle(dst, settled_dst, exact)
        if settled_src is not None:
            self._unsettle(src, settled_src, exact)
        s = cols[src]
        d = cols[dst]
        s.extend(d[-n:])
        del d[-n:]
        return (src, dst, n)

    def _settle(self, i: int) -> Settled | None:
        """Remove completed runs from the end of column ``i``, then turn its last card face
        up if it is face down. Returns what it did, or None."""
        c = self.cols[i]
        down = self.down
        runs: tuple[int, ...] = ()
        while len(c) - down[i] >= RUN_LENGTH and _completes_run(c):
            suit = c[-1] >> 4
            del c[-RUN_LENGTH:]
            self.removed.append(suit)
            runs += (suit,)
        flipped = bool(c) and len(c) == down[i]
        if flipped:
            down[i] -= 1
        if not runs:
            return FLIPPED if flipped else None
        return (runs, flipped)

    def _unsettle(self, i: int, settled: Settled, exact: bool) -> None:
        runs, flipped = settled
        if flipped and exact:
            self.down[i] += 1
        c = self.cols[i]
        for suit in reversed(runs):
            c.extend(run_cards(suit))
            self.removed.pop()

    def _outcome(self, record: Record, score_before: int) -> Outcome:
        outcome = Outcome(score_change=self.score - score_before)
        for i, (runs, flipped) in _settled_columns(record):
            outcome.runs_removed.extend((i, s) for s in runs)
            if flipped:
                outcome.turned.append((i, self.cols[i][self.down[i]]))
        return outcome

    # -- copying and describing -------------------------------------------------------------
    def copy(self, *, stack: bool = True) -> Board:
        """An independent copy; with ``stack=False`` it cannot undo what came before."""
        other = Board.__new__(Board)
        other.suits = self.suits
        other.deal_over_gap = self.deal_over_gap
        other.cols = [list(c) for c in self.cols]
        other.down = list(self.down)
        other.stock = self.stock  # never mutated: sharing is safe
        other.dealt = self.dealt
        other.removed = list(self.removed)
        other.actions = self.actions
        other.undos = self.undos
        other.hints = self.hints
        other._stack = list(self._stack) if stack else []
        other._shelved = self._shelved if stack else ""
        other._seen = self._seen if stack else other.visible_key()
        return other

    def layout(self) -> Layout:
        """The current position as a Layout (the stock as what is left to deal)."""
        return Layout(
            suits=self.suits,
            columns=tuple(
                (tuple(c[: self.down[i]]), tuple(c[self.down[i] :]))
                for i, c in enumerate(self.cols)
            ),
            stock=tuple(self.stock[self.dealt :]),
            removed=tuple(self.removed),
            deal_over_gap=self.deal_over_gap,
        )

    def notation(self) -> str:
        return self.layout().notation()

    def __repr__(self) -> str:
        return f"Board({self.notation()!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Board):
            return NotImplemented
        return (
            self.suits == other.suits
            and self.deal_over_gap == other.deal_over_gap
            and self.cols == other.cols
            and self.down == other.down
            and self.stock == other.stock
            and self.dealt == other.dealt
            and self.removed == other.removed
            and (self.actions, self.undos, self.hints) == (other.actions, other.undos, other.hints)
            and self.history() == other.history()
        )

    __hash__ = None  # type: ignore[assignment]  # mutable


def _completes_run(c: list[Card]) -> bool:
    """Whether the last 13 cards of ``c`` are King down to Ace of one suit."""
    if c[-1] & RANK_MASK != ACE or c[-RUN_LENGTH] != c[-1] + RUN_LENGTH - 1:
        return False
    return all(c[j] == c[j + 1] + 1 for j in range(-RUN_LENGTH, -1))


def _check_column(i: object, name: str) -> None:
    if isinstance(i, bool) or not isinstance(i, int) or not 0 <= i < COLUMNS:
        raise IllegalAction(
            E.BAD_COLUMN,
            f"'{name}' must be 0..{COLUMNS - 1}, the API's index of columns 1-{COLUMNS}, not {i!r}",
        )


def _settled_columns(record: Record) -> list[tuple[int, Settled]]:
    """(column, what settling it did) for each column of ``record`` where it did something."""
    if isinstance(record, DealRecord):
        return list(record.settled)
    src, dst, _, settled_src, settled_dst = record
    pairs = ((src, settled_src), (dst, settled_dst))
    return [(i, s) for i, s in pairs if s is not None]


def _runs_in(record: Record) -> list[tuple[int, tuple[int, ...]]]:
    return [(i, runs) for i, (runs, _) in _settled_columns(record) if runs]
