"""WSGI entry point: `gunicorn spider_api.wsgi`."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "spider_api.settings")

application = get_wsgi_application()

from base.heap import freeze_startup_objects  # noqa: E402  (the apps are loaded above)

freeze_startup_objects()
