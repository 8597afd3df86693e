"""The browser plumbing itself: system Chromium loads a page of the live server and runs its
JavaScript against the API (the fixtures every browser test builds on)."""

import pytest

from tests.browser_plugin import assert_no_console_errors

pytestmark = pytest.mark.django_db(transaction=True)


def test_chromium_fetches_the_api_from_a_served_page(live_server, new_page) -> None:
    page = new_page()
    page.goto(f"{live_server.url}/api/docs/")
    status = page.evaluate("fetch('/api/v1/leaderboard?suits=1').then(r => r.status)")
    assert status == 200
    assert "Swagger" in page.title() or page.locator("#swagger-ui").count() == 1
    assert_no_console_errors(page)
