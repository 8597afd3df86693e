from django.core.management.base import BaseCommand, CommandError

from leaderboard.models import LeaderboardEntry
from leaderboard.verify import verify_entries


class Command(BaseCommand):
    help = "Replay every ranked game from its seed and log; report entries that differ."

    def handle(self, *args, **options):
        total = LeaderboardEntry.objects.count()
        bad = 0
        for mismatch in verify_entries():
            bad += 1
            self.stdout.write(
                f"entry {mismatch.entry_id} game {mismatch.game_id}: {mismatch.problem}"
            )
        self.stdout.write(f"checked {total} entries: {bad} mismatched")
        if bad:
            raise CommandError(f"{bad} leaderboard entries do not match their replay")
