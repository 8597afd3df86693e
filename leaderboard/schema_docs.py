"""The OpenAPI description of the leaderboard and daily challenge endpoints
(leaderboard/views.py): each view's operations, their answers and examples. Each function
reads the serializers off the view class it decorates."""

from __future__ import annotations

from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_view,
)

from base.openapi import (
    NOT_FOUND,
    RetryErrorSerializer,
    ValidationErrorSerializer,
    View,
    bad_request,
    error_example,
    error_response,
    etag_parameters,
    invalid_example,
    not_modified,
)
from base.pagination import PAGE_PARAMETERS
from leaderboard import selectors, services
from leaderboard.serializers import MONTH_PATTERN, STANDARD_RULES_ONLY

DAILY_RETRY_AFTER = services.DAILY_RETRY_AFTER_SECONDS

# Boards answer with an ETag; send it back as If-None-Match for a 304 when nothing changed.
BOARD_PARAMETERS = [
    *PAGE_PARAMETERS,
    *etag_parameters("the board", "`public, max-age=N`: the board may be cached that long."),
]

NOT_MODIFIED = not_modified("the board")

NO_CHALLENGE = error_response(
    "No challenge that day (`no_challenge`), or not published yet (`future_date`).",
    "no_challenge",
    "There was no challenge on 2026-01-01.",
    error_example("future_date", "The challenge of 2026-12-31 is not published yet."),
)

POOL_EMPTY = OpenApiResponse(
    RetryErrorSerializer,
    "`pool_empty`: today's challenge could not be made, no vetted deal being ready yet; or "
    "`database_unavailable`. Retry "
    "after `retry_after` seconds (also the `Retry-After` header).",
    examples=[
        error_example(
            "pool_empty",
            "No vetted deal is ready for this suit mode yet; retry shortly.",
            retry_after=30,
        )
    ],
)

DAILY_NOT_READY = OpenApiResponse(
    RetryErrorSerializer,
    "`daily_not_ready`: today's challenge is not made yet (the worker makes each a day ahead); "
    "it has been asked for. Or `database_unavailable`. Retry after `retry_after` seconds (also "
    "the `Retry-After` header).",
    examples=[
        error_example(
            "daily_not_ready", services.DailyNotReady.detail, retry_after=DAILY_RETRY_AFTER
        )
    ],
)


def leaderboard(view: View) -> View:
    """The operations of LeaderboardApi."""
    return extend_schema_view(
        get=extend_schema(
            operation_id="leaderboard",
            tags=["leaderboard"],
            summary="The public leaderboard of won games",
            description="Ranked wins (vetted deals, standard rules; never staff-made games or "
            "replays) by score, then shorter time, then earlier finish. Periods are UTC calendar "
            "periods: today, this week (from Monday), this month. No token needed.",
            parameters=[
                OpenApiParameter(
                    "suits", {"$ref": "#/components/schemas/SuitsEnum"}, required=True
                ),
                OpenApiParameter(
                    "period",
                    {"type": "string", "enum": list(selectors.PERIODS), "default": "all"},
                    required=False,
                    description="UTC calendar periods: all time, today, this week, this month.",
                ),
                *BOARD_PARAMETERS,
            ],
            responses={
                200: view.OutputSerializer,
                304: NOT_MODIFIED,
                400: bad_request(invalid_example("suits", "One of 1, 2, 4."), body=False),
            },
        ),
    )(view)


