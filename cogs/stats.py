"""/stats and /leaderboard: what a server's players did, from the ratings (bot/ratings.py, read as
bot/rating_scale.py shows them) and, for /stats, their pace and reliability (bot/storage/stats.py).

Both answer in the channel (public, plain text under 2000 characters, nobody pinged: names, not
mentions). The leaderboard's ◀ ▶ buttons (``adm:lb:<guild>:<game>:<page>``) edit it in place; they work
only in the server they belong to.
"""

from __future__ import annotations

import time
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import ui
from bot.ai_seats import said_name
from bot.games import registry
from bot.games.names import clean_name, markdown_name
from bot.host import UserError
from bot.i18n import ENGLISH, N_, Phrase, Speaker
from bot.rating_scale import SETTLING_GAMES, Standing
from bot.storage import Leaderboard, PastGame, PlayerRecord
from bot.summary import duration_text
from cogs import clicks
from cogs.common import guarded, host_of, reply, server_speaker_read, speaker_of, visible_channels
from cogs.components import MALFORMED
from cogs.game import GAME_CHOICES

PAGE_SIZE = 10
LAST_GAMES = 5
NO_MENTIONS = discord.AllowedMentions.none()


def _title(key: str, speaker: Speaker = ENGLISH) -> str:
    try:
        return speaker.gettext(registry.get(key).title)  # the games' titles are messages (bot/mygames.py)
    except Exception:  # noqa: BLE001 - a game type no longer known
        return key


def _coop(key: str) -> bool:
    try:
        return bool(registry.get(key).extra.get("cooperative"))
    except Exception:  # noqa: BLE001
        return False


def _day(when: float) -> str:
    return time.strftime("%Y-%m-%d", time.gmtime(when))


def rating_text(standing: Standing, speaker: Speaker = ENGLISH) -> str:
    """'rating **1534**', or 'rating **1520?** (provisional)'."""
    if standing.provisional:
        return speaker.gettext("rating **{rating}** (provisional)", rating=standing)
    return speaker.gettext("rating **{rating}**", rating=standing)


def pace_text(record: PlayerRecord, speaker: Speaker = ENGLISH) -> str:
    """Pace and reliability in one line: the median turn, games finished, turns timed out, resignations."""
    n_ = speaker.ngettext
    parts = []
    if record.median_turn is not None:
        parts.append(
            n_(
                "a turn takes **{time}** (median of {n} turn)",
                "a turn takes **{time}** (median of {n} turns)",
                record.turns,
                time=duration_text(record.median_turn),
            )
        )
    parts.append(n_("{n} game finished", "{n} games finished", record.finished))
    parts.append(n_("{n} turn timed out", "{n} turns timed out", record.timed_out))
    parts.append(speaker.gettext("{n} resigned", n=record.resigned))
    return speaker.gettext("Pace: {parts}", parts=" · ".join(parts))


def _last_game(g: PastGame, speaker: Speaker) -> str:
    """One of the last games: '• 2026-11-20 Warships #12: won vs Bob'."""
    _ = speaker.gettext
    against = ", ".join(markdown_name(said_name(o, speaker)) for o in g.opponents) or _("nobody")
    params = {"day": _day(g.when), "game": _title(g.game_key, speaker), "id": g.game_id, "others": against}
    coop = _coop(g.game_key)
    if g.outcome == "win":
        text = (
            _("{day} {game} #{id}: won with {others}", **params)
            if coop
            else _("{day} {game} #{id}: won vs {others}", **params)
        )
    elif g.outcome == "loss":
        text = (
            _("{day} {game} #{id}: lost with {others}", **params)
            if coop
            else _("{day} {game} #{id}: lost vs {others}", **params)
        )
    elif g.outcome == "draw":
        text = _("{day} {game} #{id}: drew vs {others}", **params)
    else:
        text = _("{day} {game} #{id}: {outcome} vs {others}", outcome=g.outcome, **params)
    return f"• {text}"


