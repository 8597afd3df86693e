"""POST/GET /games/{id}/analysis: who may ask, when, the limits, one analysis per game
(docs/rules.md#after-the-game-the-analysis)."""

from __future__ import annotations

import json

import pytest

from games import services
from games.engine import Action, Board, Layout, apply_action, public_view, replay
from games.models import Analysis, Deal, Game
from games.services import analyses
from games.solver import SolverBug
from tests.games.api.helpers import CARD_TOKEN, act, game_url, layout_json, new_game, ok, refused
from tests.leaderboard.helpers import DAILY_PLAY, line_of, play_api
from tests.solver.test_analysis import LOSE, TRAP, WIN

pytestmark = pytest.mark.django_db

TRAP_LAYOUT = layout_json(
    ["|KsQsJsTs9s8s7s6s5s4s3s2s", "|As", "|Ks", "|Qs", "|Js"], stock="Ts9s8s7s6s5s4s3s2sAs"
)


@pytest.fixture(autouse=True)
def _analysis_settings(settings) -> None:
    settings.ANALYSIS_IN_THREAD = False  # inline, after the asking request's commit
    settings.ANALYSIS_PROBE_MAX_NODES = {1: 60_000, 2: 60_000, 4: 60_000}
    settings.ANALYSIS_MAX_NODES = 1_000_000
    settings.REVIEW_SAMPLE = 6
    settings.REVIEW_WORLD_SEARCH_NODES = {1: 10_000, 2: 10_000, 4: 10_000}
    settings.REVIEW_MAX_NODES = {1: 1_000_000, 2: 1_000_000, 4: 1_000_000}
    settings.ANALYSIS_PROOF_MAX_NODES = 20_000


def analysis_url(game_id: str) -> str:
    return f"{game_url(game_id)}/analysis"


def lost_trap_game(client) -> str:
    """A staff layout lost on its first move (the Ace completes the run too early). Its
    known win is stored as the deal's line, as vetting stores one (the solver's beam does
    not find it from the start within these tests' budget)."""
    game_id = new_game(client, 1, layout=TRAP_LAYOUT)["id"]
    Deal.objects.filter(games=game_id).update(solver_line=[a.to_json() for a in WIN])
    ok(act(client, game_id, "move", from_=LOSE.src, to=LOSE.dst, count=1))
    ok(client.post(f"{game_url(game_id)}/resign"))
    return game_id


def test_the_owner_asks_waits_and_reads_where_the_win_was_lost(
    staff_client, api_client, django_capture_on_commit_callbacks
):
    game_id = lost_trap_game(staff_client)
    with django_capture_on_commit_callbacks(execute=True):
        body = ok(staff_client.post(analysis_url(game_id)), 202)
    assert (body["status"], body["result"]) == ("pending", None)
    body = ok(api_client.get(analysis_url(game_id)))  # public: the game is over
    assert body["status"] == "done" and body["nodes"] > 0
    result = body["result"]
    turn = result["turning_point"]
    assert (turn["index"], turn["seq"], turn["step"], turn["position"]) == (0, 1, 0, TRAP)
    assert turn["action"] == {"type": "move", "from": 1, "to": 0, "count": 1}
    assert turn["after"]["exhaustive"] is True
    assert result["last_win"]["index"] == 0 and result["proved_loss"]["index"] == 1
    assert result["unsettled"] == 0
    line = result["solver_line"]
    board = replay(Layout.parse(line["position"]), [Action.from_json(a) for a in line["actions"]])
    assert board.won  # the stored way through wins on replay
    # Asking again: the same analysis, 200 now it is done; still one row.
    again = ok(staff_client.post(analysis_url(game_id)))
    assert again == body
    assert Analysis.objects.count() == 1


