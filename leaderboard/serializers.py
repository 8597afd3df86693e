"""Input validation and the documented shapes of the boards and the daily challenge (the
answers are plain dicts built by the selectors; a test checks real answers against these)."""

from __future__ import annotations

import re
from datetime import date, datetime
from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from base.errors import DomainError
from base.pagination import page_serializer
from games.engine import SUIT_MODES
from games.models import Game
from games.serializers import SuitsField
from leaderboard import selectors
from leaderboard.player_daily import month_text


# -- input ----------------------------------------------------------------------------------
def bad_date(raw: object) -> DomainError:
    return DomainError("bad_date", f"{raw!r} is not a date: use YYYY-MM-DD.", 400)


@extend_schema_field({"type": "string", "format": "date"})
class DayField(serializers.Field):
    """A UTC day as YYYY-MM-DD. Anything else is 400 `bad_date` (its own code, not `invalid`:
    a day is also a path segment, where no field name applies), an empty value too (`?date=`
    is not a date; omit the parameter for today)."""

    def to_internal_value(self, data: Any) -> date:
        try:
            return date.fromisoformat(data)
        except (TypeError, ValueError):
            raise bad_date(data) from None

    def to_representation(self, value: date) -> str:
        return value.isoformat()


def _one_of(values: str) -> dict[str, Any]:
    message = f"One of {values}."
    return {"required": message, "invalid_choice": message, "null": message}


class BoardFilterSerializer(serializers.Serializer):
    """The leaderboard's query string (the page is base.pagination's)."""

    suits = serializers.ChoiceField(
        choices=SUIT_MODES, error_messages=_one_of(", ".join(map(str, SUIT_MODES)))
    )
    period = serializers.ChoiceField(
        choices=selectors.PERIODS,
        required=False,
        default="all",
        error_messages=_one_of(", ".join(selectors.PERIODS)),
    )


class DailyFilterSerializer(serializers.Serializer):
    date = DayField(required=False, help_text="YYYY-MM-DD (UTC); today when omitted.")


class DailyDaysFilterSerializer(serializers.Serializer):
    """GET /daily/days's query string (the page is base.pagination's)."""

    before = DayField(required=False, help_text="Only days before this one (YYYY-MM-DD).")
    after = DayField(required=False, help_text="Only days after this one (YYYY-MM-DD).")


# -- output ---------------------------------------------------------------------------------
class BoardRowSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    player = serializers.CharField()
    score = serializers.IntegerField()
    actions = serializers.IntegerField()
    elapsed_ms = serializers.IntegerField()
    finished_at = serializers.DateTimeField()
    perfect = serializers.BooleanField()
    hints = serializers.IntegerField()
    game = serializers.UUIDField(help_text="GET /api/v1/games/{game} and its log to replay it.")
    deal_over_gap = serializers.BooleanField(
        help_text="Won under the table rule deal_over_gap (GameLake's end game: a deal may go "
        "over empty columns while fewer than ten cards are on the table). Ranked with the "
        "others; replay its log under this rule."
    )
    public = serializers.BooleanField(
        help_text="Its log and deal are public: anyone may replay it and ask for its analysis. "
        "False for a daily win until its day closes (until then it is its player's only)."
    )


BoardSerializer = page_serializer("Board", BoardRowSerializer)


class DailyDaySerializer(serializers.Serializer):
    date = serializers.DateField(help_text="GET /api/v1/daily?date= for the day's challenge.")
    suits = SuitsField()
    closed = serializers.BooleanField(help_text="Its seed is out: its deal may be practised.")
    winners = serializers.IntegerField(help_text="Ranked wins on the day's board.")


DailyDaysSerializer = page_serializer("DailyDays", DailyDaySerializer)


class PeriodPlacesSerializer(serializers.Serializer):
    all = serializers.IntegerField()
    day = serializers.IntegerField(allow_null=True)
    week = serializers.IntegerField(allow_null=True)
    month = serializers.IntegerField(allow_null=True)


class DailyPlaceSerializer(serializers.Serializer):
    date = serializers.DateField()
    rank = serializers.IntegerField()


class GamePlacesSerializer(serializers.Serializer):
    game = serializers.UUIDField()
    player = serializers.CharField()
    suits = SuitsField()
    score = serializers.IntegerField()
    places = PeriodPlacesSerializer(
        help_text="Its place on its suit mode's board per period (null: finished before it)."
    )
    daily = DailyPlaceSerializer(allow_null=True, help_text="Its place on its day's board.")


class ModePlaceSerializer(serializers.Serializer):
    suits = SuitsField()
    rank = serializers.IntegerField(allow_null=True, help_text="All-time place of the best win.")
    game = serializers.UUIDField(allow_null=True)
    score = serializers.IntegerField(allow_null=True)


class BestDailySerializer(serializers.Serializer):
    date = serializers.DateField()
    rank = serializers.IntegerField()
    game = serializers.UUIDField()


class PlayerPlacesSerializer(serializers.Serializer):
    username = serializers.CharField()
    modes = ModePlaceSerializer(many=True)
    daily = BestDailySerializer(allow_null=True)


class ScoreBinSerializer(serializers.Serializer):
    # "from" is a Python keyword: declared under its name in the fields below.
    to = serializers.IntegerField(allow_null=True, help_text="Highest score in it; null: open.")
    players = serializers.IntegerField()
    mine = serializers.BooleanField(help_text="Your score is in this bin.")

    def get_fields(self) -> dict[str, serializers.Field]:
        fields = super().get_fields()
        return {"from": serializers.IntegerField(help_text="Lowest score in it."), **fields}


