"""The error codes each API view can answer, read from the source (no import, no request).

A static call graph over the project's own modules: from each view method, every function and
method it calls (by name, module attribute, `self.` or a class), transitively, and in each
the errors it raises: a `DomainError` subclass (its `code` and `status`), `DomainError("code",
..., status)` with literal arguments, DRF's ValidationError / NotFound / PermissionDenied and
a serializer's `is_valid(raise_exception=True)`. Calls made through a registry or a field
class, which no name shows, are the few edges listed in DYNAMIC below.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = (
    "accounts",
    "coins",
    "games",
    "leaderboard",
    "oauth",
    "preferences",
    "races",
    "spider_api",
    "base",
    "web",
)
SKIPPED = ("migrations", "management", "engine", "solver")

# Calls no name in the source shows: the game service consults the kind's policy from a
# registry (games.kinds); serializers run their fields' methods; the engine refuses with the
# codes games.errors.rule_error passes on.
DYNAMIC: dict[str, tuple[str, ...]] = {
    "games.services.playing:game_act": (
        "races.policy:RacePolicy.before_act",
        "races.policy:RaceTurn.before_act",
        "races.policy:RaceTurn.before_write",
        "races.policy:RaceTurn.after_act",
    ),
    "games.services.hints:game_hint": ("races.policy:RacePolicy.before_hint",),
    "games.services.playing:game_resign": ("races.policy:RacePolicy.resign",),
    "leaderboard.views:DailyApi.get": ("leaderboard.serializers:DayField.to_internal_value",),
    "leaderboard.views:DailyLeaderboardApi.get": (
        "leaderboard.serializers:DayField.to_internal_value",
    ),
    "leaderboard.views:DailyDaysApi.get": ("leaderboard.serializers:DayField.to_internal_value",),
    "leaderboard.views:DailyPlayApi.post": ("leaderboard.serializers:DayField.to_internal_value",),
}
# games.errors.rule_error passes the engine's code on: a refused action's (422) or, called with
# status=400, a refused layout's.
RULE_ERROR = "games.errors:rule_error"
# races.policy._refused re-raises any race refusal as a 422 on the game endpoints.
REFUSED = "races.policy:_refused"
# What is handed to base.queueing.in_thread runs in a thread of its own, whose errors are
# logged there: the request that queued it never answers them.
IN_THREAD = "base.queueing:in_thread"
DRF = {
    "ValidationError": ("invalid", 400),
    "NotFound": ("not_found", 404),
    "Http404": ("not_found", 404),
    "PermissionDenied": ("permission_denied", 403),
    "get_object_or_404": ("not_found", 404),
}


@dataclass
class Module:
    name: str
    tree: ast.Module
    imports: dict[str, str] = field(default_factory=dict)  # local name -> "module" or "module:attr"
    functions: dict[str, ast.FunctionDef | ast.AsyncFunctionDef] = field(
        default_factory=dict
    )  # qualname -> def
    classes: dict[str, ast.ClassDef] = field(default_factory=dict)


def _modules() -> Iterator[tuple[str, Path]]:
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            if any(part in SKIPPED for part in parts):
                continue
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            yield name, path


@cache
def project() -> dict[str, Module]:
    modules: dict[str, Module] = {}
    for name, path in _modules():
        tree = ast.parse(path.read_text())
        module = Module(name, tree)
        for node in tree.body:
            if isinstance(node, ast.Import):
                for alias in node.names:
                    module.imports[alias.asname or alias.name.split(".")[0]] = alias.name
            elif isinstance(node, ast.ImportFrom) and node.module:
                for alias in node.names:
                    target = f"{node.module}.{alias.name}"
                    where = ROOT / Path(*target.split("."))
                    is_module = (
                        where.with_suffix(".py").exists() or (where / "__init__.py").exists()
                    )
                    module.imports[alias.asname or alias.name] = (
                        target if is_module else f"{node.module}:{alias.name}"
                    )
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                module.functions[node.name] = node
            elif isinstance(node, ast.ClassDef):
                _add_class(module, node, node.name)
        modules[name] = module
    return modules


def _add_class(module: Module, node: ast.ClassDef, qualname: str) -> None:
    module.classes[qualname] = node
    for item in node.body:
        if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
            module.functions[f"{qualname}.{item.name}"] = item
        elif isinstance(item, ast.ClassDef):
            _add_class(module, item, f"{qualname}.{item.name}")


def _resolve(module: Module, name: str) -> str | None:
    """A name used in ``module`` as "module:qualname" (a function or class), if it is ours."""
    if name in module.functions or name in module.classes:
        return f"{module.name}:{name}"
    target = module.imports.get(name)
    if target and ":" in target:
        return target
    return None


@cache
def domain_errors() -> dict[str, tuple[str, int]]:
    """Every DomainError subclass of the project: "module:Class" -> (code, status)."""
    found: dict[str, tuple[str, int]] = {"base.errors:DomainError": ("refused", 400)}
    changed = True
    while changed:
        changed = False
        for module in project().values():
            for qualname, node in module.classes.items():
                key = f"{module.name}:{qualname}"
                if key in found:
                    continue
                for base in node.bases:
                    parent = _resolve(module, base.id) if isinstance(base, ast.Name) else None
                    if parent in found:
                        code, status = found[parent]
                        attrs = _class_constants(node)
                        found[key] = (attrs.get("code", code), attrs.get("status", status))
                        changed = True
                        break
    return found


def _class_constants(node: ast.ClassDef) -> dict:
    out = {}
    for item in node.body:
        if not isinstance(item, ast.Assign):
            continue
        for target in item.targets:
            if isinstance(target, ast.Name) and isinstance(item.value, ast.Constant):
                out[target.id] = item.value.value
            elif isinstance(target, ast.Tuple) and isinstance(item.value, ast.Tuple):
                for t, v in zip(target.elts, item.value.elts, strict=False):
                    if isinstance(t, ast.Name) and isinstance(v, ast.Constant):
                        out[t.id] = v.value
    return out


def _engine_codes(status: int) -> set[tuple[int, str]]:
    from games.errors import LAYOUT_CODES, RULE_CODES

    return {(status, code) for code in (LAYOUT_CODES if status == 400 else RULE_CODES)}


Edge = tuple[str, "int | None"]  # a callee, and the status its errors are re-raised with


def _refusing_trys(module: Module, node: ast.AST) -> set[int]:
    """ids of the calls inside a `try:` whose `except DomainError` re-raises `_refused(exc)`."""
    inside: set[int] = set()
    for sub in ast.walk(node):
        if not isinstance(sub, ast.Try):
            continue
        for handler in sub.handlers:
            refused = any(
                isinstance(r, ast.Raise)
                and isinstance(r.exc, ast.Call)
                and isinstance(r.exc.func, ast.Name)
                and _resolve(module, r.exc.func.id) == REFUSED
                for r in ast.walk(handler)
            )
            if refused:
                for stmt in sub.body:
                    inside |= {id(c) for c in ast.walk(stmt) if isinstance(c, ast.Call)}
    return inside


def _catching_trys(module: Module, node: ast.AST) -> dict[int, set[tuple[int, str]]]:
    """ids of the calls inside a `try:` with an `except SomeDomainError:` (a class with its
    own code, or a tuple of them), and the errors those handlers catch."""
    known = domain_errors()
    caught: dict[int, set[tuple[int, str]]] = {}
    for sub in ast.walk(node):
        if not isinstance(sub, ast.Try):
            continue
        errors: set[tuple[int, str]] = set()
        for handler in sub.handlers:
            kind = handler.type
            kinds = kind.elts if isinstance(kind, ast.Tuple) else [kind] if kind else []
            for one in kinds:
                resolved = _resolve(module, one.id) if isinstance(one, ast.Name) else None
                if resolved and resolved in known and resolved != "base.errors:DomainError":
                    code, status = known[resolved]
                    errors.add((status, code))
        if errors:
            for stmt in sub.body:
                for c in ast.walk(stmt):
                    if isinstance(c, ast.Call):
                        caught.setdefault(id(c), set()).update(errors)
    return caught


# Calls whose errors a handler catches in part: caller -> {(callee, the errors caught)}.
CAUGHT: dict[str, set[tuple[str, frozenset[tuple[int, str]]]]] = {}


def _direct(key: str) -> tuple[set[tuple[int, str]], set[Edge]]:
    """The errors function ``key`` raises itself, and the functions it calls (those called
    where a handler catches some of their errors: in CAUGHT instead)."""
    module_name, qualname = key.split(":")
    module = project()[module_name]
    node = module.functions[qualname]
    owner = qualname.rsplit(".", 1)[0] if "." in qualname else None
    errors: set[tuple[int, str]] = set()
    edges: set[Edge] = {(callee, None) for callee in DYNAMIC.get(key, ())}
    known = domain_errors()
    remapped = _refusing_trys(module, node)
    catching = _catching_trys(module, node)
    CAUGHT[key] = set()
    in_background = {
        id(inner)
        for call in ast.walk(node)
        if isinstance(call, ast.Call)
        and isinstance(call.func, ast.Name)
        and _resolve(module, call.func.id) == IN_THREAD
        for inner in ast.walk(call)
        if inner is not call
    }
    for sub in ast.walk(node):
        if id(sub) in in_background:
            continue
        if isinstance(sub, ast.Raise) and sub.exc is not None:
            raised = sub.exc.func if isinstance(sub.exc, ast.Call) else sub.exc
            name = raised.id if isinstance(raised, ast.Name) else getattr(raised, "attr", None)
            resolved = _resolve(module, name) if isinstance(raised, ast.Name) and name else None
            if resolved in known and resolved != "base.errors:DomainError":
                code, status = known[resolved]
                first = sub.exc.args[0] if isinstance(sub.exc, ast.Call) and sub.exc.args else None
                if code == "refused" and isinstance(first, ast.Constant):
                    code = str(first.value)  # a class with no code of its own takes one raised
                errors.add((status, code))
            elif name in DRF and resolved is None:
                code, status = DRF[name]
                errors.add((status, code))
        if not isinstance(sub, ast.Call):
            continue
        override = 422 if id(sub) in remapped else None
        calls: set[str] = set()
        # A function handed to another (`await db(services.ticket_redeem, ...)`) is called.
        for arg in sub.args:
            if isinstance(arg, ast.Attribute) and isinstance(arg.value, ast.Name):
                target = module.imports.get(arg.value.id)
                if target and ":" not in target:
                    calls.add(f"{target}:{arg.attr}")
            elif isinstance(arg, ast.Name) and _resolve(module, arg.id):
                calls.add(_resolve(module, arg.id))  # type: ignore[arg-type]
        func = sub.func
        if isinstance(func, ast.Name):
            resolved = _resolve(module, func.id)
            if resolved == "base.errors:DomainError":
                literal = _literal_domain_error(sub)
                if literal:
                    errors.add(literal)
            elif resolved == REFUSED:
                for arg in sub.args:
                    inner = arg.func if isinstance(arg, ast.Call) else None
                    if isinstance(inner, ast.Name) and _resolve(module, inner.id) in known:
                        errors.add((422, known[_resolve(module, inner.id)][0]))  # type: ignore[index]
            elif resolved == RULE_ERROR:
                given = next((k.value for k in sub.keywords if k.arg == "status"), None)
                errors |= _engine_codes(
                    int(given.value) if isinstance(given, ast.Constant) else 422  # type: ignore[arg-type]
                )
            elif resolved:
                calls.add(resolved)
            elif func.id in DRF:
                errors.add(tuple(reversed(DRF[func.id])))  # type: ignore[arg-type]
        elif isinstance(func, ast.Attribute):
            if func.attr == "is_valid" and any(k.arg == "raise_exception" for k in sub.keywords):
                errors.add((400, "invalid"))
            base = func.value
            if isinstance(base, ast.Name):
                target = module.imports.get(base.id)
                resolved = _resolve(module, base.id)
                if base.id in ("self", "cls") and owner:
                    calls.add(f"{module_name}:{owner}.{func.attr}")
                elif target and ":" not in target:
                    calls.add(f"{target}:{func.attr}")
                elif resolved:
                    calls.add(f"{resolved}.{func.attr}")
        if id(sub) in catching and override is None:
            CAUGHT[key] |= {(callee, frozenset(catching[id(sub)])) for callee in calls}
        else:
            edges |= {(callee, override) for callee in calls}
    return errors, edges


def _literal_domain_error(call: ast.Call) -> tuple[int, str] | None:
    args = list(call.args) + [None] * 3
    kw = {k.arg: k.value for k in call.keywords}
    code = kw.get("code", args[0])
    status = kw.get("status", args[2])
    if not isinstance(code, ast.Constant):
        return None
    given = int(status.value) if isinstance(status, ast.Constant) else 400  # type: ignore[arg-type]
    return given, str(code.value)


@cache
def raised_by(key: str) -> frozenset[tuple[int, str]]:
    """(status, code) for every error function ``key`` can raise, through what it calls."""
    seen: set[Edge] = set()
    todo: list[Edge] = [(key, None)]
    errors: set[tuple[int, str]] = set()
    while todo:
        current, override = todo.pop()
        if (current, override) in seen:
            continue
        seen.add((current, override))
        module_name, _, qualname = current.partition(":")
        module = project().get(module_name)
        if module is None:
            continue
        reexported = module.imports.get(qualname, "")
        if qualname not in module.functions and ":" in reexported:
            todo.append((reexported, override))  # a package's __init__ naming its module's
            continue
        if qualname not in module.functions:
            # A class called or its method on a base class: look in the class's bases.
            todo.extend((base, override) for base in _inherited(module, qualname))
            continue
        direct, edges = _direct(current)
        errors |= {(override or status, code) for status, code in direct}
        todo.extend((callee, override or again) for callee, again in edges)
        for callee, caught in CAUGHT[current]:
            errors |= {(override or s, c) for s, c in raised_by(callee) if (s, c) not in caught}
    return frozenset(errors)


def _inherited(module: Module, qualname: str) -> list[str]:
    owner, _, method = qualname.rpartition(".")
    node = module.classes.get(owner)
    if node is None or not method:
        return []
    out = []
    for base in node.bases:
        resolved = _resolve(module, base.id) if isinstance(base, ast.Name) else None
        if resolved:
            out.append(f"{resolved}.{method}")
    return out
