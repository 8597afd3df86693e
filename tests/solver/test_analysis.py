"""The post-game analysis (games/solver/analysis.py): the final line, the search for the
turning point (back from the end, trusting wins, doubting failures), and the solver's line
shown from there
(docs/rules.md#after-the-game-the-analysis)."""

from __future__ import annotations

import math
import random

import pytest

from games.engine import DEAL, Action, Board, Layout, deal_layout, replay
from games.solver import analysis as A
from games.solver import exhaust, model
from games.solver.analysis import AnalysisBudget, analyse, final_line
from games.solver.api import WIDTHS

M = Action.move
UNDO = Action("undo")
HINT = Action("hint")
# A staff layout with a trap: column 0 holds spades King to 2, column 1 the Ace. Putting the
# Ace on the 2 completes the run, which leaves the table at once: three cards (King, Queen,
# Jack) are left, they can never fill ten columns, so the last deal can never be made and
# the game is lost. The way through fills the five empty columns and deals first.
TRAP = "1 |KsQsJsTs9s8s7s6s5s4s3s2s/|As/|Ks/|Qs/|Js/|/|/|/|/| Ts9s8s7s6s5s4s3s2sAs -"
LOSE = M(1, 0, 1)
# A win of TRAP (the deal's "vetted line" in these tests): the first six actions by hand,
# the rest found by the solver and replayed.
WIN = [M(0, 5, 1), M(0, 6, 1), M(0, 7, 1), M(0, 8, 1), M(0, 9, 1), Action("deal")] + [
    M(*m)
    for m in [
        (1, 0, 1), (2, 0, 1), (3, 0, 1), (4, 0, 1), (0, 4, 5), (5, 4, 1), (6, 4, 1),
        (8, 6, 1), (9, 5, 1), (1, 6, 1), (3, 2, 1), (4, 2, 8), (6, 2, 3), (5, 7, 2),
        (7, 8, 4), (8, 9, 5), (9, 0, 6),
    ]
]  # fmt: skip
BUDGET = AnalysisBudget(probe_nodes=60_000, total_nodes=1_000_000, proof_nodes=20_000)


def layout() -> Layout:
    return Layout.parse(TRAP)


def assert_line_wins(result: dict) -> None:
    """The stored line replays to a win from the stored position, through the engine."""
    shown = result["solver_line"]
    board = replay(Layout.parse(shown["position"]), [Action.from_json(a) for a in shown["actions"]])
    assert board.won
    assert shown["length"] == len(shown["actions"])


def test_the_trap_is_what_the_tests_say() -> None:
    assert replay(layout(), WIN).won
    board = replay(layout(), [LOSE])
    assert board.runs_removed == 1 and sum(len(c) for c in board.cols) == 3
    proof = exhaust(board.layout(), max_nodes=20_000)
    assert proof.exhausted and not proof.won  # every reachable position searched: lost


def test_a_proof_shares_the_positions_later_proofs_found_lost() -> None:
    """The positions a proof searched (``lost_keys``) are all lost: a proof of an earlier
    position of the same game given them searches only the rest, and says the same."""
    before = replay(layout(), [LOSE])
    (cols, down, dealt), stock = model.start(before.layout())
    move = model.search_moves(cols, down, dealt, stock)[0]  # one the proofs follow
    later = replay(before.layout(), [Action("deal") if move == DEAL else M(*move)])
    alone = exhaust(before.layout(), max_nodes=20_000)
    first = exhaust(later.layout(), max_nodes=20_000, lost=set())
    assert first.exhausted and first.lost_keys
    shared = exhaust(before.layout(), max_nodes=20_000, lost=set(first.lost_keys))
    assert alone.exhausted and shared.exhausted and not shared.won
    assert shared.nodes < alone.nodes
    assert set(shared.lost_keys) > set(first.lost_keys)
    # Not proved (the budget ran out first): no keys given back.
    assert not exhaust(before.layout(), max_nodes=3, lost=set()).lost_keys


