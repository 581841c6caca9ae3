"""/notify: how each person hears that it is their turn, in every server (bot/notify.py): where a turn
alert goes, quiet hours in their own time zone, a heads-up, a daily digest. Answers privately; with no
option it shows the settings."""

from __future__ import annotations

import dataclasses
import time

import discord
from discord import app_commands
from discord.ext import commands

from bot.host import UserError
from bot.i18n import N_
from bot.notify import (
    DEFAULT,
    NotifyError,
    Prefs,
    describe,
    next_digest,
    parse_quiet,
    parse_time,
    zone,
    zone_names,
)
from cogs.common import delivery_of, guarded, host_of, reply, speaker_of

ALERT_CHOICES = [
    app_commands.Choice(name="A ping in the game's channel (the default)", value="channel"),
    app_commands.Choice(name="A direct message", value="dm"),
    app_commands.Choice(name="Both a ping and a direct message", value="both"),
    app_commands.Choice(name="No alert", value="none"),
]
DM_CHECK = N_(
    "✅ This is where your turn alerts, heads-ups and digests from Admiralty will come (`/notify`)."
)


class NotifyCog(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="notify", description="How you hear that it is your turn, in every server")
    @app_commands.allowed_installs(guilds=True, users=True)
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    @app_commands.describe(
        alerts="Where your turn alerts go",
        timezone="Your time zone, for quiet hours and the digest (e.g. Europe/Paris)",
        quiet_hours="Hours when alerts wait until they end, e.g. 22:00-07:00 (or off)",
        heads_up="A direct message when the player before you starts their turn",
        digest="A daily DM of the games waiting for you, at this time (e.g. 08:00, or off)",
    )
    @app_commands.choices(alerts=ALERT_CHOICES)
    async def notify(
        self,
        interaction: discord.Interaction,
        alerts: str | None = None,
        timezone: str | None = None,
        quiet_hours: str | None = None,
        heads_up: bool | None = None,
        digest: str | None = None,
    ) -> None:
        async def work() -> None:
            storage = host_of(interaction).storage
            user_id = interaction.user.id
            speaker = await speaker_of(interaction, remember=True)  # its DMs (alerts, digests) later
            _ = speaker.gettext
            current = (await storage.notify_prefs([user_id])).get(user_id, DEFAULT)
            if all(o is None for o in (alerts, timezone, quiet_hours, heads_up, digest)):
                await reply(interaction, describe(current, speaker))
                return
            try:
                prefs = changed(current, alerts, timezone, quiet_hours, heads_up, digest)
            except NotifyError as e:
                raise UserError(e.text(speaker) + " " + _("Nothing was changed.")) from None
            await interaction.response.defer(ephemeral=True, thinking=True)
            await storage.set_notify_prefs(user_id, prefs, next_digest(prefs, time.time()))
            notes = []
            # a DM to check that they reach the person: once, when a setting first needs them
            if uses_dms(prefs) and not uses_dms(current):
                if not await delivery_of(interaction).probe_dm(user_id, _(DM_CHECK)):
                    notes.append(
                        _(
                            "⚠️ I cannot send you direct messages (your privacy settings block them): until "
                            "you allow them, an alert by direct message comes as a ping in the game's "
                            "channel instead, and there is no heads-up or digest."
                        )
                    )
            if prefs.tz == "UTC" and timezone is None and (quiet_hours or digest):
                notes.append(_("Times are in UTC: set `timezone` to use your own."))
            await reply(interaction, "\n".join([_("Saved."), describe(prefs, speaker), *notes]))

        await guarded(interaction, work)

    @notify.autocomplete("timezone")
    async def timezone_names(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=n, value=n) for n in zone_names(current)]


def uses_dms(prefs: Prefs) -> bool:
    return prefs.wants_dm or prefs.heads_up or prefs.digest_at is not None


def changed(
    current: Prefs,
    alerts: str | None,
    timezone: str | None,
    quiet_hours: str | None,
    heads_up: bool | None,
    digest: str | None,
) -> Prefs:
    """``current`` with the options given (NotifyError for one that cannot be taken)."""
    fields: dict = {}
    if alerts is not None:
        if alerts not in {c.value for c in ALERT_CHOICES}:
            raise NotifyError(N_("{value} is not one of the choices."), value=repr(alerts[:20]))
        fields["route"] = alerts
    if timezone is not None:
        fields["tz"] = zone(timezone).key
    if quiet_hours is not None:
        window = parse_quiet(quiet_hours)
        fields["quiet_start"], fields["quiet_end"] = window if window is not None else (None, None)
    if heads_up is not None:
        fields["heads_up"] = heads_up
    if digest is not None:
        fields["digest_at"] = (
            None if digest.strip().lower() in ("off", "none", "no", "-") else parse_time(digest)
        )
    return dataclasses.replace(current, **fields)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(NotifyCog(bot))
