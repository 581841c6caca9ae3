"""Discord's rate limits, modelled: headers on every answer, per-channel message buckets, the global limit
per token with the interaction endpoints exempt, 429s that a real discord.py client waits out and retries;
and the call counter (fd.calls / fd.count())."""

from __future__ import annotations

import asyncio
import time

import discord
import pytest

from tests.fakediscord import FakeDiscord, RateLimits, running_bot
from tests.fakediscord.ratelimits import CALLBACK, FOLLOWUP, MESSAGE_CREATE, MESSAGE_EDIT, ORIGINAL_EDIT


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


async def send(fd, channel="general", text="x"):
    ch = fd.channel(channel).id
    return await fd.bot_request("POST", f"/channels/{ch}/messages", json_body={"content": text})


async def test_successful_answers_carry_the_bucket_headers():
    clock = Clock()
    async with FakeDiscord(rate_limits=True, clock=clock) as fd:
        status, h, _ = await send(fd)
        assert status == 200
        assert (h["X-RateLimit-Limit"], h["X-RateLimit-Remaining"]) == ("5", "4")
        assert float(h["X-RateLimit-Reset-After"]) == 5.0 and float(h["X-RateLimit-Reset"]) > time.time()
        clock.now += 2.0
        status, h2, _ = await send(fd)
        assert h2["X-RateLimit-Remaining"] == "3" and float(h2["X-RateLimit-Reset-After"]) == 3.0
        assert h2["X-RateLimit-Bucket"] == h["X-RateLimit-Bucket"]
        status, h3, _ = await fd.bot_request("GET", "/users/@me")
        assert h3["X-RateLimit-Bucket"] != h["X-RateLimit-Bucket"]


async def test_message_creates_are_limited_per_channel_and_answered_like_discord():
    clock = Clock()
    async with FakeDiscord(rate_limits=True, clock=clock) as fd:
        for _ in range(5):
            assert (await send(fd))[0] == 200
        clock.now += 1.25
        status, h, body = await send(fd)
        assert status == 429
        assert body == {"message": "You are being rate limited.", "retry_after": 3.75, "global": False}
        assert h["Retry-After"] == "4" and h["X-RateLimit-Scope"] == "user" and h["Via"]
        assert h["X-RateLimit-Remaining"] == "0" and h["X-RateLimit-Limit"] == "5"
        assert float(h["X-RateLimit-Reset-After"]) == 3.75 and "X-RateLimit-Global" not in h
        assert (await send(fd, "games"))[0] == 200  # another channel: another bucket
        # edits in the same channel have their own bucket
        ch, mid = fd.channel("general").id, fd.channel_messages("general")[0].id
        status, _, _ = await fd.bot_request(
            "PATCH", f"/channels/{ch}/messages/{mid}", json_body={"content": "e"}
        )
        assert status == 200
        clock.now += 3.75
        assert (await send(fd))[0] == 200  # the window has passed
        assert fd.calls.rate_limited == {f"{MESSAGE_CREATE} [{ch}]": 1}
        assert len(fd.channel_messages("general")) == 6


async def test_the_global_limit_spares_interaction_endpoints():
    clock = Clock()
    async with FakeDiscord(rate_limits=RateLimits(global_per_second=3), clock=clock) as fd:
        app = fd.application_id
        rec = fd._new_interaction(
            fd.user("alice").user,
            fd.channel("general"),
            2,
            {"id": "1", "name": "x", "type": 1},
            command_name="x",
        )
        for _ in range(3):
            assert (await fd.bot_request("GET", "/users/@me"))[0] == 200
        status, h, body = await send(fd)
        assert status == 429 and body["global"] is True and body["retry_after"] == 1.0
        assert (
            h["X-RateLimit-Global"] == "true"
            and h["X-RateLimit-Scope"] == "global"
            and h["Retry-After"] == "1"
        )
        # exempt: the callback and everything under /webhooks/{app}/{token}
        assert (
            await fd.bot_request(
                "POST",
                f"/interactions/{rec.id}/{rec.token}/callback",
                auth=False,
                json_body={"type": 4, "data": {"content": "hi"}},
            )
        )[0] == 204
        assert (
            await fd.bot_request(
                "POST", f"/webhooks/{app}/{rec.token}", json_body={"content": "more"}, auth=False
            )
        )[0] == 204
        assert (
            await fd.bot_request(
                "PATCH",
                f"/webhooks/{app}/{rec.token}/messages/@original",
                json_body={"content": "hi!"},
                auth=False,
            )
        )[0] == 200
        assert (await fd.bot_request("GET", "/users/@me"))[0] == 429
        clock.now += 1.0
        assert (await fd.bot_request("GET", "/users/@me"))[0] == 200
        c = fd.calls
        assert (c.global_limited, c.exempt, c.rate_limited["global"]) == (6, 3, 2)
        assert c[CALLBACK] == 1 and c[FOLLOWUP] == 1 and c[ORIGINAL_EDIT] == 1


