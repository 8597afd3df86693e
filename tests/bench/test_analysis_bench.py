"""bench/analysis.py at a tiny size (so it cannot rot unseen): its last line is the JSON it
documents; and its claim check catches an answer that claims more than it knows."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from bench.analysis import wrong_claims
from tests.conftest import ROOT

pytestmark = pytest.mark.slow

KEYS = {"games", "median_s", "agreement_share", "median_unsettled", "wrong_claims"}


def test_the_bench_ends_on_its_json_line() -> None:
    run = subprocess.run(
        # A game cut short at 40 actions counts as lost: found at once, analysed in seconds.
        [
            sys.executable,
            "bench/analysis.py",
            *("--suits", "1", "--games", "1", "--sample", "1", "--max-actions", "40"),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        check=True,
    )
    last = json.loads(run.stdout.strip().splitlines()[-1])
    assert set(last["1"]) >= KEYS, last
    assert last["1"]["games"] == 1 and last["1"]["wrong_claims"] == 0


def _answer(**changes: object) -> dict:
    answer = {
        "outcome": "lost",
        "last_win": None,
        "proved_loss": None,
        "turning_point": None,
        "solver_line": None,
        "probes": [
            {"index": 0, "won": False, "exhaustive": False, "inferred": False},
            {"index": 1, "won": False, "exhaustive": False, "inferred": False},
        ],
    }
    return answer | changes


def test_the_claim_check_catches_a_guess() -> None:
    assert wrong_claims(_answer()) == 0  # nothing known, nothing claimed
    place = {"index": 1, "step": 1, "position": "-"}
    assert wrong_claims(_answer(proved_loss=place)) == 1  # a loss no search proved
    assert wrong_claims(_answer(turning_point={"index": 0})) == 1  # a turning point guessed
