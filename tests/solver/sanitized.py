"""Run pytest against a build of the solver's native core made with the sanitizers
(``make sanitize``): ``python -m tests.solver.sanitized CORE_SO [pytest arguments]``.

The sanitized module is loaded as ``games.solver._core`` before anything imports the
solver, so every test in the run drives it instead of the installed build. The
interpreter itself is not instrumented: the Makefile preloads the sanitizers' runtime
and turns off leak detection (the interpreter keeps objects until exit by design).
"""

from __future__ import annotations

import importlib.util
import sys
import types

import pytest


def main(argv: list[str]) -> int:
    path, args = argv[0], argv[1:]
    spec = importlib.util.spec_from_file_location("games.solver._core", path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"not a loadable extension module: {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    code = pytest.main(args)
    from games.solver import _core

    # The run must have used the sanitized build, nothing else: the package's core, and the
    # one every test module bound (``from games.solver import _core``).
    stray = sorted(
        name
        for name, loaded in list(sys.modules.items())
        if name.startswith(("games.", "tests."))
        and isinstance(getattr(loaded, "__dict__", {}).get("_core"), types.ModuleType)
        and vars(loaded)["_core"] is not module
    )
    if _core is not module or stray:
        raise SystemExit(f"the tests did not use the sanitized core: {stray or 'games.solver'}")
    return int(code)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