def test_final_line_takes_undone_actions_out_and_keeps_hints_out() -> None:
    log = [LOSE, UNDO, M(0, 5, 1), HINT, M(5, 0, 1), M(0, 5, 1), UNDO]
    line = final_line(layout(), log)
    assert [s.action for s in line.steps] == [M(0, 5, 1), M(5, 0, 1)]
    assert [s.seq for s in line.steps] == [3, 5]
    assert line.undone == 2 and line.log_length == 7 and not line.won
    assert line.steps[0].before == layout()  # the undone completion put the run back
    assert line.end == layout()


def test_a_game_lost_on_its_first_move() -> None:
    log = [LOSE, M(4, 3, 1), M(3, 2, 2)]
    result = analyse(final_line(layout(), log), budget=BUDGET, start_line=WIN).result
    turn = result["turning_point"]
    assert (turn["index"], turn["seq"], turn["step"]) == (0, 1, 0)
    assert turn["action"] == {"type": "move", "from": 1, "to": 0, "count": 1}
    assert turn["position"] == TRAP
    assert turn["after"]["exhaustive"] is True  # proved lost, not just "no win found"
    assert result["winnable_actions"] == 0 and result["winnable_at_end"] is False
    assert result["solver_line"]["position"] == TRAP
    # What it knows: won from action 0 (replayed), lost from action 1 (proved), none between.
    assert result["last_win"] == {"index": 0, "step": 0, "position": TRAP}
    assert result["proved_loss"]["index"] == 1 and result["proved_loss"]["step"] == 1
    assert result["unsettled"] == 0
    assert_line_wins(result)
    assert_search_trusts_its_wins(result)


def test_the_turning_point_of_a_scripted_losing_move() -> None:
    # A column filled and emptied again (still winnable), then the losing move at index 2.
    log = [M(0, 5, 1), M(5, 0, 1), LOSE, M(4, 3, 1)]
    result = analyse(final_line(layout(), log), budget=BUDGET, start_line=WIN).result
    turn = result["turning_point"]
    assert (turn["index"], turn["seq"]) == (2, 3)
    assert turn["action"] == LOSE.to_json()
    assert turn["after"]["exhaustive"] is True
    assert result["winnable_actions"] == 2
    assert_line_wins(result)


def test_undone_moves_are_never_the_turning_point() -> None:
    # The losing move is played and taken back twice; the one that stays is the turning point.
    log = [LOSE, UNDO, M(0, 5, 1), UNDO, LOSE, UNDO, HINT, M(0, 5, 1), M(5, 0, 1), LOSE]
    result = analyse(final_line(layout(), log), budget=BUDGET, start_line=WIN).result
    turn = result["turning_point"]
    assert (turn["index"], turn["seq"], turn["step"]) == (2, 10, 9)
    assert result["undone"] == 3 and result["line_length"] == 3 and result["log_length"] == 10
    assert_line_wins(result)


def test_a_won_game_is_measured_against_the_par() -> None:
    result = analyse(final_line(layout(), WIN), budget=BUDGET, par=20).result
    assert result["outcome"] == "won" and result["turning_point"] is None
    assert (result["length"], result["par"], result["over_par"]) == (len(WIN), 20, len(WIN) - 20)
    assert result["winnable_at_end"] is True and result["nodes"] == 0
    assert result["last_win"]["index"] == len(WIN) and result["last_win"]["step"] == len(WIN)
    assert result["proved_loss"] is None and result["unsettled"] == 0


def test_given_up_while_still_winnable() -> None:
    result = analyse(final_line(layout(), WIN[:8]), budget=BUDGET, start_line=WIN).result
    assert result["turning_point"] is None and result["winnable_at_end"] is True
    assert result["winnable_actions"] == 8
    assert result["solver_line"]["from_index"] == 8
    assert_line_wins(result)


def test_the_vetted_line_is_followed_without_a_search() -> None:
    # Every action but the last follows the deal's line: each position's win is the rest of
    # that line (a replay), so only the end is searched.
    log = WIN[:6] + [M(9, 8, 1)]  # after the deal, the Ace onto a 2: still winnable
    result = analyse(final_line(layout(), log), budget=BUDGET, start_line=WIN).result
    inferred = {p["index"] for p in result["probes"] if p["inferred"]}
    assert 0 in inferred and 6 in inferred


