"""The text board: a game's position as plain text a screen reader reads in order, for ``/game board``
and the table's **Text board** button (both private).

It is built from one view: the spectators' (``view(None)``), or the asker's own when they play, so it
holds exactly what that viewer may see. In reading order: a heading (game, move, whose view), the seats
(each mark with its player's name and its colour and shape in words), whose turn it is, the game's
position in words (``Game.read_board``: every piece, card, unit and track, rows top to bottom or lists
per seat) and the last public moves of the table's log. Cut into pages of at most :data:`PAGE`
characters (a message's content), each line whole; a game without ``read_board`` gives its text board
(``Game.text_view``) instead.
"""

from __future__ import annotations

from bot import layout
from bot.ai_seats import shows_ai
from bot.games.names import fill_names
from bot.tables import Table

PAGE = 2000  # characters of a message's content: every page fits Discord's limits (4000 for the largest)
MAX_PAGES = 4  # a position longer than this is cut (none is: a 6-player Enemy in Sight takes two)

# The player-facing words of this module (plain English, one place: easy to translate later).
W_TITLE = "📜 **Text board: {game}**, game #{id}, move {moves}"
W_SPECTATORS = "what everyone at the table sees"
W_OWN = "your own view, as {seat}"
W_PAGE = " (page {page} of {pages})"
W_SEATS = "**Seats:**"
W_SEAT = "{name}: the {colour} {shape}"
W_AI = " (AI)"
W_TURN = "**Now:** {who} to act."
W_TURN_MANY = "**Now:** {who} choosing in secret."
W_WAITING = "**Now:** waiting."
W_OVER = "**Now:** the game is over."
W_POSITION = "**Position:**"
W_LAST = "**Last public moves, oldest first:**"
W_NO_MOVES = "none yet"
W_CUT = "… (the rest does not fit)"


def seat_words(table: Table, seat: int) -> str:
    """A seat as text says it: its mark always with its player's name (escaped), never alone."""
    return f"{layout.seat_mark(seat)} {table.shown_name(seat)}"


def text_board(table: Table, seat: int | None, log: list[str], moves: int) -> list[str]:
    """The pages of ``seat``'s text board (None: the spectators'), ``log`` the table's last public
    lines (seats as ``who(seat)``), oldest first. Each page at most :data:`PAGE` characters."""
    game = table.engine
    view = game.view(seat)
    head = W_TITLE.format(game=table.spec.title, id=table.id, moves=moves)
    whose = W_SPECTATORS if seat is None else W_OWN.format(seat=seat_words(table, seat))
    lines = [W_SEATS]
    for row in sorted(table.seats, key=lambda s: s.seat):
        colour, shape = layout.MARK_WORDS[layout.seat_mark(row.seat)]
        name = seat_words(table, row.seat) + (W_AI if row.is_ai and not shows_ai(row.name) else "")
        lines.append("- " + W_SEAT.format(name=name, colour=colour, shape=shape))
    lines.append(_turn_line(table))
    lines.append(W_POSITION)
    reading = game.read_board(view)
    names = table.names()
    if reading:
        lines += ["- " + fill_names(line, names, markdown=True) for line in reading]
    else:
        lines.append(game.text_view(view, names))
    lines.append(W_LAST)
    lines += ["- " + fill_names(line, names, markdown=True) for line in log if line] or ["- " + W_NO_MOVES]
    return _pages(f"{head} — {whose}", lines)


def _turn_line(table: Table) -> str:
    if table.over:
        return W_OVER
    to_act = table.engine.to_act()
    if not to_act:
        return W_WAITING
    who = ", ".join(seat_words(table, s) for s in to_act)
    return (W_TURN if len(to_act) == 1 else W_TURN_MANY).format(who=who)


def _pages(head: str, lines: list[str]) -> list[str]:
    """``lines`` under ``head`` in pages of at most PAGE characters, each line whole (a line longer than
    a page is clipped), every page headed and numbered when there are several."""
    room = PAGE - len(head) - len(W_PAGE.format(page=MAX_PAGES, pages=MAX_PAGES)) - 1
    pages: list[list[str]] = [[]]
    used = 0
    for line in lines:
        line = layout.clip(line, room)
        if pages[-1] and used + len(line) + 1 > room:
            pages.append([])
            used = 0
        pages[-1].append(line)
        used += len(line) + 1
    if len(pages) > MAX_PAGES:
        pages = pages[:MAX_PAGES]
        last = pages[-1]
        while last and sum(len(x) + 1 for x in last) + len(W_CUT) + 1 > room:
            last.pop()
        last.append(W_CUT)
    count = len(pages)
    out = []
    for k, page in enumerate(pages, 1):
        title = head + (W_PAGE.format(page=k, pages=count) if count > 1 else "")
        out.append("\n".join([title, *page]))
    return out
