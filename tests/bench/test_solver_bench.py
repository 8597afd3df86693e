"""bench/solver.py runs at a tiny size: its speed comparison checks out the reference commit
in a worktree of its own, solves the same deals with both solvers and ends with one JSON
line carrying the figures (the bench's contract, read by whoever checks the speedup)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.conftest import ROOT

BENCH = ROOT / "bench" / "solver.py"


@pytest.mark.slow
def test_the_speed_bench_compares_the_same_deals_and_ends_with_its_figures() -> None:
    reference = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "--verify", "--quiet", "afbc0a4^{commit}"],
        capture_output=True,
        check=False,
    )
    if reference.returncode:
        pytest.skip("the reference commit is not in this clone (a shallow one)")
    out = subprocess.run(
        [sys.executable, str(BENCH), "--suits", "1,4", "--seeds", "1", "--nodes", "3000"],
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    ).stdout
    lines = out.strip().splitlines()
    figures = json.loads(lines[-1])
    assert set(figures) >= {"speedup", "min_mode_speedup", "modes", "reference", "load"}
    assert set(figures["modes"]) == {"1", "4"}
    for mode in figures["modes"].values():
        assert mode["core_nodes_per_cpu_s"] > 0 and mode["reference_nodes_per_cpu_s"] > 0
        assert mode["speedup"] > 0
    # One line per deal, both solvers on it, the same budget.
    assert sum(line.startswith("suits=") for line in lines) == 2
    assert figures["speedup"] > 1  # the core is not slower than pure Python, even tiny


def test_the_vetting_bench_ends_with_its_figures() -> None:
    out = subprocess.run(
        [sys.executable, str(BENCH), "--vet", "--suits", "1", "--seeds", "1", "--max-nodes=5000"],
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    ).stdout
    figures = json.loads(out.strip().splitlines()[-1])
    assert set(figures["1"]) >= {"solved_share", "median_s", "median_cpu_s", "nodes_per_s"}


@pytest.mark.slow
def test_the_par_bench_compares_the_dailys_par_of_the_same_deals() -> None:
    reference = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "--verify", "--quiet", "afbc0a4^{commit}"],
        capture_output=True,
        check=False,
    )
    if reference.returncode:
        pytest.skip("the reference commit is not in this clone (a shallow one)")
    out = subprocess.run(
        [
            sys.executable,
            str(BENCH),
            "--par",
            "--seeds",
            "1",
            "--par-nodes",
            "20000",
            "--reference-par-nodes",
            "20000",
        ],
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    ).stdout
    lines = out.strip().splitlines()
    figures = json.loads(lines[-1])
    assert set(figures) >= {"par_ratio", "median_par", "reference_median_par", "median_cpu_s"}
    assert figures["deals"] == 1 and figures["nodes"] == figures["reference_nodes"] == 20000
    # Both searched the same deal: a par each, and the line as short or shorter than vetted.
    assert sum(line.startswith("seed=1 par ") for line in lines) == 1
    assert figures["median_par"] > 0 and figures["reference_median_par"] > 0
    assert figures["par_ratio"] == round(figures["median_par"] / figures["reference_median_par"], 3)
