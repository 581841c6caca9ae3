"""Clocks: `/game new`'s time bank options, `/game pause|resume|extend` (the commands live in
cogs/game.py and call these), `/vacation`, `/admiralty vacation-days`, and the clock buttons (Give more
time, a pause request's Accept / Decline). Thin: the work is in bot/timekeeper.py.

Which server's allowance a vacation spends: every server where the player has a running game (a
vacation stops all of them), and the server it was asked in; each must have the days left.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot import clock_ui
from bot.clocks import BANK_DEFAULT, EXTENSIONS, INCREMENT_DEFAULT, short_duration
from bot.host import UserError
from bot.i18n import N_, Phrase, Speaker, language_of, languages, native_name
from bot.storage.clocks import NO_GUILD, VacationRefused
from cogs import clicks
from cogs.common import (
    ById,
    channel_of,
    duration_option,
    guarded,
    host_of,
    reply,
    server_speaker,
    speaker_of,
    table_here,
)
from cogs.components import refuse_malformed

CLOCK_CHOICES = [
    app_commands.Choice(name="time per turn", value="turn"),
    app_commands.Choice(name="time bank (+ increment per move)", value="bank"),
]
EXTEND_CHOICES = [app_commands.Choice(name=short_duration(s), value=int(s)) for s in EXTENSIONS]
VACATION_MAX = 366
DISCORDS = "discord"  # /admiralty language's choice for the server's own language (Discord's setting)
# one choice per catalogue shipped (a new catalogue file is a new choice), named in its own language in
# every language (``native``: not translated, see bot/command_translator.py)
LANGUAGE_CHOICES = [
    *(
        app_commands.Choice(name=app_commands.locale_str(native_name(code), native=True), value=code)
        for code in languages()
    ),
    app_commands.Choice(name="The server's language in Discord's settings", value=DISCORDS),
]


def bank_option(clock: str | None, bank: str | None, increment: str | None) -> tuple[float, float] | None:
    """`/game new`'s clock options: (bank, increment) in seconds for a time bank; None for a time per
    turn. A bank or increment given without ``clock: bank`` is refused, not ignored."""
    if clock != "bank":
        if bank is not None or increment is not None:
            raise UserError(Phrase(N_("`bank` and `increment` are for a time bank: add `clock: time bank`.")))
        return None
    seconds = duration_option("bank", bank) if bank is not None else BANK_DEFAULT
    extra = duration_option("increment", increment) if increment is not None else INCREMENT_DEFAULT
    return seconds, extra


async def pause(interaction: discord.Interaction) -> None:
    """/game pause: ask the other players (posted in the channel with Accept / Decline)."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    host = host_of(interaction)
    table = await host.table_in(channel_of(interaction))
    answer, request, asked = await host.timekeeper.pause(table.id, interaction.user.id)
    if request is not None:
        channel = await server_speaker(interaction)  # posted in the channel: the server's language
        try:
            await interaction.channel.send(  # type: ignore[union-attr]
                channel.say(request)[:2000],
                view=clock_ui.pause_answer_view(table.id, channel),
                allowed_mentions=discord.AllowedMentions(
                    users=[discord.Object(u) for u in asked], roles=False, everyone=False
                ),
            )
        except Exception:
            await host.timekeeper.withdraw_pause(table.id)
            raise
    await reply(interaction, (await speaker_of(interaction)).say(answer))


async def resume(interaction: discord.Interaction) -> None:
    await interaction.response.defer(ephemeral=True, thinking=True)
    host = host_of(interaction)
    table = await host.table_in(channel_of(interaction))
    resumed = await host.timekeeper.resume(table.id, interaction.user.id)
    await reply(interaction, (await speaker_of(interaction)).say(resumed))


