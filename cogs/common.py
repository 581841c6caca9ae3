"""What every cog needs: the host, and turning host errors into ephemeral replies."""

from __future__ import annotations

import io
import logging

import discord

from bot import ui
from bot.delivery import my_view_label, your_turn
from bot.host import Host, Outcome, StaleBoard, Table, UserError

log = logging.getLogger("admiralty.cogs")

APOLOGY = "Sorry — something went wrong on my side. The game is unchanged; please try again."


def joined_text(table: Table, dm_ok: bool) -> str:
    """The private answer to a player who joined a lobby."""
    if dm_ok:
        return "You joined the game."
    return ("You joined the game. I cannot send you direct messages (your privacy settings block them): "
            f"use the **{my_view_label(table)}** button under the board to see your private view and act.")


async def lobby_op(op: str, host: Host, channel_id: int, user: discord.abc.User) -> str:
    """One lobby operation (button or slash command alike); returns the private answer."""
    if op == "join":
        return joined_text(*await host.join(channel_id, user.id, user.display_name))
    if op == "leave":
        await host.leave(channel_id, user.id)
        return "You left the game."
    if op == "ai":
        table = await host.add_ai(channel_id, user.id)
        return f"An AI seat was added: {table.seats[-1].name} takes a seat."
    if op == "start":
        await host.start(channel_id, user.id)
        return "The game has started."
    if op == "cancel":
        await host.cancel(channel_id, user.id)
        return "The lobby was cancelled."
    raise ValueError(f"unknown lobby operation {op!r}")


def host_of(interaction: discord.Interaction) -> Host:
    return interaction.client.host  # type: ignore[attr-defined]


async def reply(interaction: discord.Interaction, content: str, *, view: discord.ui.View | None = None,
                file: discord.File | None = None, ephemeral: bool = True) -> None:
    """Answer an interaction whether or not it was already acknowledged."""
    kwargs: dict = {"ephemeral": ephemeral}
    if view is not None:
        kwargs["view"] = view
    if file is not None:
        kwargs["file"] = file
    content = content[:2000]
    if interaction.response.is_done():
        await interaction.followup.send(content, **kwargs)
    else:
        await interaction.response.send_message(content, **kwargs)


async def fresh_controls(interaction: discord.Interaction, table: Table) -> tuple[str, discord.ui.View | None,
                                                                                   discord.File | None]:
    """The current view and menu for whoever clicked: used for stale boards and "My view"."""
    host = host_of(interaction)
    delivery = interaction.client.delivery  # type: ignore[attr-defined]
    seat = table.seat_of(interaction.user.id)
    if table.game is None:
        return "The game has not started yet.", None, None
    png = await delivery.image(table, seat)
    text = ""
    view = None
    if seat is not None and not table.over and seat in table.game.to_act():
        outcome = await host.menu(table.id, interaction.user.id)
        text = your_turn(table.game.prompt(seat))
        view = ui.menu_view(table.id, table.version, seat, outcome.level)
    elif seat is not None and not table.over:
        text = "Not your turn yet — here is what you can see."
    if png is None or not delivery.can_attach(interaction.channel_id or 0) and interaction.guild_id:
        text += "\n" + table.game.text_view(table.game.view(seat))
        return text, view, None
    return text or "The table as you see it.", view, discord.File(io.BytesIO(png), "view.png")


def game_of(interaction: discord.Interaction) -> int | str:
    """The game id a component belongs to (from its custom id), for log lines; '?' when unknown."""
    custom_id = str((interaction.data or {}).get("custom_id", ""))
    parts = custom_id.split(":")
    if len(parts) >= 3 and parts[0] == "adm" and parts[2].isdigit():
        return int(parts[2])
    return "?"


async def guarded(interaction: discord.Interaction, work) -> Outcome | None:
    """Run ``work()``; user errors become ephemeral replies, the rest an apology and a log line."""
    try:
        return await work()
    except StaleBoard as e:
        text, view, file = await fresh_controls(interaction, e.table)
        await reply(interaction, f"{e}\n{text}", view=view, file=file)
    except UserError as e:
        await reply(interaction, str(e))
    except Exception:
        log.exception("unexpected error in game %s (channel %s, user %s, data %s)", game_of(interaction),
                      interaction.channel_id, interaction.user.id, interaction.data)
        try:
            await reply(interaction, APOLOGY)
        except discord.HTTPException:
            pass
    return None
