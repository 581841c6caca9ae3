"""/game history, replay and export (the commands live in cogs/game.py and call these), and their
buttons and select: thin; the work is in bot/history.py and bot/replay.py.

Everything here answers through the interaction (no call against Discord's global rate limit). Lists,
summaries and exports are ephemeral; a replay (a GIF and the log as a text file) is posted in the
channel when one of the game's players asks and no replay of that game was posted there in the last 10
minutes (``replay.claim_public``, stored: every process keeps to it), else shown only to the one who
asked. A game is opened, replayed or exported only in the server it was played in.
"""

from __future__ import annotations

import asyncio
import io
import time

import discord
from discord.ext import commands

from bot import history, imports, replay, ui
from bot.delivery.transport import picture
from bot.games.names import markdown_name
from bot.host import UserError
from bot.i18n import N_, Phrase
from bot.layout import alt_clip
from bot.summary import game_summary, moves_of, status_line
from cogs import clicks
from cogs.common import (
    ByGame,
    channel_of,
    guarded,
    host_of,
    reply,
    server_speaker,
    speaker_of,
    visible_channels,
)
from cogs.components import MALFORMED

NO_MENTIONS = discord.AllowedMentions.none()


def _guild(interaction: discord.Interaction) -> int:
    if interaction.guild_id is None:
        raise UserError(Phrase(N_("Past games belong to a server: use this in a server's channel.")))
    return interaction.guild_id


def may_manage_server(interaction: discord.Interaction) -> bool:
    return interaction.guild_id is not None and interaction.permissions.manage_guild


async def history_message(
    interaction: discord.Interaction, scope: str, ident: int, page: int
) -> tuple[str, discord.ui.View | None]:
    """The text and controls of one page of a channel's (``c``) or member's (``m``) past games; a
    member's lists only games of channels the person asking can see."""
    who = f"<#{ident}>" if scope == "c" else f"<@{ident}>"
    channels = None if scope == "c" else visible_channels(interaction)
    speaker = await speaker_of(interaction)  # a private answer: the person's language
    text, rows, more = await history.history_page(
        host_of(interaction).storage, _guild(interaction), scope, ident, page, who, channels, speaker
    )
    options = [(e.game_id, history.option_label(e, speaker)) for e in rows]
    view = ui.history_view(scope, ident, page, more, options, speaker)
    return text, view


async def show_history(interaction: discord.Interaction, member: discord.abc.User | None) -> None:
    """/game history [member]: page 1, ephemeral."""
    scope, ident = ("m", member.id) if member is not None else ("c", channel_of(interaction))
    text, view = await history_message(interaction, scope, ident, 0)
    await reply(interaction, text, view=view)


async def _record(interaction: discord.Interaction, game_id: int) -> replay.Record:
    try:
        return await replay.load(
            host_of(interaction).storage, game_id, _guild(interaction), visible_channels(interaction)
        )
    except replay.ReplayError as e:
        raise UserError(e.args[0] if e.args else str(e)) from None


async def open_game(interaction: discord.Interaction, game_id: int) -> None:
    """A past game picked in the history: its summary with [Replay] [Export] (ephemeral)."""
    guild = _guild(interaction)
    table = await host_of(interaction).table(game_id, unavailable_ok=True)
    if table.row.guild_id != guild:
        raise UserError(Phrase(N_("There is no game #{id} in this server."), id=game_id))
    if table.row.channel_id not in visible_channels(interaction):
        raise UserError(Phrase(N_("Game #{id} was played in a channel you cannot see."), id=game_id))
    if table.game is None:
        raise UserError(
            Phrase(N_("Game #{id} cannot be shown: {reason}."), id=game_id, reason=table.unavailable)
        )
    speaker = await speaker_of(interaction)
    _ = speaker.gettext
    if table.row.status != "finished":
        params = {"id": game_id, "title": speaker.say(Phrase(table.title))}
        await reply(
            interaction,
            _(
                "Game #{id} ({title}) was abandoned: only finished games can be replayed or exported.",
                **params,
            )
            if table.row.status == "abandoned"
            else _(
                "Game #{id} ({title}) is not over: only finished games can be replayed or exported.", **params
            ),
        )
        return
    storage = host_of(interaction).storage
    moves = await moves_of(storage, table)
    text = f"{status_line(table, moves, speaker)}\n{await game_summary(storage, table, speaker)}"
    mark = (table.row.result or {}).get("imported")
    if isinstance(mark, dict):
        where = imports.origin_text(mark, speaker)
        text += "\n" + (
            _("📥 Imported from {place} (not rated).", place=markdown_name(where))
            if where
            else _("📥 Imported (not rated).")
        )
    export = any(s.user_id == interaction.user.id for s in table.seats) or may_manage_server(interaction)
    await reply(interaction, text, view=ui.past_game_view(game_id, export=export, speaker=speaker))


