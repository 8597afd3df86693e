"""Position keys: ``key`` (exact) and ``canonical_key`` (blind to column order once the
stock is dealt — before that, a deal tells the columns apart)."""

from __future__ import annotations

from games.engine import DEAL, Board, deal_layout
from tests.engine.conftest import board_of

TOPS = [f"{r}c" for r in "23456789"]
STOCK = "QsJh" + "Ad" * 2 + "Ac" * 2 + "Ah" * 2 + "As" * 2


def test_key_ignores_counters_but_not_cards_or_flags() -> None:
    board = board_of(4, {0: "9c|Qd5h", 1: "6s", 2: "6d"})
    other = board_of(4, {0: "9c|Qd5h", 1: "6s", 2: "6d"})
    other.note_hint()
    assert other.key() == board.key()
    board.play((0, 1, 1))
    board.play((1, 2, 1))
    other.play((0, 1, 1))
    assert other.key() != board.key()  # the 5h is on another column
    other.play((1, 2, 1))
    assert other.key() == board.key()  # now it is not; the action counts differ, no matter
    flipped = board_of(4, {0: "9c|Qd5h"})
    hidden = board_of(4, {0: "9cQd|5h"})
    assert flipped.key() != hidden.key()  # same cards, different face-up flags


def test_key_counts_the_deals_made() -> None:
    board = Board(deal_layout(2, 1))
    before = board.key()
    board.play(DEAL)
    board.undo()  # the same cards, back in the stock
    assert board.key() == before


def test_column_order_counts_while_cards_remain_in_the_stock() -> None:
    a = board_of(4, ["Ks", "Qh", *TOPS], stock=STOCK)
    b = board_of(4, ["Qh", "Ks", *TOPS], stock=STOCK)
    assert a.canonical_key() != b.canonical_key()
    a.play(DEAL)
    b.play(DEAL)
    # The next deal proves it: Qs joins the Ks in a, Jh the Qh; in b nothing joins.
    assert (a.tail_run(0), a.tail_run(1)) == (2, 2)
    assert (b.tail_run(0), b.tail_run(1)) == (1, 1)


def test_column_order_is_ignored_once_the_stock_is_dealt() -> None:
    a = board_of(4, ["Ks", "Qh", *TOPS])
    b = board_of(4, ["Qh", "Ks", *TOPS])
    assert a.canonical_key() == b.canonical_key()
    assert a.key() != b.key()
    # ... and the two positions really do play alike, column for column.
    swap = [1, 0, *range(2, 10)]
    assert sorted((swap[s], swap[d], n) for s, d, n in a.legal_moves()) == b.legal_moves()
    assert len(a.legal_moves()) == 8  # Qh on Ks, and 2c..8c each on the next club
