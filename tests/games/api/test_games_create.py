"""POST /api/v1/games: new deals from the pool, replays, staff seeds and layouts, and the
one-casual-game-at-a-time rule."""

import pytest
from rest_framework.test import APIClient

from games.engine import MAX_SEED, Board, deal_layout
from games.models import Deal, Game, PlayerStats
from tests.conftest import token_of
from tests.games.api.helpers import (
    GAMES_URL,
    STATE_KEYS,
    act,
    game_record,
    game_url,
    layout_json,
    new_game,
    ok,
    player_url,
    post_json,
    public_columns,
    refused,
    resign_url,
)

pytestmark = pytest.mark.django_db


def _stats(client, username, suits=1):
    body = ok(client.get(player_url(username)))
    return next(s for s in body["stats"] if s["suits"] == suits)


# -- a new game from the pool -----------------------------------------------------------------
@pytest.mark.parametrize("suits", [1, 2, 4])
def test_a_new_game_is_dealt_from_the_pool_in_the_documented_shape(
    stock_pool, player, player_client, suits
):
    (deal,) = stock_pool(suits, 1)

    response = player_client.post(GAMES_URL, {"suits": suits}, format="json")

    body = ok(response, 201)
    assert set(body) >= STATE_KEYS  # the schema test holds the rest to the schema
    game = Game.objects.get(pk=body["id"])
    assert (game.player, game.deal_id, game.kind) == (player, deal.pk, "casual")
    assert body["suits"] == suits
    assert body["kind"] == "casual"
    assert body["status"] == "in_progress"
    assert body["end_reason"] is None
    assert (body["score"], body["actions"], body["version"]) == (500, 0, 0)
    assert (body["undos"], body["hints"], body["runs_removed"]) == (0, 0, 0)
    assert body["removed_suits"] == []
    assert body["deals_left"] == 5
    # The deal's layout: 6/6/6/6/5/5/5/5/5/5, only the last card of each column face up.
    assert body["columns"] == public_columns(Board(deal_layout(suits, deal.seed)))
    assert [c["hidden"] for c in body["columns"]] == [5, 5, 5, 5, 4, 4, 4, 4, 4, 4]
    assert all(len(c["cards"]) == 1 for c in body["columns"])
    assert (body["stuck"], body["perfect"], body["can_undo"]) == (False, False, False)
    assert body["ranked"] is True
    assert body["replay_of"] is None
    assert body["created_at"].endswith("Z")
    assert (body["started_at"], body["finished_at"], body["elapsed_ms"]) == (None, None, 0)
    assert body["daily"] is None
    assert body["deal"] is None  # no seed while the game runs
    deal.refresh_from_db()
    assert deal.state == Deal.State.DEALT


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"suits": 3},
        {"suits": 0},
        {"suits": None},
        {"suits": [1]},
        {"suits": 1.5},
        {"suits": "1"},
        {"suits": True},
    ],
)
def test_suits_must_be_1_2_or_4(stock_pool, player_client, body):
    (deal,) = stock_pool(1, 1)

    response = player_client.post(GAMES_URL, body, format="json")

    refused(response, 400, "invalid")
    assert "suits" in response.json()["errors"]
    assert not Game.objects.exists()
    deal.refresh_from_db()
    assert deal.state == Deal.State.POOLED


def test_creating_a_game_needs_a_token(stock_pool, api_client):
    stock_pool(1, 1)

    refused(api_client.post(GAMES_URL, {"suits": 1}, format="json"), 401, "not_authenticated")
    api_client.credentials(HTTP_AUTHORIZATION="Bearer " + "0" * 40)
    refused(api_client.post(GAMES_URL, {"suits": 1}, format="json"), 401, "invalid_token")
    assert not Game.objects.exists()


