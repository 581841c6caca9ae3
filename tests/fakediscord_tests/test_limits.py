"""Discord's limits, enforced by the fake: raw REST checks, and how they show up in a discord.py bot."""

import asyncio

import discord
import pytest

from tests.fakediscord import FakeDiscord, running_bot
from tests.fakediscord_tests.sample_bot import make_bot


def row(*components):
    return {"type": 1, "components": list(components)}


def button(cid, label="b"):
    return {"type": 2, "style": 1, "label": label, "custom_id": cid}


def select(cid, n):
    return {"type": 3, "custom_id": cid, "options": [{"label": f"o{i}", "value": f"v{i}"} for i in range(n)]}


async def post(fd, body, files=None, channel="general"):
    ch = fd.channel(channel).id
    return await fd.bot_request("POST", f"/channels/{ch}/messages", json_body=body, files=files)


def error_paths(tree, prefix=()):
    out = []
    for k, v in tree.items():
        if k == "_errors":
            out.append(".".join(prefix))
        else:
            out.extend(error_paths(v, prefix + (k,)))
    return out


async def test_limits_exactly_at_the_maximum_are_accepted(fd):
    rows = [row(*[button(f"r{r}c{c}") for c in range(5)]) for r in range(4)] + [row(select("s", 25))]
    status, _, body = await post(fd, {"content": "x" * 2000, "components": rows})
    assert status == 200, body
    msg = fd.message(int(body["id"]))
    assert len(msg.buttons) == 20 and len(msg.selects[0].options) == 25
    assert msg.content == "x" * 2000
    status, _, _ = await post(fd, {"content": "c", "components": [row(button("y" * 100))]})
    assert status == 200


@pytest.mark.parametrize(
    "body, path",
    [
        ({"content": "x" * 2001}, "content"),
        ({"components": [row(button(f"r{r}")) for r in range(6)]}, "components"),
        ({"components": [row(*[button(f"c{c}") for c in range(6)])]}, "components.0.components"),
        ({"components": [row(button("same"), button("same"))]}, "components.0.components.1.custom_id"),
        ({"components": [row(button("a")), row(button("a"))]}, "components.1.components.0.custom_id"),
        ({"components": [row(button("z" * 101))]}, "components.0.components.0.custom_id"),
        ({"components": [row(button(""))]}, "components.0.components.0.custom_id"),
        ({"components": [row(select("s", 26))]}, "components.0.components.0.options"),
        ({"components": [row(select("s", 2), button("b"))]}, "components.0.components"),
        ({"components": [button("loose")]}, "components.0.type"),
        ({"embeds": [{"description": "d" * 4000}, {"description": "d" * 2001}]}, "embeds"),
        ({"embeds": [{"title": "t" * 257}]}, "embeds.0.title"),
    ],
)
async def test_limit_violations_get_400_invalid_form_body(fd, body, path):
    status, headers, err = await post(fd, body)
    assert status == 400 and headers["Content-Type"] == "application/json"
    assert err["code"] == 50035 and err["message"] == "Invalid Form Body"
    assert path in error_paths(err["errors"])
    assert fd.channel_messages("general") == []


async def test_empty_message_refused(fd):
    status, _, err = await post(fd, {"content": ""})
    assert status == 400 and err["code"] == 50006


async def test_attachment_over_10_mib_refused_with_413(fd):
    status, _, err = await post(fd, {"content": "big"}, files=[("big.bin", b"\0" * (10 * 1024 * 1024 + 1))])
    assert status == 413 and err["code"] == 40005
    status, _, body = await post(fd, {"content": "ok"}, files=[("ok.bin", b"\1" * (1024 * 1024))])
    assert status == 200 and body["attachments"][0]["size"] == 1024 * 1024


async def test_ephemeral_flag_ignored_outside_interactions(fd):
    status, _, body = await post(fd, {"content": "public anyway", "flags": 64})
    assert status == 200 and body["flags"] == 0
    msg = fd.message(int(body["id"]))
    assert not msg.ephemeral and msg in fd.user("bob").visible("general")


async def test_too_long_custom_id_is_an_http_exception_in_the_bot(fd, bot):
    result = await fd.user("alice").slash("badview")
    [exc] = bot.errors
    assert isinstance(exc, discord.HTTPException) and exc.status == 400 and exc.code == 50035
    assert "custom_id" in str(exc)
    # the refused callback did not acknowledge the interaction, so the bot could still answer
    assert result.message.content == "the view was refused"


async def test_late_first_response_fails_like_discord():
    async with FakeDiscord(interaction_timeout=0.5) as fd:
        bot = make_bot(fd.guild.id)
        bot.slow_delay = 0.9
        async with running_bot(bot, fd):
            result = await fd.user("alice").slash("slow")
            assert result.failed and result.messages == []
            await fd.wait_for(lambda: bot.errors, 3)
            [exc] = bot.errors
            assert isinstance(exc, discord.NotFound) and exc.code == 10062
            assert fd.channel_messages("general", ephemeral=True) == []


async def test_second_initial_response_is_already_acknowledged(fd, bot):
    result = await fd.user("alice").slash("secret")
    rec = result.interaction
    status, _, err = await fd.bot_request(
        "POST",
        f"/interactions/{rec.id}/{rec.token}/callback",
        json_body={"type": 4, "data": {"content": "again"}},
        auth=False,
    )
    assert status == 400 and err["code"] == 40060
    status, _, err = await fd.bot_request(
        "POST",
        f"/interactions/{rec.id}/wrong-token/callback",
        json_body={"type": 4, "data": {"content": "x"}},
        auth=False,
    )
    assert status == 404 and err["code"] == 10062


