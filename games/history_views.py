"""A player's public game history: `GET /players/{username}/games` (no token needed)."""

from __future__ import annotations

from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from base.pagination import page_json, page_request
from games import schema_docs, selectors
from games.presenters import game_summary
from games.serializers import GamePageSerializer


@schema_docs.player_games
class PlayerGamesApi(APIView):
    """Public, like the player's statistics: only what anyone may replay is listed."""

    permission_classes = (AllowAny,)
    required_scopes = ()  # public data: no scope (base/scopes.py)
    OutputSerializer = GamePageSerializer

    def get(self, request: Request, username: str) -> Response:
        asked = page_request(request.query_params)
        player = selectors.player_by_username(username=username)
        games = selectors.player_finished_games(player=player)
        rows = games[asked.offset : asked.offset + asked.limit]
        return Response(page_json(asked, [game_summary(g) for g in rows]))
