"""Buttons and selects: persistent DynamicItems that parse the custom ids built in bot/ui.py.

They work on any message Admiralty ever sent, across restarts, because the
state they need (game id, version, seat, menu position) is in the custom id.
"""

from __future__ import annotations

import discord
from discord.ext import commands

from bot import layout, menus, ui
from bot.click_answer import ClickAnswer
from bot.delivery import key_text
from bot.games import fill_names
from bot.games.names import clean_name, markdown_name
from bot.host import UserError
from bot.i18n import N_, Phrase
from cogs import clicks
from cogs.common import (
    ByGame,
    ById,
    delivery_of,
    fresh_controls,
    guarded,
    host_of,
    lobby_op,
    place_check,
    reply,
    server_speaker,
    speaker_of,
    table_here,
    undo_offer,
)

MALFORMED = N_("That control is not one of mine (or it is damaged). Use the buttons under the current board.")
NOT_ON_MENU = N_("That choice is not on the menu.")

# What the channel is told when Discord keeps refusing a private sub-menu for the token's whole life.
MENU_REFUSED = N_("Discord would not show you that menu privately just now: please click again in a minute.")


async def refuse(interaction: discord.Interaction, msgid: str) -> None:
    """A private refusal of a click, in the person's language."""

    async def work():
        await reply(interaction, (await speaker_of(interaction)).gettext(msgid))

    await guarded(interaction, work)


async def refuse_malformed(interaction: discord.Interaction) -> None:
    await refuse(interaction, MALFORMED)


class LobbyButton(ById, discord.ui.DynamicItem[discord.ui.Button], template=ui.LOBBY_ANY):
    def __init__(self, custom_id: str) -> None:
        super().__init__(discord.ui.Button(label="…", custom_id=custom_id))
        parsed = ui.parse_lobby(custom_id)
        self.game_id: int | None
        self.op: str | None
        self.game_id, self.op = parsed if parsed is not None else (None, None)

    async def callback(self, interaction: discord.Interaction) -> None:
        game_id, op = self.game_id, self.op
        if game_id is None or op is None:
            return await refuse_malformed(interaction)
        host = host_of(interaction)
        user = interaction.user

        async def work():
            if op.startswith("ai-"):
                # the level question answered: it becomes the answer, its buttons gone, so that a second
                # tap on a phone adds no second AI
                await interaction.response.defer()
            else:
                await interaction.response.defer(ephemeral=True, thinking=True)
            # The host checks, under the game's lock, that this button's game is still in the
            # lobby; a click that lost a race (Start against Cancel) is told why.
            table = await table_here(interaction, game_id)
            if op == "ai":  # Add AI: which level? asked of the host alone (a lobby has room for one button)
                await host.check_add_ai(table.channel_id, user.id, game_id=game_id)
                speaker = await speaker_of(interaction)
                view = ui.ai_level_view(game_id, speaker)
                return await reply(interaction, speaker.gettext("How strong an AI?"), view=view)
            # remembered on joining or starting: the game's DMs to them (hands, alerts) in their language
            speaker = await speaker_of(interaction, remember=op in ("join", "start"))
            text = await lobby_op(op, host, table.channel_id, user, game_id=game_id, speaker=speaker)
            if op.startswith("ai-"):
                await interaction.edit_original_response(content=text, view=None)
            else:
                await reply(interaction, text)

        await guarded(interaction, work)