def test_the_way_through_carries_its_tables_from_the_replays_turning_point(
    staff_client, api_client, django_capture_on_commit_callbacks
):
    """The web client steps through the solver's line without rules of its own: the body
    carries the public table before and after each of its actions, starting from the
    replay's table at the turning point and ending won."""
    game_id = lost_trap_game(staff_client)
    with django_capture_on_commit_callbacks(execute=True):
        staff_client.post(analysis_url(game_id))
    line = ok(api_client.get(analysis_url(game_id)))["result"]["solver_line"]
    tables = line["positions"]
    assert len(tables) == line["length"] + 1
    replay_step = ok(api_client.get(f"{game_url(game_id)}/positions/{line['from_seq']}"))
    assert tables[0]["columns"] == replay_step["columns"]
    assert tables[0]["deals_left"] == replay_step["deals_left"]
    board = Board(Layout.parse(line["position"]))
    for table, action in zip(tables[1:], line["actions"], strict=True):
        apply_action(board, Action.from_json(action))
        view = public_view(board)
        assert table == {k: view[k] for k in table}
        assert set(table) == {"columns", "deals_left", "runs_removed", "removed_suits", "won"}
    assert [t["won"] for t in tables] == [False] * line["length"] + [True]


def test_anyone_may_ask_for_a_public_finished_game_and_it_is_shared(
    staff_client, other_client, player_client, django_capture_on_commit_callbacks
):
    game_id = lost_trap_game(staff_client)
    with django_capture_on_commit_callbacks(execute=True):
        ok(other_client.post(analysis_url(game_id)), 202)
    mine = ok(player_client.post(analysis_url(game_id)))  # the one the other asked for
    assert mine["status"] == "done"
    assert Analysis.objects.get().requested_by.api_tokens.exists()  # a real player's
    assert Analysis.objects.count() == 1


def test_a_won_game_against_its_par(player_client, stock_pool, django_capture_on_commit_callbacks):
    stock_pool(1, 1)
    game_id = new_game(player_client, 1)["id"]
    play_api(player_client, game_id, line_of(game_id))
    with django_capture_on_commit_callbacks(execute=True):
        player_client.post(analysis_url(game_id))
    result = ok(player_client.get(analysis_url(game_id)))["result"]
    game = Game.objects.get(pk=game_id)
    assert result["outcome"] == "won" and result["turning_point"] is None
    assert result["length"] == game.actions and result["par"] == game.deal.par
    assert result["over_par"] == game.actions - game.deal.par


def test_never_while_the_game_runs(player_client, other_client, stock_pool):
    stock_pool(1, 1)
    game_id = new_game(player_client, 1)["id"]
    body = refused(player_client.post(analysis_url(game_id)), 409, "game_in_progress")
    assert set(body) == {"code", "detail"} and not CARD_TOKEN.search(str(body))
    refused(other_client.post(analysis_url(game_id)), 404, "not_found")
    refused(other_client.get(analysis_url(game_id)), 404, "not_found")
    refused(player_client.get(analysis_url(game_id)), 404, "no_analysis")
    assert Analysis.objects.count() == 0


def test_never_for_the_daily_before_its_day_closes(
    player_client, other_client, stock_pool, django_capture_on_commit_callbacks
):
    stock_pool(2, 1)
    game_id = player_client.post(DAILY_PLAY, {}, format="json").json()["id"]
    play_api(player_client, game_id, line_of(game_id)[:3])
    ok(player_client.post(f"{game_url(game_id)}/resign"))
    with django_capture_on_commit_callbacks(execute=True):
        body = refused(player_client.post(analysis_url(game_id)), 409, "daily_open")
    assert set(body) == {"code", "detail"} and not CARD_TOKEN.search(str(body))
    refused(other_client.post(analysis_url(game_id)), 404, "not_found")
    refused(other_client.get(analysis_url(game_id)), 404, "not_found")
    assert Analysis.objects.count() == 0


def test_asking_needs_a_token(api_client, staff_client):
    game_id = lost_trap_game(staff_client)
    refused(api_client.post(analysis_url(game_id)), 401, "not_authenticated")
    refused(api_client.get(analysis_url(game_id)), 404, "no_analysis")


