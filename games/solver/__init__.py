"""The full-information Spider solver: Python on top of ``games.engine``, its searches in a
native core (``games/solver/native``, see search.py).

    >>> from games.engine import deal_layout
    >>> from games.solver import solve
    >>> result = solve(deal_layout(suits=1, seed=1), max_nodes=200_000)
    >>> result.status, result.par  # doctest: +SKIP
    ('won', 97)

Every ``won`` line has been replayed through ``games.engine.replay`` before it is
returned. Nothing here imports Django or Celery (an import-linter contract enforces it).
"""

from .api import (
    DEFAULT_MAX_NODES,
    DEFAULT_MAX_SECONDS,
    SolverBug,
    SolveResult,
    exhaust,
    improve,
    polish,
    solve,
    verify,
)

__all__ = [
    "DEFAULT_MAX_NODES",
    "DEFAULT_MAX_SECONDS",
    "SolveResult",
    "SolverBug",
    "exhaust",
    "improve",
    "polish",
    "solve",
    "verify",
]