def test_a_win_is_carried_past_the_players_own_moves_without_a_search() -> None:
    # The player puts the 2 into another empty column than the vetted line does: the vetted
    # line, its moves taken from where the cards are now, wins from there with no search
    # (games/solver/transplant.py), where a search would have cost positions.
    log = [M(0, 6, 1)]
    tiny = AnalysisBudget(probe_nodes=50, total_nodes=1000, proof_nodes=0)
    result = analyse(final_line(layout(), log), budget=tiny, start_line=WIN).result
    assert result["turning_point"] is None and result["winnable_actions"] == 1
    end = next(p for p in result["probes"] if p["index"] == 1)
    assert end["inferred"] and end["nodes"] == 0
    assert_line_wins(result)
    # Nothing is carried onto the lost position after the losing move.
    lost = analyse(final_line(layout(), [*log, M(6, 0, 1), LOSE]), budget=tiny, start_line=WIN)
    assert lost.result["turning_point"]["index"] == 2
    assert_line_wins(lost.result)


def test_no_win_from_the_start_says_so() -> None:
    result = analyse(final_line(layout(), [LOSE]), budget=AnalysisBudget(50, 1000, 0)).result
    assert result["start_winnable"] is False and result["turning_point"] is None
    assert result["start"]["exhaustive"] is False  # a budget ran out: nothing proved
    assert result["budget"]["probe_nodes"] <= 50
    # Nothing known either way: both positions of the line stay unsettled.
    assert result["last_win"] is None and result["proved_loss"] is None
    assert result["unsettled"] == 2


def random_line(seed: int, length: int) -> list[Action]:
    """Random legal play on a 1-suit deal that never meets a table twice, with an undo now
    and then (so every position of its final line is a different table)."""
    rng = random.Random(seed)
    board = Board(deal_layout(1, seed))
    seen = {board.key()}
    log: list[Action] = []
    while len(log) < length:
        if log and log[-1] != UNDO and rng.random() < 0.1 and board.can_undo:
            board.undo()
            log.append(UNDO)
            seen.add(board.key())  # an undo may leave a card face up: a new table
            continue
        moves = board.legal_actions()
        rng.shuffle(moves)
        for move in moves:
            board.play(move)
            if board.key() not in seen:
                break
            board.pop()
        else:
            break
        seen.add(board.key())
        log.append(Action("deal") if move == DEAL else M(*move))
    return log


class FakeSolver:
    """A stand-in solver over a line's positions: position ``i`` is won when a search of it
    is given at least ``need[i]`` positions (None: never; lost), and ``searched`` records
    the index of every search, rechecks included. Proofs settle nothing, unless installed
    with ``proves``: then a proof settles a lost position (None) as lost."""

    def __init__(self, line: A.FinalLine, need: list[int | None]) -> None:
        self.index = {line.position(i).notation(): i for i in range(len(line.steps) + 1)}
        self.need = need
        self.searched: list[int] = []
        self.widths: list[tuple[int, ...]] = []

    def solve(self, layout: Layout, *, max_nodes: int, widths=WIDTHS, **_: object) -> object:
        i = self.index[layout.notation()]
        self.searched.append(i)
        self.widths.append(widths)
        need = self.need[i]
        won = need is not None and need <= max_nodes
        nodes = need if won else max_nodes
        fields = {"won": won, "nodes": nodes, "exhausted": False, "line": [], "widths": [400]}
        return type("R", (), fields)

    def install(self, monkeypatch, *, proves: bool = False) -> None:
        def exhaust(layout: Layout, max_nodes: int, **_: object) -> object:
            settled = proves and self.need[self.index[layout.notation()]] is None
            fields = {"won": False, "nodes": 10, "exhausted": settled, "line": [], "lost_keys": []}
            return type("R", (), fields)

        monkeypatch.setattr(A, "solve", self.solve)
        monkeypatch.setattr(A, "exhaust", exhaust)
        monkeypatch.setattr(A, "polish", lambda layout, line, max_nodes: (line, 0))
        monkeypatch.setattr(A, "verify", lambda layout, line: None)


def long_line() -> A.FinalLine:
    line = final_line(deal_layout(1, 5), random_line(5, 90))
    assert len(line.steps) > 50
    return line


