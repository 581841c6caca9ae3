"""Components V2 (flag 1<<15) as Discord checks them: raw REST accept/reject cases, and a real discord.py
LayoutView (container, gallery, section, action rows) sent, clicked, selected and edited in place."""

from __future__ import annotations

import asyncio
import io

import discord
import pytest

from tests.fakediscord import FakeDiscord, running_bot
from tests.fakediscord_tests.test_limits import button, error_paths, post, row, select

V2 = 1 << 15
PNG = b"\x89PNG\r\n\x1a\n" + b"\0" * 64


def text(s):
    return {"type": 10, "content": s}


def container(*children, **extra):
    return {"type": 17, "components": list(children), **extra}


def gallery(*urls):
    return {"type": 12, "items": [{"media": {"url": u}} for u in urls]}


def section(*texts, accessory=None):
    return {
        "type": 9,
        "components": [text(t) for t in texts],
        "accessory": accessory or {"type": 11, "media": {"url": "https://example.com/ship.png"}},
    }


def full_board():
    return {
        "flags": V2,
        "components": [
            container(
                text("# Enemy Lines\nYour turn, **alice**"),
                gallery("attachment://board.png", "https://example.com/legend.png"),
                {"type": 14, "divider": True, "spacing": 2},
                section("Seat 1: alice", "Seat 2: bob"),
                section("Rules", accessory={"type": 2, "style": 2, "label": "Help", "custom_id": "v2:help"}),
                {"type": 13, "file": {"url": "attachment://log.txt"}},
                row(button("v2:fire", "Fire"), button("v2:pass", "Pass")),
                row(select("v2:pick", 3)),
                accent_color=0x1F8B4C,
            )
        ],
    }


async def test_a_full_v2_board_is_accepted_and_readable(fd):
    status, _, data = await post(fd, full_board(), files=[("board.png", PNG), ("log.txt", b"log")])
    assert status == 200, data
    msg = fd.message(int(data["id"]))
    assert msg.v2 and msg.content == "" and msg.embeds == []
    assert "Your turn, **alice**" in msg.text and "Seat 2: bob" in msg.text
    assert msg.text_displays[0].startswith("# Enemy Lines") and len(msg.text_displays) == 4
    assert [b.custom_id for b in msg.buttons] == ["v2:help", "v2:fire", "v2:pass"]
    assert [s.custom_id for s in msg.selects] == ["v2:pick"]
    assert msg.accent_colour == msg.accent_color == 0x1F8B4C
    # attachment:// media point at the uploaded file, as Discord's response does
    assert msg.gallery[0].endswith("/board.png") and msg.gallery[1] == "https://example.com/legend.png"
    assert msg.gallery_attachments[0].data == PNG and msg.gallery_attachments[1] is None
    assert msg.thumbnails == ["https://example.com/ship.png"]
    # components get sequential ids where none was given
    ids = [c["id"] for c in _walk(msg.components)]
    assert len(ids) == len(set(ids)) and 0 not in ids
    assert data["components"][0]["components"][1]["items"][0]["media"]["attachment_id"] == str(
        msg.attachments[0].id
    )


def _walk(comps):
    from tests.fakediscord.models import walk_components

    return list(walk_components(comps))


async def test_exactly_40_components_and_4000_characters_are_accepted(fd):
    # container + 36 text displays + row + button, and one more text display: 40
    texts = [text("x" * 100) for _ in range(36)] + [text("y" * 400)]
    body = {"flags": V2, "components": [container(*texts[:36], row(button("ok")))] + [texts[36]]}
    assert len(_walk(body["components"])) == 40
    assert sum(len(c["content"]) for c in _walk(body["components"]) if c["type"] == 10) == 4000
    status, _, data = await post(fd, body)
    assert status == 200, data


