"""ASGI entry point, for an ASGI server such as uvicorn: `spider_api.asgi:application`."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "spider_api.settings")

application = get_asgi_application()