async def _show_choice(
    interaction: discord.Interaction,
    game_id: int,
    version: int,
    seat: int,
    prefix: tuple[int, ...],
    page: int,
    digest: str | None = None,
    picks: list[int] | None = None,
) -> None:
    """A click on a menu entry: the next menu, or the action applied (``picks``: what was chosen in a
    multi-select, which applies the move it belongs to).

    Every click is answered by its result in one call when that is ready soon, else deferred and then
    edited (bot/click_answer.py): a click on a DM or a private (ephemeral) menu by the next level or
    "✅ Played" as the update of that message; a move played on the table or from a DM by its publish,
    which redraws the table (or the DM) through the click (not counted against Discord's global rate
    limit); a DM so redrawn says "✅ Played" itself, a table click gets it as a private word after. A
    sub-menu opened from the table is the mover's alone: it opens privately (an ephemeral
    follow-up after the table's click is acknowledged) and the table's controls stay as everyone sees
    them."""
    host = host_of(interaction)
    message = interaction.message
    ephemeral = message is not None and message.flags.ephemeral
    on_table = interaction.guild_id is not None and not ephemeral

    speaker = await speaker_of(interaction)  # (no database read: the click's locale)

    async def work():
        answer = ClickAnswer(interaction)
        try:
            return await take(answer)
        finally:
            await answer.close()

    async def acknowledged(answer: ClickAnswer) -> None:
        # (a no-op when the click was answered already: by its publish's redraw, or by its deferral)
        await answer.defer()
        # Its token edits the table (or the DM) and posts in its channel for a while.
        delivery_of(interaction).hooks.clicked(interaction)

    async def take(answer: ClickAnswer):
        # The game is loaded once, under its lock: there it is checked that it may be played from here
        # (a forged or misplaced id is refused), then the click is taken.
        outcome = await host.choose(
            game_id,
            interaction.user.id,
            version,
            prefix,
            page,
            seat=seat,
            digest=digest,
            via=interaction,
            check=place_check(interaction),
            picks=picks,
            speaker=speaker,
        )
        if outcome.level is not None:
            # the button's seat: choose() refused any other
            menu = ui.menu_view(game_id, outcome.table.version, seat, outcome.level, speaker=speaker)
            crumbs = " › ".join(outcome.level.breadcrumb)
            text = f"{crumbs + ' › ' if crumbs else ''}**{outcome.level.title}**"
            try:
                if on_table:
                    await acknowledged(answer)  # the private menu is a follow-up of the table's click
                    # Retried while Discord refuses follow-ups and the token lives; then the mover is told
                    # in the channel (the menu itself stays private) so the click is never left unanswered.
                    await delivery_of(interaction).hooks.answer(
                        interaction,
                        text,
                        # said in the channel: in the mover's language, as it is theirs to read
                        public=f"<@{interaction.user.id}> {speaker.gettext(MENU_REFUSED)}",
                        view=menu,
                        ephemeral=True,
                    )
                else:
                    await answer.update(content=text, view=menu)
                    delivery_of(interaction).hooks.clicked(interaction)  # (its token edits the DM a while)
            finally:
                layout.dissolve(menu)  # (sent: no reference cycle left for the collector)
            return outcome
        text = speaker.gettext("✅ Played: {move}", move=speaker.say(outcome.applied or ""))
        if ephemeral:
            # A private menu in the channel (a sub-menu opened from the table, or My view): once the
            # table shows the move (as after a click on the table), say so and show what comes next for
            # this player right here.
            await answer.shown(outcome.published)
            view: discord.ui.View | None = None
            game = outcome.table.engine
            if not game.is_over and outcome.seat in game.to_act():
                try:
                    following = await host.menu(game_id, interaction.user.id, speaker=speaker)
                    view = ui.menu_view(
                        game_id, following.table.version, seat, following.level, speaker=speaker
                    )
                    prompt = following.table.engine.prompt(seat, **menus.in_language(speaker))
                    prompt = fill_names(prompt, following.table.names(speaker), markdown=True)
                    text += "\n" + speaker.gettext("**Next** — {prompt}", prompt=prompt)
                except UserError:
                    view = None
            if view is None:
                view = undo_offer(outcome, interaction, speaker).get("view")
            await answer.update(content=text, view=view, attachments=[])
        else:
            # The table or the DM is redrawn through this interaction (by the publisher, after the
            # commit, outside the game's lock: the click's answer when that is quick): wait for it,
            # then a short private word, unless the DM redrawn says "✅ Played" itself.
            await answer.shown(outcome.published)
            await acknowledged(answer)
            if answer.played_shown:
                return outcome
            # Retried while Discord refuses it and the token lives, then said in the channel (a table
            # click is a move everyone sees; a DM click is answered in the DM).
            await delivery_of(interaction).hooks.answer(
                interaction,
                text,
                public=f"<@{interaction.user.id}> {text}",
                ephemeral=True,
                **undo_offer(outcome, interaction, speaker),
            )
        return outcome

    await guarded(interaction, work)


class MenuButton(ById, discord.ui.DynamicItem[discord.ui.Button], template=ui.BUTTON_ANY):
    def __init__(self, custom_id: str) -> None:
        super().__init__(discord.ui.Button(label="…", custom_id=custom_id))
        self.menu = ui.parse_button(custom_id)

    async def callback(self, interaction: discord.Interaction) -> None:
        m = self.menu
        if m is None:
            return await refuse_malformed(interaction)
        await _show_choice(interaction, m.game, m.version, m.seat, m.prefix, 0, m.digest)


