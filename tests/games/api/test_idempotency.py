"""``Idempotency-Key``: a retried POST is answered from the first result and applied once;
keys belong to one player; only successful answers are kept."""

import pytest

from games.models import Deal, Game, IdempotentRequest
from tests.games.api.helpers import (
    GAMES_URL,
    act,
    game_record,
    new_game,
    ok,
    post_json,
    refused,
    resign_url,
)

pytestmark = pytest.mark.django_db

REPLAYED = "Idempotent-Replayed"


@pytest.fixture
def game(stock_pool, player_client):
    stock_pool(1, 2)
    return new_game(player_client, 1)


def test_a_retried_action_is_answered_from_the_first_result_and_applied_once(player_client, game):
    gid = game["id"]
    first = act(player_client, gid, "deal", key="deal-1")
    after_first = game_record(gid)

    retry = act(player_client, gid, "deal", key="deal-1")

    assert first.status_code == retry.status_code == 200
    assert REPLAYED not in first
    assert retry[REPLAYED] == "true"
    assert retry.json() == first.json()
    assert retry.json()["version"] == 1
    assert game_record(gid) == after_first  # nothing applied a second time
    assert len(after_first["log"]) == 1
    assert IdempotentRequest.objects.count() == 1


def test_the_stored_answer_is_returned_even_after_the_game_moved_on(player_client, game):
    gid = game["id"]
    first = ok(act(player_client, gid, "deal", key="k-deal"))
    ok(act(player_client, gid, "undo"))
    before = game_record(gid)

    retry = act(player_client, gid, "deal", key="k-deal")

    assert retry.json() == first  # the answer of the first request, not a second deal
    assert game_record(gid) == before


def test_the_same_key_with_another_body_is_422_idempotency_key_reused(player_client, game):
    gid = game["id"]
    ok(act(player_client, gid, "deal", key="k1"))
    before = game_record(gid)

    refused(act(player_client, gid, "undo", key="k1"), 422, "idempotency_key_reused")
    refused(act(player_client, gid, "deal", key="k1", version=1), 422, "idempotency_key_reused")
    refused(
        player_client.post(resign_url(gid), HTTP_IDEMPOTENCY_KEY="k1"),
        422,
        "idempotency_key_reused",
    )

    assert game_record(gid) == before


def test_keys_belong_to_one_player(stock_pool, player_client, other_client, game):
    theirs = new_game(other_client, 1)
    mine = ok(act(player_client, game["id"], "deal", key="shared"))

    response = act(other_client, theirs["id"], "deal", key="shared")

    assert response.status_code == 200
    assert REPLAYED not in response
    assert response.json()["id"] == theirs["id"] != mine["id"]
    assert game_record(theirs["id"])["version"] == 1
    assert IdempotentRequest.objects.filter(key="shared").count() == 2


def test_a_refused_action_under_a_key_stores_nothing(player_client, game):
    gid = game["id"]
    before = game_record(gid)

    refused(act(player_client, gid, "undo", key="k2"), 422, "nothing_to_undo")
    assert not IdempotentRequest.objects.exists()
    # The same refused request again is refused again (not replayed) ...
    again = act(player_client, gid, "undo", key="k2")
    refused(again, 422, "nothing_to_undo")
    assert REPLAYED not in again
    assert game_record(gid) == before

    # ... and a corrected request under the same key is applied, then replayed.
    corrected = act(player_client, gid, "deal", key="k2")
    assert corrected.status_code == 200
    assert REPLAYED not in corrected
    assert act(player_client, gid, "deal", key="k2")[REPLAYED] == "true"
    assert game_record(gid)["version"] == 1


def test_a_version_conflict_under_a_key_stores_nothing(player_client, game):
    gid = game["id"]
    ok(act(player_client, gid, "deal"))

    refused(act(player_client, gid, "undo", key="k3", version=0), 409, "version_conflict")
    refused(act(player_client, gid, "undo", key="k3", version=0), 409, "version_conflict")

    assert not IdempotentRequest.objects.exists()
    assert ok(act(player_client, gid, "undo", key="k4", version=1))["version"] == 2


def test_a_malformed_action_under_a_key_stores_nothing(player_client, game):
    gid = game["id"]

    refused(act(player_client, gid, "move", key="k5", from_="0"), 400, "invalid")

    assert not IdempotentRequest.objects.exists()
    assert ok(act(player_client, gid, "deal", key="k5"))["version"] == 1


