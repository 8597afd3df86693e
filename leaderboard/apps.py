from django.apps import AppConfig


class LeaderboardConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "leaderboard"

    def ready(self) -> None:
        # The leaderboard subscribes to the games app (which never imports it): a ranked
        # win is entered in the transaction that wins the game.
        from base.account_signals import account_erasing, account_export
        from games.signals import game_finished, game_won
        from leaderboard import (
            account,
            freshness,  # noqa: F401  # connects its receivers
        )
        from leaderboard.daily_results import on_game_finished
        from leaderboard.ranking import on_game_won

        game_won.connect(on_game_won, dispatch_uid="leaderboard.entry_record")
        # A ranked daily attempt's result, the day's counts and the streaks, as it ends.
        game_finished.connect(on_game_finished, dispatch_uid="leaderboard.daily_result")
        # A player's export and the deletion of an account (accounts cannot import us).
        account_export.connect(account.export_entries, dispatch_uid="leaderboard.export")
        account_erasing.connect(account.erase_username, dispatch_uid="leaderboard.erase")
