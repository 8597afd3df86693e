"""Conditional GET (base/conditional.py): RFC 9110's If-None-Match held once, and every
read the schema says answers 304 answers it through that one helper."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from django.core.cache import cache

from tests.conftest import ROOT
from tests.games.conftest import pooled_deal
from tests.schema_check import published_schema

pytestmark = pytest.mark.django_db

RULES = "/api/v1/rules"


def _rules(client: Any) -> str:
    return RULES


def _leaderboard(client: Any) -> str:
    return "/api/v1/leaderboard?suits=2"


def _daily_leaderboard(client: Any) -> str:
    from leaderboard.services import daily_ensure

    pooled_deal(2, 11)
    day = daily_ensure(day=datetime.now(UTC).date() - timedelta(days=1)).date
    return f"/api/v1/daily/{day.isoformat()}/leaderboard"


# operation id -> a URL of it that answers 200 (made ready in the test's database)
READS: dict[str, Callable[[Any], str]] = {
    "rules_read": _rules,
    "leaderboard": _leaderboard,
    "daily_leaderboard": _daily_leaderboard,
}


@pytest.fixture(autouse=True)
def _quiet(settings) -> None:
    cache.clear()  # boards are cached for a few seconds
    settings.POOL_AUTOFILL = False  # no filler vets deals beside the test


def test_the_reads_here_are_the_schemas_conditional_ones():
    """Each operation with a 304 sends an ETag on its 200 and is tried below; a new one must
    be added to READS."""
    conditional = set()
    for item in published_schema()["paths"].values():
        for operation in item.values():
            if not isinstance(operation, dict) or "responses" not in operation:
                continue
            responses = operation["responses"]
            if "304" in responses or "ETag" in responses.get("200", {}).get("headers", {}):
                assert "304" in responses and "ETag" in responses["200"]["headers"]
                conditional.add(operation["operationId"])
    assert conditional == set(READS)


@pytest.mark.parametrize("operation", sorted(READS))
def test_each_conditional_read_answers_304_to_its_own_etag(api_client, operation):
    url = READS[operation](api_client)
    first = api_client.get(url)
    assert first.status_code == 200, first.content
    etag = first["ETag"]
    assert etag.startswith('"') and etag.endswith('"')  # strong: no W/

    again = api_client.get(url, HTTP_IF_NONE_MATCH=etag)

    assert again.status_code == 304
    assert again.content == b""
    assert again["ETag"] == etag
    assert again["Cache-Control"] == first["Cache-Control"]
    assert first["Cache-Control"].startswith("public, max-age=")


# -- RFC 9110, section 13.1.2, held once (on the rulebook: no database row needed) ------------
@pytest.fixture
def etag(api_client) -> str:
    return str(api_client.get(RULES)["ETag"])


@pytest.mark.parametrize(
    "header",
    [
        "{etag}",  # the strong tag itself
        "W/{etag}",  # weak comparison: W/ is ignored
        '"stale", {etag}',  # one of a list
        '"stale",W/{etag} , "older"',  # spaces optional around the commas
        "*",  # any current representation
        " * ",
    ],
)
def test_a_matching_if_none_match_is_304_with_the_etag_and_no_body(api_client, etag, header):
    answer = api_client.get(RULES, HTTP_IF_NONE_MATCH=header.format(etag=etag))

    assert answer.status_code == 304
    assert answer.content == b""
    assert answer["ETag"] == etag
    assert answer["Cache-Control"] == "public, max-age=300"


@pytest.mark.parametrize(
    "header",
    [
        '"stale"',
        'W/"stale", "older"',
        "{bare}",  # an entity tag is quoted: the bare hash is no tag at all
        "",
        "{etag}x",
    ],
)
def test_a_non_matching_if_none_match_is_200_with_the_body(api_client, etag, header):
    value = header.format(etag=etag, bare=etag.strip('"'))
    answer = api_client.get(RULES, HTTP_IF_NONE_MATCH=value)

    assert answer.status_code == 200
    assert answer["ETag"] == etag
    assert answer.json()["title"]


def test_a_head_is_answered_as_the_get(api_client, etag):
    assert api_client.head(RULES, HTTP_IF_NONE_MATCH=etag).status_code == 304
    assert api_client.head(RULES, HTTP_IF_NONE_MATCH='"stale"').status_code == 200


def test_no_view_reads_if_none_match_itself():
    """The header is matched in base/conditional.py alone (the schema's text aside)."""
    allowed = {ROOT / "base" / "conditional.py", ROOT / "base" / "openapi.py"}
    apps = ("accounts", "coins", "games", "leaderboard", "oauth", "preferences", "races", "web")
    readers: list[Path] = []
    for package in ("base", "spider_api", *apps):
        for path in (ROOT / package).rglob("*.py"):
            text = path.read_text()
            schema_text = path in allowed or path.name == "schema_docs.py"
            if not schema_text and ("If-None-Match" in text or "IF_NONE_MATCH" in text):
                readers.append(path.relative_to(ROOT))
    assert readers == []
