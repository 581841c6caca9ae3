"""The step-through of a finished game (played here or imported): one position at a time, privately.

A game of A actions has A + 2 *steps*: 0, the start; n (1..A), the position after action n; A + 1, the
final position, the game's ``final_reveal()`` (what the rules reveal at the end, as the replay's last
frame). Every other step shows the spectator view, ``view(None)``, and the public texts of its action
(events with "private_to" are left out), exactly as the replay does (bot/replay.py): nothing of a
seat's hidden information. A step is rebuilt from the seed each time (the engine, no picture: fast);
its picture is drawn by the drawing pool, which keeps it, so each position is drawn once.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot import replay
from bot.ai_seats import said_name
from bot.games.names import fill_names, who
from bot.games.phrase import ENGLISH, N_, Phrase, Voice
from bot.menus import in_language
from bot.storage import move_step
from bot.summary import reason_of

GO_TO_OPTIONS = 25  # the entries of the "Go to move…" select (Discord's most)


@dataclass(frozen=True)
class Frame:
    step: int
    steps: int  # how many steps the game has (the last is steps - 1)
    move: int  # the move number at this step (``move_number``: the moves that stand)
    moves: int  # the game's move number at its end
    view: dict  # what the picture shows: the spectator view, or the final reveal
    lines: list[str]  # what happened, in words (names filled in and escaped for markdown)
    alt: str  # the picture's sentence for a screen reader
    final: bool


def step_count(record: replay.Record) -> int:
    return len(record.actions) + 2


def move_numbers(record: replay.Record) -> list[int]:
    """The move number at every step but the final one (from the log alone, no engine)."""
    numbers = [0]
    for _seat, action in record.actions:
        numbers.append(numbers[-1] + move_step(action))
    return numbers


def step_of_move(record: replay.Record, move: int) -> int:
    """The step that shows move ``move`` (the first position with that move number; past the end: the
    final position; 0 or less: the start)."""
    numbers = move_numbers(record)
    if move > numbers[-1]:
        return len(numbers)
    return next((step for step, number in enumerate(numbers) if number >= move), 0)


def frame(record: replay.Record, step: int, speaker: Voice = ENGLISH) -> Frame:
    """Step ``step`` (clamped to the game's) of ``record``, rebuilt from its seed (ReplayError if the log
    does not replay), its words in the language of ``speaker``."""
    total = step_count(record)
    step = max(0, min(int(step), total - 1))
    names = [said_name(name, speaker) for name in record.names]
    steps = replay._rebuild_steps(record)
    game = next(steps)
    view, number = game.view(None), 0
    texts: list[str] = [Phrase(N_("The start: nothing is played yet."))]
    for n, seat, action, said, shown, number in steps if step > 0 else ():
        if shown is not None:
            view = shown
        if n == step:
            texts = said or [Phrase(N_("{player} made a move that only its player sees."), player=who(seat))]
            if move_step(action) == 1:
                texts = [Phrase(N_("Move {n}: {text}"), n=number, text=t) for t in texts]
            break
    final = step == total - 1
    if final:
        reveal = game.final_reveal()
        view = reveal
        texts = [
            *result_lines(record),
            *(t if isinstance(t, str) else str(t) for t in (reveal.get("reveal") or [])),
        ]
    lines = [fill_names(speaker.say(t), names, markdown=True) for t in texts]
    alt = " ".join(game.alt_text(view, names, **in_language(speaker)).split())
    return Frame(step, total, number, move_numbers(record)[-1], view, lines, alt, final)


def result_lines(record: replay.Record) -> list[str]:
    """How a game ended, as the study's final step says it (seats as ``who(seat)``, said by its reader):
    who resigned, who won, and why when the game said why."""
    result = record.result or {}
    winners = [int(w) for w in result.get("winners", []) if str(w).isdigit()]
    resigned = [int(s) for s in result.get("resigned", []) if str(s).isdigit()]
    won = ", ".join(who(w) for w in winners)
    gave_up = ", ".join(who(s) for s in resigned)
    if resigned and winners:
        line = Phrase(N_("Result: {players} resigned; won by {winners}."), players=gave_up, winners=won)
    elif resigned:
        line = Phrase(N_("Result: {players} resigned."), players=gave_up)
    elif winners:
        line = Phrase(N_("Result: won by {winners}."), winners=won)
    elif record.finished:
        line = Phrase(N_("Result: nobody won."))
    else:
        line = Phrase(N_("Result: over."))
    reason = reason_of(result) if result.get("reason") else ""
    return [line, reason] if reason and not resigned else [line]


def _start(speaker: Voice) -> str:
    """ "Start" as the position before the first move, not the lobby's button (a word of its own)."""
    pgettext = getattr(speaker, "pgettext", None)  # bot.i18n.Speaker's; the source is English
    return pgettext("position", "Start") if pgettext is not None else "Start"


def heading(frame: Frame, speaker: Voice = ENGLISH) -> str:
    """ "Move 3 of 42 · step 4 of 44"; "Start · …"; "Final position · …" (in the reader's language)."""
    _ = speaker.gettext
    where = (
        _("Final position")
        if frame.final
        else (
            _start(speaker) if frame.step == 0 else _("Move {n} of {moves}", n=frame.move, moves=frame.moves)
        )
    )
    return f"{where} · " + _("step {n} of {steps}", n=frame.step + 1, steps=frame.steps)


def go_to_steps(record: replay.Record, frame: Frame, speaker: Voice = ENGLISH) -> list[tuple[int, str]]:
    """The entries of the "Go to move…" select: (step, label), the start, the final position, and
    moves spread evenly between (at most :data:`GO_TO_OPTIONS`, one per move number)."""
    numbers = move_numbers(record)
    last = frame.steps - 1
    inner = GO_TO_OPTIONS - 2
    moves = sorted({round(i * numbers[-1] / (inner + 1)) for i in range(1, inner + 1)} - {0})
    _ = speaker.gettext
    out = [(0, _start(speaker))]
    out += [(step_of_move(record, m), _("Move {n}", n=m)) for m in moves if m <= numbers[-1]]
    out.append((last, _("Final position")))
    return out[:GO_TO_OPTIONS]
