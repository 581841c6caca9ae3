"""Pillow renderers. A view (the dict one seat may see) in, PNG bytes out.

Renderers never receive a full game state: only what ``Game.view(seat)``
returned. Each game has a module ``rendering/<game_key with _>.py`` with a
``render(view: dict, names: list[str] | None = None) -> bytes`` function;
``names`` are the display names of the seats, in seat order.
"""

from __future__ import annotations

import importlib


def _module(game_key: str):
    return importlib.import_module(f"rendering.{game_key.replace('-', '_')}")


def render(game_key: str, view: dict, names: list[str] | None = None) -> bytes:
    """PNG bytes of a view of the given game."""
    return _module(game_key).render(view, names)


def has_renderer(game_key: str) -> bool:
    try:
        _module(game_key)
    except ModuleNotFoundError:
        return False
    return True
