"""Every emoji the bot puts on a component is a Unicode emoji as Discord spells it: fully qualified
(with U+FE0F where the character's default presentation is text). Discord answers a message with an
emoji it does not know with 400, and the whole message is lost: "↩" (U+21A9 alone) is such a doubt;
"↩️" is how Discord's emoji list spells it. (The loopback Discord checks this on every message too:
tests/fakediscord/validate.py.)"""

from __future__ import annotations

import ast
from pathlib import Path

import discord
import emoji
import pytest

from bot import ui

ROOT = Path(__file__).resolve().parents[2]


def literal_emoji() -> dict[str, list[str]]:
    """Every ``emoji=`` given as a literal in bot/ and cogs/ (component emoji), with where it is."""
    found: dict[str, list[str]] = {}
    for path in sorted([*(ROOT / "bot").rglob("*.py"), *(ROOT / "cogs").rglob("*.py")]):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.keyword) and node.arg == "emoji":
                assert isinstance(node.value, ast.Constant) and isinstance(node.value.value, str), (
                    f"{path}:{node.value.lineno}: an emoji that is not a literal string cannot be checked here"
                )
                found.setdefault(node.value.value, []).append(f"{path.relative_to(ROOT)}:{node.value.lineno}")
    return found


def fully_qualified(text: str) -> bool:
    data = emoji.EMOJI_DATA.get(text)
    return data is not None and data["status"] == emoji.STATUS["fully_qualified"]


def test_the_scan_finds_the_bots_component_emoji():
    assert {"🔁", "🎞️", "📄"} <= set(literal_emoji()), literal_emoji()
    assert any(e.startswith("↩") for e in literal_emoji()), "the undo button's emoji"


@pytest.mark.parametrize("text", sorted(literal_emoji()))
def test_every_component_emoji_is_fully_qualified(text):
    assert fully_qualified(text), f"{text!r} ({[hex(ord(c)) for c in text]}) at {literal_emoji()[text]}"


def test_the_undo_button_says_the_arrow_as_discord_does():
    (button,) = ui.undo_ask_view(7, 3).children
    assert isinstance(button, discord.ui.Button) and str(button.emoji) == "↩\ufe0f"


def test_fully_qualified_is_told_apart():
    assert fully_qualified("↩\ufe0f") and not fully_qualified("↩")
    assert fully_qualified("🎞\ufe0f") and not fully_qualified("🎞") and fully_qualified("🔁")
