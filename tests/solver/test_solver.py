"""The full-information solver: wins are real (they replay), budgets hold, runs repeat."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import games.solver.api as api
import games.solver.search as search
from games.engine import Action, Board, Layout, deal_layout, replay
from games.solver import SolverBug, solve
from tests.engine.test_properties import starts
from tests.solver.oracle import pick


def layout(suits: int, cols: dict[int, str], stock: str = "-", removed: str = "-") -> Layout:
    """A layout from the columns that hold cards: ``{0: "DOWN|UP"}`` or ``{0: "UP"}``."""
    text = "/".join(
        (cols[i] if "|" in cols[i] else "|" + cols[i]) if i in cols else "|" for i in range(10)
    )
    return Layout.parse(f"{suits} {text} {stock} {removed}")


def assert_wins(start: Layout, line: list[Action]) -> None:
    board = replay(start, line)
    assert board.won


# -- known-winnable deals ------------------------------------------------------------------
@pytest.mark.parametrize(("suits", "seed"), [(1, 1), (1, 2), (2, 1), (2, 3), (4, 19)])
def test_known_winnable_deals_are_won_and_replay(suits: int, seed: int) -> None:
    start = deal_layout(suits, seed)
    result = solve(start, max_nodes=400_000)
    assert result.status == "won"
    assert result.par == len(result.line) > 0
    assert result.nodes <= 400_000 + 200
    assert_wins(start, result.line)
    assert sum(a.kind == "deal" for a in result.line) == 5


# -- tiny hand-made layouts, solved exactly -----------------------------------------------
def test_one_move_win_is_found_exactly() -> None:
    start = layout(1, {0: "KsQsJsTs9s8s7s6s5s4s3s2s", 1: "As"})
    result = solve(start, max_nodes=1_000)
    assert result.status == "won"
    assert result.line == [Action.move(1, 0, 1)]
    assert result.par == 1


def test_four_move_win_is_found_at_its_shortest() -> None:
    # The Ace sits on a face-down Two: the Three goes home, the Ace steps aside into the
    # emptied column, the Two goes home, the Ace follows. No line is shorter than 4.
    start = layout(1, {0: "KsQsJsTs9s8s7s6s5s4s", 1: "3s", 2: "2s|As"})
    result = solve(start, max_nodes=10_000)
    assert result.status == "won"
    assert result.par == 4
    assert_wins(start, result.line)


def test_a_last_deal_that_needs_a_run_split_to_fill_the_columns_is_won() -> None:
    # Nine columns hold cards and one is empty; a deal needs all ten. No run has anything
    # under it, so moving a whole run never fills the gap: the Jack must leave its Queen.
    # Then the deal drops each stock card where the runs can be rebuilt.
    start = layout(
        2,
        {0: "KsQsJsTs9s8s7s", 1: "Kh", 2: "4s", 3: "5s", 4: "6s", 5: "8h", 6: "9h", 7: "Th"}
        | {8: "QhJh"},
        stock="2sAs3s6h5h7h4h3h2hAh",
        removed="shshsh",
    )
    result = solve(start, max_nodes=100_000)
    assert result.status == "won"
    assert_wins(start, result.line)


# -- unwinnable layouts are never won -----------------------------------------------------
def test_stuck_layout_with_buried_king_is_unknown() -> None:
    # Every column holds a card, nothing fits anywhere (Aces take nothing, Kings need an
    # empty column) and the stock is empty: no legal action at all.
    cols = {i: "As" for i in range(8)}
    cols[0] = "Ks|As"
    cols[8] = "Ks"
    cols[9] = "Ks"
    start = layout(1, cols)
    result = solve(start, max_nodes=10_000)
    assert result.status == "unknown"
    assert result.line == []
    assert result.par is None
    assert result.nodes <= 10


def test_cards_that_cannot_form_a_run_are_never_won() -> None:
    # King..Two of spades and the Ace of hearts: plenty of moves, never a same-suit run.
    start = layout(2, {0: "KsQsJsTs9s", 1: "8s7s|6s", 2: "5s4s", 3: "3s", 4: "2s", 5: "Ah"})
    result = solve(start, max_nodes=100_000)
    assert result.status == "unknown"
    assert result.line == []


def test_card_count_not_a_multiple_of_13_is_never_won() -> None:
    # 29 spades: some card can never leave the table in a run of 13. Moves and the deal
    # are available, so the search really runs before giving up.
    cols = {0: "KsQsJsTs9s8s7s6s5s4s", 1: "3s"}
    cols.update({i: "Ks" for i in range(2, 8)})
    cols.update({8: "Qs", 9: "Qs"})
    start = layout(1, cols, stock="Qs2sAsJsJsJsJsJsTsTs")
    result = solve(start, max_nodes=20_000)
    assert result.status == "unknown"
    assert result.nodes > 10


# -- budgets ------------------------------------------------------------------------------
@pytest.mark.parametrize("budget", [1, 500, 5_000])
def test_node_budget_stops_the_search(budget: int) -> None:
    result = solve(deal_layout(4, 12), max_nodes=budget)
    assert result.status == "unknown"
    assert result.nodes <= budget + 200  # one position's move list of slack
    assert not result.timed_out


def test_seconds_cap_is_a_safety_net() -> None:
    result = solve(deal_layout(4, 12), max_nodes=10**9, max_seconds=0.2)
    assert result.status == "unknown"
    assert result.timed_out
    assert result.seconds < 2


# -- determinism --------------------------------------------------------------------------
def test_same_input_same_line() -> None:
    start = deal_layout(2, 8)
    first = solve(start, max_nodes=600_000)
    second = solve(start, max_nodes=600_000)
    assert first.status == second.status == "won"
    assert first.line == second.line
    assert first.nodes == second.nodes


# -- a line that does not replay is never returned ----------------------------------------
def test_a_line_that_does_not_win_raises(monkeypatch: pytest.MonkeyPatch) -> None:
    real = api.to_actions
    monkeypatch.setattr(api, "to_actions", lambda moves: real(moves)[:-1])
    with pytest.raises(SolverBug):
        solve(deal_layout(1, 1), max_nodes=200_000)


# -- property: any won line replays to a win ------------------------------------------------
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(suits=st.sampled_from([1, 2, 4]), seed=st.integers(min_value=0, max_value=10_000))
def test_any_won_line_replays_to_a_win(suits: int, seed: int) -> None:
    start = deal_layout(suits, seed)
    result = solve(start, max_nodes=30_000)
    assert result.status in ("won", "unknown")
    if result.status == "won":
        assert_wins(start, result.line)
        assert result.par == len(result.line)
    else:
        assert result.line == []


# -- the score and the key -----------------------------------------------------------------
def reference_chaos(col: tuple[int, ...], d: int, w: search.Weights) -> int:
    """A column's share of the score, as the search's docstring defines it (the oracle the
    native core's score is held to)."""
    if not col:
        return -w.empty
    bury = w.bury if d else 0
    c = d * w.down
    for a, b in zip(col[d:], col[d + 1 :], strict=False):
        if b != a - 1:
            c += (w.soft if b & 15 == (a & 15) - 1 else w.hard) + bury
    run = 1
    while run < len(col) - d and col[-run - 1] == col[-run] + 1:
        run += 1
    return c - w.tail * (run - 1)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(start=starts(), picks=st.lists(st.integers(0, 2**16), max_size=60))
def test_the_score_is_the_documented_one(start: str, picks: list[int]) -> None:
    board = Board(Layout.parse(start))
    extra = (search.Weights(bury=3), search.Weights(hard=5, bury=1, tail=2))
    for choice in [*picks, 0]:
        node = search.root_node(board.cols, board.down, board.dealt, len(board.removed))
        for w in (*api.HEURISTICS, *extra):
            want = sum(reference_chaos(c, d, w) for c, d in zip(node.cols, node.down, strict=True))
            assert search.score(node, len(board.stock), w) == want - w.run * node.removed
        move = pick(board, choice)
        if move is None:
            break
        board.play(move)


# -- the duplicate key: column order counts while the stock lasts ---------------------------
def test_position_key_sees_column_order_only_while_cards_remain_in_the_stock() -> None:
    board = Board(deal_layout(4, 7))
    cols = [tuple(c) for c in board.cols]
    down = list(board.down)
    swapped_cols = [cols[1], cols[0], *cols[2:]]
    swapped_down = [down[1], down[0], *down[2:]]
    # Cards left in the stock: the next deal tells the two orders apart, so they differ.
    a = search.position_key(cols, down, 0, 50)
    assert a != search.position_key(swapped_cols, swapped_down, 0, 50)
    # Stock dealt: the same position whatever the column order.
    a = search.position_key(cols, down, 50, 50)
    assert a == search.position_key(swapped_cols, swapped_down, 50, 50)


def test_a_pass_bounded_below_the_shortest_line_finds_nothing() -> None:
    start = layout(1, {0: "KsQsJsTs9s8s7s6s5s4s", 1: "3s", 2: "2s|As"})  # 4 moves at best
    board = Board(start)
    for bound, wins in ((3, False), (4, True)):
        root = search.root_node(board.cols, board.down, board.dealt, 0)
        node = search.beam_pass(root, (), 16, search.Budget(10_000, 60.0), max_depth=bound)
        assert (node is not None) == wins
        if node is not None:
            assert len(node.line()) == 4


# -- the seconds cap follows the node budget ------------------------------------------------
def test_without_seconds_the_cap_is_derived_from_the_node_budget() -> None:
    # At the slowest rate the solver assumes, the whole budget (search and shortening)
    # fits under the cap: a busy machine spends nodes, it does not run out of seconds.
    for nodes in (2_000_000, 8_000_000):
        assert api.seconds_cap(2 * nodes) >= 2 * nodes / api.MIN_NODES_PER_SECOND
    result = solve(deal_layout(4, 12), max_nodes=5_000)
    assert result.status == "unknown" and not result.timed_out
    assert 5_000 <= result.nodes <= 5_200
