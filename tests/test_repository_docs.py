"""The repository documents itself: no file refers to a document outside it, and every
``docs/<name>.md#anchor`` a file cites is a heading of that document.

The rules live in docs/rules.md and the design in docs/architecture.md; a reference to a
rulebook, a design sketch or product pages kept elsewhere is one a reader who clones the
repository cannot follow.
"""

from __future__ import annotations

import importlib
import re
import subprocess
from functools import cache
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SKIPPED_DIRS = {".git", ".venv", "node_modules", "__pycache__", ".mypy_cache", ".ruff_cache"}

# Spelled in pieces so that this file does not match itself.
OUTSIDE = re.compile(
    "|".join(
        (
            re.escape(".." + "/shared"),
            r"\b(?:RULES|DESIGN)" + re.escape(".md"),
            re.escape("/" + "work/"),
            r"(?<![\w-])seeds" + "/",
        )
    )
)
CITED_ANCHOR = re.compile(r"\bdocs/([\w-]+\.md)#([\w-]+)")
# Inside docs/: ``](#anchor)`` and ``](other.md#anchor)``.
LOCAL_ANCHOR = re.compile(r"\]\(((?:[\w-]+\.md)?)#([\w-]+)\)")
HEADING = re.compile(r"^#{1,6}\s+(.+?)\s*#*\s*$")


@cache
def tracked_files() -> tuple[Path, ...]:
    """The repository's files: git's list, or a walk of the tree where git is missing."""
    try:
        out = subprocess.run(
            ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True
        ).stdout
        names = [n for n in out.decode().split("\0") if n]
        return tuple(ROOT / n for n in names if (ROOT / n).is_file())
    except (OSError, subprocess.CalledProcessError):
        return tuple(
            p
            for p in sorted(ROOT.rglob("*"))
            if p.is_file() and not SKIPPED_DIRS & set(p.relative_to(ROOT).parts)
        )


@cache
def text_of(path: Path) -> str | None:
    data = path.read_bytes()
    if b"\0" in data:
        return None  # binary (the screenshots)
    try:
        return data.decode()
    except UnicodeDecodeError:
        return None


def text_files() -> list[tuple[Path, str]]:
    return [(p, t) for p in tracked_files() if (t := text_of(p)) is not None]


def slug(heading: str) -> str:
    """GitHub's anchor of a Markdown heading: lower case, punctuation dropped, spaces to -."""
    text = re.sub(r"[`*_]|\[([^\]]*)\]\([^)]*\)", lambda m: m.group(1) or "", heading)
    text = re.sub(r"[^\w\- ]", "", text.strip().lower())
    return text.replace(" ", "-")


@cache
def anchors(name: str) -> frozenset[str]:
    """The heading anchors of docs/<name> (empty if it does not exist)."""
    path = ROOT / "docs" / name
    if not path.is_file():
        return frozenset()
    seen: dict[str, int] = {}
    found = set()
    in_code = False
    for line in path.read_text().splitlines():
        if line.startswith("```"):
            in_code = not in_code
            continue
        match = None if in_code else HEADING.match(line)
        if match:
            base = slug(match.group(1))
            count = seen.get(base, 0)
            seen[base] = count + 1
            found.add(base if count == 0 else f"{base}-{count}")
    return frozenset(found)


def line_of(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


def test_the_walk_sees_the_repository() -> None:
    names = {p.relative_to(ROOT).as_posix() for p in tracked_files()}
    assert {"README.md", "docs/rules.md", "docs/architecture.md", "games/engine/board.py"} <= names


def test_no_file_refers_to_a_document_outside_the_repository() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{line_of(text, m.start())}: {m.group(0)}"
        for path, text in text_files()
        for m in OUTSIDE.finditer(text)
    ]
    assert not found, "references outside the repository (point them at docs/):\n" + "\n".join(
        found
    )


def test_every_cited_anchor_is_a_heading() -> None:
    missing = []
    for path, text in text_files():
        for m in CITED_ANCHOR.finditer(text):
            name, anchor = m.groups()
            if anchor not in anchors(name):
                missing.append(f"{path.relative_to(ROOT)}:{line_of(text, m.start())}: {m[0]}")
        if path.parent == ROOT / "docs" and path.suffix == ".md":
            for m in LOCAL_ANCHOR.finditer(text):
                name, anchor = m.group(1) or path.name, m.group(2)
                if anchor not in anchors(name):
                    missing.append(f"{path.relative_to(ROOT)}:{line_of(text, m.start())}: {m[0]}")
    assert not missing, "anchors that are no heading:\n" + "\n".join(missing)


def test_the_rulebook_has_the_sections_code_relies_on() -> None:
    assert {
        "undo",
        "score",
        "hints",
        "coins",
        "races",
        "one-tap-destination",
        "daily-challenge",
    } <= anchors("rules.md")


def test_the_readme_links_the_rules_and_the_architecture_near_the_top() -> None:
    head = "\n".join((ROOT / "README.md").read_text().splitlines()[:30])
    assert "docs/rules.md" in head and "docs/architecture.md" in head


