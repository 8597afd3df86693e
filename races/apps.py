from django.apps import AppConfig


class RacesConfig(AppConfig):
    name = "races"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # The game service asks this policy about every game of kind `race` (games.kinds).
        from games.kinds import register_policy
        from games.models import Game
        from races.policy import RacePolicy

        register_policy(Game.Kind.RACE, RacePolicy())
