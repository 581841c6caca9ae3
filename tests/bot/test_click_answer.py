"""bot/click_answer.py: a move's "✅ Played" waits for the table to show it, not for the whole publish."""

from __future__ import annotations

import asyncio
import datetime
import gc
import types
import weakref

from bot.click_answer import ClickAnswer


def clicked(answered: bool = True) -> types.SimpleNamespace:
    """What ClickAnswer reads of an interaction: its age, its extras, whether it is answered; the
    deferrals it was sent are counted in ``deferred``."""
    state = {"done": answered}

    async def defer():
        click.deferred += 1
        state["done"] = True

    click = types.SimpleNamespace(
        id=1,
        created_at=datetime.datetime.now(datetime.UTC),
        extras={},
        deferred=0,
        response=types.SimpleNamespace(is_done=lambda: state["done"], defer=defer),
    )
    return click


async def test_a_moves_answer_goes_once_the_table_shows_it():
    answer = ClickAnswer(clicked(), quick=10)
    published = asyncio.get_running_loop().create_future()
    waiting = asyncio.ensure_future(answer.shown(published))
    await asyncio.sleep(0.01)
    assert not waiting.done()
    answer.table_shows()  # the publish showed the table; its pings are still to go
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
    assert not answer.on_table
    await answer.shown(None)  # nothing published (no move): at once
    await answer.close()


async def test_a_click_not_answered_in_time_is_deferred_once():
    click = clicked(answered=False)
    answer = ClickAnswer(click, quick=0.01)
    await asyncio.sleep(0.1)
    assert click.deferred == 1
    await answer.defer()  # answered already: no second deferral
    await answer.close()
    assert click.deferred == 1


async def test_a_click_answered_in_time_is_never_deferred():
    click = clicked(answered=False)
    answer = ClickAnswer(click, quick=0.05)
    await answer.defer()  # (the answer itself, here: the stand-in's defer marks it answered)
    await answer.close()
    await asyncio.sleep(0.1)
    assert click.deferred == 1  # the answer, and no deferral after it


async def test_an_answered_click_lets_go_of_its_answer_without_the_collector():
    # what a click's answer holds must be freed by reference counting when the click is done: under
    # load a cycle outlives the young collections and costs a long pause of the older ones
    click = clicked(answered=True)
    answer = ClickAnswer(click, quick=10)
    published = asyncio.get_running_loop().create_future()
    waiting = asyncio.ensure_future(answer.shown(published))
    await asyncio.sleep(0)
    answer.table_shows()
    await waiting
    await answer.close()
    assert click.extras == {}
    gone = weakref.ref(answer)
    gc.disable()
    try:
        del answer, waiting
        assert gone() is None
    finally:
        gc.enable()
