from datetime import date

from django.core.management.base import BaseCommand, CommandError

from coins.models import CoinEntry
from games.rewards import coins_problems


class Command(BaseCommand):
    help = "Recompute every coin ledger entry from the games; report any that differ."

    def add_arguments(self, parser):
        parser.add_argument(
            "--since",
            type=date.fromisoformat,
            help="Only UTC days from this one (YYYY-MM-DD): wins before coins existed have none.",
        )

    def handle(self, *args, since: date | None, **options):
        bad = 0
        for problem in coins_problems(since=since):
            bad += 1
            self.stdout.write(problem)
        entries = CoinEntry.objects.filter(day__gte=since) if since else CoinEntry.objects.all()
        self.stdout.write(f"checked {entries.count()} coin entries: {bad} problems")
        if bad:
            raise CommandError(f"{bad} coin ledger problems")