@pytest.mark.parametrize(
    "body, path",
    [
        ({"flags": V2, "content": "legacy", "components": [text("t")]}, "content"),
        ({"flags": V2, "embeds": [{"description": "e"}], "components": [text("t")]}, "embeds"),
        # 41 components counted through the tree: container + 39 texts + row + button = 42
        (
            {"flags": V2, "components": [container(*[text(f"t{i}") for i in range(39)], row(button("b")))]},
            "components",
        ),
        ({"flags": V2, "components": [text("a" * 2000), container(text("b" * 2001))]}, "components"),
        ({"flags": V2, "components": [text("a" * 4001)]}, "components.0.content"),
        ({"flags": V2, "components": [text("")]}, "components.0.content"),
        ({"flags": V2, "components": [section("1", "2", "3", "4")]}, "components.0.components"),
        (
            {"flags": V2, "components": [{"type": 9, "components": [text("no accessory")]}]},
            "components.0.accessory",
        ),
        (
            {"flags": V2, "components": [section("s", accessory=select("x", 2))]},
            "components.0.accessory.type",
        ),
        (
            {"flags": V2, "components": [{"type": 11, "media": {"url": "https://e.com/a.png"}}]},
            "components.0.type",
        ),
        ({"flags": V2, "components": [gallery()]}, "components.0.items"),
        (
            {"flags": V2, "components": [gallery(*[f"https://e.com/{i}.png" for i in range(11)])]},
            "components.0.items",
        ),
        (
            {"flags": V2, "components": [{"type": 12, "items": [{"media": {}}]}]},
            "components.0.items.0.media.url",
        ),
        (
            {"flags": V2, "components": [gallery("attachment://missing.png")]},
            "components.0.items.0.media.url",
        ),
        (
            {"flags": V2, "components": [{"type": 13, "file": {"url": "https://e.com/x.zip"}}]},
            "components.0.file.url",
        ),
        (
            {"flags": V2, "components": [container(container(text("nested")))]},
            "components.0.components.0.type",
        ),
        (
            {"flags": V2, "components": [container(text("c"), accent_color=0x1000000)]},
            "components.0.accent_color",
        ),
        (
            {"flags": V2, "components": [container(row(*[button(f"b{i}") for i in range(6)]))]},
            "components.0.components.0.components",
        ),
        ({"flags": V2, "components": [row(text("not in a row"))]}, "components.0.components.0.type"),
        ({"flags": V2, "components": [row(select("s", 2), button("b"))]}, "components.0.components"),
        ({"flags": V2, "components": [{"type": 14, "spacing": 3}]}, "components.0.spacing"),
        (
            {
                "flags": V2,
                "components": [
                    {"type": 18, "label": "modal only", "component": {"type": 4, "custom_id": "i"}}
                ],
            },
            "components.0.type",
        ),
        (
            {"flags": V2, "components": [container(row(button("d"))), row(button("d"))]},
            "components.1.components.0.custom_id",
        ),
        ({"components": [container(text("no flag"))]}, "components.0.type"),
        ({"components": [text("no flag")]}, "components.0.type"),
    ],
)
async def test_v2_violations_get_400_invalid_form_body(fd, body, path):
    status, _, err = await post(fd, body)
    assert status == 400 and err["code"] == 50035 and err["message"] == "Invalid Form Body", err
    assert path in error_paths(err["errors"]), err
    assert fd.channel_messages("general") == []


async def test_the_flag_cannot_be_removed_and_legacy_fields_stay_refused(fd):
    status, _, data = await post(fd, {"flags": V2, "components": [text("v2 board")]})
    ch, mid = fd.channel("general").id, data["id"]
    status, _, body = await fd.bot_request(
        "PATCH", f"/channels/{ch}/messages/{mid}", json_body={"flags": 0, "components": [text("still v2")]}
    )
    assert status == 200 and body["flags"] & V2
    msg = fd.message(int(mid))
    assert msg.v2 and msg.text == "still v2"
    status, _, err = await fd.bot_request(
        "PATCH", f"/channels/{ch}/messages/{mid}", json_body={"content": "x"}
    )
    assert status == 400 and "content" in error_paths(err["errors"]) and msg.text == "still v2"
    # a legacy message may become v2 by an edit that clears its content
    status, _, data = await post(fd, {"content": "legacy"})
    lid = data["id"]
    status, _, err = await fd.bot_request(
        "PATCH", f"/channels/{ch}/messages/{lid}", json_body={"flags": V2, "components": [text("v2 now")]}
    )
    assert status == 400 and "content" in error_paths(err["errors"])
    status, _, body = await fd.bot_request(
        "PATCH",
        f"/channels/{ch}/messages/{lid}",
        json_body={"flags": V2, "content": "", "components": [text("v2 now")]},
    )
    assert status == 200 and fd.message(int(lid)).v2


async def test_an_edit_may_point_media_at_a_kept_attachment_or_a_new_one(fd):
    status, _, data = await post(
        fd, {"flags": V2, "components": [gallery("attachment://board.png")]}, files=[("board.png", PNG)]
    )
    ch, mid = fd.channel("general").id, data["id"]
    msg = fd.message(int(mid))
    keep = [{"id": str(msg.attachments[0].id)}]
    status, _, _ = await fd.bot_request(
        "PATCH",
        f"/channels/{ch}/messages/{mid}",
        json_body={"attachments": keep, "components": [gallery("attachment://board.png"), text("moved")]},
    )
    assert status == 200 and msg.gallery_attachments[0].data == PNG
    status, _, err = await fd.bot_request(
        "PATCH",
        f"/channels/{ch}/messages/{mid}",
        json_body={"attachments": [], "components": [gallery("attachment://board.png")]},
    )
    assert status == 400 and "components.0.items.0.media.url" in error_paths(err["errors"])
    status, _, _ = await fd.bot_request(
        "PATCH",
        f"/channels/{ch}/messages/{mid}",
        json_body={
            "attachments": [{"id": "0", "filename": "board2.png"}],
            "components": [gallery("attachment://board2.png")],
        },
        files=[("board2.png", PNG + b"2")],
    )
    assert status == 200 and msg.gallery_attachments[0].data == PNG + b"2" and len(msg.attachments) == 1


