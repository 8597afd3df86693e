"""The environment readers and the settings that depend on the environment."""

import os
import subprocess
import sys

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.db import connection

from base.env import env_bool, env_choice, env_int, env_list, env_rate, env_str
from tests.conftest import ROOT


@pytest.mark.parametrize(("value", "expected"), [("1", True), ("TRUE", True), ("off", False)])
def test_env_bool(monkeypatch, value, expected):
    monkeypatch.setenv("X", value)
    assert env_bool("X", default=not expected) is expected


@pytest.mark.parametrize(
    ("reader", "value"),
    [
        (lambda: env_bool("X", default=False), "maybe"),
        (lambda: env_int("X", 0), "ten"),
        (lambda: env_int("X", 0, minimum=0), "-1"),
        (lambda: env_rate("X", "1/min"), "20 per minute"),
        (lambda: env_choice("X", "INFO", ("INFO", "DEBUG")), "LOUD"),
    ],
)
def test_bad_values_are_improperly_configured_and_named(monkeypatch, reader, value):
    monkeypatch.setenv("X", value)
    with pytest.raises(ImproperlyConfigured, match="^X="):
        reader()


def test_unset_and_blank_mean_the_default(monkeypatch):
    monkeypatch.delenv("X", raising=False)
    assert env_str("X", "d") == "d"
    monkeypatch.setenv("X", "  ")
    assert env_int("X", 7) == 7
    assert env_list("X", ["a"]) == ["a"]


def test_env_list_splits_on_commas(monkeypatch):
    monkeypatch.setenv("X", "api.example.com, ,localhost")
    assert env_list("X") == ["api.example.com", "localhost"]


def _import_settings(**env: str) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if k not in ("SECRET_KEY", "DEBUG")}
    return subprocess.run(
        [sys.executable, "-c", "import spider_api.settings"],
        cwd=ROOT,
        env={**clean, **env},
        capture_output=True,
        text=True,
        check=False,
    )


def test_production_refuses_to_start_without_a_secret_key():
    result = _import_settings()
    assert result.returncode != 0
    assert "SECRET_KEY must be set when DEBUG is off" in result.stderr


def test_debug_runs_with_no_configuration():
    assert _import_settings(DEBUG="1").returncode == 0


def test_a_bad_database_url_is_improperly_configured():
    result = _import_settings(DEBUG="1", DATABASE_URL="mongodb://localhost/spider")
    assert "ImproperlyConfigured: DATABASE_URL" in result.stderr


@pytest.mark.postgres
def test_postgresql_is_reached_through_psycopg_3():
    assert connection.Database.__name__ == "psycopg"
    assert connection.Database.__version__.startswith("3.")


def _fresh_checkout_env(**env: str) -> dict[str, str]:
    """The environment of a fresh checkout: none of the project's variables set."""
    unset = ("SECRET_KEY", "DEBUG", "DATABASE_URL", "CELERY_BROKER_URL", "DJANGO_SETTINGS_MODULE")
    return {**{k: v for k, v in os.environ.items() if k not in unset}, **env}


def test_manage_py_works_in_a_fresh_checkout_with_no_configuration():
    result = subprocess.run(
        [sys.executable, "manage.py", "solve", "--suits", "4", "--seed", "1"],
        cwd=ROOT,
        env=_fresh_checkout_env(),
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.startswith("4-suit seed 1: won")


@pytest.mark.parametrize("entry", ["spider_api.wsgi", "spider_api.asgi"])
def test_a_production_start_without_a_secret_key_refuses_to_run(entry):
    result = subprocess.run(
        [sys.executable, "-c", f"import {entry}"],
        cwd=ROOT,
        env=_fresh_checkout_env(),
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode != 0
    assert "SECRET_KEY must be set when DEBUG is off" in result.stderr


def test_manage_py_with_debug_off_is_production_and_needs_a_secret_key():
    result = subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=ROOT,
        env=_fresh_checkout_env(DEBUG="0"),
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode != 0
    assert "SECRET_KEY must be set when DEBUG is off" in result.stderr
