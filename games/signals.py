"""What the games app announces, for the features built on top of it to subscribe to.

The games app imports no feature above it (leaderboard, coins, races, ...): a feature that
must act when a game ends connects a receiver here, in its ``AppConfig.ready``::

    from games.signals import game_won

    class CoinsConfig(AppConfig):
        def ready(self) -> None:
            from coins.services import coins_award_win

            game_won.connect(coins_award_win, dispatch_uid="coins.award_win")

    def coins_award_win(*, game: Game, **kwargs: Any) -> None: ...

Both signals are sent by ``games.services`` inside the transaction that ends the game, with
the game row locked and already saved with its final result (status, end_reason, score,
finished_at, elapsed_ms). So:

* a receiver's writes commit or roll back with the game's end: the leaderboard entry, a coin
  reward or a race's event exist exactly when the game is over. An exception in a receiver
  rolls the whole action back (the player's request fails): catch what may fail, and keep
  receivers short, since the game row stays locked while they run;
* anything outside the database (a task, a message to a live stream) belongs in
  ``transaction.on_commit`` inside the receiver, so it never fires for a rolled-back end;
* each game ends once, so each signal is sent once per game; receivers need no
  idempotency of their own, and their order is the order they connected in.

``game_won(sender=Game, game=game)``: the game was won (any kind, staff-made included:
check ``game.ranked``/``game.staff_made`` if it matters). Sent first.

``game_finished(sender=Game, game=game)``: the game ended, whatever the outcome: won, lost
(resigned, abandoned for a new game, expired after idling). ``game.status`` and
``game.end_reason`` say which. Sent after ``game_won`` for a win.
"""

from __future__ import annotations

from django.dispatch import Signal

game_won = Signal()
game_finished = Signal()
