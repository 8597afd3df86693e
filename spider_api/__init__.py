"""The Django project, its composition root: settings, URLs, the Celery app, the WSGI/ASGI
entry points, the sweeps and health. The one package that names every app; none imports it
(base/ is the library they share)."""

from spider_api.celery import app as celery_app

__all__ = ("celery_app",)
