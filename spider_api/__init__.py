"""The Django project: settings, URLs, the Celery app, WSGI/ASGI entry points."""

from spider_api.celery import app as celery_app

__all__ = ("celery_app",)
