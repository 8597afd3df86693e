"""docs/architecture.md says what the code holds, so it cannot drift again unseen: its apps
are the project's (INSTALLED_APPS and import-linter's root packages, base/ module by
module, docs/ file by file), and its "Layers" names every import contract of
pyproject.toml, with the modules each governs and each layers contract's order."""

from __future__ import annotations

import pkgutil
import re
import tomllib
from functools import cache
from typing import Any

import pytest
from django.conf import settings

from tests.conftest import ROOT

DOC = ROOT / "docs" / "architecture.md"
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
IMPORTLINTER = PYPROJECT["tool"]["importlinter"]
# Besides the packages: what the apps block lists that holds no Python of the product.
OTHER_DIRECTORIES = {"bench", "deploy", "tests", "docs"}
CODE_SPAN = re.compile(r"`([^`]+)`")


@cache
def section(title: str) -> str:
    text = DOC.read_text()
    match = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## )", text, re.S | re.M)
    assert match, f"docs/architecture.md has no section {title!r}"
    return match.group(1)


@cache
def apps_block() -> dict[str, str]:
    """The code block of "The apps": each entry (``name/``) and its text."""
    block = re.search(r"^```\n(.*?)^```", section("The apps"), re.S | re.M)
    assert block
    entries: dict[str, str] = {}
    name = ""
    for line in block.group(1).splitlines():
        head = re.match(r"^([\w.]+)/\s", line)
        if head:
            name = head.group(1)
            entries[name] = ""
        entries[name] += " " + line.strip()
    return {name: " ".join(text.split()) for name, text in entries.items()}


def project_apps() -> set[str]:
    """The project's own apps in INSTALLED_APPS (a package of this repository)."""
    return {a for a in settings.INSTALLED_APPS if "." not in a and (ROOT / a).is_dir()}


@cache
def contract_bullets() -> dict[str, str]:
    """The first list of "Layers", one contract a bullet (``- **name** ...``): name -> text."""
    text = section("Layers")
    start = text.index("\n- ") + 1
    first_list = text[start : text.find("\n\n", start)] + "\n"
    bullets = re.findall(r"^- \*\*(.+?)\*\*(.*?)(?=^- |\Z)", first_list, re.S | re.M)
    return {name: " ".join(rest.split()) for name, rest in bullets}


def submodules(package: str) -> set[str]:
    return {m.name for m in pkgutil.iter_modules([str(ROOT / package.replace(".", "/"))])}


def modules_of(layer: str) -> set[str]:
    return set(re.split(r"\s*[:|]\s*", layer.strip()))


def check_order(written: str, contract: dict[str, Any]) -> None:
    """``written`` (``container: a > b | c > d``) says the contract's layers, in order, each
    with its separators (``|``, ``:``), or ``*`` for every other module of the container."""
    (container,) = contract.get("containers", [None])
    if container is not None:
        prefix = f"{container}: "
        assert written.startswith(prefix), written
        written = written.removeprefix(prefix)
    layers = [" ".join(layer.split()) for layer in contract["layers"]]
    said = [layer.strip() for layer in written.split(" > ")]
    assert len(said) == len(layers), (said, layers)
    for i, (mine, theirs) in enumerate(zip(said, layers, strict=True)):
        if mine == "*":
            others = set().union(*(modules_of(x) for j, x in enumerate(layers) if j != i))
            assert modules_of(theirs) == submodules(container) - others, theirs
        else:
            assert mine == theirs


def test_the_apps_are_the_projects() -> None:
    listed = set(apps_block())
    packages = project_apps() | {"spider_api", "base"}

    assert listed == packages | OTHER_DIRECTORIES
    assert set(IMPORTLINTER["root_packages"]) == packages  # the contracts see every app
    assert all((ROOT / name).is_dir() for name in listed)


def test_the_base_library_is_listed_module_by_module() -> None:
    text = apps_block()["base"]
    missing = sorted(m for m in submodules("base") if not re.search(rf"\b{m}\b", text))
    assert not missing, f"base/ modules the apps block does not name: {missing}"


def test_the_docs_entry_lists_every_document() -> None:
    text = apps_block()["docs"]
    names = [p.name for p in sorted((ROOT / "docs").glob("*.md"))] + ["screenshots/"]
    assert [n for n in names if n not in text] == []


def test_every_import_contract_is_named_in_the_layers_section() -> None:
    documented = set(contract_bullets())
    contracts = {c["name"] for c in IMPORTLINTER["contracts"]}

    assert documented - contracts == set(), "named in the document, no such contract"
    assert contracts - documented == set(), "contracts the document does not name"


@pytest.mark.parametrize("contract", IMPORTLINTER["contracts"], ids=lambda c: c["name"][:40])
def test_each_contract_is_written_as_it_holds(contract: dict[str, Any]) -> None:
    text = contract_bullets()[contract["name"]]
    spans = CODE_SPAN.findall(text)
    if contract["type"] == "layers":
        (order,) = [s for s in spans if " > " in s]
        check_order(order, contract)
    else:
        assert set(contract["source_modules"]) <= set(spans), text


def test_a_star_stands_for_every_other_module_and_only_that() -> None:
    (games,) = [c for c in IMPORTLINTER["contracts"] if c.get("layers", [""])[-1] == "engine"]
    check_order("games: * > solver > engine", games)
    narrowed = {**games, "layers": ["views : services", "solver", "engine"]}
    with pytest.raises(AssertionError):
        check_order("games: * > solver > engine", narrowed)
    with pytest.raises(AssertionError):
        check_order("games: * > engine > solver", games)