def test_the_slug_is_githubs() -> None:
    assert slug("Undo") == "undo"
    assert slug("No undo, no hints") == "no-undo-no-hints"
    assert slug("`make run` and `make serve`") == "make-run-and-make-serve"
    assert slug("One-tap destination") == "one-tap-destination"


RELATIVE_LINK = re.compile(r"\]\((?!https?:|mailto:|#)([^)#\s]+)(?:#([\w-]+))?\)")


def test_every_relative_link_of_the_docs_leads_to_a_file_and_its_heading() -> None:
    """README.md and docs/*.md link one another (the README is the newcomer's page; the
    reference is in docs/): each relative link names a file that exists, and a Markdown
    file's anchor is one of its headings."""
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    broken, links = [], 0
    for page in pages:
        text = page.read_text()
        for m in RELATIVE_LINK.finditer(text):
            links += 1
            target = (page.parent / m.group(1)).resolve()
            where = f"{page.relative_to(ROOT)}:{line_of(text, m.start())}: {m[0]}"
            in_docs = target.parent == ROOT / "docs" and target.suffix == ".md"
            if not target.exists() or (
                m.group(2) and in_docs and m.group(2) not in anchors(target.name)
            ):
                broken.append(where)
    assert links > 20, links
    assert not broken, "links that lead nowhere:\n" + "\n".join(broken)


def test_the_readme_is_a_newcomers_page_that_links_the_reference() -> None:
    readme = (ROOT / "README.md").read_text()
    for name in ("configuration", "api", "operations", "rules", "architecture"):
        assert f"(docs/{name}.md)" in readme, name
    assert len(readme.split()) < 1500  # the reference lives in docs/


def test_the_readme_opens_with_its_title_then_the_two_commands() -> None:
    lines = (ROOT / "README.md").read_text().splitlines()
    assert lines[:3] == ["# Spider Solitaire API", "", "```sh"]
    block = lines[3 : lines.index("```", 3)]
    commands = [line.split("#")[0].strip() for line in block if not line.startswith(" ")]
    assert commands == ["make run", "make test"]
    assert sum(line.startswith("# ") for line in lines) == 1  # one title


# A repository path in a code span: it starts with one of the repository's top folders.
CODE_SPAN = re.compile(r"`([^`\s]+)`")
DOTTED = re.compile(r"`([A-Za-z_]\w*(?:\.\w+)+)(?:\([^`]*\))?`")
FILE_ENDINGS = {"py", "md", "toml", "txt", "yml", "yaml", "json", "js", "ts", "cpp", "hpp"}
LOGGER = re.compile(r"getLogger\(\"([\w.]+)\"\)")


def doc_pages() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def test_every_repository_path_the_docs_name_exists() -> None:
    tops = {p.parts[len(ROOT.parts)] for p in tracked_files() if len(p.parts) > len(ROOT.parts) + 1}
    missing, named = [], 0
    for page in doc_pages():
        text = page.read_text()
        for m in CODE_SPAN.finditer(text):
            path = re.split(r"[#:]", m.group(1).rstrip(".,;"))[0]
            if "/" not in path or path.split("/")[0] not in tops:
                continue
            named += 1
            pattern = path.replace("…", "*")
            if not (any(ROOT.glob(pattern)) if "*" in pattern else (ROOT / path).exists()):
                missing.append(f"{page.relative_to(ROOT)}:{line_of(text, m.start())}: {path}")
    assert named > 50, named
    assert not missing, "paths that are not in the repository:\n" + "\n".join(missing)


def test_every_module_and_name_the_docs_name_exists() -> None:
    """``games.services.game_act``, ``base.openapi.AutoSchema``: a module of the project and a
    name in it; or a model's label (``accounts.ApiToken``) or a logger's name."""
    from django.apps import apps

    packages = {p.parts[len(ROOT.parts)] for p in tracked_files() if p.name == "__init__.py"}
    loggers = {
        name
        for path in tracked_files()
        if path.suffix == ".py"
        for name in LOGGER.findall(text_of(path) or "")
    }
    missing, named = [], 0
    for page in doc_pages():
        text = page.read_text()
        for m in DOTTED.finditer(text):
            parts = m.group(1).split(".")
            if parts[0] not in packages or parts[-1] in FILE_ENDINGS:
                continue
            named += 1
            if not (_resolves(parts) or m.group(1) in loggers or _is_model(apps, parts)):
                missing.append(f"{page.relative_to(ROOT)}:{line_of(text, m.start())}: {m[1]}")
    assert named > 30, named
    assert not missing, "names that are not in the code:\n" + "\n".join(missing)


def _resolves(parts: list[str]) -> bool:
    for i in range(len(parts), 0, -1):
        try:
            found: object = importlib.import_module(".".join(parts[:i]))
        except ImportError:
            continue
        for name in parts[i:]:
            if not hasattr(found, name):
                return False
            found = getattr(found, name)
        return True
    return False


def _is_model(apps: Any, parts: list[str]) -> bool:
    try:
        return len(parts) == 2 and apps.get_model(*parts) is not None
    except LookupError:
        return False
