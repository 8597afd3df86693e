"""The fail-soft Redis cache against a real Redis: its one-round-trip `incr` keeps Django's
contract (a missing key raises; the key's expiry is kept)."""

from __future__ import annotations

import uuid

import pytest

from base.cache import FailSoftRedisCache
from tests.redis_server import REDIS_URL, redis_up

pytestmark = pytest.mark.skipif(not redis_up(), reason="needs Redis: set CELERY_BROKER_URL")


def test_incr_counts_an_existing_key_and_refuses_a_missing_one():
    cache = FailSoftRedisCache(REDIS_URL, {})
    key = f"test-incr-{uuid.uuid4().hex}"
    try:
        with pytest.raises(ValueError):
            cache.incr(key)
        assert cache.get(key) is None  # the refused incr created nothing

        assert cache.add(key, 1, timeout=60)
        assert cache.incr(key) == 2
        assert cache.incr(key, 5) == 7
        assert cache.get(key) == 7
        ttl = cache._cache.get_client(key).ttl(cache.make_and_validate_key(key))
        assert 0 < ttl <= 60  # INCRBY keeps the expiry add set
    finally:
        cache.delete(key)
