"""The /game commands: lobby, status, list, rules; history, replay and export (cogs/history.py); follow
and unfollow (cogs/follow.py); import and study (cogs/imports.py)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot import ui
from bot.ai_seats import DEFAULT_LEVEL, said_name
from bot.delivery import rules_key
from bot.games import registry
from bot.games.names import markdown_name
from bot.host import UserError
from bot.i18n import N_, Phrase
from bot.rules import rules_pages
from bot.storage import SUSPENDED
from bot.summary import moves_of, status_line
from bot.ui import LEVEL_LABELS
from cogs import clocks, follow, history, imports, textboard
from cogs.clocks import CLOCK_CHOICES, bank_option
from cogs.common import (
    channel_of,
    delivery_of,
    duration_option,
    fresh_controls,
    guarded,
    host_of,
    lobby_op,
    reply,
    server_speaker,
    speaker_of,
)

NOT_IN_SERVER = Phrase(
    N_(
        "I am not a member of this server, so I cannot host a game here: you have me installed for yourself "
        "only, which lets me answer you but not post in the channel or keep the table up to date. Ask a "
        "server admin to add me to the server."
    )
)

GAME_CHOICES = [app_commands.Choice(name=spec.title, value=spec.key) for spec in registry.all()]


def parse_options(text: str | None) -> dict:
    """'greater-mobility harder-attack scenario=strait' → {"greater-mobility": True, …}."""
    options: dict = {}
    for token in (text or "").replace(",", " ").split():
        key, sep, value = token.partition("=")
        options[key.strip().lower()] = value.strip() if sep else True
    return options


def missing_permissions(perms: discord.Permissions, *, thread: bool, in_thread: bool = False) -> list[str]:
    """The permissions (as Discord's settings name them) the bot lacks to open a game here: see the
    channel, post in it (or in a thread of it when ``in_thread``), and create the game's thread when
    ``thread``. Without Attach Files boards go as text, so it is not required."""
    need = [("view_channel", "View Channel")]
    if thread:
        need += [
            ("create_public_threads", "Create Public Threads"),
            ("send_messages_in_threads", "Send Messages in Threads"),
        ]
    elif in_thread:
        need.append(("send_messages_in_threads", "Send Messages in Threads"))
    else:
        need.append(("send_messages", "Send Messages"))
    return [label for attr, label in need if not getattr(perms, attr)]


async def discard_thread(thread: discord.Thread) -> None:
    """Delete a thread made for a game that could not be opened (archive it if we may not delete it)."""
    try:
        await thread.delete()
    except discord.HTTPException:
        try:
            await thread.edit(archived=True)
        except discord.HTTPException:
            pass


def is_admin(interaction: discord.Interaction) -> bool:
    perms = getattr(interaction.user, "guild_permissions", None)
    return bool(perms and (perms.manage_guild or perms.administrator))


# Installable on a user too (for /game rules anywhere, as /games and /stats): Discord sets where a command
# may be used on its top-level command only, so the whole group; hosting still needs the bot in the server
# (see /game new and README, "Install for yourself").
@app_commands.allowed_installs(guilds=True, users=True)
@app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
class GameCog(commands.GroupCog, group_name="game", group_description="Play naval board and card games"):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name="new", description="Open a lobby for a new game in this channel")
    @app_commands.describe(
        game="Which game",
        quick_setup="Skip the setup phase: ships are placed for everyone",
        turn_timeout="Time per turn, e.g. 30m, 12h, 2d, or 0 for none",
        clock="A time per turn (default), or a time bank each player spends over the game",
        bank="Time bank: each player's starting (and largest) bank, e.g. 3d (default)",
        increment="Time bank: what each move adds back, e.g. 1d (default)",
        variant="Enemy in Sight: base or advanced rules",
        length="The Everrain: game length",
        options="More options as words, e.g. greater-mobility harder-attack",
        thread="Play in a new thread of this channel (the default where I may make threads)",
    )
    @app_commands.rename(quick_setup="quick-setup", turn_timeout="turn-timeout")
    @app_commands.choices(
        game=GAME_CHOICES,
        clock=CLOCK_CHOICES,
        variant=[app_commands.Choice(name=v, value=v) for v in ("base", "advanced")],
        length=[app_commands.Choice(name=v, value=v) for v in ("short", "medium", "long")],
    )
    async def new(
        self,
        interaction: discord.Interaction,
        game: str,
        quick_setup: bool | None = None,
        turn_timeout: str | None = None,
        clock: str | None = None,
        bank: str | None = None,
        increment: str | None = None,
        variant: str | None = None,
        length: str | None = None,
        options: str | None = None,
        thread: bool | None = None,
    ) -> None:
        async def work():
            if interaction.guild_id is None:
                raise UserError(Phrase(N_("Games are played in server channels, not in DMs.")))
            if not interaction.is_guild_integration():
                raise UserError(NOT_IN_SERVER)
            if game not in registry:
                raise UserError(
                    Phrase(
                        N_("Unknown game {game}; games: {games}."),
                        game=repr(game),
                        games=", ".join(registry.keys()),
                    )
                )
            spec = registry.get(game)
            opts = parse_options(options)
            for name, value in (("quick-setup", quick_setup), ("variant", variant), ("length", length)):
                if value is not None:
                    opts[name] = value
            timeout = None
            if turn_timeout is not None:
                timeout = duration_option("turn-timeout", turn_timeout)
            time_bank = bank_option(clock, bank, increment)
            channel = interaction.channel
            if thread and not isinstance(channel, discord.TextChannel):
                raise UserError(Phrase(N_("A thread can only be made from a text channel.")))
            use_thread = thread
            if use_thread is None:
                # By default a game gets its own thread (a busy channel stays readable, and several
                # games can share one channel), unless threads cannot be made here: then the channel.
                perms = interaction.app_permissions
                use_thread = bool(
                    isinstance(channel, discord.TextChannel)
                    and perms.create_public_threads
                    and perms.send_messages_in_threads
                )
            await interaction.response.defer(ephemeral=True, thinking=True)
            host = host_of(interaction)
            # Everything is checked before anything (a thread, a lobby) is made.
            await host.check_new(
                channel_id=channel_of(interaction),
                game_key=game,
                options=opts,
                turn_timeout=timeout,
                thread=use_thread,
                bank=time_bank,
            )
            perms = interaction.app_permissions
            missing = missing_permissions(
                perms, thread=use_thread, in_thread=isinstance(channel, discord.Thread)
            )
            if missing:
                raise UserError(
                    Phrase.ngettext(
                        "I cannot open a game here: I need the {permissions} permission in this channel. "
                        "Ask a server admin to grant it, or use another channel.",
                        "I cannot open a game here: I need the {permissions} permissions in this channel. "
                        "Ask a server admin to grant them, or use another channel.",
                        len(missing),
                        permissions=", ".join(f"**{name}**" for name in missing),
                    )
                )
            channel_id = channel_of(interaction)
            made: discord.Thread | None = None
            if use_thread:
                assert isinstance(channel, discord.TextChannel)  # use_thread is only set for one (above)
                title = (await server_speaker(interaction)).gettext(spec.title)  # the channel reads it
                try:
                    made = await channel.create_thread(
                        name=f"{title} — {interaction.user.display_name}"[:100],
                        type=discord.ChannelType.public_thread,
                    )
                except discord.Forbidden:
                    raise UserError(
                        Phrase(N_("I may not create threads here; start without `thread`."))
                    ) from None
            # remembered before the lobby's joining DM: it and the DMs of the game they start (hands,
            # alerts) in their language
            speaker = await speaker_of(interaction, remember=True)
            try:
                await host.new_game(
                    guild_id=interaction.guild_id,
                    channel_id=channel_id,
                    thread_id=made.id if made is not None else None,
                    user_id=interaction.user.id,
                    user_name=interaction.user.display_name,
                    game_key=game,
                    options=opts,
                    turn_timeout=timeout,
                    bank=time_bank,
                )
            except Exception:
                if made is not None:  # no game in it: do not leave an empty thread behind
                    await discard_thread(made)
                raise
            _ = speaker.gettext
            join = (await server_speaker(interaction)).gettext("Join")  # the button as the channel shows it
            if made is not None:
                text = _(
                    "Lobby opened in {thread}. Others join with the **{join}** button or `/game join`.",
                    thread=f"<#{made.id}>",
                    join=join,
                )
            else:
                text = _("Lobby opened. Others join with the **{join}** button or `/game join`.", join=join)
            if not perms.attach_files:
                text += "\n" + _("I may not attach files in this channel, so boards will be shown as text.")
            await reply(interaction, text)

        await guarded(interaction, work)

    async def _lobby_op(self, interaction: discord.Interaction, op: str) -> None:
        async def work():
            await interaction.response.defer(ephemeral=True, thinking=True)
            # remembered on joining or starting: the game's DMs to them (hands, alerts) in their language
            speaker = await speaker_of(interaction, remember=op in ("join", "start"))
            await reply(
                interaction,
                await lobby_op(
                    op, host_of(interaction), channel_of(interaction), interaction.user, speaker=speaker
                ),
            )

        await guarded(interaction, work)

    @app_commands.command(name="join", description="Join the lobby in this channel")
    async def join(self, interaction: discord.Interaction) -> None:
        await self._lobby_op(interaction, "join")

    @app_commands.command(name="leave", description="Leave the lobby in this channel")
    async def leave(self, interaction: discord.Interaction) -> None:
        await self._lobby_op(interaction, "leave")

    @app_commands.command(name="add-ai", description="Add an AI seat to the lobby (host only)")
    @app_commands.describe(level="How strong the AI plays (Normal when not given)")
    @app_commands.choices(
        level=[app_commands.Choice(name=label, value=v) for v, label in LEVEL_LABELS.items()]
    )
    async def add_ai(self, interaction: discord.Interaction, level: str = DEFAULT_LEVEL) -> None:
        await self._lobby_op(interaction, f"ai-{level}")

    @app_commands.command(name="kick", description="Remove a player or an AI seat from the lobby (host only)")
    @app_commands.describe(player="A player to remove from the lobby", ai="An AI seat to remove")
    async def kick(
        self, interaction: discord.Interaction, player: discord.User | None = None, ai: str | None = None
    ) -> None:
        async def work():
            await interaction.response.defer(ephemeral=True, thinking=True)
            _, name = await host_of(interaction).kick(
                channel_of(interaction),
                interaction.user.id,
                player_id=player.id if player else None,
                ai_name=ai,
            )
            speaker = await speaker_of(interaction)
            shown = markdown_name(said_name(name, speaker))
            await reply(interaction, speaker.gettext("{name} was removed from the lobby.", name=shown))

        await guarded(interaction, work)

    @kick.autocomplete("ai")
    async def kick_ai_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice]:
        try:
            table = await host_of(interaction).table_in(channel_of(interaction))
        except UserError:
            return []
        if table.row.status != "lobby":
            return []
        speaker = await speaker_of(interaction)
        wanted = current.casefold()
        names = [(said_name(s.name, speaker), s.name) for s in table.seats if s.is_ai]
        found = [(said, n) for said, n in names if wanted in said.casefold() or wanted in n.casefold()]
        return [app_commands.Choice(name=said, value=n) for said, n in found[:25]]

    @app_commands.command(name="start", description="Start the game (host only)")
    async def start(self, interaction: discord.Interaction) -> None:
        await self._lobby_op(interaction, "start")

    @app_commands.command(name="status", description="The board of this channel's game, shown only to you")
    async def status(self, interaction: discord.Interaction) -> None:
        await self.show_status(interaction)

    async def show_status(self, interaction: discord.Interaction) -> None:
        """The board and whose turn it is, privately (``/game status``, ``/game board text:False``)."""

        async def work():
            await interaction.response.defer(ephemeral=True, thinking=True)
            host = host_of(interaction)
            delivery = delivery_of(interaction)
            speaker = await speaker_of(interaction)
            _ = speaker.gettext
            table = await host.table_in(channel_of(interaction))
            if table.game is None:
                await delivery.lobby(table, "")
                await reply(interaction, _("The lobby is open (posted again above)."))
                return
            if not await delivery.shown(table):
                # The table message was deleted: post it again in the channel, as it stands (through
                # the publisher, which shows the game's newest version, one publish at a time).
                await host.publish(table, [], note="status")
                await reply(interaction, _("Board posted again."))
                return
            text, view, file = await fresh_controls(interaction, table)
            moves = await moves_of(host.storage, table)
            await reply(interaction, f"{status_line(table, moves, speaker)}\n{text}", view=view, file=file)

        await guarded(interaction, work)

    @app_commands.command(
        name="board", description="The game here in words for a screen reader (or the picture), only to you"
    )
    @app_commands.describe(text="True (default): in words, for a screen reader; False: the picture")
    async def board(self, interaction: discord.Interaction, text: bool = True) -> None:
        if text:
            await guarded(interaction, lambda: textboard.board_command(interaction))
        else:
            await self.show_status(interaction)

    @app_commands.command(name="resign", description="Leave this channel's running game (asks to confirm)")
    async def resign(self, interaction: discord.Interaction) -> None:
        async def work():
            await interaction.response.defer(ephemeral=True, thinking=True)
            table, ends = await host_of(interaction).resign_check(
                channel_of(interaction), interaction.user.id
            )
            speaker = await speaker_of(interaction)
            title = speaker.say(Phrase(table.title))
            text = (
                speaker.gettext("Resign game #{id}? ({title}) The game ends now.", id=table.id, title=title)
                if ends
                else speaker.gettext(
                    "Resign game #{id}? ({title}) An AI takes your seat and the game goes on.",
                    id=table.id,
                    title=title,
                )
            )
            await reply(interaction, text, view=ui.resign_view(table.id, interaction.user.id, speaker))

        await guarded(interaction, work)

    @app_commands.command(name="undo", description="Ask the other players to take back your last move")
    async def undo(self, interaction: discord.Interaction) -> None:
        async def work():
            await interaction.response.defer(ephemeral=True, thinking=True)
            host = host_of(interaction)
            table = await host.table_in(channel_of(interaction))
            speaker = await speaker_of(interaction)
            asked = await host.undo_request(table.id, interaction.user.id, speaker=speaker)
            await reply(interaction, speaker.say(asked))

        await guarded(interaction, work)

    @app_commands.command(name="pause", description="Ask the other players to stop this game's clocks")
    async def pause(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: clocks.pause(interaction))

    @app_commands.command(name="resume", description="Start this paused game's clocks again")
    async def resume(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: clocks.resume(interaction))

    @app_commands.command(name="extend", description="Give an opponent more time for their current turn")
    @app_commands.describe(time="How much more time")
    @app_commands.choices(time=clocks.EXTEND_CHOICES)
    async def extend(self, interaction: discord.Interaction, time: int | None = None) -> None:
        await guarded(interaction, lambda: clocks.extend(interaction, time))

    @app_commands.command(name="abandon", description="End this channel's game now (host or Manage Server)")
    @app_commands.describe(game="A game's number from /game list, e.g. one whose channel was deleted")
    async def abandon(self, interaction: discord.Interaction, game: int | None = None) -> None:
        async def work():
            await interaction.response.defer(ephemeral=True, thinking=True)
            table = await host_of(interaction).abandon(
                channel_of(interaction),
                interaction.user.id,
                is_admin=is_admin(interaction),
                game_id=game,
                guild_id=interaction.guild_id,
            )
            await reply(
                interaction, (await speaker_of(interaction)).gettext("Game #{id} was abandoned.", id=table.id)
            )

        await guarded(interaction, work)

    @app_commands.command(name="follow", description="Get a DM when this channel's game ends (or every move)")
    async def follow_(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: follow.follow(interaction))

    @app_commands.command(name="unfollow", description="Stop the DMs of a game you follow")
    @app_commands.describe(game="The game's number (this channel's game by default)")
    async def unfollow_(self, interaction: discord.Interaction, game: int | None = None) -> None:
        await guarded(interaction, lambda: follow.unfollow(interaction, game))

    @app_commands.command(name="list", description="Games running in this server")
    async def list_(self, interaction: discord.Interaction) -> None:
        async def work():
            host = host_of(interaction)
            speaker = await speaker_of(interaction)
            _ = speaker.gettext
            tables = await host.list_games(interaction.guild_id or 0)
            if not tables:
                await reply(
                    interaction, _("No games are running in this server. Start one with `/game new`.")
                )
                return
            lines = []
            for t in tables:
                if t.row.status == SUSPENDED:
                    state = _(
                        "suspended: its channel was deleted (`/game abandon game:{id}` clears it)", id=t.id
                    )
                elif t.unavailable is not None:
                    state = _(
                        "unavailable: {reason} (`/game abandon` clears it)", reason=speaker.say(t.unavailable)
                    )
                elif t.game is None:
                    state = _("lobby")
                elif t.game.is_over:
                    state = _("over")
                else:
                    moves = await moves_of(host.storage, t)
                    state = (
                        _("move {n}, paused: nobody is left to play", n=moves)
                        if t.deserted
                        else _("move {n}", n=moves)
                    )
                players = ", ".join(t.shown_name(s.seat, speaker) for s in t.seats)
                lines.append(
                    _(
                        "#{id} **{title}** in {channel} — {state} — {players}",
                        id=t.id,
                        title=speaker.say(Phrase(t.title)),
                        channel=f"<#{t.channel_id}>",
                        state=state,
                        players=players,
                    )
                )
            await reply(interaction, "\n".join(lines))

        await guarded(interaction, work)

    @app_commands.command(name="rules", description="How to play a game")
    @app_commands.choices(game=GAME_CHOICES)
    async def rules(self, interaction: discord.Interaction, game: str) -> None:
        async def work():
            try:
                spec = registry.get(game)
            except Exception as e:  # noqa: BLE001 - IllegalAction for an unknown key
                raise UserError(str(e)) from None
            speaker = await speaker_of(interaction)
            for page in rules_pages(spec, speaker):
                await reply(interaction, page)
            # the key to its pictures, a message of its own
            await reply(interaction, rules_key(spec, speaker))

        await guarded(interaction, work)

    @app_commands.command(name="history", description="Past games of this channel, or of a member, to replay")
    @app_commands.describe(member="Whose games (this channel's by default)")
    async def history_(self, interaction: discord.Interaction, member: discord.User | None = None) -> None:
        await guarded(interaction, lambda: history.show_history(interaction, member))

    @app_commands.command(name="replay", description="Post the move-by-move replay of a finished game")
    @app_commands.describe(game_id="The game's number (see /game history)")
    @app_commands.rename(game_id="id")
    async def replay(self, interaction: discord.Interaction, game_id: int) -> None:
        await guarded(interaction, lambda: history.send_replay(interaction, game_id))

    @app_commands.command(
        name="export", description="A finished game's seed, options and moves as a JSON file"
    )
    @app_commands.describe(game_id="The game's number (see /game history)")
    @app_commands.rename(game_id="id")
    async def export(self, interaction: discord.Interaction, game_id: int) -> None:
        await guarded(interaction, lambda: history.send_export(interaction, game_id))

    @app_commands.command(name="import", description="Add a game exported elsewhere to this server's history")
    @app_commands.describe(file="The game's export (a .json file from /game export)")
    async def import_(self, interaction: discord.Interaction, file: discord.Attachment) -> None:
        await guarded(interaction, lambda: imports.import_game(interaction, file))

    @app_commands.command(name="study", description="Step through a finished game move by move, privately")
    @app_commands.describe(game_id="The game's number (see /game history)", move="Start at this move")
    @app_commands.rename(game_id="id")
    async def study(
        self, interaction: discord.Interaction, game_id: int, move: app_commands.Range[int, 0] | None = None
    ) -> None:
        await guarded(interaction, lambda: imports.show_study(interaction, game_id, move))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(GameCog(bot))
