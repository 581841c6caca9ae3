"""Transcripts (issue 21): one game of each kind played through the loopback Discord in one language,
recorded as Markdown for review (``make transcripts`` writes docs/transcripts/<lang>-<game>.md, Polish
and Italian).

Both members' Discord clients and the server are set to the language, so everything is in it: what
the channel reads (the lobby, the table, pings, /stats and /leaderboard posted there), what each player
reads privately (answers and refusals, menus) and their DMs (hands, follow DMs). The moves are the
AI's choices, played by each member with ``/move`` (the choice's position in the caller's own list,
as autocomplete offers it); a game that runs past ``max_steps`` moves is resigned so that its end shows.
Run ``python -m tests.e2e.transcripts --help``; tests/e2e/test_transcripts_e2e.py runs a short one so
that the script cannot rot."""

from __future__ import annotations

import argparse
import asyncio
import random
import re
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from bot import menus, ui
from bot.app import Admiralty
from bot.games import canonical
from bot.i18n import native_name
from tests.e2e.conftest import COMPONENTS_V2, Driver, e2e_settings
from tests.fakediscord import FakeDiscord, running_bot

LANGUAGES = ("pl", "it")
# each game with the options that make its transcript readable (no long secret set-up)
GAMES: dict[str, dict] = {
    "enemy-lines": {"quick_setup": True},
    "warships": {"quick_setup": True},
    "enemy-in-sight": {},
    "everrain": {"length": "short"},
}
PLAYERS = ("alice", "bob")
MAX_STEPS = 400
TABLE_EVERY = 10  # moves between two copies of the table and DMs (edited in place at every move)
PINGS_SHOWN = 3  # the turn pings written down (then one a turn, the same words)
OUT = Path(__file__).resolve().parents[2] / "docs" / "transcripts"


@dataclass
class Transcript:
    """The Markdown being written: a chronological log, then the final state of every message."""

    title: str
    names: dict[int, str] = field(default_factory=dict)  # user id -> member name, for mentions
    lines: list[str] = field(default_factory=list)

    def heading(self, text: str) -> None:
        self.lines += ["", f"## {text}", ""]

    def note(self, text: str) -> None:
        self.lines += [f"*{text}*", ""]

    def said(self, who: str, where: str, message_text: str, components: str = "") -> None:
        self.lines.append(f"**{who}** — {where}:")
        self.lines += [self.quote(message_text), *([components] if components else []), ""]

    def quote(self, text: str) -> str:
        text = re.sub(r"<@!?(\d+)>", lambda m: "@" + self.names.get(int(m[1]), m[1]), text or "")
        return "\n".join(f"> {line}" if line else ">" for line in text.split("\n")) or "> (empty)"

    def markdown(self) -> str:
        return "\n".join([f"# {self.title}", *self.lines]).rstrip() + "\n"


def components_of(message) -> str:
    """A message's buttons, selects and pictures in words: `[Join]` … `▾ Pick a ship: A · B`."""
    parts = []
    for alt in message.gallery_descriptions:
        parts.append(f"🖼 *{alt or '(no alt text)'}*")
    for a in message.attachments:
        if a.filename.endswith(".gif") or a.filename.endswith(".txt") or a.filename.endswith(".json"):
            parts.append(f"📎 `{a.filename}`" + (f" *{a.description}*" if a.description else ""))
    buttons = [
        f"`[{' '.join(str(p) for p in (_emoji(b.emoji), b.label) if p)}]`"
        for b in message.buttons
        if b.label or b.emoji
    ]
    if buttons:
        parts.append(" ".join(buttons))
    for s in message.selects:
        options = " · ".join(o.get("label", "") for o in s.options[:25])
        parts.append(f"▾ *{s.placeholder or ''}*: {options}")
    return "\n".join(f"> {p}" for p in parts)


def _emoji(emoji) -> str:
    if isinstance(emoji, dict):
        return str(emoji.get("name") or "")
    return str(emoji or "")


class Recorder:
    """Plays and records one game; ``seen`` keeps which messages were written down already."""

    def __init__(self, d: Driver, transcript: Transcript) -> None:
        self.d = d
        self.t = transcript
        self.seen: dict[int, int] = {}  # message id -> the version written
        self.pings = 0

    def _fresh(self, m, edits: bool) -> bool:
        """Whether ``m`` is to be written now: new, or (with ``edits``) changed since it was written."""
        if m.deleted or self.seen.get(m.id) == m.version or (m.id in self.seen and not edits):
            return False
        self.seen[m.id] = m.version
        return True

    def new_in_channel(self, edits: bool = True) -> None:
        """The channel's messages posted since the last look, and (``edits``) those changed since: the
        table is edited in place every move. The turn pings after the first few are only counted."""
        for m in self.d.public():
            if m.author_id != self.d.fd.bot_user.id or not self._fresh(m, edits):
                continue
            if m.content.startswith(("<@", "⏰ <@")) and not m.flags & COMPONENTS_V2:
                self.pings += 1
                if self.pings > PINGS_SHOWN:
                    continue
            self.t.said("#games", "the channel reads", m.text, components_of(m))

    def new_dms(self, edits: bool = True) -> None:
        """Each player's DMs posted since the last look, and (``edits``) those changed since (a player's
        DM of a game is one message kept up to date)."""
        for name in PLAYERS:
            for m in self.d.member(name).dms():
                if self._fresh(m, edits):
                    self.t.said(name, "DM", m.text, components_of(m))

    def answer(self, name: str, what: str, result) -> None:
        """A member's command or click and what only they (or the channel, for a public answer) read."""
        for m in result.messages:
            self.seen[m.id] = m.version
        where = "privately" if result.ephemeral else "in the channel"
        self.t.said(
            name, f"{what} → {where}", result.text, "\n".join(components_of(m) for m in result.messages)
        )

    async def slash(self, name: str, command: str, **options):
        for _ in range(3):  # a loaded machine may miss an interaction's 3 s deadline: asked again
            result = await self.d.member(name).slash(command, channel=self.d.channel, **options)
            if not result.failed:
                break
        if result.pending or not result.text:
            try:
                await result.wait_for(lambda r: bool(r.text), timeout=15)
            except TimeoutError:
                pass
        shown = " ".join(f"{k}:{v}" for k, v in options.items() if k != "action")
        self.answer(name, f"`/{command}{' ' + shown if shown else ''}`", result)
        return result

    async def click(self, name: str, message, custom_id: str, label: str):
        result = await self.d.member(name).click(message, custom_id)
        if result.pending or not result.text:
            try:
                await result.wait_for(lambda r: bool(r.text), timeout=15)
            except TimeoutError:
                pass
        self.answer(name, f"clicks **{label}**", result)
        return result


