"""The OpenAPI description of `/me/settings` (preferences/views.py). Each function reads the
serializers off the view class it decorates."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample, extend_schema, extend_schema_view

from base.openapi import View, bad_request, invalid_example


def player_settings(view: View) -> View:
    """The operations of PlayerSettingsApi."""
    return extend_schema_view(
        get=extend_schema(
            operation_id="me_settings_read",
            tags=["auth"],
            summary="Your settings",
            description="How your clients show the game: four colours, the look, one-tap, sound, "
            "and the table rule they start games under (`deal_over_gap`). Never changed: the "
            "defaults (two colours, felt, one-tap on, sound off, standard rules). Guests have "
            "settings too; claiming the account keeps them.",
            responses={200: view.OutputSerializer},
        ),
        patch=extend_schema(
            operation_id="me_settings_update",
            tags=["auth"],
            summary="Change your settings",
            description="Changes the settings named in the body and leaves the others; answers "
            "all of them. An unknown setting or a value of the wrong type is refused (400) and "
            "nothing changes.",
            request=view.InputSerializer,
            responses={
                200: view.OutputSerializer,
                400: bad_request(invalid_example("look", '"neon" is not a valid choice.')),
            },
            examples=[
                OpenApiExample("Four colours on", value={"four_colours": True}, request_only=True),
                OpenApiExample(
                    "Settings",
                    value={
                        "four_colours": True,
                        "look": "felt",
                        "one_tap": True,
                        "sound": False,
                        "deal_over_gap": False,
                    },
                    response_only=True,
                    status_codes=["200"],
                ),
            ],
        ),
    )(view)
