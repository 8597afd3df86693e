"""The import contracts in pyproject.toml ([tool.importlinter]) hold: the rules engine and the
solver import nothing from Django, DRF, Celery or the web apps; dependencies run one way
(races above leaderboard and accounts, above games, above the coin ledger; the games app
above its solver, the solver above its engine); and inside games the Celery tasks call the
services, which never import the tasks."""

import ast
import inspect
import subprocess
import sys
from pathlib import Path
from typing import Any

from tests.conftest import ROOT

CONTRACTS = (
    "The rules engine and the solver know nothing of Django or the apps",
    "One way: races > leaderboard | accounts | oauth > games > coins",
    "The games app uses its solver, the solver uses the engine, never the reverse",
    "Within games: tasks call services, services deal, deals come from the pool",
    "Within leaderboard: tasks call services, never the reverse",
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
    page to spider_api.pagination), and validates with its own ``self.<X>Serializer``."""
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
