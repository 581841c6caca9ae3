"""What every cog needs: the host, and turning host errors into ephemeral replies."""

from __future__ import annotations

import logging
import re
from typing import TYPE_CHECKING, Any, cast

import discord

from bot import menus, metrics, ui
from bot.delivery import DiscordDelivery, alt_text, my_view_label, view_words, your_turn
from bot.delivery.transport import picture
from bot.games import fill_names
from bot.host import Host, Outcome, StaleBoard, Table, UserError
from bot.i18n import ENGLISH, N_, Phrase, Speaker
from bot.languages import server_language
from bot.logs import log_context
from bot.voiced import voiced

if TYPE_CHECKING:
    from bot.app import Admiralty

log = logging.getLogger("admiralty.cogs")

NOTHING = "none"  # the value of an autocomplete's single choice that explains why there is nothing to offer
APOLOGY = N_("Sorry — something went wrong on my side. The game is unchanged; please try again.")


class ById:
    """A :class:`discord.ui.DynamicItem` whose ``__init__`` takes its whole custom id (it parses it
    itself): built again from the id of the component clicked."""

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item, match: re.Match[str]
    ):
        return cast(Any, cls)(match[0])


class ByGame:
    """A :class:`discord.ui.DynamicItem` of one game's button, whose ``__init__`` takes the game's id:
    built again from the ``game`` group of its template."""

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item, match: re.Match[str]
    ):
        return cast(Any, cls)(int(match["game"]))


def joined_text(table: Table, dm_ok: bool, speaker: Speaker = ENGLISH) -> str:
    """The private answer to a player who joined a lobby."""
    if dm_ok:
        return speaker.gettext("You joined the game.")
    return speaker.gettext(
        "You joined the game. I cannot send you direct messages (your privacy settings block them): "
        "use the **{button}** button under the board to see your private view and act.",
        button=my_view_label(table),
    )


async def lobby_op(
    op: str,
    host: Host,
    channel_id: int,
    user: discord.abc.User,
    *,
    game_id: int | None = None,
    speaker: Speaker = ENGLISH,
) -> str:
    """One lobby operation (button or slash command alike); returns the private answer, in the
    language of ``speaker``. A button names its game (``game_id``); a slash command means the
    channel's game."""
    _ = speaker.gettext
    if op == "join":
        table, dm_ok = await host.join(channel_id, user.id, user.display_name, game_id=game_id)
        return joined_text(table, dm_ok, speaker)
    if op == "leave":
        await host.leave(channel_id, user.id, game_id=game_id)
        return _("You left the game.")
    if op.startswith("ai-"):  # "ai-hard": an AI seat at that level
        table = await host.add_ai(channel_id, user.id, game_id=game_id, level=op.removeprefix("ai-"))
        return _("An AI seat was added: {name} takes a seat.", name=table.seats[-1].name)
    if op == "start":
        await host.start(channel_id, user.id, game_id=game_id)
        return _("The game has started.")
    if op == "cancel":
        await host.cancel(channel_id, user.id, game_id=game_id)
        return _("The lobby was cancelled.")
    raise ValueError(f"unknown lobby operation {op!r}")


def bot_of(interaction: discord.Interaction) -> Admiralty:
    """The bot that received ``interaction``: every cog runs in :class:`bot.app.Admiralty`."""
    return cast("Admiralty", interaction.client)


def visible_channels(interaction: discord.Interaction, *, posted: bool = False) -> set[int]:
    """The channels of this server whose games the person asking may see listed (/game history, /stats),
    opened, replayed or exported: those they can view (and the one they ask in; when the server is not
    cached, only that one). The one filter of past games by channel: a game's number, date, players and
    result say where people played, so they are not shown to members who cannot see that channel.
    ``posted``: the answer is posted in the channel, where others read it too, so of the other channels
    only those every member may view count (see :func:`open_to_all`)."""
    here = {channel_of(interaction)}
    channel = interaction.channel
    parent = getattr(channel, "parent_id", None)
    if parent is not None:
        here.add(parent)  # a game's thread: its lobby's channel is where the game was opened
    guild, user = interaction.guild, interaction.user
    if guild is None or not isinstance(user, discord.Member):
        return here
    return here | {
        c.id
        for c in guild.channels
        if c.permissions_for(user).view_channel and (not posted or open_to_all(c))
    }


def open_to_all(channel: discord.abc.GuildChannel) -> bool:
    """Whether every member of the server may view ``channel``: @everyone may, and no overwrite (of a
    role or a member) takes viewing away from anyone."""
    if not channel.permissions_for(channel.guild.default_role).view_channel:
        return False
    return not any(ow.view_channel is False for ow in channel.overwrites.values())


