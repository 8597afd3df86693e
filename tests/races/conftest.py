"""Fixtures for races: players with clients, tables brought to a given point.

- ``racers(n)``: n players (the first is staff, so it may fix the deal) with their clients.
- ``open_table(clients, ...)``: the first client opens a table, the others sit and get
  ready; returns the table body.
- ``start_race(clients, ...)``: ... and the opener starts; the countdown is skipped (the
  ``countdown`` setting is 0), so the cards have turned over when it returns.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.games.api.conftest import clock  # noqa: F401  (fixtures)
from tests.games.api.helpers import NEAR_WIN, layout_json
from tests.games.conftest import _no_vetting_on_request, stock_pool  # noqa: F401

API = "/api/v1"


def race_url(code: str, what: str = "") -> str:
    return f"{API}/races/{code}" + (f"/{what}" if what else "")


def post(client, code: str, what: str, body: dict[str, Any] | None = None):
    return client.post(race_url(code, what), body or {}, format="json")


@pytest.fixture(autouse=True)
def _race_settings(settings) -> None:
    settings.RACE_COUNTDOWN_SECONDS = 0
    settings.RACE_EVENTS_REDIS_URL = ""  # the in-process hub unless a test wants Redis


@pytest.fixture
def racers(make_user, auth_client) -> Callable[[int], list[tuple[Any, Any]]]:
    def make(n: int) -> list[tuple[Any, Any]]:
        users = [make_user(is_staff=(i == 0)) for i in range(n)]
        return [(u, auth_client(u)) for u in users]

    return make


def open_table(clients: list, *, ready: bool = True, **body: Any) -> dict[str, Any]:
    body.setdefault("suits", 1)
    response = clients[0].post(f"{API}/races", body, format="json")
    assert response.status_code == 201, response.content
    table = response.json()
    for client in clients[1:]:
        assert post(client, table["code"], "sit").status_code == 200
        if ready:
            assert post(client, table["code"], "ready").status_code == 200
    return table


def start_race(clients: list, **body: Any) -> dict[str, Any]:
    table = open_table(clients, **body)
    response = post(clients[0], table["code"], "start")
    assert response.status_code == 200, response.content
    from races.services import races_tick

    races_tick()  # the sweep turns the cards over (a read no longer does)
    return response.json()


NEAR_WIN_LAYOUT = layout_json(NEAR_WIN)
# Two moves from a win: the Ace sits under a face-down 9h in column 2 ... a longer layout
# for races where someone must not win at once.
