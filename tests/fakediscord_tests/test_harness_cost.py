"""What the loopback Discord itself costs (issue 19: the load bench runs it beside the bot on the same two
cores, ~7 ms of CPU a move): its waiters, its copies of components, its JSON and its reading of
multipart bodies. Each cut keeps what it serves as it was."""

from __future__ import annotations

import asyncio
import copy

import aiohttp
import aiohttp.helpers
import aiohttp.multipart
import pytest

from tests.fakediscord import models
from tests.fakediscord_tests.test_components_v2 import PNG, full_board
from tests.fakediscord_tests.test_limits import post


async def test_waiters_cost_no_task_of_their_own_and_see_every_change(fd):
    """wait_for: a hundred waiters across twenty changes of the fake start no task and wake nothing of
    their own (each made a task every wake-up: every change woke every waiter); each still returns
    once its message shows, and a predicate's error reaches its waiter."""
    loop = asyncio.get_running_loop()
    made = []
    default = loop.get_task_factory()

    def factory(loop, coro, **kwargs):
        made.append(coro)
        return asyncio.Task(coro, loop=loop, **kwargs) if default is None else default(loop, coro, **kwargs)

    channel = fd.channel("general")
    ids: list[int] = []

    def shown(n):
        return lambda: len(ids) > n and fd.message(ids[n])

    waiters = [asyncio.ensure_future(fd.wait_for(shown(i % 20), timeout=10)) for i in range(100)]
    await asyncio.sleep(0)
    loop.set_task_factory(factory)
    try:
        for n in range(20):
            status, _, data = await fd.bot_request(
                "POST", f"/channels/{channel.id}/messages", json_body={"content": f"m{n}"}
            )
            assert status == 200
            ids.append(int(data["id"]))
        done = await asyncio.gather(*waiters)
    finally:
        loop.set_task_factory(default)
    assert [m.content for m in done] == [f"m{i % 20}" for i in range(100)]
    # (aiohttp's own tasks of the requests aside) none for the waiters: they made an Event.wait task each
    assert [c for c in made if getattr(c, "__qualname__", "").startswith(("Event.", "FakeDiscord."))] == []

    def broken():
        raise KeyError("gone")

    with pytest.raises(KeyError):
        await fd.wait_for(lambda: ids.append(0) is None and len(ids) > 21 and broken(), timeout=2)
    with pytest.raises(TimeoutError, match="not met within 0.1s"):
        await fd.wait_for(lambda: False, timeout=0.1)
    assert fd._waiters == {}


async def test_a_multipart_body_is_read_without_the_email_parser(fd, monkeypatch):
    """The media type of a request is read from its header: aiohttp's ``content_type`` parses it with
    the email package, and its cache never holds a multipart header (a new boundary each request)."""
    parsed = []
    real = aiohttp.helpers.parse_content_type
    monkeypatch.setattr(aiohttp.helpers, "parse_content_type", lambda raw: parsed.append(raw) or real(raw))
    status, _, data = await post(fd, full_board(), files=[("board.png", PNG), ("log.txt", b"log")])
    assert status == 200, data
    assert fd.message(int(data["id"])).gallery_attachments[0].data == PNG
    assert [raw for raw in parsed if raw.startswith("multipart/")] == []


async def test_a_multipart_parts_disposition_is_parsed_once_per_header(fd, monkeypatch):
    """A part's name and file name come from one parse of its Content-Disposition header, kept for the
    next body with the same header (aiohttp's ``part.name`` and ``part.filename`` parsed it each time);
    what is stored is the same."""
    await post(fd, full_board(), files=[("board.png", PNG), ("log.txt", b"log")])
    parsed = []
    real = aiohttp.multipart.parse_content_disposition
    monkeypatch.setattr(aiohttp.multipart, "parse_content_disposition", lambda h: parsed.append(h) or real(h))
    status, _, data = await post(fd, full_board(), files=[("board.png", PNG), ("log.txt", b"log")])
    assert status == 200, data
    msg = fd.message(int(data["id"]))
    assert msg.gallery_attachments[0].data == PNG
    assert sorted(a.filename for a in msg.attachments) == ["board.png", "log.txt"]
    # three parts: aiohttp's reader parses each one's header once itself (is it a `_charset_` part?);
    # the name and the file name asked of the parts parsed them twice more (8 in all)
    assert len(parsed) <= 3, parsed


