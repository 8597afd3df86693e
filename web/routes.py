"""The web client's routes, defined once: each a path pattern and the screen that shows it.

The page carries this table (a JSON data block the router in ``app.js`` reads: the screen
names are its ``SCREENS``), and ``web/urls.py`` serves the page at exactly these paths, so a
reload or a shared link of any of them loads the client and any other path is a 404.

A pattern is the path after the leading ``/``, anchored at both ends by ``browser_pattern``
and ``server_pattern``; its groups are the screen's parameters. It is written in the part of
regular-expression syntax Python and JavaScript read alike (no named groups, no flags).
"""

from __future__ import annotations

from typing import Final, NamedTuple

UUID: Final = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"


class Route(NamedTuple):
    pattern: str
    screen: str

    def browser_pattern(self) -> str:
        """As the router matches it: the whole path, trailing slashes already stripped."""
        return f"^/{self.pattern}$"

    def server_pattern(self) -> str:
        """As Django matches it (no leading ``/``), a trailing slash allowed."""
        return f"^{self.pattern}/?$"


ROUTES: Final = (
    Route("", "play"),
    Route("play", "play"),
    Route(f"play/({UUID})", "play"),
    Route("login", "login"),
    Route("signup", "signup"),
    Route("forgot", "forgot"),
    Route("reset", "reset"),
    Route("account", "account"),
    Route("account/tokens/new", "tokenNew"),
    Route("daily", "daily"),
    Route(r"daily/(\d{4}-\d{2}-\d{2})", "daily"),
    Route("leaderboard", "leaderboard"),
    Route("rules", "rules"),
    Route("race", "lobby"),
    Route("race/([A-Za-z0-9]{1,16})", "race"),
    Route(f"replay/({UUID})", "replay"),
    Route("players/([^/]+)", "player"),
    Route("oauth/authorize", "authorize"),  # also mounted by oauth/urls.py, as DOT names it
    Route("apps", "apps"),
)


def browser_table() -> list[tuple[str, str]]:
    """The table the page carries: (pattern, screen) pairs, first match wins."""
    return [(route.browser_pattern(), route.screen) for route in ROUTES]
