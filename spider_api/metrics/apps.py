from django.apps import AppConfig


class MetricsConfig(AppConfig):
    """The metrics (spider_api.metrics): Celery's signals connected, the shared state's
    figures registered. No models."""

    name = "spider_api.metrics"
    label = "metrics"

    def ready(self) -> None:
        from base.metrics.sources import register_state
        from spider_api.metrics import tasks  # noqa: F401  (Celery's signals)
        from spider_api.metrics.beat import BeatHeartbeat

        register_state(BeatHeartbeat())
