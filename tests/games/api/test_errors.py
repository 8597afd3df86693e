"""Every way an action can fail: the status, the `{"code", "detail"}` body, and that a refused
request changed nothing at all (same version and counters, no log row, the snapshot byte for
byte)."""

import pytest

from games.models import IdempotentRequest
from tests.games.api.helpers import (
    NEAR_WIN,
    act,
    actions_url,
    game_record,
    game_url,
    layout_json,
    new_game,
    ok,
    refused,
    resign_url,
)

pytestmark = pytest.mark.django_db

UNKNOWN = "7b1bf82d-5478-45f8-8c84-a942b4e150af"

# 1 suit. Column 0: 9s 7s face up on a hidden 2s; 8s; 3s; a lone Ks; column 4 empty; 5s x5.
POSITION = ["2s|9s7s", "|8s", "|3s", "|Ks", "|", "|5s", "|5s", "|5s", "|5s", "|5s"]
STOCK = "6s" * 8 + "4s" * 2


@pytest.fixture
def game(staff_client):
    return new_game(staff_client, 1, layout=layout_json(POSITION, stock=STOCK))


def _post_raw(client, game_id, data, content_type="application/json"):
    return client.post(actions_url(game_id), data=data, content_type=content_type)


# -- 422: what the rules refuse ---------------------------------------------------------------
@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"type": "move", "from": 0, "to": 4, "count": 2}, "not_a_run"),  # 9s 7s
        ({"type": "move", "from": 0, "to": 4, "count": 3}, "face_down"),  # 2s is face down
        ({"type": "move", "from": 0, "to": 4, "count": 4}, "bad_count"),  # it holds 3 cards
        ({"type": "move", "from": 0, "count": 4}, "bad_count"),  # the same, one-tap
        ({"type": "move", "from": 1, "to": 2, "count": 1}, "rank_mismatch"),  # 8s on 3s
        ({"type": "move", "from": 1, "to": 2}, "rank_mismatch"),  # nothing fits
        ({"type": "move", "from": 1, "to": 1, "count": 1}, "bad_column"),  # same column
        ({"type": "move", "from": 1, "to": 1}, "bad_column"),
        ({"type": "move", "from": 4, "to": 1}, "bad_count"),  # column 4 is empty
        ({"type": "move", "from": 3}, "no_destination"),  # Ks: never a whole column to empty
        ({"type": "move", "from": 2}, "no_destination"),  # nothing takes a 3s
        ({"type": "deal"}, "empty_column_blocks_deal"),
        ({"type": "undo"}, "nothing_to_undo"),
    ],
)
def test_an_action_the_rules_refuse_is_422_with_the_engines_code(staff_client, game, body, code):
    gid = game["id"]
    before = game_record(gid)

    refused(staff_client.post(actions_url(gid), body, format="json"), 422, code)

    assert game_record(gid) == before
    # And it cost nothing: the next legal action is the first one.
    legal = ok(act(staff_client, gid, "move", from_=0, to=1, count=1))
    assert (legal["version"], legal["actions"], legal["score"]) == (1, 1, 499)


def test_dealing_from_an_empty_stock_is_stock_empty(staff_client):
    game = new_game(staff_client, 1, layout=layout_json(["|Ks"] * 8 + ["|As", "|3s"]))
    before = game_record(game["id"])

    refused(act(staff_client, game["id"], "deal"), 422, "stock_empty")

    assert game_record(game["id"]) == before


def test_the_last_deal_then_stock_empty(staff_client, game):
    gid = game["id"]
    ok(act(staff_client, gid, "move", from_=0, to=4, count=1))  # fill the empty column
    ok(act(staff_client, gid, "deal"))
    before = game_record(gid)

    refused(act(staff_client, gid, "deal"), 422, "stock_empty")

    assert game_record(gid) == before


@pytest.mark.parametrize(
    "body",
    [{"type": "move", "from": 0, "to": 1, "count": 1}, {"type": "deal"}, {"type": "undo"}],
)
def test_no_action_is_taken_in_a_finished_game(staff_client, game, body):
    gid = game["id"]
    ok(act(staff_client, gid, "move", from_=0, to=1, count=1))
    ok(staff_client.post(resign_url(gid)))
    before = game_record(gid)

    refused(staff_client.post(actions_url(gid), body, format="json"), 422, "game_over")
    refused(staff_client.post(resign_url(gid)), 422, "game_over")

    assert game_record(gid) == before


def test_no_action_is_taken_in_a_won_game(staff_client):
    game = new_game(staff_client, 1, layout=layout_json(NEAR_WIN))
    ok(act(staff_client, game["id"], "move", from_=1, to=0))
    before = game_record(game["id"])

    refused(act(staff_client, game["id"], "undo"), 422, "game_over")
    refused(staff_client.post(resign_url(game["id"])), 422, "game_over")

    assert game_record(game["id"]) == before
    assert before["status"] == "won"


