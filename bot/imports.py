"""/game import: an export file checked move by move, and the exports that carry what it checks.

An export (``bot.replay.export_doc``) is written here with two more fields: ``"final"``, the SHA-256
of the game's state after its last action (the engine's ``to_json``), and ``"digest"``, the SHA-256 of
the whole document but the digest itself (canonical JSON). Neither is a signature: anyone may compute
them. The digest says a file was not changed since it was exported (a byte changed by hand, a cut
copy); the final digest says the moves still lead where they led when the game was played (the rules
may have changed since). A file without them (an older export, another bot's) is checked by its
replay alone.

:func:`check` reads a file and refuses it (:class:`ImportRefused`, a sentence for the person who sent
it) unless: it is at most :data:`MAX_IMPORT_BYTES`, JSON of the export's shape, of a game this bot
knows at a format version it reads; every move replays through the engine from the seed and options;
the moves finish the game (exports are of finished games only) with the result the file records; and
the digests, when present, match. What it returns is the game to store: its final state and result.

An imported game is stored as a finished game of the server it was imported into, its seats names
only (no member: ``user_id`` NULL), not rated, its result carrying ``"imported"``: where it came from
(the file's ``origin`` and game number), who imported it and when. Its export gives back the file it
came from (:func:`export_doc`), so export -> import -> export is the same document.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any

from bot import replay
from bot.games import registry
from bot.games.base import canonical
from bot.games.names import clean_name
from bot.games.phrase import ENGLISH, N_, Phrase, Voice

MAX_IMPORT_BYTES = 2 * 1024 * 1024  # an export of a long game is some hundred KB
IMPORTS_PER_DAY = 20  # per server, per UTC day: imports fill the server's shared history
ORIGIN_FIELDS = ("app", "server")  # what an export says of where it was played
ORIGIN_MAX = 100  # characters of each


def _said(error: Exception) -> str:
    """An error's text as given: a Phrase stays one (said in the reader's language)."""
    return error.args[0] if error.args and isinstance(error.args[0], str) else str(error)


class ImportRefused(Exception):
    """An export that cannot be imported; the message (a sentence) says why."""


@dataclass(frozen=True)
class Checked:
    """An export that passed :func:`check`: what the game's rows are made of."""

    record: replay.Record
    state_json: str  # the engine's state after the last action
    result: dict  # the result the file records (the engine's, or a resignation's)
    origin: dict[str, str]  # where the file says it was played ({} when it does not say)
    source_id: int | None  # the game's number where it was played


# ----- export -------------------------------------------------------------------------------------
def sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def document_digest(doc: dict) -> str:
    """The digest of an export: SHA-256 of its canonical JSON without the ``digest`` field."""
    return sha256(canonical({k: v for k, v in doc.items() if k != "digest"}))


def final_state(record: replay.Record) -> str:
    """The engine's state (``to_json``) after the last action of ``record`` (ReplayError if it does not
    replay)."""
    steps = replay._rebuild_steps(record)
    game = next(steps)
    for _ in steps:
        pass
    return game.to_json()


def imported_of(record: replay.Record) -> dict | None:
    """The import mark of a stored game's record (None: a game played here)."""
    mark = (record.result or {}).get("imported")
    return mark if isinstance(mark, dict) else None


def export_doc(record: replay.Record, server: str | None) -> dict:
    """The export of a finished game, with its origin, final digest and digest. A game played here says
    this server (``server``, its name); an imported game gives back the file it came from: its number
    and origin there, and its result without the import mark."""
    mark = imported_of(record)
    doc = replay.export_doc(record)
    if mark is not None:
        doc["id"] = mark.get("id")
        doc["result"] = {k: v for k, v in (record.result or {}).items() if k != "imported"}
        origin = mark.get("origin") or {}
    else:
        origin = {"app": "Admiralty", **({"server": server} if server else {})}
    for field in ("options", "actions", "result"):  # keys in order, as storage keeps them: the same
        doc[field] = json.loads(canonical(doc[field]))  # game exports to the same bytes wherever it is
    if origin:
        doc["origin"] = origin
    doc["final"] = sha256(final_state(record))
    doc["digest"] = document_digest(doc)
    return doc