def test_a_retried_game_creation_creates_one_game(player, player_client, game):
    assert Deal.objects.filter(state=Deal.State.POOLED).count() == 1
    first = post_json(player_client, GAMES_URL, {"suits": 1}, key="new-game")

    retry = post_json(player_client, GAMES_URL, {"suits": 1}, key="new-game")

    assert first.status_code == retry.status_code == 201
    assert retry[REPLAYED] == "true"
    assert retry.json() == first.json()
    assert Game.objects.filter(player=player).count() == 1  # the first game was discarded
    assert Deal.objects.filter(state=Deal.State.POOLED).count() == 0  # one deal taken


def test_a_retried_resign_answers_the_resignation_not_game_over(player_client, game):
    gid = game["id"]
    ok(act(player_client, gid, "deal"))
    first = player_client.post(resign_url(gid), HTTP_IDEMPOTENCY_KEY="bye")

    retry = player_client.post(resign_url(gid), HTTP_IDEMPOTENCY_KEY="bye")

    assert first.status_code == retry.status_code == 200
    assert retry.json() == first.json()
    assert retry[REPLAYED] == "true"
    refused(player_client.post(resign_url(gid)), 422, "game_over")  # without the key


def test_a_key_names_one_request_not_one_per_endpoint(player_client, game):
    gid = game["id"]
    ok(act(player_client, gid, "deal", key="once"))

    response = player_client.post(resign_url(gid), HTTP_IDEMPOTENCY_KEY="once")

    refused(response, 422, "idempotency_key_reused")
    assert game_record(gid)["status"] == "in_progress"


@pytest.mark.parametrize("key", ["k" * 256, ""])
def test_a_key_must_be_1_to_255_characters(player_client, game, key):
    before = game_record(game["id"])

    refused(act(player_client, game["id"], "deal", key=key), 400, "bad_idempotency_key")

    assert game_record(game["id"]) == before
    assert ok(act(player_client, game["id"], "deal", key="k" * 255))["version"] == 1


# -- the window: answers are kept for IDEMPOTENCY_WINDOW_SECONDS, then forgotten and pruned --------
def test_a_key_past_the_window_is_a_new_request(settings, clock, player_client, game):
    settings.IDEMPOTENCY_WINDOW_SECONDS = 3600
    gid = game["id"]
    first = ok(act(player_client, gid, "deal", key="k-old"))
    clock.advance(seconds=3599)
    assert act(player_client, gid, "deal", key="k-old")[REPLAYED] == "true"  # still inside

    clock.advance(seconds=2)
    late = act(player_client, gid, "deal", key="k-old")

    assert late.status_code == 200
    assert REPLAYED not in late
    assert late.json()["version"] == first["version"] + 1  # applied: a second deal
    assert len(game_record(gid)["log"]) == 2
    stored = IdempotentRequest.objects.get()  # the new answer replaced the forgotten one
    assert stored.created_at == clock.now
    # ... and a key past the window may carry another body: it is a new request.
    clock.advance(seconds=3601)
    ok(act(player_client, gid, "undo", key="k-old"))


def test_the_prune_task_deletes_answers_past_the_window_only(settings, clock, player_client, game):
    from games.tasks import prune_idempotent_requests

    settings.IDEMPOTENCY_WINDOW_SECONDS = 3600
    gid = game["id"]
    ok(act(player_client, gid, "deal", key="old-1"))
    ok(act(player_client, gid, "undo", key="old-2"))
    clock.advance(seconds=1800)
    ok(act(player_client, gid, "deal", key="new-1"))
    clock.advance(seconds=1801)  # the first two are past the window, the third is not

    assert prune_idempotent_requests.apply().get() == 2
    assert list(IdempotentRequest.objects.values_list("key", flat=True)) == ["new-1"]
    assert prune_idempotent_requests.apply().get() == 0  # safe to run again


def test_beat_prunes_the_answers_and_the_window_is_a_day_by_default():
    from django.conf import settings

    schedule = settings.CELERY_BEAT_SCHEDULE["prune-idempotent-requests"]
    assert schedule["task"] == "games.tasks.prune_idempotent_requests"
    assert settings.IDEMPOTENCY_WINDOW_SECONDS == 24 * 3600
