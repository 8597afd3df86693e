"""The web client's modules are all under `make lint`'s checks and all preloaded by the page.

`make lint` type-checks every module with TypeScript (jsconfig.json: strict) and lints it with
ESLint; what it cannot see is a module that opted out of the check or that the page forgets
to preload (it would still load, one round trip later, behind the module importing it).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "web" / "static" / "web"
MODULES = sorted(p.name for p in STATIC.glob("*.js"))


def test_every_module_is_type_checked() -> None:
    assert {"app.js", "race.js", "stream.js"} <= set(MODULES)
    for name in MODULES:
        text = (STATIC / name).read_text()
        assert text.startswith("// @ts-check\n"), name
        assert "@ts-nocheck" not in text and "@ts-ignore" not in text, name
    config = json.loads((ROOT / "jsconfig.json").read_text())
    options = config["compilerOptions"]
    assert options["checkJs"] and options["strict"] and options["noEmit"]
    assert config["include"] == ["web/static/web/*.js"]


def test_the_page_preloads_the_play_screen_and_the_router_loads_the_rest(client) -> None:
    """A first visit shows the table at once: the page preloads every module the play screen
    imports (a module it forgot would load one round trip later, behind its importer); the
    router fetches every other module itself (on demand, and once the first screen is drawn)."""
    html = client.get("/").content.decode()
    preloaded = re.findall(r'<link rel="modulepreload" href="/static/web/([\w.]+)"', html)
    entry = re.findall(r'<script type="module" (?:async )?src="/static/web/([\w.]+)"', html)
    assert sorted(entry) == ["app.js", "boot.js"]
    app = (STATIC / "app.js").read_text()
    static = set(re.findall(r"^import .* from '\./([\w.]+)';", app, re.MULTILINE))
    lazy = set(re.findall(r"import\('\./([\w.]+)'\)", app))

    def imports(name: str) -> set[str]:
        text = (STATIC / name).read_text()
        return set(re.findall(r"^(?:import|} from) .*'\./([\w.]+)';", text, re.MULTILINE))

    needed, todo = set(), list(static)
    while todo:
        name = todo.pop()
        if name not in needed:
            needed.add(name)
            todo.extend(imports(name))
    assert needed == set(preloaded)  # the play screen's modules, no more, no less
    reached, todo = set(needed), list(lazy)
    while todo:
        name = todo.pop()
        if name not in reached:
            reached.add(name)
            todo.extend(imports(name))
    assert sorted(reached | set(entry)) == MODULES  # every module is reached one way
