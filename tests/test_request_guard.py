"""Bad requests answer a JSON 4xx before any view or query runs: bodies past the size and
nesting limits (base/parsers.py), path segments that cannot be a username or a race code
(base/converters.py: a NUL byte reached PostgreSQL and was a 500), a stream ticket or a
token that cannot be one, and a method the race stream does not take (CSRF's HTML 403 before).

Run on PostgreSQL too: `DATABASE_URL=postgres://... pytest tests/test_request_guard.py`.
"""

from __future__ import annotations

import json

import pytest
from django.test import Client

from accounts.models import User
from base import converters
from base.parsers import holds_nul, too_deep
from races.models import Table
from tests.conftest import token_of
from tests.games.api.helpers import NEAR_WIN, layout_json

pytestmark = pytest.mark.django_db

API = "/api/v1"
NESTED = '{"username":' * 30000  # 360 KB: was a RecursionError (500) on any JSON POST


def post_raw(client, path: str, body: str | bytes):
    return client.generic("POST", path, body, content_type="application/json")


@pytest.mark.parametrize("path", ["/auth/register", "/auth/token", "/games", "/races"])
def test_a_deeply_nested_body_is_400_json_too_deep(api_client, auth_client, user, path):
    client = auth_client(user) if path in ("/games", "/races") else api_client
    deep = "[" * 33 + "]" * 33  # small enough to pass the size limit: the depth refuses it
    response = post_raw(client, API + path, deep)

    assert response.status_code == 400
    assert response.json()["code"] == "json_too_deep"
    assert set(response.json()) == {"code", "detail"}


@pytest.mark.parametrize("path", ["/auth/register", "/games"])
def test_the_reported_body_is_refused_too_large_not_a_500(api_client, auth_client, user, path):
    client = auth_client(user) if path == "/games" else api_client
    response = post_raw(client, API + path, NESTED)

    assert response.status_code == 413
    assert response.json()["code"] == "body_too_large"


def test_nesting_at_the_limit_parses(api_client, settings):
    settings.REQUEST_JSON_MAX_DEPTH = 32
    response = post_raw(api_client, API + "/auth/register", "[" * 32 + "]" * 32)

    assert response.status_code == 400
    assert response.json()["code"] == "invalid"  # parsed: a list is not the body's object


def test_a_deeply_nested_body_under_the_size_limit_is_400(api_client, settings):
    settings.REQUEST_BODY_MAX_BYTES = 400_000
    response = post_raw(api_client, API + "/auth/register", NESTED)

    assert response.status_code == 400
    assert response.json()["code"] == "json_too_deep"


def test_the_size_limit_holds_without_a_content_length(api_client, settings):
    settings.REQUEST_BODY_MAX_BYTES = 1024
    body = '{"username": "' + "a" * 2000 + '", "password": "x"}'
    response = api_client.generic(
        "POST", API + "/auth/register", body, content_type="application/json"
    )
    assert response.status_code == 413
    # Content-Length said less than was sent: reading stops at the limit all the same.
    client = Client()
    response = client.generic(
        "POST",
        API + "/auth/register",
        body,
        content_type="application/json",
        CONTENT_LENGTH="10",
    )
    assert response.status_code == 400  # the first 10 bytes are not JSON


def test_brackets_inside_strings_do_not_count():
    assert not too_deep('{"a": "' + "[" * 100 + '"}', 4)
    assert not too_deep('{"a": "\\"' + "[" * 100 + '"}', 4)  # an escaped quote stays inside
    assert too_deep('{"a": "\\\\"' + "[" * 100 + '"}', 4)  # an escaped backslash does not
    assert too_deep("[" * 5, 4) and not too_deep("[" * 4, 4)
    assert not too_deep("[]" * 100, 1)


def test_an_unterminated_string_of_escaped_quotes_is_scanned_once(api_client):
    # A quadratic string scan would take minutes on this; the linear one answers at once.
    body = '"' + '\\"[' * 20000
    response = post_raw(api_client, API + "/auth/register", body)

    assert response.status_code == 400
    assert response.json()["code"] == "malformed_json"


