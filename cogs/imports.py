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
from bot.delivery.transport import picture
from bot.games import registry
from bot.games.names import markdown_name
from bot.history import outcome_text
from bot.host import UserError
from bot.layout import alt_clip
from bot.storage.imports import ImportCapReached
from bot.storage.rows import HistoryEntry
from cogs.common import ByGame, channel_of, guarded, host_of, reply
from cogs.components import MALFORMED
from cogs.history import _guild, _record

NO_MENTIONS = discord.AllowedMentions.none()


async def import_game(interaction: discord.Interaction, file: discord.Attachment) -> None:
    """/game import file: the export checked, then stored as a finished game of this channel."""
    guild = _guild(interaction)
    if file.size > imports.MAX_IMPORT_BYTES:
        raise UserError(
            f"That file is {file.size // 1024} KB; an export I import is at most "
            f"{imports.MAX_IMPORT_BYTES // (1024 * 1024)} MiB."
        )
    storage = host_of(interaction).storage
    if await storage.imports_today(guild) >= imports.IMPORTS_PER_DAY:
        raise UserError(_cap_text(imports.IMPORTS_PER_DAY))
    await interaction.response.defer(ephemeral=True, thinking=True)  # every move is replayed
    try:
        data = await file.read()
    except discord.HTTPException:
        raise UserError("I could not download that file from Discord; please try again.") from None
    try:
        checked = await asyncio.to_thread(imports.check, data)
    except imports.ImportRefused as e:
        raise UserError(f"📥 Not imported: {e}") from None
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
    await reply(interaction, import_text(game_id, checked), view=imported_view(game_id))


def _cap_text(cap: int) -> str:
    return (
        f"This server imported {cap} games today, the most it may in a day (imports fill its history); "
        "please import again tomorrow (UTC)."
    )


def import_text(game_id: int, checked: imports.Checked) -> str:
    record = checked.record
    title = registry.get(record.game_key).title
    entry = HistoryEntry(
        game_id, record.game_key, None, 0, None, "finished", len(record.actions), 0.0,
        checked.result, tuple(record.names), (),
    )  # fmt: skip
    where = imports.origin_text({"origin": checked.origin, "id": checked.source_id})
    moves = study.move_numbers(record)[-1]
    return (
        f"📥 **Imported as game #{game_id}**: {title} · "
        f"{', '.join(markdown_name(n) for n in record.names)} · {markdown_name(outcome_text(entry))} · "
        f"{moves} moves" + (f" · from {markdown_name(where)}" if where else "") + ".\n"
        "Every move was replayed and checked. It is in this channel's `/game history`, marked imported "
        "(not rated): replay it, or study it move by move."
    )


def imported_view(game_id: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(ui.replay_button(game_id))
    view.add_item(ui.study_button(game_id))
    view.stop()
    return view


# ----- the step-through ---------------------------------------------------------------------------
async def study_message(
    interaction: discord.Interaction, record: replay.Record, step: int
) -> tuple[str, discord.ui.View, list[discord.File]]:
    """The text, controls and picture of step ``step`` of a finished game."""
    try:
        frame = await asyncio.to_thread(study.frame, record, step)
    except replay.ReplayError as e:
        raise UserError(f"Game #{record.game_id} cannot be studied: {e}.") from None
    title = registry.get(record.game_key).title
    badges = ", ".join(f"{s + 1} {markdown_name(n)}" for s, n in enumerate(record.names))
    text = "\n".join(
        [
            f"🔎 **Study of game #{record.game_id}** ({title}) · {study.heading(frame)}",
            f"Badges: {badges}",
            *(f"> {line}" for line in frame.lines),
        ]
    )
    files = []
    png = await _picture(interaction, record, frame)
    if png is not None:
        files.append(picture(png, f"game-{record.game_id}-step-{frame.step}.png", alt_clip(frame.alt)))
    go_to = study.go_to_steps(record, frame)
    return text[:2000], ui.study_view(record.game_id or 0, frame.step, frame.steps, go_to), files


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
                raise UserError(MALFORMED)
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
                raise UserError("That choice is not on the list.")
            await move_study(interaction, self.game_id, step)

        await guarded(interaction, work)


async def setup(bot: commands.Bot) -> None:
    bot.add_dynamic_items(StudyButton, StudySelect)
