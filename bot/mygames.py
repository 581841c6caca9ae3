"""My games: the lobbies and running games a member sits in, in every server, as /games lists them.

Whose turn it is comes from each running game's stored snapshot (read in the same query as the rest,
:meth:`bot.storage.Storage.seated_games`): nothing is written on a move for this list. The games where
it is the member's turn come first (the nearest deadline first), then the games waiting for others, then
the lobbies. The text is Discord markdown: every name (of a seat, a server, a channel) escaped.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass

from bot.ai_seats import said_name
from bot.games import registry
from bot.games.names import clean_name, markdown_name
from bot.i18n import ENGLISH, N_, Speaker
from bot.storage import SeatedGame

log = logging.getLogger("admiralty.mygames")

PAGE_CHARS = 1800  # one page of the list, under Discord's 2000 characters with its header
PAGE_GAMES = 10  # and at most this many games on it
LINE_CHARS = 380  # one game's line at most (long names are cut)

NO_GAMES = N_(
    "You are not playing any game right now. Open one with `/game new` in a server channel, "
    "or join a lobby with its **Join** button."
)
# the games' titles, marked for the catalogues: each language shows the physical game's published name
# where it has one (Warships is "Manewry Morskie" in Polish)
TITLES = (N_("Enemy in Sight"), N_("Enemy Lines"), N_("The Everrain"), N_("Warships"))


@dataclass(frozen=True)
class MyGame:
    """One of a member's games: the stored row, whose turn it is, and whether it is theirs."""

    game: SeatedGame
    to_act: tuple[int, ...]  # the seats to move (empty in a lobby)
    my_turn: bool

    @property
    def id(self) -> int:
        return self.game.id

    @property
    def lobby(self) -> bool:
        return self.game.status == "lobby"


def title_of(game_key: str, speaker: Speaker = ENGLISH) -> str:
    try:
        return speaker.gettext(registry.get(game_key).title)
    except Exception:  # noqa: BLE001 - a game type this bot no longer has
        return game_key


def _to_act(game: SeatedGame) -> tuple[int, ...]:
    if game.status != "running" or not game.state_json or game.game_key not in registry:
        return ()
    try:
        engine = registry.get(game.game_key).from_json(game.state_json)
        return () if engine.is_over else tuple(engine.to_act())
    except Exception:  # noqa: BLE001 - a snapshot this bot cannot read: listed, nobody to move
        log.exception("game %s: its snapshot cannot be read", game.id)
        return ()


def my_games(seated: list[SeatedGame], user_id: int) -> list[MyGame]:
    """``seated`` (:meth:`Storage.seated_games` of ``user_id``) in the order /games shows them: the games
    where it is their turn (nearest deadline first, no deadline last), the other running games (the
    same), then the lobbies (oldest first)."""
    games = []
    for game in seated:
        to_act = _to_act(game)
        mine = {s.seat for s in game.seats if s.user_id == user_id and not s.is_ai}
        games.append(MyGame(game, to_act, bool(mine & set(to_act))))

    def order(g: MyGame) -> tuple:
        group = 2 if g.lobby else (0 if g.my_turn else 1)
        deadline = g.game.deadline
        return (group, deadline is None, deadline or 0.0, g.id)

    return sorted(games, key=order)


def next_turn(games: list[MyGame], after: int) -> MyGame | None:
    """The game where it is the member's turn after game ``after`` in the list's order, round-robin (the
    first when ``after`` is not one of them: 0, or a game where they have moved since); None: none."""
    turns = [g for g in games if g.my_turn]
    if not turns:
        return None
    ids = [g.id for g in turns]
    if after in ids:
        return turns[(ids.index(after) + 1) % len(turns)]
    return turns[0]


def link(game: SeatedGame) -> str | None:
    """The address of the game's table (or lobby) message; None when it has none."""
    if game.message is None:
        return None
    channel_id, message_id = game.message
    return f"https://discord.com/channels/{game.guild_id or '@me'}/{channel_id}/{message_id}"


def _name(name: str, limit: int = 60) -> str:
    return markdown_name(clean_name(name, fallback="?")[:limit])


@dataclass(frozen=True)
class Place:
    """Where a game is, as the bot's cache names it (None: not known to this process)."""

    server: str | None
    channel: str | None


