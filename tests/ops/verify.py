"""Check a live database from outside, after a failure test: ``python -m tests.ops.verify``
with DATABASE_URL (and DJANGO_SETTINGS_MODULE) set. Reads an optional JSON list of accepted
actions on stdin: ``[{"game": id, "version": n, "type": ..., "from": .., "to": .., "count": ..}]``.

Prints one JSON object (the last line):

- ``games``, ``actions``: how many were checked;
- ``snapshot_mismatches``: games whose stored snapshot is not the replay of their log from the
  deal, or whose version is not the length of a gap-free log (a half-applied action);
- ``missing_accepted``: accepted (2xx) actions that are not in the log as answered;
- ``deals``: pool deals by state; ``bad_deals``: pooled or dealt pool deals without a
  verified winning line (a half-written deal); ``duplicate_seeds``: seeds stored twice.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from typing import Any


def main() -> None:
    import django

    django.setup()
    from django.db.models import Count

    from games.engine import Action as EngineAction
    from games.engine import EngineError, dump, replay
    from games.models import Action, Deal, Game

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
            }
        )
    )


if __name__ == "__main__":
    main()