async def test_v2_through_interaction_responses_followups_and_original_edits(fd, bot):
    app, alice = fd.application_id, fd.user("alice")
    body = {"flags": V2, "components": [container(text("reply"), row(button("r:1", "One")))]}
    # type 4 with the flag
    rec = fd._new_interaction(
        alice.user, fd.channel("general"), 2, {"id": "1", "name": "x", "type": 1}, command_name="x"
    )
    status, _, _ = await fd.bot_request(
        "POST",
        f"/interactions/{rec.id}/{rec.token}/callback",
        json_body={"type": 4, "data": body},
        auth=False,
    )
    assert status == 204 and rec.original.v2 and rec.original.buttons[0].label == "One"
    # follow-up with the flag; then @original edited without it keeps it
    status, _, data = await fd.bot_request(
        "POST", f"/webhooks/{app}/{rec.token}", json_body=body, auth=False, params={"wait": "1"}
    )
    assert status == 200 and data["flags"] & V2
    status, _, data = await fd.bot_request(
        "PATCH",
        f"/webhooks/{app}/{rec.token}/messages/@original",
        json_body={"components": [text("edited")]},
        auth=False,
    )
    assert status == 200 and data["flags"] & V2 and rec.original.text == "edited"
    status, _, err = await fd.bot_request(
        "PATCH",
        f"/webhooks/{app}/{rec.token}/messages/@original",
        json_body={"content": "legacy"},
        auth=False,
    )
    assert status == 400 and err["code"] == 50035
    # type 7 on a component interaction
    rec2 = fd._new_interaction(
        alice.user, fd.channel("general"), 3, {"custom_id": "r:1", "component_type": 2}, message=rec.original
    )
    status, _, _ = await fd.bot_request(
        "POST",
        f"/interactions/{rec2.id}/{rec2.token}/callback",
        auth=False,
        json_body={"type": 7, "data": {"components": [text("updated")]}},
    )
    assert status == 204 and rec.original.text == "updated" and rec.original.v2


async def test_a_deferred_response_cannot_set_the_flag_but_the_original_edit_can(fd, bot):
    app = fd.application_id
    rec = fd._new_interaction(
        fd.user("bob").user, fd.channel("general"), 2, {"id": "1", "name": "x", "type": 1}, command_name="x"
    )
    status, _, err = await fd.bot_request(
        "POST",
        f"/interactions/{rec.id}/{rec.token}/callback",
        auth=False,
        json_body={"type": 5, "data": {"flags": V2}},
    )
    assert status == 400 and "data.flags" in error_paths(err["errors"]) and rec.response_type is None
    status, _, _ = await fd.bot_request(
        "POST", f"/interactions/{rec.id}/{rec.token}/callback", auth=False, json_body={"type": 5}
    )
    assert status == 204 and rec.original.loading
    status, _, data = await fd.bot_request(
        "PATCH",
        f"/webhooks/{app}/{rec.token}/messages/@original",
        json_body={"flags": V2, "components": [text("ready")]},
        auth=False,
    )
    assert status == 200 and rec.original.v2 and not rec.original.loading and rec.original.text == "ready"


# ---------------------------------------------------------------- a real discord.py LayoutView


class Fire(discord.ui.Button):
    def __init__(self) -> None:
        super().__init__(label="Fire", custom_id="layout:fire", style=discord.ButtonStyle.danger)

    async def callback(self, interaction: discord.Interaction) -> None:
        interaction.client.seen.append(("fire", interaction.user.name))
        await interaction.response.edit_message(view=Board(f"{interaction.user.name} fired", colour=0xAA0000))


class Pick(discord.ui.Select):
    def __init__(self) -> None:
        super().__init__(
            custom_id="layout:pick",
            options=[discord.SelectOption(label=v.upper(), value=v) for v in ("a1", "b2", "c3")],
        )

    async def callback(self, interaction: discord.Interaction) -> None:
        interaction.client.seen.append(("pick", interaction.user.name, list(self.values)))
        await interaction.response.edit_message(
            view=Board(f"{interaction.user.name} picked {self.values[0]}")
        )