class MenuSelect(ById, discord.ui.DynamicItem[discord.ui.Select], template=ui.SELECT_ANY):
    def __init__(self, custom_id: str) -> None:
        super().__init__(discord.ui.Select(custom_id=custom_id, options=[discord.SelectOption(label="…")]))
        self.menu = ui.parse_select(custom_id)

    async def callback(self, interaction: discord.Interaction) -> None:
        m = self.menu
        values = interaction.data.get("values") if interaction.data else None
        if not isinstance(values, list):
            values = []
        value = ui.parse_select_value(values[0]) if len(values) == 1 and isinstance(values[0], str) else None
        if m is None:
            await refuse_malformed(interaction)
        elif value is None:
            await refuse(interaction, NOT_ON_MENU)
        elif value[0] == "page":
            await _show_choice(interaction, m.game, m.version, m.seat, m.prefix, value[1], m.digest)
        else:
            await _show_choice(interaction, m.game, m.version, m.seat, m.prefix + (value[1],), 0, m.digest)


class MenuChoice(ById, discord.ui.DynamicItem[discord.ui.Select], template=ui.CHOICE_ANY):
    """A multi-select of an open choice (several ships at once): the picks play the move."""

    def __init__(self, custom_id: str) -> None:
        super().__init__(discord.ui.Select(custom_id=custom_id, options=[discord.SelectOption(label="…")]))
        self.menu = ui.parse_choice(custom_id)

    async def callback(self, interaction: discord.Interaction) -> None:
        m = self.menu
        picks = ui.parse_choice_values(interaction.data.get("values") if interaction.data else None)
        if m is None:
            await refuse_malformed(interaction)
        elif not picks:
            await refuse(interaction, NOT_ON_MENU)
        else:
            await _show_choice(interaction, m.game, m.version, m.seat, m.prefix, 0, m.digest, picks=picks)


class MenuChoiceNone(ById, discord.ui.DynamicItem[discord.ui.Button], template=ui.CHOICE_NONE_ANY):
    """The button beside a multi-select that chooses none of its candidates (and plays the move)."""

    def __init__(self, custom_id: str) -> None:
        super().__init__(discord.ui.Button(label="…", custom_id=custom_id))
        self.menu = ui.parse_choice_none(custom_id)

    async def callback(self, interaction: discord.Interaction) -> None:
        m = self.menu
        if m is None:
            return await refuse_malformed(interaction)
        await _show_choice(interaction, m.game, m.version, m.seat, m.prefix, 0, m.digest, picks=[])


class MyViewButton(ById, discord.ui.DynamicItem[discord.ui.Button], template=ui.VIEW_ANY):
    def __init__(self, custom_id: str) -> None:
        super().__init__(discord.ui.Button(label="My view", custom_id=custom_id))
        self.game_id = ui.parse_view(custom_id)

    async def callback(self, interaction: discord.Interaction) -> None:
        game_id = self.game_id
        if game_id is None:
            return await refuse_malformed(interaction)

        async def work():
            # Answered as a (deferred) update of the clicked message, so that its token can edit that
            # message later (the table, or the DM) without counting against the global rate limit.
            await interaction.response.defer()
            delivery = delivery_of(interaction)
            delivery.hooks.clicked(interaction)
            table = await table_here(interaction, game_id)
            seat = table.seat_of(interaction.user.id)
            if interaction.guild_id is None and seat is not None and table.game is not None:
                await delivery.refresh_dm(table, seat, interaction)  # the DM's own button: shown there
                return
            text, view, file = await fresh_controls(interaction, table)
            await reply(interaction, text, view=view, file=file)  # a private follow-up

        await guarded(interaction, work)


class KeyButton(ByGame, discord.ui.DynamicItem[discord.ui.Button], template=ui.KEY_RE.pattern):
    """The table's **Key**: the picture's legend and whose mark is whose, answered privately at once
    (one read of the game; no drawing, no write)."""

    def __init__(self, game_id: int) -> None:
        super().__init__(ui.key_button(game_id))
        self.game_id = game_id

    async def callback(self, interaction: discord.Interaction) -> None:
        async def work():
            table = await table_here(interaction, self.game_id)
            if table.game is None:
                raise UserError(Phrase(N_("The game has not started yet.")))
            await reply(interaction, key_text(table, await speaker_of(interaction)))

        await guarded(interaction, work)


