"""Game endpoints. Each view validates, calls one service or selector, and shapes the answer."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.exceptions import ValidationError
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games import selectors, services
from games.idempotency import HEADER, fingerprint, run_idempotent
from games.presenters import (
    action_json,
    deal_info,
    game_state,
    game_summary,
    hint_json,
    outcome_json,
)
from games.serializers import (
    ActedGameStateSerializer,
    ActionInputSerializer,
    GameCreateSerializer,
    GameLogSerializer,
    GamePageSerializer,
    GameStateSerializer,
    HintSerializer,
    PlayerPublicSerializer,
)
from spider_api.errors import DomainError
from spider_api.openapi import (
    BAD_REQUEST,
    FORBIDDEN,
    NOT_FOUND,
    THROTTLED,
    UNAUTHORIZED,
    ErrorSerializer,
    ThrottledErrorSerializer,
    error_example,
    error_response,
)
from spider_api.pagination import PageNumberPagination

MAX_HINT_N = 100
IDEMPOTENCY_PARAM = OpenApiParameter(
    HEADER,
    str,
    OpenApiParameter.HEADER,
    required=False,
    description="Any unique string (e.g. a UUID). A retry with the same key and body is answered "
    "from the first result (header `Idempotent-Replayed: true`) and applied once; the same key "
    "with another body is refused with 422 `idempotency_key_reused`.",
)

RULE_REFUSED = OpenApiResponse(
    ErrorSerializer,
    "A well-formed action the rules refuse; nothing changed and nothing was counted. Codes: "
    "`not_a_run`, `face_down`, `rank_mismatch`, `bad_count`, `bad_column` (same column twice), "
    "`empty_column_blocks_deal`, `stock_empty`, `nothing_to_undo`, `game_over`, "
    "`no_destination`, `idempotency_key_reused`.",
    examples=[
        error_example(
            "rank_mismatch",
            "7h cannot go on 9s in column 4: a card goes only on one exactly one rank higher",
        ),
        error_example(
            "empty_column_blocks_deal", "column 2 is empty: fill every empty column before you deal"
        ),
        error_example("nothing_to_undo", "there is no move or deal left to undo"),
    ],
)
KEY_REUSED = error_response(
    "The Idempotency-Key was already used with another body.",
    "idempotency_key_reused",
    "This Idempotency-Key was already used for a different request.",
)
POOL_EMPTY = OpenApiResponse(
    ThrottledErrorSerializer,
    "`pool_empty`: no solver-vetted deal is ready for this suit mode; retry after "
    "`retry_after` seconds (also the `Retry-After` header). Never an unvetted deal.",
    examples=[
        error_example(
            "pool_empty",
            "No vetted deal is ready for this suit mode yet; retry shortly.",
            retry_after=30,
        )
    ],
)
VERSION_CONFLICT = OpenApiResponse(
    ErrorSerializer,
    "`version_conflict`: the game is not at the `version` you sent. The body's `game` holds the "
    "current state; decide again from it.",
)


def _answer(request: Request, produce: Any) -> Response:
    """Run a POST under its Idempotency-Key (if any) and turn the result into a Response."""
    key = request.headers.get(HEADER)
    (code, body), replayed = run_idempotent(
        player=request.user,
        key=key,
        request_fingerprint=fingerprint(request.method, request.path, request.data),
        produce=produce,
    )
    response = Response(body, status=code)
    if replayed:
        response["Idempotent-Replayed"] = "true"
    return response


class GamesApi(APIView):
    """List your games; start a new one."""

    @property
    def throttle_scope(self) -> str | None:  # only creating a game is throttled here
        return "game_create" if self.request.method == "POST" else None

    @extend_schema(
        operation_id="games_list",
        tags=["games"],
        summary="Your games",
        parameters=[
            OpenApiParameter("status", str, enum=["in_progress", "won", "lost"], required=False),
            OpenApiParameter("page", int, required=False),
            OpenApiParameter("page_size", int, required=False, description="Up to 100."),
        ],
        # 404: a page past the last (or page 0), as DRF's paginator answers.
        responses={
            200: GamePageSerializer,
            400: BAD_REQUEST,
            401: UNAUTHORIZED,
            404: NOT_FOUND,
        },
    )
    def get(self, request: Request) -> Response:
        wanted = request.query_params.get("status")
        if wanted not in (None, "in_progress", "won", "lost"):
            raise ValidationError({"status": ["One of in_progress, won, lost."]})
        paginator = PageNumberPagination()
        page = paginator.paginate_queryset(
            selectors.games_of_player(player=request.user, status=wanted), request, view=self
        )
        return paginator.get_paginated_response([game_summary(g) for g in page])

    @extend_schema(
        operation_id="games_create",
        tags=["games"],
        summary="Start a game",
        description="Deals a new game of `suits` (1, 2 or 4), or the deal of game `replay_of` "
        "again. Your casual game in progress, if any, ends first: lost (abandoned) if you took "
        "an action in it, discarded if not. Staff may pass `seed` or `layout`.",
        request=GameCreateSerializer,
        parameters=[IDEMPOTENCY_PARAM],
        responses={
            201: GameStateSerializer,
            400: BAD_REQUEST,
            401: UNAUTHORIZED,
            403: FORBIDDEN,
            404: NOT_FOUND,
            422: KEY_REUSED,
            429: THROTTLED,
            503: POOL_EMPTY,
        },
        examples=[
            OpenApiExample("New 2-suit game", value={"suits": 2}, request_only=True),
            OpenApiExample("Same deal again", value={"replay_of": "6f1c..."}, request_only=True),
        ],
    )
    def post(self, request: Request) -> Response:
        serializer = GameCreateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        wanted = {k: data.get(k) for k in ("suits", "replay_of", "seed", "layout")}
        services.game_create_prepare(**wanted)  # vetting, if any, before the player's lock

        def produce() -> tuple[int, dict[str, Any]]:
            game = services.game_create(player=request.user, **wanted)
            return status.HTTP_201_CREATED, game_state(game)

        return _answer(request, produce)


class GameDetailApi(APIView):
    permission_classes = (AllowAny,)

    @extend_schema(
        operation_id="games_read",
        tags=["games"],
        summary="A game's state",
        description="Your game at any time; anyone's once it is over (then with its deal's seed). "
        "Face-down cards show only as `hidden` counts, the stock only as `deals_left`.",
        responses={200: GameStateSerializer, 401: UNAUTHORIZED, 404: NOT_FOUND},
    )
    def get(self, request: Request, game_id: str) -> Response:
        game = selectors.game_get_readable(viewer=request.user, game_id=game_id)
        return Response(game_state(game))


class GameActionsApi(APIView):
    """The game's log (GET) and the one way to play (POST)."""

    def get_permissions(self) -> list[Any]:
        return [AllowAny()] if self.request.method == "GET" else super().get_permissions()

    @property
    def throttle_scope(self) -> str | None:
        return "actions" if self.request.method == "POST" else None

    @extend_schema(
        operation_id="games_log",
        tags=["games"],
        summary="A game's action log",
        description="Every move (resolved to from/to/count), deal, undo and hint, in order. Public "
        "once the game is over, with the seed, so anyone can replay it.",
        responses={200: GameLogSerializer, 401: UNAUTHORIZED, 404: NOT_FOUND},
    )
    def get(self, request: Request, game_id: str) -> Response:
        game = selectors.game_get_readable(viewer=request.user, game_id=game_id)
        entries = [action_json(a) for a in selectors.game_log(game=game)]
        return Response({"game": str(game.id), "deal": deal_info(game), "actions": entries})

    @extend_schema(
        operation_id="games_act",
        tags=["games"],
        summary="Play: move, deal or undo",
        description="One action. `move` takes `from`; `to` omitted: the server picks the "
        "destination (one-tap); `count` omitted: the longest movable run that fits. Send "
        "`version` to apply only if the game has not moved on (else 409 with the current "
        "state). The answer is the new state plus `outcome`: what the action did.",
        request=ActionInputSerializer,
        parameters=[IDEMPOTENCY_PARAM],
        responses={
            200: ActedGameStateSerializer,
            400: BAD_REQUEST,
            401: UNAUTHORIZED,
            404: NOT_FOUND,
            409: VERSION_CONFLICT,
            422: RULE_REFUSED,
            429: THROTTLED,
        },
        examples=[
            OpenApiExample(
                "Move", value={"type": "move", "from": 3, "to": 7, "count": 2}, request_only=True
            ),
            OpenApiExample("One-tap", value={"type": "move", "from": 3}, request_only=True),
            OpenApiExample(
                "Deal at version 12", value={"type": "deal", "version": 12}, request_only=True
            ),
            OpenApiExample("Undo", value={"type": "undo"}, request_only=True),
        ],
    )
    def post(self, request: Request, game_id: str) -> Response:
        data = _validated_action(request.data)
        action = services.ActionRequest(
            type=data["type"], src=data.get("from"), dst=data.get("to"), count=data.get("count")
        )

        def produce() -> tuple[int, dict[str, Any]]:
            result = services.game_act(
                player=request.user,
                game_id=game_id,
                action=action,
                expected_version=data.get("version"),
            )
            body = game_state(result.game, result.board)
            body["outcome"] = outcome_json(result.applied, result.outcome)
            return status.HTTP_200_OK, body

        return _answer(request, produce)


