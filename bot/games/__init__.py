"""Rules engines and their registry. Pure Python: no discord, aiosqlite, PIL or asyncio."""

from bot.games.base import Game, GameSpec, IllegalAction, Option, SeededRandom, canonical
from bot.games.names import colour, fill_names, who
from bot.games.registry import registry

__all__ = [
    "Game",
    "GameSpec",
    "IllegalAction",
    "Option",
    "SeededRandom",
    "canonical",
    "colour",
    "fill_names",
    "registry",
    "who",
]
