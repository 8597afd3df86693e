"""A request body the published schema admits is one the server takes, and one the server
refuses with 400 `invalid` the schema refuses too: the rules across a body's fields
(JsonInputSerializer.schema_rules), a PATCH that names nothing, a whole float for an integer.
(make faults' schemathesis run checks the same of generated bodies.)"""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from tests.schema_check import published_schema

pytestmark = pytest.mark.django_db

API = "/api/v1"


def admits(method: str, path: str, body: dict[str, Any]) -> bool:
    """Whether the schema admits ``body`` as the request body of ``method path``."""
    schema = published_schema()
    request = schema["paths"][path][method]["requestBody"]
    body_schema = request["content"]["application/json"]["schema"]
    # Formats asserted, as a client's validator (and schemathesis) does.
    validator = Draft202012Validator(
        {**body_schema, "components": schema["components"]},
        format_checker=Draft202012Validator.FORMAT_CHECKER,
    )
    return validator.is_valid(body)


def test_a_patch_of_nothing_is_refused_as_documented(auth_client, user):
    client = auth_client(user)
    for path, body in ((f"{API}/me", {}), (f"{API}/me/settings", {})):
        operation = published_schema()["paths"][path]["patch"]
        assert operation["requestBody"].get("required") is True  # no body is `{}` as well
        assert not admits("patch", path, body)
        answer = client.patch(path, body, format="json")
        assert answer.status_code == 400 and answer.json()["code"] == "invalid"


@pytest.mark.parametrize(
    ("path", "body", "taken"),
    [
        (f"{API}/me", {"email": ""}, True),
        (f"{API}/me", {"extra": 1}, False),  # email is what PATCH /me changes: required
        (f"{API}/me/settings", {"sound": True}, True),
        (f"{API}/me/settings", {"sound": True, "colour": "red"}, False),  # no such setting
    ],
)
def test_a_patch_is_taken_exactly_when_the_schema_admits_it(auth_client, user, path, body, taken):
    assert admits("patch", path, body) is taken
    answer = auth_client(user).patch(path, body, format="json")
    assert (answer.status_code == 200) is taken, answer.json()


@pytest.mark.parametrize(
    ("body", "taken"),
    [
        ({"suits": 1}, True),
        ({"suits": 2.0}, True),  # JSON Schema's integer 2
        ({}, False),  # suits, or a replay
        ({"suits": 1.5}, False),
        ({"replay_of": str(uuid.UUID(int=1)), "suits": 1}, False),  # a replay takes its suits
        ({"suits": 1, "seed": 7, "layout": {}}, False),  # one of seed, layout
    ],
)
def test_a_new_game_is_taken_exactly_when_the_schema_admits_it(auth_client, user, body, taken):
    assert admits("post", f"{API}/games", body) is taken
    answer = auth_client(user).post(f"{API}/games", body, format="json")
    assert (answer.status_code == 201) is taken, answer.json()


@pytest.mark.parametrize(
    ("body", "taken"),
    [
        ({"type": "deal", "to": None}, True),
        ({"type": "move", "from": 3.0}, True),
        ({"type": "move"}, False),  # a move names its source column
        ({"type": "undo", "from": 3}, False),  # an undo names none
        ({"type": "deal", "count": 2}, False),
    ],
)
def test_an_action_is_well_formed_exactly_when_the_schema_admits_it(auth_client, user, body, taken):
    client = auth_client(user)
    game = client.post(f"{API}/games", {"suits": 1}, format="json").json()
    assert admits("post", f"{API}/games/{{game_id}}/actions", body) is taken
    answer = client.post(f"{API}/games/{game['id']}/actions", body, format="json")
    # Well formed, the rules may still refuse it in this position (422): not the schema's.
    assert (answer.status_code != 400) is taken, answer.json()


@pytest.mark.parametrize(
    ("uri", "taken"),
    [
        ("https://app.example/cb?x=1", True),
        ("http://localhost:8000/cb", True),
        ("http://app*/cb", False),  # DOT takes it; not a plain host name
        (" https://app.example/cb", False),  # taken as it is sent, untrimmed
        ("https://app.example/c b", False),
        ("https://app.example/cb#frag", False),
    ],
)
def test_a_redirect_uri_is_taken_exactly_when_the_schema_admits_it(auth_client, user, uri, taken):
    body = {"name": "Stats", "redirect_uris": [uri]}
    assert admits("post", f"{API}/apps", body) is taken
    answer = auth_client(user).post(f"{API}/apps", body, format="json")
    assert (answer.status_code == 201) is taken, answer.json()


def test_the_daily_challenge_admits_only_the_standard_rules(auth_client, user):
    body = {"deal_over_gap": True}
    assert not admits("post", f"{API}/daily/play", body)
    answer = auth_client(user).post(f"{API}/daily/play", body, format="json")
    assert answer.status_code == 400 and "deal_over_gap" in answer.json()["errors"]
