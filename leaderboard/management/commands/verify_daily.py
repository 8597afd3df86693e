from django.core.management.base import BaseCommand, CommandError

from leaderboard.daily_verify import verify_daily
from leaderboard.models import DailyResult


class Command(BaseCommand):
    help = (
        "Rebuild the daily results, the days' score counts and the streaks from the games; "
        "report every difference with what was kept."
    )

    def handle(self, *args, **options):
        bad = 0
        for problem in verify_daily():
            bad += 1
            self.stdout.write(problem)
        self.stdout.write(f"checked {DailyResult.objects.count()} daily results: {bad} differences")
        if bad:
            raise CommandError(f"{bad} differences between the daily streaks and the games")
