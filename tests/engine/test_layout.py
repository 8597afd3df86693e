"""Layouts: the one-line notation, the staff JSON shape, and validation with clear errors."""

from __future__ import annotations

import re

import pytest

from games.engine import Board, Layout, LayoutError, deal_layout, parse_card
from tests.engine.conftest import board_of, position

RUN_S = "KsQsJsTs9s8s7s6s5s4s3s2sAs"


@pytest.mark.parametrize("suits", [1, 2, 4])
@pytest.mark.parametrize("seed", [0, 5, 2**64 - 1])
def test_notation_round_trips_for_deals(suits: int, seed: int) -> None:
    layout = deal_layout(suits, seed)
    text = layout.notation()
    assert Layout.parse(text) == layout
    assert Layout.parse(text).notation() == text


@pytest.mark.parametrize(
    "text",
    [
        position(1, {}),
        position(1, {0: "As"}),
        position(2, {0: "9h8s|KsQs", 9: "5h"}, stock="AhAs2h2s3h3s4h4s5h5s", removed="s"),
        position(4, {3: "Kd|Qc"}, removed="hdc"),
        position(1, [f"|{r}s" for r in "A23456789T"]),
    ],
)
def test_notation_round_trips_for_hand_made_layouts(text: str) -> None:
    assert Layout.parse(text).notation() == text


def test_notation_fields() -> None:
    layout = Layout.parse(
        position(2, {0: "9h8s|KsQs", 4: "Jh"}, stock="Ah" * 4 + "As" * 4 + "2s2h")
    )
    assert layout.suits == 2
    assert layout.columns[0] == (
        (parse_card("9h"), parse_card("8s")),
        (parse_card("Ks"), parse_card("Qs")),
    )
    assert layout.columns[1] == ((), ())
    assert layout.columns[4] == ((), (parse_card("Jh"),))
    assert list(layout.stock[:5]) == [parse_card("Ah")] * 4 + [parse_card("As")]
    assert layout.removed == ()
    assert layout.total_cards() == 5 + 10


def test_extra_whitespace_between_fields_is_accepted() -> None:
    text = position(1, {0: "As"})
    assert Layout.parse("  " + text.replace(" ", "   ") + "\n").notation() == text


def test_removed_runs_count_towards_the_cards() -> None:
    layout = Layout.parse(position(4, {0: "As"}, removed="sh"))
    assert layout.removed == (0, 1)
    assert layout.total_cards() == 1 + 26


def test_board_notation_is_the_current_position() -> None:
    stock = "As2s3s4s6s7s8s9sJsQs"
    board = board_of(1, {0: "5s|9s", 1: "Ts"} | {i: "Ks" for i in range(2, 10)}, stock=stock)
    board.play((0, 1, 1))
    # 9s joined Ts; 5s turned face up; the stock is what is left to deal.
    assert board.notation() == position(1, ["5s", "Ts9s"] + ["Ks"] * 8, stock=stock)
    board.play((-1, -1, 0))
    assert board.notation() == position(1, ["5sAs", "Ts9s2s"] + [f"Ks{r}s" for r in "346789JQ"])
    assert Board(Layout.parse(board.notation())).key()[1:] == board.key()[1:]


def test_json_round_trips() -> None:
    layout = deal_layout(4, 3)
    data = layout.to_json()
    assert len(data["columns"]) == 10
    assert data["columns"][0] == {"down": ["8s", "Ac", "Td", "As", "Kd"], "up": ["2c"]}
    assert data["stock"][:2] == ["2s", "8h"]
    assert Layout.from_json(4, data) == layout


def test_json_column_keys_default_to_empty() -> None:
    data = {"columns": [{"up": ["Ks"]}] + [{}] * 9}
    assert Layout.from_json(1, data).notation() == position(1, {0: "Ks"})


def test_as_many_copies_as_the_mode_has_are_accepted() -> None:
    assert Layout.parse(position(1, ["As"] * 8)).total_cards() == 8
    assert Layout.parse(position(2, ["Ah"] * 4)).total_cards() == 4
    assert Layout.parse(position(4, ["Kd"] * 2)).total_cards() == 2


def test_partial_layouts_are_playable() -> None:
    board = board_of(2, {0: "Kh", 1: "Qh"})
    assert board.layout().total_cards() == 2
    assert not board.won


NINE = " ".join(["1", "/".join(["|As"] * 9), "-", "-"])
ELEVEN = " ".join(["1", "/".join(["|"] * 11), "-", "-"])

