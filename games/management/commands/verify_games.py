from django.core.management.base import BaseCommand, CommandError

from games.integrity import replay_problem
from games.models import Game


class Command(BaseCommand):
    help = "Replay games from their deal and log; report any whose stored state differs."

    def add_arguments(self, parser):
        parser.add_argument("--status", choices=[s.value for s in Game.Status])

    def handle(self, *args, status: str | None, **options):
        games = Game.objects.select_related("deal").order_by("created_at")
        if status:
            games = games.filter(status=status)
        checked = bad = 0
        for game in games.iterator():
            checked += 1
            problem = replay_problem(game)
            if problem:
                bad += 1
                self.stdout.write(f"game {game.id}: {problem}")
        self.stdout.write(f"checked {checked} games: {bad} inconsistent")
        if bad:
            raise CommandError(f"{bad} games do not match the replay of their log")
