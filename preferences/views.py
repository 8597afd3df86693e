"""`/me/settings`: the signed-in player's settings for the clients, read and changed."""

from __future__ import annotations

from typing import Any, ClassVar

from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from base import scopes
from base.players import player_of
from base.serializers import JsonInputSerializer
from preferences import schema_docs
from preferences.models import PlayerSettings
from preferences.selectors import player_settings
from preferences.services import player_settings_update

_FOUR = "Four suit colours (spades black, hearts red, diamonds blue, clubs green); off: two "
_FOUR += "colours, spades and clubs black, hearts and diamonds red (the classic deck)."
_LOOK = "`felt`: the lit green felt; `classic`: flat dark-green baize and red card backs."
_ONE_TAP = "A tap on a card moves it to the best place; off: tap a card, then a column."
_SOUND = "Short sounds for a move, a deal, a completed run, a refusal and a win."
_GAP = "GameLake's end game: the client starts new games under the table rule deal_over_gap "
_GAP += "(a deal may go over empty columns while fewer than ten cards are on the table)."


class PlayerSettingsSerializer(serializers.Serializer):
    four_colours = serializers.BooleanField(help_text=_FOUR)
    look = serializers.ChoiceField(choices=PlayerSettings.Look.choices, help_text=_LOOK)
    one_tap = serializers.BooleanField(help_text=_ONE_TAP)
    sound = serializers.BooleanField(help_text=_SOUND)
    deal_over_gap = serializers.BooleanField(help_text=_GAP)


@schema_docs.player_settings
class PlayerSettingsApi(APIView):
    """GET: OutputSerializer; PATCH: InputSerializer (any of the settings), OutputSerializer."""

    # OAuth2 and personal access tokens (base/scopes.py): reading needs profile:read,
    # changing profile:write; the web client's own tokens carry every scope.
    required_scopes: ClassVar[dict[str, tuple[str, ...]]] = {
        "GET": (scopes.PROFILE_READ,),
        "PATCH": (scopes.PROFILE_WRITE,),
    }
    OutputSerializer = PlayerSettingsSerializer

    class InputSerializer(JsonInputSerializer):
        four_colours = serializers.BooleanField(required=False, help_text=_FOUR)
        look = serializers.ChoiceField(
            choices=PlayerSettings.Look.choices, required=False, help_text=_LOOK
        )
        one_tap = serializers.BooleanField(required=False, help_text=_ONE_TAP)
        sound = serializers.BooleanField(required=False, help_text=_SOUND)
        deal_over_gap = serializers.BooleanField(required=False, help_text=_GAP)

        # What validate() says: one setting at least (an unknown one is 400 unknown_field, as
        # for every body: base.serializers).
        schema_rules: ClassVar[dict[str, Any]] = {"minProperties": 1}

        def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
            if not attrs:
                raise serializers.ValidationError("Name at least one setting to change.")
            return attrs

    def get(self, request: Request) -> Response:
        return Response(player_settings(player=player_of(request)))

    def patch(self, request: Request) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        answer = player_settings_update(
            player=player_of(request), changes=dict(serializer.validated_data)
        )
        return Response(answer)
