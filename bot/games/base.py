"""The engine contract shared by every game.

A game keeps *all* of its mutable state in ``self.state`` (a JSON-able dict)
and draws every random number from ``self.rng`` (a :class:`SeededRandom`,
whose generator state is part of the JSON). With that, the base class gives
every game for free:

* ``to_json`` / ``from_json`` that round-trip exactly, generator included;
* ``apply`` that checks the seat and the action, runs ``_apply`` and, if it
  raises anything, restores the state and the generator exactly as they were
  ("unchanged on error");
* a default ``legal`` check (the action must equal one of ``legal_actions``).

Hidden information: ``view(seat)`` is the only door to the state for players,
spectators (``seat=None``), renderers, logs and AI seats. Simultaneous secret
choices: ``to_act()`` returns several seats; each seat's choice is stored in the
state (visible only in that seat's view) until all have chosen, then revealed.
Choices that have too many combinations to enumerate (arranging a line of
ships) are split into small steps, each one an action.

Rules engines import nothing from discord, aiosqlite, PIL or asyncio.
"""

from __future__ import annotations

import codecs
import json
import marshal
import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, ClassVar

import orjson

from bot.games.ai import BUDGETS, Budget, Situation
from bot.games.names import fill_board
from bot.games.phrase import ENGLISH, N_, Phrase, Voice


class IllegalAction(Exception):
    """An action that the rules do not allow now. The message is shown to the player."""


def canonical(obj: Any) -> str:
    """A canonical JSON text for comparing actions and states (and the stored snapshot, ``to_json``):
    exactly ``json.dumps(obj, sort_keys=True, separators=(",", ":"))``. orjson writes it, several times
    faster (its characters beyond ASCII then escaped as the json module does), wherever its text is that
    one: keys all strings, integers within 64 bits, no DEL (the json module escapes it) and no float
    under 1e-4 (json: ``1e-05``, ``1.5e-07``; orjson: ``0.00001``, ``1.5e-7``); else the json module
    writes it. (orjson writes a float that is not a number as ``null``; JSON has none, and no state or
    action holds one.)"""
    try:
        text = orjson.dumps(obj, option=orjson.OPT_SORT_KEYS)
    except TypeError:  # a key that is not a string, an integer beyond 64 bits, a lone surrogate
        return json.dumps(obj, sort_keys=True, separators=(",", ":"))
    # each a plain substring search; a string that holds one (``"free-for-all"``) is written by json
    if any(mark in text for mark in _NOT_AS_JSON_WRITES):
        return json.dumps(obj, sort_keys=True, separators=(",", ":"))
    if text.isascii():
        return text.decode()
    return text.decode().encode("ascii", _AS_JSON_ESCAPES).decode()


# Where orjson's text may not be the json module's: DEL (json escapes it), a float under 1e-4 (see
# canonical). Larger floats, escapes and everything else are written alike.
_NOT_AS_JSON_WRITES = (b"\x7f", b"0.0000", b"e-")
_AS_JSON_ESCAPES = "admiralty-json-escapes"


def _json_escapes(error: UnicodeError) -> tuple[str, int]:
    """Characters beyond ASCII as the json module escapes them (``ensure_ascii``): ``\\u27e8``, and a
    pair of surrogates beyond the first plane."""
    assert isinstance(error, UnicodeEncodeError)
    out = []
    for char in error.object[error.start : error.end]:
        code = ord(char)
        if code > 0xFFFF:
            code -= 0x10000
            out.append(f"\\u{0xD800 | (code >> 10):04x}\\u{0xDC00 | (code & 0x3FF):04x}")
        else:
            out.append(f"\\u{code:04x}")
    return "".join(out), error.end


codecs.register_error(_AS_JSON_ESCAPES, _json_escapes)


def is_choice(value: Any) -> bool:
    """Whether an action's field is an open choice: ``{"choose": [candidates], "min": m, "max": n}``."""
    return isinstance(value, dict) and set(value) == {"choose", "min", "max"}


