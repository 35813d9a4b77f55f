"""docs/design.md's layout tree (under "Layers") names every module of the package, in the
folder it lives in: the one map a newcomer reads stays true as modules come and go (issue
22; the README's own copy of the tree had gone out of date twice)."""

from __future__ import annotations

import re

from tests.support import REPO

PACKAGE = REPO / "triage_app"
DESIGN = REPO / "docs" / "design.md"


def tree() -> list[str]:
    section = DESIGN.read_text(encoding="utf-8").split("\n## Layers\n", 1)[1]
    block = re.search(r"```\n(triage_app/\n.*?)```", section, re.S)
    assert block, "docs/design.md's Layers section begins with the layout tree"
    return block.group(1).splitlines()


def block_of(lines: list[str], folder: str, start: int, end: int) -> range | None:
    """The lines of ``folder/``'s entry: its own line and those indented deeper below it."""
    for i in range(start, end):
        entry = lines[i].lstrip()
        if entry.startswith(f"{folder}/"):
            indent = len(lines[i]) - len(entry)
            j = i + 1
            while j < end and (
                not lines[j].strip() or len(lines[j]) - len(lines[j].lstrip()) > indent
            ):
                j += 1
            return range(i, j)
    return None


def modules() -> list[tuple[str, ...]]:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE).parts
        if path.name == "__init__.py" or "versions" in parts:  # a face; Alembic's revisions
            continue
        found.append(parts)
    return found


def test_every_module_is_named_in_the_tree_under_its_folder() -> None:
    lines = tree()
    missing = []
    for parts in modules():
        span: range | None = range(0, len(lines))  # the whole tree: triage_app/
        for folder in parts[:-1]:
            span = block_of(lines, folder, span.start + 1, span.stop) if span else None
        if span is None:  # a folder the tree does not name where it belongs
            missing.append("/".join(parts))
            continue
        text = "\n".join(lines[i] for i in span)
        stem = parts[-1].removesuffix(".py")
        if not re.search(rf"(?<![\w.]){re.escape(stem)}(?![\w])", text):
            missing.append("/".join(parts))
    assert not missing, f"docs/design.md's layout tree does not name: {', '.join(missing)}"


def test_the_tree_names_no_module_that_is_gone() -> None:
    """A name in the tree that looks like a module (a ``.py`` file) exists."""
    named = {m for line in tree() for m in re.findall(r"([\w/]+\.py)\b", line)}
    names = {p.name for p in PACKAGE.rglob("*.py")}
    assert not {n.rsplit("/", 1)[-1] for n in named} - names
