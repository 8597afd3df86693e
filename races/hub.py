"""Fan-out of table events to the stream processes, after commit.

Events are durable in PostgreSQL (``TableEvent``); this is only the fast path that tells
every open stream that event ``seq`` of table ``code`` exists, with its encoded body.

* With ``RACE_EVENTS_REDIS_URL`` (production): published on one Redis pub/sub channel;
  each stream process holds ONE subscription (redis.asyncio) and hands each message to the
  streams of that table in the process. A message lost (Redis restarting) is not an event
  lost: a stream that sees a gap, or none for a keep-alive period, reads the rows it missed.
* Without it (``make run``): one process serves the API and the streams, and events go from
  the request's thread to the event loop in memory.

Each stream's queue is bounded (RACE_STREAM_QUEUE_MAX): a reader that falls that far behind
(a client that stops reading) has its queue emptied and told to read the rows it missed from
the database, so a slow client costs the server a bounded amount of memory and loses nothing.

``SLOTS`` counts each player's open streams across every stream process (a Redis sorted set
per player with an expiry per stream, refreshed by the heartbeat; in memory without Redis),
for the limit of RACE_STREAMS_PER_PLAYER.
"""

from __future__ import annotations

import asyncio
import logging
import math
import threading
import time
from dataclasses import dataclass, field
from typing import Final

import redis
import redis.asyncio as aioredis
from django.conf import settings

from races import metrics

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


RESYNC = (-1, "")  # in a queue: read what you missed from the database


def _bounded_queue() -> asyncio.Queue[tuple[int, str]]:
    return asyncio.Queue(maxsize=settings.RACE_STREAM_QUEUE_MAX)


@dataclass(eq=False)
class Subscription:
    code: str
    queue: asyncio.Queue[tuple[int, str]] = field(default_factory=_bounded_queue)
    overflows: int = 0  # times the queue was full and emptied (the reader read the rows)

    def put(self, item: tuple[int, str]) -> None:
        try:
            self.queue.put_nowait(item)
        except asyncio.QueueFull:
            # The reader is behind by a whole queue: drop it all, and have it read the rows
            # after its last seq instead (they are in the database, in order).
            while not self.queue.empty():
                self.queue.get_nowait()
            self.queue.put_nowait(RESYNC)
            self.overflows += 1


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
        subs = self._subs.get(code)
        if subs:
            metrics.event_arrived(body)  # how late, once per event here
            for sub in subs:
                sub.put((seq, body))

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
                sub.put(RESYNC)


HUB = Hub()


# -- each player's open streams, across the stream processes ---------------------------------
# KEYS[1]: the player's set; ARGV: now, ttl, limit, stream id. Expired streams (a process that
# died, a response never sent) drop out first; then the stream is added, or, at the limit,
# the seconds until the first one expires come back.
_TAKE = """
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then
  local first = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  return tostring(tonumber(first[2]) - tonumber(ARGV[1]))
end
redis.call('ZADD', KEYS[1], tonumber(ARGV[1]) + tonumber(ARGV[2]), ARGV[4])
redis.call('EXPIRE', KEYS[1], math.ceil(tonumber(ARGV[2])) + 1)
return false
"""


# Connections a stream process holds for the slots (each call is one short EVAL).
SLOT_CONNECTIONS: Final = 20


class StreamSlots:
    """Each player's open streams: at most RACE_STREAMS_PER_PLAYER at once, across every
    stream process. A stream holds its slot for RACE_PRESENCE_STALE_SECONDS at a time and the
    heartbeat renews it, so the slots of a process that died come free by themselves."""

    def __init__(self) -> None:
        self._client: aioredis.Redis | None = None
        self._local: dict[int, dict[str, float]] = {}  # without Redis: player -> id -> expiry

    async def take(self, player_id: int, stream_id: str) -> int | None:
        """Take a slot: None if taken, else the seconds until one may come free."""
        now, ttl = time.time(), float(settings.RACE_PRESENCE_STALE_SECONDS)
        limit = settings.RACE_STREAMS_PER_PLAYER
        client = self._redis()
        if client is None:
            mine = {k: t for k, t in self._local.get(player_id, {}).items() if t > now}
            self._local[player_id] = mine
            if len(mine) >= limit:
                return max(1, math.ceil(min(mine.values()) - now))
            mine[stream_id] = now + ttl
            return None
        try:
            wait = await client.eval(_TAKE, 1, self._key(player_id), now, ttl, limit, stream_id)
        except redis.RedisError as exc:  # Redis down: streams are not limited meanwhile
            log.warning("stream slots unavailable, stream admitted: %s", exc)
            return None
        return None if wait is None else max(1, math.ceil(float(wait)))

    async def renew(self, streams: list[tuple[int, str]]) -> None:
        """The heartbeat: these streams of this process are still open."""
        expires = time.time() + settings.RACE_PRESENCE_STALE_SECONDS
        client = self._redis()
        if client is None:
            for player_id, stream_id in streams:
                self._local.setdefault(player_id, {})[stream_id] = expires
            return
        if not streams:
            return
        async with client.pipeline(transaction=False) as pipe:
            for player_id, stream_id in streams:
                pipe.zadd(self._key(player_id), {stream_id: expires})
                pipe.expire(self._key(player_id), settings.RACE_PRESENCE_STALE_SECONDS + 1)
            await pipe.execute()

    async def give_back(self, player_id: int, stream_id: str) -> None:
        client = self._redis()
        if client is None:
            self._local.get(player_id, {}).pop(stream_id, None)
            return
        try:
            await client.zrem(self._key(player_id), stream_id)
        except redis.RedisError as exc:  # it expires by itself
            log.warning("stream slot not given back: %s", exc)

    def _key(self, player_id: int) -> str:
        return f"{settings.RACE_EVENTS_CHANNEL}:streams:{player_id}"

    def _redis(self) -> aioredis.Redis | None:
        url = settings.RACE_EVENTS_REDIS_URL
        if not url:
            return None
        if self._client is None:
            # A burst of streams opening at once (a table of racers after a restart) waits its
            # turn for one of a few connections; redis-py's plain pool refuses the 101st
            # concurrent call ("Too many connections"), which admitted streams unlimited.
            pool = aioredis.BlockingConnectionPool.from_url(
                url,
                max_connections=SLOT_CONNECTIONS,
                timeout=2,
                socket_connect_timeout=2,
                socket_timeout=2,
            )
            self._client = aioredis.Redis(connection_pool=pool)
        return self._client


SLOTS = StreamSlots()
