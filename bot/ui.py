"""Custom ids and the discord.py components of every Admiralty message.

Components are built here as *inert* views (stopped before sending, so
discord.py does not store them): clicks are routed by the DynamicItem
templates that ``cogs/components.py`` registers, which parse these ids. That
makes every button work for days and across restarts.

Custom ids (all ≤ 100 characters):
  adm:l:<game>:<op>                         lobby: join, leave, ai, start, cancel
  adm:b:<game>:<version>:<seat>:<prefix>:<digest>          a menu button; prefix = indices from the root
  adm:s:<game>:<version>:<seat>:<prefix>:<page>:<digest>   a menu select; value = child index or "p<page>"
The digest fingerprints the seat's menu tree: while several seats choose at once, a menu stays
valid when another seat acts, as long as this seat's choices are unchanged.
  adm:v:<game>                              "My view": the private view and controls, ephemeral
  adm:again:<game>                          "Play again" on a finished game: a rematch lobby
  adm:resign:<game>:<user>:<op>             the confirm step of /game resign (op: yes | no), for that user
"""

from __future__ import annotations

import re

import discord

from bot import menus

LOBBY_RE = re.compile(r"adm:l:(?P<game>\d+):(?P<op>join|leave|ai|start|cancel)")
BUTTON_RE = re.compile(r"adm:b:(?P<game>\d+):(?P<version>\d+):(?P<seat>\d+):(?P<prefix>[-0-9.]+)"
                       r"(?::(?P<digest>[0-9a-f]{8}))?")
SELECT_RE = re.compile(r"adm:s:(?P<game>\d+):(?P<version>\d+):(?P<seat>\d+):(?P<prefix>[-0-9.]+):(?P<page>\d+)"
                       r"(?::(?P<digest>[0-9a-f]{8}))?")
VIEW_RE = re.compile(r"adm:v:(?P<game>\d+)")
AGAIN_RE = re.compile(r"adm:again:(?P<game>\d+)")
RESIGN_RE = re.compile(r"adm:resign:(?P<game>\d+):(?P<user>\d+):(?P<op>yes|no)")

MAX_BUTTONS = 15  # up to three rows of choices; a row is kept for Back / My view


def lobby_id(game_id: int, op: str) -> str:
    return f"adm:l:{game_id}:{op}"


def button_id(game_id: int, version: int, seat: int, prefix: tuple[int, ...], digest: str = "") -> str:
    tail = f":{digest}" if digest else ""
    return f"adm:b:{game_id}:{version}:{seat}:{menus.encode_prefix(prefix)}{tail}"


def select_id(game_id: int, version: int, seat: int, prefix: tuple[int, ...], page: int, digest: str = "") -> str:
    tail = f":{digest}" if digest else ""
    return f"adm:s:{game_id}:{version}:{seat}:{menus.encode_prefix(prefix)}:{page}{tail}"


def view_id(game_id: int) -> str:
    return f"adm:v:{game_id}"


def again_id(game_id: int) -> str:
    return f"adm:again:{game_id}"


def resign_id(game_id: int, user_id: int, op: str) -> str:
    return f"adm:resign:{game_id}:{user_id}:{op}"


def play_again_button(game_id: int) -> discord.ui.Button:
    """The "Play again" button of a finished game's table (a rematch lobby in the same place)."""
    return discord.ui.Button(label="Play again", emoji="🔁", style=discord.ButtonStyle.success,
                             custom_id=again_id(game_id))


def _inert(view: discord.ui.View) -> discord.ui.View:
    view.stop()
    return view


def lobby_view(game_id: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(discord.ui.Button(label="Join", style=discord.ButtonStyle.success,
                                    custom_id=lobby_id(game_id, "join")))
    view.add_item(discord.ui.Button(label="Leave", style=discord.ButtonStyle.secondary,
                                    custom_id=lobby_id(game_id, "leave")))
    view.add_item(discord.ui.Button(label="Add AI", style=discord.ButtonStyle.secondary,
                                    custom_id=lobby_id(game_id, "ai")))
    view.add_item(discord.ui.Button(label="Start", style=discord.ButtonStyle.primary,
                                    custom_id=lobby_id(game_id, "start")))
    view.add_item(discord.ui.Button(label="Cancel", style=discord.ButtonStyle.danger,
                                    custom_id=lobby_id(game_id, "cancel")))
    return _inert(view)


def _short(text: str, n: int) -> str:
    return text if len(text) <= n else text[: n - 1] + "…"


def menu_view(game_id: int, version: int, seat: int, level: menus.Level | None, *,
              my_view_label: str | None = None) -> discord.ui.View:
    """The controls of one menu level (buttons when few, else a paged select)."""
    view = discord.ui.View(timeout=None)
    if level is not None:
        use_buttons = level.pages == 1 and len(level.entries) <= MAX_BUTTONS and all(
            len(label) <= 80 for _, label in level.entries)
        if use_buttons:
            for n, (i, label) in enumerate(level.entries):
                view.add_item(discord.ui.Button(
                    label=_short(label, 80), style=discord.ButtonStyle.primary,
                    custom_id=button_id(game_id, version, seat, level.prefix + (i,), level.digest), row=n // 5))
        else:
            options = []
            if level.page > 0:
                options.append(discord.SelectOption(label="◀ Previous choices", value=f"p{level.page - 1}"))
            for i, label in level.entries:
                options.append(discord.SelectOption(label=_short(label, 100), value=str(i)))
            if level.page < level.pages - 1:
                options.append(discord.SelectOption(label="More choices ▶", value=f"p{level.page + 1}"))
            placeholder = level.title if level.pages == 1 else f"{level.title} ({level.page + 1}/{level.pages})"
            view.add_item(discord.ui.Select(
                custom_id=select_id(game_id, version, seat, level.prefix, level.page, level.digest),
                placeholder=_short(placeholder, 150), options=options, row=0))
        if level.back is not None:
            view.add_item(discord.ui.Button(
                label="◀ Back", style=discord.ButtonStyle.secondary,
                custom_id=button_id(game_id, version, seat, level.back, level.digest), row=4))
    if my_view_label:
        view.add_item(discord.ui.Button(label=my_view_label, style=discord.ButtonStyle.secondary,
                                        custom_id=view_id(game_id), row=4))
    return _inert(view)


def my_view_only(game_id: int, label: str) -> discord.ui.View:
    return menu_view(game_id, 0, 0, None, my_view_label=label)


def play_again_view(game_id: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(play_again_button(game_id))
    return _inert(view)


def resign_view(game_id: int, user_id: int) -> discord.ui.View:
    """The confirm step of /game resign: [Resign] [Keep playing], for ``user_id`` only."""
    view = discord.ui.View(timeout=None)
    view.add_item(discord.ui.Button(label="Resign", style=discord.ButtonStyle.danger,
                                    custom_id=resign_id(game_id, user_id, "yes")))
    view.add_item(discord.ui.Button(label="Keep playing", style=discord.ButtonStyle.secondary,
                                    custom_id=resign_id(game_id, user_id, "no")))
    return _inert(view)
