"""Replays and exports of finished games (no Discord objects, no database calls but :func:`load`).

A replay rebuilds the game from its seed and its action log, move by move, and after every move takes
the *spectator* view, ``view(None)``: the frames of the animation are drawn from it alone, so nothing
private (a hand, a hidden unit, a secret choice) is drawn while the game runs. After the last move of a
finished game the last frame is the game's ``final_reveal()``: the spectator view plus what the rules
reveal at the end (docs/rules/<game>.md says what, per game). The log is the moves' public event texts
(events with "private_to" are left out), with the players' names filled in, then what the end reveals.
The frames name no one (a picture's font has no glyphs for most names): a frame's caption keeps its
seat references, ``who(seat)``, and draws each as the seat's badge; the names are in the log, the
text file posted beside the GIF.

An export is a JSON document (:func:`export_doc`): the game, its options, seed, players' names, every
logged action and the result, at format version :data:`FORMAT_VERSION`. ``python -m bot replay FILE
--out DIR`` (:func:`write_offline`) turns it back into the frames, the animation and the log, offline.
An export holds every action, secret choices included: it is given only for finished games.
"""

from __future__ import annotations

import asyncio
import io
import json
import weakref
from collections.abc import Callable, Collection, Sequence
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from bot.drawing import Drawing
from bot.games import registry
from bot.games.base import Game, IllegalAction, canonical
from bot.games.names import TOKEN, colour, fill_names, seat_name, who
from bot.games.phrase import ENGLISH, N_, Phrase, Voice
from bot.menus import in_language, language_of
from bot.storage.base import ActionRow, GameRow, SeatRow, is_host_action, move_number, move_step

if TYPE_CHECKING:
    from rendering.replay import Layout

FORMAT = "admiralty-game"
FORMAT_VERSION = 1
MAX_FRAMES = 80  # frames drawn at most (moves spread evenly; the first and last always kept)
MAX_EXPORT_ACTIONS = 100_000
# At most one replay of a game is posted in its channel in this many seconds (a GIF of megabytes in
# everyone's channel); other asks within it are answered privately. Held in the meta row
# ``replay:<game>`` (the time of the last public one), so every process keeps to it.
PUBLIC_REPLAY_EVERY = 600.0
# the badges' shapes (rendering.theme.SEAT_SHAPES) as words of the log, said in its reader's language
SHAPE_WORDS = {
    "circle": N_("circle"),
    "square": N_("square"),
    "triangle": N_("triangle"),
    "diamond": N_("diamond"),
    "hexagon": N_("hexagon"),
    "pentagon": N_("pentagon"),
}


class ReplayError(Exception):
    """A replay or export that cannot be made; the message is shown to the user (a Phrase, said in
    their language; a log that does not replay is told in English: it is for whoever made the file)."""


NOT_DRAWN = Phrase(N_("its pictures could not be drawn just now; please try again later"))


@dataclass
class Replay:
    game_key: str
    title: str
    names: list[str]
    moves: int  # the game's move number at its end (``move_number``: the moves that stand)
    animation: bytes  # GIF
    pictures: list  # the frames (PIL images in the GIF's 256 colours, landscape, all one size)
    log: str
    game: Game  # the rebuilt game, after the last action
    frame_moves: list[int] = field(default_factory=list)  # the move number each frame shows (0: the start)
    # the caption under each frame, as words: a seat (drawn as its badge) spelled as its colour
    captions: list[list[str]] = field(default_factory=list)
    numbered: bool = False  # the captions are move numbers only: the font lacks the reader's letters

    @property
    def frame_count(self) -> int:
        return len(self.pictures)

    def alt_text(self, speaker: Voice = ENGLISH) -> str:
        """What the GIF shows, for a screen reader (cut to 256 characters by whoever attaches it), in the
        language of ``speaker``: the game, how many moves and pictures, and the game's own sentence for
        its last picture."""
        end = " ".join(self.game.alt_text(self.game.view(None), self.names, **in_language(speaker)).split())
        text = speaker.ngettext(
            "Replay of {game}: {n} move in {pictures} pictures, start to end.",
            "Replay of {game}: {n} moves in {pictures} pictures, start to end.",
            self.moves,
            game=speaker.gettext(self.title),
            pictures=self.frame_count,
        )
        return speaker.gettext("{replay} At the end: {end}", replay=text, end=end) if end else text

    def badge_names(self, escape: Callable[[str], str] = str) -> str:
        """Whose badge is whose (the pictures name no one): "1 Alice, 2 Bob", names through ``escape``."""
        return ", ".join(f"{seat + 1} {escape(name)}" for seat, name in enumerate(self.names))

    @property
    def frames(self) -> list[bytes]:
        """The frames as PNG files (encoded on demand: the GIF does not need them)."""
        out = []
        for img in self.pictures:
            buf = io.BytesIO()
            img.save(buf, format="PNG")
            out.append(buf.getvalue())
        return out