def export_json(record: replay.Record, server: str | None) -> bytes:
    return (json.dumps(export_doc(record, server), ensure_ascii=False, indent=1) + "\n").encode("utf-8")


# ----- import -------------------------------------------------------------------------------------
def _origin(doc: dict) -> dict[str, str]:
    origin = doc.get("origin")
    if origin is None:
        return {}
    if not (
        isinstance(origin, dict)
        and set(origin) <= set(ORIGIN_FIELDS)
        and all(isinstance(v, str) and 0 < len(v) <= ORIGIN_MAX for v in origin.values())
    ):
        raise ImportRefused(
            Phrase(
                N_('"origin" must be an object of {fields} (short texts) when present.'),
                fields=", ".join(ORIGIN_FIELDS),
            )
        )
    return {k: origin[k] for k in ORIGIN_FIELDS if k in origin}


def _check_names(names: list[str]) -> None:
    for seat, name in enumerate(names, start=1):
        if clean_name(name, "") != name:
            raise ImportRefused(
                Phrase(
                    N_("Player {seat}'s name is empty, too long, or holds control or invisible characters."),
                    seat=seat,
                )
            )


def _check_seats(record: replay.Record) -> None:
    if not -(2**63) <= record.seed < 2**63:  # a database keeps 64 bits
        raise ImportRefused(Phrase(N_("The seed is out of range: it must be a 64-bit whole number.")))
    players = len(record.names)
    for n, (seat, _action) in enumerate(record.actions, start=1):
        if not 0 <= seat < players:
            raise ImportRefused(
                Phrase(
                    N_("Action {n} is made by seat {seat}, but the game has {players} seats."),
                    n=n,
                    seat=seat,
                    players=players,
                )
            )


def _replay(record: replay.Record) -> tuple[Any, tuple[int, dict] | None]:
    """The engine after every action, and the last action when it is a resignation (else None).
    Refuses a move that does not replay, and a move after the game ended."""
    try:
        steps = replay._rebuild_steps(record)
        game = next(steps)
    except replay.ReplayError as e:
        raise ImportRefused(
            Phrase(N_("The game cannot be set up from its seed and options: {reason}."), reason=_said(e))
        ) from None
    except Exception as e:  # an option the engine cannot take (a wrong type): the file is wrong
        raise ImportRefused(
            Phrase(N_("The game cannot be set up from its seed and options ({reason})."), reason=repr(e))
        ) from None
    last_resign = None
    n = 0
    try:
        while True:
            if game.is_over and n < len(record.actions):
                raise ImportRefused(Phrase(N_("Action {n} comes after the game was over."), n=n + 1))
            try:
                n, seat, action, *_ = next(steps)
            except StopIteration:
                break
            last_resign = (seat, action) if action.get("host") == "resign" else None
    except replay.ReplayError as e:
        said = _said(e)
        raise ImportRefused(said if isinstance(said, Phrase) else f"{said[:1].upper()}{said[1:]}.") from None
    except ImportRefused:
        raise
    except Exception as e:  # an engine that trips on a malformed move: that move is not legal
        raise ImportRefused(
            Phrase(
                N_("Move {n} does not replay ({reason}): it is not a legal move."), n=n + 1, reason=repr(e)
            )
        ) from None
    return game, last_resign


