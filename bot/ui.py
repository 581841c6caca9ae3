"""Custom ids and the discord.py components of every Admiralty message.

Components are built here as *inert* views (stopped before sending, so
discord.py does not store them): clicks are routed by the templates of the
DynamicItem classes of ``cogs/components.py`` (``cogs/clicks.py``), which
parse these ids. That makes every button work for days and across restarts.

Custom ids (all ≤ 100 characters):
  adm:l:<game>:<op>                         lobby: join, leave, ai, start, cancel
  adm:b:<game>:<version>:<seat>:<prefix>:<digest>          a menu button; prefix = indices from the root
  adm:s:<game>:<version>:<seat>:<prefix>:<page>:<digest>   a menu select; value = child index or "p<page>"
  adm:m:<game>:<version>:<seat>:<prefix>:<digest>          a multi-select of the choice at the leaf prefix;
                                                           values = candidate indices (each once)
  adm:mn:<game>:<version>:<seat>:<prefix>:<digest>         its button that chooses none of them
The digest fingerprints the seat's menu tree: while several seats choose at once, a menu stays
valid when another seat acts, as long as this seat's choices are unchanged.
  adm:v:<game>                              "My view": the private view and controls, ephemeral
  adm:again:<game>                          "Play again" on a finished game: a rematch lobby
  adm:resign:<game>:<user>:<op>             the confirm step of /game resign (op: yes | no), for that user
  adm:lb:<guild>:<game key>:<page>          /leaderboard's ◀ ▶ (page from 0), in that server only
  adm:undo:<game>:<version>:<op>            undo by agreement at that version: ask (the mover's "Ask to
                                            undo"), yes | no (the other players' Accept / Decline)
  adm:hist:<c|m>:<id>:<page>                /game history's ◀ ▶: a channel's (c) or a member's (m) games
  adm:hopen                                 /game history's select; value = a game id
  adm:replay:<game>  adm:export:<game>      a finished game's Replay and Export buttons (its server only)
  adm:key:<game>                            the table's Key: the picture's legend, ephemeral
  adm:tb:<game>                             the table's Text board: the position in words, ephemeral
  adm:follow:<game>:<op>                    Follow on the table (op on); in the private answer and the
                                            follow DMs: every | end (DM every move, or only the end), off
  adm:clk:…                                 the clocks' controls: bot/clock_ui.py
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

import discord

from bot import menus
from bot.ai_seats import DEFAULT_LEVEL
from bot.i18n import ENGLISH, N_, Speaker

# Ids are parsed strictly: ASCII digits only (int() and \d also take '²', '١', …), numbers bounded
# (a game id fits SQLite's int64), one exact shape per kind. Anything else under "adm:" is refused.
MAX_ID = 2**63 - 1
_GAME = r"(?P<game>[0-9]{1,19})"
_HEAD = _GAME + r":(?P<version>[0-9]{1,9}):(?P<seat>[0-9]{1,2})"
# Menu position: "-" (the root) or child indices joined by "."; the last may be -1 (the Confirm
# step menus once had: such an old button is parsed, then answered as out of date).
_PREFIX = r"(?P<prefix>-|-1|[0-9]{1,4}(?:\.[0-9]{1,4})*(?:\.-1)?)"
_DIGEST = r"(?::(?P<digest>[0-9a-f]{8}))?"
# "ai" asks the host for the AI's level; "ai-<level>" adds it
LOBBY_RE = re.compile(
    r"adm:l:" + _GAME + r":(?P<op>join|leave|ai(?:-easy|-normal|-hard)?|start|cancel)", re.ASCII
)
BUTTON_RE = re.compile(r"adm:b:" + _HEAD + ":" + _PREFIX + _DIGEST, re.ASCII)
SELECT_RE = re.compile(r"adm:s:" + _HEAD + ":" + _PREFIX + r":(?P<page>[0-9]{1,4})" + _DIGEST, re.ASCII)
CHOICE_RE = re.compile(r"adm:m:" + _HEAD + ":" + _PREFIX + _DIGEST, re.ASCII)
CHOICE_NONE_RE = re.compile(r"adm:mn:" + _HEAD + ":" + _PREFIX + _DIGEST, re.ASCII)
CHOICE_VALUE_RE = re.compile(r"[0-9]{1,2}", re.ASCII)
VIEW_RE = re.compile(r"adm:v:" + _GAME, re.ASCII)
AGAIN_RE = re.compile(r"adm:again:" + _GAME, re.ASCII)
RESIGN_RE = re.compile(r"adm:resign:" + _GAME + r":(?P<user>[0-9]{1,20}):(?P<op>yes|no)", re.ASCII)
LEADERBOARD_RE = re.compile(
    r"adm:lb:(?P<guild>[0-9]{1,20}):(?P<key>[a-z0-9-]{1,32}):(?P<page>[0-9]{1,4})", re.ASCII
)
UNDO_RE = re.compile(r"adm:undo:" + _GAME + r":(?P<version>[0-9]{1,9}):(?P<op>ask|yes|no)", re.ASCII)
HISTORY_RE = re.compile(r"adm:hist:(?P<scope>[cm]):(?P<ident>[0-9]{1,20}):(?P<page>[0-9]{1,4})", re.ASCII)
HISTORY_OPEN = "adm:hopen"
REPLAY_RE = re.compile(r"adm:replay:" + _GAME, re.ASCII)
EXPORT_RE = re.compile(r"adm:export:" + _GAME, re.ASCII)
KEY_RE = re.compile(r"adm:key:" + _GAME, re.ASCII)
TEXT_BOARD_RE = re.compile(r"adm:tb:" + _GAME, re.ASCII)
FOLLOW_RE = re.compile(r"adm:follow:" + _GAME + r":(?P<op>on|every|end|off)", re.ASCII)
# the step-through of a past game (cogs/imports.py): with a step, that position (edited in place);
# without, the start (a new private message); the "Go to move…" select
STUDY_RE = re.compile(r"adm:study:" + _GAME + r"(?::(?P<step>[0-9]{1,6}))?", re.ASCII)
STUDY_GO_RE = re.compile(r"adm:studygo:" + _GAME, re.ASCII)
GAME_VALUE_RE = re.compile(r"[0-9]{1,19}", re.ASCII)
SELECT_VALUE_RE = re.compile(r"(?P<page>p)?(?P<index>[0-9]{1,4})", re.ASCII)

# What the components cog routes: every id of a kind, well-formed or not (the strict parsers above
# decide), and any other id under "adm:", so that no click on a malformed id goes unanswered.
LOBBY_ANY = r"(?s)adm:l:.*"
BUTTON_ANY = r"(?s)adm:b:.*"
SELECT_ANY = r"(?s)adm:s:.*"
VIEW_ANY = r"(?s)adm:v:.*"
CHOICE_ANY = r"(?s)adm:m:.*"
CHOICE_NONE_ANY = r"(?s)adm:mn:.*"
# (the Play again and Resign buttons are routed by their strict templates; a malformed one falls here)
OTHER_ANY = (
    r"(?as)adm:(?![lbsvm]:)(?!mn:)(?!clk:)(?!again:[0-9]{1,19}$)(?!resign:[0-9]{1,19}:[0-9]{1,20}:(?:yes|no)$)"
    r"(?!lb:[0-9]{1,20}:[a-z0-9-]{1,32}:[0-9]{1,4}$)"
    r"(?!hist:[cm]:[0-9]{1,20}:[0-9]{1,4}$)(?!hopen$)(?!(?:replay|export|key):[0-9]{1,19}$)"
    r"(?!mine:(?:p:[0-9]{1,4}|n:[0-9]{1,19})$)"
    r"(?!undo:[0-9]{1,19}:[0-9]{1,9}:(?:ask|yes|no)$)"
    r"(?!follow:[0-9]{1,19}:(?:on|every|end|off)$)(?!tb:[0-9]{1,19}$)"
    r"(?!study:[0-9]{1,19}(?::[0-9]{1,6})?$)(?!studygo:[0-9]{1,19}$).*"
)


def leaderboard_id(guild_id: int, game_key: str, page: int) -> str:
    return f"adm:lb:{guild_id}:{game_key}:{page}"


def history_id(scope: str, ident: int, page: int) -> str:
    return f"adm:hist:{scope}:{ident}:{page}"


def parse_history(custom_id: str) -> tuple[str, int, int] | None:
    """(scope, channel or member id, page) of a history page button id, or None if malformed."""
    m = HISTORY_RE.fullmatch(custom_id)
    if m is None or int(m["ident"]) > MAX_ID:
        return None
    return m["scope"], int(m["ident"]), int(m["page"])


def parse_game_value(value: object) -> int | None:
    """A game id picked in the history select, or None if malformed."""
    if not isinstance(value, str) or GAME_VALUE_RE.fullmatch(value) is None or int(value) > MAX_ID:
        return None
    return int(value)


def replay_id(game_id: int) -> str:
    return f"adm:replay:{game_id}"


def export_id(game_id: int) -> str:
    return f"adm:export:{game_id}"


def study_id(game_id: int, step: int | None = None) -> str:
    return f"adm:study:{game_id}" if step is None else f"adm:study:{game_id}:{step}"


def study_go_id(game_id: int) -> str:
    return f"adm:studygo:{game_id}"


def key_id(game_id: int) -> str:
    return f"adm:key:{game_id}"


def key_button(game_id: int, speaker: Speaker = ENGLISH) -> discord.ui.Button:
    """The table's **Key**: the legend of its picture and whose mark is whose, shown privately."""
    return discord.ui.Button(
        label=speaker.gettext("Key"),
        emoji="🗝️",
        style=discord.ButtonStyle.secondary,
        custom_id=key_id(game_id),
    )


