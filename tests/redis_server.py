"""The test Redis: its URL (CELERY_BROKER_URL, as CI sets it) and whether it answers."""

from __future__ import annotations

import os

import redis

REDIS_URL = os.environ.get("CELERY_BROKER_URL", "")


def redis_up() -> bool:
    if not REDIS_URL.startswith("redis://"):
        return False
    try:
        return bool(redis.Redis.from_url(REDIS_URL, socket_connect_timeout=1).ping())
    except redis.RedisError:
        return False