async def send_replay(interaction: discord.Interaction, game_id: int) -> None:
    """The replay of a finished game: the GIF and the log (a text file), posted in the channel for a
    player of the game at most once every 10 minutes a game, else privately (with the reason)."""
    if interaction.guild_id is not None and not interaction.app_permissions.attach_files:
        raise UserError(Phrase(N_("I may not attach files in this channel, so I cannot post a replay here.")))
    record = await _record(interaction, game_id)
    storage = host_of(interaction).storage
    mine = await speaker_of(interaction)
    claimed, private = None, ""
    if interaction.user.id not in record.user_ids:
        private = mine.gettext("Only the game's players post its replay in the channel; this one is for you.")
    else:
        now = time.time()
        last = await replay.claim_public(storage, game_id, now)
        if last is None:
            claimed = now
        else:
            private = mine.gettext(
                "A replay of this game was posted in the channel {when}; one is posted there at most every "
                "{minutes} minutes, so this one is for you.",
                when=f"<t:{int(last)}:R>",
                minutes=int(replay.PUBLIC_REPLAY_EVERY // 60),
            )
    # posted in the channel: the server's language; else only the person reads it
    speaker = mine if private else await server_speaker(interaction)
    # drawing the frames takes a few seconds
    await interaction.response.defer(thinking=True, ephemeral=bool(private))
    try:
        # the log and the captions are the asker's: in their language (the channel's text beside it is not)
        made = await replay.make(record, getattr(interaction.client, "drawing", None), speaker=mine)
    except replay.ReplayError as e:
        if claimed is not None:
            await replay.release_public(storage, game_id, claimed)
        raise UserError(
            Phrase(
                N_("Game #{id} cannot be replayed: {reason}."),
                id=game_id,
                reason=e.args[0] if e.args else str(e),
            )
        ) from None
    files = [discord.File(io.BytesIO(made.log.encode("utf-8")), f"game-{game_id}-log.txt")]
    if made.animation:
        files.insert(
            0, picture(made.animation, f"game-{game_id}-replay.gif", alt_clip(made.alt_text(speaker)))
        )
    text = "🎞️ " + " ".join(
        (
            speaker.ngettext(
                "**Replay of game #{id}** ({title}) — by badge: {badges} · {n} move.",
                "**Replay of game #{id}** ({title}) — by badge: {badges} · {n} moves.",
                made.moves,
                id=game_id,
                title=speaker.say(Phrase(made.title)),
                badges=made.badge_names(markdown_name),
            ),
            speaker.ngettext(
                "{n} picture; the full log is in the text file.",
                "{n} pictures; the full log is in the text file.",
                made.frame_count,
            ),
        )
    )
    if made.numbered:  # the pictures' font lacks the asker's letters: the frames carry move numbers only
        text += "\n" + speaker.gettext(
            "The pictures are captioned with their move number only (12/80: move 12 of 80); the text file "
            "tells each move."
        )
    if private:
        text += f"\n*{private}*"
    await interaction.followup.send(
        text[:2000], files=files, allowed_mentions=NO_MENTIONS, ephemeral=bool(private)
    )


async def send_export(interaction: discord.Interaction, game_id: int) -> None:
    """A finished game's seed, options and actions as a JSON file (ephemeral), for its players and
    members with Manage Server only (it holds the secret moves)."""
    record = await _record(interaction, game_id)
    try:
        replay.may_export(record, interaction.user.id, may_manage_server(interaction))
    except replay.ReplayError as e:
        raise UserError(e.args[0] if e.args else str(e)) from None
    data = await asyncio.to_thread(
        imports.export_json, record, interaction.guild.name if interaction.guild else None
    )
    await interaction.response.send_message(
        (await speaker_of(interaction)).gettext(
            "Game #{id} exported: {command} draws it again offline.",
            id=game_id,
            command=f"`python -m bot replay game-{game_id}.json --out DIR`",
        ),
        file=discord.File(io.BytesIO(data), f"game-{game_id}.json"),
        ephemeral=True,
    )


class HistoryPageButton(discord.ui.DynamicItem[discord.ui.Button], template=ui.HISTORY_RE.pattern):
    """◀ ▶ of /game history: the page it names, edited in place. A channel's list only in that channel."""

    def __init__(self, scope: str, ident: int, page: int) -> None:
        super().__init__(discord.ui.Button(label="…", custom_id=ui.history_id(scope, ident, page)))
        self.scope, self.ident, self.page = scope, ident, page

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(match["scope"], int(match["ident"]), int(match["page"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        async def work():
            if self.ident > ui.MAX_ID:
                raise UserError(Phrase(MALFORMED))
            if self.scope == "c" and interaction.channel_id != self.ident:
                raise UserError(Phrase(N_("This list belongs to another channel.")))
            text, view = await history_message(interaction, self.scope, self.ident, self.page)
            await interaction.response.edit_message(content=text, view=view, allowed_mentions=NO_MENTIONS)

        await guarded(interaction, work)


class HistorySelect(discord.ui.DynamicItem[discord.ui.Select], template=ui.HISTORY_OPEN):
    """The history's "Open a past game" select: the picked game's summary and buttons."""

    def __init__(self) -> None:
        super().__init__(
            discord.ui.Select(custom_id=ui.HISTORY_OPEN, options=[discord.SelectOption(label="…")])
        )

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls()

    async def callback(self, interaction: discord.Interaction) -> None:
        values = interaction.data.get("values") if interaction.data else None
        if not isinstance(values, list):
            values = []
        game_id = ui.parse_game_value(values[0]) if len(values) == 1 else None

        async def work():
            if game_id is None:
                raise UserError(Phrase(N_("That choice is not on the list.")))
            await open_game(interaction, game_id)

        await guarded(interaction, work)


class ReplayButton(ByGame, discord.ui.DynamicItem[discord.ui.Button], template=ui.REPLAY_RE.pattern):
    def __init__(self, game_id: int) -> None:
        super().__init__(discord.ui.Button(label="Replay", custom_id=ui.replay_id(game_id)))
        self.game_id = game_id

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: send_replay(interaction, self.game_id))


class ExportButton(ByGame, discord.ui.DynamicItem[discord.ui.Button], template=ui.EXPORT_RE.pattern):
    def __init__(self, game_id: int) -> None:
        super().__init__(discord.ui.Button(label="Export", custom_id=ui.export_id(game_id)))
        self.game_id = game_id

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: send_export(interaction, self.game_id))


async def setup(bot: commands.Bot) -> None:
    await clicks.route(bot, HistoryPageButton, HistorySelect, ReplayButton, ExportButton)
