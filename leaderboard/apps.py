from django.apps import AppConfig


class LeaderboardConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "leaderboard"

    def ready(self) -> None:
        from leaderboard import freshness  # noqa: F401  # connects its receivers
