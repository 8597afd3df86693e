"""The Celery app. Workers: `celery -A spider_api worker`; beat: `celery -A spider_api beat`.

Configured from Django settings prefixed CELERY_. With no CELERY_BROKER_URL, tasks run eagerly
in the calling process, so the zero-setup run needs no broker.
"""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "spider_api.settings")

app = Celery("spider_api")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
