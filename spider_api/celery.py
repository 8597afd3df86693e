"""The Celery app. Workers: `celery -A spider_api worker`; beat: `celery -A spider_api beat`.

Configured from Django settings prefixed CELERY_. With no CELERY_BROKER_URL, tasks run eagerly
in the calling process, so the zero-setup run needs no broker.
"""

import atexit
import os
from typing import Any

from celery import Celery
from celery.contrib.django.task import DjangoTask
from celery.signals import import_modules, worker_process_init

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "spider_api.settings")


@import_modules.connect(weak=False)  # connected before the app's: ahead of django.setup()
def _metrics_directory(**_: Any) -> None:
    """A worker or beat starts: the figures of its processes (a worker's pool forks) go to a
    fresh directory, named before Django starts and anything imports prometheus-client
    (spider_api.metrics.multiprocess)."""
    from spider_api.metrics import multiprocess

    if multiprocess.prepare("celery") is not None:
        atexit.register(multiprocess.finish)


class Task(DjangoTask):
    # The worker's main process counts a task whose pool process died under it.
    Request = "spider_api.metrics.tasks:MeasuredRequest"


app = Celery("spider_api", task_cls=Task)
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@worker_process_init.connect
def _freeze_startup_objects(**_: Any) -> None:
    """Each pool process: the start-up objects out of the collector's way (base.heap)."""
    from base.heap import freeze_startup_objects

    freeze_startup_objects(import_urls=False)
