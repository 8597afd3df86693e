"""The web client's page: served at `/` and at every client route, with a strict
Content-Security-Policy, naming only assets that exist; other paths keep their JSON 404."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.contrib.staticfiles import finders

CLIENT_PATHS = [
    "/",
    "/play",
    "/play/3227b444-0b5c-4b63-9b9f-2f3c9e1d2a10",
    "/daily",
    "/daily/2026-11-30",
    "/leaderboard",
    "/replay/3227b444-0b5c-4b63-9b9f-2f3c9e1d2a10",
    "/players/alice",
    "/race",
    "/race/K7QX2M9A",
    "/login",
    "/signup",
]


@pytest.mark.parametrize("path", CLIENT_PATHS)
def test_every_client_route_serves_the_page(client, path) -> None:
    response = client.get(path)

    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/html")
    csp = response["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "frame-ancestors 'none'" in csp
    assert "unsafe-inline" not in csp and "unsafe-eval" not in csp
    assert b'<script type="module"' in response.content


def test_the_page_has_no_inline_script_and_names_assets_that_exist(client) -> None:
    html = client.get("/").content.decode()

    # every script is a file; the one data block (never run) is the router's table of routes
    scripts = re.findall(r"<script(?![^>]*\bsrc=)[^>]*>", html)
    assert scripts == ['<script id="routes" type="application/json">']
    assets = re.findall(r'(?:href|src)="/static/([^"]+)"', html)
    assert "web/app.js" in assets and "web/style.css" in assets
    for asset in assets:
        assert finders.find(asset), asset


def test_a_module_imports_only_modules_that_exist() -> None:
    app = finders.find("web/app.js")
    assert isinstance(app, str)
    folder = Path(app).parent
    seen, todo = set(), ["app.js"]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        text = (folder / name).read_text()
        todo += re.findall(r"from '\./([\w.]+)'", text)
        todo += re.findall(r"import\('\./([\w.]+)'\)", text)  # loaded when first needed
    assert {"api.js", "game.js", "table.js", "replay.js", "race.js", "cards.js", "dom.js"} <= seen
    for name in seen:
        assert finders.find(f"web/{name}"), name


def test_the_page_may_connect_to_the_race_stream_service_only(client, settings) -> None:
    """Under `make serve` the race streams are another origin (RACE_STREAM_URL): the page's
    EventSource may connect there, and nowhere else."""
    assert "connect-src 'self';" in client.get("/race")["Content-Security-Policy"]

    settings.RACE_STREAM_URL = "http://127.0.0.1:8001"
    csp = client.get("/race/K7QX2M9A")["Content-Security-Policy"]
    assert "connect-src 'self' http://127.0.0.1:8001;" in csp

    settings.RACE_STREAM_URL = "https://stream.example.com/base"
    csp = client.get("/race")["Content-Security-Policy"]
    assert "connect-src 'self' https://stream.example.com;" in csp


@pytest.mark.parametrize(
    "path", ["/nothing-here", "/play/not-a-uuid/extra", "/race/K7QX2M9A/extra", "/api/v1/nope"]
)
def test_other_paths_are_still_json_404(client, path) -> None:
    response = client.get(path)

    assert response.status_code == 404
    assert response.json()["code"] == "not_found"


def test_only_get_and_head(client) -> None:
    assert client.head("/").status_code == 200
    assert client.post("/").status_code == 405
