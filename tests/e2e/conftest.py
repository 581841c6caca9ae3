"""End-to-end: the real Admiralty bot, unmodified, against the loopback Discord (tests/fakediscord)."""

from __future__ import annotations

import asyncio
import random
import re
from dataclasses import dataclass

import pytest

from bot import menus
from bot.app import Admiralty
from bot.i18n import Speaker
from bot.settings import Settings
from bot.thinking import REPEATABLE_ITERATIONS
from tests.fakediscord import FakeDiscord, running_bot

COMPONENTS_V2 = 1 << 15


def short(text: str, n: int) -> str:
    return text if len(text) <= n else text[: n - 1] + "…"


@dataclass
class Driver:
    fd: FakeDiscord
    bot: Admiralty
    channel: object

    @property
    def host(self):
        return self.bot.host

    def member(self, name: str):
        return self.fd.user(name)

    async def add_ai(self, who: str = "alice", level: str = "Normal", *, timeout: float | None = None):
        """``who`` clicks the lobby's Add AI, then ``level`` (Easy, Normal, Hard) in the question it is
        asked privately. -> the answer of the level's click (or of Add AI, when that was refused)."""
        member = self.member(who)
        asked = await member.click(self.lobby_message(), "Add AI", timeout=timeout)
        if asked.failed or asked.message is None or not asked.message.buttons:
            return asked
        return await member.click(asked.message, level, timeout=timeout)

    def public(self):
        return [m for m in self.fd.channel_messages(self.channel) if not m.deleted]

    def table_message(self):
        """The game's one live message in the channel (Components V2: board, log, seats, controls)."""
        for m in reversed(self.public()):
            # in any language (issue 21): the table is the one with the Key button
            if (
                m.author_id == self.fd.bot_user.id
                and m.flags & COMPONENTS_V2
                and any((b.custom_id or "").startswith("adm:key:") for b in m.buttons)
            ):
                return m
        return None

    # The table is at once the board and the turn message of the former design.
    turn_message = table_message
    board_message = table_message

    def pings(self):
        """The plain mention messages ("<@id>, your turn in …") in the channel, deleted ones too."""
        return [
            m
            for m in self.fd.channel_messages(self.channel, deleted=True)
            if m.author_id == self.fd.bot_user.id and m.content.startswith(("<@", "⏰ <@"))
        ]

    def lobby_message_any(self):
        """The lobby message, open or closed (a closed lobby keeps its text, without buttons)."""
        for m in self.public():
            # "⚓ **<game>** — …" in every language (the table's title has "·" after the game's name)
            if m.author_id == self.fd.bot_user.id and re.match(r"⚓ \*\*[^*\n]+\*\* — ", m.text):
                return m
        return None

    def lobby_message(self):
        for m in reversed(self.public()):
            if any((b.custom_id or "").startswith("adm:l") for b in m.buttons):
                return m
        return None

    game_id: int | None = None

    async def table(self):
        """The channel's game: the active one, or the last one seen (it may have finished)."""
        row = await self.host.storage.active_game(self.channel.id)
        if row is not None:
            self.game_id = row.id
        return await self.host.table(self.game_id)

    async def new_game(self, who: str, game: str = "enemy-lines", **options):
        options.setdefault("thread", False)  # these scenarios play in the channel; threads: test_table_e2e
        result = await self.member(who).slash("game new", channel=self.channel, game=game, **options)
        # the answer is in the member's language; the lobby it opened is in the channel
        assert not result.failed and self.lobby_message() is not None, result.text
        return result

    async def open_join_start(self, game: str, **options) -> int:
        """Alice opens ``game``, Bob joins, Alice starts it, by the lobby's buttons' ids (their labels
        are in the server's language); returns the game's id once the start is applied (its table may
        still be on its way: settle)."""
        await self.new_game("alice", game=game, **options)
        game_id = (await self.table()).id
        await self.member("bob").click(self.lobby_message(), f"adm:l:{game_id}:join")
        await self.member("alice").click(self.lobby_message(), f"adm:l:{game_id}:start")
        await self.host.idle()
        return game_id

    async def click_path(self, member, message, labels: list):
        """Click through a cascade of menus, following labels (the last may be the list of labels to
        pick in a multi-select, see menus.labels_of); returns the final interaction result."""
        result = None
        for n, label in enumerate(labels):
            if n < len(labels) - 1 and not self.offers(message, label):
                continue  # a group of one is skipped by the bot's menus
            result = await self.click_label(member, message, label)
            assert not result.failed, f"click {label!r} failed"
            if message.ephemeral or message.guild_id is None:  # (a DM says "✅ Played" itself)
                result = PrivateMenuAnswer(result)
            if "✅ Played" in result.text:
                return result
            nxt = result.message if result.messages else result.original
            assert nxt is not None, f"no menu after {label!r}: {result.text}"
            message = nxt
        confirm = next((b for b in message.buttons if b.label == "✅ Confirm"), None)
        if confirm is not None:  # games that ask to confirm a card before it is played
            result = await self.answered(
                await member.click(message, confirm.custom_id), self._version_id(confirm.custom_id)
            )
            assert not result.failed, "click Confirm failed"
        return result

    @staticmethod
    def offers(message, label) -> bool:
        if isinstance(label, list):  # picks of a multi-select
            return any((s.custom_id or "").startswith("adm:m:") for s in message.selects)
        if any(b.label == short(label, 80) for b in message.buttons):
            return True
        return any(o["label"] == short(label, 100) for s in message.selects for o in s.options) or any(
            o["label"].startswith("More choices") for s in message.selects for o in s.options
        )

    @staticmethod
    async def answered(result, version_id: str, timeout: float = 15):
        """A click answered by a deferred update (type 6), or by the clicked table or DM redrawn at a
        new move (type 7): when it applied a move, the bot redrew the clicked message first and then
        sends its "✅ Played" follow-up; wait for it (a DM redrawn through the click says it itself). A
        sub-menu instead leaves the clicked message with controls of the same version."""
        if result.failed or result.response_type not in (6, 7):
            return result
        if result.response_type == 7:
            m = result.original
            if m is None or m.ephemeral or "· move " not in m.text or "✅ Played" in m.text:
                return result  # the next level of a private menu or a DM, shown in place

        def done(r):
            if any(m.ephemeral for m in r.followups):  # "✅ Played" or an error (a ping is public)
                return True
            m = r.original
            if (
                r.updated
                and m is not None
                and (m.ephemeral or "· move " not in m.text or "✅ Played" in m.text)
            ):
                return True  # a private menu (ephemeral or DM) shows the next level or "Played" itself
            # A DM's controls show a sub-menu in place: the DM edited with controls of the same version.
            # A table in a server channel opens it privately (a follow-up, above), so an edit of the
            # table with the same controls is another publish's (a restart's resume, a follow counted)
            return (
                r.updated
                and m is not None
                and m.guild_id is None
                and any(
                    Driver._version_id(c or "") == version_id
                    for c in [b.custom_id for b in m.buttons] + [s.custom_id for s in m.selects]
                )
            )

        await result.wait_for(done, timeout=timeout)
        return result

    @staticmethod
    def _version_id(custom_id: str) -> str:
        parts = custom_id.split(":")  # adm:b:<game>:<version>:…
        return ":".join(parts[2:4]) if len(parts) > 3 and parts[1] in ("b", "s", "m", "mn") else ""

    async def pick(self, member, message, labels: list[str]):
        """Pick these options in the message's multi-select (none: its choose-none button)."""
        if not labels:
            button = next(b for b in message.buttons if (b.custom_id or "").startswith("adm:mn:"))
            return await self.answered(
                await member.click(message, button.custom_id), self._version_id(button.custom_id)
            )
        select = next(s for s in message.selects if (s.custom_id or "").startswith("adm:m:"))
        values = [next(o["value"] for o in select.options if o["label"] == short(x, 100)) for x in labels]
        return await self.answered(
            await member.select(message, values, custom_id=select.custom_id),
            self._version_id(select.custom_id),
        )

    async def click_label(self, member, message, label):
        if isinstance(label, list):
            return await self.pick(member, message, label)
        for b in message.buttons:
            if b.label == short(label, 80) and (b.custom_id or "").startswith("adm:b"):
                return await self.answered(
                    await member.click(message, b.custom_id), self._version_id(b.custom_id)
                )
        for s in message.selects:
            for opt in s.options:
                if opt["label"] == short(label, 100):
                    return await self.answered(
                        await member.select(message, opt["value"], custom_id=s.custom_id),
                        self._version_id(s.custom_id),
                    )
            more = [o for o in s.options if o["label"].startswith("More choices")]
            if more:
                page = await member.select(message, more[0]["value"], custom_id=s.custom_id)
                nxt = page.message if page.messages else page.original
                return await self.click_label(member, nxt, label)
        raise AssertionError(
            f"no entry {label!r} on {message!r}: "
            f"{[b.label for b in message.buttons]} {[s.options for s in message.selects]}"
        )

    async def game_over_announced(self, timeout: float = 15.0) -> bool:
        """Wait until the final score is in the channel (the last click may return before it is posted)."""
        await self.fd.wait_for(lambda: any("Game over" in m.text for m in self.public()), timeout=timeout)
        return True

    async def settle(self, timeout: float = 15.0):
        """Wait until the channel's table shows the game's current version (deliveries that failed
        are retried by the bot in the background; an AI seat may still be moving meanwhile)."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while True:
            table = await self.table()
            if table.game is None or table.game.is_over:
                return
            want = f":{table.version}:"
            moves = await self.host.storage.count_moves(table.id)
            # the title's "game #1 · move 3", in any language ("gra #1 · ruch 3", "partita n. 1 · mossa 3")
            title = re.compile(rf"\b{table.id} · \S+ {moves}\b")

            def current(table=table, want=want, title=title):
                m = self.table_message()
                return m is not None and (
                    title.search(m.text) is not None
                    and (
                        any(want in (b.custom_id or "") for b in m.buttons) or not table.spec.public_controls
                    )
                )

            try:
                await self.fd.wait_for(current, timeout=0.5)
                return
            except TimeoutError:
                if loop.time() > end:
                    raise

    def dm_controls(self, member, version: int, seat: int):
        """The member's DM that carries controls for this game version and seat, if it has arrived."""
        want = f":{version}:{seat}:"
        for m in reversed(member.dms()):
            if m.deleted:
                continue
            if any(want in (b.custom_id or "") for b in m.buttons) or any(
                want in s.custom_id for s in m.selects
            ):
                return m
        return None

    def dm_menu(self, member, game_id: int, seat: int):
        """The member's DM of this game that carries controls for ``seat``, of any version: a DM menu is
        edited only when the seat's own choices change, so it may carry an older version (its buttons
        stay valid through the menu digest)."""
        prefix = (f"adm:b:{game_id}:", f"adm:s:{game_id}:")
        for m in reversed(member.dms()):
            if m.deleted:
                continue
            for cid in [b.custom_id or "" for b in m.buttons] + [s.custom_id or "" for s in m.selects]:
                parts = cid.split(":")
                if cid.startswith(prefix) and len(parts) > 4 and parts[4] == str(seat):
                    return m
        return None

    def dm_button(self, member, game_id: int):
        """The member's DM of this game when it shows only its "My hand" button (they play from the table)."""
        for m in reversed(member.dms()):
            if m.deleted:
                continue
            ids = [b.custom_id or "" for b in m.buttons] + [s.custom_id or "" for s in m.selects]
            if f"adm:v:{game_id}" in ids and not any(c.startswith(("adm:b:", "adm:s:")) for c in ids):
                return m
        return None

    async def play_by_dm(self, member, seat: int, rng: random.Random):
        """``member`` plays the AI's choice for ``seat`` through the controls in their DMs."""
        table = await self.table()
        await self.fd.wait_for(
            lambda: (
                self.dm_menu(member, table.id, seat) is not None
                or self.dm_button(member, table.id) is not None
            ),
            timeout=15,
        )
        if self.dm_menu(member, table.id, seat) is None:
            # They played from the table since: their DM waits for its button ("My hand"), which
            # brings its menu back (bot/delivery.py, a seat away).
            dm = self.dm_button(member, table.id)
            pressed = await member.click(dm, f"adm:v:{table.id}")
            assert not pressed.failed, pressed.text
            await self.fd.wait_for(lambda: self.dm_menu(member, table.id, seat) is not None, timeout=15)
        table = await self.table()
        game = table.game
        action = game.ai_action(seat, rng)
        # the labels as the member's DM shows them: in their Discord's language
        labels = menus.labels_of(game, seat, action, table.names(), Speaker(member.user.locale))
        result = await self.click_path(member, self.dm_menu(member, table.id, seat), labels)
        await self.fd.wait_for(lambda: True, timeout=0.01)
        return action, result

    async def play_everrain_with_an_ai_crewmate(self, who: str = "alice", seed: int = 11):
        """A short Everrain: ``who`` opens it, adds an AI crewmate and plays every turn of theirs by
        clicks (the AI's choices) to the end. Returns the finished table."""
        await self.new_game(who, game="everrain", length="short")
        await self.add_ai(who)
        await self.member(who).click(self.lobby_message(), "Start")
        return await self.play_to_the_end(random.Random(seed), moves=600)

    async def play_to_the_end(self, rng: random.Random, *, moves: int = 400):
        """The members play every turn of theirs by clicks (the AI's choices) until the game is over,
        within ``moves`` of theirs. Returns the finished table."""
        for _ in range(moves):
            await self.host.idle()
            table = await self.table()
            if table.game.is_over:
                break
            await self.play_ai_move(rng)
        table = await self.table()
        assert table.game.is_over, f"not over after {moves} moves of the members"
        return table

    async def play_ai_move(self, rng: random.Random | None = None, *, via: str = "turn"):
        """The member whose turn it is plays the move the AI would choose, by clicks."""
        for _ in range(300):  # an AI seat may still be moving: wait for a human's turn
            await self.settle()
            table = await self.table()
            game = table.game
            if game.is_over or table.human_to_act():
                break
            await self.host.idle()
            await asyncio.sleep(0.02)
        if game.is_over:  # an AI seat ended it
            return None, None, None
        seat = table.human_to_act()[0]
        user_id = table.seat_row(seat).user_id
        member = next(m for m in (self.member(n) for n in ("alice", "bob", "carol")) if m.id == user_id)
        action = game.ai_action(seat, rng or random.Random(table.version))
        labels = menus.labels_of(game, seat, action, table.names())
        if via == "turn":
            start = self.turn_message()
        else:
            shown = await member.click(self.turn_message(), "My view")
            start = shown.message
        result = await self.click_path(member, start, labels)
        assert "✅ Played" in result.text, result.text
        return member, action, result