def text_board_id(game_id: int) -> str:
    return f"adm:tb:{game_id}"


def text_board_button(game_id: int, speaker: Speaker = ENGLISH) -> discord.ui.Button:
    """The table's **Text board**: the position as plain text a screen reader reads in order, privately."""
    return discord.ui.Button(
        label=speaker.gettext("Text board"),
        emoji="📜",
        style=discord.ButtonStyle.secondary,
        custom_id=text_board_id(game_id),
    )


def follow_id(game_id: int, op: str) -> str:
    return f"adm:follow:{game_id}:{op}"


def follow_button(game_id: int, speaker: Speaker = ENGLISH) -> discord.ui.Button:
    """The table's **Follow**: a DM when the game ends (and, if chosen, every turn)."""
    return discord.ui.Button(
        label=speaker.gettext("Follow"),
        emoji="👁️",
        style=discord.ButtonStyle.secondary,
        custom_id=follow_id(game_id, "on"),
    )


def follow_view(
    game_id: int, every_move: bool, *, choices: bool = True, speaker: Speaker = ENGLISH
) -> discord.ui.View:
    """A follower's choices (the private answer to Follow, and each follow DM), in the follower's
    language: a DM every turn or only at the end (the one not chosen; without ``choices``, as in the end
    DM, neither), and Unfollow."""
    _ = speaker.gettext
    view = discord.ui.View(timeout=None)
    if choices:
        label, op = (_("Only when it ends"), "end") if every_move else (_("Every move too"), "every")
        view.add_item(discord.ui.Button(label=label, custom_id=follow_id(game_id, op)))
    view.add_item(
        discord.ui.Button(
            label=_("Unfollow"), style=discord.ButtonStyle.danger, custom_id=follow_id(game_id, "off")
        )
    )
    return _inert(view)


