"""Browser fixtures: headless Chromium from the system (Debian's `chromium`), driven by Playwright.

Playwright's own browser download cannot work on our machines, so it is pointed at the system
executable (`CHROMIUM`, else `chromium` on PATH). Without one the browser tests are skipped,
unless `BROWSER_TESTS=required` (CI sets it), where a missing browser fails them instead.

- `browser`: one Chromium for the whole session.
- `new_page(**context_options)`: a fresh context + page per call (separate storage, so two
  contexts are two people); every page records its console errors and uncaught exceptions in
  `page.errors` (a list of strings), which `assert_no_console_errors(page)` checks.
- Pages talk to pytest-django's `live_server` (a threaded WSGI server on a free port).
"""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

# Chromium flags for a closed network and no display (the machine's notes: docs/web-client.md).
CHROMIUM_ARGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def chromium_path() -> str | None:
    return (
        os.environ.get("CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    )


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    executable = chromium_path()
    if executable is None:
        message = "no Chromium: install Debian's chromium package (or set CHROMIUM=/path)"
        if os.environ.get("BROWSER_TESTS") == "required":
            pytest.fail(message)
        pytest.skip(message)
    from playwright.sync_api import sync_playwright

    # Playwright's sync API runs an event loop in this thread; Django's ORM (used by the
    # tests' own set-up in the same thread) refuses to run beside one unless told it is safe.
    # It is: the loop only drives the browser, and the live server answers in its own thread.
    os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture
def new_page(browser) -> Iterator[Callable[..., Any]]:
    contexts = []

    def make(**context_options: Any) -> Any:
        context = browser.new_context(**context_options)
        contexts.append(context)
        page = context.new_page()
        page.errors = []
        page.on(
            "console",
            lambda message: page.errors.append(message.text) if message.type == "error" else None,
        )
        page.on("pageerror", lambda error: page.errors.append(str(error)))
        # The requests in flight (event streams aside: they never end), waited for at the end.
        page.in_flight = set()
        page.on("request", lambda r: None if _streams(r) else page.in_flight.add(r))
        page.on("requestfinished", lambda r: page.in_flight.discard(r))
        page.on("requestfailed", lambda r: page.in_flight.discard(r))
        page.set_default_timeout(10_000)
        return page

    yield make
    for context in contexts:
        for page in context.pages:
            _settle(page)
        context.close()


def _streams(request: Any) -> bool:
    return request.resource_type == "eventsource" or request.url.split("?")[0].endswith("/events")


def _settle(page: Any, seconds: float = 5) -> None:
    """Wait until the page has had no request in flight for a moment (a few seconds at most):
    the test's database is flushed next, and a live server still writing an answer beside the
    flush's TRUNCATE deadlocks it (a move's request leaves once its drawing is on screen, so a
    test may end with one on its way)."""
    deadline = time.monotonic() + seconds
    quiet = 0
    try:
        while quiet < 3 and time.monotonic() < deadline:
            page.wait_for_timeout(50)  # Playwright delivers the page's events meanwhile
            quiet = 0 if getattr(page, "in_flight", None) else quiet + 1
    except Exception:  # noqa: BLE001 - a page already closed has nothing in flight
        return


def assert_no_console_errors(page: Any) -> None:
    assert page.errors == [], f"console errors on {page.url}: {page.errors}"
