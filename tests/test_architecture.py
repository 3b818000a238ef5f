"""The package's rooms: no import circle below the engine, and a sans-IO core that never imports trio.

Every ``import`` and ``from ... import`` counts, those under ``if TYPE_CHECKING:`` too: a room that names a
higher one only for its types still depends on it (issue 18: the engine was redesigned so that none does).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "pcfserver"


def _module(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = _module(path) if path.name == "__init__.py" else _module(path).rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package.split(".")[: len(package.split(".")) - node.level + 1] + ([base] if base else []))
            out.add(base)
            out.update(f"{base}.{alias.name}" for alias in node.names)  # `from pcfserver.engine import objects`
    return out


def _graph() -> dict[str, set[str]]:
    modules = {_module(p): p for p in PACKAGE.rglob("*.py")}
    return {name: {m for m in _imports(path) if m in modules and m != name} for name, path in modules.items()}


def _cycle(graph: dict[str, set[str]], within: str) -> list[str] | None:
    nodes = {n for n in graph if n.startswith(within) and n != within}
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph[node] & nodes):
            if state.get(nxt) == 1:
                return [*stack[stack.index(nxt) :], nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(nodes):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


def test_no_import_circle_in_the_engine() -> None:
    assert _cycle(_graph(), "pcfserver.engine") is None


def test_no_room_of_the_engine_imports_the_engine_module() -> None:
    graph = _graph()
    importers = sorted(n for n, deps in graph.items() if "pcfserver.engine.engine" in deps and n.startswith("pcfserver.engine."))
    assert importers == []


@pytest.mark.parametrize("room", ["pcfserver.codec", "pcfserver.engine", "pcfserver.dialects", "pcfserver.rest", "pcfserver.kinds"])
def test_the_core_never_imports_trio(room: str) -> None:
    for path in PACKAGE.rglob("*.py"):
        if _module(path).startswith(room):
            assert not any(m == "trio" or m.startswith("trio.") for m in _imports(path)), path


def test_the_check_finds_a_circle() -> None:
    graph = {"pcfserver.engine.a": {"pcfserver.engine.b"}, "pcfserver.engine.b": {"pcfserver.engine.a"}}
    assert _cycle(graph, "pcfserver.engine") == ["pcfserver.engine.a", "pcfserver.engine.b", "pcfserver.engine.a"]