class PlayAgainButton(ByGame, discord.ui.DynamicItem[discord.ui.Button], template=ui.AGAIN_RE.pattern):
    """ "Play again" on a finished game: a rematch lobby in the same place, the clicker its host."""

    def __init__(self, game_id: int) -> None:
        super().__init__(ui.play_again_button(game_id))
        self.game_id = game_id

    async def callback(self, interaction: discord.Interaction) -> None:
        async def work():
            await interaction.response.defer(ephemeral=True, thinking=True)
            await table_here(interaction, self.game_id)  # the button of a game in this channel
            table = await host_of(interaction).play_again(
                self.game_id, interaction.user.id, interaction.user.display_name
            )
            # the Start button as the channel shows it
            start = (await server_speaker(interaction)).gettext("Start")
            await reply(
                interaction,
                (await speaker_of(interaction, remember=True)).gettext(
                    "Rematch lobby opened (game #{id}) with the same players; press **{start}** when everyone "
                    "is ready.",
                    id=table.id,
                    start=start,
                ),
            )

        await guarded(interaction, work)


class ResignButton(discord.ui.DynamicItem[discord.ui.Button], template=ui.RESIGN_RE.pattern):
    """The confirm step of /game resign: Resign (op yes) or Keep playing (op no), for one user only."""

    def __init__(self, game_id: int, user_id: int, op: str) -> None:
        super().__init__(discord.ui.Button(label=op, custom_id=ui.resign_id(game_id, user_id, op)))
        self.game_id, self.user_id, self.op = game_id, user_id, op

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["game"]), int(match["user"]), match["op"])

    async def callback(self, interaction: discord.Interaction) -> None:
        async def work():
            if interaction.user.id != self.user_id:
                raise UserError(Phrase(N_("This confirmation belongs to another player.")))
            await interaction.response.defer()  # the (ephemeral) confirmation is edited in place
            _ = (await speaker_of(interaction)).gettext
            if self.op == "no":
                await interaction.edit_original_response(content=_("You keep playing."), view=None)
                return
            table = await host_of(interaction).resign(self.game_id, interaction.user.id)
            text = (
                _("You resigned from game #{id}. The game is over.", id=table.id)
                if table.over
                else _("You resigned from game #{id}. An AI plays your seat from now on.", id=table.id)
            )
            await interaction.edit_original_response(content=text, view=None)

        await guarded(interaction, work)


class UndoButton(ById, discord.ui.DynamicItem[discord.ui.Button], template=ui.UNDO_RE.pattern):
    """Undo by agreement: "Ask to undo" (op ask) under a player's "Played" answer, and the other
    players' Accept (yes) / Decline (no) on the request message in the game's channel."""

    def __init__(self, custom_id: str) -> None:
        super().__init__(discord.ui.Button(label="…", custom_id=custom_id))
        self.parsed = ui.parse_undo(custom_id)

    async def callback(self, interaction: discord.Interaction) -> None:
        if self.parsed is None:
            return await refuse_malformed(interaction)
        game_id, version, op = self.parsed
        host = host_of(interaction)

        async def work():
            if op == "ask":
                await interaction.response.defer(ephemeral=True, thinking=True)
                await table_here(interaction, game_id)
                speaker = await speaker_of(interaction)
                asked = await host.undo_request(
                    game_id, interaction.user.id, version=version, speaker=speaker
                )
                await reply(interaction, speaker.say(asked))
                return
            await interaction.response.defer()  # the request message is edited once it is settled
            await table_here(interaction, game_id)
            text, settled = await host.undo_answer(game_id, interaction.user.id, version, op == "yes")
            if settled and interaction.message is not None:
                # the request message is the channel's: in the server's language
                channel = await server_speaker(interaction)
                outcome = (
                    channel.gettext("✅ Everyone accepted: the move was undone.")
                    if op == "yes"
                    else channel.gettext(
                        "✖ {name} declined: the move stands.",
                        name=markdown_name(clean_name(interaction.user.display_name)),
                    )
                )
                await interaction.edit_original_response(
                    content=f"{interaction.message.content}\n{outcome}", view=None
                )
            await reply(interaction, (await speaker_of(interaction)).say(text))

        await guarded(interaction, work)


class OtherComponent(ById, discord.ui.DynamicItem[discord.ui.Button], template=ui.OTHER_ANY):
    """Any other id under "adm:": none of ours, so refused (rather than left unanswered)."""

    def __init__(self, custom_id: str) -> None:
        super().__init__(discord.ui.Button(label="…", custom_id=custom_id))

    async def callback(self, interaction: discord.Interaction) -> None:
        await refuse_malformed(interaction)


async def setup(bot: commands.Bot) -> None:
    await clicks.route(
        bot,
        LobbyButton,
        MenuButton,
        MenuSelect,
        MenuChoice,
        MenuChoiceNone,
        MyViewButton,
        KeyButton,
        PlayAgainButton,
        ResignButton,
        UndoButton,
        OtherComponent,
    )