def parse_leaderboard(custom_id: str) -> tuple[int, str, int] | None:
    """(guild, game key, page) of a leaderboard button id, or None if malformed."""
    m = LEADERBOARD_RE.fullmatch(custom_id)
    if m is None or int(m["guild"]) > MAX_ID:
        return None
    return int(m["guild"]), m["key"], int(m["page"])


def undo_id(game_id: int, version: int, op: str) -> str:
    return f"adm:undo:{game_id}:{version}:{op}"


def parse_undo(custom_id: str) -> tuple[int, int, str] | None:
    """(game, version, op) of an undo button id, or None if malformed."""
    m = UNDO_RE.fullmatch(custom_id)
    if m is None or _game(m) is None:
        return None
    return int(m["game"]), int(m["version"]), m["op"]


@dataclass(frozen=True)
class MenuId:
    """A parsed menu button or select id."""

    game: int
    version: int
    seat: int
    prefix: tuple[int, ...]
    page: int = 0
    digest: str | None = None


def _game(match: re.Match) -> int | None:
    game = int(match["game"])
    return game if game <= MAX_ID else None


def parse_lobby(custom_id: str) -> tuple[int, str] | None:
    """(game, op) of a lobby button id, or None if malformed."""
    m = LOBBY_RE.fullmatch(custom_id)
    if m is None or _game(m) is None:
        return None
    return int(m["game"]), m["op"]


