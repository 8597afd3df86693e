"""Fan-out of table events to the stream processes, after commit.

Events are durable in PostgreSQL (``TableEvent``); this is only the fast path that tells
every open stream that event ``seq`` of table ``code`` exists, with its encoded body.

* With ``RACE_EVENTS_REDIS_URL`` (production): published on one Redis pub/sub channel;
  each stream process holds ONE subscription (redis.asyncio) and hands each message to the
  streams of that table in the process. A message lost (Redis restarting) is not an event
  lost: a stream that sees a gap, or none for a keep-alive period, reads the rows it missed.
* Without it (``make run``): one process serves the API and the streams, and events go from
  the request's thread to the event loop in memory.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from dataclasses import dataclass, field

import redis
import redis.asyncio as aioredis
from django.conf import settings

log = logging.getLogger(__name__)

_sync_client: redis.Redis | None = None
_sync_lock = threading.Lock()


def publish(code: str, seq: int, body: str) -> None:
    """Announce event ``seq`` of table ``code`` (called after the commit that wrote it)."""
    url = settings.RACE_EVENTS_REDIS_URL
    if not url:
        HUB.dispatch_threadsafe(code, seq, body)
        return
    try:
        _client(url).publish(settings.RACE_EVENTS_CHANNEL, f"{code} {seq} {body}")
    except redis.RedisError as exc:  # the rows are there: streams catch up from them
        log.warning("race event %s#%s not published: %s", code, seq, exc)


def _client(url: str) -> redis.Redis:
    global _sync_client
    with _sync_lock:
        if _sync_client is None:
            _sync_client = redis.Redis.from_url(url, socket_connect_timeout=2, socket_timeout=2)
        return _sync_client


@dataclass(eq=False)
class Subscription:
    code: str
    queue: asyncio.Queue[tuple[int, str]] = field(default_factory=asyncio.Queue)


class Hub:
    """The streams of this process, by table code. Lives on one event loop."""

    def __init__(self) -> None:
        self._subs: dict[str, set[Subscription]] = {}
        self._loop: asyncio.AbstractEventLoop | None = None
        self._listener: asyncio.Task[None] | None = None

    def subscribe(self, code: str) -> Subscription:
        self._loop = asyncio.get_running_loop()
        if settings.RACE_EVENTS_REDIS_URL and (self._listener is None or self._listener.done()):
            self._listener = self._loop.create_task(self._listen(settings.RACE_EVENTS_REDIS_URL))
        sub = Subscription(code)
        self._subs.setdefault(code, set()).add(sub)
        return sub

    def unsubscribe(self, sub: Subscription) -> None:
        subs = self._subs.get(sub.code)
        if subs is not None:
            subs.discard(sub)
            if not subs:
                del self._subs[sub.code]

    @property
    def streams(self) -> int:
        return sum(len(s) for s in self._subs.values())

    def deliver(self, code: str, seq: int, body: str) -> None:
        for sub in self._subs.get(code, ()):
            sub.queue.put_nowait((seq, body))

    def dispatch_threadsafe(self, code: str, seq: int, body: str) -> None:
        loop = self._loop
        if loop is None or loop.is_closed():
            return  # no stream has ever been opened in this process
        loop.call_soon_threadsafe(self.deliver, code, seq, body)

    async def _listen(self, url: str) -> None:
        """One subscription for the whole process; reconnects for ever."""
        backoff = 0.5
        while True:
            client = aioredis.Redis.from_url(url)
            try:
                async with client.pubsub() as pubsub:
                    await pubsub.subscribe(settings.RACE_EVENTS_CHANNEL)
                    backoff = 0.5
                    self._resync()  # whatever was published while we were away
                    async for message in pubsub.listen():
                        if message["type"] != "message":
                            continue
                        code, seq, body = message["data"].decode().split(" ", 2)
                        self.deliver(code, int(seq), body)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # Redis down or restarting: retry, streams catch up
                log.warning("race event subscription lost: %s", exc)
                await asyncio.sleep(backoff)
                backoff = min(backoff * 2, 5)
            finally:
                await client.aclose()

    def _resync(self) -> None:
        for subs in self._subs.values():
            for sub in subs:
                sub.queue.put_nowait((-1, ""))  # -1: read what you missed from the database


HUB = Hub()
