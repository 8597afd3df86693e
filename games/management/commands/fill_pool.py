from django.core.management.base import BaseCommand, CommandError

from games.pool import SUIT_MODES, pool_fill, pool_levels


class Command(BaseCommand):
    help = "Vet fresh deals with the solver until the pool holds --count deals per suit mode."

    def add_arguments(self, parser):
        parser.add_argument("--suits", type=int, choices=SUIT_MODES, help="Default: every mode.")
        parser.add_argument("--count", type=int, default=20, help="The pool size to reach.")
        parser.add_argument("--max-seconds", type=float, default=3600.0)

    def handle(self, *args, suits: int | None, count: int, max_seconds: float, **options):
        if count < 1:
            raise CommandError("--count must be at least 1")
        for mode in [suits] if suits else SUIT_MODES:
            added = pool_fill(suits=mode, target=count, max_seconds=max_seconds)
            self.stdout.write(f"{mode} suits: +{added}, pool now {pool_levels()[mode]}")