# -- 400: malformed input ---------------------------------------------------------------------
def test_malformed_json_is_400_malformed_json(staff_client, game):
    before = game_record(game["id"])

    refused(_post_raw(staff_client, game["id"], '{"type": "move", "from": '), 400, "malformed_json")

    assert game_record(game["id"]) == before


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("from", "3"),
        ("from", True),
        ("from", 3.5),
        ("from", None),
        ("from", [3]),
        ("to", "1"),
        ("to", False),
        ("to", 1.5),
        ("count", "1"),
        ("count", True),
        ("version", "0"),
        ("version", True),
        ("version", 0.5),
        ("version", -1),
    ],
)
def test_a_field_of_the_wrong_type_is_400_invalid(staff_client, game, field, value):
    # (3.0 for a column is JSON Schema's integer 3: taken, tests/test_schema_admits.py.)
    gid = game["id"]
    before = game_record(gid)
    body = {"type": "move", "from": 0, "to": 1, "count": 1, field: value}

    error = refused(staff_client.post(actions_url(gid), body, format="json"), 400, "invalid")

    assert set(error["errors"]) == {field}
    assert game_record(gid) == before


@pytest.mark.parametrize(
    ("fields", "code"),
    [
        ({"from": -1}, "bad_column"),
        ({"from": 10}, "bad_column"),
        ({"to": -1}, "bad_column"),
        ({"to": 10}, "bad_column"),
        ({"count": 0}, "bad_count"),
        ({"count": -2}, "bad_count"),
        ({"count": 105}, "bad_count"),
    ],
)
def test_a_column_or_count_out_of_range_is_422_with_its_code(staff_client, game, fields, code):
    """The same code and status as the engine gives, e.g. for the same column twice."""
    gid = game["id"]
    before = game_record(gid)
    body = {"type": "move", "from": 0, "to": 1, "count": 1, **fields}

    error = refused(staff_client.post(actions_url(gid), body, format="json"), 422, code)

    assert set(error) == {"code", "detail"}

    assert game_record(gid) == before


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"type": "jump"},
        {"type": None},
        {"type": "hint"},  # a log entry, not something a player posts here
        {"type": "move"},  # no source column
        {"type": "move", "to": 1},
        {"type": "deal", "from": 0},
        {"type": "undo", "count": 1},
        [],
        ["move", 0, 1],
        "deal",
        7,
    ],
)
def test_a_malformed_action_is_400_invalid(staff_client, game, body):
    before = game_record(game["id"])

    refused(staff_client.post(actions_url(game["id"]), body, format="json"), 400, "invalid")

    assert game_record(game["id"]) == before


def test_a_body_that_is_not_json_is_415(staff_client, game):
    before = game_record(game["id"])

    response = _post_raw(staff_client, game["id"], "type=deal", "application/x-www-form-urlencoded")

    refused(response, 415, "unsupported_media_type")
    assert game_record(game["id"]) == before


# -- 404: unknown, or not yours ---------------------------------------------------------------
def test_acting_on_an_unknown_game_is_404(player_client):
    refused(act(player_client, UNKNOWN, "deal"), 404, "not_found")
    refused(player_client.post(resign_url(UNKNOWN)), 404, "not_found")
    refused(player_client.get(game_url(UNKNOWN)), 404, "not_found")


def test_someone_elses_running_game_is_404_for_reading_acting_and_resigning(
    staff_client, game, player_client
):
    gid = game["id"]
    ok(act(staff_client, gid, "move", from_=0, to=1, count=1))
    before = game_record(gid)

    refused(player_client.get(game_url(gid)), 404, "not_found")
    refused(player_client.get(actions_url(gid)), 404, "not_found")
    refused(act(player_client, gid, "undo"), 404, "not_found")
    refused(act(player_client, gid, "undo", version=1), 404, "not_found")
    refused(player_client.post(resign_url(gid)), 404, "not_found")

    assert game_record(gid) == before


def test_someone_elses_finished_game_may_be_read_but_not_played(staff_client, game, player_client):
    gid = game["id"]
    ok(act(staff_client, gid, "move", from_=0, to=1, count=1))
    ok(staff_client.post(resign_url(gid)))
    before = game_record(gid)

    ok(player_client.get(game_url(gid)))
    refused(act(player_client, gid, "undo"), 404, "not_found")
    refused(player_client.post(resign_url(gid)), 404, "not_found")

    assert game_record(gid) == before


# -- 401: no token, or a bad one --------------------------------------------------------------
@pytest.mark.parametrize(
    ("header", "code"),
    [
        (None, "not_authenticated"),
        ("Bearer " + "f" * 40, "invalid_token"),
        ("Bearer", "invalid_token"),
    ],
)
def test_playing_needs_a_valid_token(api_client, staff_client, game, header, code):
    gid = game["id"]
    if header:
        api_client.credentials(HTTP_AUTHORIZATION=header)
    before = game_record(gid)

    refused(act(api_client, gid, "deal"), 401, code)
    refused(api_client.post(resign_url(gid)), 401, code)
    refused(api_client.post(resign_url(gid), HTTP_IDEMPOTENCY_KEY="k1"), 401, code)

    assert game_record(gid) == before
    assert not IdempotentRequest.objects.exists()
