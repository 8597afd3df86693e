"""CORS in a real browser: a page served from another port (another origin) reads the public
leaderboard and plays an action on the live server with a Bearer token, reading the exposed
headers; a page from an origin that is not listed reads the board but cannot play."""

from __future__ import annotations

import functools
import json
import threading
from collections.abc import Callable, Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from games import services
from tests.browser_plugin import assert_no_console_errors
from tests.conftest import token_of
from tests.games.conftest import pooled_deal

pytestmark = pytest.mark.django_db(transaction=True)

# The page's own script does the work, as a third-party client's would: the API's address,
# the token and the game come in the query string; the answers go into #result as JSON.
PAGE = """<!doctype html>
<html><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>elsewhere</title></head>
<body><pre id="result"></pre>
<script>
const q = new URLSearchParams(location.search);
const api = q.get("api"), token = q.get("token"), game = q.get("game");
async function run() {
  const out = {origin: location.origin};
  const board = await fetch(`${api}/leaderboard?suits=1`);
  out.board = {status: board.status, etag: board.headers.get("ETag"),
               results: (await board.json()).results};
  const again = await fetch(`${api}/leaderboard?suits=1`,
                            {headers: {"If-None-Match": out.board.etag}});
  out.board_again = again.status;
  try {
    const send = () => fetch(`${api}/games/${game}/actions`, {
      method: "POST",
      headers: {"Authorization": `Bearer ${token}`, "Content-Type": "application/json",
                "Idempotency-Key": "page-deal-1"},
      body: JSON.stringify({type: "deal", version: 0}),
    });
    const first = await send(), retry = await send();
    out.act = {status: first.status, version: (await first.json()).version,
               request_id: first.headers.get("X-Request-ID"),
               replayed: retry.headers.get("Idempotent-Replayed"), retry_status: retry.status};
  } catch (error) {
    out.act = {error: String(error)};
  }
  document.getElementById("result").textContent = JSON.stringify(out);
}
run();
</script></body></html>
"""


@pytest.fixture
def other_origin(tmp_path: Path) -> Iterator[str]:
    """A static page on a second free port of 127.0.0.1: another origin than the live server."""
    (tmp_path / "page.html").write_text(PAGE)
    handler = functools.partial(SimpleHTTPRequestHandler, directory=str(tmp_path))
    handler.log_message = lambda *args: None  # type: ignore[attr-defined]  # quiet
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture
def visit(live_server, other_origin, make_user, settings) -> Callable[..., Any]:
    settings.POOL_AUTOFILL = False
    player = make_user()
    pooled_deal(1, 11)
    game = services.game_create(player=player, suits=1)

    def open_page(new_page: Callable[..., Any]) -> tuple[Any, dict[str, Any]]:
        page = new_page()
        page.goto(
            f"{other_origin}/page.html?api={live_server.url}/api/v1"
            f"&token={token_of(player)}&game={game.id}"
        )
        page.wait_for_function("document.getElementById('result').textContent !== ''")
        return page, json.loads(page.locator("#result").text_content())

    return open_page


def test_a_page_on_a_listed_origin_reads_the_board_and_plays(
    visit, other_origin, new_page, settings
) -> None:
    settings.CORS_ALLOWED_ORIGINS = [other_origin]

    page, result = visit(new_page)

    assert result["origin"] == other_origin
    assert result["board"]["status"] == 200
    assert result["board"]["etag"]  # exposed: the script can read it
    assert result["board"]["results"] == []
    assert result["board_again"] == 304  # If-None-Match passed the preflight
    act = result["act"]
    assert act["status"] == 200, act
    assert act["version"] == 1
    assert act["request_id"]  # exposed
    assert act["retry_status"] == 200
    assert act["replayed"] == "true"  # exposed, and the deal was applied once
    assert_no_console_errors(page)


def test_a_page_on_another_origin_reads_the_board_but_cannot_play(
    visit, other_origin, new_page, settings
) -> None:
    settings.CORS_ALLOWED_ORIGINS = ["https://app.example.com"]

    _, result = visit(new_page)

    assert result["board"]["status"] == 200  # public reads: any origin
    assert result["board_again"] == 304
    assert "Failed to fetch" in result["act"]["error"]  # the browser refused the preflight