async def test_switched_off_by_setting_or_at_run_time():
    async with FakeDiscord(rate_limits=False) as fd:
        for _ in range(8):
            status, h, _ = await send(fd)
            assert status == 200 and "X-RateLimit-Limit" not in h
        fd.set_rate_limits(True, message_create=(1, 60.0))
        assert (await send(fd, "games"))[0] == 200
        assert (await send(fd, "games"))[0] == 429
        fd.set_rate_limits(False)
        assert (await send(fd, "games"))[0] == 200
        with pytest.raises(AssertionError):
            fd.set_rate_limits(nonsense=1)


@pytest.fixture
async def client_on(request):
    """A plain discord.py client on a fake with the given limits: the test drives its real HTTPClient."""
    async with FakeDiscord(rate_limits=request.param) as fd:
        client = discord.Client(intents=discord.Intents.default())
        async with running_bot(client, fd):
            yield fd, client


@pytest.mark.parametrize("client_on", [RateLimits(message_create=(2, 0.6))], indirect=True)
async def test_discord_py_waits_pre_emptively_on_the_bucket_headers(client_on):
    fd, client = client_on
    channel = client.get_channel(fd.channel("games").id)
    t0 = time.monotonic()
    for i in range(5):
        await channel.send(f"m{i}")
    elapsed = time.monotonic() - t0
    msgs = fd.channel_messages("games")
    assert [m.content for m in msgs] == [f"m{i}" for i in range(5)]
    assert elapsed >= 1.1  # three windows of 0.6 s: 2 + 2 + 1
    assert fd.calls.rate_limited_total == 0  # it never needed a 429
    assert fd.calls[MESSAGE_CREATE] == 5


@pytest.mark.parametrize("client_on", [RateLimits(global_per_second=4)], indirect=True)
async def test_discord_py_waits_out_a_global_429_and_retries(client_on):
    fd, client = client_on
    await asyncio.sleep(1.05)  # a fresh global window
    channels = [client.get_channel(fd.channel(n).id) for n in ("general", "games")]
    t0 = time.monotonic()
    await asyncio.gather(*(channels[i % 2].send(f"g{i}") for i in range(6)))
    elapsed = time.monotonic() - t0
    assert sorted(m.content for n in ("general", "games") for m in fd.channel_messages(n)) == [
        f"g{i}" for i in range(6)
    ]
    assert fd.calls.rate_limited["global"] >= 1
    assert elapsed >= 0.8  # the retries waited for the next global window
    assert fd.calls.statuses[(MESSAGE_CREATE, 200)] == 6


async def test_counting_the_calls_of_one_action(fd, bot):
    alice = fd.user("alice")
    r = await alice.slash("game new", game="warships")
    with fd.count() as c:
        await alice.click(r.message, "Fire")  # answered by type 7: one exempt call
    assert (c.total, c.global_limited, c.exempt) == (1, 0, 1) and c[CALLBACK] == 1
    with fd.count() as c:
        await alice.slash("post")  # defer, channel send, channel edit, follow-up
    assert c[MESSAGE_CREATE] == 1 and c[MESSAGE_EDIT] == 1 and c[CALLBACK] == 1
    assert (c.global_limited, c.exempt) == (2, 2)
    assert c.snapshot()["by_route"] == {CALLBACK: 1, MESSAGE_CREATE: 1, MESSAGE_EDIT: 1, FOLLOWUP: 1}
    assert fd.calls.total >= 5
    fd.calls.reset()
    assert fd.calls.total == 0 and fd.calls.by_route == {}


async def test_injected_faults_are_counted_per_bucket(fd):
    fd.faults.rate_limit("POST /channels/", times=2, retry_after=0.01)
    for _ in range(3):
        await send(fd)
    assert fd.calls.rate_limited == {f"fault {MESSAGE_CREATE}": 2}
    assert fd.calls.statuses[(MESSAGE_CREATE, 200)] == 1