def parse_view(custom_id: str) -> int | None:
    m = VIEW_RE.fullmatch(custom_id)
    return None if m is None else _game(m)


def _menu(m: re.Match | None, page: bool) -> MenuId | None:
    if m is None or _game(m) is None:
        return None
    return MenuId(
        int(m["game"]),
        int(m["version"]),
        int(m["seat"]),
        menus.decode_prefix(m["prefix"]),
        int(m["page"]) if page else 0,
        m["digest"],
    )


def parse_button(custom_id: str) -> MenuId | None:
    return _menu(BUTTON_RE.fullmatch(custom_id), page=False)


def parse_select(custom_id: str) -> MenuId | None:
    return _menu(SELECT_RE.fullmatch(custom_id), page=True)


def parse_choice(custom_id: str) -> MenuId | None:
    """A multi-select's id (adm:m:); None if malformed."""
    return _menu(CHOICE_RE.fullmatch(custom_id), page=False)


def parse_choice_none(custom_id: str) -> MenuId | None:
    """The id of a multi-select's choose-none button (adm:mn:); None if malformed."""
    return _menu(CHOICE_NONE_RE.fullmatch(custom_id), page=False)


def parse_choice_values(values: object) -> list[int] | None:
    """The candidate indices picked in a multi-select: each an ASCII number, each once, at most one
    select's worth; None if malformed (the host checks them against the choice itself)."""
    if not isinstance(values, list) or len(values) > menus.OPTIONS:
        return None
    if not all(isinstance(v, str) and CHOICE_VALUE_RE.fullmatch(v) for v in values):
        return None
    picks = [int(v) for v in values]
    return picks if len(set(picks)) == len(picks) else None


def parse_select_value(value: str) -> tuple[str, int] | None:
    """A select option value: ("page", n) for "p<n>", ("entry", i) for a child index; None if malformed."""
    m = SELECT_VALUE_RE.fullmatch(value)
    if m is None:
        return None
    return ("page" if m["page"] else "entry"), int(m["index"])


MAX_BUTTONS = 15  # up to three rows of choices; a row is kept for Back / My view


def lobby_id(game_id: int, op: str) -> str:
    return f"adm:l:{game_id}:{op}"


def button_id(game_id: int, version: int, seat: int, prefix: tuple[int, ...], digest: str = "") -> str:
    tail = f":{digest}" if digest else ""
    return f"adm:b:{game_id}:{version}:{seat}:{menus.encode_prefix(prefix)}{tail}"


def select_id(
    game_id: int, version: int, seat: int, prefix: tuple[int, ...], page: int, digest: str = ""
) -> str:
    tail = f":{digest}" if digest else ""
    return f"adm:s:{game_id}:{version}:{seat}:{menus.encode_prefix(prefix)}:{page}{tail}"


def choice_id(
    game_id: int, version: int, seat: int, prefix: tuple[int, ...], digest: str = "", *, none: bool = False
) -> str:
    tail = f":{digest}" if digest else ""
    return f"adm:{'mn' if none else 'm'}:{game_id}:{version}:{seat}:{menus.encode_prefix(prefix)}{tail}"


def view_id(game_id: int) -> str:
    return f"adm:v:{game_id}"


def again_id(game_id: int) -> str:
    return f"adm:again:{game_id}"


def resign_id(game_id: int, user_id: int, op: str) -> str:
    return f"adm:resign:{game_id}:{user_id}:{op}"


def play_again_button(game_id: int, speaker: Speaker = ENGLISH) -> discord.ui.Button:
    """The "Play again" button of a finished game's table (a rematch lobby in the same place)."""
    return discord.ui.Button(
        label=speaker.gettext("Play again"),
        emoji="🔁",
        style=discord.ButtonStyle.success,
        custom_id=again_id(game_id),
    )


def _inert(view: discord.ui.View) -> discord.ui.View:
    view.stop()
    return view


