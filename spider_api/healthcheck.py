"""A container's healthcheck: ``python -m spider_api.healthcheck [--full]``.

Asks this container's own web process ``GET /health/live`` (or ``/health`` with ``--full``)
on ``127.0.0.1:$PORT`` and exits 0 on a 200, 1 otherwise. It sends a ``Host`` header the
app accepts (the first of ``ALLOWED_HOSTS``), so production host names need no
``127.0.0.1`` in ``ALLOWED_HOSTS``. Imports nothing of Django: cheap to run every few seconds.
"""

from __future__ import annotations

import os
import sys
import urllib.error
import urllib.request


def host_header(allowed_hosts: str) -> str:
    """A host name ``ALLOWED_HOSTS`` accepts: its first entry (``.example.com`` ->
    ``example.com``; ``*`` or nothing -> ``localhost``)."""
    first = next((h.strip() for h in allowed_hosts.split(",") if h.strip()), "")
    first = first.lstrip(".")
    return first if first and first != "*" else "localhost"


def main(argv: list[str]) -> int:
    path = "/health" if "--full" in argv else "/health/live"
    port = os.environ.get("PORT", "8000")
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}",
        headers={"Host": host_header(os.environ.get("ALLOWED_HOSTS", ""))},
    )
    try:
        with urllib.request.urlopen(request, timeout=3) as response:
            return 0 if response.status == 200 else 1
    except (urllib.error.URLError, OSError) as exc:
        print(f"unhealthy: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