def why_no_moves(table: Table, user_id: int) -> Phrase | None:
    """Why ``user_id`` has no move to make in this game right now (None: they have): the one choice
    that /move and /ws move autocomplete offer then (value :data:`NOTHING`), and their refusal."""
    game = table.game
    if game is None:
        return Phrase(N_("The game has not started yet"))
    if game.is_over:
        return Phrase(N_("This game is over"))
    seat = table.seat_of(user_id)
    if seat is None:
        return Phrase(N_("You are not playing in this game"))
    if seat not in game.to_act():
        waiting = ", ".join(table.seat_row(s).name for s in game.to_act())
        return Phrase(N_("Not your turn — waiting for {names}"), names=waiting)
    return None


# the refusals of a move submitted anyway, by the choice that explains it (a sentence of its own each)
_REFUSALS = {
    "The game has not started yet": N_("The game has not started yet."),
    "This game is over": N_("This game is over."),
    "You are not playing in this game": N_("You are not playing in this game."),
    "Not your turn — waiting for {names}": N_("It is not your turn — waiting for {names}."),
}


def no_moves_refusal(why: Phrase) -> Phrase:
    """The private refusal of a move submitted anyway, from :func:`why_no_moves`."""
    return Phrase(_REFUSALS[why.msgid], **why.params)


def host_of(interaction: discord.Interaction) -> Host:
    host = bot_of(interaction).host
    assert host is not None  # made in setup_hook, before any interaction arrives
    return host


async def speaker_of(interaction: discord.Interaction, *, remember: bool = False) -> Speaker:
    """The language of the person who made ``interaction`` (their Discord client's), for what only
    they read: a private reply, a DM. ``remember``: stored for the DMs sent them later, where they ask
    for such DMs (bot/languages.py)."""
    languages = bot_of(interaction).languages
    if languages is None:  # pragma: no cover - made in setup_hook, before any interaction arrives
        return ENGLISH
    return await languages.person(interaction.user.id, str(interaction.locale.value), remember=remember)


async def server_speaker(interaction: discord.Interaction) -> Speaker:
    """The language of what the whole channel reads: the server's (/admiralty language, else Discord's
    setting for the server)."""
    languages = bot_of(interaction).languages
    if languages is None:  # pragma: no cover
        return ENGLISH
    guild_locale = interaction.guild_locale.value if interaction.guild_locale is not None else None
    return await languages.server(interaction.guild_id, guild_locale)


def server_speaker_read(interaction: discord.Interaction, chosen: str | None) -> Speaker:
    """:func:`server_speaker` where the server's chosen language (``chosen``) was read with the answer's
    own query: no read of its own."""
    guild_locale = interaction.guild_locale.value if interaction.guild_locale is not None else None
    return server_language(chosen, guild_locale)


def delivery_of(interaction: discord.Interaction) -> DiscordDelivery:
    delivery = bot_of(interaction).delivery
    assert delivery is not None  # made in setup_hook, before any interaction arrives
    return delivery


def channel_of(interaction: discord.Interaction) -> int:
    """The channel (or thread) the command or click was made in; Discord sends one with each."""
    if interaction.channel_id is None:
        raise UserError(Phrase(N_("Use this in a server channel, a thread or my DMs.")))
    return interaction.channel_id


def place_check(interaction: discord.Interaction):
    """The check that a table may be used where ``interaction`` was made: in the game's channel (or
    thread), or in the DMs of one of its players (raises UserError otherwise)."""

    def check(table: Table) -> None:
        table.check_place(interaction.channel_id, interaction.user.id, dm=interaction.guild_id is None)

    return check


async def table_here(interaction: discord.Interaction, game_id: int) -> Table:
    """The game a component names, if it may be used where it was clicked: in the game's channel
    (or thread), or in the DMs of one of its players. A forged or misplaced id is refused."""
    table = await host_of(interaction).table(game_id)
    place_check(interaction)(table)
    return table


async def reply(
    interaction: discord.Interaction,
    content: str,
    *,
    view: discord.ui.View | None = None,
    file: discord.File | None = None,
    ephemeral: bool = True,
) -> None:
    """Answer an interaction whether or not it was already acknowledged."""
    kwargs: dict = {"ephemeral": ephemeral}
    if view is not None:
        kwargs["view"] = view
    if file is not None:
        kwargs["file"] = file
    content = content[:2000]
    if interaction.response.is_done():
        delivery = getattr(interaction.client, "delivery", None)
        if delivery is None:
            await interaction.followup.send(content, **kwargs)
            return
        # Retried while Discord refuses it and the token lives; then in the channel, if it may be read
        # there (a DM; a public answer).
        await delivery.hooks.answer(interaction, content, public=None if ephemeral else content, **kwargs)
        delivery.hooks.replied(interaction)  # the reply is sent: this token's follow-ups are new messages now
    else:
        await interaction.response.send_message(content, **kwargs)


