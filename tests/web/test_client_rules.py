"""The web client's own tests (node's test runner, tests/js), run on positions this test
exports from the engine: rules.js (what the client draws before the server answers) must give
the engine's legal moves, lifts, one-tap destinations and deals, position by position."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.web.engine_positions import positions

ROOT = Path(__file__).resolve().parents[2]
JS_TESTS = ROOT / "tests" / "js"


def test_the_export_is_the_engines_and_varied() -> None:
    exported = positions(games=1)
    assert {p["game"]["suits"] for p in exported} == {1, 2, 4}
    assert any(p["moves"] for p in exported) and any(p["can_deal"] for p in exported)
    assert any(any(c[0] for c in p["onetap"]) for p in exported)
    json.dumps(exported)  # plain JSON, as node reads it


@pytest.mark.skipif(shutil.which("node") is None, reason="no node: `make test-js` needs Node")
def test_the_client_holds_to_the_engine(tmp_path) -> None:
    fixture = tmp_path / "positions.json"
    subprocess.run(
        [sys.executable, "-m", "tests.web.engine_positions", str(fixture)], cwd=ROOT, check=True
    )
    run = subprocess.run(
        ["node", "--test", *sorted(str(p.relative_to(ROOT)) for p in JS_TESTS.glob("*.test.js"))],
        cwd=ROOT,
        env={**os.environ, "SPIDER_ENGINE_POSITIONS": str(fixture)},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    assert "# fail 0" in run.stdout
