from django.core.management.base import BaseCommand

from leaderboard.services import daily_improve_pars


class Command(BaseCommand):
    help = (
        "Search the open daily challenges' lines again for a shorter par (what the worker does "
        "after making a challenge; DAILY_PAR_MAX_NODES positions each, each deal once)."
    )

    def handle(self, *args, **options):
        changed = daily_improve_pars()
        if changed:
            self.stdout.write("shorter par: " + ", ".join(d.isoformat() for d in changed))
        else:
            self.stdout.write("no open challenge's par changed")