# -- staff only: seed and layout --------------------------------------------------------------
@pytest.mark.parametrize(
    "extra",
    [{"seed": 7}, {"seed": "7"}, {"layout": layout_json(["|Ks"])}],
    ids=["seed", "seed-string", "layout"],
)
def test_a_player_may_not_choose_a_seed_or_layout(stock_pool, player, player_client, extra):
    stock_pool(1, 2)
    running = new_game(player_client, 1)
    ok(act(player_client, running["id"], "deal"))
    before = game_record(running["id"])

    response = player_client.post(GAMES_URL, {"suits": 1, **extra}, format="json")

    refused(response, 403, "staff_only")
    # Nothing happened: no game, no deal taken, the game in progress is not abandoned.
    assert Game.objects.count() == 1
    assert game_record(running["id"]) == before
    assert Deal.objects.filter(state=Deal.State.POOLED).count() == 1
    assert not Deal.objects.exclude(source=Deal.Source.POOL).exists()
    assert not PlayerStats.objects.filter(player=player).exists()


@pytest.mark.parametrize("seed", [0, 123456789, MAX_SEED, str(MAX_SEED)])
def test_staff_may_deal_any_seed(staff_client, seed):
    body = new_game(staff_client, 2, seed=seed)

    assert body["columns"] == public_columns(Board(deal_layout(2, int(seed))))
    assert body["deals_left"] == 5
    assert body["ranked"] is False  # staff games never enter a leaderboard
    assert body["deal"] is None
    game = Game.objects.select_related("deal").get(pk=body["id"])
    assert game.staff_made is True
    assert (game.deal.seed, game.deal.source) == (int(seed), Deal.Source.STAFF_SEED)

    over = ok(staff_client.post(resign_url(body["id"])))
    assert over["deal"]["seed"] == str(seed)  # a decimal string, exact for 64 bits
    assert over["deal"]["layout"] is None


def test_the_same_staff_seed_reuses_its_deal(staff_client):
    first = new_game(staff_client, 1, seed=99)
    ok(staff_client.post(resign_url(first["id"])))

    second = new_game(staff_client, 1, seed=99)

    games = Game.objects.in_bulk([first["id"], second["id"]])
    assert len(games) == 2
    assert len({g.deal_id for g in games.values()}) == 1
    assert Deal.objects.filter(seed_db=99).count() == 1


def test_a_staff_seed_still_in_the_pool_leaves_it(staff_client, stock_pool):
    (pooled,) = stock_pool(1, 1)

    new_game(staff_client, 1, seed=pooled.seed)

    pooled.refresh_from_db()
    assert pooled.state == Deal.State.DEALT  # seen by staff: never dealt to a player


@pytest.mark.parametrize("seed", [-1, MAX_SEED + 1, "12a", "", 1.5, True, None, "\u00b2"])
def test_a_staff_seed_must_be_a_64_bit_unsigned_integer(staff_client, seed):
    response = staff_client.post(GAMES_URL, {"suits": 1, "seed": seed}, format="json")

    refused(response, 400, "invalid")
    assert not Game.objects.exists()


def test_staff_may_set_up_an_exact_layout(staff_client):
    layout = layout_json(
        ["9s8s|KsQs", "|", "Ah|2h", "|7s6s5s"], stock="As" * 4 + "2s" * 4 + "3s" * 2
    )

    body = new_game(staff_client, 2, layout=layout)

    assert body["columns"][:4] == [
        {"hidden": 2, "cards": ["Ks", "Qs"]},
        {"hidden": 0, "cards": []},
        {"hidden": 1, "cards": ["2h"]},
        {"hidden": 0, "cards": ["7s", "6s", "5s"]},
    ]
    assert body["columns"][4:] == [{"hidden": 0, "cards": []}] * 6
    assert body["deals_left"] == 1
    assert body["ranked"] is False
    game = Game.objects.select_related("deal").get(pk=body["id"])
    assert game.staff_made is True
    assert game.deal.source == Deal.Source.STAFF_LAYOUT

    over = ok(staff_client.post(resign_url(body["id"])))
    assert over["deal"]["seed"] is None
    assert over["deal"]["layout"] == game.deal.layout_notation


