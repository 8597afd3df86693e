"""One place for each rule: no module of the service redefines the engine's constants or
carries its own move generator or card notation (they are imported from games.engine)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("games", "leaderboard", "accounts", "spider_api", "base")

# name -> the one module that defines it
CONSTANTS = {
    "COLUMNS": "games/engine/layout.py",
    "DEAL_SIZE": "games/engine/layout.py",
    "RUN": None,  # the old solver name of RUN_LENGTH: defined nowhere now
    "RUN_LENGTH": "games/engine/cards.py",
    "SUIT_MODES": "games/engine/cards.py",
    "SUITS": "games/engine/cards.py",
    "SUIT_NAMES": "games/engine/cards.py",
    "RANKS": "games/engine/cards.py",
    "DECK_SIZE": "games/engine/cards.py",
    "DEAL": "games/engine/actions.py",
    "GAP_DEAL_CARDS": "games/engine/board.py",
}
FUNCTIONS = {
    "format_card": "games/engine/cards.py",
    "parse_card": "games/engine/cards.py",
    "legal_moves": "games/engine/moves.py",
    "pruned_moves": "games/engine/moves.py",
    "search_moves": "games/solver/model.py",  # the moves a search tries, and the deal
}
# Methods that delegate to games.engine.moves (checked below to do just that).
DELEGATING_METHODS = {
    ("games/engine/board.py", "legal_moves"),
    ("games/solver/hint.py", "legal_moves"),
}


def modules() -> list[Path]:
    return sorted(
        p for pkg in PACKAGES for p in (ROOT / pkg).rglob("*.py") if "migrations" not in p.parts
    )


def assigned_names(tree: ast.Module) -> set[str]:
    """Names a module assigns at its top level (class attributes such as a choices
    member ``DEAL = "deal"`` are not rule constants)."""
    names: set[str] = set()
    for node in tree.body:
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, ast.AnnAssign | ast.AugAssign):
            targets = [node.target]
        for target in targets:
            for sub in ast.walk(target):
                if isinstance(sub, ast.Name):
                    names.add(sub.id)
    return names


@pytest.mark.parametrize("path", modules(), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_module_redefines_a_rule_constant_or_function(path: Path) -> None:
    rel = str(path.relative_to(ROOT))
    tree = ast.parse(path.read_text(), filename=rel)
    for name in assigned_names(tree) & CONSTANTS.keys():
        assert CONSTANTS[name] == rel, f"{rel} defines {name}: import it from games.engine"
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and node.name in FUNCTIONS:
            if (rel, node.name) in DELEGATING_METHODS:
                calls = [n for n in ast.walk(node) if isinstance(n, ast.Call)]
                assert len(calls) == 1, f"{rel}.{node.name} should only delegate"
                continue
            assert FUNCTIONS[node.name] == rel, (
                f"{rel} defines {node.name}(): use the one in {FUNCTIONS[node.name]}"
            )


def test_the_check_sees_the_definitions() -> None:
    """The scan finds the real definitions (so the test above is not vacuous)."""
    found = {}
    for path in modules():
        rel = str(path.relative_to(ROOT))
        for name in assigned_names(ast.parse(path.read_text())) & CONSTANTS.keys():
            found[name] = rel
    assert found == {k: v for k, v in CONSTANTS.items() if v is not None}