@pytest.mark.parametrize("where", [0.0, 0.02, 0.3, 0.5, 0.8, 0.97, 0.99, 1.0])
def test_the_search_finds_a_known_turning_point(monkeypatch, where: float) -> None:
    """With a stand-in solver that wins exactly the positions up to ``turn`` and proves the
    others lost, the search finds that turning point in at most two searches per halving of
    the line (back from the end, then between the win and the failure after it) and one
    more of the position after it, and searches no position twice: once the position after
    the turning point is proved lost, nothing after it can be won."""
    line = long_line()
    n = len(line.steps)
    turn = round(where * n) if where < 1 else n
    if where == 0.99:
        turn = n - 1  # lost on the last action
    solver = FakeSolver(line, [10 if i <= turn else None for i in range(n + 1)])
    solver.install(monkeypatch, proves=True)
    result = analyse(line, budget=AnalysisBudget(10, 10_000, 10)).result
    if turn == n:
        assert result["turning_point"] is None and result["winnable_at_end"]
    else:
        assert result["turning_point"]["index"] == turn
        assert result["turning_point"]["seq"] == line.steps[turn].seq
        assert result["winnable_actions"] == turn
        assert result["turning_point"]["after"]["exhaustive"]
        assert result["proved_loss"]["index"] == turn + 1 and result["unsettled"] == 0
        assert_search_trusts_its_wins(result)
    assert len(set(solver.searched)) <= 2 * math.ceil(math.log2(n + 1)) + 1
    assert len(solver.searched) == len(set(solver.searched))


def test_a_turning_point_near_the_end_costs_few_searches(monkeypatch) -> None:
    line = long_line()
    n = len(line.steps)
    solver = FakeSolver(line, [10 if i <= n - 2 else None for i in range(n + 1)])
    solver.install(monkeypatch, proves=True)
    result = analyse(line, budget=AnalysisBudget(10, 10_000, 10)).result
    assert result["turning_point"]["index"] == n - 2
    # the start, the end, 4 back (a win), then n - 2 and n - 1 between, n - 1 proved lost
    assert solver.searched == [0, n, n - 4, n - 2, n - 1]


def test_what_the_budget_leaves_goes_after_the_turning_point(monkeypatch) -> None:
    """Where nothing after the turning point can be proved lost, the rest of the budget is
    spent searching the positions after it, and only those; the turning point stays the
    last won position and the analysis within its budget."""
    line = long_line()
    n = len(line.steps)
    turn = n // 2
    solver = FakeSolver(line, [10 if i <= turn else None for i in range(n + 1)])
    solver.install(monkeypatch)
    total = 10_000
    result = analyse(line, budget=AnalysisBudget(100, total, 10)).result
    assert result["last_win"]["index"] == turn
    # Nothing after it proved lost: no turning point is named, the rest stays open.
    assert result["turning_point"] is None and result["proved_loss"] is None
    assert result["unsettled"] == n - turn
    assert total - 200 <= result["nodes"] <= total  # all of it, but for the line shown
    first_after = solver.searched.index(turn + 1)
    assert all(i > turn for i in solver.searched[first_after:])
    assert len(solver.searched) > len(set(solver.searched))  # searched again, in rounds
    assert_search_trusts_its_wins(result)