class Board(discord.ui.LayoutView):
    def __init__(self, status: str, colour: int = 0x1F8B4C) -> None:
        super().__init__(timeout=None)
        self.add_item(
            discord.ui.Container(
                discord.ui.TextDisplay(f"# Board\n{status}"),
                discord.ui.MediaGallery(discord.MediaGalleryItem("attachment://board.png")),
                discord.ui.Separator(),
                discord.ui.Section(
                    discord.ui.TextDisplay("Seat 1: alice"),
                    accessory=discord.ui.Thumbnail("https://example.com/alice.png"),
                ),
                discord.ui.ActionRow(Fire()),
                discord.ui.ActionRow(Pick()),
                accent_colour=discord.Colour(colour),
            )
        )


class TooLong(discord.ui.LayoutView):
    def __init__(self) -> None:
        super().__init__(timeout=None)
        self.add_item(discord.ui.TextDisplay("a" * 2500))
        self.add_item(discord.ui.Container(discord.ui.TextDisplay("b" * 2500)))


class LayoutBot(discord.Client):
    def __init__(self, guild_id: int) -> None:
        super().__init__(intents=discord.Intents.default())
        self.tree = discord.app_commands.CommandTree(self)
        self.guild_id = guild_id
        self.seen: list[tuple] = []
        self.errors: list[Exception] = []

        @self.tree.command(name="layout", description="V2 board in the reply")
        async def layout(interaction: discord.Interaction) -> None:
            await interaction.response.send_message(
                view=Board("Your turn"), file=discord.File(io.BytesIO(PNG), "board.png")
            )

        @self.tree.command(
            name="layoutlater", description="Deferred, then the V2 board by editing the original"
        )
        async def layoutlater(interaction: discord.Interaction) -> None:
            await interaction.response.defer(thinking=True)
            await interaction.edit_original_response(
                view=Board("Ready"), attachments=[discord.File(io.BytesIO(PNG), "board.png")]
            )

        @self.tree.command(name="toolong", description="4000+ characters of text displays")
        async def toolong(interaction: discord.Interaction) -> None:
            try:
                await interaction.response.send_message(view=TooLong())
            except discord.HTTPException as exc:
                self.errors.append(exc)
                await interaction.response.send_message("refused")

    async def setup_hook(self) -> None:
        await self.tree.sync()


@pytest.fixture
async def layout_bot(fd):
    b = LayoutBot(fd.guild.id)
    async with running_bot(b, fd):
        yield b
    assert fd.unhandled == []


async def test_a_layout_view_is_sent_clicked_selected_and_edited_in_place(fd, layout_bot):
    alice, bob = fd.user("alice"), fd.user("bob")
    r = await alice.slash("layout")
    board = r.message
    assert r.response_type == 4 and board.v2 and board.content == ""
    assert "Your turn" in board.text and board.accent_colour == 0x1F8B4C
    assert board.gallery_attachments[0].data == PNG and board.thumbnails == ["https://example.com/alice.png"]
    r = await bob.click(board, "Fire")
    assert (
        r.response_type == 7 and r.updated and "bob fired" in board.text and board.accent_colour == 0xAA0000
    )
    assert board.gallery_attachments[0].data == PNG  # the kept attachment still backs attachment://board.png
    r = await alice.select(board, "c3")
    assert r.updated and "alice picked c3" in board.text
    assert layout_bot.seen == [("fire", "bob"), ("pick", "alice", ["c3"])]
    assert len(fd.channel_messages("general")) == 1  # one message, edited in place


async def test_a_layout_view_after_a_deferral_goes_through_the_original_edit(fd, layout_bot):
    r = await fd.user("alice").slash("layoutlater")
    assert r.response_type == 5 and not r.pending
    assert r.message.v2 and "Ready" in r.message.text and r.message.gallery[0].endswith("/board.png")


async def test_too_much_text_is_an_http_exception_in_the_bot(fd, layout_bot):
    r = await fd.user("alice").slash("toolong")
    [exc] = layout_bot.errors
    assert isinstance(exc, discord.HTTPException) and exc.status == 400 and exc.code == 50035
    assert r.text == "refused"


async def test_buttons_in_sections_and_containers_are_clickable_by_members(fd):
    """The test API walks the whole v2 tree: a section accessory button is found and its click reaches
    the bot as a component interaction on that message."""
    async with FakeDiscord(users=["alice"]) as f2:
        status, _, data = await post(f2, full_board(), files=[("board.png", PNG), ("log.txt", b"log")])
        msg = f2.message(int(data["id"]))
        task = asyncio.create_task(f2.user("alice").click(msg, "Help", timeout=0.3))
        await f2.wait_for(lambda: any(r.type == 3 for r in f2.interactions.values()), timeout=2)
        rec = next(r for r in f2.interactions.values() if r.type == 3)
        assert rec.data["custom_id"] == "v2:help" and rec.message is msg
        assert rec.data["id"] == msg.buttons[0].raw["id"]  # the component's numeric id, as Discord sends it
        task.cancel()