def _pager(
    view: discord.ui.View, page: int, more: bool, page_id: Callable[[int], str], row: int | None = None
) -> None:
    """[◀] [▶] of a paged list (page from 0; ``more``: a next page exists), each disabled at its end."""
    view.add_item(
        discord.ui.Button(
            label="◀",
            style=discord.ButtonStyle.secondary,
            disabled=page <= 0,
            row=row,
            custom_id=page_id(max(0, page - 1)),
        )
    )
    view.add_item(
        discord.ui.Button(
            label="▶",
            style=discord.ButtonStyle.secondary,
            disabled=not more,
            row=row,
            custom_id=page_id(min(9999, page + 1)),
        )
    )


def lobby_view(game_id: int, speaker: Speaker = ENGLISH) -> discord.ui.View:
    """The lobby's buttons, labelled in the server's language (``speaker``)."""
    _ = speaker.gettext
    view = discord.ui.View(timeout=None)
    view.add_item(
        discord.ui.Button(
            label=_("Join"), style=discord.ButtonStyle.success, custom_id=lobby_id(game_id, "join")
        )
    )
    view.add_item(
        discord.ui.Button(
            label=_("Leave"), style=discord.ButtonStyle.secondary, custom_id=lobby_id(game_id, "leave")
        )
    )
    view.add_item(
        discord.ui.Button(
            label=_("Add AI"), style=discord.ButtonStyle.secondary, custom_id=lobby_id(game_id, "ai")
        )
    )
    view.add_item(
        discord.ui.Button(
            label=_("Start"), style=discord.ButtonStyle.primary, custom_id=lobby_id(game_id, "start")
        )
    )
    view.add_item(
        discord.ui.Button(
            label=_("Cancel"), style=discord.ButtonStyle.danger, custom_id=lobby_id(game_id, "cancel")
        )
    )
    return _inert(view)


# the levels' labels, as the level picker and /game add-ai show them
LEVEL_LABELS = {"easy": N_("Easy"), "normal": N_("Normal"), "hard": N_("Hard")}


def ai_level_view(game_id: int, speaker: Speaker = ENGLISH) -> discord.ui.View:
    """Add AI's question, for the host alone: which level (Normal, the default, stands out)."""
    view = discord.ui.View(timeout=None)
    for level, label in LEVEL_LABELS.items():
        style = discord.ButtonStyle.primary if level == DEFAULT_LEVEL else discord.ButtonStyle.secondary
        view.add_item(
            discord.ui.Button(
                label=speaker.gettext(label), style=style, custom_id=lobby_id(game_id, f"ai-{level}")
            )
        )
    return _inert(view)


def _short(text: str, n: int) -> str:
    return text if len(text) <= n else text[: n - 1] + "…"


