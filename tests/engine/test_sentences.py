"""Every human sentence of the engine and the hints names columns 1-10 and cards as people
write them (docs/rules.md#how-sentences-name-things); the API's numbers stay 0-based.

Over every refusal code (the cases of test_errors plus a sweep of every action on several
positions) and every hint reason met in played games: no "column 0", no column past 10, no
engine code such as ``Ts``.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from functools import partial

import pytest

from games.engine import DEAL, Board, EngineError, deal_layout, say_card, say_column
from games.engine.cards import make_card
from games.solver.hint import VisiblePosition, board_hints, no_hint_reason
from tests.engine.conftest import refused
from tests.engine.test_errors import CASES, DESIGN_CODES, mid_game, won

ENGINE_CODE = re.compile(r"\b[A2-9TJQK][shdc]\b")
COLUMN = re.compile(r"\bcolumns? (\d+)")


def check_sentence(text: str) -> None:
    assert text, "an empty sentence"
    assert not ENGINE_CODE.search(text), f"engine code in {text!r}"
    for n in COLUMN.findall(text):
        assert 1 <= int(n) <= 10, f"column {n} in {text!r}"


def test_the_helpers() -> None:
    assert [say_column(i) for i in (0, 9)] == ["column 1", "column 10"]
    assert say_card(make_card(0, 10)) == "10♠"
    assert say_card(make_card(1, 12)) == "Q♥"
    assert say_card(make_card(2, 1)) == "A♦"
    assert say_card(make_card(3, 13)) == "K♣"


@pytest.mark.parametrize(("code", "start", "action"), CASES, ids=[c[0] for c in CASES])
def test_each_refusal_sentence(
    code: str, start: Callable[[], Board], action: Callable[[Board], object]
) -> None:
    check_sentence(refused(lambda: action(start())).detail)


def test_the_sentences_name_the_columns_people_see() -> None:
    board = mid_game()  # column 7 (index 6) holds 2c, column 10 (index 9) Ah
    assert refused(lambda: board.play((6, 9, 1))).detail.startswith(
        "2♣ cannot go on A♥ in column 10: "
    )
    assert "column 7 holds only 1 cards" in refused(lambda: board.play((6, 7, 2))).detail
    assert "column 1 are not one suit" in refused(lambda: board.play((0, 3, 3))).detail
    assert "from column 6" in refused(lambda: board.resolve_move(5)).detail


def _sweep(board: Board) -> dict[str, set[str]]:
    """Every refusal of every action tried on ``board``: code -> sentences."""
    found: dict[str, set[str]] = {}
    tries: list[Callable[[], object]] = [board.check_deal, lambda: board.copy().undo()]
    for src in range(-1, 11):
        tries.append(partial(board.resolve_move, src))
        for dst in range(-1, 11):
            tries.append(partial(board.resolve_move, src, dst))
            for count in range(0, 14):
                tries.append(partial(board.check_move, src, dst, count))
    for attempt in tries:
        try:
            attempt()
        except EngineError as error:
            found.setdefault(error.code, set()).add(error.detail)
    return found


def _played(suits: int, seed: int, steps: int) -> list[Board]:
    rng = random.Random(seed)
    board = Board(deal_layout(suits=suits, seed=seed))
    seen = [board.copy()]
    for _ in range(steps):
        actions = board.legal_actions()
        if not actions:
            break
        moves = [a for a in actions if a != DEAL]
        board.play(rng.choice(moves) if moves and rng.random() < 0.9 else rng.choice(actions))
        seen.append(board.copy())
    return seen


def test_no_refusal_names_a_column_0_or_an_engine_code() -> None:
    found: dict[str, set[str]] = {}
    boards = [mid_game(), won(), *_played(1, 3, 40)[::8], *_played(4, 5, 40)[::8]]
    for board in boards:
        for code, texts in _sweep(board).items():
            found.setdefault(code, set()).update(texts)
    for start, action in [(c[1], c[2]) for c in CASES]:
        error = refused(lambda: action(start()))  # noqa: B023 - called at once
        found.setdefault(error.code, set()).add(error.detail)
    assert set(found) >= DESIGN_CODES  # every refusal code was met
    for texts in found.values():
        for text in texts:
            check_sentence(text)


def test_no_hint_reason_names_a_column_0_or_an_engine_code() -> None:
    reasons: set[str] = set()
    for suits, seed in [(1, 11), (2, 12), (4, 13)]:
        for board in _played(suits, seed, 60)[::6]:
            found = board_hints(board)
            reasons.update(h.reason for h in found)
            reasons.add(no_hint_reason(VisiblePosition.from_board(board)))
    assert len(reasons) >= 5
    for text in reasons:
        check_sentence(text)