class PrivateMenuAnswer:
    """A click on a private (ephemeral) menu, such as a sub-menu opened from the table: the bot answers
    it by updating that menu in place ("✅ Played", or the next level), so its text is part of what
    the click was told, beside any message the click posted (a ping). Else like the result it wraps."""

    def __init__(self, result) -> None:
        self.result = result

    def __getattr__(self, name: str):
        return getattr(self.result, name)

    @property
    def text(self) -> str:
        menu = self.result.original
        own = menu.text if menu is not None and self.result.updated else ""
        return "\n".join(t for t in (own, self.result.text) if t)


def e2e_settings(database, log_level: str = "INFO") -> Settings:
    """The settings of a bot played against the loopback Discord: no turn timer, AI seats at once."""
    return Settings(
        token="fake", database=database, dev_guild=None, turn_timeout=0, ai_delay=0.0, log_level=log_level
    )


@pytest.fixture
async def driver(e2e_database):  # a SQLite file, or PostgreSQL (tests/conftest.py)
    # A click answered by a deferred update returns when the bot edits the message; on a loaded 2-core
    # machine drawing and publishing a move can take longer than the fake's default 2 s wait.
    async with FakeDiscord(users=["alice", "bob", "carol"], deferred_update_wait=10.0) as fd:
        bot = Admiralty(e2e_settings(e2e_database))
        bot.thinking.iterations = REPEATABLE_ITERATIONS  # the AI's searches repeatable and quick
        async with running_bot(bot, fd):
            yield Driver(fd, bot, fd.channel("games"))
