"""Check a live database from outside, after a failure test: ``python -m tests.ops.verify``
with DATABASE_URL (and DJANGO_SETTINGS_MODULE) set. Reads an optional JSON list of accepted
actions on stdin: ``[{"game": id, "version": n, "type": ..., "from": .., "to": .., "count": ..}]``.

Prints one JSON object (the last line):

- ``games``, ``actions``: how many were checked;
- ``snapshot_mismatches``: games whose stored snapshot is not the replay of their log from the
  deal, or whose version is not the length of a gap-free log (a half-applied action);
- ``missing_accepted``: accepted (2xx) actions that are not in the log as answered;
- ``deals``: pool deals by state; ``bad_deals``: pooled or dealt pool deals without a
  verified winning line (a half-written deal); ``duplicate_seeds``: seeds stored twice;
- ``ranked_wins``: ranked games won; ``wins_without_entry``: those with no leaderboard entry
  (an entry is one per game by its constraint, so "once" holds when this is empty);
  ``entry_problems``: entries whose game does not replay to them (leaderboard.verify);
  ``coin_problems``: the ledger against the games (every rewarding win paid, once; the daily
  cap; each day's tally its entries' sum: games.rewards.coins_problems).
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from typing import Any


def main() -> None:
    import django

    django.setup()
    from django.db import connection, transaction

    # One snapshot of the whole database: players may still be playing while it is read.
    with transaction.atomic():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
        _report()


def _report() -> None:
    from django.db.models import Count

    from games.engine import Action as EngineAction
    from games.engine import EngineError, dump, replay
    from games.models import Action, Deal, Game
    from games.rewards import coins_problems
    from leaderboard.verify import verify_entries

    accepted: list[dict[str, Any]] = []
    if not sys.stdin.isatty():
        text = sys.stdin.read().strip()
        accepted = json.loads(text) if text else []

    mismatches: list[str] = []
    logs: dict[str, dict[int, Action]] = {}
    checked_actions = 0
    for game in Game.objects.select_related("deal").order_by("created_at").iterator():
        log = list(Action.objects.filter(game=game).order_by("seq"))
        checked_actions += len(log)
        logs[str(game.id)] = {a.seq: a for a in log}
        if [a.seq for a in log] != list(range(1, len(log) + 1)) or game.version != len(log):
            mismatches.append(f"{game.id}: version {game.version}, log seqs {len(log)}")
            continue
        try:
            board = replay(game.deal.layout(), [a.engine_action() for a in log])
        except EngineError as exc:
            mismatches.append(f"{game.id}: log does not replay: {exc}")
            continue
        if dump(board) != game.snapshot:
            mismatches.append(f"{game.id}: snapshot differs from the replay of its log")

    missing = []
    for entry in accepted:
        row = logs.get(entry["game"], {}).get(entry["version"])
        want = (entry["type"], entry.get("from"), entry.get("to"), entry.get("count"))
        if row is None or (row.kind, row.src, row.dst, row.count) != want:
            missing.append(entry)

    bad_deals = []
    for deal in Deal.objects.filter(
        source=Deal.Source.POOL, state__in=[Deal.State.POOLED, Deal.State.DEALT]
    ):
        line = deal.solver_line or []
        try:
            won = replay(deal.layout(), [EngineAction.from_json(a) for a in line]).won
        except EngineError:
            won = False
        if not (deal.vetted and line and deal.par == len(line) and won):
            bad_deals.append(deal.pk)
    duplicates = (
        Deal.objects.filter(seed_db__isnull=False)
        .values("suits", "seed_db", "deal_version")
        .annotate(n=Count("id"))
        .filter(n__gt=1)
        .count()
    )
    states = Counter(Deal.objects.values_list("state", flat=True))
    ranked_wins = Game.objects.filter(status=Game.Status.WON, ranked=True)
    without_entry = [
        str(g)
        for g in ranked_wins.filter(leaderboard_entry__isnull=True).values_list("id", flat=True)
    ]
    entry_problems = [f"{m.game_id}: {m.problem}" for m in verify_entries()]
    coin_issues = list(coins_problems())

    print(
        json.dumps(
            {
                "games": len(logs),
                "actions": checked_actions,
                "snapshot_mismatches": mismatches,
                "accepted_checked": len(accepted),
                "missing_accepted": missing[:20],
                "missing_accepted_count": len(missing),
                "deals": dict(states),
                "bad_deals": bad_deals,
                "duplicate_seeds": duplicates,
                "ranked_wins": ranked_wins.count(),
                "wins_without_entry": without_entry[:20],
                "entry_problems": entry_problems[:20],
                "coin_problems": coin_issues[:20],
            }
        )
    )


if __name__ == "__main__":
    main()
