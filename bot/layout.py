"""The table: the one Components V2 message a game shows in its channel, edited in place for its life.

A ``discord.ui.LayoutView`` holding one ``Container`` (accent colour of the seat to act) with:
the title in a ``Section`` whose accessory is the **Key** button (the picture's legend, privately),
the board (a ``MediaGallery`` of the PNG with its alt text, or the text board where the bot may not
attach files), the game's own words beside the picture (``Game.view_text``: scores, tracks, dice,
whose mark is whose), a short log of the last events in words, the seats (name, score, who is to act,
AI and away marks) with the **Text board** button (the position in words, privately) and the controls
(``ActionRow`` s of the DynamicItems built in ``bot/ui.py``).

Discord's limits for such a message: 40 components in all and 4000 characters of text. The text parts
are cut to fit: the title, seats, status and the game's words first (each to its own cap), then the log
keeps its newest lines in what is left; the controls are at most five rows (10 + 30 components).
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

import discord

from bot.games.phrase import ENGLISH, N_, Voice
from rendering.theme import SEAT_COLOURS

# Each seat's mark in text: an emoji of its own colour (the seat's colour in the images) AND its own
# shape, so that no seat is told from another by colour alone. Emoji come in few coloured shapes, so
# the text marks' shapes are not the badge shapes of the images (``rendering.theme.SEAT_SHAPES``); the
# Key says both. Each is one code point drawn as an emoji by default (fully-qualified, no FE0F).
SEAT_MARKS = ["🔵", "🟥", "💚", "⭐", "🌸", "💎"]
MARK_WORDS = {  # mark -> (colour, shape), for the Key
    "🔵": ("blue", "circle"),
    "🟥": ("red", "square"),
    "💚": ("green", "heart"),
    "⭐": ("yellow", "star"),
    "🌸": ("pink", "blossom"),
    "💎": ("sky", "gem"),
}
MAX_TEXT = 4000
MAX_COMPONENTS = 40
LOG_LINES = 6
BOARD_TEXT = 1000  # characters of the game's words beside the picture (games aim at ~600)
LOG_RESERVE = 300  # characters the log keeps whatever the game's words take
MIN_WORDS = 40  # less room than this for the game's words: none are shown (a stub says nothing)
ALT_TEXT = 256  # characters of an image's description (alt text)
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


def alt_clip(text: str, limit: int = ALT_TEXT) -> str:
    """An alt text on one line, at most ``limit`` characters (code points, as Discord counts them), cut
    at a word (with …) and never between a letter and its combining marks."""
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    while cut and unicodedata.combining(text[len(cut)]):
        cut = cut[:-1]
    space = cut.rfind(" ")
    if space >= limit // 2:
        cut = cut[:space]
    return cut.rstrip(" ,;:") + "…"


# Whose mark is whose on the Key, one message a seat (its mark's colour and its badge's shape in the
# picture, ``rendering.theme.SEAT_SHAPES``): a language agrees the colour with the shape as it must.
BADGE_LINES = (
    N_("{mark} **{name}** — the blue circle on the board"),
    N_("{mark} **{name}** — the red square on the board"),
    N_("{mark} **{name}** — the green triangle on the board"),
    N_("{mark} **{name}** — the yellow diamond on the board"),
    N_("{mark} **{name}** — the pink hexagon on the board"),
    N_("{mark} **{name}** — the sky pentagon on the board"),
)


def seat_key(names: list[str], speaker: Voice = ENGLISH) -> str:
    """Whose mark is whose, for the Key: each seat's text mark, the player's name (``names`` already
    escaped for markdown) and the seat's badge in the picture (its colour and shape)."""
    return "\n".join(
        speaker.gettext(BADGE_LINES[seat % len(BADGE_LINES)], mark=seat_mark(seat), name=name)
        for seat, name in enumerate(names)
    )


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
    words: str = ""  # the game's own text beside the picture (Game.view_text), names escaped
    alt: str = ""  # the picture's alt text
    key: discord.ui.Button | None = None  # the Key button, beside the title
    follow: discord.ui.Button | None = None  # the Follow button, beside the status
    text_board_button: discord.ui.Button | None = None  # the Text board button, beside the seats


