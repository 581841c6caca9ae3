"""Custom ids and components of the clocks' controls (bot/timekeeper.py), routed by cogs/clocks.py.

  adm:clk:more:<game>                    the table's **Give more time**: the choices, privately
  adm:clk:give:<game>:<seat>:<seconds>   one choice: that much more for that seat's current turn
  adm:clk:pause:<game>:<yes|no>          Accept / Decline of a pause request
Anything else under ``adm:clk:`` is refused as malformed by the same route (bot/ui.py leaves it to it).
"""

from __future__ import annotations

import re

import discord

from bot.clocks import EXTENSIONS, Clock, short_duration
from bot.games.phrase import ENGLISH, Voice

CLOCK_ANY = r"(?s)adm:clk:.*"
_GAME = r"(?P<game>[0-9]{1,19})"
MORE_RE = re.compile(r"adm:clk:more:" + _GAME, re.ASCII)
GIVE_RE = re.compile(r"adm:clk:give:" + _GAME + r":(?P<seat>[0-9]{1,2}):(?P<seconds>[0-9]{1,7})", re.ASCII)
PAUSE_RE = re.compile(r"adm:clk:pause:" + _GAME + r":(?P<op>yes|no)", re.ASCII)
MAX_ID = 2**63 - 1


def parse(custom_id: str) -> tuple[str, int, tuple] | None:
    """(kind, game, details) of a clock control's id: ("more", game, ()), ("give", game, (seat,
    seconds)), ("pause", game, (accept,)); None if malformed."""
    details: tuple
    if m := MORE_RE.fullmatch(custom_id):
        kind, details = "more", ()
    elif m := GIVE_RE.fullmatch(custom_id):
        seconds = float(m["seconds"])
        if seconds not in EXTENSIONS:
            return None
        kind, details = "give", (int(m["seat"]), seconds)
    elif m := PAUSE_RE.fullmatch(custom_id):
        kind, details = "pause", (m["op"] == "yes",)
    else:
        return None
    game = int(m["game"])
    return None if game > MAX_ID else (kind, game, details)


def clock_words(clock: Clock, seat: int, now: float, speaker: Voice = ENGLISH) -> str:
    """What a seat's line on the table says of its clock: " · ⏳ 2d 4h" (its bank, or what is left of
    the turn under way; with a time per turn only the latter), and " · 🏖 on vacation until <t:…:f>"
    while its player is away."""
    c = clock.seat(seat)
    text = ""
    if c.mid or clock.mode == "bank":  # (a time per turn: only the turn under way has time to show)
        text = f" · ⏳ {short_duration(c.remaining(now) if c.mid else c.left, speaker)}"
    away = clock.away.get(seat)
    if away is not None and away > now:
        text += " · " + speaker.gettext("🏖 on vacation until {when}", when=f"<t:{int(away)}:f>")
    return text


def add_more_time(rows: list[list[discord.ui.Item]], game_id: int, speaker: Voice = ENGLISH) -> None:
    """Put **Give more time** on the table's controls: in the last row when it has room, else a row of its
    own (Discord allows 5 buttons a row)."""
    if rows and len(rows[-1]) < 5 and not any(isinstance(i, discord.ui.Select) for i in rows[-1]):
        rows[-1].append(more_time_button(game_id, speaker))
    else:
        rows.append([more_time_button(game_id, speaker)])


def more_time_button(game_id: int, speaker: Voice = ENGLISH) -> discord.ui.Button:
    return discord.ui.Button(
        label=speaker.gettext("Give more time"),
        emoji="⏳",
        style=discord.ButtonStyle.secondary,
        custom_id=f"adm:clk:more:{game_id}",
    )


def more_time_view(game_id: int, seat: int, speaker: Voice = ENGLISH) -> discord.ui.View:
    """The choices of **Give more time** for ``seat``'s turn."""
    view = discord.ui.View(timeout=None)
    for seconds in EXTENSIONS:
        view.add_item(
            discord.ui.Button(
                label=f"+{short_duration(seconds, speaker)}",
                style=discord.ButtonStyle.primary,
                custom_id=f"adm:clk:give:{game_id}:{seat}:{int(seconds)}",
            )
        )
    view.stop()
    return view


def pause_answer_view(game_id: int, speaker: Voice = ENGLISH) -> discord.ui.View:
    """Accept / Decline of a pause request, in the channel's language."""
    _ = speaker.gettext
    view = discord.ui.View(timeout=None)
    view.add_item(
        discord.ui.Button(
            label=_("Accept"), style=discord.ButtonStyle.success, custom_id=f"adm:clk:pause:{game_id}:yes"
        )
    )
    view.add_item(
        discord.ui.Button(
            label=_("Decline"), style=discord.ButtonStyle.danger, custom_id=f"adm:clk:pause:{game_id}:no"
        )
    )
    view.stop()
    return view
