"""The web and stream processes freeze their start-up objects (base/heap.py), the views
included, so a full collection in a request walks only what requests made."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

PROBE = """
import gc, sys
import {module}
frozen = gc.get_freeze_count()
import games.views, races.views
print(frozen, len(gc.get_objects()))
"""


@pytest.mark.parametrize("module", ["spider_api.wsgi", "spider_api.asgi"])
def test_the_entry_point_freezes_what_start_up_loaded(module: str) -> None:
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "spider_api.settings", "DEBUG": "1"}
    out = subprocess.run(
        [sys.executable, "-c", PROBE.format(module=module)],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=True,
    ).stdout.split()
    frozen, tracked = int(out[0]), int(out[1])
    assert frozen > 50_000  # Django, DRF and every view, before the first request
    assert tracked < frozen // 10  # the views were loaded before the freeze: little is new
