"""The deployment files hold together without Docker: the compose services and their order,
the Procfile's processes, gunicorn's settings from the environment. (CI also runs
`docker compose config` where a client exists.)"""

from __future__ import annotations

import runpy
import tomllib
from pathlib import Path

import pytest
import yaml

from tests.conftest import ROOT


@pytest.fixture(scope="module")
def compose() -> dict:
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())


def test_compose_has_every_role(compose):
    services = compose["services"]
    started = {name for name, service in services.items() if "profiles" not in service}
    assert started == {
        "postgres",
        "redis",
        "migrate",
        "web",
        "stream",
        "worker",
        "analysis",
        "beat",
    }
    # The monitoring profile (`--profile monitoring`): Prometheus and its exporters.
    assert {name for name in services if name not in started} == {
        "prometheus",
        "postgres-exporter",
        "redis-exporter",
    }
    assert all(
        services[name]["profiles"] == ["monitoring"] for name in services if name not in started
    )


def test_postgres_keeps_its_data_and_reports_health(compose):
    postgres = compose["services"]["postgres"]
    assert any(v.startswith("pgdata:") for v in postgres["volumes"])
    assert "pg_isready" in " ".join(postgres["healthcheck"]["test"])
    assert "pgdata" in compose["volumes"]


def test_the_app_waits_for_a_healthy_database_and_a_finished_migrate(compose):
    services = compose["services"]
    assert services["migrate"]["restart"] == "no"
    assert services["migrate"]["depends_on"]["postgres"]["condition"] == "service_healthy"
    for name in ("web", "stream", "worker", "analysis", "beat"):
        depends = services[name]["depends_on"]
        assert depends["migrate"]["condition"] == "service_completed_successfully", name
        assert depends["redis"]["condition"] == "service_healthy", name


def test_production_settings_in_compose(compose):
    web = compose["services"]["web"]
    env = web["environment"]
    assert env["DEBUG"] == "0"
    assert env["SECRET_KEY"].startswith("${SECRET_KEY:?")  # refuses to start without one
    assert env["CELERY_BROKER_URL"].startswith("redis://redis")
    assert env["CACHE_URL"].startswith("redis://redis")  # throttling shared by every process
    assert "gunicorn" in web["command"]
    assert web["healthcheck"]["test"][-1] == "spider_api.healthcheck"


def test_the_stream_service_serves_the_asgi_app_with_redis(compose):
    stream = compose["services"]["stream"]
    assert stream["command"][:2] == ["uvicorn", "spider_api.asgi:application"]
    # Redis fans the events out between stream processes (RACE_EVENTS_REDIS_URL defaults
    # to the broker's URL).
    assert stream["environment"]["CELERY_BROKER_URL"].startswith("redis://redis")
    assert any(p.endswith(":8001") for p in stream["ports"])


def test_beat_is_a_singleton(compose):
    beat = compose["services"]["beat"]
    assert beat["deploy"]["replicas"] == 1
    assert "beat" in beat["command"]


def test_the_procfile_runs_web_stream_worker_and_beat():
    lines = [
        line
        for line in (ROOT / "Procfile").read_text().splitlines()
        if line and not line.startswith("#")
    ]
    processes = dict(line.split(": ", 1) for line in lines)
    assert set(processes) == {"web", "stream", "worker", "analysis", "beat"}
    assert processes["web"].startswith("gunicorn -c gunicorn.conf.py spider_api.wsgi")
    assert processes["stream"].startswith("uvicorn spider_api.asgi:application")
    assert "celery -A spider_api worker" in processes["worker"]
    assert "celery -A spider_api beat" in processes["beat"]
    # The post-game analyses run on their own queue, which the plain worker never takes.
    assert '--queues "${ANALYSIS_QUEUE:-analysis}"' in processes["analysis"]
    assert "--queues" not in processes["worker"]


def test_no_uvicorn_takes_the_client_address_from_a_header():
    """uvicorn trusts X-Forwarded-For from loopback unless told not to, so a client on the
    same machine (or behind a proxy it can talk past) would choose its throttling address.
    The address is the app's to read, by NUM_PROXIES, as under gunicorn."""
    sources = {
        "Makefile": (ROOT / "Makefile").read_text(),
        "Procfile": (ROOT / "Procfile").read_text(),
        "docker-compose.yml": (ROOT / "docker-compose.yml").read_text(),
    }
    for name, text in sources.items():
        assert "uvicorn" in text, name
        assert "--no-proxy-headers" in text, name
        assert "--proxy-headers" not in text.replace("--no-proxy-headers", ""), name


def test_gunicorn_redacts_secrets_from_its_lines(monkeypatch):
    conf = runpy.run_path(str(ROOT / "gunicorn.conf.py"))
    handler = conf["logconfig_dict"]["handlers"]["console"]
    assert "redact" in handler["filters"]


def test_gunicorn_reads_its_settings_from_the_environment(monkeypatch):
    monkeypatch.setenv("PORT", "8123")
    monkeypatch.setenv("WEB_CONCURRENCY", "3")
    monkeypatch.setenv("GUNICORN_THREADS", "2")
    monkeypatch.delenv("GUNICORN_CONTROL_SOCKET", raising=False)
    conf = runpy.run_path(str(ROOT / "gunicorn.conf.py"))
    assert conf["bind"] == "0.0.0.0:8123"
    assert (conf["workers"], conf["threads"]) == (3, 2)
    assert conf["accesslog"] is None  # the app logs each request with its id
    assert conf["control_socket_disable"] is True  # several servers on one machine
    assert conf["preload_app"] is False  # no database connection shared across a fork


