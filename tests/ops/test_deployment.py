"""The deployment files hold together without Docker: the compose services and their order,
the Procfile's processes, gunicorn's settings from the environment. (CI also runs
`docker compose config` where a client exists.)"""

from __future__ import annotations

import runpy
import tomllib

import pytest
import yaml

from tests.conftest import ROOT


@pytest.fixture(scope="module")
def compose() -> dict:
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())


def test_compose_has_every_role(compose):
    assert set(compose["services"]) == {
        "postgres",
        "redis",
        "migrate",
        "web",
        "stream",
        "worker",
        "analysis",
        "beat",
    }


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
