"""The registry of games.

Every subpackage of ``bot.games`` that defines ``SPEC`` (a GameSpec) is a
game; adding a game means adding its package, nothing else.
"""

from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path

from bot.games.base import GameSpec, IllegalAction


class Registry:
    def __init__(self) -> None:
        self._specs: dict[str, GameSpec] | None = None

    def _load(self) -> dict[str, GameSpec]:
        if self._specs is None:
            specs: dict[str, GameSpec] = {}
            # the games are the subpackages of this module's package (read from disk: importing the
            # package here would be an import circle, since the package imports this module)
            package = __name__.rpartition(".")[0]
            for mod in pkgutil.iter_modules([str(Path(__file__).parent)]):
                if not mod.ispkg:
                    continue
                module = importlib.import_module(f"{package}.{mod.name}")
                spec = getattr(module, "SPEC", None)
                if isinstance(spec, GameSpec):
                    specs[spec.key] = spec
            self._specs = dict(sorted(specs.items()))
        return self._specs

    def get(self, key: str) -> GameSpec:
        specs = self._load()
        if key not in specs:
            known = ", ".join(specs) or "none"
            raise IllegalAction(f"unknown game {key!r}; games: {known}")
        return specs[key]

    def keys(self) -> list[str]:
        return list(self._load())

    def all(self) -> list[GameSpec]:
        return list(self._load().values())

    def __contains__(self, key: str) -> bool:
        return key in self._load()


registry = Registry()