def daily(view: View) -> View:
    """The operations of DailyApi."""
    return extend_schema_view(
        get=extend_schema(
            operation_id="daily_read",
            tags=["daily"],
            summary="The daily challenge",
            description="Today's 2-suit challenge (or `?date=YYYY-MM-DD` for a past one, or "
            "tomorrow's, whose commitment is published ahead of time): the SHA-256 commitment to "
            "its seed, and once the day has closed the seed and nonce, so anyone can verify "
            "`sha256('spider-daily:v1:<date>:<suits>:<deal_version>:<seed>:<nonce>')`. With a "
            "token, your own attempt too (once your ranked attempt has ended: where it stands "
            "among the day's and a spoiler-free share text) and your streaks of days.",
            parameters=[
                OpenApiParameter(
                    "date",
                    {"type": "string", "format": "date"},
                    required=False,
                    description="YYYY-MM-DD (UTC); today when omitted.",
                )
            ],
            responses={
                200: view.OutputSerializer,
                400: error_response(
                    "The date is not a date (`bad_date`; `?date=` neither: omit it for today).",
                    "bad_date",
                    "'2026-13-01' is not a date: use YYYY-MM-DD.",
                    invalid_example("date", "..."),  # the filter serializer's, for any other field
                ),
                404: NO_CHALLENGE,
                503: DAILY_NOT_READY,
            },
        ),
    )(view)


def daily_days(view: View) -> View:
    """The operations of DailyDaysApi."""
    return extend_schema_view(
        get=extend_schema(
            operation_id="daily_days",
            tags=["daily"],
            summary="The days that had a challenge",
            description="Only days whose challenge exists, up to today (a day with none is not "
            "listed), between `before` and `after` (both exclusive, both optional). Nearest the "
            "bound first: newest first, except with `after` alone, oldest first (the days just "
            "after it). `closed`: the day is over, its seed revealed and its deal open to practice "
            "(POST /daily/play with its `date`). No token needed.",
            parameters=[
                OpenApiParameter(
                    "before",
                    {"type": "string", "format": "date"},
                    required=False,
                    description="Only days before this one (YYYY-MM-DD, UTC).",
                ),
                OpenApiParameter(
                    "after",
                    {"type": "string", "format": "date"},
                    required=False,
                    description="Only days after this one (YYYY-MM-DD, UTC).",
                ),
                *PAGE_PARAMETERS,
            ],
            responses={
                200: OpenApiResponse(
                    view.OutputSerializer,
                    "A page of days.",
                    examples=[
                        OpenApiExample(
                            "days",
                            value={
                                "page": 1,
                                "page_size": 7,
                                "has_next": True,
                                "results": [
                                    {
                                        "date": "2026-12-01",
                                        "suits": 2,
                                        "closed": True,
                                        "winners": 3,
                                    },
                                    {
                                        "date": "2026-11-30",
                                        "suits": 2,
                                        "closed": True,
                                        "winners": 0,
                                    },
                                ],
                            },
                            response_only=True,
                        )
                    ],
                ),
                400: OpenApiResponse(
                    ValidationErrorSerializer,
                    "A bound is not a date (`bad_date`) or a page parameter is wrong (`invalid`).",
                    examples=[
                        error_example("bad_date", "'2026-13-01' is not a date: use YYYY-MM-DD."),
                        invalid_example("page_size", "A whole number 1..100."),
                    ],
                ),
            },
        ),
    )(view)


def daily_play(view: View) -> View:
    """The operations of DailyPlayApi."""
    return extend_schema_view(
        post=extend_schema(
            operation_id="daily_play",
            tags=["daily"],
            summary="Play today's challenge",
            description="Your game on today's deal: the daily game you have in progress, else your "
            "one ranked attempt, else (with `unranked: true`) a practice game that does not rank. "
            "It does not end your casual game. 201 when a game was created, 200 when resumed. "
            "Hints are allowed and do not cost the ranking; they show on your leaderboard entry. "
            "With the `date` of a past day whose challenge has closed: a practice game on that "
            "day's deal, a casual game that never ranks nor earns coins (like any new game it ends "
            "your casual game in progress); always 201.",
            request=view.InputSerializer,
            responses={
                200: OpenApiResponse(view.OutputSerializer, "Your daily game in progress."),
                201: OpenApiResponse(
                    view.OutputSerializer, "A new daily game, or a past day's practice."
                ),
                400: bad_request(
                    invalid_example("unranked", "Must be a valid boolean."),
                    invalid_example("deal_over_gap", STANDARD_RULES_ONLY),
                    error_example("bad_date", "'2026-13-01' is not a date: use YYYY-MM-DD."),
                ),
                404: NO_CHALLENGE,
                503: POOL_EMPTY,
                409: error_response(
                    "The ranked attempt is used (`daily_already_played`), or the `date` asked for "
                    "is still open (`daily_open`: tomorrow's).",
                    "daily_already_played",
                    "Send unranked: true.",
                    error_example(services.DailyStillOpen.code, services.DailyStillOpen.detail),
                ),
            },
        ),
    )(view)