async def fresh_controls(
    interaction: discord.Interaction, table: Table
) -> tuple[str, discord.ui.View | None, discord.File | None]:
    """The current view and menu for whoever clicked: used for stale boards and "My view"."""
    host = host_of(interaction)
    delivery = delivery_of(interaction)
    _ = (await speaker_of(interaction)).gettext
    seat = table.seat_of(interaction.user.id)
    speaker = await speaker_of(interaction)
    if table.game is None:
        return speaker.gettext("The game has not started yet."), None, None
    view = None
    if seat is not None and not table.over and seat in table.game.to_act():
        try:
            outcome = await host.menu(table.id, interaction.user.id, speaker=speaker)
        except UserError:  # the turn moved on since ``table`` was read
            table = await host.table(table.id)
        else:
            # The menu, the version it is stamped with, the prompt and the picture all come from the one
            # snapshot the menu was built from: nothing is awaited from here until the picture's view is
            # taken (another seat may act while it is drawn; the menu stays the one of this snapshot).
            table = outcome.table
            view = ui.menu_view(table.id, table.version, seat, outcome.level, speaker=speaker)
    game = table.engine  # started: checked above, and a game does not go back to its lobby
    if view is not None and seat is not None:
        text = your_turn(
            fill_names(game.prompt(seat, **menus.in_language(speaker)), table.names(), markdown=True), speaker
        )
    elif seat is not None and not table.over:
        text = speaker.gettext("Not your turn yet — here is what you can see.")
    else:
        text = ""
    own = game.view(seat)
    text_board = voiced(game.text_view, own, table.names(), speaker=speaker)
    words = view_words(table, own, speaker)
    png = await delivery.image(table, seat)
    if png is None or not delivery.can_attach(interaction.channel_id or 0) and interaction.guild_id:
        return "\n".join(t for t in (text, words, text_board) if t), view, None
    # the move number only where it was read with the table: no query for the alt text
    alt = alt_text(table, own, seat, table.row.moves, speaker)
    text = "\n".join(t for t in (text or speaker.gettext("The table as you see it."), words) if t)
    return text, view, picture(png, "view.png", alt)


def undo_offer(outcome: Outcome, interaction: discord.Interaction, speaker: Speaker = ENGLISH) -> dict:
    """The "Ask to undo" button for a player's answer to their move in a server channel, while the game
    goes on. Not after a move with a private event or during a secret choice (those may never be
    undone), nor in DMs. The host checks, when it is clicked, that the move is still the last one
    and may be undone."""
    game = outcome.table.game
    if (
        interaction.guild_id is None
        or game is None
        or game.is_over
        or outcome.version is None
        or len(game.to_act()) > 1
        or any("private_to" in e for e in outcome.events)
    ):
        return {}
    return {"view": ui.undo_ask_view(outcome.table.id, outcome.version, speaker)}


_GAME_OF = re.compile(r"adm:[lbsv]:([0-9]{1,19})(?::|$)", re.ASCII)


def game_of(interaction: discord.Interaction) -> int | str:
    """The game id a component belongs to (from its custom id), for log lines; '?' when unknown."""
    m = _GAME_OF.match(str(interaction.data.get("custom_id", "") if interaction.data else ""))
    return int(m[1]) if m else "?"


def what_of(interaction: discord.Interaction) -> str:
    """What was used, for log lines: the command's name or the kind of component, never the values
    (a custom id's menu position, a select value or a typed move may name a secret choice)."""
    if interaction.type == discord.InteractionType.component:
        return "component " + str(interaction.data.get("custom_id", "") if interaction.data else "")[:5]
    command = interaction.command
    return f"command /{command.qualified_name}" if command is not None else f"interaction {interaction.type}"


async def guarded(interaction: discord.Interaction, work) -> Outcome | None:
    """Run ``work()``; user errors become ephemeral replies, the rest an apology and a log line.
    Its time, to the answer, is the ``admiralty_answer_seconds`` metric; its log lines name the
    interaction's server (and game, for a component)."""
    game = game_of(interaction)
    with (
        metrics.answer_timer(what_of(interaction)),
        log_context(guild=interaction.guild_id, game=game if isinstance(game, int) else None),
    ):
        outcome = await _guarded(interaction, work)
    delivery = getattr(interaction.client, "delivery", None)
    if delivery is not None:  # answered: its token may post others' messages (pings) from now on
        delivery.hooks.poster(interaction)
    return outcome


async def _guarded(interaction: discord.Interaction, work) -> Outcome | None:
    try:
        return await work()
    except StaleBoard as e:
        text, view, file = await fresh_controls(interaction, e.table)
        said = (await speaker_of(interaction)).say(e.args[0])
        await reply(interaction, f"{said}\n{text}", view=view, file=file)
    except UserError as e:
        said = e.args[0] if e.args and isinstance(e.args[0], str) else str(e)
        await reply(interaction, (await speaker_of(interaction)).say(said))
    except Exception:
        log.exception(
            "unexpected error in game %s (channel %s, user %s, %s)",
            game_of(interaction),
            interaction.channel_id,
            interaction.user.id,
            what_of(interaction),
        )
        try:
            await reply(interaction, (await speaker_of(interaction)).gettext(APOLOGY))
        except discord.HTTPException:
            pass
    return None