@pytest.mark.parametrize(
    ("layout", "code"),
    [
        ({"columns": [{"down": [], "up": ["Ks"]}] * 9, "stock": []}, "bad_layout"),
        (layout_json(["|Xx"]), "bad_card"),
        (layout_json(["|Ks"], stock="AsAsAs"), "bad_layout"),  # not a multiple of ten
        (layout_json(["|Ah"]), "bad_layout"),  # no hearts in a 1-suit game
        (layout_json(["|" + "As" * 9]), "bad_layout"),  # 1 suit has eight aces of spades
        (layout_json(["Ks|"]), "bad_layout"),  # face-down cards need a face-up card on top
        ("not a layout", "bad_layout"),
    ],
)
def test_an_impossible_layout_is_400_with_the_engines_code(staff_client, layout, code):
    response = staff_client.post(GAMES_URL, {"suits": 1, "layout": layout}, format="json")

    refused(response, 400, code)
    assert not Game.objects.exists()
    assert not Deal.objects.exists()


@pytest.mark.parametrize(
    "columns", [[], ["|KsQsJsTs9s8s7s6s5s4s3s2sAs"]], ids=["no-cards", "one-completed-run"]
)
def test_a_layout_with_nothing_to_play_is_not_a_game_in_progress(staff_client, columns):
    response = staff_client.post(
        GAMES_URL, {"suits": 1, "layout": layout_json(columns)}, format="json"
    )

    if response.status_code == 201:  # won at once, then
        assert response.json()["status"] == "won"
    else:  # or refused as a layout no one can play
        refused(response, 400, "bad_layout")


@pytest.mark.parametrize(
    "body",
    [
        {"suits": 1, "seed": 5, "layout": layout_json(["|Ks"])},
        {"suits": 1, "seed": 5, "replay_of": "7b1bf82d-5478-45f8-8c84-a942b4e150af"},
    ],
)
def test_at_most_one_of_replay_of_seed_layout(staff_client, body):
    refused(staff_client.post(GAMES_URL, body, format="json"), 400, "invalid")
    assert not Game.objects.exists()


# -- replay_of --------------------------------------------------------------------------------
def test_replaying_your_finished_game_deals_the_same_deal_unranked(stock_pool, player_client):
    stock_pool(1, 1)
    first = new_game(player_client, 1)
    ok(act(player_client, first["id"], "deal"))
    ok(player_client.post(resign_url(first["id"])))

    # The pool is empty now: a replay does not need it.
    body = ok(player_client.post(GAMES_URL, {"replay_of": first["id"]}, format="json"), 201)

    assert body["replay_of"] == first["id"]
    assert body["ranked"] is False
    assert body["suits"] == 1
    assert body["columns"] == first["columns"]
    assert (body["version"], body["status"]) == (0, "in_progress")
    games = Game.objects.in_bulk([first["id"], body["id"]])
    assert len({g.deal_id for g in games.values()}) == 1
    assert Deal.objects.count() == 1


def test_anyone_may_replay_a_finished_game_of_another_player(
    stock_pool, player_client, other_client
):
    stock_pool(2, 1)
    theirs = new_game(other_client, 2)
    ok(other_client.post(resign_url(theirs["id"])))

    body = ok(player_client.post(GAMES_URL, {"replay_of": theirs["id"]}, format="json"), 201)

    assert body["suits"] == 2  # the replayed deal's mode; no suits needed
    assert body["columns"] == theirs["columns"]
    assert body["ranked"] is False
    assert Game.objects.get(pk=body["id"]).deal_id == Game.objects.get(pk=theirs["id"]).deal_id


def test_another_players_running_game_cannot_be_replayed(stock_pool, player_client, other_client):
    stock_pool(1, 2)
    mine = new_game(player_client, 1)
    ok(act(player_client, mine["id"], "deal"))
    before = game_record(mine["id"])
    theirs = new_game(other_client, 1)

    response = player_client.post(GAMES_URL, {"replay_of": theirs["id"]}, format="json")

    refused(response, 404, "not_found")
    assert game_record(mine["id"]) == before  # not abandoned
    assert Game.objects.count() == 2


def test_a_replay_takes_its_deals_suit_mode(stock_pool, player_client):
    stock_pool(1, 1)
    first = new_game(player_client, 1)
    ok(player_client.post(resign_url(first["id"])))

    response = post_json(player_client, GAMES_URL, {"replay_of": first["id"], "suits": 1})

    assert "suits" in refused(response, 400, "invalid")["errors"]


