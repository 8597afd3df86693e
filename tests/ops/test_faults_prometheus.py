"""A real Prometheus watches the faults. Every process kind runs with metrics on: two web
hosts (gunicorn, two workers each), the stream process, a Celery worker and beat (each on
its own listener), with the exporters of PostgreSQL and Redis beside them; Prometheus
(Debian's package) scrapes them all every two seconds and evaluates the repository's rules
(deploy/prometheus/rules) every second. A private PostgreSQL cluster and Redis.
(`make faults`)

Players play throughout, with the rest of what players do (hints, some of them throttled,
refused actions, a resigned game and its analysis, a race followed on its event stream, an
OAuth app's token). Then, each seen through Prometheus's HTTP API:

- a mode's pool emptied by new games: SpiderPoolEmpty pending for that mode;
- every query of the Grafana dashboard (deploy/grafana) valid and not empty;
- a web host killed: its target down, SpiderTargetDown pending for it, the other one up;
- PostgreSQL stopped: the web's share of 5xx up, its exporter's pg_up 0;
- the worker's pool process killed mid-vet: a `worker_lost` fill_pool, SpiderTasksFailing
  pending.
"""

from __future__ import annotations

import json
import random
import shutil
import signal
import socket
import subprocess
import threading
import time
import uuid
from typing import Any

import httpx
import pytest

from bench.api import oauth_token
from bench.load import choose
from spider_api.metrics import multiprocess
from tests.ops.procs import (
    ROOT,
    app_env,
    celery_cmd,
    manage,
    private_postgres,
    private_redis,
    processes,
    publish,
    say,
    start_beat,
    start_web,
    stock_pool,
    wait_for,
)
from tests.ops.prometheus import (
    Job,
    dashboard_queries,
    start_postgres_exporter,
    start_prometheus,
    start_redis_exporter,
    start_stream,
)

pytestmark = [pytest.mark.faults, pytest.mark.slow]

TOKEN = "faults-metrics-token-0123456789"
DASHBOARD = ROOT / "deploy" / "grafana" / "spider.json"
ACTIONS = "/api/v1/games/<uuid:game_id>/actions"


class Player(threading.Thread):
    """Plays 1-suit games on one web host until told to stop: actions with `version` (one in
    thirty on a stale one: refused), a hint now and then (throttled past its rate). Carries
    on through errors and outages."""

    def __init__(self, base: str, stop: threading.Event) -> None:
        super().__init__(daemon=True)
        self.client = httpx.Client(base_url=base, timeout=10)
        self.stop = stop
        self.rnd = random.Random()
        self.statuses: dict[int, int] = {}

    def call(self, method: str, url: str, **kwargs: Any) -> httpx.Response | None:
        try:
            response = self.client.request(method, url, **kwargs)
        except httpx.HTTPError:
            time.sleep(0.3)  # its host is down
            return None
        self.statuses[response.status_code] = self.statuses.get(response.status_code, 0) + 1
        if response.status_code >= 500:
            time.sleep(0.2)
        return response

    def run(self) -> None:
        name = f"prom_{uuid.uuid4().hex[:10]}"
        body = {"username": name, "password": "prometheus test password 1"}
        while not self.stop.is_set():
            r = self.call("POST", "/api/v1/auth/register", json=body)
            if r is not None and r.status_code == 201:
                self.client.headers["Authorization"] = f"Bearer {r.json()['token']}"
                break
        state: dict[str, Any] | None = None
        n = 0
        while not self.stop.is_set():
            n += 1
            if state is None or state.get("status") != "in_progress" or state["actions"] > 60:
                r = self.call("POST", "/api/v1/games", json={"suits": 1})
                state = r.json() if r is not None and r.status_code == 201 else None
                continue
            if n % 12 == 0:
                self.call("POST", f"/api/v1/games/{state['id']}/hint", json={"n": 0})
                r = self.call("GET", f"/api/v1/games/{state['id']}")
                state = r.json() if r is not None and r.status_code == 200 else None
                continue
            action = choose(state, self.rnd)
            if action is None:
                state = None
                continue
            action["version"] = state["version"] - (1 if n % 30 == 0 else 0)
            r = self.call("POST", f"/api/v1/games/{state['id']}/actions", json=action)
            if r is not None and r.status_code == 200:
                state = r.json()
            else:
                r = self.call("GET", f"/api/v1/games/{state['id']}")
                state = r.json() if r is not None and r.status_code == 200 else None
            time.sleep(0.03)


def distinct_ports(n: int) -> list[int]:
    """``n`` free ports, all different (each held while the next is found)."""
    held = [socket.socket() for _ in range(n)]
    try:
        for s in held:
            s.bind(("127.0.0.1", 0))
        return [s.getsockname()[1] for s in held]
    finally:
        for s in held:
            s.close()


def signed_up(base: str) -> httpx.Client:
    client = httpx.Client(base_url=base, timeout=30)
    r = client.post(
        "/api/v1/auth/register",
        json={"username": f"prom_{uuid.uuid4().hex[:10]}", "password": "prometheus pw 12"},
    )
    assert r.status_code == 201, r.text
    client.headers["Authorization"] = f"Bearer {r.json()['token']}"
    return client


def ok(response: httpx.Response, status: int = 200) -> dict[str, Any]:
    assert response.status_code == status, (response.status_code, response.text[:300])
    body: dict[str, Any] = response.json()
    return body


def resigned_and_analysed(base: str) -> None:
    """A game played a little, resigned, and its analysis asked for (the worker runs it)."""
    client = signed_up(base)
    state = ok(client.post("/api/v1/games", json={"suits": 1}), 201)
    rnd = random.Random(7)
    for _ in range(6):
        action = choose(state, rnd)
        if action is None:
            break
        state = ok(client.post(f"/api/v1/games/{state['id']}/actions", json=action))
    ok(client.post(f"/api/v1/games/{state['id']}/resign"))
    ok(client.post(f"/api/v1/games/{state['id']}/analysis"), 202)


def raced_with_a_stream(base: str, stream: str) -> int:
    """Two players race; a stream on the stream process follows the table while they play.
    Returns the events it read."""
    a, b = signed_up(base), signed_up(base)
    code = ok(a.post("/api/v1/races", json={"suits": 1}), 201)["code"]
    ok(b.post(f"/api/v1/races/{code}/sit"))
    ok(b.post(f"/api/v1/races/{code}/ready"))
    ticket = ok(a.post(f"/api/v1/races/{code}/ticket"), 201)["ticket"]
    lines: list[str] = []

    def follow() -> None:
        url = f"{stream}/api/v1/races/{code}/events?ticket={ticket}"
        headers = {"Accept": "application/x-ndjson"}
        try:
            with httpx.stream("GET", url, headers=headers, timeout=30) as response:
                for line in response.iter_lines():
                    if line:
                        lines.append(line)
                    if len(lines) >= 8:
                        return
        except httpx.HTTPError:
            return

    reader = threading.Thread(target=follow, daemon=True)
    reader.start()
    wait_for("the stream's first event", lambda: lines, 30)
    race = ok(a.post(f"/api/v1/races/{code}/start"))["race"]
    games = [r["game"] for r in race["racers"]]
    wait_for(
        "the race to start",
        lambda: ok(a.get(f"/api/v1/races/{code}"))["status"] == "racing",
        30,
        0.5,
    )
    rnd = random.Random(3)
    for client, game in zip((a, b, a, b, a, b), games * 3, strict=True):
        state = ok(client.get(f"/api/v1/games/{game}"))
        action = choose(state, rnd)
        if action is not None:
            action["version"] = state["version"]
            client.post(f"/api/v1/games/{game}/actions", json=action)
    reader.join(20)
    return len(lines)


def test_prometheus_sees_every_fault():
    with (
        private_postgres() as pg,
        private_redis() as redis,
        processes("prometheus") as procs,
    ):
        env = app_env(
            pg.url,
            redis.url,
            METRICS_TOKEN=TOKEN,
            DATABASE_CONN_MAX_AGE="60",
            POOL_AUTOFILL="0",
            POOL_SYNC_VET_SECONDS="0",
            POOL_LOW_WATER="0",  # no fill but the one the test queues
            POOL_TARGET="500",
            POOL_PAR_MAX_NODES="2000000",  # a vetting takes about a second: time to kill it
            BEAT_HEARTBEAT_SECONDS="1",
            BEAT_STALE_SECONDS="10",
            THROTTLE_RATE_HINTS="4/min",  # some hints throttled
            THROTTLE_RATE_POOL="100000/min",
            RACE_COUNTDOWN_SECONDS="0",
            ANALYSIS_PROBE_MAX_NODES_1="20000",
            ANALYSIS_MAX_NODES="200000",
            ANALYSIS_PROOF_MAX_NODES="10000",
        )
        manage(env, "migrate", "--noinput", "-v0")
        stock_pool(env, unvetted={1: 120, 2: 3, 4: 3})
        web_a = start_web(procs, env, workers=2, threads=2)
        web_b = start_web(procs, env, workers=2, threads=2)
        web_b_proc = procs.started[-1]
        stream = start_stream(procs, env)
        worker_port, beat_port = (f"127.0.0.1:{port}" for port in distinct_ports(2))
        worker = procs.start(
            "worker",
            celery_cmd(
                "worker",
                "--queues",
                "celery,analysis",
                "--concurrency",
                "1",
                "--loglevel",
                "INFO",
                "--without-gossip",
                "--without-mingle",
                "--without-heartbeat",
                "-n",
                f"prom-{uuid.uuid4().hex[:6]}@%h",
            ),
            {**env, "METRICS_ADDRESS": worker_port},
        )
        wait_for("the worker ready", lambda: "ready." in worker.output(), 60)
        start_beat(procs, {**env, "METRICS_ADDRESS": beat_port})
        pg_exporter = start_postgres_exporter(procs, pg.port, "spider")
        redis_exporter = start_redis_exporter(procs, redis.port)
        host = lambda base: base.removeprefix("http://")  # noqa: E731
        prom = start_prometheus(
            procs,
            [
                Job("spider-web", [host(web_a), host(web_b)], TOKEN),
                Job("spider-stream", [host(stream)], TOKEN),
                Job("spider-worker", [worker_port], TOKEN),
                Job("spider-beat", [beat_port], TOKEN),
                Job("postgres", [pg_exporter]),
                Job("redis", [redis_exporter]),
            ],
        )
        prom.wait("all 7 targets up", lambda: prom.values("up") == [1.0] * 7, 90)
        say(
            f"Prometheus {prom.base} scrapes 7 targets, all up "
            "(2 web, stream, worker, beat, 2 exporters)"
        )

        stop = threading.Event()
        players = [Player(base, stop) for base in (web_a, web_a, web_b)]
        for player in players:
            player.start()
        try:
            # -- what players do besides playing ------------------------------------------
            resigned_and_analysed(web_a)
            app_client = signed_up(web_a)
            oauth_token(app_client, app_client.headers["Authorization"].split()[1])
            events = raced_with_a_stream(web_a, stream)
            say(
                f"load: 3 players playing, a game resigned and analysed, a race "
                f"({events} events streamed), an OAuth token"
            )

            # -- a mode's pool emptied ----------------------------------------------------
            emptier = signed_up(web_a)
            answers = [
                emptier.post("/api/v1/games", json={"suits": 2}).status_code for _ in range(4)
            ]
            assert answers == [201, 201, 201, 503], answers
            pending = prom.wait(
                "SpiderPoolEmpty pending for the 2-suit pool",
                lambda: prom.alerts("SpiderPoolEmpty", "pending"),
            )
            assert {a["labels"]["suits"] for a in pending} == {"2"}
            assert prom.values('max by (suits) (spider_pool_deals{suits="2"})') == [0.0]
            say(
                "the 2-suit pool emptied by new games (the fourth 503 pool_empty): "
                "SpiderPoolEmpty pending for suits=2 only"
            )

            wait_for(
                "the analysis done",
                lambda: prom.values('sum(spider_analyses_total{status="done"})') == [1.0],
                120,
                1,
            )

            # -- a web host killed ---------------------------------------------------------
            web_b_proc.kill_group(signal.SIGKILL)
            # What a killed server leaves (the next one started on the host sweeps it): here.
            shutil.rmtree(multiprocess.server_directory("web", web_b_proc.pid))
            prom.wait(
                "web-b's target down",
                lambda: prom.values(f'up{{instance="{host(web_b)}"}}') == [0.0],
            )
            assert prom.values(f'up{{instance="{host(web_a)}"}}') == [1.0]
            alert = prom.wait(
                "SpiderTargetDown pending for web-b",
                lambda: prom.alerts("SpiderTargetDown", "pending"),
            )
            assert [a["labels"]["instance"] for a in alert] == [host(web_b)], alert
            say(
                f"web-b SIGKILLed: up{{instance={host(web_b)}}} 0, web-a still up, "
                "SpiderTargetDown pending for web-b"
            )

            # -- PostgreSQL stopped --------------------------------------------------------
            ratio = (
                'sum(rate(spider_http_requests_total{job="spider-web",status=~"5.."}[10s]))'
                ' / sum(rate(spider_http_requests_total{job="spider-web"}[10s]))'
            )
            before = prom.values(f"({ratio}) or vector(0)")
            pg.halt()
            try:
                seen = prom.wait(
                    "the web's share of 5xx up",
                    lambda: [v for v in prom.values(ratio) if v > 0.05],
                )
                assert prom.values("pg_up") == [0.0]
                say(f"PostgreSQL stopped: the web's 5xx share {before} -> {seen}, pg_up 0")
            finally:
                pg.start()
            wait_for(
                "the database back",  # (/health stays 503: the 2-suit pool is empty)
                lambda: httpx.get(f"{web_a}/health").json()["checks"]["database"]["status"] == "ok",
                60,
            )
            prom.wait("pg_up 1", lambda: prom.values("pg_up") == [1.0])

            # -- the worker's pool process killed mid-vet ----------------------------------
            task = publish(env, "games.tasks.fill_pool", 1)
            wait_for(
                "the first deal vetted",
                lambda: "vetted 1-suit seed" in worker.output(),
                120,
                0.05,
            )
            [child] = worker.children()
            subprocess.run(["kill", "-KILL", str(child)], check=True)
            prom.wait(
                "fill_pool's worker_lost",
                lambda: (
                    prom.values(
                        'sum(spider_celery_tasks_total{task="games.tasks.fill_pool",outcome="worker_lost"})'
                    )
                    == [1.0]
                ),
            )
            # (beat's sweeps failed while PostgreSQL was down: pending too, rightly)
            prom.wait(
                "SpiderTasksFailing pending for fill_pool",
                lambda: [
                    a
                    for a in prom.alerts("SpiderTasksFailing", "pending")
                    if a["labels"]["task"] == "games.tasks.fill_pool"
                ],
            )
            say(
                f"the worker's pool process {child} SIGKILLed mid-vet of {task}: "
                "worker_lost 1, SpiderTasksFailing pending for it"
            )
            # The dashboard's vetting panels (increase() and rate()) need the vet in two
            # scrapes: the worker stays up until Prometheus has scraped it twice.
            prom.wait(
                "the vet in two scrapes",
                lambda: [
                    v
                    for v in prom.values("max(count_over_time(spider_pool_vet_seconds_count[10m]))")
                    if v >= 2
                ],
            )
            worker.stop()  # the delivered-again fill would vet for minutes

            # -- every query of the dashboard ----------------------------------------------
            queries = dashboard_queries(DASHBOARD, "10m")
            empty = [(title, expr) for title, expr in queries if not prom.query(expr)]
            assert not empty, json.dumps(empty, indent=1)
            say(f"the dashboard's {len(queries)} queries: every one valid and not empty")
        finally:
            stop.set()
            for player in players:
                player.join(30)
        statuses: dict[int, int] = {}
        for player in players:
            for code, count in player.statuses.items():
                statuses[code] = statuses.get(code, 0) + count
        say(f"the players' answers: {dict(sorted(statuses.items()))}")
        assert "Traceback" not in procs.started[0].output()