async def test_interaction_token_expires():
    async with FakeDiscord(token_ttl=1.0) as fd:
        bot = make_bot(fd.guild.id)
        bot.later_delay = 1.3
        async with running_bot(bot, fd):
            result = await fd.user("alice").slash("later")
            assert result.message.content == "first"
            await fd.wait_for(lambda: bot.errors, 3)
            [exc] = bot.errors
            assert isinstance(exc, discord.HTTPException) and exc.status == 401 and exc.code == 50027
            assert [m.content for m in fd.channel_messages("general")] == ["first"]


async def test_response_types_must_fit_the_interaction(fd, bot):
    result = await fd.user("alice").slash("secret")
    await asyncio.sleep(0)
    # a fresh interaction answered with "update message" although a slash command has no message
    rec = fd._new_interaction(
        fd.user("bob").user,
        fd.channel("general"),
        2,
        {"id": "1", "name": "nosuch", "type": 1},
        command_name="nosuch",
    )
    status, _, err = await fd.bot_request(
        "POST",
        f"/interactions/{rec.id}/{rec.token}/callback",
        json_body={"type": 7, "data": {"content": "x"}},
        auth=False,
    )
    assert status == 400 and err["code"] == 50035
    assert result.message.content == "shh"


async def test_autocomplete_choices_limited_to_25(fd, bot):
    rec = fd._new_interaction(
        fd.user("bob").user,
        fd.channel("general"),
        4,
        {"id": "1", "name": "nosuch", "type": 1, "options": []},
        command_name="nosuch",
    )
    choices = [{"name": f"c{i}", "value": f"c{i}"} for i in range(26)]
    status, _, err = await fd.bot_request(
        "POST",
        f"/interactions/{rec.id}/{rec.token}/callback",
        json_body={"type": 8, "data": {"choices": choices}},
        auth=False,
    )
    assert status == 400 and "data.choices" in error_paths(err["errors"])


def v2(*children):
    return {"type": 17, "components": list(children)}


async def test_components_v2_messages(fd):
    text = {"type": 10, "content": "Your turn, **alice**"}
    body = {"flags": 1 << 15, "components": [v2(text, row(button("v2:a", "A"), button("v2:b", "B")))]}
    status, _, data = await post(fd, body)
    assert status == 200, data
    msg = fd.message(int(data["id"]))
    assert "Your turn" in msg.text and [b.custom_id for b in msg.buttons] == ["v2:a", "v2:b"]
    status, _, err = await post(fd, {**body, "content": "legacy"})
    assert status == 400 and "content" in error_paths(err["errors"])
    many = {"flags": 1 << 15, "components": [v2(*[{"type": 10, "content": f"t{i}"} for i in range(40)])]}
    status, _, err = await post(fd, many)
    assert status == 400 and "components" in error_paths(err["errors"])
    dup = {"flags": 1 << 15, "components": [v2(row(button("d")), row(button("d")))]}
    status, _, err = await post(fd, dup)
    assert status == 400


async def test_edit_validates_too(fd):
    status, _, data = await post(fd, {"content": "ok"})
    ch = fd.channel("general").id
    status, _, err = await fd.bot_request(
        "PATCH", f"/channels/{ch}/messages/{data['id']}", json_body={"content": "y" * 2001}
    )
    assert status == 400 and err["code"] == 50035
    assert fd.message(int(data["id"])).content == "ok" and fd.message(int(data["id"])).edits == []


async def test_bot_may_not_edit_a_members_message(fd):
    msg = await fd.user("alice").say("general", "mine")
    status, _, err = await fd.bot_request(
        "PATCH", f"/channels/{msg.channel_id}/messages/{msg.id}", json_body={"content": "hijacked"}
    )
    assert status == 403 and err["code"] == 50005 and msg.content == "mine"


async def test_webhook_calls_need_an_acknowledged_live_interaction(fd, bot):
    app = fd.application_id
    rec = fd._new_interaction(
        fd.user("bob").user,
        fd.channel("general"),
        2,
        {"id": "1", "name": "nosuch", "type": 1},
        command_name="nosuch",
    )
    status, _, err = await fd.bot_request(
        "POST", f"/webhooks/{app}/{rec.token}", json_body={"content": "x"}, auth=False, params={"wait": "1"}
    )
    assert status == 404 and err["code"] == 10015
    status, _, err = await fd.bot_request(
        "POST", f"/webhooks/{app}/not-a-token", json_body={"content": "x"}, auth=False
    )
    assert status == 404 and err["code"] == 10015


async def test_original_response_get_edit_delete(fd, bot):
    result = await fd.user("alice").slash("secret")
    rec, app = result.interaction, fd.application_id
    base = f"/webhooks/{app}/{rec.token}/messages/@original"
    status, _, body = await fd.bot_request("GET", base, auth=False)
    assert status == 200 and body["content"] == "shh" and body["flags"] & 64
    status, _, body = await fd.bot_request("PATCH", base, json_body={"content": "shh!"}, auth=False)
    assert status == 200 and result.message.content == "shh!" and result.message.ephemeral
    status, _, _ = await fd.bot_request("DELETE", base, auth=False)
    assert status == 204 and result.message.deleted
    status, _, err = await fd.bot_request("GET", base, auth=False)
    assert status == 404 and err["code"] == 10008
    assert fd.user("alice").visible("general") == []


async def test_rate_limit_until_cleared(fd):
    fd.faults.rate_limit("GET /users/@me", times=None, retry_after=0.01)
    for _ in range(3):
        status, headers, body = await fd.bot_request("GET", "/users/@me")
        assert status == 429 and headers["Via"] and body["retry_after"] == 0.01
    fd.faults.clear()
    status, _, _ = await fd.bot_request("GET", "/users/@me")
    assert status == 200 and fd.faults.count("rate_limit") == 3