async def test_components_are_copied_without_deepcopy(fd, monkeypatch):
    """A message's components are stored, shown and sent as copies of JSON data (marshal's round trip),
    not by ``copy.deepcopy``; the copies are the message's own."""

    def refuse(*args, **kwargs):
        raise AssertionError("copy.deepcopy called")

    monkeypatch.setattr(copy, "deepcopy", refuse)
    status, _, data = await post(fd, full_board(), files=[("board.png", PNG), ("log.txt", b"log")])
    assert status == 200, data
    msg = fd.message(int(data["id"]))
    payload = msg.to_payload()
    assert payload["components"] == msg.components and payload["components"] is not msg.components
    payload["components"][0]["components"].clear()
    assert msg.buttons and msg.snapshot()["components"] == msg.components


async def test_an_edit_keeps_the_components_it_replaced_without_copying_them(fd, monkeypatch):
    """The edit history holds what a message showed before each edit: the components an edit replaces
    go there as they were (the message gets new ones), not copied once more; history and message stay
    apart."""
    status, _, data = await post(fd, full_board(), files=[("board.png", PNG), ("log.txt", b"log")])
    msg = fd.message(int(data["id"]))
    before = msg.components
    shown = models.json_copy(before)
    copied = []
    real = models.json_copy
    monkeypatch.setattr(models, "json_copy", lambda value: copied.append(value) or real(value))
    status, _, _ = await fd.bot_request(
        "PATCH",
        f"/channels/{msg.channel_id}/messages/{msg.id}",
        json_body={"components": [{"type": 10, "content": "edited"}]},
    )
    assert status == 200
    assert msg.edits[-1]["components"] is before == shown and msg.components is not before
    assert not any(value is before for value in copied)
    msg.components[0]["content"] = "changed"
    assert msg.edits[-1]["components"] == shown


async def test_responses_are_utf_8_json_as_discords_are(fd):
    """The fake answers in UTF-8 JSON (orjson: names in any script as they are, not \\u escapes), as
    Discord does."""
    channel = fd.channel("general")
    async with aiohttp.ClientSession() as http:
        async with http.post(
            f"{fd.api_base}/channels/{channel.id}/messages",
            json={"content": "Жора ⚓"},
            headers={"Authorization": "Bot fake-token"},
        ) as resp:
            raw = await resp.read()
            assert resp.status == 200
    assert "Жора ⚓".encode() in raw


async def test_no_message_event_is_built_for_a_bot_without_message_intents(fd, monkeypatch):
    """A message created, edited or deleted is made into a gateway event only when a session asked for
    message events: the bot asks for none (its intents), so the fake builds no payload for it."""
    built = []
    real = models.Message.to_payload
    monkeypatch.setattr(models.Message, "to_payload", lambda self: built.append(self.id) or real(self))
    channel = fd.channel("general")
    msg = fd._create_message(channel, fd.bot_user, {"content": "hi"}, [])
    fd._edit_message(msg, {"content": "edited"}, [])
    fd._delete_message(msg)
    assert built == []


@pytest.mark.parametrize(
    "text",
    [
        '{"content": "Жора ⚓", "flags": 32768, "nonce": null, "tts": false}',
        '{"id": "123456789012345678901234"}',
        '{"n": 123456789012345678901234567890}',
        "[-9223372036854775809, 18446744073709551616, 1e400, -0.0]",
        '"\\ud800"',
        "NaN",
        "[1.0000000000000001, 5e-324]",
    ],
)
def test_request_json_is_read_as_the_json_module_reads_it(text):
    """Request bodies are read by orjson where it reads them as the json module does; integers beyond
    64 bits (orjson: floats), NaN, infinities and lone surrogates by the json module."""
    import json

    for raw in (text, text.encode()):
        got, want = models.json_loads(raw), json.loads(raw)
        assert repr(got) == repr(want) and type(got) is type(want)
    with pytest.raises(ValueError):
        models.json_loads("{not json")


async def test_responses_and_events_are_written_from_the_messages_own_components(fd, monkeypatch):
    """A message's components are copied for the fake's store and for what a test reads from it
    (``to_payload()``), not for a REST response or a gateway event, which are written out as JSON text at
    once; an edit afterwards does not reach the text already sent."""
    status, _, data = await post(fd, full_board(), files=[("board.png", PNG), ("log.txt", b"log")])
    msg = fd.message(int(data["id"]))
    copied = []
    real = models.json_copy
    monkeypatch.setattr(models, "json_copy", lambda value: copied.append(value) or real(value))
    status, _, got = await fd.bot_request("GET", f"/channels/{msg.channel_id}/messages/{msg.id}")
    assert status == 200 and got["components"] == msg.components
    assert copied == []
    assert msg.to_payload()["components"] is not msg.components and len(copied) == 2  # embeds, components