@dataclass(frozen=True)
class Record:
    """What a replay is made from: a stored game, or an export read back."""

    game_id: int | None
    game_key: str
    options: dict
    seed: int
    names: list[str]
    actions: list[tuple[int, dict]]  # (seat, action), host records ({"host": ...}) included
    result: dict | None
    finished: bool
    user_ids: tuple[int | None, ...] = ()  # the seats' members (None: an AI seat); empty from an export


def may_export(record: Record, user_id: int, manage_server: bool) -> None:
    """Refuses (ReplayError, a sentence) to export ``record`` to ``user_id`` unless they played in it or
    may manage the server: an export holds every move, secret ones included (hands can be rebuilt)."""
    if user_id in record.user_ids or manage_server:  # a seat handed to the AI keeps its member
        return
    raise ReplayError(
        Phrase(
            N_(
                "Only the players of game #{id} and members with Manage Server may export it: an export holds "
                "every move, secret ones included. Replay it instead to watch it."
            ),
            id=record.game_id,
        )
    )


def record_of(row: GameRow, seats: Sequence[SeatRow], actions: Sequence[ActionRow]) -> Record:
    for expected, act in enumerate(actions, start=1):
        if act.seq != expected:
            raise ReplayError(
                Phrase(N_("The action log of game #{id} is incomplete; it cannot be replayed."), id=row.id)
            )
    return Record(
        row.id,
        row.game_key,
        dict(row.options),
        int(row.seed),
        [s.name for s in seats],
        [(a.seat, a.action) for a in actions],
        row.result,
        row.status == "finished",
        tuple(s.user_id for s in seats),
    )


async def load(
    storage, game_id: int, guild_id: int | None, channels: Collection[int] | None = None
) -> Record:
    """The record of a finished game of this server (``guild_id``) and, when ``channels`` is given,
    opened in one of those channels (the ones the person asking can see); ReplayError (a sentence)
    when it does not exist here, is out of sight or is not finished."""
    found = await storage.load_table(game_id) if 0 < game_id < 2**63 else None
    if found is None or found[0].guild_id != guild_id:
        raise ReplayError(Phrase(N_("There is no game #{id} in this server."), id=game_id))
    row, seats = found
    if channels is not None and row.channel_id not in channels:
        raise ReplayError(Phrase(N_("Game #{id} was played in a channel you cannot see."), id=game_id))
    if row.status != "finished":
        why = {
            "abandoned": N_("Game #{id} was abandoned: only finished games can be replayed or exported."),
            "suspended": N_("Game #{id} is suspended: only finished games can be replayed or exported."),
        }.get(row.status, N_("Game #{id} is not over yet: only finished games can be replayed or exported."))
        raise ReplayError(Phrase(why, id=game_id))
    return record_of(row, seats, await storage.actions(game_id))


async def claim_public(storage, game_id: int, now: float, every: float = PUBLIC_REPLAY_EVERY) -> float | None:
    """Take game ``game_id``'s public replay: None when it may be posted in the channel now (the time
    is stored as its last), else the time the last public one was posted (within ``every`` seconds).
    A compare-and-set on the meta row ``replay:<game>``: of two processes asking at once, one posts."""
    key = f"replay:{game_id}"
    for _ in range(5):
        old = await storage.get_meta(key)
        try:
            last = float(old) if old is not None else None
        except ValueError:
            last = None  # (a value this code never writes: taken as no replay)
        if last is not None and abs(now - last) < every:
            return last
        if await storage.swap_meta(key, old, f"{now:.3f}"):
            return None
    return now  # another process keeps taking it: it just posted one