def stats_text(
    name: str,
    record: PlayerRecord,
    last: list[PastGame],
    game_key: str | None = None,
    now: float | None = None,
    speaker: Speaker = ENGLISH,
) -> str:
    """The text of /stats in the language of ``speaker``: per game the record and rating, the pace and
    reliability, the last games."""
    _ = speaker.gettext
    now = time.time() if now is None else now
    name = markdown_name(clean_name(name))
    rows = record.ratings
    if not rows and not (record.finished or record.turns or record.timed_out or record.resigned):
        if game_key:
            return _(
                "**{name}** has no finished games at {game} in this server yet.",
                name=name,
                game=_title(game_key, speaker),
            )
        return _("**{name}** has no finished games in this server yet.", name=name)
    lines = [
        _("📊 **{name}** at {game}", name=name, game=_title(game_key, speaker))
        if game_key
        else f"📊 **{name}**"
    ]
    for r in rows:
        played = speaker.ngettext(
            "{n} played: {wins} won, {losses} lost, {draws} drawn",
            "{n} played: {wins} won, {losses} lost, {draws} drawn",
            r.games,
            wins=r.wins,
            losses=r.losses,
            draws=r.draws,
        )
        rating = _("cooperative, not rated") if _coop(r.game_key) else rating_text(r.standing(now), speaker)
        lines.append(f"**{_title(r.game_key, speaker)}** — {rating} · {played}")
    lines.append(pace_text(record, speaker))
    if last:
        lines.append(_("Last games:"))
        lines.extend(_last_game(g, speaker) for g in last)
    return _fit(lines)


