"""What the token behind a request costs a web process: a cache hit, and a miss (the lookup).

Every API request authenticates (base/authentication.py). A web process keeps a checked
token for ``TOKEN_CACHE_SECONDS``; a player acting every few seconds across several web
processes is often not in the cache of the one serving them, and then the token and its user
are read from the database. This bench measures, in one process on a scratch PostgreSQL
database, the CPU (``time.process_time``: this process only, not PostgreSQL's) of
``BearerTokenAuthentication.authenticate_credentials`` on a hit and on a miss (the cache
emptied before each call), and of the same read compiled by the ORM
(``select_related("user")``, the lookup's old way) side by side, in alternating rounds.

    .venv/bin/python bench/token_lookup.py --calls 2000 --rounds 5

Last line: one JSON object: ``hit_us``, ``miss_us``, ``orm_us`` (medians of the rounds'
medians, microseconds of CPU per call), ``miss_orm_ratio``, ``rounds``, ``calls``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
try:  # imported as bench.<module>
    from bench.api import prepare_database
    from bench.servers import server_env
except ImportError:  # run as a script: bench/ itself is on sys.path
    from api import prepare_database  # type: ignore[import-not-found,no-redef]
    from servers import server_env  # type: ignore[import-not-found,no-redef]


def median_us(call: Callable[[], Any], calls: int) -> float:
    times = []
    for _ in range(calls):
        start = time.process_time_ns()
        call()
        times.append(time.process_time_ns() - start)
    return statistics.median(times) / 1000


def measure(calls: int, rounds: int) -> dict[str, Any]:
    import django

    django.setup()
    from django.db import transaction

    from accounts.models import ApiToken, User
    from accounts.services import device_token_issue
    from base import authentication

    user = User.objects.create_user("token-bench", password=None)
    with transaction.atomic():
        secret = device_token_issue(user=user, device="bench").secret
    key_hash = ApiToken.objects.get(user=user).key_hash
    check = authentication.BearerTokenAuthentication().authenticate_credentials

    def miss() -> None:
        authentication.forget_all()
        check(secret)

    def orm() -> None:
        authentication.forget_all()
        ApiToken.objects.select_related("user").filter(key_hash=key_hash).first()

    figures: dict[str, list[float]] = {"hit_us": [], "miss_us": [], "orm_us": []}
    for _ in range(rounds):
        check(secret)  # warm: the statement prepared, the entry cached
        figures["hit_us"].append(median_us(lambda: check(secret), calls))
        figures["miss_us"].append(median_us(miss, calls))
        figures["orm_us"].append(median_us(orm, calls))
        print({k: round(v[-1], 1) for k, v in figures.items()}, flush=True)
    out: dict[str, Any] = {k: round(statistics.median(v), 1) for k, v in figures.items()}
    out["miss_orm_ratio"] = round(out["miss_us"] / out["orm_us"], 3)
    out.update(rounds=rounds, calls=calls)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=2000, help="calls per figure and round")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--db", default="spider_bench_token")
    args = parser.parse_args()
    env = server_env(f"postgres://postgres@127.0.0.1:5432/{args.db}")
    prepare_database(args.db, env, deals=0)
    os.environ.update(env)
    os.environ["DJANGO_SETTINGS_MODULE"] = "spider_api.settings"
    print(json.dumps(measure(args.calls, args.rounds)))


if __name__ == "__main__":
    main()
