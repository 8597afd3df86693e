from datetime import timedelta

from django.conf import settings
from django.core.management.base import BaseCommand

from games.services import games_expire_idle


class Command(BaseCommand):
    help = "End games idle for longer than GAME_IDLE_EXPIRY_SECONDS (or --idle seconds)."

    def add_arguments(self, parser):
        parser.add_argument("--idle", type=int, default=settings.GAME_IDLE_EXPIRY_SECONDS)

    def handle(self, *args, idle: int, **options):
        ended = games_expire_idle(idle=timedelta(seconds=idle))
        self.stdout.write(f"ended {ended} idle games")