def test_a_players_pending_analyses_are_limited(
    staff_client, settings, django_capture_on_commit_callbacks
):
    settings.ANALYSIS_PLAYER_PENDING_MAX = 1
    first, second = lost_trap_game(staff_client), lost_trap_game(staff_client)
    with django_capture_on_commit_callbacks(execute=False):  # nothing runs: stays pending
        ok(staff_client.post(analysis_url(first)), 202)
        response = staff_client.post(analysis_url(second))
        body = refused(response, 429, "analysis_quota")
        assert response["Retry-After"] == str(body["retry_after"])
        ok(staff_client.post(analysis_url(first)), 202)  # asking again never counts
    assert Analysis.objects.count() == 1


def test_a_players_analyses_per_day_are_limited(
    staff_client, settings, django_capture_on_commit_callbacks
):
    settings.ANALYSIS_PLAYER_DAILY_MAX = 1
    first, second = lost_trap_game(staff_client), lost_trap_game(staff_client)
    with django_capture_on_commit_callbacks(execute=True):
        ok(staff_client.post(analysis_url(first)), 202)
    body = refused(staff_client.post(analysis_url(second)), 429, "analysis_quota")
    assert 23 * 3600 < body["retry_after"] <= 24 * 3600 + 1


def test_the_queue_of_analyses_is_capped(
    staff_client, make_user, auth_client, settings, django_capture_on_commit_callbacks
):
    settings.ANALYSIS_QUEUE_MAX = 1
    first, second = lost_trap_game(staff_client), lost_trap_game(staff_client)
    with django_capture_on_commit_callbacks(execute=False):
        ok(staff_client.post(analysis_url(first)), 202)
        response = auth_client(make_user()).post(analysis_url(second))
    refused(response, 429, "analysis_queue_full")
    assert int(response["Retry-After"]) == settings.ANALYSIS_RETRY_AFTER_SECONDS


def test_a_solver_bug_fails_the_analysis_and_stores_no_line(
    staff_client, monkeypatch, django_capture_on_commit_callbacks
):
    def broken(**_):
        raise SolverBug("solver line replays but does not win")

    monkeypatch.setattr(analyses, "analysis_compute", broken)
    game_id = lost_trap_game(staff_client)
    with django_capture_on_commit_callbacks(execute=True):
        ok(staff_client.post(analysis_url(game_id)), 202)
    body = ok(staff_client.get(analysis_url(game_id)))
    assert body["status"] == "failed" and body["reason"].startswith("solver_bug")
    assert body["result"] is None
    # One per game, ever: asking again returns the failed one, it is not run again.
    assert ok(staff_client.post(analysis_url(game_id)))["status"] == "failed"


def test_the_run_is_idempotent(staff_client, django_capture_on_commit_callbacks):
    game_id = lost_trap_game(staff_client)
    with django_capture_on_commit_callbacks(execute=True):
        ok(staff_client.post(analysis_url(game_id)), 202)
    analysis = Analysis.objects.get()
    assert services.analysis_run(analysis_id=analysis.pk) is None  # done: nothing to do
    assert Analysis.objects.get().result == analysis.result