def table_layout(parts: TableParts) -> discord.ui.LayoutView:
    """The LayoutView of the table message; within Discord's limits whatever the parts hold."""
    view = discord.ui.LayoutView(timeout=None)
    title: discord.ui.TextDisplay[discord.ui.LayoutView] = discord.ui.TextDisplay(clip(parts.title, 300))
    children: list[discord.ui.Item] = [
        title if parts.key is None else discord.ui.Section(title, accessory=parts.key)
    ]
    budget = MAX_TEXT - len(title.content)
    if parts.text_board is not None:
        board = "```\n" + clip(parts.text_board, 1800) + "\n```"
        children.append(discord.ui.TextDisplay(board))
        budget -= len(board)
    elif parts.image:
        item = discord.MediaGalleryItem(f"attachment://{BOARD_FILE}", description=alt_clip(parts.alt) or None)
        children.append(discord.ui.MediaGallery(item))
    status = clip(parts.status, 600)
    seats = clip(parts.seats, 800)
    budget -= len(status) + len(seats)
    # the game's words, then the log in what is left: the log keeps at least LOG_RESERVE characters
    room = min(BOARD_TEXT, budget - LOG_RESERVE)
    words = clip(parts.words.strip(), room) if room >= MIN_WORDS else ""
    if words:
        children.append(discord.ui.TextDisplay(words))
        budget -= len(words)
    log = [f"> {line}" for line in parts.log[-LOG_LINES:] if line]
    while log and sum(len(line) + 1 for line in log) > budget:
        log.pop(0)
    if log:
        children.append(discord.ui.TextDisplay("\n".join(log)))
    children.append(discord.ui.Separator(visible=True))
    rows = [row for row in (parts.controls or [])[:5] if row]
    seats_item: discord.ui.TextDisplay[discord.ui.LayoutView] = discord.ui.TextDisplay(seats)
    status_item: discord.ui.TextDisplay[discord.ui.LayoutView] = discord.ui.TextDisplay(status)
    # Text board beside the seats, then Follow beside the status, take two components each (a Section
    # and the button): each left out should the controls ever leave no room for it (today's menus take
    # at most 24 of the 30 they may); the text board first, since some players cannot read the picture
    used = 1 + len(children) + 2 + sum(1 + len(row) for row in rows) + (2 if parts.key is not None else 0)
    if parts.text_board_button is not None and used + 2 <= MAX_COMPONENTS:
        children.append(discord.ui.Section(seats_item, accessory=parts.text_board_button))
        used += 2
    else:
        children.append(seats_item)
    if parts.follow is not None and used + 2 <= MAX_COMPONENTS:
        children.append(discord.ui.Section(status_item, accessory=parts.follow))
    else:
        children.append(status_item)
    for row in rows:
        children.append(discord.ui.ActionRow(*row))
    view.add_item(discord.ui.Container(*children, accent_colour=parts.accent))
    view.stop()  # inert: clicks are routed by their ids (cogs/clicks.py), not by this object
    return view


def dissolve(view: discord.ui.View | discord.ui.LayoutView) -> None:
    """Let a view that was sent go by reference counting. A view and its items refer to each other
    (discord.py: the view and each container hold their children, each child its view and its parent):
    a cycle that only the garbage collector frees, in pauses that every click in flight waits out, and
    a publish or a menu makes one each. Emptied, then every container from the leaves up; only a
    section's accessory stays tied to its section."""
    items = list(view.walk_children())
    view.clear_items()  # (first: it unsets the view of every item, nested ones too)
    for item in reversed(items):
        clear = getattr(item, "clear_items", None)
        if clear is not None:
            clear()
