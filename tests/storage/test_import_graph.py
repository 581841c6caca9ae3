"""No import circle in bot/storage: the modules' imports (read with ``ast``, those inside functions
too) form a graph without a cycle, and the base knows neither backend (opening is the package's)."""

from __future__ import annotations

import ast
from pathlib import Path

import bot.storage

PACKAGE = "bot.storage"
ROOT = Path(bot.storage.__file__).parent


def _modules() -> dict[str, Path]:
    found = {PACKAGE: ROOT / "__init__.py"}
    for path in sorted(ROOT.glob("*.py")):
        if path.name != "__init__.py":
            found[f"{PACKAGE}.{path.stem}"] = path
    return found


def _imports(module: str, path: Path, known: set[str]) -> set[str]:
    """The modules of ``known`` that ``module`` imports, anywhere in its body."""
    package = PACKAGE if path.name == "__init__.py" else module.rpartition(".")[0]
    targets: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Import):
            targets.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                source = f"{base}.{node.module}" if node.module else base
            else:
                source = node.module or ""
            targets.add(source)
            # ``from bot.storage import base`` imports the submodule itself
            targets.update(f"{source}.{alias.name}" for alias in node.names)
    return {t for t in targets if t in known and t != module}


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    return {name: _imports(name, path, set(modules)) for name, path in modules.items()}


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every import circle found by a depth-first walk (each as the modules on it, first repeated)."""
    found: list[list[str]] = []
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                found.append([*path[path.index(nxt) :], nxt])
            elif nxt not in state:
                visit(nxt)
        path.pop()
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            visit(node)
    return found


def test_bot_storage_has_no_import_circle() -> None:
    graph = _graph()
    assert len(graph) > 3  # the package and its modules were found
    assert _cycles(graph) == []


def test_the_base_knows_neither_backend_and_the_package_opens() -> None:
    graph = _graph()
    backends = {f"{PACKAGE}.sqlite", f"{PACKAGE}.postgres"}
    for module, imported in graph.items():
        if module not in backends and module != PACKAGE:
            assert not imported & backends, f"{module} imports a backend"
    assert backends <= graph[PACKAGE]


def test_the_cycle_finder_finds_a_circle() -> None:
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}) == [["a", "b", "c", "a"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []
