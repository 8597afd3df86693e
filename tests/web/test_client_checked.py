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


def test_the_page_preloads_every_module(client) -> None:
    html = client.get("/").content.decode()
    preloaded = re.findall(r'<link rel="modulepreload" href="/static/web/([\w.]+)"', html)
    entry = re.findall(r'<script type="module" (?:async )?src="/static/web/([\w.]+)"', html)
    assert sorted(preloaded + entry) == MODULES
