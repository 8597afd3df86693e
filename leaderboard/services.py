"""Daily challenge writes: create a day's challenge, start a player's game on it, ask the
worker for a challenge a reader found missing (a GET never makes one itself), and search the
open challenges' lines again for a shorter par."""

from __future__ import annotations

import functools
from datetime import date, datetime, timedelta
from typing import TYPE_CHECKING, NoReturn

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from base.errors import DomainError
from base.queueing import in_thread, queue_task
from games.daily import daily_closed
from games.deals import deal_improve_line
from games.models import Game
from games.pool import pool_take, pool_vet_if_empty
from games.services import game_create_practice, game_start
from leaderboard.commitment import commit, new_nonce
from leaderboard.models import DailyChallenge
from leaderboard.selectors import challenge_on

DAILY_SUITS = 2
DAILY_LOCK_SPACE = 0x5D41  # advisory-lock namespace of daily challenge creation
# A reader who finds today's challenge missing retries after this; a creation is queued at most
# once per such window.
DAILY_RETRY_AFTER_SECONDS = 5
# The task that makes today's and tomorrow's challenges (leaderboard/tasks.py), queued by name.
CREATE_DAILY_TASK = "leaderboard.tasks.create_daily_challenges"
if TYPE_CHECKING:
    from accounts.models import User
else:
    User = get_user_model()


class DailyAlreadyPlayed(DomainError):
    code, status = "daily_already_played", 409
    detail = (
        'You have used today\'s ranked attempt. Send {"unranked": true} to play the deal '
        "again for practice (it will not rank)."
    )


class DailyNotReady(DomainError):
    code, status = "daily_not_ready", 503
    detail = "Today's challenge is being prepared; retry shortly."

    def __init__(self) -> None:
        retry = DAILY_RETRY_AFTER_SECONDS
        super().__init__(extra={"retry_after": retry}, headers={"Retry-After": str(retry)})


def daily_ensure(*, day: date, vet_seconds: float | None = None) -> DailyChallenge:
    """The challenge of ``day``, created if missing. Safe to call twice or from two workers at
    once: creators of one day queue on a lock and the later ones find the first's challenge
    (the unique date stays the last word), so exactly one exists and no deal is wasted.
    With the pool empty it vets a deal first: a request's allowance (``vet_seconds`` None,
    games.pool.pool_vet_if_empty), or a worker's ``vet_seconds``."""
    existing = DailyChallenge.objects.select_related("deal").filter(date=day).first()
    if existing is not None:
        return existing
    # The slow part, before the transaction and the lock.
    pool_vet_if_empty(suits=DAILY_SUITS, max_seconds=vet_seconds)
    try:
        with transaction.atomic():
            _lock_day(day)  # a second creator waits here, then finds the first one's row
            existing = DailyChallenge.objects.select_related("deal").filter(date=day).first()
            if existing is not None:
                return existing
            deal = pool_take(suits=DAILY_SUITS)
            seed = deal.seed
            assert seed is not None
            nonce = new_nonce()
            return DailyChallenge.objects.create(
                date=day,
                deal=deal,
                nonce=nonce,
                commitment=commit(
                    day=day,
                    suits=deal.suits,
                    deal_version=deal.deal_version,
                    seed=seed,
                    nonce=nonce,
                ),
            )
    except IntegrityError:
        return DailyChallenge.objects.select_related("deal").get(date=day)


