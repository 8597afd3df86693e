"""A JSON body's values must have the JSON types the schema says (base/serializers.py):
no 0/1/"true" for a boolean, no "3" for an integer (3.0 is JSON Schema's integer 3), no number
for a string. Each operation's request body goes through that one check."""

from __future__ import annotations

import pytest
from drf_spectacular.generators import SchemaGenerator
from rest_framework import serializers

from base.serializers import JsonInputSerializer, json_types

pytestmark = pytest.mark.django_db

API = "/api/v1"


@pytest.mark.parametrize("value", [0, 1, "true", "yes", "false", "1", []])
def test_daily_play_takes_only_a_json_boolean(auth_client, user, value):
    response = auth_client(user).post(f"{API}/daily/play", {"unranked": value}, format="json")

    assert response.status_code == 400
    assert response.json()["code"] == "invalid"
    assert response.json()["errors"] == {"unranked": ["Must be a valid boolean."]}


@pytest.mark.parametrize("value", [0, "true", "on"])
def test_a_draw_takes_only_a_json_boolean(auth_client, user, value):
    client = auth_client(user)
    code = client.post(f"{API}/races", {"suits": 1}, format="json").json()["code"]
    response = client.post(f"{API}/races/{code}/draw", {"accept": value}, format="json")

    assert response.status_code == 400
    assert response.json()["errors"] == {"accept": ["Must be a valid boolean."]}


@pytest.mark.parametrize(("field", "value"), [("username", 12345), ("password", 12345678901)])
def test_a_string_field_takes_no_number(api_client, field, value):
    body = {"username": "numbers", "password": "a long enough password", field: value}
    response = api_client.post(f"{API}/auth/register", body, format="json")

    assert response.status_code == 400
    assert response.json()["errors"] == {field: ["Not a valid string."]}


@pytest.mark.parametrize("value", ["1", 1.5, True])
def test_an_integer_field_takes_no_string_fraction_or_boolean(auth_client, user, value):
    client = auth_client(user)
    code = client.post(f"{API}/races", {"suits": 1}, format="json").json()["code"]
    response = client.post(f"{API}/races/{code}/settings", {"suits": 1, "time_limit_s": value})

    assert response.status_code == 400
    assert response.json()["errors"] == {"time_limit_s": ["A valid integer is required."]}


@pytest.mark.parametrize(("field", "value"), [("time_limit_s", 120.0), ("suits", 2.0)])
def test_a_whole_float_is_the_integer_the_schema_says_it_is(auth_client, user, field, value):
    """JSON Schema's `integer` admits 120.0: the server takes it as 120, as the schema says."""
    client = auth_client(user)
    code = client.post(f"{API}/races", {"suits": 1}, format="json").json()["code"]
    body = {"suits": 1, field: value}
    answer = client.post(f"{API}/races/{code}/settings", body, format="json")

    assert answer.status_code == 200, answer.json()
    settings = answer.json()
    assert settings[field] == int(value) and type(settings[field]) is int


def test_the_right_types_still_pass(auth_client, user):
    client = auth_client(user)
    code = client.post(f"{API}/races", {"suits": 1, "time_limit_s": None}, format="json")
    assert code.status_code == 201
    answer = client.post(f"{API}/races/{code.json()['code']}/settings", {"suits": 2})
    assert answer.status_code == 200


def test_field_kinds_map_to_json_types():
    assert json_types(serializers.BooleanField()) == (bool,)
    assert json_types(serializers.IntegerField()) == (int,)
    assert json_types(serializers.CharField()) == (str,)
    assert json_types(serializers.EmailField()) == (str,)
    assert json_types(serializers.ChoiceField(choices=["a", "b"])) == (str,)
    assert json_types(serializers.ChoiceField(choices=[1, 2])) == (int,)
    assert json_types(serializers.JSONField()) is None  # it checks its own


def test_every_request_body_is_a_strict_json_input():
    """No operation can take a body past the one check: each request serializer is one."""
    generator = SchemaGenerator()
    generator.parse(None, True)  # builds the endpoints
    seen = []
    for path, _regex, method, view in generator._get_paths_and_endpoints():
        serializer = view.schema.get_request_serializer()
        if serializer is None or method not in ("POST", "PUT", "PATCH"):
            continue
        seen.append((method, path))
        kind = serializer if isinstance(serializer, type) else type(serializer)
        assert issubclass(kind, JsonInputSerializer), (method, path, serializer)
    assert len(seen) >= 8, seen