def test_a_middle_search_too_small_never_moves_the_turning_point_left(monkeypatch) -> None:
    """Positions in the middle of the line need more than one search's budget (a long game
    still to play), those after them not: the turning point is the last won position, not
    one left of the middle, whatever the search probes there."""
    line = long_line()
    n = len(line.steps)
    turn = n - 10
    need: list[int | None] = [10 if i <= turn else None for i in range(n + 1)]
    for i in range(n // 4, 3 * n // 4):
        need[i] = 10**9  # winnable, but no search here is given enough
    solver = FakeSolver(line, need)
    solver.install(monkeypatch)
    result = analyse(line, budget=AnalysisBudget(100, 10_000, 10)).result
    assert result["last_win"]["index"] == turn
    assert_search_trusts_its_wins(result)


def test_the_positions_after_the_turning_point_are_searched_again(monkeypatch) -> None:
    """The last winnable positions need twice a search's budget: searched again, each
    given as much again as it has had, they are found, and each search carries on from
    the width the last one reached."""
    line = long_line()
    n = len(line.steps)
    turn = n - 6
    probe = 100
    need: list[int | None] = [10 if i <= turn - 3 else None for i in range(n + 1)]
    for i in range(turn - 2, turn + 1):
        need[i] = 2 * probe
    solver = FakeSolver(line, need)
    solver.install(monkeypatch, proves=True)
    result = analyse(line, budget=AnalysisBudget(probe, 10_000, 10)).result
    assert result["turning_point"]["index"] == turn
    rechecks = [w for i, w in zip(solver.searched, solver.widths, strict=True) if w != WIDTHS]
    assert rechecks and all(w[0] == 400 for w in rechecks)  # from the width reached on
    assert_search_trusts_its_wins(result)


def test_wins_far_after_the_boundary_are_found_in_growing_rounds(monkeypatch) -> None:
    """Everything from the middle of the line to near its end is winnable, but only with
    three times a search's budget, and no proof settles anything: the rounds after the
    boundary, the furthest first, reach the true turning point (giving all that is left
    to the position after the boundary would crawl one action at a time), while every
    search spends all it is given, and the analysis stays within its budget."""
    line = long_line()
    n = len(line.steps)
    turn = n - 6
    probe = 100
    total = 12_000
    need: list[int | None] = [
        10 if i <= n // 2 else 3 * probe if i <= turn else None for i in range(n + 1)
    ]
    solver = FakeSolver(line, need)
    solver.install(monkeypatch)

    def spending(layout, *, max_nodes, **kw):
        found = solver.solve(layout, max_nodes=max_nodes, **kw)
        found.nodes = max_nodes
        return found

    monkeypatch.setattr(A, "solve", spending)
    spends_all = {"won": False, "exhausted": False, "line": [], "lost_keys": []}
    monkeypatch.setattr(  # a proof that spends all it is given (and settles nothing)
        A,
        "exhaust",
        lambda layout, max_nodes, **_: type("R", (), spends_all | {"nodes": max_nodes}),
    )
    result = analyse(line, budget=AnalysisBudget(probe, total, 100)).result
    assert result["last_win"]["index"] == turn
    assert result["nodes"] <= total
    assert_search_trusts_its_wins(result)


@pytest.mark.parametrize("seed", range(8))
def test_false_negatives_anywhere_never_go_left_of_a_win(monkeypatch, seed: int) -> None:
    """Winnable positions that no search settles, at random: the turning point is always a
    won position with no won one after it, and never past the true one."""
    rng = random.Random(seed)
    line = long_line()
    n = len(line.steps)
    turn = rng.randrange(1, n)
    need: list[int | None] = [
        (10 if rng.random() < 0.6 else 10**9) if i <= turn else None for i in range(n + 1)
    ]
    need[0] = 10
    solver = FakeSolver(line, need)
    solver.install(monkeypatch)
    result = analyse(line, budget=AnalysisBudget(100, 10_000, 10)).result
    assert result["last_win"]["index"] <= turn
    assert_search_trusts_its_wins(result)


def assert_search_trusts_its_wins(result: dict) -> None:
    """The last win is the last position a win was found from; a loss is claimed only where
    a search proved it, after the last win; a turning point only where the two meet."""
    won = [p["index"] for p in result["probes"] if p["won"]]
    index = result["last_win"]["index"]
    assert index == max(won)
    assert not [p for p in result["probes"] if p["index"] == index + 1 and p["won"]]
    proved = [p["index"] for p in result["probes"] if p["exhaustive"] and p["index"] > index]
    loss = result["proved_loss"]
    assert (loss and loss["index"]) == (min(proved) if proved else None)
    turn = result["turning_point"]
    assert (turn is not None) == (loss is not None and loss["index"] == index + 1)
    if turn is not None:
        assert turn["index"] == index and turn["after"]["index"] == index + 1
        assert turn["after"]["exhaustive"]


def test_the_whole_analysis_stays_in_its_budget() -> None:
    line = final_line(deal_layout(1, 3), random_line(3, 60))
    budget = AnalysisBudget(probe_nodes=20_000, total_nodes=60_000, proof_nodes=5_000)
    analysis = analyse(line, budget=budget)
    # Each search may pass its budget by one position's move list (a few dozen).
    assert analysis.nodes <= budget.total_nodes + 500
    assert analysis.result["budget"]["probe_nodes"] < 20_000  # shared out over the searches