def _lock_day(day: date) -> None:
    """Serialise the creation of one day's challenge. PostgreSQL: a transaction-scoped
    advisory lock; SQLite already runs one writing transaction at a time."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT pg_advisory_xact_lock(%s, %s)", [DAILY_LOCK_SPACE, day.toordinal()]
            )


def daily_play(*, player: User, day: date, unranked: bool = False) -> tuple[Game, bool]:
    """The player's game on the daily challenge of ``day``: (game, created), the challenge
    made first if the worker has not made it yet.

    A daily game in progress is returned as it is. Otherwise the first game is the ranked
    attempt; after it, only an explicit ``unranked`` practice game. Daily games and casual
    games never end each other.
    """
    challenge = daily_ensure(day=day)  # its own transaction, before the player's lock
    with transaction.atomic():
        User.objects.select_for_update().filter(pk=player.pk).first()
        mine = Game.objects.filter(player=player, kind=Game.Kind.DAILY, daily_date=day)
        current = mine.filter(status=Game.Status.IN_PROGRESS).first()
        if current is not None:
            return current, False
        attempted = mine.exists()
        if attempted and not unranked:
            raise DailyAlreadyPlayed()
        game = game_start(
            player=player,
            deal=challenge.deal,
            kind=Game.Kind.DAILY,
            daily_date=day,
            rankable=not attempted,
        )
        return game, True


class DailyStillOpen(DomainError):
    code, status = "daily_open", 409
    detail = (
        "That day's challenge is still open: its deal may be practised once the day has "
        "closed (00:00 UTC)."
    )


def daily_practice(*, player: User, day: date) -> Game:
    """Practise the deal of a past day's challenge once the day has closed: a casual game on
    its deal that never ranks and earns nothing (docs/rules.md#daily-challenge). Like a new
    game, it ends the player's casual game in progress."""
    challenge = challenge_on(day=day)
    if challenge is None:
        _missing(day=day, today=timezone.now().date())
    if not daily_closed(challenge.date):
        raise DailyStillOpen()
    return game_create_practice(player=player, deal=challenge.deal)


def daily_request(*, day: date) -> None:
    """A reader found the challenge of ``day`` missing: ask for it to be made, at most once per
    DAILY_RETRY_AFTER_SECONDS (the cache remembers), and return at once. With a broker it is
    the worker's task; without one (the zero-setup run) a thread here, if POOL_AUTOFILL is on."""
    if not cache.add(f"daily:requested:{day.isoformat()}", 1, DAILY_RETRY_AFTER_SECONDS):
        return
    # By name: the task module imports this one. A broker down is beat's to catch up on: its
    # hourly run makes the challenge.
    queue_task(
        CREATE_DAILY_TASK,
        without_broker=(
            in_thread(functools.partial(daily_ensure, day=day)) if settings.POOL_AUTOFILL else None
        ),
    )


def daily_read(*, day: date) -> DailyChallenge:
    """The challenge of ``day`` for a reader. A read never makes one (the worker makes each a
    day ahead; ``daily_play`` at most): today's, if missing, is a quick 503 and a request for
    it. Tomorrow's shows once made (its commitment is published ahead of time)."""
    today = timezone.now().date()
    challenge = challenge_on(day=day)
    if challenge is not None:
        return challenge
    if day != today:
        _missing(day=day, today=today)
    daily_request(day=day)
    raise DailyNotReady()


def _missing(*, day: date, today: date) -> NoReturn:
    """No challenge on a day other than today: not published yet, or none that day."""
    if day > today:
        raise DomainError("future_date", f"The challenge of {day} is not published yet.", 404)
    raise DomainError("no_challenge", f"There was no challenge on {day}.", 404)


def daily_improve_pars(*, now: datetime | None = None) -> list[date]:
    """Search the line of every open daily challenge (its day not closed yet) once more,
    wider, with DAILY_PAR_MAX_NODES positions (``games.deals.deal_improve_line``), and keep a
    shorter one. The par is shown only once the day has closed, so a line shortened before
    then is the par everyone sees: vetting's line proves the deal winnable cheaply, this one
    is worth a minute of a worker once a day. The days whose par changed, oldest first."""
    nodes = settings.DAILY_PAR_MAX_NODES
    if not nodes:
        return []
    now = now or timezone.now()
    pending = (
        DailyChallenge.objects.select_related("deal")
        .filter(date__gte=now.date() - timedelta(days=1), deal__improved_nodes__isnull=True)
        .order_by("date")
    )
    changed = []
    for challenge in pending:
        if daily_closed(challenge.date, now):
            continue  # its par is public already: it stays what players were shown
        if deal_improve_line(
            deal=challenge.deal, max_nodes=nodes, max_seconds=settings.DAILY_PAR_MAX_SECONDS
        ):
            changed.append(challenge.date)
    return changed
