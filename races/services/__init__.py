"""The only code that changes race tables, by what it does. Each public function is one
transaction.

- ``tables``: open a table; sit, stand, say ready; the opener's settings.
- ``starting``: a race begins (``race_start``, ``table_again``): one deal for every seat.
- ``racing``: what a racer asks during a race beside playing: resign, a draw.
- ``endings``: a racer out, a draw agreed, the race finished; ``race_settle`` after it.
- ``timers``: the countdown, the time limit, the racers gone (``races_tick``, the sweep).
- ``presence``: the streams each player holds open, and the debounced `gone` / `back`.
- ``tickets``: the single-use keys that open a stream from a browser.
- ``pruning``: tickets used or expired, tables opened and left unused.
- ``lookups``: the rows these start from (the table locked by its code, ...).

A racer's action is not here: the game service runs it, and the race's rules inside it are
races.policy (which uses ``timers`` and ``endings``).

Locking: the Table row is the lock of everything at a table (its seats, its races, its event
sequence). A racer's action comes through the game service, which locks the Game row first
and then (races.policy) the Table row; so the order is always Game -> Table, and no code here
waits for a Game row while it holds a Table row. That is why a race's end does not close the
racers' Game rows in its own transaction: ``race_settle`` does it just after the commit (and
the sweep, ``races_tick``, again if that was lost), while the Table row already says the race
is over and refuses every further action.
"""

from races.services.endings import race_settle
from races.services.lookups import RUNNING
from races.services.presence import (
    presence_close,
    presence_heartbeat,
    presence_open,
    presence_sweep,
)
from races.services.pruning import races_prune, tables_prune, tickets_prune
from races.services.racing import race_draw, race_resign
from races.services.starting import race_start, table_again
from races.services.tables import seat_ready, seat_sit, seat_stand, table_open, table_settings
from races.services.tickets import ticket_issue, ticket_redeem
from races.services.timers import races_tick, table_tick

__all__ = [
    "RUNNING",
    "presence_close",
    "presence_heartbeat",
    "presence_open",
    "presence_sweep",
    "race_draw",
    "race_resign",
    "race_settle",
    "race_start",
    "races_prune",
    "races_tick",
    "seat_ready",
    "seat_sit",
    "seat_stand",
    "table_again",
    "table_open",
    "table_settings",
    "table_tick",
    "tables_prune",
    "ticket_issue",
    "ticket_redeem",
    "tickets_prune",
]