def leaderboard_text(game_key: str, board: Leaderboard, page: int, speaker: Speaker = ENGLISH) -> str:
    """A page of /leaderboard in the language of ``speaker``: settled players only (a cooperative game's:
    everyone, by wins), and how many provisional ones are left out."""
    _ = speaker.gettext
    total = board.total
    pages = max(1, -(-total // PAGE_SIZE))
    title = _title(game_key, speaker)
    waiting = (
        speaker.ngettext(
            "{n} provisional player (about {games} games settle a rating)",
            "{n} provisional players (about {games} games settle a rating)",
            board.provisional,
            games=SETTLING_GAMES,
        )
        if board.provisional
        else ""
    )
    if not board.rows:
        if waiting:
            return _(
                "Nobody is ranked at **{game}** in this server yet: {waiting}.", game=title, waiting=waiting
            )
        return _("Nobody has finished a game of **{game}** in this server yet.", game=title)
    coop = _coop(game_key)
    head = [
        "🏆 "
        + speaker.ngettext(
            "**{game}** — page {page} of {pages} ({n} player)",
            "**{game}** — page {page} of {pages} ({n} players)",
            total,
            game=title,
            page=page + 1,
            pages=pages,
        )
    ]
    if coop:
        head.append(_("cooperative: ranked by wins"))
    if waiting:
        head.append(_("not ranked yet: {waiting}", waiting=waiting))
    lines = [" · ".join(head)]
    for n, (r, standing) in enumerate(board.rows, start=page * PAGE_SIZE + 1):
        won = _("{wins} won of {games}", wins=r.wins, games=r.games)
        score = won if coop else f"**{standing}** · {won}"
        lines.append(f"{n}. {markdown_name(said_name(r.name, speaker))} — {score}")
    return _fit(lines)


def _fit(lines: list[str], limit: int = 1900) -> str:
    out: list[str] = []
    for line in lines:
        if sum(len(x) + 1 for x in out) + len(line) > limit:
            out.append("…")
            break
        out.append(line[:300])
    return "\n".join(out)


async def leaderboard_page(
    interaction: discord.Interaction, guild_id: int, game_key: str, page: int
) -> tuple[str, discord.ui.View | None]:
    """A page of /leaderboard, in the server's language (read with the page), and its ◀ ▶ buttons."""
    storage = host_of(interaction).storage
    rated = not _coop(game_key)
    board = await storage.leaderboard(guild_id, game_key, page * PAGE_SIZE, PAGE_SIZE, rated=rated)
    pages = max(1, -(-board.total // PAGE_SIZE))
    if not board.rows and page > 0:  # past the end (players settle and rust; a forged page): the last one
        page = pages - 1
        board = await storage.leaderboard(guild_id, game_key, page * PAGE_SIZE, PAGE_SIZE, rated=rated)
    view = ui.leaderboard_view(guild_id, game_key, page, pages) if pages > 1 else None
    speaker = server_speaker_read(interaction, board.guild_locale)  # posted in the channel
    return leaderboard_text(game_key, board, page, speaker), view


async def stats_everywhere(interaction: discord.Interaction, who: discord.abc.User, game: str | None) -> str:
    """/stats outside a server: ``who``'s stats in every server they have ratings in that the person
    asking is a member of, each server's part as in that server, its last games only from channels the
    person asking can view there (answered to them alone). One query for the servers, then per server
    the member (a REST call when not cached) and the two reads of /stats."""
    storage = host_of(interaction).storage
    speaker = await speaker_of(interaction)  # answered to the person alone: in their language
    client, user_id = interaction.client, interaction.user.id
    parts = []
    for guild_id in await storage.rated_guilds(str(who.id)):
        guild = client.get_guild(guild_id)
        if guild is None:  # a server this process does not serve (or that I left)
            continue
        asker = guild.get_member(user_id)
        if asker is None:
            try:
                asker = await guild.fetch_member(user_id)
            except discord.HTTPException:  # not a member there: nothing of that server is shown
                continue
        record = await storage.player_record(guild_id, who.id, game)
        if not record.ratings:
            continue
        seen = {c.id for c in guild.channels if c.permissions_for(asker).view_channel}
        last = await storage.last_games(guild_id, str(who.id), LAST_GAMES, game_key=game, channels=seen)
        shown = stats_text(who.display_name, record, last, game, speaker=speaker)
        parts.append(f"__{markdown_name(clean_name(guild.name))}__\n{shown}")
    if not parts:
        name = markdown_name(clean_name(who.display_name))
        if game:
            return speaker.gettext(
                "**{name}** has no finished games at {game} in the servers we share yet.",
                name=name,
                game=_title(game, speaker),
            )
        return speaker.gettext("**{name}** has no finished games in the servers we share yet.", name=name)
    return _fit("\n".join(parts).split("\n"))


def _guild(interaction: discord.Interaction) -> int:
    if interaction.guild_id is None:
        raise UserError(Phrase(N_("Ratings belong to a server: use this command in a server's channel.")))
    return interaction.guild_id


class StatsCog(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(
        name="stats",
        description="Games played, won and lost, and ratings: this server, or in DMs every server we share",
    )
    @app_commands.describe(member="Whose stats (you by default)", game="One game only")
    @app_commands.choices(game=GAME_CHOICES)
    @app_commands.allowed_installs(guilds=True, users=True)
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    async def stats(
        self, interaction: discord.Interaction, member: discord.User | None = None, game: str | None = None
    ) -> None:
        async def work():
            who = member or interaction.user
            if interaction.guild_id is None:  # DMs and group DMs: every server, privately
                await reply(interaction, await stats_everywhere(interaction, who, game))
                return
            guild = _guild(interaction)
            storage = host_of(interaction).storage
            record = await storage.player_record(guild, who.id, game)
            # Which games, when, against whom: only those of channels the person asking can see (as
            # /game history lists them) and, as this is posted, everyone reading this channel too; the
            # totals and ratings are the server's, as on the leaderboard.
            seen = visible_channels(interaction, posted=True)
            last = await storage.last_games(guild, str(who.id), LAST_GAMES, game_key=game, channels=seen)
            speaker = server_speaker_read(interaction, record.guild_locale)  # posted: the server's language
            await interaction.response.send_message(
                stats_text(who.display_name, record, last, game, speaker=speaker),
                allowed_mentions=NO_MENTIONS,
            )

        await guarded(interaction, work)

    @app_commands.command(name="leaderboard", description="This server's best players of a game")
    @app_commands.describe(game="Which game")
    @app_commands.choices(game=GAME_CHOICES)
    async def leaderboard(self, interaction: discord.Interaction, game: str) -> None:
        async def work():
            guild = _guild(interaction)
            text, view = await leaderboard_page(interaction, guild, game, 0)
            kwargs: dict[str, Any] = {"view": view} if view is not None else {}
            await interaction.response.send_message(text, allowed_mentions=NO_MENTIONS, **kwargs)

        await guarded(interaction, work)


class LeaderboardButton(discord.ui.DynamicItem[discord.ui.Button], template=ui.LEADERBOARD_RE.pattern):
    """◀ ▶ of /leaderboard: the page it names, edited in place. Refused outside its server."""

    def __init__(self, guild_id: int, game_key: str, page: int) -> None:
        super().__init__(discord.ui.Button(label="…", custom_id=ui.leaderboard_id(guild_id, game_key, page)))
        self.guild_id, self.game_key, self.page = guild_id, game_key, page

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["guild"]), match["key"], int(match["page"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        async def work():
            if interaction.guild_id != self.guild_id or self.guild_id > ui.MAX_ID:
                raise UserError(Phrase(N_("This leaderboard belongs to another server.")))
            if self.game_key not in {c.value for c in GAME_CHOICES}:
                raise UserError(Phrase(MALFORMED))
            text, view = await leaderboard_page(interaction, self.guild_id, self.game_key, self.page)
            await interaction.response.edit_message(content=text, view=view, allowed_mentions=NO_MENTIONS)

        await guarded(interaction, work)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(StatsCog(bot))
    await clicks.route(bot, LeaderboardButton)