async def extend(interaction: discord.Interaction, seconds: int | None) -> None:
    """/game extend [time]: more time for the opponent to act (the choices when no time is given)."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    host = host_of(interaction)
    table = await host.table_in(channel_of(interaction))
    if seconds is None:
        await _offer(interaction, table)
        return
    given = await host.timekeeper.extend(table.id, interaction.user.id, float(seconds))
    await reply(interaction, (await speaker_of(interaction)).say(given))


async def _offer(interaction: discord.Interaction, table) -> None:
    targets = host_of(interaction).timekeeper.extend_targets(table, interaction.user.id)
    if not targets:
        raise UserError(Phrase(N_("No opponent is to act just now: you cannot give yourself more time.")))
    seat = targets[0]
    speaker = await speaker_of(interaction)
    await reply(
        interaction,
        speaker.gettext("How much more time for {name}'s turn?", name=table.shown_name(seat)),
        view=clock_ui.more_time_view(table.id, seat, speaker),
    )


class ClockButton(ById, discord.ui.DynamicItem[discord.ui.Button], template=clock_ui.CLOCK_ANY):
    def __init__(self, custom_id: str) -> None:
        super().__init__(discord.ui.Button(label="…", custom_id=custom_id))
        self.parsed = clock_ui.parse(custom_id)

    async def callback(self, interaction: discord.Interaction) -> None:
        if self.parsed is None:
            return await refuse_malformed(interaction)
        kind, game_id, details = self.parsed
        timekeeper = host_of(interaction).timekeeper

        async def work():
            await interaction.response.defer(ephemeral=True, thinking=True)
            table = await table_here(interaction, game_id)
            if kind == "more":
                await _offer(interaction, table)
            elif kind == "give":
                seat, seconds = details
                given = await timekeeper.extend(game_id, interaction.user.id, seconds, seat)
                await reply(interaction, (await speaker_of(interaction)).say(given))
            else:
                answered = await timekeeper.answer_pause(game_id, interaction.user.id, details[0])
                await reply(interaction, (await speaker_of(interaction)).say(answered))

        await guarded(interaction, work)


def _server_words(bot: commands.Bot, guild_id: int, speaker: Speaker) -> str:
    if guild_id == NO_GUILD:
        return speaker.gettext("games outside a server")
    guild = bot.get_guild(guild_id)
    if guild is None:
        return speaker.gettext("server {number}", number=guild_id)
    return discord.utils.escape_markdown(guild.name)


def _server_of(interaction: discord.Interaction, speaker: Speaker) -> int:
    """The server of an /admiralty setting (refused outside one)."""
    if interaction.guild_id is None:
        raise UserError(speaker.gettext("This is a server's setting: use it in a server."))
    return interaction.guild_id


class ClocksCog(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="vacation", description="Stop the clocks of all your games for some days")
    @app_commands.describe(
        days="How many days, from this server's yearly allowance (none: see what is left)",
        end="End your vacation now (unused whole days are given back)",
    )
    async def vacation(
        self,
        interaction: discord.Interaction,
        days: app_commands.Range[int, 1, VACATION_MAX] | None = None,
        end: bool | None = None,
    ) -> None:
        async def work():
            await interaction.response.defer(ephemeral=True, thinking=True)
            speaker = await speaker_of(interaction)
            _, n_ = speaker.gettext, speaker.ngettext
            timekeeper = host_of(interaction).timekeeper
            user = interaction.user.id
            if end:
                if days is not None:
                    raise UserError(_("Either take days or end your vacation, not both."))
                try:
                    back = await timekeeper.end_vacation(user)
                except VacationRefused as e:
                    raise UserError(_(e.reason, **e.params)) from None
                returned = n_(
                    "{n} unused day went back to your allowance.",
                    "{n} unused days went back to your allowance.",
                    back,
                )
                await reply(interaction, _("Welcome back: your clocks run again.") + " " + returned)
                return
            if days is None:
                away, left = await timekeeper.vacation_status(user, interaction.guild_id)
                lines = []
                if away is not None:
                    until = f"<t:{int(away.until)}:f>"
                    lines.append(_("You are on vacation until {until}.", until=until))
                if interaction.guild_id:
                    lines.append(
                        n_(
                            "You have {n} vacation day left this year in this server.",
                            "You have {n} vacation days left this year in this server.",
                            left,
                        )
                    )
                else:
                    lines.append(
                        n_(
                            "You have {n} vacation day left this year for games outside a server.",
                            "You have {n} vacation days left this year for games outside a server.",
                            left,
                        )
                    )
                await reply(interaction, " ".join(lines))
                return
            try:
                taken = await timekeeper.take_vacation(user, int(days), interaction.guild_id)
            except VacationRefused as e:
                why = _(e.reason, **e.params)
                if e.short:
                    lacking = ", ".join(
                        _("{n} left in {server}", n=n, server=_server_words(self.bot, g, speaker))
                        for g, n in e.short
                    )
                    why = " ".join(
                        [
                            why,
                            lacking + ".",
                            _(
                                "A vacation stops your games in every server, so each one's allowance must "
                                "cover it: take fewer days."
                            ),
                        ]
                    )
                raise UserError(why) from None
            until = f"<t:{int(taken.until)}:f>"
            await reply(
                interaction,
                n_(
                    "🏖 You are on vacation until {until}: the clocks of all your games stop until then ({n} day "
                    "taken from each server's allowance where you play). `/vacation end:True` ends it early.",
                    "🏖 You are on vacation until {until}: the clocks of all your games stop until then ({n} days "
                    "taken from each server's allowance where you play). `/vacation end:True` ends it early.",
                    taken.days,
                    until=until,
                ),
            )

        await guarded(interaction, work)


@app_commands.default_permissions(manage_guild=True)
@app_commands.guild_only()
class AdmiraltyCog(
    commands.GroupCog, group_name="admiralty", group_description="Admiralty's server settings"
):
    """/admiralty: a server's settings (Manage Server; Discord shows it to such members by default)."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="vacation-days", description="Vacation days a player may take per year here")
    @app_commands.describe(days="Days per player and year (leave out to see the current setting)")
    async def vacation_days(
        self, interaction: discord.Interaction, days: app_commands.Range[int, 0, VACATION_MAX] | None = None
    ) -> None:
        async def work():
            await interaction.response.defer(ephemeral=True, thinking=True)
            speaker = await speaker_of(interaction)
            _, n_ = speaker.gettext, speaker.ngettext
            guild = _server_of(interaction, speaker)
            storage = host_of(interaction).storage
            if days is None:
                have = await storage.vacation_allowance(guild)
                await reply(
                    interaction,
                    n_(
                        "Players may take {n} vacation day a year in this server.",
                        "Players may take {n} vacation days a year in this server.",
                        have,
                    ),
                )
                return
            if not interaction.permissions.manage_guild:
                raise UserError(_("Only members with Manage Server can change this."))
            await storage.set_vacation_allowance(guild, int(days))
            await reply(
                interaction,
                n_(
                    "Players may now take {n} vacation day a year in this server.",
                    "Players may now take {n} vacation days a year in this server.",
                    int(days),
                ),
            )

        await guarded(interaction, work)

    @app_commands.command(
        name="language",
        description="What the whole channel reads (private answers follow each member's)",
    )
    @app_commands.describe(language="The server's language for Admiralty (leave out to see the current one)")
    @app_commands.choices(language=LANGUAGE_CHOICES)
    async def language(self, interaction: discord.Interaction, language: str | None = None) -> None:
        async def work():
            speaker = await speaker_of(interaction)
            _ = speaker.gettext
            guild = _server_of(interaction, speaker)
            storage = host_of(interaction).storage
            if language is None:
                chosen = await storage.guild_locale(guild)
                own = interaction.guild_locale.value if interaction.guild_locale is not None else None
                shown = language_of(chosen or own)
                name = native_name(shown)
                if chosen is not None:
                    text = _(
                        "Admiralty speaks {language} to this server's channels (set with `/admiralty language`).",
                        language=name,
                    )
                else:
                    text = _(
                        "Admiralty speaks {language} to this server's channels: the server's language in Discord's settings.",
                        language=name,
                    )
                await reply(interaction, text)
                return
            if language != DISCORDS and language not in languages():
                raise UserError(_("{value} is not one of the choices.", value=repr(language[:20])))
            if not interaction.permissions.manage_guild:
                raise UserError(_("Only members with Manage Server can change this."))
            await storage.set_guild_locale(guild, None if language == DISCORDS else language)
            server = await server_speaker(interaction)
            # posted for the channel to read, in the language it now gets
            announced = server.gettext(
                "🌐 Admiralty now speaks {language} in this server's channels. Each member's private answers "
                "stay in their own language.",
                language=native_name(server.language),
            )
            await reply(interaction, announced, ephemeral=False)

        await guarded(interaction, work)


async def setup(bot: commands.Bot) -> None:
    await clicks.route(bot, ClockButton)
    await bot.add_cog(ClocksCog(bot))
    await bot.add_cog(AdmiraltyCog(bot))