async def release_public(storage, game_id: int, claimed: float) -> None:
    """Give back the public replay taken at ``claimed`` (none was posted after all)."""
    await storage.swap_meta(f"replay:{game_id}", f"{claimed:.3f}", None)


# ----- export ------------------------------------------------------------------
def export_doc(record: Record) -> dict:
    """The export of a finished game as a JSON-able dict."""
    return {
        "format": FORMAT,
        "version": FORMAT_VERSION,
        "game": record.game_key,
        "id": record.game_id,
        "options": record.options,
        "seed": record.seed,
        "players": list(record.names),
        "actions": [{"seat": seat, "action": action} for seat, action in record.actions],
        "result": record.result,
    }


def export_json(record: Record) -> bytes:
    return (json.dumps(export_doc(record), ensure_ascii=False, indent=1) + "\n").encode("utf-8")


ACTION_SHAPE = '{"seat": n, "action": {...}}'  # an export's action, as a refusal shows it


def read_export(data: bytes | str | dict) -> Record:
    """An export read back and checked (ReplayError with what is wrong)."""
    if not isinstance(data, dict):
        try:
            data = json.loads(data)
        except json.JSONDecodeError as e:  # where, not Python's English words for what
            raise ReplayError(
                Phrase(N_("not a JSON file (line {line}, column {column})"), line=e.lineno, column=e.colno)
            ) from None
        except ValueError:  # not UTF-8 text (UnicodeDecodeError)
            raise ReplayError(Phrase(N_("not a JSON file (not UTF-8 text)"))) from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ReplayError(
            Phrase(N_('not an Admiralty game export ("format" must be {format})'), format=repr(FORMAT))
        )
    if data.get("version") != FORMAT_VERSION:
        raise ReplayError(
            Phrase(
                N_("export format version {found}; this Admiralty reads {version}"),
                found=repr(data.get("version")),
                version=FORMAT_VERSION,
            )
        )
    key = data.get("game")
    if not isinstance(key, str) or key not in registry:
        raise ReplayError(Phrase(N_("unknown game {key}"), key=repr(key)))
    spec = registry.get(key)
    players, options, seed = data.get("players"), data.get("options"), data.get("seed")
    if not (
        isinstance(players, list)
        and all(isinstance(p, str) for p in players)
        and spec.min_players <= len(players) <= spec.max_players
    ):
        raise ReplayError(
            Phrase(
                N_('"players" must be {least}–{most} names'), least=spec.min_players, most=spec.max_players
            )
        )
    if not isinstance(options, dict) or type(seed) is not int:
        raise ReplayError(Phrase(N_('"options" must be an object and "seed" a whole number')))
    actions = data.get("actions")
    if not isinstance(actions, list) or len(actions) > MAX_EXPORT_ACTIONS:
        raise ReplayError(Phrase(N_('"actions" must be a list of {shape}'), shape=ACTION_SHAPE))
    out = []
    for n, item in enumerate(actions, start=1):
        if not (
            isinstance(item, dict) and type(item.get("seat")) is int and isinstance(item.get("action"), dict)
        ):
            raise ReplayError(Phrase(N_("action {n}: expected {shape}"), n=n, shape=ACTION_SHAPE))
        out.append((item["seat"], item["action"]))
    result = data.get("result")
    gid = data.get("id")
    return Record(
        gid if type(gid) is int else None,
        key,
        options,
        seed,
        players,
        out,
        result if isinstance(result, dict) else None,
        isinstance(result, dict),
    )


# ----- replay --------------------------------------------------------------------
def _result_line(record: Record, speaker: Voice = ENGLISH) -> str:
    from bot.summary import and_list, reason_of

    _ = speaker.gettext
    result = record.result or {}
    winners = [int(w) for w in result.get("winners", []) if str(w).isdigit()]
    resigned = [int(s) for s in result.get("resigned", []) if str(s).isdigit()]
    parts = []
    if resigned:
        players = and_list([seat_name(s, record.names) for s in resigned], speaker)
        parts.append(_("{players} resigned", players=players))
    if winners:
        parts.append(_("won by {players}", players=", ".join(seat_name(w, record.names) for w in winners)))
    elif record.finished:
        parts.append(_("nobody won"))
    if result.get("reason"):
        parts.append(fill_names(speaker.say(reason_of(result)), record.names))
    return _("Result: {result}", result="; ".join(parts) if parts else _("over"))


