"""Game endpoints. Each view validates, calls one service or selector, and answers with a
presenter's dict; what the schema says of it is in games/schema_docs.py."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers, status
from rest_framework.exceptions import ValidationError
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from base.errors import DomainError
from base.pagination import page_json, page_request
from base.permissions import READ_METHODS
from base.players import player_of
from base.scopes import GAME_PLAY
from coins.presenters import award_json, summary_json
from coins.selectors import coins_summary
from games import schema_docs, selectors, services
from games.idempotency import HEADER, fingerprint, run_idempotent
from games.models import Analysis
from games.presenters import (
    action_json,
    analysis_json,
    deal_info,
    game_state,
    game_summary,
    hint_json,
    outcome_json,
)
from games.serializers import (
    ActedGameStateSerializer,
    ActionInputSerializer,
    AnalysisResultSerializer,
    GameCreateSerializer,
    GameFilterSerializer,
    GameLogSerializer,
    GamePageSerializer,
    GameStateSerializer,
    HintAskSerializer,
    HintSerializer,
    PlayerPublicSerializer,
    PositionSerializer,
    action_input_fast,
)


def _answer(request: Request, produce: Any) -> Response:
    """Run a POST under its Idempotency-Key (if any) and turn the result into a Response."""
    key = request.headers.get(HEADER)
    (code, body), replayed = run_idempotent(
        player=player_of(request),
        key=key,
        request_fingerprint=lambda: fingerprint(request.method or "", request.path, request.data),
        produce=produce,
    )
    response = Response(body, status=code)
    if replayed:
        response["Idempotent-Replayed"] = "true"
    return response


@schema_docs.games
class GamesApi(APIView):
    """List your games (GET: FilterSerializer, PageSerializer); start a new one (POST:
    InputSerializer, OutputSerializer)."""

    required_scopes = (GAME_PLAY,)  # listing your games (to resume one) is playing too
    FilterSerializer = GameFilterSerializer
    PageSerializer = GamePageSerializer
    InputSerializer = GameCreateSerializer
    OutputSerializer = GameStateSerializer

    @property
    def throttle_scope(self) -> str | None:  # only creating a game is throttled here
        return "game_create" if self.request.method == "POST" else None

    @property
    def takes_pool_deal(self) -> bool:  # a new game: counted in the `pool` scope too
        return self.request.method == "POST"

    def get(self, request: Request) -> Response:
        # A plain dict: "?status=" is a wrong status, not a missing one (as a QueryDict it is).
        filters = self.FilterSerializer(data=request.query_params.dict())
        filters.is_valid(raise_exception=True)
        asked = page_request(request.query_params)
        games = selectors.games_of_player(
            player=player_of(request), status=filters.validated_data.get("status")
        )
        rows = games[asked.offset : asked.offset + asked.limit]
        return Response(page_json(asked, [game_summary(g) for g in rows]))

    def post(self, request: Request) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        wanted = {k: data.get(k) for k in ("suits", "replay_of", "seed", "layout")}
        services.game_create_prepare(**wanted)  # vetting, if any, before the player's lock

        def produce() -> tuple[int, dict[str, Any]]:
            game = services.game_create(
                player=player_of(request), deal_over_gap=data["deal_over_gap"], **wanted
            )
            return status.HTTP_201_CREATED, game_state(game)

        return _answer(request, produce)


@schema_docs.game_detail
class GameDetailApi(APIView):
    permission_classes = (AllowAny,)
    OutputSerializer = GameStateSerializer

    def get(self, request: Request, game_id: str) -> Response:
        game = selectors.game_get_readable(viewer=request.user, game_id=game_id)
        return Response(game_state(game))


@schema_docs.game_actions
class GameActionsApi(APIView):
    """The game's log (GET: LogSerializer) and the one way to play (POST: InputSerializer,
    OutputSerializer)."""

    required_scopes = {"POST": (GAME_PLAY,)}  # the log (GET) is public
    LogSerializer = GameLogSerializer
    InputSerializer = ActionInputSerializer
    OutputSerializer = ActedGameStateSerializer

    def get_permissions(self) -> list[Any]:
        public = self.request.method in READ_METHODS
        return [AllowAny()] if public else list(super().get_permissions())

    @property
    def throttle_scope(self) -> str | None:
        return "actions" if self.request.method == "POST" else None

    def get(self, request: Request, game_id: str) -> Response:
        game = selectors.game_get_readable(viewer=request.user, game_id=game_id)
        entries = [action_json(a) for a in selectors.game_log(game=game)]
        body = {"game": str(game.id), "deal": deal_info(game), "actions": entries}
        return Response({**body, "deal_over_gap": game.deal_over_gap})

    def post(self, request: Request, game_id: str) -> Response:
        data = _validated_action(self.InputSerializer, request.data)
        action = services.ActionRequest(
            type=data["type"], src=data.get("from"), dst=data.get("to"), count=data.get("count")
        )

        def produce() -> tuple[int, dict[str, Any]]:
            result = services.game_act(
                player=player_of(request),
                game_id=game_id,
                action=action,
                expected_version=data.get("version"),
            )
            body = game_state(result.game, result.board)
            body["outcome"] = outcome_json(result.applied, result.outcome)
            body["coins"] = award_json(result.coins) if result.coins is not None else None
            return status.HTTP_200_OK, body

        return _answer(request, produce)


def _validated_action(input_serializer: type[ActionInputSerializer], data: Any) -> dict[str, Any]:
    """Validate an action body. A column or count out of range is refused as the engine
    refuses it (422 `bad_column`/`bad_count`): one code, one status, whichever path finds it."""
    fast = action_input_fast(data)
    if fast is not None:
        return fast
    serializer = input_serializer(data=data)
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
        raise DomainError(code, f"{field}: {errors[field][0]}", 422)
    raise ValidationError(errors)


@schema_docs.game_hint
class GameHintApi(APIView):
    required_scopes = (GAME_PLAY,)
    throttle_scope = "hints"  # a scope of its own: a hint at a new position is a search
    InputSerializer = HintAskSerializer
    OutputSerializer = HintSerializer

    def post(self, request: Request, game_id: str) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        result = services.game_hint(
            player=player_of(request),
            game_id=game_id,
            n=serializer.validated_data["n"],
            expected_version=serializer.validated_data.get("version"),
        )
        return Response(hint_json(result))


@schema_docs.game_resign
class GameResignApi(APIView):
    required_scopes = (GAME_PLAY,)
    throttle_scope = "actions"
    OutputSerializer = GameStateSerializer

    def post(self, request: Request, game_id: str) -> Response:
        def produce() -> tuple[int, dict[str, Any]]:
            game = services.game_resign(player=player_of(request), game_id=game_id)
            return status.HTTP_200_OK, game_state(game)

        return _answer(request, produce)


@schema_docs.player
class PlayerApi(APIView):
    permission_classes = (AllowAny,)
    OutputSerializer = PlayerPublicSerializer

    def get(self, request: Request, username: str) -> Response:
        player = selectors.player_by_username(username=username)
        return Response(
            {
                "username": player.username,
                "stats": selectors.player_stats(player=player),
                "coins": summary_json(coins_summary(player_id=player.pk)),
            }
        )


@schema_docs.game_position
class GamePositionApi(APIView):
    permission_classes = (AllowAny,)
    OutputSerializer = PositionSerializer

    def get(self, request: Request, game_id: str, step: int) -> Response:
        body = selectors.game_position(viewer=request.user, game_id=game_id, step=step)
        # A finished game never changes; "private": an unclosed daily is its owner's only.
        response = Response(body)
        response["Cache-Control"] = "private, max-age=86400"
        return response


@schema_docs.game_analysis
class GameAnalysisApi(APIView):
    """The post-game analysis of a game: ask for it (POST), read it (GET)."""

    required_scopes = {"POST": (GAME_PLAY,)}  # reading it (GET) is public

    def get_permissions(self) -> list[Any]:
        public = self.request.method in READ_METHODS
        return [AllowAny()] if public else list(super().get_permissions())

    @property
    def throttle_scope(self) -> str | None:
        return "actions" if self.request.method == "POST" else None

    class OutputSerializer(serializers.Serializer):
        game = serializers.UUIDField()
        status = serializers.ChoiceField(choices=Analysis.Status.choices)
        reason = serializers.CharField(help_text="Why it failed (`failed` only).")
        requested_at = serializers.DateTimeField()
        finished_at = serializers.DateTimeField(allow_null=True)
        nodes = serializers.IntegerField(help_text="Solver positions spent.")
        seconds = serializers.FloatField(allow_null=True)
        result = AnalysisResultSerializer(allow_null=True, help_text="Once `done`.")

    def get(self, request: Request, game_id: str) -> Response:
        analysis = services.analysis_read(viewer=request.user, game_id=game_id)
        return Response(analysis_json(analysis))

    def post(self, request: Request, game_id: str) -> Response:
        analysis = services.analysis_ask(player=player_of(request), game_id=game_id)
        code = status.HTTP_202_ACCEPTED if analysis.status == Analysis.Status.PENDING else 200
        return Response(analysis_json(analysis), status=code)
