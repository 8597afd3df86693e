"""bench/leaderboard.py at a tiny size (it once stopped running unseen: its bulk fill left out
a column the user table had gained): the fill loads, the boards answer, and the last line is
the JSON it documents."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.conftest import ROOT

pytestmark = [pytest.mark.postgres, pytest.mark.slow]


def test_the_bench_fills_serves_and_ends_on_its_json_line() -> None:
    run = subprocess.run(
        [
            sys.executable,
            "bench/leaderboard.py",
            *("--rows", "2000", "--requests", "5", "--workers", "1", "--threads", "1"),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    last = json.loads(run.stdout.strip().splitlines()[-1])
    assert last["rows"] == 2000 and last["requests"] == 5
    assert last["all_p1"]["p50_ms"] > 0
