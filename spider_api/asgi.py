"""ASGI entry point, for an ASGI server such as uvicorn: `spider_api.asgi:application`.

Django serves HTTP; this wrapper also answers the ASGI lifespan protocol, so the process's
timer loop (races.stream.BACKGROUND: the race timers and the daily close, spider_api.sweeps)
runs from the server's start, whether or not anyone ever opens a stream. With
`--lifespan off` it starts at the first request instead.
"""

import os
from typing import Any

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "spider_api.settings")

django_application = get_asgi_application()

from base.heap import freeze_startup_objects  # noqa: E402  (the apps are loaded above)
from races.stream import BACKGROUND  # noqa: E402
from spider_api.sweeps import sweep_due  # noqa: E402

BACKGROUND.sweep = sweep_due  # the race timers, the daily close, the housekeeping
freeze_startup_objects()


async def application(scope: dict[str, Any], receive: Any, send: Any) -> None:
    if scope["type"] == "lifespan":
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                BACKGROUND.start()
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                BACKGROUND.stop()
                await send({"type": "lifespan.shutdown.complete"})
                return
    BACKGROUND.start()  # a no-op once running
    await django_application(scope, receive, send)
