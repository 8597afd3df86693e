"""The objectives and alerts in deploy/prometheus: promtool finds the rules and the
deployment's configuration valid and their unit tests passing; every alert has a case where
it fires and one where it stays silent; every figure the rules and the Grafana dashboard
read is one the code exports, and every one the code exports is in docs/operations.md.
(promtool comes with Debian's `prometheus`, which .ci/run installs.)"""

from __future__ import annotations

import importlib
import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

from tests.conftest import ROOT

DEPLOY = ROOT / "deploy" / "prometheus"
RULES = sorted((DEPLOY / "rules").glob("*.yml"))
TESTS = sorted((DEPLOY / "tests").glob("*.yml"))
DASHBOARD = ROOT / "deploy" / "grafana" / "spider.json"
PROMTOOL = shutil.which("promtool")
needs_promtool = pytest.mark.skipif(PROMTOOL is None, reason="needs promtool (Debian: prometheus)")


def promtool(*args: str, cwd: Path = DEPLOY) -> str:
    assert PROMTOOL is not None
    result = subprocess.run([PROMTOOL, *args], cwd=cwd, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


@needs_promtool
def test_promtool_checks_the_rules_and_runs_their_tests():
    promtool("check", "rules", *map(str, RULES))
    out = promtool("test", "rules", *map(str, TESTS))
    assert out.count("SUCCESS") == len(TESTS)


@needs_promtool
def test_promtool_checks_the_deployments_configuration(tmp_path):
    token = tmp_path / "metrics_token"
    token.write_text("a token for the check")
    config = (
        (DEPLOY / "prometheus.yml").read_text().replace("/run/secrets/metrics_token", str(token))
    )
    (tmp_path / "prometheus.yml").write_text(config)
    shutil.copytree(DEPLOY / "rules", tmp_path / "rules")
    promtool("check", "config", str(tmp_path / "prometheus.yml"), cwd=tmp_path)


def alerts() -> set[str]:
    return {
        rule["alert"]
        for path in RULES
        for group in yaml.safe_load(path.read_text())["groups"]
        for rule in group["rules"]
        if "alert" in rule
    }


def test_every_alert_fires_in_a_test_and_stays_silent_in_another():
    firing: set[str] = set()
    silent: set[str] = set()
    for path in TESTS:
        for case in yaml.safe_load(path.read_text())["tests"]:
            for check in case.get("alert_rule_test", []):
                (firing if check.get("exp_alerts") else silent).add(check["alertname"])
    assert len(alerts()) >= 11
    assert alerts() - firing == set(), "alerts with no firing case"
    assert alerts() - silent == set(), "alerts with no silent case"


# -- the figures the rules and the dashboard read, and the ones the code exports ---------------
EXPORTERS = re.compile(r"^(up|pg_|redis_|process_|ALERTS)")
NAME = re.compile(r"\b(spider_[a-z_]+)\b")


def read_names() -> set[str]:
    texts = [path.read_text() for path in RULES]
    board = json.loads(DASHBOARD.read_text())
    texts += [t["expr"] for p in board["panels"] for t in p.get("targets", [])]
    names = set()
    for text in texts:
        names |= set(NAME.findall(text))
    return {re.sub(r"_(bucket|count|sum)$", "", n) for n in names}


MODULES = (
    "base.metrics.http",
    "spider_api.metrics.tasks",
    "base.metrics.database",
    "games.metrics",
    "races.metrics",
    "oauth.metrics",
)
SOURCES = ("games/metrics.py", "races/metrics.py", "spider_api/metrics/beat.py")


def exported_names() -> set[str]:
    """Every spider_* family the metric modules define, and those the scrape-time sources
    yield (their names read from their code: they need a database or Redis to run)."""
    from prometheus_client import REGISTRY

    for module in MODULES:
        importlib.import_module(module)
    # The registry names a counter without its _total.
    names = {m.name + ("_total" if m.type == "counter" else "") for m in REGISTRY.collect()}
    for source in SOURCES:
        names |= set(re.findall(r'"(spider_[a-z_]+)"', (ROOT / source).read_text()))
    return {n for n in names if n.startswith("spider_")}


def test_the_rules_and_the_dashboard_read_only_figures_the_code_exports():
    assert read_names() - exported_names() == set()


def test_every_figure_is_in_the_operations_guide():
    guide = (ROOT / "docs" / "operations.md").read_text()
    documented = set(re.findall(r"`(spider_[a-z_]+)`", guide))
    assert exported_names() - documented == set()
