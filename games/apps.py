from django.apps import AppConfig


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"
    verbose_name = "Spider games"

    def ready(self) -> None:
        from games import metrics

        metrics.connect()  # games started and ended, the pool's depth (games/metrics.py)
