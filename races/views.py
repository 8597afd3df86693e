"""Race endpoints. Each view validates, calls one service or selector, and answers the
whole table (the stream, GET /races/{code}/events, is races/stream.py)."""

from __future__ import annotations

from django.conf import settings
from django.utils import timezone
from rest_framework import status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from base.players import player_of
from base.scopes import RACE_PLAY
from games.presenters import iso
from races import schema_docs, selectors, services
from races.presenters import table_json
from races.serializers import (
    DrawSerializer,
    PlayerRacesSerializer,
    SitSerializer,
    TableOpenSerializer,
    TableSerializer,
    TableSettingsSerializer,
    TicketSerializer,
)
from races.stream import STREAM_SCOPES


def _answer(table_code: str, code: int = status.HTTP_200_OK) -> Response:
    table = selectors.table_by_code(code=table_code)
    return Response(table_json(table, timezone.now()), status=code)


@schema_docs.races
class RacesApi(APIView):
    required_scopes = (RACE_PLAY,)
    throttle_scope = "game_create"
    InputSerializer = TableOpenSerializer
    OutputSerializer = TableSerializer

    def post(self, request: Request) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        table = services.table_open(
            player=player_of(request),
            suits=data["suits"],
            time_limit_s=data.get("time_limit_s"),
            seed=data.get("seed"),
            layout=data.get("layout"),
            deal_over_gap=data["deal_over_gap"],
        )
        return _answer(table.code, status.HTTP_201_CREATED)


@schema_docs.race_detail
class RaceDetailApi(APIView):
    required_scopes = (RACE_PLAY,)  # watching as you
    OutputSerializer = TableSerializer

    def get(self, request: Request, code: str) -> Response:
        # A read writes nothing: the timers fire from the sweep (every stream process each
        # RACE_TICK_SECONDS, and Celery beat's sweep_races), and from any action at the table.
        return _answer(code)


class _TableCommandApi(APIView):
    """A POST /races/{code}/<command>: validate, call one service, answer the whole table."""

    required_scopes = (RACE_PLAY,)
    throttle_scope = "actions"
    OutputSerializer = TableSerializer


@schema_docs.race_sit
class RaceSitApi(_TableCommandApi):
    InputSerializer = SitSerializer

    def post(self, request: Request, code: str) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        services.seat_sit(player=player_of(request), code=code, **serializer.validated_data)
        return _answer(code)


@schema_docs.race_stand
class RaceStandApi(_TableCommandApi):
    def post(self, request: Request, code: str) -> Response:
        services.seat_stand(player=player_of(request), code=code)
        return _answer(code)


@schema_docs.race_ready
class RaceReadyApi(_TableCommandApi):
    def post(self, request: Request, code: str) -> Response:
        services.seat_ready(player=player_of(request), code=code, ready=True)
        return _answer(code)


@schema_docs.race_unready
class RaceUnreadyApi(_TableCommandApi):
    def post(self, request: Request, code: str) -> Response:
        services.seat_ready(player=player_of(request), code=code, ready=False)
        return _answer(code)


@schema_docs.race_start
class RaceStartApi(_TableCommandApi):
    takes_pool_deal = True  # the race's deal: counted in the `pool` scope too

    def post(self, request: Request, code: str) -> Response:
        services.race_start(player=player_of(request), code=code)
        return _answer(code)


@schema_docs.race_again
class RaceAgainApi(_TableCommandApi):
    takes_pool_deal = True  # the race's deal: counted in the `pool` scope too

    def post(self, request: Request, code: str) -> Response:
        services.table_again(player=player_of(request), code=code)
        return _answer(code)


@schema_docs.race_settings
class RaceSettingsApi(_TableCommandApi):
    InputSerializer = TableSettingsSerializer

    def post(self, request: Request, code: str) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        services.table_settings(player=player_of(request), code=code, **serializer.validated_data)
        return _answer(code)


@schema_docs.race_resign
class RaceResignApi(_TableCommandApi):
    def post(self, request: Request, code: str) -> Response:
        services.race_resign(player=player_of(request), code=code)
        return _answer(code)


@schema_docs.race_draw
class RaceDrawApi(_TableCommandApi):
    InputSerializer = DrawSerializer

    def post(self, request: Request, code: str) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        services.race_draw(player=player_of(request), code=code, **serializer.validated_data)
        return _answer(code)


@schema_docs.race_ticket
class RaceTicketApi(APIView):
    required_scopes = (RACE_PLAY,)
    throttle_scope = "streams"  # shared with streams opened with a token (races/stream.py)
    OutputSerializer = TicketSerializer

    def post(self, request: Request, code: str) -> Response:
        ticket = services.ticket_issue(player=player_of(request), code=code)
        body = {  # a plain dict, the shape of OutputSerializer
            "ticket": ticket.key,
            "expires_at": iso(ticket.expires_at),
            "events_url": f"{settings.RACE_STREAM_URL}/api/v1/races/{ticket.table.code}"
            f"/events?ticket={ticket.key}",
        }
        return Response(body, status=status.HTTP_201_CREATED)


@schema_docs.race_events
class RaceEventsApi(APIView):
    """Documentation only: the stream is served by races.stream.race_events (async)."""

    required_scopes = STREAM_SCOPES

    def get(self, request: Request, code: str) -> Response:  # pragma: no cover
        raise NotImplementedError


@schema_docs.player_races
class PlayerRacesApi(APIView):
    permission_classes = (AllowAny,)
    OutputSerializer = PlayerRacesSerializer

    def get(self, request: Request, username: str) -> Response:
        return Response(selectors.race_stats(username=username))