def _validated_action(data: Any) -> dict[str, Any]:
    """Validate an action body; a column or count out of range gets its own code."""
    serializer = ActionInputSerializer(data=data)
    if serializer.is_valid():
        return serializer.validated_data
    errors = serializer.errors
    out_of_range = {
        field
        for field in ("from", "to", "count")
        if any(
            getattr(e, "code", None) in ("min_value", "max_value") for e in errors.get(field, [])
        )
    }
    if out_of_range and out_of_range == set(errors):
        field = sorted(out_of_range)[0]
        code = "bad_count" if field == "count" else "bad_column"
        raise DomainError(code, f"{field}: {errors[field][0]}", 400, extra={"errors": errors})
    raise ValidationError(errors)


class GameHintApi(APIView):
    throttle_scope = "actions"

    @extend_schema(
        operation_id="games_hint",
        tags=["games"],
        summary="A hint: the n-th best suggestion",
        description="Ranks the useful moves (and the deal) from what you can see — never the "
        "face-down cards or the stock — and returns the n-th best with its reason; ask with "
        "n+1 for the next alternative. It never suggests taking back the move just made; when "
        "nothing useful is left, `action` is null and `reason` says what to do. A hint served "
        "counts on the game (`hints`; the game is no longer perfect) and is logged (the "
        "version moves on); asking the same n again straight away is not counted twice.",
        parameters=[OpenApiParameter("n", int, required=False, description="0 = the best.")],
        responses={
            200: HintSerializer,
            400: BAD_REQUEST,
            401: UNAUTHORIZED,
            404: NOT_FOUND,
            422: RULE_REFUSED,
            429: THROTTLED,
        },
    )
    def get(self, request: Request, game_id: str) -> Response:
        raw = request.query_params.get("n", "0")
        if not (raw.isascii() and raw.isdigit()) or int(raw) > MAX_HINT_N:
            raise ValidationError({"n": [f"A whole number 0..{MAX_HINT_N}."]})
        result = services.game_hint(player=request.user, game_id=game_id, n=int(raw))
        return Response(hint_json(result))