def where_text(game: SeatedGame, place: Place, speaker: Speaker = ENGLISH) -> str:
    server = f"**{_name(place.server)}**" if place.server else speaker.gettext("a server")
    channel = f"#{_name(place.channel)}" if place.channel else f"<#{game.place}>"
    return f"{server} › {channel}"


def turn_text(g: MyGame, speaker: Speaker = ENGLISH) -> str:
    """Whose turn, and until when."""
    _ = speaker.gettext
    if g.lobby:
        return speaker.ngettext(
            "lobby, {n} seated — waiting to start", "lobby, {n} seated — waiting to start", len(g.game.seats)
        )
    if not g.to_act:
        return _("ending")
    deadline = g.game.deadline
    when = f"<t:{int(deadline)}:R>" if deadline is not None else None
    if g.my_turn:
        if when is None:
            return _("**your turn**, no time limit")
        return _("**your turn**, time runs out {when}", when=when)
    names = ", ".join(_name(said_name(s.name, speaker)) for s in g.game.seats if s.seat in g.to_act) or "?"
    if when is None:
        return _("waiting for {names}, no time limit", names=names)
    return _("waiting for {names}, time runs out {when}", names=names, when=when)


def headline(g: MyGame, place: Place, speaker: Speaker = ENGLISH) -> str:
    """The game, where it is and whose turn: "**Warships** #12 in **Server** › #channel — your turn…"."""
    return speaker.gettext(
        "**{title}** #{number} in {place} — {state}",
        title=title_of(g.game.game_key, speaker),
        number=g.id,
        place=where_text(g.game, place, speaker),
        state=turn_text(g, speaker),
    )


def game_line(g: MyGame, place: Place, speaker: Speaker = ENGLISH) -> str:
    _ = speaker.gettext
    seats = ", ".join(_name(said_name(s.name, speaker), 40) for s in g.game.seats)
    address = link(g.game)
    line = headline(g, place, speaker)
    if address:
        line += " — " + (
            _("[lobby]({link})", link=address) if g.lobby else _("[table]({link})", link=address)
        )
    # the seats go last: the one part cut when a line is too long
    rest = LINE_CHARS - len(line) - 3
    if rest > 10:
        line += f"\n  {seats if len(seats) <= rest else seats[: rest - 1] + '…'}"
    return line


def pages(
    games: list[MyGame], place_of: Callable[[SeatedGame], Place], speaker: Speaker = ENGLISH
) -> list[str]:
    """The list, cut into pages (each under :data:`PAGE_CHARS`, at most :data:`PAGE_GAMES` games);
    every page starts with the count of games where it is the member's turn."""
    _ = speaker.gettext
    if not games:
        return [_(NO_GAMES)]
    turns = sum(g.my_turn for g in games)
    running = sum(not g.lobby for g in games)
    lobbies = len(games) - running
    if turns:
        head = _(
            "🎲 **Your games** — {running} running, {lobbies} in lobbies; **your turn in {turns}**",
            running=running,
            lobbies=lobbies,
            turns=turns,
        )
    else:
        head = _(
            "🎲 **Your games** — {running} running, {lobbies} in lobbies; none waits for you",
            running=running,
            lobbies=lobbies,
        )
    headings = {0: _("**Your turn**"), 1: _("**Waiting for others**"), 2: _("**Lobbies you sit in**")}
    out: list[str] = []
    page: list[str] = []
    size = count = 0
    group_shown: int | None = None
    for number, g in enumerate(games, start=1):
        group = 2 if g.lobby else (0 if g.my_turn else 1)
        line = f"{number}. {game_line(g, place_of(g.game), speaker)}"
        heading = headings[group] if group != group_shown else None
        need = len(line) + 1 + (len(heading) + 1 if heading else 0)
        if page and (count >= PAGE_GAMES or size + need > PAGE_CHARS):
            out.append("\n".join(page))
            page, size, count = [], 0, 0
            heading = headings[group]  # each page says which part of the list it goes on with
            need = len(line) + len(heading) + 2
        if heading:
            page.append(heading)
            group_shown = group
        page.append(line)
        size += need
        count += 1
    out.append("\n".join(page))
    total = len(out)
    return [
        head + (" · " + _("page {page} of {pages}", page=n + 1, pages=total) if total > 1 else "") + "\n" + p
        for n, p in enumerate(out)
    ]