def badge_words(seat: int, speaker: Voice = ENGLISH) -> str:
    """A seat's badge in the pictures, in words: "1 Blue circle"."""
    from rendering import theme

    shape = theme.SEAT_SHAPES[seat % len(theme.SEAT_SHAPES)]
    return f"{seat + 1} {colour(seat, speaker)} {speaker.gettext(SHAPE_WORDS.get(shape, shape))}"


def _position_before(record: Record, seq: int) -> Game:
    """The game as it stood just before action ``seq`` of ``record`` (host rows skipped, and the moves
    undone by an undo among the actions before it)."""
    before = record.actions[: seq - 1]
    undone = {a.get("undoes") for _, a in before if a.get("host") == "undo"}
    game = registry.get(record.game_key).new(len(record.names), record.options, record.seed)
    for n, (seat, action) in enumerate(before, start=1):
        if not is_host_action(action) and n not in undone:
            try:
                game.apply(seat, action)
            except IllegalAction as e:
                raise ReplayError(
                    f"move {n} does not replay ({e}): the log does not match the rules"
                ) from None
    return game


def _rebuild_steps(record: Record):
    """The game, then for every action (n, seat, action, public event texts with their seat
    references, public view, the move number after it) in order. The move number (``move_number``)
    counts the moves that stand: an undo takes one back, a host row (a resignation) is none."""
    spec = registry.get(record.game_key)
    try:
        game = spec.new(len(record.names), record.options, record.seed)
    except IllegalAction as e:
        raise ReplayError(f"the game cannot be set up again: {e}") from None
    yield game
    number = 0
    numbers: dict[int, int] = {}  # an engine move's seq -> its move number
    for n, (seat, action) in enumerate(record.actions, start=1):
        number += move_step(action)
        if action.get("host") == "undo":
            # Undo by agreement: the game goes back to the position before the move it names (rebuilt
            # from the seed and the log before that move; the moves since were all undone).
            undoes = action.get("undoes")
            if not (type(undoes) is int and 0 < undoes < n):
                raise ReplayError(f"action {n}: an undo must name an earlier move")
            restored = _position_before(record, undoes)
            game.state = restored.state  # in place (the caller holds this engine): state and generator
            game.rng.setstate(restored.rng.getstate())  # are all a game holds
            yield (
                n,
                seat,
                action,
                [
                    Phrase(
                        N_("{player}'s move {n} was taken back."),
                        player=who(seat),
                        n=numbers.get(undoes, "?"),
                    )
                ],
                game.view(None),
                number,
            )
            continue
        if is_host_action(action):
            texts: list[str] = (
                [Phrase(N_("{player} resigned."), player=who(seat))] if action.get("host") == "resign" else []
            )
            yield n, seat, action, texts, None, number
            continue
        numbers[n] = number
        try:
            events = game.apply(seat, action)
        except IllegalAction as e:
            raise ReplayError(f"move {n} does not replay ({e}): the log does not match the rules") from None
        # a Phrase stays one (a str in English): the study says it in its reader's language
        texts = [
            t if isinstance(t := e["text"], str) else str(t)
            for e in events
            if "private_to" not in e and e.get("text")
        ]
        yield n, seat, action, texts, game.view(None), number


@dataclass
class Plan:
    """A replay before it is drawn: the game rebuilt, its log, and the views to draw."""

    record: Record
    title: str
    moves: int
    log: str
    game: Game
    # (move number, public view, caption) of each frame; the caption's seats as ``who(seat)``
    shots: list[tuple[int, dict, list[str]]]
    numbered: bool = False  # the captions are move numbers only (:func:`drawn_captions`)


