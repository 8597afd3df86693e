"""The API's scopes: what a token may be limited to (OAuth2 access tokens and personal access
tokens). Reads of public data need none. The web client's own sign-in tokens (first-party,
`POST /auth/token`) carry every scope; managing the account itself (password, tokens, export,
deletion) is for first-party tokens only, never for a token handed to an app.

Each endpoint declares which of these it needs in one place (the view's required scopes); a
test checks that every view of the API declares them or is public.
"""

from __future__ import annotations

from typing import Final

PROFILE_READ: Final = "profile:read"
PROFILE_WRITE: Final = "profile:write"
GAME_PLAY: Final = "game:play"
RACE_PLAY: Final = "race:play"
DAILY_PLAY: Final = "daily:play"

# name -> what the approval page and the schema say it allows
SCOPES: Final[dict[str, str]] = {
    PROFILE_READ: "Read your profile, settings, statistics and coins.",
    PROFILE_WRITE: "Change your settings.",
    GAME_PLAY: "Start games, list yours and play them: moves, deals, undos, hints, resigning, "
    "analysis.",
    RACE_PLAY: "Create and join races, and play and watch them as you.",
    DAILY_PLAY: "Play the daily challenge as you (a ranked attempt).",
}
