"""/game import and the step-through of a finished game (/game study, the Study button, ◀ ▶ and
"Go to move…"): thin; the checks are in bot/imports.py, the positions in bot/study.py.

Who may import: any member who may use /game (the server's admins can narrow that in Discord's
Integrations settings), at most ``IMPORTS_PER_DAY`` games per server per UTC day, counted in storage
(every process keeps to it). An imported game goes to the history of the channel it was imported in,
seen by whoever sees that channel. Every answer is private.
"""

from __future__ import annotations

import asyncio

import discord
from discord.ext import commands

from bot import imports, replay, study, ui
from bot.ai_seats import said_name
from bot.delivery.transport import picture
from bot.games import registry
from bot.games.names import markdown_name
from bot.history import outcome_text
from bot.host import UserError
from bot.i18n import ENGLISH, N_, Phrase, Speaker
from bot.layout import alt_clip
from bot.storage.imports import ImportCapReached
from bot.storage.rows import HistoryEntry
from cogs import clicks
from cogs.common import ByGame, channel_of, guarded, host_of, reply, speaker_of
from cogs.components import MALFORMED
from cogs.history import _guild, _record

NO_MENTIONS = discord.AllowedMentions.none()


async def import_game(interaction: discord.Interaction, file: discord.Attachment) -> None:
    """/game import file: the export checked, then stored as a finished game of this channel."""
    guild = _guild(interaction)
    if file.size > imports.MAX_IMPORT_BYTES:
        raise UserError(
            Phrase(
                N_("That file is {size} KB; an export I import is at most {most} MiB."),
                size=file.size // 1024,
                most=imports.MAX_IMPORT_BYTES // (1024 * 1024),
            )
        )
    storage = host_of(interaction).storage
    if await storage.imports_today(guild) >= imports.IMPORTS_PER_DAY:
        raise UserError(_cap_text(imports.IMPORTS_PER_DAY))
    await interaction.response.defer(ephemeral=True, thinking=True)  # every move is replayed
    try:
        data = await file.read()
    except discord.HTTPException:
        raise UserError(
            Phrase(N_("I could not download that file from Discord; please try again."))
        ) from None
    try:
        checked = await asyncio.to_thread(imports.check, data)
    except imports.ImportRefused as e:
        raise UserError(
            Phrase(N_("📥 Not imported: {reason}"), reason=e.args[0] if e.args else str(e))
        ) from None
    here = channel_of(interaction)
    parent = getattr(interaction.channel, "parent_id", None)
    try:
        game_id = await imports.store(
            storage,
            checked,
            guild_id=guild,
            channel_id=parent if parent is not None else here,
            thread_id=here if parent is not None else None,
            by=interaction.user.id,
        )
    except ImportCapReached as e:
        raise UserError(_cap_text(e.cap)) from None
    speaker = await speaker_of(interaction)
    await reply(interaction, import_text(game_id, checked, speaker), view=imported_view(game_id, speaker))


def _cap_text(cap: int) -> Phrase:
    return Phrase.ngettext(
        "This server imported {n} game today, the most it may in a day (imports fill its history); please "
        "import again tomorrow (UTC).",
        "This server imported {n} games today, the most it may in a day (imports fill its history); please "
        "import again tomorrow (UTC).",
        cap,
    )


def import_text(game_id: int, checked: imports.Checked, speaker: Speaker = ENGLISH) -> str:
    """The answer to an import, in the language of ``speaker``."""
    record = checked.record
    title = speaker.gettext(registry.get(record.game_key).title)
    entry = HistoryEntry(
        game_id, record.game_key, None, 0, None, "finished", len(record.actions), 0.0,
        checked.result, tuple(record.names), (),
    )  # fmt: skip
    where = imports.origin_text({"origin": checked.origin, "id": checked.source_id}, speaker)
    moves = study.move_numbers(record)[-1]
    params = {
        "id": game_id,
        "game": title,
        "players": ", ".join(markdown_name(n) for n in record.names),
        "result": markdown_name(outcome_text(entry, speaker)),
    }
    head = (
        speaker.ngettext(
            "📥 **Imported as game #{id}**: {game} · {players} · {result} · {n} move · from {place}.",
            "📥 **Imported as game #{id}**: {game} · {players} · {result} · {n} moves · from {place}.",
            moves,
            place=markdown_name(where),
            **params,
        )
        if where
        else speaker.ngettext(
            "📥 **Imported as game #{id}**: {game} · {players} · {result} · {n} move.",
            "📥 **Imported as game #{id}**: {game} · {players} · {result} · {n} moves.",
            moves,
            **params,
        )
    )
    return (
        head
        + "\n"
        + speaker.gettext(
            "Every move was replayed and checked. It is in this channel's `/game history`, marked imported "
            "(not rated): replay it, or study it move by move."
        )
    )


