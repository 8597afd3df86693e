"""The import contracts in pyproject.toml ([tool.importlinter]) hold: the rules engine and the
solver import nothing from Django, DRF, Celery or the web apps; the base library imports no
app and no app imports the project (spider_api, which names them); dependencies run one way
(races above leaderboard, accounts, oauth and preferences, above games, above the coin
ledger; the games app above its solver, the solver above its engine); and inside games the
Celery tasks call the services, which never import the tasks. And the views are handlers
(docs/architecture.md, "Views"): their schema text apart, one way to answer, no query or
write of their own, the player by player_of."""

import ast
import inspect
import subprocess
import sys
from pathlib import Path
from typing import Any

from tests.conftest import ROOT

CONTRACTS = (
    "The rules engine and the solver know nothing of Django or the apps",
    "The base library imports no app and not the project",
    "No app imports the project: it names them",
    "One way: races > leaderboard | accounts | oauth | preferences > games > coins",
    "The games app uses its solver, the solver uses the engine, never the reverse",
    "Within games: tasks call services, services deal, deals come from the pool",
    "Within games.services: the rooms apart, over the endings, over the lookups",
    "The game services build no answer: no presenter",
    "Within leaderboard: tasks call services, never the reverse",
    "Within accounts: tasks call services, never the reverse",
    "Within accounts.services: registration over deletion and passwords, over tokens",
    "Within races: the policy calls the services, never the reverse",
)


def test_import_contracts_are_kept():
    lint_imports = Path(sys.executable).with_name("lint-imports")

    result = subprocess.run(
        [str(lint_imports), "--no-cache"], cwd=ROOT, capture_output=True, text=True, check=False
    )

    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout
    for name in CONTRACTS:  # each one is checked, none was dropped from pyproject.toml
        assert f"{name} KEPT" in result.stdout, result.stdout


# -- views: one way (docs/architecture.md, "Views") ---------------------------------------------
def _api_views() -> list[type]:
    """Every class-based view of the project the URLconf routes to (the callbacks DRF's
    as_view() made; the schema's and the docs' views are drf-spectacular's)."""
    from django.urls import URLPattern, URLResolver, get_resolver

    found: list[type] = []

    def walk(patterns: list[Any]) -> None:
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                walk(pattern.url_patterns)
            elif isinstance(pattern, URLPattern):
                cls = getattr(pattern.callback, "cls", None)
                if cls is not None and cls not in found and _ours(cls):
                    found.append(cls)

    walk(get_resolver().url_patterns)
    return found


def _ours(cls: type) -> bool:
    path = Path(inspect.getfile(cls)).resolve()
    return path.is_relative_to(ROOT) and not path.is_relative_to(ROOT / ".venv")


def _tree(cls: type) -> ast.Module:
    return ast.parse(inspect.getsource(sys.modules[cls.__module__]))


def test_every_api_view_is_an_apiview_written_as_a_class_statement():
    from rest_framework.views import APIView

    views = _api_views()

    assert len(views) >= 25, [v.__name__ for v in views]  # the walk found the API
    for view in views:
        assert issubclass(view, APIView), view
        defined = {n.name for n in ast.walk(_tree(view)) if isinstance(n, ast.ClassDef)}
        # type("X", (APIView,), {...}) or a factory would leave no class statement of this name
        assert view.__qualname__ == view.__name__ and view.__name__ in defined, view


def _view_modules() -> list[ast.Module]:
    modules = sorted({v.__module__ for v in _api_views()})
    return [ast.parse(inspect.getsource(sys.modules[m])) for m in modules]


def _outermost_expression(node: ast.AST, parents: dict[ast.AST, ast.AST]) -> ast.AST:
    while isinstance(parents.get(node), ast.expr | ast.keyword):
        node = parents[node]
    return node


def test_query_strings_and_bodies_go_through_the_views_serializers():
    """A view reads ``request.query_params`` only to hand it to its FilterSerializer (or the
    page to base.pagination), and validates with its own ``self.<X>Serializer``."""
    allowed_query_uses = {
        "self.FilterSerializer(data=request.query_params.dict())",
        "page_request(request.query_params)",
    }
    query_uses, direct = set(), []
    for tree in _view_modules():
        parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and node.attr == "query_params":
                query_uses.add(ast.unparse(_outermost_expression(node, parents)))
            if (
                isinstance(node, ast.Call)
                and any(k.arg == "data" for k in node.keywords)
                and not ast.unparse(node.func).startswith(("self.", "input_serializer"))
            ):
                direct.append(ast.unparse(node))
    assert query_uses, "no view reads a query string any more? then drop this test"
    assert query_uses <= allowed_query_uses, query_uses - allowed_query_uses
    assert not direct, direct  # a serializer the view does not name as its own


def _view_module_names() -> list[str]:
    return sorted({v.__module__ for v in _api_views()})


def _calls(tree: ast.AST) -> list[ast.Call]:
    return [n for n in ast.walk(tree) if isinstance(n, ast.Call)]


