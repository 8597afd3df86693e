"""Local development settings: what ``manage.py`` loads unless ``DJANGO_SETTINGS_MODULE`` says
otherwise (the local vs production split of cookiecutter-django).

They are ``spider_api.settings`` with ``DEBUG`` on by default, so a fresh checkout runs every
command with no set-up: SQLite, no broker, a development-only secret key. ``DEBUG=0`` in the
environment still means production (``make serve`` and docker-compose set it). The production
entry points, ``spider_api.wsgi`` (gunicorn), ``spider_api.asgi`` and ``spider_api.celery``, load
``spider_api.settings`` itself, where DEBUG is off unless set and SECRET_KEY is required.
"""

import os

if not os.environ.get("DEBUG", "").strip():
    os.environ["DEBUG"] = "1"  # the environment, so processes this one starts agree

from spider_api.settings import *  # noqa: E402, F403