def test_the_image_copies_every_project_app():
    # An app or package left out of the image imports nowhere: the container fails at
    # start-up, which no test here would see without Docker.
    from django.conf import settings

    dockerfile = (ROOT / "Dockerfile").read_text()
    apps = [app for app in settings.INSTALLED_APPS if (ROOT / app / "apps.py").exists()]
    assert apps, "no project app found"
    found = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    packages = [name.rstrip("*") for name in found["packages"]["find"]["include"]]
    for app in (*apps, *packages):
        assert f"COPY {app} ./{app}" in dockerfile, f"the Dockerfile does not copy {app}/"


# -- the high-availability topology: deploy/ and docker-compose.ha.yml ------------------------
DEPLOY = ROOT / "deploy"
LAID_OUT = {"ETCD_NAME", "ETCD_DATA_DIR", "PGBOUNCER_RUN_DIR"}  # set where the files are laid out


def _hosts_env() -> dict[str, str]:
    pairs = (
        line.split("=", 1)
        for line in (DEPLOY / "hosts.env").read_text().splitlines()
        if line.strip() and not line.startswith("#")
    )
    return dict(pairs)


def _variables(path) -> set[str]:
    import re

    return set(re.findall(r"\$\{([A-Z0-9_]+)\}", path.read_text()))


@pytest.fixture(scope="module")
def ha_compose() -> dict:
    return yaml.safe_load((ROOT / "docker-compose.ha.yml").read_text())


def test_every_variable_of_the_topologys_files_is_given_on_one_machine_and_in_compose(ha_compose):
    files = [
        DEPLOY / "haproxy" / "haproxy.cfg",
        DEPLOY / "pgbouncer" / "pgbouncer.ini",
        DEPLOY / "etcd" / "etcd.yml",
    ]
    used = set().union(*(_variables(f) for f in files)) - LAID_OUT
    assert used - set(_hosts_env()) == set()
    compose_hosts = set(ha_compose["x-hosts"])
    per_service = {"HAPROXY_SOURCE", "SPIDER_DB_PASSWORD"}
    assert used - compose_hosts - per_service == set()
    assert ha_compose["services"]["haproxy"]["environment"]["HAPROXY_SOURCE"] == "0.0.0.0"


def test_the_one_machine_layout_uses_its_own_loopback_block():
    hosts = _hosts_env()
    addresses = {k: v for k, v in hosts.items() if k.endswith(("_ADDR", "_SOURCE"))}
    assert all(v.startswith("127.0.0.2") and v != "127.0.0.2" for v in addresses.values())
    for path in DEPLOY.rglob("*"):
        if path.is_file() and path.suffix in (".cfg", ".ini", ".yml", ".env", ".sh", ".py"):
            lines = path.read_text().splitlines()
            text = "\n".join(x for x in lines if not x.lstrip().startswith(("#", ";")))
            assert "localhost" not in text and "127.0.0.1" not in text, path


def test_haproxy_reads_its_configuration_in_both_layouts(ha_compose):
    import shutil
    import subprocess

    haproxy = shutil.which("haproxy") or "/usr/sbin/haproxy"
    if not Path(haproxy).exists():
        pytest.skip("no haproxy here (make topology-install)")
    compose_env = {
        **ha_compose["x-hosts"],
        **ha_compose["services"]["haproxy"]["environment"],
    }
    compose_env = {k: str(v) for k, v in compose_env.items() if not k.startswith("<<")}
    for env in (_hosts_env(), compose_env):
        result = subprocess.run(
            [haproxy, "-c", "-f", str(DEPLOY / "haproxy" / "haproxy.cfg")],
            env={"PATH": "/usr/bin:/bin", **env},
            capture_output=True,
            text=True,
        )
        assert result.returncode == 0, result.stderr


def test_patroni_promises_what_the_rehearsal_tests():
    patroni = yaml.safe_load((DEPLOY / "patroni" / "patroni.yml").read_text())
    dcs = patroni["bootstrap"]["dcs"]
    assert dcs["synchronous_mode"] is True and dcs["synchronous_mode_strict"] is False
    assert dcs["failsafe_mode"] is True
    assert dcs["ttl"] >= dcs["loop_wait"] + 2 * dcs["retry_timeout"]
    parameters = dcs["postgresql"]["parameters"]
    assert parameters["synchronous_commit"] == "on" and parameters["timezone"] == "UTC"
    assert patroni["postgresql"]["parameters"]["unix_socket_directories"] == ""


def test_pgbouncer_pools_transactions_in_front_of_haproxy():
    ini = (DEPLOY / "pgbouncer" / "pgbouncer.ini").read_text()
    assert "pool_mode = transaction" in ini
    assert "host=${HAPROXY_ADDR} port=${PG_PRIMARY_PORT}" in ini
    assert "${PGBOUNCER_DB}_replica = host=${HAPROXY_ADDR} port=${PG_REPLICA_PORT}" in ini


def test_ha_compose_runs_the_app_through_pgbouncer(ha_compose):
    services = ha_compose["services"]
    assert {"etcd", "pg1", "pg2", "haproxy", "pgbouncer", "web1", "web2"} <= set(services)
    for name in ("web1", "web2", "stream1", "stream2", "worker", "analysis", "beat"):
        env = services[name]["environment"]
        assert "@pgbouncer:6432/spider" in env["DATABASE_URL"], name
        assert env["DATABASE_REPLICA_URL"].endswith("@pgbouncer:6432/spider_replica"), name
        assert env["DATABASE_TRANSACTION_POOLING"] == "1", name
    migrate = services["migrate"]["environment"]
    assert "@haproxy:5000/" in migrate["DATABASE_URL"]  # migrations: a session of their own
    assert migrate["DATABASE_TRANSACTION_POOLING"] == "0"
    for member in ("pg1", "pg2"):
        assert services[member]["command"] == ["patroni"]
        assert services[member]["environment"]["PATRONI_NAME"] == member