BAD_LAYOUTS = [
    # (notation, code, words the message must contain)
    (NINE, "bad_layout", "exactly 10 columns, not 9"),
    (ELEVEN, "bad_layout", "exactly 10 columns, not 11"),
    (position(1, {0: "As"}, stock="As" * 7), "bad_layout", "multiple of 10 cards long, not 7"),
    (position(1, {0: "As"}, stock="As" * 15), "bad_layout", "not 15"),
    (position(1, ["As"] * 9), "bad_layout", "A♠ appears 9 times; a 1-suit game has 8"),
    (position(1, ["As"] * 8, stock="As" * 10), "bad_layout", "A♠ appears 18 times"),
    (position(1, {0: "As"}, removed="ssssssss"), "bad_layout", "A♠ appears 9 times"),
    (position(2, ["Ah"] * 5), "bad_layout", "A♥ appears 5 times; a 2-suit game has 4"),
    (position(4, ["Kd"] * 3), "bad_layout", "K♦ appears 3 times; a 4-suit game has 2"),
    (position(1, {0: "Ah"}), "bad_layout", "A♥ appears 1 times; a 1-suit game has 0"),
    (position(2, {0: "Kc"}), "bad_layout", "a 2-suit game has 0"),
    (position(1, {}, removed="h"), "bad_layout", "suit 1 is not in a 1-suit game"),
    (position(1, {0: "As|"}), "bad_layout", "column 1 has face-down cards but no face-up card"),
    (position(4, {}, removed="x"), "bad_layout", "'x' is not a suit letter"),
    ("1 " + "/".join(["|"] * 10) + " -", "bad_layout", "notation is"),
    ("1 " + "/".join(["|"] * 10) + " - - extra", "bad_layout", "notation is"),
    ("3 " + "/".join(["|"] * 10) + " - -", "bad_suits", "not '3'"),
    ("1 " + "/".join(["As"] + ["|"] * 9) + " - -", "bad_layout", "needs a '|'"),
    (position(1, {0: "A"}), "bad_card", "'A' is not a list"),
    (position(1, {0: "Xs"}), "bad_card", "'Xs' is not a card"),
    (position(1, {0: "As"}, stock="Zz" * 10), "bad_card", "'Zz' is not a card"),
]


@pytest.mark.parametrize(("text", "code", "words"), BAD_LAYOUTS)
def test_bad_layouts_are_refused_with_a_clear_error(text: str, code: str, words: str) -> None:
    with pytest.raises(LayoutError) as info:
        Layout.parse(text)
    assert info.value.code == code
    assert words in info.value.detail
    assert str(info.value).startswith(f"{code}: ")


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ([], "must be an object with a 'columns' list"),
        ({"columns": "Ks"}, "must be an object with a 'columns' list"),
        ({"columns": [{"up": ["Ks"]}] * 9}, "exactly 10 columns, not 9"),
        ({"columns": ["Ks"] + [{}] * 9}, "columns[0] must be an object"),
        ({"columns": [{"up": "Ks"}] + [{}] * 9}, "columns[0].up must be a list"),
        ({"columns": [{}] * 10, "stock": "AsAs"}, "stock must be a list"),
        ({"columns": [{}] * 10, "stock": ["As"] * 3}, "multiple of 10"),
    ],
)
def test_bad_json_layouts_are_refused(data: object, words: str) -> None:
    with pytest.raises(LayoutError) as info:
        Layout.from_json(1, data)
    assert info.value.code == "bad_layout"
    assert words in info.value.detail


def test_no_layout_refusal_counts_columns_from_0() -> None:
    """Sentences name the table's columns 1-10 (docs/rules.md#how-sentences-name-things); a
    place in the JSON body is named by its path, columns[0] being the body's first entry."""
    details = []
    for text, _code, _words in BAD_LAYOUTS:
        with pytest.raises(LayoutError) as info:
            Layout.parse(text)
        details.append(info.value.detail)
    for data in ({"columns": ["Ks"] + [{}] * 9}, {"columns": [{"up": "Ks"}] + [{}] * 9}):
        with pytest.raises(LayoutError) as info:
            Layout.from_json(1, data)
        details.append(info.value.detail)
    for detail in details:
        assert all(1 <= int(n) <= 10 for n in re.findall(r"\bcolumns? (\d+)", detail)), detail


def test_bad_card_in_json_is_refused() -> None:
    with pytest.raises(LayoutError) as info:
        Layout.from_json(1, {"columns": [{"up": ["S1"]}] + [{}] * 9})
    assert info.value.code == "bad_card"


def test_json_layout_is_validated_against_its_suit_mode() -> None:
    data = {"columns": [{"up": ["Kh"]}] + [{}] * 9}
    assert Layout.from_json(2, data).total_cards() == 1
    with pytest.raises(LayoutError) as info:
        Layout.from_json(1, data)
    assert "K♥ appears 1 times; a 1-suit game has 0" in info.value.detail


def test_a_full_deck_worth_of_cards_is_accepted_but_not_one_more() -> None:
    # 1 suit: eight of each spade. Seven complete runs removed + one run on the table = 104.
    text = position(1, {0: RUN_S[:-2], 1: "As"}, removed="s" * 7)
    assert Layout.parse(text).total_cards() == 104
    with pytest.raises(LayoutError):
        Layout.parse(position(1, {0: RUN_S[:-2], 1: "AsAs"}, removed="s" * 7))