def test_a_route_is_found_among_those_of_its_method_and_first_segment():
    """The fake looks a request's route up among those of its method and first path segment; it finds
    the same route (the first that matches, in order) as a scan of every route."""
    from tests.fakediscord import server

    paths = [
        "/users/@me",
        "/users/12",
        "/oauth2/applications/@me",
        "/applications/@me",
        "/applications/1/commands",
        "/applications/1/commands/2",
        "/applications/1/guilds/2/commands",
        "/gateway",
        "/gateway/bot",
        "/guilds/3/members/4",
        "/channels/1",
        "/channels/1/messages",
        "/channels/1/messages/2",
        "/channels/1/messages/2/reactions/%E2%9A%93/@me",
        "/channels/1/thread-members/@me",
        "/interactions/1/token/callback",
        "/webhooks/1/token",
        "/webhooks/1/token/messages/@original",
        "/webhooks/1/token/messages/5",
        "/nothing/here",
        "//channels/1",
        "/",
        "",
    ]
    for method in ("GET", "POST", "PUT", "PATCH", "DELETE"):
        for path in paths:
            scan = next((h for m, p, h, _, _ in server._ROUTES if m == method and p.fullmatch(path)), None)
            found = server._match_route(method, path)
            assert (found[1] if found else None) == scan, (method, path)


async def test_waiting_for_an_answer_is_checked_only_when_that_interaction_changes(fd):
    """InteractionResult.wait_for_answer re-checks its predicate when its interaction is answered or its
    message edited (through the channel too), not at each change elsewhere in the fake; it returns once
    the predicate holds and leaves no watch behind."""
    from tests.fakediscord.users import InteractionResult

    general, games = fd.channel("general"), fd.channel("games")
    status, _, data = await fd.bot_request(
        "POST", f"/channels/{general.id}/messages", json_body={"content": "table"}
    )
    table = fd.message(int(data["id"]))
    rec = fd._new_interaction(
        fd.user("alice").user, general, 3, {"custom_id": "x", "component_type": 2}, message=table
    )
    result = InteractionResult(fd, rec)
    checks = []
    waiter = asyncio.ensure_future(
        result.wait_for_answer(lambda r: checks.append(r.response_type) or r.updated, timeout=10)
    )
    await asyncio.sleep(0)
    for n in range(20):  # changes elsewhere: no check
        await fd.bot_request("POST", f"/channels/{games.id}/messages", json_body={"content": f"m{n}"})
    assert checks == [None]
    status, _, _ = await fd.bot_request(
        "POST", f"/interactions/{rec.id}/{rec.token}/callback", json_body={"type": 6}, auth=False
    )
    assert status == 204
    await asyncio.sleep(0)
    assert checks == [None, 6] and not waiter.done()
    await fd.bot_request(
        "PATCH", f"/channels/{general.id}/messages/{table.id}", json_body={"content": "table, move 2"}
    )
    assert await asyncio.wait_for(waiter, 2) is True
    assert checks == [None, 6, 6] and fd._watch == {}


async def test_a_channel_counts_the_changes_of_its_messages(fd):
    """Channel.changes grows when a message of the channel is created, edited or deleted, and only then
    (a reader that scans a channel's messages looks again only after a change; a DM counts its own)."""
    general, games = fd.channel("general"), fd.channel("games")
    before = general.changes
    status, _, data = await fd.bot_request(
        "POST", f"/channels/{general.id}/messages", json_body={"content": "table"}
    )
    assert general.changes == before + 1
    mid = data["id"]
    await fd.bot_request("PATCH", f"/channels/{general.id}/messages/{mid}", json_body={"content": "move 2"})
    assert general.changes == before + 2
    await fd.bot_request("GET", f"/channels/{general.id}/messages/{mid}")
    await fd.bot_request("POST", f"/channels/{games.id}/messages", json_body={"content": "elsewhere"})
    assert general.changes == before + 2
    await fd.bot_request("DELETE", f"/channels/{general.id}/messages/{mid}")
    assert general.changes == before + 3
    dm = fd.open_dm(fd.user("alice").user)
    status, _, _ = await fd.bot_request("POST", f"/channels/{dm.id}/messages", json_body={"content": "hi"})
    assert status == 200 and dm.changes == 1 and general.changes == before + 3
