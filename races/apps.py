from django.apps import AppConfig


class RacesConfig(AppConfig):
    name = "races"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # The game service asks this policy about every game of kind `race` (games.kinds).
        from base.account_signals import account_erasing, account_export
        from games.kinds import register_policy
        from games.models import Game
        from races import account
        from races.policy import RacePolicy

        register_policy(Game.Kind.RACE, RacePolicy())
        # A player's export and the deletion of an account (accounts cannot import races).
        account_export.connect(account.export_races, dispatch_uid="races.export")
        account_erasing.connect(account.erase_player, dispatch_uid="races.erase")
