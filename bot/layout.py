"""The table: the one Components V2 message a game shows in its channel, edited in place for its life.

A ``discord.ui.LayoutView`` holding one ``Container`` (accent colour of the seat to act) with:
the title, the board (a ``MediaGallery`` of the PNG, or the text board where the bot may not attach
files), a short log of the last events in words, the seats (name, score, who is to act, AI and away
marks) and the controls (``ActionRow`` s of the DynamicItems built in ``bot/ui.py``).

Discord's limits for such a message: 40 components in all and 4000 characters of text. The text parts
are cut to fit (``TEXT_BUDGET``); the controls are at most five rows.
"""

from __future__ import annotations

from dataclasses import dataclass

import discord

from rendering.theme import SEAT_COLOURS

SEAT_MARKS = ["🔵", "🟥", "🟢", "🔶", "🟣", "⬜"]  # a colour *and* a shape per seat, as in the images
MAX_TEXT = 4000
MAX_COMPONENTS = 40
LOG_LINES = 6
OVER_COLOUR = 0x5865F2  # Discord blurple: a finished game
BOARD_FILE = "board.png"


def colour_int(rgb: tuple[int, int, int]) -> int:
    r, g, b = rgb
    return (r << 16) | (g << 8) | b


def seat_mark(seat: int) -> str:
    return SEAT_MARKS[seat % len(SEAT_MARKS)]


def seat_colour(seat: int) -> int:
    return colour_int(SEAT_COLOURS[seat % len(SEAT_COLOURS)])


def clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: max(0, limit - 1)] + "…"


@dataclass
class TableParts:
    """What goes into the table message, already in words (built by the delivery from a table)."""

    title: str
    log: list[str]
    seats: str
    status: str
    accent: int | None
    text_board: str | None = None  # set when the image cannot be attached
    image: bool = True
    controls: list[list[discord.ui.Item]] | None = None  # rows of buttons / one select a row


def table_layout(parts: TableParts) -> discord.ui.LayoutView:
    """The LayoutView of the table message; within Discord's limits whatever the parts hold."""
    view = discord.ui.LayoutView(timeout=None)
    title: discord.ui.TextDisplay[discord.ui.LayoutView] = discord.ui.TextDisplay(clip(parts.title, 300))
    children: list[discord.ui.Item] = [title]
    budget = MAX_TEXT - len(title.content)
    if parts.text_board is not None:
        board = "```\n" + clip(parts.text_board, 1800) + "\n```"
        children.append(discord.ui.TextDisplay(board))
        budget -= len(board)
    elif parts.image:
        children.append(discord.ui.MediaGallery(discord.MediaGalleryItem(f"attachment://{BOARD_FILE}")))
    status = clip(parts.status, 600)
    seats = clip(parts.seats, 800)
    budget -= len(status) + len(seats)
    log = [f"> {line}" for line in parts.log[-LOG_LINES:] if line]
    while log and sum(len(line) + 1 for line in log) > budget:
        log.pop(0)
    if log:
        children.append(discord.ui.TextDisplay("\n".join(log)))
    children.append(discord.ui.Separator(visible=True))
    children.append(discord.ui.TextDisplay(seats))
    children.append(discord.ui.TextDisplay(status))
    for row in (parts.controls or [])[:5]:
        if row:
            children.append(discord.ui.ActionRow(*row))
    view.add_item(discord.ui.Container(*children, accent_colour=parts.accent))
    view.stop()  # inert: clicks are routed by the DynamicItem templates, not by this object
    return view
