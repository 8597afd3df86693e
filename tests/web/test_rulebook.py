"""GET /api/v1/rules: the rulebook, docs/rules.md, rendered for the web client's rules page."""

from __future__ import annotations

import re

import pytest

from tests.conftest import ROOT
from tests.test_repository_docs import anchors
from web.rulebook import render

URL = "/api/v1/rules"


@pytest.mark.django_db
def test_the_rulebook_is_served_with_its_sections_and_anchors(api_client):
    response = api_client.get(URL)

    assert response.status_code == 200
    body = response.json()
    assert body["title"] == "The rules of play"
    ids = set(re.findall(r'<h[1-6] id="([^"]+)"', body["html"]))
    # Every heading of docs/rules.md, with the anchor the code and docs cite.
    assert anchors("rules.md") <= ids
    assert {"guests", "one-tap-destination", "undo"} <= {s["anchor"] for s in body["sections"]}
    # The text is the rulebook's own, not a copy kept elsewhere.
    first_rule = (ROOT / "docs" / "rules.md").read_text().split("## Cards", 1)[1].split("\n")[2]
    assert first_rule.strip("- ").split(" ")[0] in body["html"]


@pytest.mark.django_db
def test_the_answer_is_cached_and_revalidated_by_its_etag(api_client):
    first = api_client.get(URL)
    again = api_client.get(URL, HTTP_IF_NONE_MATCH=first["ETag"])

    assert first["Cache-Control"] == "public, max-age=300"
    assert again.status_code == 304 and again.content == b""


@pytest.mark.django_db
def test_a_stale_token_is_ignored(api_client):
    api_client.credentials(HTTP_AUTHORIZATION="Bearer 0123456789abcdef0123456789abcdef01234567")

    assert api_client.get(URL).status_code == 200


def test_raw_html_in_the_source_is_escaped_not_passed_through():
    book = render(
        "# T\n\n<script>alert(1)</script>\n\n## A `code` head\n\n| a | b |\n|---|---|\n| 1 | 2 |\n"
    )

    assert "<script>" not in book.html
    assert "&lt;script&gt;" in book.html
    assert '<h2 id="a-code-head">' in book.html
    assert "<table>" in book.html
