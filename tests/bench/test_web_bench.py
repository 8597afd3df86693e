"""bench/web.py at a tiny size, against the test server in the suite's Chromium: every figure
comes out under its key, and the ones with a bound hold it (a throttled table still draws
before the network answers, playing with hints moves nothing, axe-core finds nothing)."""

from __future__ import annotations

import random

import httpx
import pytest

from bench.web import measure
from tests.conftest import token_of
from tests.games.api.helpers import pooled_layout_deal

pytestmark = pytest.mark.django_db(transaction=True)

# A 1-suit layout for each guest visit (the pool deals them).
GUEST_LAYOUT = ["Ks|Ts", "Qs|9s", "Js|8s", "|Ks"]
KEYS = {
    "first_visit_kb", "playable_ms", "playable_p90_ms", "guest_playable_ms",
    "tap_to_board_p50_ms", "tap_to_board_p99_ms", "move_p50_ms", "move_p99_ms",
    "move_request_p50_ms", "move_request_p99_ms", "moves_measured", "taps_measured", "visits",
    "slow_tap_to_board_p99_ms", "slow_guest_playable_ms", "layout_shift", "axe_serious",
    "phone_header_px", "phone_faceup_step_px", "phone_empty_share", "toast_overlaps",
}  # fmt: skip


def test_the_web_bench_at_a_tiny_size(live_server, browser, make_user, settings) -> None:
    settings.POOL_AUTOFILL = False
    settings.POOL_SYNC_VET_SECONDS = 0
    for _ in range(4):
        pooled_layout_deal(GUEST_LAYOUT)
    player = make_user(is_staff=True)
    token = token_of(player)
    api = httpx.Client(base_url=f"{live_server.url}/api/v1")
    api.headers["Authorization"] = f"Bearer {token}"
    api.post("/games", json={"suits": 2, "seed": 1234}).raise_for_status()  # to resume

    figures = measure(
        browser,
        live_server.url,
        token,
        visits=1,
        moves=4,
        slow_moves=4,
        hint_rounds=2,
        rnd=random.Random(7),
        phone_moves=6,
    )

    print(figures)  # the figures, with -s
    assert figures.keys() >= KEYS
    assert figures["visits"] == 1 and figures["slow_taps_measured"] >= 4
    # 300 ms is added to every request: a table drawn sooner did not wait for it.
    assert figures["slow_tap_to_board_p99_ms"] < 300
    assert figures["slow_guest_playable_ms"] > 150  # the emulated delay did apply
    assert figures["layout_shift"] == 0
    assert figures["axe_serious"] in (0, None)  # None: axe-core not installed (npm ci)
    assert figures["phone_header_px"] <= 56  # one row
    assert figures["overlap_samples"] >= 6
    assert figures["toast_overlaps"] == 0  # no message over a control