def choice_fields(action: dict) -> dict[str, dict]:
    """The fields of ``action`` that are open choices (see :meth:`Game.legal_actions`)."""
    return {k: v for k, v in action.items() if is_choice(v)}


def fits(template: dict, action: dict) -> bool:
    """Whether ``action`` answers the open choices of ``template``: the same fields, each choice answered
    by a list of distinct candidates (any order) within its bounds, every other field equal."""
    if not isinstance(action, dict) or set(template) != set(action):
        return False
    for k, v in template.items():
        given = action[k]
        if not is_choice(v):
            if canonical(given) != canonical(v):
                return False
            continue
        if not isinstance(given, list) or not v["min"] <= len(given) <= v["max"]:
            return False
        keys = [canonical(x) for x in given]
        if len(set(keys)) != len(keys) or not set(keys) <= {canonical(c) for c in v["choose"]}:
            return False
    return True


@dataclass(frozen=True)
class ChoiceMenu:
    """How menus show an open choice as one multi-select: its placeholder, one (label, description) per
    candidate in order, and the label of the button that chooses none (when none may be chosen)."""

    title: str
    options: list[tuple[str, str]]
    none_label: str = "None of them"


class SeededRandom(random.Random):
    """random.Random whose full generator state can be stored as JSON."""

    def dump(self) -> list:
        version, internal, gauss = self.getstate()
        return [version, list(internal), gauss]

    def load(self, data: list) -> None:
        version, internal, gauss = data
        self.setstate((version, tuple(internal), gauss))

    def d(self, sides: int = 6) -> int:
        """Roll one die with the given number of sides (1..sides)."""
        return self.randint(1, sides)


@dataclass(frozen=True)
class Option:
    """A game option offered by ``/game new``.

    kind is "bool", "choice" or "int". For "choice", ``choices`` lists values.
    """

    name: str
    kind: str
    default: Any
    help: str
    choices: tuple = ()
    min: int | None = None
    max: int | None = None

    def coerce(self, value: Any) -> Any:
        if value is None:
            return self.default
        if self.kind == "bool":
            if isinstance(value, str):
                v = value.strip().lower()
                if v in ("1", "true", "yes", "on", "y"):
                    return True
                if v in ("0", "false", "no", "off", "n"):
                    return False
                raise IllegalAction(
                    Phrase(
                        N_("Option {option}: expected yes or no, not {value}."),
                        option=self.name,
                        value=repr(value),
                    )
                )
            return bool(value)
        if self.kind == "int":
            try:
                n = int(value)
            except (TypeError, ValueError):
                raise IllegalAction(
                    Phrase(
                        N_("Option {option}: expected a whole number, not {value}."),
                        option=self.name,
                        value=repr(value),
                    )
                ) from None
            if (self.min is not None and n < self.min) or (self.max is not None and n > self.max):
                raise IllegalAction(
                    Phrase(
                        N_("Option {option}: it must be from {least} to {most}."),
                        option=self.name,
                        least=self.min,
                        most=self.max,
                    )
                )
            return n
        if self.kind == "choice":
            if value not in self.choices:
                raise IllegalAction(
                    Phrase(
                        N_("Option {option}: choose one of {choices}."),
                        option=self.name,
                        choices=", ".join(map(str, self.choices)),
                    )
                )
            return value
        raise ValueError(f"unknown option kind {self.kind}")


