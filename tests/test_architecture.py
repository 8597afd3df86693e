"""The import contracts in pyproject.toml ([tool.importlinter]) hold: the rules engine and the
solver import nothing from Django, DRF, Celery or the web apps; dependencies run one way
(races above leaderboard and accounts, above games, above the coin ledger; the games app
above its solver, the solver above its engine); and inside games the Celery tasks call the
services, which never import the tasks."""

import subprocess
import sys
from pathlib import Path

from tests.conftest import ROOT

CONTRACTS = (
    "The rules engine and the solver are pure Python",
    "One way: races > leaderboard | accounts > games > coins",
    "The games app uses its solver, the solver uses the engine, never the reverse",
    "Within games: tasks call services, services deal, deals come from the pool",
    "Within leaderboard: tasks call services, never the reverse",
)


def test_import_contracts_are_kept():
    lint_imports = Path(sys.executable).with_name("lint-imports")

    result = subprocess.run(
        [str(lint_imports), "--no-cache"], cwd=ROOT, capture_output=True, text=True, check=False
    )

    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout
    for name in CONTRACTS:  # each one is checked, none was dropped from pyproject.toml
        assert f"{name} KEPT" in result.stdout, result.stdout
