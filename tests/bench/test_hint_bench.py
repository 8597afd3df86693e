"""bench/hint.py runs at a tiny size, at either hint level the API may serve, and ends with
one JSON line carrying per suit mode the games, the win rate, the games that looped (reached
the action cap) and the CPU per hint (the bench's contract)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.conftest import ROOT

BENCH = ROOT / "bench" / "hint.py"


@pytest.mark.slow
@pytest.mark.parametrize("level", ["rollout", "default"])
def test_the_hint_bench_ends_with_its_figures_per_mode(level: str) -> None:
    args = ["--suits", "1", "--sets", "1", "--seeds", "1", "--random", "2", "--stock-out", "1"]
    args += ["--max-actions", "12", "--serve-level", level, "--quiet"]
    out = subprocess.run(
        [sys.executable, str(BENCH), *args],
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    ).stdout
    figures = json.loads(out.strip().splitlines()[-1])
    assert figures["options"] == {"level": level}
    mode = figures["modes"]["1"]
    keys = {"games", "win_rate", "looped", "p50_cpu_ms", "p99_cpu_ms", "worst_cpu_ms"}
    assert keys <= set(mode)
    assert mode["games"] == 1 and mode["looped"] == 1  # 12 actions cannot win a deal
    assert 0 < mode["p50_cpu_ms"] <= mode["p99_cpu_ms"] <= mode["worst_cpu_ms"]
    assert mode["hints_timed"] == 11 + 2 + 1  # the first followed hint pays start-up costs
