"""The client's routes are defined once (web/routes.py): the page carries them to the router
in app.js, and the server serves the page at exactly those paths."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from web.routes import ROUTES, browser_table

APP = Path(__file__).resolve().parents[2] / "web" / "static" / "web" / "app.js"
UUID = "3227b444-0b5c-4b63-9b9f-2f3c9e1d2a10"


def carried(html: str) -> list[list[str]]:
    block = re.search(r'<script id="routes" type="application/json">(.*?)</script>', html, re.S)
    assert block, "the page carries the route table"
    return json.loads(block.group(1))


def test_the_page_carries_the_route_table(client) -> None:
    assert carried(client.get("/daily").content.decode()) == [list(r) for r in browser_table()]


def test_every_screen_named_is_one_the_router_has() -> None:
    """app.js's SCREENS has one entry for each screen a route names, no more."""
    text = APP.read_text()
    body = re.search(r"^const SCREENS = \{\n(.*?)^\};", text, re.S | re.M)
    assert body
    names = set(re.findall(r"^  (\w+): ", body.group(1), re.M))
    assert names == {route.screen for route in ROUTES}


def test_a_pattern_reads_the_same_in_python_and_javascript() -> None:
    for route in ROUTES:
        re.compile(route.server_pattern())
        # no named groups, lookbehinds, inline flags or \Z: the syntax both languages share
        assert "(?" not in route.pattern and "\\Z" not in route.pattern, route
        assert not route.pattern.startswith("/") and not route.pattern.endswith("/"), route


@pytest.mark.parametrize(
    "path",
    [
        "/",
        "/play",
        "/play/",
        f"/play/{UUID}",
        "/play/not-a-uuid",
        "/daily/2026-11-30",
        "/daily/yesterday",
        "/race/K7QX2M9A",
        "/race/K7QX2M9A/extra",
        "/players/gina",
        "/players/gina/games",
        f"/replay/{UUID}",
        "/account/tokens/new",
        "/account/tokens",
        "/oauth/authorize",
        "/login",
        "/login/again",
        "/nothing-here",
    ],
)
def test_the_server_serves_the_page_where_the_router_has_a_screen(client, path) -> None:
    routed = any(re.match(pattern, path.rstrip("/") or "/") for pattern, _ in browser_table())
    response = client.get(path)
    assert response.status_code == (200 if routed else 404), path
    if routed:
        assert response["Content-Type"].startswith("text/html")
