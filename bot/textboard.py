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
from bot.games.phrase import ENGLISH, N_, Voice
from bot.menus import in_language
from bot.tables import Table
from bot.voiced import voiced

PAGE = 2000  # characters of a message's content: every page fits Discord's limits (4000 for the largest)
MAX_PAGES = 4  # a position longer than this is cut (none is: a 6-player Enemy in Sight takes two)

W_PAGE = N_(" (page {page} of {pages})")
W_CUT = N_("… (the rest does not fit)")
# Each seat's mark in words (layout.MARK_WORDS: its colour and shape), one message each.
MARK_SAID = {
    "🔵": N_("{name}: the blue circle"),
    "🟥": N_("{name}: the red square"),
    "💚": N_("{name}: the green heart"),
    "⭐": N_("{name}: the yellow star"),
    "🌸": N_("{name}: the pink blossom"),
    "💎": N_("{name}: the sky gem"),
}


def seat_words(table: Table, seat: int) -> str:
    """A seat as text says it: its mark always with its player's name (escaped), never alone."""
    return f"{layout.seat_mark(seat)} {table.shown_name(seat)}"


def text_board(
    table: Table, seat: int | None, log: list[str], moves: int, speaker: Voice = ENGLISH
) -> list[str]:
    """The pages of ``seat``'s text board (None: the spectators'), ``log`` the table's last public
    lines (seats as ``who(seat)``), oldest first, in the language of ``speaker``. Each page at most
    :data:`PAGE` characters."""
    _ = speaker.gettext
    game = table.engine
    view = game.view(seat)
    head = _(
        "📜 **Text board: {game}**, game #{id}, move {moves}", game=table.spec.title, id=table.id, moves=moves
    )
    if seat is None:
        whose = _("what everyone at the table sees")
    else:
        whose = _("your own view, as {seat}", seat=seat_words(table, seat))
    lines = [_("**Seats:**")]
    for row in sorted(table.seats, key=lambda s: s.seat):
        name = seat_words(table, row.seat)
        if row.is_ai and not shows_ai(row.name):
            name = _("{name} (AI)", name=name)
        lines.append("- " + _(MARK_SAID[layout.seat_mark(row.seat)], name=name))
    lines.append(_turn_line(table, speaker))
    lines.append(_("**Position:**"))
    reading = game.read_board(view, **in_language(speaker))
    names = table.names()
    if reading:
        lines += ["- " + fill_names(line, names, markdown=True) for line in reading]
    else:
        lines.append(voiced(game.text_view, view, names, speaker=speaker))
    lines.append(_("**Last public moves, oldest first:**"))
    shown = ["- " + fill_names(speaker.say(line), names, markdown=True) for line in log if line]
    lines += shown or ["- " + _("none yet")]
    return _pages(f"{head} — {whose}", lines, speaker)


def _turn_line(table: Table, speaker: Voice) -> str:
    _ = speaker.gettext
    if table.over:
        return _("**Now:** the game is over.")
    to_act = table.engine.to_act()
    if not to_act:
        return _("**Now:** waiting.")
    who = ", ".join(seat_words(table, s) for s in to_act)
    if len(to_act) == 1:
        return _("**Now:** {who} to act.", who=who)
    return _("**Now:** {who} choosing in secret.", who=who)


def _pages(head: str, lines: list[str], speaker: Voice = ENGLISH) -> list[str]:
    """``lines`` under ``head`` in pages of at most PAGE characters, each line whole (a line longer than
    a page is clipped), every page headed and numbered when there are several."""
    _ = speaker.gettext
    numbered = _(W_PAGE, page=MAX_PAGES, pages=MAX_PAGES)
    cut = _(W_CUT)
    room = PAGE - len(head) - len(numbered) - 1
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
        while last and sum(len(x) + 1 for x in last) + len(cut) + 1 > room:
            last.pop()
        last.append(cut)
    count = len(pages)
    out = []
    for k, page in enumerate(pages, 1):
        title = head + (_(W_PAGE, page=k, pages=count) if count > 1 else "")
        out.append("\n".join([title, *page]))
    return out
