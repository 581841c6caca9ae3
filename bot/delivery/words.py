"""The words of the delivery: game texts with names filled in, the turn prompt, the game-over and
paused texts, cut to what a Discord message holds."""

from __future__ import annotations

from bot import layout
from bot.games import colour, fill_names, who
from bot.games.base import GameSpec
from bot.games.names import markdown_name
from bot.games.phrase import ENGLISH, Voice
from bot.menus import in_language
from bot.summary import duration_of, summary_text
from bot.tables import Table

MAX_CONTENT = 2000  # characters in a message's content


def said(table: Table, text: str, speaker: Voice = ENGLISH) -> str:
    """A game's text (event, prompt, log line) in the language of ``speaker`` (a :class:`Phrase` is
    translated; any other text is shown as it is) with its seat references filled with the players'
    names, escaped for markdown: the one place names enter the delivery's texts."""
    return fill_names(speaker.say(text), table.names(speaker), markdown=True)


def view_words(table: Table, view: dict, speaker: Voice = ENGLISH) -> str:
    """The game's own words beside the picture of ``view`` (``Game.view_text``), with the players'
    names escaped for markdown."""
    names = [markdown_name(name) for name in table.names(speaker)]
    return table.engine.view_text(view, names, **in_language(speaker)).strip()


def alt_text(table: Table, view: dict, seat: int | None, moves: int | None, speaker: Voice = ENGLISH) -> str:
    """The alt text of the picture of ``view``, ``seat``'s (None: the spectators'), at most 256
    characters, in the language of ``speaker``: the game's sentence (``Game.alt_text``), else the
    title, the move (when known) and who is to act."""
    game = table.engine
    _ = speaker.gettext
    names = table.names(speaker)
    text = " ".join(game.alt_text(view, names, **in_language(speaker)).split())
    if not text:
        title = _(table.spec.title)
        head = title if moves is None else _("{game}, move {move}", game=title, move=moves)
        if seat is not None:
            head = _("{picture}, {name}'s view", picture=head, name=fill_names(who(seat), names))
        acting = [fill_names(who(s), names) for s in game.to_act()] if not table.over else []
        if table.over:
            text = _("{picture}: game over.", picture=head)
        elif acting:
            text = _("{picture}: {players} to act.", picture=head, players=", ".join(acting))
        else:
            text = _("{picture}: waiting.", picture=head)
    return layout.alt_clip(text)


def clip(text: str, limit: int = MAX_CONTENT) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def your_turn(prompt: str, speaker: Voice = ENGLISH) -> str:
    """'**Your turn** — <prompt>', without saying it twice when the game's prompt already does."""
    bare = prompt.strip()
    said = speaker.gettext("Your turn")
    for words in {"your turn", said.lower()}:
        if bare.lower().startswith(words):
            bare = bare[len(words) :].lstrip(" :—-,.")
    return speaker.gettext("**Your turn** — {prompt}", prompt=bare) if bare else f"**{said}**"


def my_view_label(table: Table, speaker: Voice = ENGLISH) -> str:
    """The label of the button that shows a player their private view ("My hand", "My fleet", …)."""
    return speaker.gettext(table.spec.private_words.label)


def result_text(table: Table, moves: int, speaker: Voice = ENGLISH) -> str:
    """The game-over text (:func:`bot.summary.summary_text`); ``moves``: its move number (``moves_of``)."""
    return summary_text(table, moves, duration_of(table.row), speaker=speaker)


def paused_text(table: Table, speaker: Voice = ENGLISH) -> str:
    """The status of a game with no human player left (:attr:`Table.deserted`)."""
    _ = speaker.gettext
    if table.row.deadline:
        return _(
            "⏸ **Paused**: nobody is left to play. A player takes their seat back with `/game join`; "
            "otherwise the game is abandoned {when}.",
            when=f"<t:{int(table.row.deadline)}:R>",
        )
    return _("⏸ **Paused**: nobody is left to play. A player takes their seat back with `/game join`.")


def key_text(table: Table, speaker: Voice = ENGLISH) -> str:
    """What the table's **Key** shows (privately, in the language of ``speaker``): the game's key to
    its picture (``Game.key_text`` of the spectators' view) and whose mark is whose."""
    game = table.engine
    own = said(table, game.key_text(game.view(None), **in_language(speaker)).strip(), speaker)
    names = [table.shown_name(s.seat, speaker) for s in sorted(table.seats, key=lambda s: s.seat)]
    return _with_seats(own, layout.seat_key(names, speaker), table.spec.title, speaker)


def rules_key(spec: GameSpec, speaker: Voice = ENGLISH) -> str:
    """The key of a game's pictures for ``/game rules``: the game's own key (of a fresh game's view)
    and the seat marks by colour."""
    game = spec.new(players=spec.min_players, options={}, seed=1)
    colours = [colour(seat, speaker) for seat in range(spec.max_players)]
    own = fill_names(game.key_text(game.view(None), **in_language(speaker)).strip(), colours, markdown=True)
    seats = layout.seat_key(colours, speaker)
    return _with_seats(own, seats, spec.title, speaker)


def _with_seats(own: str, seats: str, title: str, speaker: Voice = ENGLISH) -> str:
    """The game's key (its own heading, else ours) and the seats under it, in one message: the game's
    key is cut, never the seats."""
    tail = "\n\n" + speaker.gettext("**Seats**") + f"\n{seats}"
    if not own:
        heading = speaker.gettext("**{game}: the key to the picture**", game=speaker.gettext(title))
        return f"🗝️ {heading}{tail}"
    return "🗝️ " + clip(own, MAX_CONTENT - len(tail) - 3) + tail
