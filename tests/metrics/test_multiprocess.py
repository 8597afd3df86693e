"""Prometheus's multiprocess mode (spider_api/metrics/multiprocess.py): a fresh directory per
server, one of a killed server swept at the next start; a dead process's counts folded into
the archive without a scrape ever seeing them twice or not at all; its live gauges dropped."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from prometheus_client.mmap_dict import MmapedDict, mmap_key

from spider_api.metrics import multiprocess
from tests.conftest import ROOT


@pytest.fixture
def env(monkeypatch, tmp_path):
    """prepare() writes the process's environment: restored after the test."""
    for name in (multiprocess.ENV, "SPIDER_METRICS_DIR_OWNER"):
        monkeypatch.setenv(name, "")
        monkeypatch.delenv(name)
    monkeypatch.setattr(multiprocess, "_base", lambda: str(tmp_path))
    return monkeypatch


def totals(path: Path) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in multiprocess.Collector(str(path)).collect()
        for sample in family.samples
    }


def test_each_server_gets_a_fresh_directory_and_a_killed_ones_is_swept(env, tmp_path):
    env.setenv("METRICS_TOKEN", "x" * 16)
    stale = tmp_path / "spider-metrics-web-999999"  # a pid that cannot be running
    stale.mkdir()
    (stale / "counter_1.db").write_bytes(b"old")
    alive = tmp_path / f"spider-metrics-celery-{os.getppid()}"
    alive.mkdir()

    path = multiprocess.prepare("web")
    assert path == str(tmp_path / f"spider-metrics-web-{os.getpid()}")
    assert os.listdir(path) == []
    assert os.environ[multiprocess.ENV] == path
    assert not stale.exists() and alive.exists()
    assert multiprocess.prepare("web") == path  # the same server reads its settings again

    multiprocess.finish()
    assert not os.path.exists(path)


def test_off_without_a_token(env):
    env.setenv(multiprocess.ENV, "/somewhere/an/operator/set")
    env.delenv("METRICS_TOKEN", raising=False)
    assert multiprocess.prepare("web") is None
    assert multiprocess.ENV not in os.environ


WRITER = """
import sys
from prometheus_client import Counter, Gauge, Histogram
c = Counter("spider_t_total", "t", ["kind"])
h = Histogram("spider_t_seconds", "t", buckets=(0.1, 1.0))
g = Gauge("spider_t_in_flight", "t", multiprocess_mode="livesum")
for _ in range(int(sys.argv[1])):
    c.labels("a").inc()
    h.observe(0.5)
g.inc()  # left in flight: the process exits without a dec
print(__import__("os").getpid())
"""


def write(path: Path, times: int) -> int:
    out = subprocess.run(
        [sys.executable, "-c", WRITER, str(times)],
        env={**os.environ, multiprocess.ENV: str(path)},
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    return int(out.stdout)


def test_a_dead_processs_counts_are_folded_and_its_live_gauges_dropped(tmp_path):
    first, second = write(tmp_path, 3), write(tmp_path, 4)
    before = totals(tmp_path)
    assert before[("spider_t_total", (("kind", "a"),))] == 7
    assert before[("spider_t_seconds_count", ())] == 7
    assert before[("spider_t_in_flight", ())] == 2

    multiprocess.process_dead(first, str(tmp_path))
    multiprocess.process_dead(second, str(tmp_path))
    after = totals(tmp_path)
    assert after.pop(("spider_t_in_flight", ()), 0) == 0
    before.pop(("spider_t_in_flight", ()))
    assert after == before
    files = sorted(p.name for p in tmp_path.glob("*.db"))
    assert files == ["counter_archive.db", "histogram_archive.db"]

    third = write(tmp_path, 1)  # a new worker: its own file beside the archive
    multiprocess.process_dead(third, str(tmp_path))
    assert totals(tmp_path)[("spider_t_total", (("kind", "a"),))] == 8


def test_a_scrape_during_the_folds_counts_each_dead_process_once(tmp_path):
    key = mmap_key("spider_t", "spider_t_total", ["kind"], ["a"], "t")
    pids = range(100_001, 100_041)
    for pid in pids:
        written = MmapedDict(str(tmp_path / f"counter_{pid}.db"))
        written.write_value(key, 1.0, 0.0)
        written.close()

    def fold_all() -> None:
        for pid in pids:
            multiprocess.process_dead(pid, str(tmp_path))

    folding = threading.Thread(target=fold_all)
    folding.start()
    seen = []
    while folding.is_alive():
        seen.append(totals(tmp_path)[("spider_t_total", (("kind", "a"),))])
    folding.join()
    seen.append(totals(tmp_path)[("spider_t_total", (("kind", "a"),))])
    assert set(seen) == {40.0}, sorted(set(seen))
    assert [p.name for p in tmp_path.glob("*.db")] == ["counter_archive.db"]