class Game:
    """Base class of every game. Subclasses set ``key`` and implement the hooks.

    Hooks to implement: ``setup()``, ``to_act()``, ``legal_actions(seat)``,
    ``_apply(seat, action)``, ``view(seat)``, ``is_over``, ``result``.
    Optional: ``is_legal`` (faster check), ``describe(action)``,
    ``action_path(seat, action)``, ``menu_entries(seat)`` and ``menu_titles(seat)`` (menus),
    ``think(situation, level, budget, rng)`` and ``resample(view, seat, rng)`` (AI seats,
    :mod:`bot.games.ai`), ``timeout_action(seat, rng)``, ``prompt(seat)``,
    ``text_view(view)`` (text board for channels without attachments),
    ``final_reveal()`` (what a replay shows at the end).

    Choices of several things at once (ships to move: any subset of a dozen) are not enumerated: a
    legal action may hold an *open choice*, a field ``{"choose": [candidates], "min": m, "max": n}``
    (:func:`is_choice`). It stands for every action with, in that field, a list of distinct candidates,
    ``min <= len <= max``: ``is_legal`` accepts those (:func:`fits`; what more the rules ask is checked
    in ``_apply``, which raises IllegalAction). The action as listed, choice still open, is legal too: the
    game then asks for the choice step by step, so whoever applies any legal action (a test, a simple AI)
    needs to know nothing of choices. Menus show an open choice as one multi-select (``choice_menu``).

    Events returned by ``_apply`` are dicts with a "type" and a "text" (one
    human sentence for the log); an event with "private_to": seat is shown to
    that seat only.

    Every text a player reads that names a seat (event texts, ``describe``,
    ``action_path`` labels, ``menu_titles``, ``prompt``, texts inside views)
    names it with ``who(seat)`` (bot/games/names.py), never a colour or a
    name: the host fills in the players' names with ``fill_names``.
    """

    key: ClassVar[str] = ""

    def __init__(self, players: int, options: dict | None = None, seed: int = 0, *, _setup: bool = True):
        self.players = players
        self.options = dict(options or {})
        self.seed = seed
        self.rng = SeededRandom(seed)
        self.state: dict = {}
        # How many times ``apply`` (the one way the state changes in place) ran on this engine, a move
        # refused included: with the state's identity, it tells a reader that keeps something derived
        # from the state (the menus' digest) that the state is as it was, without reading it all again.
        self.applied = 0
        if _setup:
            self.setup()

    # ----- hooks -------------------------------------------------------
    def setup(self) -> None:
        raise NotImplementedError

    def to_act(self) -> list[int]:
        raise NotImplementedError

    def legal_actions(self, seat: int) -> list[dict]:
        raise NotImplementedError

    def _apply(self, seat: int, action: dict) -> list[dict]:
        raise NotImplementedError

    def view(self, seat: int | None) -> dict:
        raise NotImplementedError

    @property
    def is_over(self) -> bool:
        raise NotImplementedError

    @property
    def result(self) -> dict | None:
        raise NotImplementedError

    # ----- optional hooks with defaults ----------------------------------
    def is_legal(self, seat: int, action: dict) -> bool:
        key = canonical(action)
        return any(
            canonical(a) == key or (choice_fields(a) and fits(a, action)) for a in self.legal_actions(seat)
        )

    def choice_menu(self, seat: int, action: dict, *, speaker: Voice = ENGLISH) -> ChoiceMenu:
        """The multi-select of ``action``'s open choice (one field): a game names the candidates. Its
        texts in the language of ``speaker``, as every text below that takes one."""
        (field_name, choice) = next(iter(choice_fields(action).items()))
        return ChoiceMenu(
            speaker.gettext("Choose {field}", field=field_name),
            [(str(c)[:100], "") for c in choice["choose"]],
            speaker.gettext("None of them"),
        )

    def describe(self, action: dict, *, speaker: Voice = ENGLISH) -> str:
        """A short human label of an action (at most 100 characters)."""
        parts = [str(action.get("type", "?"))]
        parts += [f"{k}={v}" for k, v in action.items() if k != "type"]
        return " ".join(parts)[:100]

    def action_path(self, seat: int, action: dict, *, speaker: Voice = ENGLISH) -> list[tuple[str, str]]:
        """How menus group this action: a list of (key, label) steps.

        The host builds a tree of the legal actions from these paths: the
        first step is the first menu (e.g. "pick a ship"), the last step
        picks the action itself. Keys are short stable strings; labels are
        what the player reads (≤ 100 characters).
        """
        return [(canonical(action), self.describe(action, speaker=speaker))]

    def menu_entries(
        self, seat: int, *, speaker: Voice = ENGLISH, legal: list[dict] | None = None
    ) -> list[tuple[list[dict], list[tuple]]]:
        """The moves a player picks from the menus, as (steps, path); ``legal``: the seat's legal actions
        now, when the caller has them (they are not listed again).

        ``steps`` is a list of actions applied one after the other by a single menu choice: usually
        one legal action, but a game may chain an action with its follow-up (a card and its target)
        so that a whole move is one entry; each step must be legal after the ones before it.
        ``path`` is like ``action_path`` and each step may carry a third item, a description shown
        under the label in a select (≤ 100 characters). Default: every legal action on its own."""
        actions = self.legal_actions(seat) if legal is None else legal
        return [([a], self.action_path(seat, a, speaker=speaker)) for a in actions]

    def menu_titles(self, seat: int, *, speaker: Voice = ENGLISH) -> list[str]:
        """Placeholder texts of the menus, one per step of ``action_path``."""
        return [speaker.gettext("Choose an action")]

    def situation(self, seat: int) -> Situation:
        """What ``seat`` knows now, for an AI (:mod:`bot.games.ai`): its view and its legal actions."""
        return Situation(self.key, dict(self.options), seat, self.view(seat), self.legal_actions(seat))

    def ai_action(
        self, seat: int, rng: random.Random, level: str = "easy", budget: Budget | None = None
    ) -> dict:
        """The move of an AI seat at ``level`` within ``budget`` (the level's own by default), decided by
        :meth:`think` from :meth:`situation` alone: an AI never reads hidden state."""
        return self.think(self.situation(seat), level, budget or BUDGETS[level], rng)

    @classmethod
    def think(cls, situation: Situation, level: str, budget: Budget, rng: random.Random) -> dict:
        """The AI's action in ``situation`` (one of ``situation.legal``), at ``level`` (one of
        :data:`bot.games.ai.LEVELS`) within ``budget``. Default: a random legal action; each game
        overrides it with its heuristic (``easy``) and its search (``normal``, ``hard``)."""
        return rng.choice(situation.legal)

    @classmethod
    def resample(cls, view: dict, seat: int, rng: random.Random) -> Game:
        """A whole game state consistent with ``view``, what ``seat`` sees (the others' hands dealt
        from the unseen cards, hidden units placed as what was revealed and how they moved allows),
        so that ``resample(view, seat, rng).view(seat) == view``. For search under hidden information;
        a game of perfect information may rebuild its state from the view."""
        raise NotImplementedError(f"{cls.__name__} has no resample")

    @classmethod
    def steady(cls, situation: Situation, rng: random.Random) -> dict:
        """The heuristic's own choice in ``situation``, without the easy level's slips: what is played
        for a seat whose turn timer ran out (a move made for a player is a sound one, never a deliberate
        mistake). Default: the easy level; a game whose easy level slips overrides it."""
        return cls.think(situation, "easy", BUDGETS["easy"], rng)

    def timeout_action(self, seat: int, rng: random.Random) -> dict:
        """What is played for a seat whose turn timer ran out (default: :meth:`steady`).
        A game overrides it where the rules name a default (e.g. "no card")."""
        return self.steady(self.situation(seat), rng)

    def prompt(self, seat: int, *, speaker: Voice = ENGLISH) -> str:
        """One sentence telling ``seat`` what it is asked to do now."""
        return speaker.gettext("Your move.")

    def undo_veto(self, before: Game, seat: int, action: dict, events: list[dict]) -> Phrase | None:
        """Stricter rules of undo for this game: called on the game just AFTER ``seat`` applied
        ``action`` to ``before`` (with its ``events``), once the generic checks of :meth:`undo_refusal`
        passed. Returns why that action may not be undone (a short :class:`Phrase`: "it drew a card", said in
        the reader's language where the refusal is shown), or None."""
        return None

    def final_reveal(self) -> dict:
        """What a replay shows once the game is over (bot/replay.py): a view-like dict that the
        game's renderer draws, with an optional ``"reveal"``: lines (seats named by ``who(seat)``)
        saying what the rules reveal at the end (the replay's log ends with them), and an optional
        ``"reveal_short"``: one short line of it for the caption of the replay's last picture (a
        frame has two lines of caption). Only what the rules show at the end may be in it;
        before the end, and by default, it is the spectator view ``view(None)``."""
        return self.view(None)

    @staticmethod
    def text_view(view: dict, names: list[str] | None = None, *, speaker: Voice = ENGLISH) -> str:
        """A plain-text board for channels where the bot may not attach files, in the language of
        ``speaker``. Seats named by ``who(seat)`` are filled with ``names`` (their colours without names).
        Default: the view's data as it is (no words to translate)."""
        return fill_board("```\n" + json.dumps(view, indent=1, ensure_ascii=False)[:1800] + "\n```", names)

    @staticmethod
    def read_board(view: dict, *, speaker: Voice = ENGLISH) -> list[str]:
        """The position of ``view`` in words for a screen reader (``/game board``, the table's **Text
        board**): every piece, card, unit and track the view shows, one fact a line, in reading order
        (rows top to bottom, or lists per seat), seats as ``who(seat)``; no meaning in layout or symbols
        alone, and nothing ``view`` does not hold. Empty: the host shows ``text_view`` instead."""
        return []

    @staticmethod
    def view_text(view: dict, names: list[str] | None = None, *, speaker: Voice = ENGLISH) -> str:
        """What goes beside the board picture as text (Discord markdown, a few short lines): the
        scores, tracks, dice and hands that words say better than a picture, in any script, for a
        screen reader too. Seats named by ``who(seat)`` are filled with ``names`` (the caller passes them
        already escaped for markdown: ``bot.games.names.markdown_name``). Empty: nothing."""
        return ""

    @staticmethod
    def alt_text(view: dict, names: list[str] | None = None, *, speaker: Voice = ENGLISH) -> str:
        """One sentence a screen reader speaks for the board picture (at most 256 characters, after
        names are filled): the game, the move, who is to act, what just happened."""
        return ""

    @staticmethod
    def key_text(view: dict, *, speaker: Voice = ENGLISH) -> str:
        """The key to the picture (what each mark, colour and shape means), Discord markdown; shown
        privately behind the table's **Key** button and in ``/game rules``."""
        return ""

    # ----- provided --------------------------------------------------------
    def apply(self, seat: int, action: dict) -> list[dict]:
        """Apply one action of ``seat``. Raises IllegalAction and changes nothing
        when the action is not allowed; on any other error the state is also
        restored before the exception propagates."""
        if not isinstance(action, dict) or "type" not in action:
            raise IllegalAction(Phrase(N_("that is not an action")))
        if self.is_over:
            raise IllegalAction(Phrase(N_("the game is over")))
        if seat not in self.to_act():
            raise IllegalAction(Phrase(N_("it is not your turn")))
        if not self.is_legal(seat, action):
            raise IllegalAction(
                Phrase(N_("that move is not allowed now: {move}"), move=self.describe(action))
            )
        # The state is plain JSON data, so marshal makes an exact snapshot, many times faster than deepcopy.
        saved_state = marshal.dumps(self.state)
        saved_rng = self.rng.getstate()
        try:
            events = self._apply(seat, marshal.loads(marshal.dumps(action)))
        except BaseException:
            self.state = marshal.loads(saved_state)
            self.rng.setstate(saved_rng)
            raise
        finally:
            self.applied += 1
        return list(events or [])

    def undo_refusal(self, seat: int, action: dict) -> Phrase | None:
        """Why ``action`` of ``seat``, applied to this game as it stands now (the position before it),
        could not be taken back by agreement, or None when it may. Pure and deterministic: it applies the
        action to a copy and leaves this game unchanged.

        An action may be undone only when it revealed nothing and drew no randomness:
        no event private to a seat; the generator state is unchanged (a shuffle, a draw or a die roll
        moves it); no hidden information became visible (:func:`reveals`: a viewer now sees something
        another seat saw and they did not); and the game's own :meth:`undo_veto` finds nothing."""
        after = type(self).from_json(self.to_json())
        known = knowledge(after)
        rng = after.rng.getstate()
        try:
            events = after.apply(seat, action)
        except IllegalAction as e:
            reason = e.args[0] if e.args and isinstance(e.args[0], Phrase) else str(e)
            return Phrase(N_("it is not a move of this position ({reason})"), reason=reason)
        if any("private_to" in e for e in events):
            return Phrase(N_("it showed a player something in secret"))
        if after.rng.getstate() != rng:
            return Phrase(N_("it drew on chance (a die roll, a draw or a shuffle)"))
        if after.is_over:
            return Phrase(N_("it ended the game"))
        if reveals(known, knowledge(after)):
            return Phrase(N_("it revealed hidden information"))
        return after.undo_veto(self, seat, action, events)

    def to_json(self) -> str:
        return canonical(
            {
                "key": self.key,
                "players": self.players,
                "options": self.options,
                "seed": self.seed,
                "rng": self.rng.dump(),
                "state": self.state,
            }
        )

    @classmethod
    def from_json(cls, text: str) -> Game:
        return cls.from_data(json.loads(text))

    def copy(self, position: tuple[bytes, tuple] | None = None) -> Game:
        """An engine of its own in this position: ``from_json(to_json())`` without the JSON text (the
        state is plain JSON data, so marshal copies it exactly, several times faster). Or in
        ``position``, an earlier position of this engine: its state's marshal bytes and its generator's
        state, as they were then."""
        game = type(self)(self.players, marshal.loads(marshal.dumps(self.options)), self.seed, _setup=False)
        state, rng = position if position is not None else (marshal.dumps(self.state), self.rng.getstate())
        game.rng.setstate(rng)
        game.state = marshal.loads(state)
        return game

    @classmethod
    def from_data(cls, data: dict) -> Game:
        """The game of a parsed ``to_json`` text."""
        if data.get("key") != cls.key:
            raise ValueError(f"state is for {data.get('key')!r}, not {cls.key!r}")
        game = cls(data["players"], data["options"], data["seed"], _setup=False)
        game.rng.load(data["rng"])
        game.state = data["state"]
        return game


