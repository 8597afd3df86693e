"""A player's public game history: `GET /players/{username}/games` (no token needed)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games import selectors
from games.presenters import game_summary
from games.serializers import GamePageSerializer
from spider_api.openapi import NOT_FOUND, bad_request, invalid_example
from spider_api.pagination import PAGE_PARAMETERS, page_json, page_request


class PlayerGamesApi(APIView):
    """Public, like the player's statistics: only what anyone may replay is listed."""

    permission_classes = (AllowAny,)
    required_scopes = ()  # public data: no scope (spider_api/scopes.py)
    OutputSerializer = GamePageSerializer

    @extend_schema(
        operation_id="players_games",
        tags=["players"],
        summary="A player's finished games",
        description="The player's games that are over and open to everyone, newest first, a "
        "page at a time: casual games, and daily games once their day has closed (a race's "
        "games are the race's). Each opens as a replay (`GET /games/{id}/positions/{step}`). "
        "A game in play is never listed. No token needed (a token sent must be valid).",
        parameters=PAGE_PARAMETERS,
        responses={
            200: OutputSerializer,
            400: bad_request(invalid_example("page", "A whole number 1..100000."), body=False),
            404: NOT_FOUND,
        },
    )
    def get(self, request: Request, username: str) -> Response:
        asked = page_request(request.query_params)
        player = selectors.player_by_username(username=username)
        games = selectors.player_finished_games(player=player)
        rows = games[asked.offset : asked.offset + asked.limit]
        return Response(page_json(asked, [game_summary(g) for g in rows]))