def daily_leaderboard(view: View) -> View:
    """The operations of DailyLeaderboardApi."""
    return extend_schema_view(
        get=extend_schema(
            operation_id="daily_leaderboard",
            tags=["daily"],
            summary="A day's leaderboard",
            description="Ranked wins on that day's challenge, finished before the day closed: by "
            "score, then time, then finish time.",
            parameters=[
                OpenApiParameter(
                    "day", {"type": "string", "format": "date"}, OpenApiParameter.PATH
                ),
                *BOARD_PARAMETERS,
            ],
            responses={
                200: view.OutputSerializer,
                304: NOT_MODIFIED,
                400: OpenApiResponse(
                    ValidationErrorSerializer,
                    "The day is not a date (`bad_date`) or a page parameter is wrong (`invalid`).",
                    examples=[
                        error_example("bad_date", "'2026-13-01' is not a date: use YYYY-MM-DD."),
                        invalid_example("page_size", "A whole number 1..100."),
                    ],
                ),
                404: NO_CHALLENGE,
                503: DAILY_NOT_READY,
            },
        ),
    )(view)


def game_places(view: View) -> View:
    """The operations of GamePlacesApi."""
    return extend_schema_view(
        get=extend_schema(
            operation_id="leaderboard_game",
            tags=["leaderboard"],
            summary="A ranked win's places",
            description="Where a ranked win stands now on its suit mode's board (all time, today, "
            "this week, this month) and on its day's daily board. 404 if the game is not on a "
            "leaderboard (not won, not ranked, or no such game).",
            responses={200: view.OutputSerializer, 404: NOT_FOUND},
        ),
    )(view)


def player_places(view: View) -> View:
    """The operations of PlayerPlacesApi."""
    return extend_schema_view(
        get=extend_schema(
            operation_id="players_places",
            tags=["players"],
            summary="A player's best leaderboard places",
            description="Per suit mode, the all-time place of the player's best ranked win; and "
            "their best place on a daily board.",
            responses={200: view.OutputSerializer, 404: NOT_FOUND},
        ),
    )(view)


def player_daily(view: View) -> View:
    """The operations of PlayerDailyApi."""
    return extend_schema_view(
        get=extend_schema(
            operation_id="players_daily",
            tags=["players", "daily"],
            summary="A player's calendar of dailies and streaks",
            description="The month's days that had a challenge (`?month=YYYY-MM`, this month "
            "when omitted), up to today: won, lost or missed, each played day with its score "
            "and its place among the day's players, and the player's streaks of days "
            "(docs/rules.md#streaks). Public, as a player's statistics are; today's result "
            "shows to the player alone until the day closes (`played` to anyone else). Each "
            "day's `status`: `won` or `lost` (its ranked attempt), `missed` (closed without "
            "one), `open` (today, no attempt ended yet) or `played`. A "
            "guest's streaks are not kept (`kept` false, and why).",
            parameters=[
                OpenApiParameter(
                    "month",
                    {"type": "string", "pattern": MONTH_PATTERN},
                    required=False,
                    description="YYYY-MM (UTC); this month when omitted.",
                )
            ],
            responses={
                200: view.OutputSerializer,
                400: bad_request(
                    invalid_example("month", "'2026-13' is not a month: use YYYY-MM."), body=False
                ),
                404: NOT_FOUND,
            },
        ),
    )(view)