def menu_view(
    game_id: int,
    version: int,
    seat: int,
    level: menus.Level | None,
    *,
    my_view_label: str | None = None,
    speaker: Speaker = ENGLISH,
) -> discord.ui.View:
    """The controls of one menu level: buttons when few, else up to ``menus.SELECTS`` selects (paged
    beyond that), with the level's entries that play at once as buttons under them. The level comes in
    its reader's language; ``speaker`` (the same) says the pager and Back."""
    _ = speaker.gettext
    view = discord.ui.View(timeout=None)
    if level is not None and level.choose is not None:
        _choice_controls(view, game_id, version, seat, level)
    elif level is not None:
        # Entries with a description are shown in a select (a button has no room for it).
        use_buttons = (
            level.pages == 1
            and len(level.entries) <= MAX_BUTTONS
            and not level.descriptions
            and all(len(label) <= 80 for _, label in level.entries)
        )
        if use_buttons:
            for n, (i, label) in enumerate(level.entries):
                view.add_item(
                    discord.ui.Button(
                        label=_short(label, 80),
                        style=discord.ButtonStyle.primary,
                        custom_id=button_id(game_id, version, seat, level.prefix + (i,), level.digest),
                        row=n // 5,
                    )
                )
        else:
            options = []
            if level.page > 0:
                options.append(
                    discord.SelectOption(label=_("◀ Previous choices"), value=f"p{level.page - 1}")
                )
            for i, label in level.entries:
                options.append(
                    discord.SelectOption(
                        label=_short(label, 100),
                        value=str(i),
                        description=_short(level.descriptions[i], 100) if level.descriptions.get(i) else None,
                    )
                )
            if level.page < level.pages - 1:
                options.append(discord.SelectOption(label=_("More choices ▶"), value=f"p{level.page + 1}"))
            parts = [options[k : k + menus.OPTIONS] for k in range(0, len(options), menus.OPTIONS)]
            for k, part in enumerate(parts):
                placeholder = level.title
                if len(parts) > 1:
                    placeholder += f" ({k + 1}/{len(parts)})"
                if level.pages > 1:
                    placeholder += " · " + _("page {page}/{pages}", page=level.page + 1, pages=level.pages)
                # each select of the message has its own id: its place in the level (page, row)
                place = level.page * menus.SELECTS + k
                view.add_item(
                    discord.ui.Select(
                        custom_id=select_id(game_id, version, seat, level.prefix, place, level.digest),
                        placeholder=_short(placeholder, 150),
                        options=part,
                        row=k,
                    )
                )
        for i, label in level.buttons:
            view.add_item(
                discord.ui.Button(
                    label=_short(label, 80),
                    style=discord.ButtonStyle.success,
                    custom_id=button_id(game_id, version, seat, level.prefix + (i,), level.digest),
                    row=4,
                )
            )
    if level is not None and level.back is not None:
        view.add_item(
            discord.ui.Button(
                label=_("◀ Back"),
                style=discord.ButtonStyle.secondary,
                custom_id=button_id(game_id, version, seat, level.back, level.digest),
                row=4,
            )
        )
    if my_view_label:
        view.add_item(
            discord.ui.Button(
                label=my_view_label, style=discord.ButtonStyle.secondary, custom_id=view_id(game_id), row=4
            )
        )
    return _inert(view)


def _choice_controls(
    view: discord.ui.View, game_id: int, version: int, seat: int, level: menus.Level
) -> None:
    """One multi-select of a choice's candidates (picking closes it and plays the move) and the button
    that picks none when none may be picked."""
    least, most = level.choose or (1, 1)
    view.add_item(
        discord.ui.Select(
            custom_id=choice_id(game_id, version, seat, level.prefix, level.digest),
            placeholder=_short(level.title, 150),
            min_values=max(1, least),  # none: the button (a select sends nothing when left empty)
            max_values=max(1, most),
            options=[
                discord.SelectOption(
                    label=_short(label, 100),
                    value=str(i),
                    description=_short(level.descriptions[i], 100) if level.descriptions.get(i) else None,
                )
                for i, label in level.entries
            ],
            row=0,
        )
    )
    if level.none_label:
        view.add_item(
            discord.ui.Button(
                label=_short(level.none_label, 80),
                style=discord.ButtonStyle.primary,
                custom_id=choice_id(game_id, version, seat, level.prefix, level.digest, none=True),
                row=1,
            )
        )


def my_view_only(game_id: int, label: str) -> discord.ui.View:
    return menu_view(game_id, 0, 0, None, my_view_label=label)


def resign_view(game_id: int, user_id: int, speaker: Speaker = ENGLISH) -> discord.ui.View:
    """The confirm step of /game resign: [Resign] [Keep playing], for ``user_id`` only, in their language."""
    _ = speaker.gettext
    view = discord.ui.View(timeout=None)
    view.add_item(
        discord.ui.Button(
            label=_("Resign"), style=discord.ButtonStyle.danger, custom_id=resign_id(game_id, user_id, "yes")
        )
    )
    view.add_item(
        discord.ui.Button(
            label=_("Keep playing"),
            style=discord.ButtonStyle.secondary,
            custom_id=resign_id(game_id, user_id, "no"),
        )
    )
    return _inert(view)


def leaderboard_view(guild_id: int, game_key: str, page: int, pages: int) -> discord.ui.View:
    """/leaderboard's [◀] [▶] (each disabled at its end)."""
    view = discord.ui.View(timeout=None)
    _pager(view, page, page < pages - 1, lambda p: leaderboard_id(guild_id, game_key, p))
    return _inert(view)


