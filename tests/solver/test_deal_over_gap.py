"""The solver and the hints under the table rule deal_over_gap (docs/rules.md#deal-over-a-gap):
they deal over the gaps where the engine allows it, and only there."""

from __future__ import annotations

from games.engine import Board, Layout
from games.solver import exhaust, improve, polish, solve
from games.solver.hint import NOTHING_UNDO, VisiblePosition, board_hints, no_hint_reason
from tests.engine.conftest import position


def endgame(*, gap: bool) -> Layout:
    """Seven runs gone, K Q J of spades on the table, T down to A in the stock: won only by
    a deal over the nine empty columns, then nine moves."""
    text = position(1, {0: "KsQsJs"}, stock="Ts9s8s7s6s5s4s3s2sAs", removed="sssssss")
    return Layout.parse(text).under_rules(deal_over_gap=gap)


def test_the_solver_wins_a_game_only_the_rule_can_win() -> None:
    won = solve(endgame(gap=True), max_nodes=50_000)
    assert won.won and won.par == 10
    assert won.line[0].kind == "deal"
    # Under the standard rules the deal never comes: every position is searched, no win.
    lost = exhaust(endgame(gap=False), max_nodes=50_000)
    assert not lost.won and lost.exhausted
    assert not solve(endgame(gap=False), max_nodes=50_000).won


def test_a_line_won_over_a_gap_is_polished_and_improved_under_the_rule() -> None:
    line = solve(endgame(gap=True), max_nodes=50_000).line
    shorter, _ = polish(endgame(gap=True), line, max_nodes=20_000)
    assert len(shorter) == 10
    assert improve(endgame(gap=True), line, max_nodes=20_000).par == 10


def test_the_deal_over_a_gap_is_the_hint_where_the_standard_rules_give_up() -> None:
    standard = Board(endgame(gap=False))
    assert board_hints(standard) == []
    visible = VisiblePosition.from_board(standard)
    assert no_hint_reason(visible, last_move=None) == NOTHING_UNDO
    assert no_hint_reason(
        VisiblePosition.from_board(Board(endgame(gap=True))), deal_over_gap=True
    ) == ("no useful move: deal")
    over = Board(endgame(gap=True))
    hints = board_hints(over)
    assert [h.action for h in hints] == [{"type": "deal"}]
    assert hints[0].reason == "deals: no useful move left"
    # Followed, the hints win it.
    while not over.won:
        best = board_hints(over)[0]
        over.play(best.move)
    assert over.runs_removed == 8


def test_a_gap_the_rule_cannot_deal_over_is_filled_as_before() -> None:
    """With ten cards or more on the table a gap blocks the deal under the rule too: the hint
    fills it, as under the standard rules."""
    cols = {0: "KhQsJh", 1: "9s", 2: "8h", 3: "7s", 4: "6h", 5: "5s", 6: "4h", 7: "3s"}
    text = position(2, cols, stock="Th9h8s7h6s5h4s3h2sAh")
    for gap in (False, True):
        board = Board(Layout.parse(text).under_rules(deal_over_gap=gap))
        assert not board.can_deal()
        reasons = {h.reason for h in board_hints(board)}
        assert reasons and all("so you can deal" in r for r in reasons)