def _check_result(record: replay.Record, game: Any, resign: tuple[int, dict] | None) -> dict:
    result = record.result
    if not isinstance(result, dict):
        raise ImportRefused(Phrase(N_("The export records no result: only finished games can be imported.")))
    if game.is_over:
        expected = game.result
        if canonical(result) != canonical(expected):
            raise ImportRefused(
                Phrase(
                    N_("The export records the result {recorded}, but its moves end with {replayed}."),
                    recorded=canonical(result)[:200],
                    replayed=canonical(expected)[:200],
                )
            )
        return result
    if resign is None:
        raise ImportRefused(
            Phrase(N_("The moves do not finish the game: only finished games can be imported."))
        )
    seat = resign[0]
    winners = result.get("winners")
    if (
        result.get("resigned") != [seat]
        or not isinstance(winners, list)
        or not all(type(w) is int and 0 <= w < len(record.names) and w != seat for w in winners)
    ):
        raise ImportRefused(
            Phrase(
                N_(
                    "The game ends with a resignation of seat {seat}, but the recorded result does not say so."
                ),
                seat=seat + 1,
            )
        )
    return result


def check(data: bytes) -> Checked:
    """The export ``data`` checked (see the module's docstring); ImportRefused says what is wrong."""
    if len(data) > MAX_IMPORT_BYTES:
        raise ImportRefused(
            Phrase(N_("The file is larger than {most} MiB."), most=MAX_IMPORT_BYTES // (1024 * 1024))
        )
    try:
        record = replay.read_export(data)
    except replay.ReplayError as e:
        raise ImportRefused(
            Phrase(N_("This is no game export I can read: {reason}."), reason=_said(e))
        ) from None
    doc = json.loads(data)
    origin = _origin(doc)
    digest = doc.get("digest")
    if digest is not None and digest != document_digest(doc):
        raise ImportRefused(
            Phrase(N_("The file was changed after it was exported: its digest does not match its content."))
        )
    _check_names(record.names)
    _check_seats(record)
    game, resign = _replay(record)
    result = _check_result(record, game, resign)
    state = game.to_json()
    final = doc.get("final")
    if final is not None and final != sha256(state):
        raise ImportRefused(
            Phrase(
                N_(
                    "The moves replay to another final position than the export recorded: the rules of "
                    "{game} may have changed since it was played."
                ),
                game=Phrase(registry.get(record.game_key).title),
            )
        )
    return Checked(record, state, result, origin, record.game_id)


async def store(
    storage: Any,
    checked: Checked,
    *,
    guild_id: int,
    channel_id: int,
    thread_id: int | None,
    by: int,
    cap: int = IMPORTS_PER_DAY,
    now: float | None = None,
) -> int:
    """Store a checked export as a finished game of ``guild_id`` opened in ``channel_id`` (its thread
    ``thread_id``), imported by member ``by``: its new id (ImportCapReached past the day's ``cap``)."""
    record = checked.record
    mark = {"origin": checked.origin, "id": checked.source_id, "by": by}
    return await storage.add_imported_game(
        guild_id=guild_id,
        channel_id=channel_id,
        thread_id=thread_id,
        game_key=record.game_key,
        options=record.options,
        seed=record.seed,
        names=record.names,
        actions=record.actions,
        state_json=checked.state_json,
        result={**checked.result, "imported": mark},
        cap=cap,
        now=now,
    )


def origin_text(mark: dict | None, speaker: Voice = ENGLISH) -> str:
    """Where an imported game came from, in the language of ``speaker`` ("Admiralty on Fake Guild,
    game #12"; "" if unsaid)."""
    if not mark:
        return ""
    origin = mark.get("origin") or {}
    app, server = origin.get("app"), origin.get("server")
    number = mark["id"] if type(mark.get("id")) is int else None
    if app and server:
        where = speaker.gettext("{app} on {server}", app=str(app), server=str(server))
    elif server:
        where = speaker.gettext("a server named {server}", server=str(server))
    else:
        where = str(app) if app else ""
    if number is None:
        return where
    if not where:
        return speaker.gettext("game #{id}", id=number)
    return speaker.gettext("{place}, game #{id}", place=where, id=number)