def _shape(value):
    """The keys of a JSON body, nested: what a client reads (a list by its first item)."""
    if isinstance(value, dict):
        return {k: _shape(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_shape(value[0])] if value else []
    return type(value).__name__ if value is not None else None


def test_the_schemas_example_has_the_shape_of_a_real_answer(
    staff_client, api_client, django_capture_on_commit_callbacks
):
    from games.schema_docs import ANALYSIS_EXAMPLE

    game_id = lost_trap_game(staff_client)
    with django_capture_on_commit_callbacks(execute=True):
        staff_client.post(analysis_url(game_id))
    body = ok(api_client.get(analysis_url(game_id)))
    real, example = _shape(body), _shape(ANALYSIS_EXAMPLE)
    # The real trap game's verdict was proved; its probes list is its own: compare keys.
    assert set(example) == set(real)
    assert set(example["result"]) == set(real["result"])
    for part in ("turning_point", "solver_line", "budget", "review"):
        assert example["result"][part].keys() == real["result"][part].keys(), part
    review, example_review = real["result"]["review"], example["result"]["review"]
    assert example_review["budget"].keys() == review["budget"].keys()
    if review["moves"]:
        assert example_review["moves"][0].keys() == review["moves"][0].keys()
    example_table = ANALYSIS_EXAMPLE["result"]["solver_line"]["positions"][0]
    real_table = body["result"]["solver_line"]["positions"][0]
    assert example_table.keys() == real_table.keys()
    assert _shape(example_table["columns"]) == _shape(real_table["columns"])
    assert example["result"]["probes"][0].keys() == real["result"]["probes"][0].keys()


def test_an_analysis_of_an_older_version_is_made_again_once(
    staff_client, api_client, django_capture_on_commit_callbacks
):
    """An older search's answer may claim more than it proved (a turning point with no
    proof after it): it is not served; it reads as pending and is run again, once."""
    from games.solver.analysis import ANALYSIS_VERSION

    game_id = lost_trap_game(staff_client)
    with django_capture_on_commit_callbacks(execute=True):
        ok(staff_client.post(analysis_url(game_id)), 202)
    old = {**Analysis.objects.get().result, "version": ANALYSIS_VERSION - 1}
    del old["last_win"], old["proved_loss"], old["unsettled"]
    Analysis.objects.update(result=old)

    with django_capture_on_commit_callbacks(execute=True) as queued:
        body = ok(api_client.get(analysis_url(game_id)))
    assert (body["status"], body["result"]) == ("pending", None)
    assert len(queued) == 1
    body = ok(api_client.get(analysis_url(game_id)))
    assert body["status"] == "done"
    assert body["result"]["version"] == ANALYSIS_VERSION and body["result"]["unsettled"] == 0
    assert Analysis.objects.count() == 1


def test_the_move_review_is_an_estimate_kept_apart_from_the_certain_claims(
    staff_client, api_client, settings, django_capture_on_commit_callbacks
):
    game_id = lost_trap_game(staff_client)
    with django_capture_on_commit_callbacks(execute=True):
        staff_client.post(analysis_url(game_id))
    result = ok(api_client.get(analysis_url(game_id)))["result"]
    review = result["review"]
    assert review["claim"] == "estimate"
    assert review["actions"] == result["line_length"] == 1
    assert review["budget"]["sample"] == settings.REVIEW_SAMPLE
    assert review["budget"]["max_seconds"] <= 60
    worst = (
        settings.REVIEW_SAMPLE
        * 5
        * (settings.REVIEW_WORLD_SEARCH_NODES[1] + settings.REVIEW_WORLD_PROOF_NODES)
    )
    assert review["nodes"] <= settings.REVIEW_MAX_NODES[1] + worst
    (move,) = review["moves"]
    assert (move["index"], move["step"]) == (0, 0)
    assert move["action"] == {"type": "move", "from": LOSE.src, "to": LOSE.dst, "count": 1}
    for key in ("chance_before", "chance_after", "chance_best"):
        chance = move[key]
        assert chance["won"] + chance["lost"] + chance["undecided"] == chance["sample"]
    assert move["sentence"].startswith("This move left ")
    # The estimate's words are its own: none of the certain analysis's.
    text = json.dumps(review)
    assert not any(w in text for w in ("winnable", "turning", "last_win", "proved"))


def test_no_review_word_leaves_the_server_while_the_game_is_open(player_client, stock_pool):
    """The better move is named only once the game is over: while it runs, no body the
    player can get about it (the game, its hints, its replay, the analysis refused) holds
    any part of a review."""
    stock_pool(2, 1)
    game_id = new_game(player_client, 2)["id"]
    responses = [
        player_client.get(game_url(game_id)),
        player_client.post(f"{game_url(game_id)}/hint", {}, format="json"),
        player_client.get(f"{game_url(game_id)}/positions/0"),
        player_client.post(analysis_url(game_id)),
        player_client.get(analysis_url(game_id)),
    ]
    assert [r.status_code for r in responses] == [200, 200, 409, 409, 404]
    for response in responses:
        text = response.content.decode()
        for word in ("review", "chance_best", "better", "drop", "grade", "blunder"):
            assert word not in text, (word, text[:200])