def plan(record: Record, max_frames: int = MAX_FRAMES, speaker: Voice = ENGLISH) -> Plan:
    """Rebuild ``record`` move by move: its log, and the public views a replay draws (the last one the
    game's ``final_reveal()`` when the game finished), at most ``max_frames`` spread evenly. The log
    and the captions in the language of ``speaker``; a caption the pictures' font cannot draw in it
    (its letters: :func:`drawn_captions`) is left to the log and the message beside the GIF."""
    from rendering import replay as anim

    spec = registry.get(record.game_key)
    steps = _rebuild_steps(record)
    game: Game = next(steps)
    names = list(record.names)
    total = move_number(action for _, action in record.actions)
    # (move, view, caption) of every distinct public picture, the start first
    start = game.view(None)
    shots: list[tuple[int, dict, list[str]]] = [(0, start, [Phrase(N_("Start of the game"))])]
    last_key = canonical(start)
    _ = speaker.gettext
    title = speaker.say(Phrase(spec.title))
    players = ", ".join(f"{badge_words(s, speaker)}: {n}" for s, n in enumerate(names))
    head = [
        _("Admiralty — {title}, game #{id}", title=title, id=record.game_id)
        if record.game_id
        else _("Admiralty — {title}", title=title),
        _(
            "Players (in the pictures each is a badge: its number on its colour and shape): {players}",
            players=players,
        ),
        "",
    ]
    lines: list[str] = []
    for _seq, _seat, action, texts, view, number in steps:
        # a move's lines carry its number; a host row's (a resignation, an undo) a dash
        lines.extend(
            f"{number}. {fill_names(speaker.say(t), names)}"
            if move_step(action) == 1
            else f"— {fill_names(speaker.say(t), names)}"
            for t in texts
        )
        if view is None:
            continue
        key = canonical(view)
        if key == last_key:
            continue  # nothing public changed (a private choice): no frame
        last_key = key
        caption = (
            Phrase(N_("Move {n} of {total} · {event}"), n=number, total=total, event=texts[-1])
            if texts
            else Phrase(N_("Move {n} of {total}"), n=number, total=total)
        )
        shots.append((number, view, [caption]))
    tail = []
    if record.finished:
        final = game.final_reveal()
        reveal = [fill_names(speaker.say(t), names) for t in (final.get("reveal") or [])]
        # the reveal in full is in the log; the frame has a short form (the game's, or a pointer)
        short = final.get("reveal_short") or (
            Phrase(N_("Revealed at the end: see the log")) if reveal else ""
        )
        shots.append((total, final, [Phrase(N_("Final position")), *([short] if short else [])]))
        tail = ["", _result_line(record, speaker)]
        if reveal:
            tail += ["", _("Revealed at the end:"), *reveal]
    log = "\n".join(head + lines + tail) + "\n"
    chosen = [shots[i] for i in anim.pick(len(shots), max_frames)]
    said, worded = drawn_captions([(move, caption) for move, _, caption in chosen], total, speaker)
    chosen = [(move, view, caption) for (move, view, _), caption in zip(chosen, said, strict=True)]
    return Plan(record, spec.title, total, log, game, chosen, numbered=not worded)


def drawn_captions(
    captions: list[tuple[int, list[str]]], total: int, speaker: Voice = ENGLISH
) -> tuple[list[list[str]], bool]:
    """The frames' captions (each with its move number) in the language of ``speaker`` when the
    pictures' font draws every letter of them (seat references stay ``who(seat)``: drawn as badges);
    else, for the whole replay, only the move numbers ("12/80", no words to translate), the words being
    in the log and the message beside the GIF (a letter the font lacks would be drawn without its
    accent, or not at all). With whether they are in words."""
    from rendering import theme
    from rendering.replay import PLAIN

    said = [[speaker.say(line) for line in caption] for _, caption in captions]
    words = "".join(TOKEN.sub("", line).translate(PLAIN) for caption in said for line in caption)
    if language_of(speaker) == "en" or not theme.missing_glyphs(words):
        return said, True
    return [[f"{move}/{total}"] for move, _ in captions], False


def replay(
    record: Record, *, max_frames: int = MAX_FRAMES, max_bytes: int | None = None, speaker: Voice = ENGLISH
) -> Replay:
    """Rebuild ``record`` and draw it, here and now (offline: ``python -m bot replay``): a GIF of the
    public views, each frame and the log text. The bot draws through its pool instead (:func:`make`)."""
    import rendering
    from rendering import replay as anim

    made = plan(record, max_frames, speaker)
    pictures = []
    if rendering.has_renderer(record.game_key):
        pngs = [rendering.render(record.game_key, view, made.record.names) for _, view, _ in made.shots]
        laid = _layout(pngs, made)
        colours = anim.gif_palette(pngs[0], pngs[-1], laid)
        pictures = [
            anim.gif_frame(png, caption, laid.size, laid, colours)
            for png, (_, _, caption) in zip(pngs, made.shots, strict=True)
        ]
    return _finish(made, pictures, max_bytes)


