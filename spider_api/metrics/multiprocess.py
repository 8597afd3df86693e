"""Prometheus's multiprocess mode for the servers that fork: gunicorn's workers and a Celery
worker's pool processes each write their figures into mmap files of one directory, and the
process that answers a scrape adds them up (prometheus-client's MultiProcessCollector).

prometheus-client reads ``PROMETHEUS_MULTIPROC_DIR`` when it is first imported, so the
directory is named before any process of the server imports it: in gunicorn's master by
gunicorn.conf.py, in a Celery worker or beat before Django starts (spider_api.celery). The
project names it; a value in the environment is replaced. Each server gets a directory of
its own (``spider-metrics-<kind>-<pid>``, on tmpfs where there is one: it is written on
every request), empty at its start, removed when it stops; one left by a server that was
killed is removed by the next server that starts there.

A worker that exits leaves its counters and histograms behind: ``process_dead`` (gunicorn's
``child_exit``) folds them into one archive file per type, so a scrape reads one file for
all the dead rather than one per worker ever recycled, and drops its live gauges (requests
in flight, connections). A scrape and a fold hold a lock on the directory (shared and
exclusive), so no scrape counts a dead worker twice, or not at all.

Nothing here imports prometheus_client at module level (see the package's docstring).
"""

from __future__ import annotations

import contextlib
import fcntl
import glob
import os
import shutil
import tempfile
from collections.abc import Iterator
from typing import Any

ENV = "PROMETHEUS_MULTIPROC_DIR"
_OWNER = "SPIDER_METRICS_DIR_OWNER"  # the pid of the server process that made the directory
_PREFIX = "spider-metrics-"
_LOCK = ".lock"
ARCHIVE = "archive"  # the dead processes' files are folded into <type>_archive.db
_FOLDED_TYPES = ("counter", "histogram", "summary")


def enabled() -> bool:
    """Metrics are on (the settings' METRICS_TOKEN, read before Django is set up)."""
    return bool(os.environ.get("METRICS_TOKEN", "").strip())


def _base() -> str:
    shm = "/dev/shm"
    return shm if os.path.isdir(shm) and os.access(shm, os.W_OK) else tempfile.gettempdir()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def server_directory(kind: str, pid: int) -> str:
    """Where the server of this ``kind`` (web, celery) and main ``pid`` keeps its figures."""
    return os.path.join(_base(), f"{_PREFIX}{kind}-{pid}")


def prepare(kind: str) -> str | None:
    """Name a fresh directory for the figures of the server about to start its processes, in
    PROMETHEUS_MULTIPROC_DIR (which they inherit); None when metrics are off. A server that
    reads its settings again (gunicorn on HUP) keeps the one it made."""
    if not enabled():
        os.environ.pop(ENV, None)
        return None
    current = os.environ.get(ENV, "")
    if os.environ.get(_OWNER) == str(os.getpid()) and os.path.isdir(current):
        return current
    base = _base()
    for stale in glob.glob(os.path.join(base, f"{_PREFIX}*-*")):
        pid = stale.rsplit("-", 1)[-1]
        if pid.isdigit() and not _alive(int(pid)):
            shutil.rmtree(stale, ignore_errors=True)
    path = server_directory(kind, os.getpid())
    shutil.rmtree(path, ignore_errors=True)  # a pid used again after a crash
    os.makedirs(path, mode=0o700)
    os.environ[ENV] = path
    os.environ[_OWNER] = str(os.getpid())
    return path


def finish() -> None:
    """The server that made the directory stops: it goes."""
    path = os.environ.get(ENV)
    if path and os.environ.get(_OWNER) == str(os.getpid()):
        shutil.rmtree(path, ignore_errors=True)


def active() -> str | None:
    """This process's directory, when it writes its figures into one."""
    path = os.environ.get(ENV)
    return path if path and os.path.isdir(path) else None


@contextlib.contextmanager
def _locked(path: str, *, exclusive: bool) -> Iterator[None]:
    with open(os.path.join(path, _LOCK), "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def process_dead(pid: int, path: str | None = None) -> None:
    """A process of the server exited: fold its counters and histograms into the archive and
    drop its live gauges (they held what was in flight in it)."""
    path = path or active()
    if path is None:
        return
    from prometheus_client import multiprocess

    with _locked(path, exclusive=True):
        multiprocess.mark_process_dead(pid, path)
        for typ in _FOLDED_TYPES:
            dead = os.path.join(path, f"{typ}_{pid}.db")
            if os.path.exists(dead):
                _fold(dead, os.path.join(path, f"{typ}_{ARCHIVE}.db"))


def _fold(dead: str, archive: str) -> None:
    """The archive becomes archive + dead, series by series (the same key is the same series
    in every file); then the dead file goes. Counters, histograms' buckets and sums add up."""
    from prometheus_client.mmap_dict import MmapedDict

    totals: dict[str, float] = {}
    for source in (archive, dead):
        if os.path.exists(source):
            for key, value, _, _ in MmapedDict.read_all_values_from_file(source):
                totals[key] = totals.get(key, 0.0) + value
    written = archive + ".fold"  # not *.db: no scrape reads it half-written
    with contextlib.suppress(FileNotFoundError):
        os.remove(written)
    merged = MmapedDict(written)
    try:
        for key, value in totals.items():
            merged.write_value(key, value, 0.0)
    finally:
        merged.close()
    os.replace(written, archive)
    os.remove(dead)


class Collector:
    """prometheus-client's MultiProcessCollector over the directory, under its shared lock."""

    def __init__(self, path: str) -> None:
        from prometheus_client.multiprocess import MultiProcessCollector

        self._path = path
        self._inner = MultiProcessCollector(None, path)

    def collect(self) -> list[Any]:
        with _locked(self._path, exclusive=False):
            return list(self._inner.collect())
