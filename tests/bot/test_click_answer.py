"""bot/click_answer.py: a move's "✅ Played" waits for the table to show it, not for the whole publish."""

from __future__ import annotations

import asyncio
import datetime
import types

from bot.click_answer import ClickAnswer


def clicked() -> types.SimpleNamespace:
    """What ClickAnswer reads of an interaction: its age, its extras, whether it is answered."""

    async def defer():
        return None

    return types.SimpleNamespace(
        created_at=datetime.datetime.now(datetime.UTC),
        extras={},
        response=types.SimpleNamespace(is_done=lambda: True, defer=defer),
    )


async def test_a_moves_answer_goes_once_the_table_shows_it():
    answer = ClickAnswer(clicked(), quick=10)
    published = asyncio.get_running_loop().create_future()
    waiting = asyncio.ensure_future(answer.shown(published))
    await asyncio.sleep(0.01)
    assert not waiting.done()
    answer.table_shown.set()  # the publish showed the table; its pings are still to go
    await asyncio.wait_for(waiting, 1)
    assert not published.done()
    await answer.close()


async def test_a_moves_answer_goes_when_its_publish_ends_without_showing_the_table():
    answer = ClickAnswer(clicked(), quick=10)
    published = asyncio.get_running_loop().create_future()
    waiting = asyncio.ensure_future(answer.shown(published))
    await asyncio.sleep(0.01)
    published.set_result(False)  # failed before the table (retried in the background)
    await asyncio.wait_for(waiting, 1)
    assert not answer.table_shown.is_set()
    await answer.shown(None)  # nothing published (no move): at once
    await answer.close()