NUL_PATHS = [
    ("get", "/players/%00"),
    ("get", "/players/%00/places"),
    ("get", "/players/x%00/races"),
    ("get", "/races/%00"),
    ("get", "/races/%00/events"),
    ("post", "/races/%00/ticket"),
    ("post", "/races/%00/sit"),
    ("post", "/races/AB%00CD/start"),
    ("get", "/players/" + "a" * 31),
    ("get", "/races/" + "A" * 17),
]


@pytest.mark.parametrize(("method", "path"), NUL_PATHS)
def test_a_path_segment_that_cannot_be_a_name_is_a_json_404(auth_client, user, method, path):
    response = getattr(auth_client(user), method)(API + path)

    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    assert response.json()["code"] == "not_found"


def test_the_converters_match_the_models():
    assert User._meta.get_field("username").max_length == converters.USERNAME_MAX_LENGTH
    assert Table._meta.get_field("code").max_length == converters.CODE_MAX_LENGTH


def test_a_real_username_and_code_still_route(auth_client, make_user):
    player = make_user("Some_one-9")
    client = auth_client(player)
    assert client.get(f"{API}/players/some_one-9").status_code == 200
    code = client.post(f"{API}/races", {"suits": 1}, format="json").json()["code"]
    assert client.get(f"{API}/races/{code.lower()}").status_code == 200


def test_a_ticket_or_token_that_cannot_be_one_is_refused_without_a_query(auth_client, user):
    client = auth_client(user)
    code = client.post(f"{API}/races", {"suits": 1}, format="json").json()["code"]

    ticket = Client().get(f"{API}/races/{code}/events?ticket=%00")
    assert ticket.status_code == 401 and ticket.json()["code"] == "invalid_ticket"
    token = Client().get(f"{API}/races/{code}/events", HTTP_AUTHORIZATION="Bearer a\x00b")
    assert token.status_code == 401 and token.json()["code"] == "invalid_token"
    api = Client().get(f"{API}/me", HTTP_AUTHORIZATION="Bearer a\x00b")
    assert api.status_code == 401 and api.json()["code"] == "invalid_token"


@pytest.mark.parametrize("method", ["post", "put", "patch", "delete"])
def test_another_method_on_the_race_stream_is_a_json_405(auth_client, user, method):
    client = auth_client(user)
    code = client.post(f"{API}/races", {"suits": 1}, format="json").json()["code"]
    response = getattr(Client(enforce_csrf_checks=True), method)(f"{API}/races/{code}/events")

    assert response.status_code == 405
    assert response["Content-Type"] == "application/json"
    assert response.json()["code"] == "method_not_allowed"
    assert response["Allow"] == "GET"


def test_empty_stream_query_values_are_refused(auth_client, user):
    client = auth_client(user)
    code = client.post(f"{API}/races", {"suits": 1}, format="json").json()["code"]
    bearer = {"HTTP_AUTHORIZATION": f"Bearer {token_of(user)}"}

    since = Client().get(f"{API}/races/{code}/events?since=", **bearer)
    assert since.status_code == 400 and since.json()["code"] == "invalid"
    ticket = Client().get(f"{API}/races/{code}/events?ticket=", **bearer)
    assert ticket.status_code == 401 and ticket.json()["code"] == "invalid_ticket"


def test_a_nul_anywhere_in_a_body_is_refused_before_any_view(auth_client, make_user):
    staff = make_user(is_staff=True)
    client = auth_client(staff)
    # A key no view reads, stored as it is in the table's layout (PostgreSQL: a DataError).
    layout = json.dumps(layout_json(NEAR_WIN))[:-1] + ', "note\\u0000": "x"}'
    body = '{"suits": 1, "layout": ' + layout + "}"
    response = post_raw(client, API + "/races", body)

    assert response.status_code == 400
    assert response.json()["code"] == "malformed_json"
    escaped = post_raw(client, API + "/auth/token", '{"username": "\\\\u0000", "password": "x"}')
    assert escaped.json()["code"] != "malformed_json"  # a backslash and "u0000": no NUL


def test_holds_nul_walks_without_recursion():
    deep: list = []
    node = deep
    for _ in range(10_000):
        node.append([])
        node = node[0]
    node.append("a\x00")
    assert holds_nul(deep)
    assert not holds_nul({"a": ["b", {"c": 1}]})
