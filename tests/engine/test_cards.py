"""Cards: the int packing, the two-character notation and the deck of each suit mode."""

from __future__ import annotations

from collections import Counter

import pytest

from games.engine import LayoutError, format_card, parse_card
from games.engine.cards import (
    ACE,
    DECK_SIZE,
    KING,
    copies_allowed,
    format_cards,
    full_deck,
    make_card,
    mode_suits,
    parse_cards,
    rank_of,
    suit_of,
)

ALL_CARDS = [r + s for s in "shdc" for r in "A23456789TJQK"]


@pytest.mark.parametrize("text", ALL_CARDS)
def test_every_card_round_trips(text: str) -> None:
    card = parse_card(text)
    assert format_card(card) == text
    assert rank_of(card) == "A23456789TJQK".index(text[0]) + 1
    assert suit_of(card) == "shdc".index(text[1])


def test_the_52_cards_are_distinct_ints() -> None:
    assert len({parse_card(t) for t in ALL_CARDS}) == 52


@pytest.mark.parametrize(
    ("text", "card"),
    [("As", make_card(0, ACE)), ("Ts", 10), ("Kh", 1 << 4 | KING), ("Qd", 2 << 4 | 12)],
)
def test_packing_is_suit_then_rank(text: str, card: int) -> None:
    assert parse_card(text) == card


@pytest.mark.parametrize("text", ["", "A", "1s", "10s", "ts", "AS", "Ax", "Ah ", None, 7, ["As"]])
def test_bad_cards_are_refused_with_bad_card(text: object) -> None:
    with pytest.raises(LayoutError) as info:
        parse_card(text)  # type: ignore[arg-type]
    assert info.value.code == "bad_card"
    assert "A23456789TJQK" in info.value.detail


def test_parse_cards_reads_concatenated_cards() -> None:
    assert format_cards(parse_cards("KsQhJd")) == "KsQhJd"
    assert parse_cards("") == []


@pytest.mark.parametrize("text", ["KsQ", "Ks Qs", "KsXx"])
def test_parse_cards_refuses_malformed_lists(text: str) -> None:
    with pytest.raises(LayoutError) as info:
        parse_cards(text)
    assert info.value.code == "bad_card"


def test_joined_and_placeable_are_single_comparisons() -> None:
    seven_s, six_s, six_h = parse_card("7s"), parse_card("6s"), parse_card("6h")
    assert six_s == seven_s - 1  # same suit, one rank below: joined
    assert six_h != seven_s - 1  # off suit: not joined ...
    assert rank_of(six_h) == rank_of(seven_s) - 1  # ... but placeable
    # An Ace is never one below a King of the previous suit in the joined sense.
    assert parse_card("Ah") - 1 != parse_card("Ks")


@pytest.mark.parametrize(
    ("suits", "letters", "copies"), [(1, "s", 8), (2, "sh", 4), (4, "shdc", 2)]
)
def test_each_suit_mode_has_104_cards_in_full_sets(suits: int, letters: str, copies: int) -> None:
    deck = full_deck(suits)
    assert len(deck) == DECK_SIZE == 104
    counts = Counter(format_card(c) for c in deck)
    assert counts == {r + s: copies for s in letters for r in "A23456789TJQK"}
    assert copies_allowed(suits) == Counter(deck)


def test_full_deck_order_is_set_by_set_ace_to_king() -> None:
    deck = [format_card(c) for c in full_deck(4)]
    assert deck[:13] == [r + "s" for r in "A23456789TJQK"]
    assert deck[13:15] == ["Ah", "2h"]
    assert [deck[13 * k] for k in range(8)] == ["As", "Ah", "Ad", "Ac"] * 2
    two = [format_card(c) for c in full_deck(2)]
    assert [two[13 * k] for k in range(8)] == ["As", "Ah"] * 4


@pytest.mark.parametrize("suits", [0, 3, 5, "2", None])
def test_unknown_suit_modes_are_refused(suits: object) -> None:
    with pytest.raises(LayoutError) as info:
        mode_suits(suits)  # type: ignore[arg-type]
    assert info.value.code == "bad_suits"