def _layout(pngs: list[bytes], made: Plan) -> Layout:
    """How the GIF's frames are laid out (``rendering.replay.layout``: one size, one scale)."""
    from rendering import replay as anim

    return anim.layout([(png, caption) for png, (_, _, caption) in zip(pngs, made.shots, strict=True)])


def _finish(made: Plan, pictures: list, max_bytes: int | None) -> Replay:
    from rendering import replay as anim

    kwargs = {"max_bytes": max_bytes} if max_bytes else {}
    animation = anim.animate(pictures, **kwargs) if pictures else b""
    record = made.record
    return Replay(
        record.game_key,
        made.title,
        list(record.names),
        made.moves,
        animation,
        pictures,
        made.log,
        made.game,
        [m for m, _, _ in made.shots],
        [[fill_names(line) for line in caption] for _, _, caption in made.shots],
        made.numbered,
    )


_gates: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


async def make(
    record: Record,
    drawing: Drawing | None = None,
    *,
    max_frames: int = MAX_FRAMES,
    max_bytes: int | None = None,
    speaker: Voice = ENGLISH,
) -> Replay:
    """:func:`replay` for the bot: the game rebuilt on a worker thread, the frames drawn by ``drawing``
    (its pool of processes, side by side; a view the table already showed is taken from its cache)
    and captioned and reduced to 256 colours there too, the GIF put together on a thread. One replay
    at a time per process: a second request waits rather than slowing every game down. The log and the
    captions in the language of ``speaker`` (:func:`plan`)."""
    import rendering
    from rendering import replay as anim

    loop = asyncio.get_running_loop()
    gate = _gates.get(loop)
    if gate is None:
        gate = _gates[loop] = asyncio.Semaphore(1)
    async with gate:
        if drawing is None:
            return await asyncio.to_thread(
                replay, record, max_frames=max_frames, max_bytes=max_bytes, speaker=speaker
            )
        made = await asyncio.to_thread(plan, record, max_frames, speaker)
        pictures = []
        if rendering.has_renderer(record.game_key):
            drawn = await asyncio.gather(
                *(
                    drawing.picture(record.game_key, view, list(record.names), game_id=record.game_id)
                    for _, view, _ in made.shots
                )
            )
            pngs = [png for png in drawn if png is not None]
            if len(pngs) < len(drawn):
                raise ReplayError(NOT_DRAWN)
            laid = await asyncio.to_thread(_layout, pngs, made)
            try:
                colours = await drawing.run(anim.gif_palette, pngs[0], pngs[-1], laid)
                pictures = await asyncio.gather(
                    *(
                        drawing.run(anim.gif_frame, png, caption, laid.size, laid, colours)
                        for png, (_, _, caption) in zip(pngs, made.shots, strict=True)
                    )
                )
            except BrokenProcessPool:
                raise ReplayError(NOT_DRAWN) from None
        return await asyncio.to_thread(_finish, made, list(pictures), max_bytes)


def write_offline(path: str | Path, out: str | Path, *, max_frames: int = MAX_FRAMES) -> dict:
    """``python -m bot replay FILE --out DIR``: an export rebuilt into DIR (frame-NNN.png, replay.gif,
    log.txt and final.json, the game's state after the last action). Returns what was written."""
    record = read_export(Path(path).read_bytes())
    result = replay(record, max_frames=max_frames)
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for i, png in enumerate(result.frames):  # PNG, in the GIF's colours
        name = out / f"frame-{i:03d}.png"
        name.write_bytes(png)
        written.append(name)
    if result.animation:
        (out / "replay.gif").write_bytes(result.animation)
        written.append(out / "replay.gif")
    (out / "log.txt").write_text(result.log, "utf-8")
    (out / "final.json").write_text(result.game.to_json(), "utf-8")
    written += [out / "log.txt", out / "final.json"]
    return {
        "frames": result.frame_count,
        "moves": result.moves,
        "files": [str(p) for p in written],
        "over": result.game.is_over,
    }
