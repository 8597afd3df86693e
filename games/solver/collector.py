"""The cyclic garbage collector held off while a hint searches.

A hint's look-ahead fills a table of tuples (positions, lines: tens of thousands of tracked
objects that live until the hint is ranked). They outlive the young generations, so CPython
runs full collections in the middle of the search, each walking the whole table: in a
followed 4-suit game one hint took 240 ms of CPU where its search alone takes 60 ms. The
table holds no reference cycles (tuples of ints and tuples), so reference counting frees it
all when the search ends; nothing is left for the collector to find meanwhile.

The collector is process-wide: with searches in several threads at once it comes back on
when the last of them ends.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_lock = threading.Lock()
_holders = 0
_was_enabled = False


@contextmanager
def collector_paused() -> Iterator[None]:
    """No cyclic collection inside the block (reference counting goes on as ever)."""
    global _holders, _was_enabled
    with _lock:
        if _holders == 0:
            _was_enabled = gc.isenabled()
            gc.disable()
        _holders += 1
    try:
        yield
    finally:
        with _lock:
            _holders -= 1
            if _holders == 0 and _was_enabled:
                gc.enable()
