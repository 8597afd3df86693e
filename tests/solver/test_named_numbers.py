"""No bare rule numbers in games/solver/: the rules' numbers (13 cards to a run, rank bits
``& 15``, suit bits ``>> 4``, a King's 13, eight runs to a win, ten columns) are named, so a
reader sees which rule a line applies and the one place it is defined (``games.engine``,
or ``games/solver/model.py`` for what is derived from it).

Outside the definitions that name a value (a module-level constant, ``NAME = ...``, or a
field default of a class, the heuristic weights), an int literal is 0, 1 or 2 (a first, a
next, a pair), is never a bit operand (``& 15``, ``>> 4``) and is never compared with a bit
expression (``card & RANK_MASK == 1``: that is ``ACE``).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SOLVER = ROOT / "games" / "solver"
SMALL = {0, 1, 2}
BIT_OPS = (ast.BitAnd, ast.BitOr, ast.BitXor, ast.LShift, ast.RShift)


def _int(node: ast.AST) -> int | None:
    """The value of an int literal (not a bool), else None."""
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    return None


def _named(node: ast.stmt, *, in_class: bool) -> bool:
    """Whether ``node`` gives its value a name: an UPPER_CASE constant at module level, or
    a field (annotated, with a default) of a class."""
    if in_class:
        return isinstance(node, ast.AnnAssign | ast.Assign)
    targets: list[ast.expr] = []
    if isinstance(node, ast.Assign):
        targets = node.targets
    elif isinstance(node, ast.AnnAssign):
        targets = [node.target]
    names = [t.id for t in targets if isinstance(t, ast.Name)]
    return bool(names) and all(n.lstrip("_").isupper() for n in names)


def bare_numbers(source: str) -> list[str]:
    """Where ``source`` writes a rule number bare (``"line: what"``, sorted)."""
    tree = ast.parse(source)
    allowed: set[int] = set()  # ids of the nodes inside named definitions
    for stmt in tree.body:
        bodies = [(stmt, False)]
        if isinstance(stmt, ast.ClassDef):
            bodies = [(s, True) for s in stmt.body]
        for definition, in_class in bodies:
            if _named(definition, in_class=in_class):
                allowed.update(id(n) for n in ast.walk(definition))
    found = []
    for node in ast.walk(tree):
        if id(node) in allowed:
            continue
        line = getattr(node, "lineno", 0)
        value = _int(node)
        if value is not None and value not in SMALL:
            found.append(f"{line}: the number {value}")
        if isinstance(node, ast.BinOp) and isinstance(node.op, BIT_OPS):
            for side in (node.left, node.right):
                if _int(side) is not None:
                    found.append(f"{line}: a bit operation on the literal {_int(side)}")
        if isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            bits = any(
                isinstance(n, ast.BinOp) and isinstance(n.op, BIT_OPS)
                for side in sides
                for n in ast.walk(side)
            )
            literals = [v for v in map(_int, sides) if v]
            if bits and literals:
                found.append(f"{line}: card bits compared with {literals[0]}")
    return sorted(found)


@pytest.mark.parametrize("path", sorted(SOLVER.rglob("*.py")), ids=lambda p: p.name)
def test_the_solver_names_its_rule_numbers(path: Path) -> None:
    assert bare_numbers(path.read_text()) == [], f"{path.relative_to(ROOT)}: name these"


def test_the_check_sees_bare_numbers() -> None:
    """The check finds what it is for (so the test above is not vacuous)."""
    source = "\n".join(
        [
            "RUN: Final = 13 & 15",  # named: fine
            "class W:",
            "    soft: int = 3",  # a field default: fine
            "def f(col, card, runs):",
            "    a = col[-2] + col[:-1][0]",  # small: fine
            "    if card & 15 == 1:",  # bit literal, and a rank compared with a literal
            "        return card >> 4",
            "    return runs == 8 or len(col) == 13",
        ]
    )
    assert bare_numbers(source) == [
        "6: a bit operation on the literal 15",
        "6: card bits compared with 1",
        "6: the number 15",
        "7: a bit operation on the literal 4",
        "7: the number 4",
        "8: the number 13",
        "8: the number 8",
    ]
