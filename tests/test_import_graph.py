"""No import circles: the modules of bot/, cogs/ and rendering/ import each other one way only.

The graph is read from the source with ``ast``: every ``import`` and ``from … import`` counts, at the
top of a module, inside a function (a "lazy" import is still a dependency) or under TYPE_CHECKING.
``from package import name`` is an edge to ``package.name`` when that is a module, else to the package.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TOPS = ("bot", "cogs", "rendering")


def modules() -> dict[str, Path]:
    out = {}
    for top in TOPS:
        for path in (ROOT / top).rglob("*.py"):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            out[".".join(parts)] = path
    return out


def import_graph() -> dict[str, set[str]]:
    """module -> the modules of bot/, cogs/ and rendering/ it imports."""
    mods = modules()
    graph: dict[str, set[str]] = {m: set() for m in mods}
    for name, path in mods.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    up = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join(up + ([base] if base else []))
                targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in mods else base for a in node.names]
            else:
                continue
            for target in targets:
                while target and target not in mods:  # a name inside a module: that module
                    target = target.rpartition(".")[0]
                if target and target != name:
                    graph[name].add(target)
    return graph


def circles(graph: dict[str, set[str]]) -> list[frozenset[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[frozenset[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = set()
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.add(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(frozenset(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_the_graph_sees_lazy_and_relative_imports():
    graph = import_graph()
    assert "bot.games.enemy_in_sight.ai" in graph["bot.games.enemy_in_sight.game"]  # inside ai_action
    assert "bot.games.base" in graph["bot.games.enemy_in_sight.game"]
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [frozenset("abc")]


def test_games_have_no_import_circle():
    """Rules engines (bot/games/): a variant is a subclass, the menus read the game, nothing imports back."""
    graph = import_graph()
    games = {
        m: {t for t in ts if t.startswith("bot.games")}
        for m, ts in graph.items()
        if m.startswith("bot.games")
    }
    assert circles(games) == []


def test_no_import_circle_at_all():
    """bot/, cogs/ and rendering/: imports point one way (cogs -> bot core -> games), no circle."""
    assert circles(import_graph()) == []
