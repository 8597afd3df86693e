"""The import contracts in pyproject.toml ([tool.importlinter]) hold: the rules engine and the
solver import nothing from Django, DRF, Celery or the web apps, and the engine never imports the
solver."""

import subprocess
import sys
from pathlib import Path

from tests.conftest import ROOT


def test_import_contracts_are_kept():
    lint_imports = Path(sys.executable).with_name("lint-imports")

    result = subprocess.run(
        [str(lint_imports), "--no-cache"], cwd=ROOT, capture_output=True, text=True, check=False
    )

    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout
