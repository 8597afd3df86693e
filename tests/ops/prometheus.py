"""A real Prometheus server for the failure tests (Debian's ``prometheus`` package): started
on a loopback port with a data directory of its own, scraping the processes it is given
every ``SCRAPE_SECONDS`` with the repository's rules (deploy/prometheus/rules) evaluated as
often, stopped with the test. And the exporters beside the app: PostgreSQL's and Redis's.

``Prometheus.query`` asks its HTTP API for an instant vector; ``alerts`` the alerts pending
or firing; ``wait`` polls a query until a condition on its answer holds.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import yaml

from tests.ops.procs import BIN, ROOT, Processes, free_port, wait_for

RULES = ROOT / "deploy" / "prometheus" / "rules"
SCRAPE_SECONDS = 2  # a target's figures at most this old; rules evaluated every second


def binary(name: str) -> str:
    found = shutil.which(name)
    if found is None:
        raise AssertionError(
            f"{name} not found: install Debian's prometheus, prometheus-postgres-exporter and "
            "prometheus-redis-exporter (.ci/run does)"
        )
    return found


@dataclass
class Job:
    name: str
    targets: list[str]
    token: str | None = None  # the app's /metrics want the METRICS_TOKEN


@dataclass
class Prometheus:
    base: str
    jobs: list[Job] = field(default_factory=list)

    def query(self, expr: str) -> list[dict[str, Any]]:
        """The instant vector (or scalar) ``expr`` evaluates to now; fails on an invalid one."""
        response = httpx.get(f"{self.base}/api/v1/query", params={"query": expr}, timeout=10)
        body = response.json()
        assert body.get("status") == "success", (expr, body)
        data = body["data"]
        if data["resultType"] == "scalar":
            return [{"metric": {}, "value": data["result"]}]
        result: list[dict[str, Any]] = data["result"]
        return result

    def values(self, expr: str) -> list[float]:
        return [float(r["value"][1]) for r in self.query(expr)]

    def alerts(self, name: str, state: str | None = None) -> list[dict[str, Any]]:
        found = httpx.get(f"{self.base}/api/v1/alerts", timeout=10).json()["data"]["alerts"]
        return [
            a
            for a in found
            if a["labels"]["alertname"] == name and (state is None or a["state"] == state)
        ]

    def wait(self, what: str, check: Callable[[], Any], timeout: float = 60) -> Any:
        return wait_for(f"Prometheus to see {what}", check, timeout, interval=0.5)


def start_prometheus(procs: Processes, jobs: list[Job]) -> Prometheus:
    workdir = procs.logdir / "prometheus"
    workdir.mkdir()
    configs = []
    for job in jobs:
        config: dict[str, Any] = {
            "job_name": job.name,
            "static_configs": [{"targets": job.targets}],
        }
        if job.token:
            secret = workdir / f"{job.name}.token"
            secret.write_text(job.token)
            config["authorization"] = {"credentials_file": str(secret)}
        configs.append(config)
    config_file = workdir / "prometheus.yml"
    config_file.write_text(
        yaml.safe_dump(
            {
                "global": {
                    "scrape_interval": f"{SCRAPE_SECONDS}s",
                    "scrape_timeout": f"{SCRAPE_SECONDS}s",
                    "evaluation_interval": "1s",
                },
                "rule_files": [str(RULES / "*.yml")],
                "scrape_configs": configs,
            }
        )
    )
    port = free_port()
    procs.start(
        "prometheus",
        [
            binary("prometheus"),
            f"--config.file={config_file}",
            f"--storage.tsdb.path={workdir / 'data'}",
            f"--web.listen-address=127.0.0.1:{port}",
            "--storage.tsdb.retention.time=1h",
            "--log.level=warn",
        ],
        {"PATH": "/usr/bin:/bin"},
    )
    base = f"http://127.0.0.1:{port}"
    wait_for("prometheus ready", lambda: httpx.get(f"{base}/-/ready").status_code == 200, 60)
    return Prometheus(base, jobs)


def start_postgres_exporter(procs: Processes, pg_port: int, database: str) -> str:
    port = free_port()
    dsn = f"postgresql://postgres@127.0.0.1:{pg_port}/{database}?sslmode=disable"
    procs.start(
        "postgres-exporter",
        [binary("prometheus-postgres-exporter"), f"--web.listen-address=127.0.0.1:{port}"],
        {"PATH": "/usr/bin:/bin", "DATA_SOURCE_NAME": dsn},
    )
    return f"127.0.0.1:{port}"


def start_redis_exporter(procs: Processes, redis_port: int) -> str:
    port = free_port()
    procs.start(
        "redis-exporter",
        [
            binary("prometheus-redis-exporter"),
            f"-web.listen-address=127.0.0.1:{port}",
            f"-redis.addr=redis://127.0.0.1:{redis_port}",
        ],
        {"PATH": "/usr/bin:/bin"},
    )
    return f"127.0.0.1:{port}"


def start_stream(procs: Processes, env: dict[str, str], name: str = "stream") -> str:
    """The ASGI stream process (uvicorn, as the Procfile runs it) on a free port."""
    port = free_port()
    procs.start(
        name,
        [
            str(BIN / "uvicorn"),
            "spider_api.asgi:application",
            "--host=127.0.0.1",
            f"--port={port}",
            "--lifespan=on",
            "--no-access-log",
            "--no-proxy-headers",
            "--timeout-graceful-shutdown=2",
        ],
        env,
    )
    base = f"http://127.0.0.1:{port}"
    wait_for(f"{name} up", lambda: httpx.get(f"{base}/health/live").status_code == 200, 60)
    return base


def dashboard_queries(path: Path, window: str) -> list[tuple[str, str]]:
    """(panel title, expression) of every query of the Grafana dashboard, its interval
    variable set to ``window``."""
    board = json.loads(path.read_text())
    found = []
    for panel in board["panels"]:
        for target in panel.get("targets", []):
            found.append((panel["title"], target["expr"].replace("$__rate_interval", window)))
    return found