def test_a_view_module_holds_no_schema_text():
    """What the schema says of a view (operations, answers, examples) is in its app's
    ``schema_docs`` module: the view is its class decorator from there and its handlers."""
    for name in _view_module_names():
        tree = ast.parse(inspect.getsource(sys.modules[name]))
        imported = {
            n.module
            for n in ast.walk(tree)
            if isinstance(n, ast.ImportFrom) and n.module is not None
        }
        assert not any(m.startswith("drf_spectacular") for m in imported), name
        assert not imported & {"base.openapi"}, name  # its error answers and examples

    for view in _api_views():
        app = view.__module__.split(".")[0]
        docs = sys.modules.get(f"{app}.schema_docs")
        tree = _tree(view)
        node = next(
            n for n in ast.walk(tree) if isinstance(n, ast.ClassDef) and n.name == view.__name__
        )
        decorators = [ast.unparse(d) for d in node.decorator_list]
        named = [d.removeprefix("schema_docs.") for d in decorators if d.startswith("schema_docs.")]
        assert docs is not None and len(named) == 1, (view, decorators)
        assert callable(getattr(docs, named[0], None)), (view, named)


def test_views_answer_with_plain_dicts():
    """One way to answer: a presenter's (or selector's) dict. A serializer in a view only
    validates (``data=``); it never renders an answer (``Serializer(obj).data``)."""
    for name in _view_module_names():
        tree = ast.parse(inspect.getsource(sys.modules[name]))
        handlers = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)]
        for call in (c for handler in handlers for c in _calls(handler)):
            if ast.unparse(call.func).endswith("Serializer"):  # not a field declared in a class
                assert any(k.arg == "data" for k in call.keywords), f"{name}: {ast.unparse(call)}"
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and node.attr == "data":
                assert not isinstance(node.value, ast.Call), f"{name}: {ast.unparse(node)}"


# Django's ways to write a row (and to read one again); create/update/delete count on a queryset.
_WRITES = {"save", "bulk_create", "bulk_update", "get_or_create", "update_or_create"}
_QUERYSET_WRITES = {"create", "update", "delete"}


def _writes(tree: ast.AST) -> list[str]:
    found = []
    for call in _calls(tree):
        if not isinstance(call.func, ast.Attribute):
            continue
        receiver = ast.unparse(call.func.value)
        if call.func.attr in _WRITES or (
            call.func.attr in _QUERYSET_WRITES and ("objects" in receiver or "filter(" in receiver)
        ):
            found.append(ast.unparse(call))
    return found


def _app_modules(stem: str) -> list[Path]:
    apps = ("accounts", "coins", "games", "leaderboard", "oauth", "preferences", "races")
    return [ROOT / app / f"{stem}.py" for app in apps if (ROOT / app / f"{stem}.py").exists()]


def test_views_neither_query_nor_write():
    """A view calls services (the writes) and selectors (the reads): no ORM of its own."""
    for name in _view_module_names():
        tree = ast.parse(inspect.getsource(sys.modules[name]))
        assert not _writes(tree), (name, _writes(tree))
        orm = [
            ast.unparse(n)
            for n in ast.walk(tree)
            if isinstance(n, ast.Attribute) and n.attr in ("objects", "refresh_from_db")
        ]
        assert not orm, (name, orm)


def test_selectors_presenters_and_serializers_write_nothing():
    """Reads live in selectors; presenters shape and serializers validate; all three write
    nothing (a selector may lock rows to read them consistently: that is no write)."""
    paths = [p for stem in ("selectors", "presenters", "serializers") for p in _app_modules(stem)]
    assert len(paths) >= 10, paths
    for path in paths:
        writes = _writes(ast.parse(path.read_text()))
        assert not writes, (path, writes)


def test_views_name_the_signed_in_player_with_player_of():
    """``player_of(request)`` (typed as the User model, 401 otherwise), never an assertion
    on ``request.user``; ``request.user`` goes only to a read that takes any viewer
    (``viewer=``: a signed-in player or anonymous)."""
    for name in _view_module_names():
        tree = ast.parse(inspect.getsource(sys.modules[name]))
        parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
        for node in ast.walk(tree):
            if ast.unparse(node) == "request.user" and isinstance(node, ast.Attribute):
                parent = parents[node]
                assert isinstance(parent, ast.keyword) and parent.arg == "viewer", (
                    f"{name}: {ast.unparse(parent)}"
                )


def test_every_example_says_whether_it_is_a_request_or_an_answer():
    """drf-spectacular shows an example unmarked on both sides: an error body would be
    offered as a request in "Try it out". Each says which side it is."""
    sources = [
        p
        for p in ROOT.glob("*/*.py")
        if p.parts[-2] not in (".venv", "node_modules", "tests")
        and "OpenApiExample(" in p.read_text()
    ]
    assert len(sources) >= 5, sources
    for path in sources:
        for call in _calls(ast.parse(path.read_text())):
            if ast.unparse(call.func) != "OpenApiExample":
                continue
            marked = {k.arg for k in call.keywords if ast.unparse(k.value) == "True"}
            assert marked & {"request_only", "response_only"}, f"{path}: {ast.unparse(call)}"


def test_no_player_or_game_is_typed_any():
    """A player is the User model (``player``, ``user``, ``viewer``, ``owner``), a game the
    Game model: never ``Any``, which would let any attribute through unchecked."""
    names = {"player", "user", "viewer", "owner", "game"}
    apps = ("accounts", "coins", "games", "leaderboard", "oauth", "preferences", "races")
    found = []
    for app in (*apps, "spider_api", "base", "web"):
        for path in (ROOT / app).rglob("*.py"):
            if "migrations" in path.parts:
                continue
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.arg | ast.AnnAssign) and node.annotation is not None:
                    name = node.arg if isinstance(node, ast.arg) else ast.unparse(node.target)
                    if name in names and ast.unparse(node.annotation) in ("Any", "object"):
                        found.append(f"{path.relative_to(ROOT)}:{node.lineno} {name}")
    assert not found, found