def move_index(game, seat: int, action: dict, names: list[str], rng: random.Random) -> int:
    """The position of ``action`` in the caller's /move list (a random entry when it is not one)."""
    choices = menus.flat_choices(game, seat, names)
    want = canonical(action)
    for i, (_label, steps) in enumerate(choices):
        if steps and canonical(steps[-1]) == want:
            return i
    return rng.randrange(len(choices))


async def record(lang: str, game: str, out: Path, *, max_steps: int = MAX_STEPS, seed: int = 7) -> Path:
    """Play one ``game`` in ``lang`` and write its transcript to ``out``/<lang>-<game>.md."""
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as tmp:
        async with FakeDiscord(users=list(PLAYERS), deferred_update_wait=10.0) as fd:
            fd.guild.locale = lang  # the server's language (Discord's setting), before the bot connects
            for name in PLAYERS:
                fd.user(name).user.locale = lang
            bot = Admiralty(e2e_settings(Path(tmp) / "transcript.db", log_level="WARNING"))
            async with running_bot(bot, fd):
                d = Driver(fd, bot, fd.channel("games"))
                t = Transcript(f"{game} in {native_name(lang)} ({lang})")
                t.names = {d.member(n).id: n for n in PLAYERS}
                await _play(d, Recorder(d, t), game, rng, max_steps)
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"{lang}-{game}.md"
    path.write_text(t.markdown(), encoding="utf-8")
    return path


async def _play(d: Driver, r: Recorder, game: str, rng: random.Random, max_steps: int) -> None:
    t = r.t
    t.note(
        "Every member's Discord client and the server are set to this language. Quoted: what each one "
        "reads; `[…]` buttons, ▾ menus, 🖼 the alt text of a picture."
    )
    t.heading("The lobby")
    await r.slash("alice", "game new", game=game, thread=False, **GAMES[game])
    r.new_in_channel()
    table = await d.table()
    lobby = d.lobby_message()
    await r.click("bob", lobby, ui.lobby_id(table.id, "join"), "Join")
    await r.click("alice", d.lobby_message(), ui.lobby_id(table.id, "start"), "Start")
    await _settled(d)
    r.new_in_channel()
    r.new_dms()

    t.heading("The game")
    await r.slash("bob", "game follow")
    steps = 0
    refused = False
    while steps < max_steps:
        await _settled(d)
        table = await d.table()
        if table.game is None or table.game.is_over:
            break
        to_act = table.human_to_act()
        if not to_act:
            await asyncio.sleep(0.05)
            continue
        seat = to_act[0]
        user_id = table.seat_row(seat).user_id
        name = next(n for n in PLAYERS if d.member(n).id == user_id)
        if not refused and len(to_act) == 1:  # the other player tries to move out of turn: refused
            other = next(n for n in PLAYERS if n != name)
            await r.slash(other, "move", action="v0:0")
            refused = True
        engine = table.engine
        action = engine.ai_action(seat, rng)
        index = move_index(engine, seat, action, table.names(), rng)
        await r.slash(name, "move", action=f"v{table.version}:{index}")
        steps += 1
        await d.host.idle()
        every = steps % TABLE_EVERY == 1  # the table and the DMs as they stand, every few moves
        r.new_in_channel(edits=every)
        r.new_dms(edits=every)
    table = await d.table()
    if table.game is not None and not table.game.is_over:
        t.note(f"Stopped after {steps} moves: alice resigns so that the end shows.")
        result = await r.slash("alice", "game resign")
        message = result.message
        if message is not None:
            await r.click("alice", message, ui.resign_id(table.id, d.member("alice").id, "yes"), "Resign")
        await d.host.idle()
    await asyncio.sleep(0.5)
    r.new_in_channel()
    r.new_dms()
    if r.pings > PINGS_SHOWN:
        t.note(f"{r.pings} turn pings in all; the first {PINGS_SHOWN} are shown.")

    t.heading("After the game")
    await r.slash("alice", "stats")
    await r.slash("bob", "leaderboard", game=game)
    await r.slash("bob", "game history")
    r.new_in_channel()
    r.new_dms()


async def _settled(d: Driver) -> None:
    """AI seats have moved and the table shows it (as far as it can be told in any language)."""
    await d.host.idle()
    try:
        await d.settle(timeout=5)
    except TimeoutError:  # the table's words are the server's language: its version is waited for above
        pass


async def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--lang", action="append", choices=LANGUAGES, help="default: all")
    parser.add_argument("--game", action="append", choices=sorted(GAMES), help="default: all")
    parser.add_argument("--max-steps", type=int, default=MAX_STEPS)
    args = parser.parse_args(argv)
    for lang in args.lang or LANGUAGES:
        for game in args.game or GAMES:
            path = await record(lang, game, args.out, max_steps=args.max_steps)
            print(path)
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