def test_replaying_an_unknown_game_is_404_and_a_bad_id_is_400(player_client):
    unknown = "7b1bf82d-5478-45f8-8c84-a942b4e150af"
    refused(player_client.post(GAMES_URL, {"replay_of": unknown}, format="json"), 404, "not_found")
    refused(player_client.post(GAMES_URL, {"replay_of": "nope"}, format="json"), 400, "invalid")
    assert not Game.objects.exists()


def test_replaying_your_running_game_abandons_it_and_deals_it_again(stock_pool, player_client):
    stock_pool(1, 1)
    first = new_game(player_client, 1)
    ok(act(player_client, first["id"], "deal"))

    body = ok(player_client.post(GAMES_URL, {"replay_of": first["id"]}, format="json"), 201)

    old = Game.objects.get(pk=first["id"])
    assert (old.status, old.end_reason) == ("lost", "abandoned")
    assert body["columns"] == first["columns"]
    assert body["replay_of"] == first["id"]


@pytest.mark.django_db(transaction=True)  # the request commits: a dangling link would fail
def test_replaying_your_running_game_before_any_action(stock_pool, player):
    stock_pool(1, 1)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token_of(player)}")
    client.raise_request_exception = False
    first = new_game(client, 1)

    response = client.post(GAMES_URL, {"replay_of": first["id"]}, format="json")

    body = ok(response, 201)
    assert body["columns"] == first["columns"]
    assert not Game.objects.filter(pk=first["id"]).exists()  # discarded, as any unplayed game
    assert body["replay_of"] is None  # it links no row that is gone
    assert body["ranked"] is False  # still a replay of a deal the player has seen


# -- one casual game at a time ----------------------------------------------------------------
def test_a_new_game_abandons_the_running_one_if_it_had_an_action(
    stock_pool, player, player_client, clock
):
    stock_pool(1, 2)
    first = new_game(player_client, 1)
    ok(act(player_client, first["id"], "deal"))
    clock.advance(seconds=42)

    second = new_game(player_client, 1)

    old = ok(player_client.get(game_url(first["id"])))
    assert (old["status"], old["end_reason"]) == ("lost", "abandoned")
    assert old["finished_at"] is not None
    assert old["elapsed_ms"] == 42_000
    assert old["deal"] is not None  # over: the deal is public now
    stats = _stats(player_client, player.username)
    assert (stats["played"], stats["wins"], stats["current_loss_streak"]) == (1, 0, 1)
    running = Game.objects.filter(player=player, status="in_progress")
    assert [str(g.id) for g in running] == [second["id"]]


def test_a_new_game_discards_the_running_one_if_it_had_no_action(stock_pool, player, player_client):
    stock_pool(1, 2)
    first = new_game(player_client, 1)

    second = new_game(player_client, 1)

    refused(player_client.get(game_url(first["id"])), 404, "not_found")
    assert not Game.objects.filter(pk=first["id"]).exists()
    assert list(Game.objects.filter(player=player).values_list("id", flat=True)) == [
        Game.objects.get(pk=second["id"]).pk
    ]
    assert _stats(player_client, player.username)["played"] == 0


def test_other_players_games_are_not_touched(stock_pool, player_client, other_client):
    stock_pool(1, 2)
    theirs = new_game(other_client, 1)
    ok(act(other_client, theirs["id"], "deal"))
    before = game_record(theirs["id"])

    new_game(player_client, 1)

    assert game_record(theirs["id"]) == before


# -- ranked -----------------------------------------------------------------------------------
def test_a_staff_members_ordinary_game_is_ranked_and_counts(stock_pool, staff, staff_client):
    stock_pool(1, 1)

    body = new_game(staff_client, 1)
    ok(staff_client.post(resign_url(body["id"])))

    assert body["ranked"] is True
    assert Game.objects.get(pk=body["id"]).staff_made is False
    assert _stats(staff_client, staff.username)["played"] == 1
