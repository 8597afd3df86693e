"""The Celery app. Workers: `celery -A spider_api worker`; beat: `celery -A spider_api beat`.

Configured from Django settings prefixed CELERY_. With no CELERY_BROKER_URL, tasks run eagerly
in the calling process, so the zero-setup run needs no broker.
"""

import os
from typing import Any

from celery import Celery
from celery.signals import worker_process_init

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "spider_api.settings")

app = Celery("spider_api")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@worker_process_init.connect
def _freeze_startup_objects(**_: Any) -> None:
    """Each pool process: the start-up objects out of the collector's way (base.heap)."""
    from base.heap import freeze_startup_objects

    freeze_startup_objects(import_urls=False)