class GameResignApi(APIView):
    throttle_scope = "actions"

    @extend_schema(
        operation_id="games_resign",
        tags=["games"],
        summary="Resign",
        description="Ends the game as lost. The seed and the log become public.",
        request=None,
        parameters=[IDEMPOTENCY_PARAM],
        responses={
            200: GameStateSerializer,
            400: BAD_REQUEST,  # bad_idempotency_key
            401: UNAUTHORIZED,
            404: NOT_FOUND,
            422: RULE_REFUSED,
            429: THROTTLED,
        },
    )
    def post(self, request: Request, game_id: str) -> Response:
        def produce() -> tuple[int, dict[str, Any]]:
            game = services.game_resign(player=request.user, game_id=game_id)
            return status.HTTP_200_OK, game_state(game)

        return _answer(request, produce)


class PlayerApi(APIView):
    permission_classes = (AllowAny,)

    @extend_schema(
        operation_id="players_read",
        tags=["players"],
        summary="A player's public statistics",
        description="Per suit mode: games played, wins, win rate, streaks, fastest win, fewest "
        "actions in a win, best score and the five best wins. No token needed (a token sent "
        "must be valid).",
        responses={200: PlayerPublicSerializer, 401: UNAUTHORIZED, 404: NOT_FOUND},
    )
    def get(self, request: Request, username: str) -> Response:
        player = selectors.player_by_username(username=username)
        return Response(
            {"username": player.username, "stats": selectors.player_stats(player=player)}
        )