def _leaves(obj: Any, path: str, out: Counter) -> None:
    # A leaf is (path, type, value): as exact as its canonical JSON text (1, 1.0, True and "1" differ),
    # without encoding a text per leaf (views have thousands of leaves; undo_refusal reads them twice).
    if isinstance(obj, dict):
        for k, v in obj.items():
            _leaves(v, f"{path}.{k}", out)
    elif isinstance(obj, (list, tuple)):
        inner = path + ".*"
        for v in obj:  # positions are not information: a list is read as a bag of its items
            _leaves(v, inner, out)
    else:
        leaf = _leaf_value(obj)
        out[(path, *leaf)] += 1
        if leaf[0] is str and len(obj) >= 3:
            out[("*", *leaf)] += 1  # a name (a card, a unit) is the same news wherever it shows


def _leaf_value(obj: Any) -> tuple[type | None, Any]:
    """A scalar as JSON tells it apart (True is not 1, 1 is not 1.0, "1" is neither), hashable."""
    if isinstance(obj, str):
        return str, str(obj)
    if obj is None or isinstance(obj, bool):
        return bool, obj
    if isinstance(obj, int):
        return int, int(obj)
    if isinstance(obj, float):
        return float, float(obj)
    return None, canonical(obj)


def knowledge(game: Game) -> list[Counter]:
    """What each viewer sees: the spectator (index 0), then seat 0, 1, …, each view flattened into a
    bag of ``(path, type, value)`` leaves (list positions dropped), plus every text of 3 characters or more by
    its value alone (a card's name moving from a hand to the table is the same information)."""
    bags = []
    for viewer in (None, *range(game.players)):
        bag: Counter = Counter()
        _leaves(game.view(viewer), "", bag)
        bags.append(bag)
    return bags