def imported_view(game_id: int, speaker: Speaker = ENGLISH) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(ui.replay_button(game_id, speaker))
    view.add_item(ui.study_button(game_id, speaker))
    view.stop()
    return view


# ----- the step-through ---------------------------------------------------------------------------
async def study_message(
    interaction: discord.Interaction, record: replay.Record, step: int
) -> tuple[str, discord.ui.View, list[discord.File]]:
    """The text, controls and picture of step ``step`` of a finished game."""
    speaker = await speaker_of(interaction)  # a private step-through: the person's language
    try:
        frame = await asyncio.to_thread(study.frame, record, step, speaker)
    except replay.ReplayError as e:
        raise UserError(
            Phrase(
                N_("Game #{id} cannot be studied: {reason}."),
                id=record.game_id,
                reason=e.args[0] if e.args else str(e),
            )
        ) from None
    _ = speaker.gettext
    title = _(registry.get(record.game_key).title)
    badges = ", ".join(f"{s + 1} {markdown_name(said_name(n, speaker))}" for s, n in enumerate(record.names))
    text = "\n".join(
        [
            "🔎 "
            + _(
                "**Study of game #{id}** ({title}) · {where}",
                id=record.game_id,
                title=title,
                where=study.heading(frame, speaker),
            ),
            _("Badges: {badges}", badges=badges),
            *(f"> {speaker.say(line)}" for line in frame.lines),
        ]
    )
    files = []
    png = await _picture(interaction, record, frame)
    if png is not None:
        files.append(picture(png, f"game-{record.game_id}-step-{frame.step}.png", alt_clip(frame.alt)))
    go_to = study.go_to_steps(record, frame, speaker)
    return text[:2000], ui.study_view(record.game_id or 0, frame.step, frame.steps, go_to, speaker), files


async def _picture(
    interaction: discord.Interaction, record: replay.Record, frame: study.Frame
) -> bytes | None:
    import rendering

    if not rendering.has_renderer(record.game_key):
        return None
    drawing = getattr(interaction.client, "drawing", None)
    if drawing is None:
        return await asyncio.to_thread(rendering.render, record.game_key, frame.view, list(record.names))
    return await drawing.picture(record.game_key, frame.view, list(record.names), game_id=record.game_id)


async def show_study(interaction: discord.Interaction, game_id: int, move: int | None = None) -> None:
    """/game study (and the Study button): a new private step-through, at move ``move`` (the start)."""
    record = await _record(interaction, game_id)
    step = 0 if move is None else study.step_of_move(record, move)
    await interaction.response.defer(ephemeral=True, thinking=True)
    text, view, files = await study_message(interaction, record, step)
    await interaction.followup.send(
        text, view=view, files=files, ephemeral=True, allowed_mentions=NO_MENTIONS
    )


async def move_study(interaction: discord.Interaction, game_id: int, step: int) -> None:
    """◀ ▶ and "Go to move…": the step-through's message shows step ``step``, edited in place."""
    record = await _record(interaction, game_id)
    await interaction.response.defer()
    text, view, files = await study_message(interaction, record, step)
    await interaction.edit_original_response(
        content=text, view=view, attachments=files, allowed_mentions=NO_MENTIONS
    )


class StudyButton(discord.ui.DynamicItem[discord.ui.Button], template=ui.STUDY_RE.pattern):
    """Study (no step: a new step-through at the start) and ◀ ▶ (a step: this one, in place)."""

    def __init__(self, game_id: int, step: int | None) -> None:
        super().__init__(discord.ui.Button(label="…", custom_id=ui.study_id(game_id, step)))
        self.game_id, self.step = game_id, step

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["game"]), None if match["step"] is None else int(match["step"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        async def work():
            if self.game_id > ui.MAX_ID:
                raise UserError(Phrase(MALFORMED))
            if self.step is None:
                await show_study(interaction, self.game_id)
            else:
                await move_study(interaction, self.game_id, self.step)

        await guarded(interaction, work)


class StudySelect(ByGame, discord.ui.DynamicItem[discord.ui.Select], template=ui.STUDY_GO_RE.pattern):
    """The step-through's "Go to move…": the position picked, in place."""

    def __init__(self, game_id: int) -> None:
        super().__init__(
            discord.ui.Select(custom_id=ui.study_go_id(game_id), options=[discord.SelectOption(label="…")])
        )
        self.game_id = game_id

    async def callback(self, interaction: discord.Interaction) -> None:
        values = interaction.data.get("values") if interaction.data else None
        value = values[0] if isinstance(values, list) and len(values) == 1 else None
        step = (
            int(value)
            if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) <= 6
            else None
        )

        async def work():
            if step is None or self.game_id > ui.MAX_ID:
                raise UserError(Phrase(N_("That choice is not on the list.")))
            await move_study(interaction, self.game_id, step)

        await guarded(interaction, work)


async def setup(bot: commands.Bot) -> None:
    await clicks.route(bot, StudyButton, StudySelect)
