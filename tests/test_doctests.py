"""The examples in the modules' docstrings run, and hold: every module of the project with a
``>>>`` example is found here, so a new one runs without being listed."""

from __future__ import annotations

import doctest
import importlib

import pytest

from tests.conftest import ROOT

APPS = ("accounts", "coins", "games", "leaderboard", "oauth", "preferences", "races")
PACKAGES = (*APPS, "spider_api", "base", "web")


def _modules_with_examples() -> list[str]:
    found = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if "migrations" not in path.parts and ">>> " in path.read_text():
                found.append(".".join(path.relative_to(ROOT).with_suffix("").parts))
    return found


MODULES = _modules_with_examples()


def test_the_modules_with_examples_are_found():
    assert "games.engine.cards" in MODULES and len(MODULES) >= 5, MODULES


@pytest.mark.parametrize("name", MODULES)
def test_a_modules_examples_hold(name):
    module = importlib.import_module(name.removesuffix(".__init__"))

    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)

    assert result.attempted > 0, f"{name}: no example ran"
    assert result.failed == 0, f"{name}: {result.failed} of {result.attempted} examples failed"
