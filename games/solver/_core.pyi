"""Types of the solver's native core (games/solver/native, compiled by the install)."""

from collections.abc import Iterable, Sequence

Cards = Sequence[int]
Move = tuple[int, int, int]
Turned = list[tuple[int, int]]

def step(
    cols: Sequence[Cards],
    down: Sequence[int],
    dealt: int,
    stock: Cards,
    move: Sequence[int],
    *,
    deal_over_gap: bool = False,
) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...], int, Turned, int] | None: ...
def moves(
    cols: Sequence[Cards],
    down: Sequence[int],
    dealt: int,
    stock: Cards,
    *,
    deal_over_gap: bool = False,
) -> list[Move]: ...
def key(cols: Sequence[Cards], down: Sequence[int], dealt: int, stock_len: int) -> int: ...
def won(cols: Sequence[Cards], down: Sequence[int], dealt: int, stock: Cards) -> bool: ...
def score(
    cols: Sequence[Cards],
    down: Sequence[int],
    dealt: int,
    removed: int,
    stock_len: int,
    weights: Sequence[int],
) -> int: ...
def beam_pass(
    cols: Sequence[Cards],
    down: Sequence[int],
    dealt: int,
    removed: int,
    stock: Cards,
    width: int,
    weights: Sequence[int],
    max_nodes: int,
    nodes: int,
    seconds: float,
    *,
    max_depth: int = -1,
    progress: bool = True,
    targets: dict[int, int] | None = None,
    best_saving: int = 0,
    goals: Sequence[int] | None = None,
    deal_over_gap: bool = False,
    lost: Iterable[int] | None = None,
    seen: list[int] | None = None,
) -> tuple[
    str,
    list[Move],
    tuple[tuple[tuple[int, ...], ...], tuple[int, ...], int, int] | None,
    int,
    int,
    bool,
    int,
    tuple[int, int, list[Move]] | None,
]: ...
def rollouts(
    cols: Sequence[Cards],
    down: Sequence[int],
    stock_left: int,
    suits: int,
    removed_suits: Sequence[int],
    candidates: Sequence[Sequence[int]],
    worlds: int,
    playout_moves: int,
    max_steps: int,
    max_seconds: float,
    *,
    deal_over_gap: bool = False,
) -> tuple[int, int, bool, list[tuple[int, int, int]]]: ...