def reveals(before: list[Counter], after: list[Counter]) -> bool:
    """Whether hidden information became visible between two :func:`knowledge` readings: some viewer
    now sees more of a leaf than before, where another viewer saw more of it than they did before (it
    was hidden from them). Conservative: a coincidence counts as a reveal (undo refused, never wrongly
    allowed). Information hidden from every seat (a shuffled deck) is the game's to check in
    :meth:`Game.undo_veto`."""
    for v, (was, now) in enumerate(zip(before, after, strict=True)):
        for leaf, n in now.items():
            if n > was[leaf] and any(other[leaf] > was[leaf] for w, other in enumerate(before) if w != v):
                return True
    return False


@dataclass(frozen=True)
class PrivateWords:
    """How a game names what only its player sees, wherever the host speaks of it: the button that
    shows it ("My hand"), the ping ("your hand is in your DMs") and the DM sent on joining."""

    # messages (bot.i18n), said in the reader's language where they are shown
    label: str = N_("My view")  # the button under the board and in the DM
    noun: str = N_("view")  # "your <noun> is in your DMs"
    dm_intro: str = N_("Your view and your controls will come here.")  # the DM sent on joining


@dataclass
class GameSpec:
    """What the registry knows of a game."""

    key: str
    title: str
    min_players: int
    max_players: int
    cls: type[Game]
    options: tuple[Option, ...] = ()
    summary: str = ""
    # the summary a message a paragraph (said in the reader's language), when the game gives it so
    summary_parts: tuple[str, ...] = ()
    has_private_view: bool = False
    # the wording of the private view (has_private_view); a game without one has only "My view"
    private_words: PrivateWords = PrivateWords()
    public_controls: bool = True
    rules_doc: str = ""
    extra: dict = field(default_factory=dict)
    # A game whose "variant" option picks a subclass of ``cls`` (each overriding a few rule hooks, the
    # way python-chess makes each variant a Board subclass): option value -> class.
    variants: dict[str, type[Game]] = field(default_factory=dict)

    def option(self, name: str) -> Option | None:
        return next((o for o in self.options if o.name == name), None)

    def normalize_options(self, options: dict | None) -> dict:
        """Fill defaults and check values; unknown names are refused."""
        options = dict(options or {})
        out = {}
        for name in options:
            if self.option(name) is None:
                raise IllegalAction(
                    Phrase(N_("{game} has no option {option}."), game=Phrase(self.title), option=repr(name))
                )
        for opt in self.options:
            out[opt.name] = opt.coerce(options.get(opt.name))
        return out

    def new(self, players: int, options: dict | None = None, seed: int = 0) -> Game:
        if not (self.min_players <= players <= self.max_players):
            raise IllegalAction(
                f"{self.title} needs {self.min_players}–{self.max_players} players, not {players}"
            )
        options = self.normalize_options(options)
        return self.game_class(options)(players, options, seed)

    def game_class(self, options: dict) -> type[Game]:
        """The class that plays a game with these options: its variant's, else ``cls``."""
        if not self.variants:
            return self.cls
        variant = options.get("variant")
        if variant not in self.variants:
            raise IllegalAction(f"{self.title} has no variant {variant!r}")
        return self.variants[variant]

    def from_json(self, text: str) -> Game:
        data = json.loads(text)
        return self.game_class(data.get("options") or {}).from_data(data)