class StandingSerializer(serializers.Serializer):
    players = serializers.IntegerField(help_text="Ranked attempts of the day that have ended.")
    winners = serializers.IntegerField()
    won_percent = serializers.IntegerField(help_text="Share who won, in whole percent.")
    place = serializers.IntegerField(
        help_text="1 + the players with a better result: a win above every loss, then the "
        "higher score; equal results share a place."
    )
    final = serializers.BooleanField(help_text="The day has closed: the place is final.")
    better_than_percent = serializers.IntegerField(
        help_text="Share of the day's players with a lower result, in whole percent."
    )
    distribution = ScoreBinSerializer(many=True, help_text="The day's scores in a few bins.")


class ShareSerializer(serializers.Serializer):
    text = serializers.CharField(
        help_text="Plain lines to copy or send: day, won or not, time, actions, score, place, "
        "streak and one mark per run of the deal completed. Never a card or a move."
    )
    path = serializers.CharField(help_text="The day's page on this site, to add to the text.")


class AttemptSerializer(serializers.Serializer):
    game = serializers.UUIDField()
    status = serializers.ChoiceField(choices=Game.Status.choices)
    score = serializers.IntegerField()
    ranked = serializers.BooleanField()
    standing = StandingSerializer(
        allow_null=True,
        help_text="Once your ranked attempt has ended: where it stands among the day's. "
        "Aggregates only while the day is open.",
    )
    share = ShareSerializer(allow_null=True, help_text="Once your ranked attempt has ended.")


class StreakSerializer(serializers.Serializer):
    current = serializers.IntegerField(
        help_text="Days in a row up to today, or up to yesterday while today is open."
    )
    best = serializers.IntegerField(help_text="The longest run ever.")
    last = serializers.DateField(allow_null=True, help_text="The run's last day.")


class StreaksSerializer(serializers.Serializer):
    kept = serializers.BooleanField(help_text="False for a guest: their dailies never rank.")
    reason = serializers.CharField(allow_null=True, help_text="Why they are not kept.")
    played = StreakSerializer(
        allow_null=True, help_text="Consecutive UTC days with a ranked attempt (won or lost)."
    )
    won = StreakSerializer(
        allow_null=True, help_text="Consecutive UTC days with a ranked attempt won in time."
    )


# Every month strptime takes: years 0001 to 9999, months 01 to 12 (the schema says exactly
# what is accepted, so a generated client's valid month is never refused).
MONTH_PATTERN = (
    "^([0-9]{3}[1-9]|[0-9]{2}[1-9][0-9]|[0-9][1-9][0-9]{2}|[1-9][0-9]{3})-(0[1-9]|1[0-2])$"
)


@extend_schema_field({"type": "string", "pattern": MONTH_PATTERN})
class MonthField(serializers.Field):
    """A month as ``YYYY-MM``: its first day. Anything else is 400 `invalid`, by name."""

    default_error_messages = {"bad_month": "'{value}' is not a month: use YYYY-MM."}

    def to_internal_value(self, data: Any) -> date:
        text = str(data)
        if not re.fullmatch(MONTH_PATTERN, text):  # strptime would take "2026-1" too
            self.fail("bad_month", value=text[:20])
        return datetime.strptime(text, "%Y-%m").date()

    def to_representation(self, value: date) -> str:
        return month_text(value)


class CalendarFilterSerializer(serializers.Serializer):
    month = MonthField(required=False, help_text="YYYY-MM (UTC); this month when omitted.")


class CalendarDaySerializer(serializers.Serializer):
    date = serializers.DateField()
    closed = serializers.BooleanField()
    # won/lost: the ranked attempt; missed: closed without one; open: today, no attempt ended
    # yet; played: another player's today, whose result shows once the day has closed.
    status = serializers.ChoiceField(choices=["won", "lost", "missed", "open", "played"])
    score = serializers.IntegerField(allow_null=True)
    place = serializers.IntegerField(
        allow_null=True, help_text="Among the day's players (final once closed)."
    )
    players = serializers.IntegerField(allow_null=True, help_text="The day's ranked attempts.")


class PlayerDailySerializer(serializers.Serializer):
    username = serializers.CharField()
    month = serializers.CharField(help_text="YYYY-MM")
    days = CalendarDaySerializer(many=True, help_text="The month's days that had a challenge.")
    streaks = StreaksSerializer()


class DailySerializer(serializers.Serializer):
    date = serializers.DateField()
    suits = SuitsField()
    deal_version = serializers.IntegerField()
    commitment = serializers.CharField(help_text="SHA-256 hex, published before the day starts.")
    closes_at = serializers.DateTimeField()
    closed = serializers.BooleanField()
    seed = serializers.CharField(allow_null=True, help_text="Revealed when the day closes.")
    nonce = serializers.CharField(allow_null=True, help_text="Revealed when the day closes.")
    par = serializers.IntegerField(
        allow_null=True,
        help_text="Revealed when the day closes: the length (moves and deals) of the shortest "
        "winning line the solver found for the deal, searched again wider before the day closed.",
    )
    winners = serializers.IntegerField()
    attempt = AttemptSerializer(allow_null=True, help_text="Your attempt (with a token).")
    streaks = StreaksSerializer(
        allow_null=True, help_text="Your streaks as of today (with a token; docs/rules.md)."
    )


# A daily attempt's refusal of deal_over_gap: the serializer's message and the schema's.
STANDARD_RULES_ONLY = "The daily challenge is played under the standard rules: no deal_over_gap."