def undo_ask_view(game_id: int, version: int, speaker: Speaker = ENGLISH) -> discord.ui.View:
    """[↩ Ask to undo] under a player's "Played" answer (in their language): asks the others to take that
    move back."""
    view = discord.ui.View(timeout=None)
    view.add_item(
        discord.ui.Button(
            label=speaker.gettext("Ask to undo"),
            emoji="\u21a9\ufe0f",  # ↩️ fully qualified, as Discord spells it
            style=discord.ButtonStyle.secondary,
            custom_id=undo_id(game_id, version, "ask"),
        )
    )
    return _inert(view)


def undo_answer_view(game_id: int, version: int, speaker: Speaker = ENGLISH) -> discord.ui.View:
    """[Accept] [Decline] of an undo request, for the other players of the game (in the channel's
    language)."""
    _ = speaker.gettext
    view = discord.ui.View(timeout=None)
    view.add_item(
        discord.ui.Button(
            label=_("Accept"), style=discord.ButtonStyle.success, custom_id=undo_id(game_id, version, "yes")
        )
    )
    view.add_item(
        discord.ui.Button(
            label=_("Decline"), style=discord.ButtonStyle.danger, custom_id=undo_id(game_id, version, "no")
        )
    )
    return _inert(view)


def history_view(
    scope: str, ident: int, page: int, more: bool, options: list[tuple[int, str]], speaker: Speaker = ENGLISH
) -> discord.ui.View | None:
    """/game history's select (``options``: game id and label) and, when paged, [◀] [▶]."""
    view = discord.ui.View(timeout=None)
    if options:
        view.add_item(
            discord.ui.Select(
                custom_id=HISTORY_OPEN,
                placeholder=speaker.gettext("Open a past game"),
                row=0,
                options=[
                    discord.SelectOption(label=label[:100], value=str(gid)) for gid, label in options[:25]
                ],
            )
        )
    if page > 0 or more:
        _pager(view, page, more, lambda p: history_id(scope, ident, p), row=1)
    return _inert(view) if view.children else None


def replay_button(game_id: int, speaker: Speaker = ENGLISH) -> discord.ui.Button:
    """ "Replay" of a finished game: its move-by-move GIF and log, posted in the channel."""
    return discord.ui.Button(
        label=speaker.gettext("Replay"),
        emoji="🎞️",
        style=discord.ButtonStyle.secondary,
        custom_id=replay_id(game_id),
    )


def study_button(game_id: int, speaker: Speaker = ENGLISH) -> discord.ui.Button:
    """ "Study": a private step-through of a finished game, move by move (cogs/imports.py)."""
    return discord.ui.Button(
        label=speaker.gettext("Study"),
        emoji="🔎",
        style=discord.ButtonStyle.secondary,
        custom_id=study_id(game_id),
    )


def study_view(
    game_id: int, step: int, steps: int, go_to: list[tuple[int, str]], speaker: Speaker = ENGLISH
) -> discord.ui.View:
    """[◀] [▶] of the step-through at ``step`` (of ``steps``), and its "Go to move…" select."""
    view = discord.ui.View(timeout=None)
    for label, to, disabled in (("◀", max(0, step - 1), step <= 0), ("▶", step + 1, step >= steps - 1)):
        view.add_item(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.secondary,
                disabled=disabled,
                row=0,
                custom_id=study_id(game_id, to),
            )
        )
    view.add_item(
        discord.ui.Select(
            custom_id=study_go_id(game_id),
            placeholder=speaker.gettext("Go to move…"),
            row=1,
            options=[discord.SelectOption(label=label, value=str(s)) for s, label in go_to[:25]],
        )
    )
    return _inert(view)


def past_game_view(game_id: int, *, export: bool = True, speaker: Speaker = ENGLISH) -> discord.ui.View:
    """A finished game's [Replay] [Study] [Export] buttons (the history's opened game), in the reader's
    language; Export only for those who may export it (``export``: its players and members with Manage
    Server)."""
    view = discord.ui.View(timeout=None)
    view.add_item(replay_button(game_id, speaker))
    view.add_item(study_button(game_id, speaker))
    if export:
        view.add_item(
            discord.ui.Button(
                label=speaker.gettext("Export"),
                emoji="📄",
                style=discord.ButtonStyle.secondary,
                custom_id=export_id(game_id),
            )
        )
    return _inert(view)
