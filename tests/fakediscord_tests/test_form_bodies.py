"""The fake's reading of multipart bodies (tests/fakediscord/formdata.py): discord.py's plain shape read in
one pass, any other body by aiohttp's reader, with the same parts, bytes and texts either way."""

from __future__ import annotations

import asyncio

import aiohttp
import discord
import discord.http
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from multidict import CIMultiDict

from tests.fakediscord import formdata
from tests.fakediscord_tests.test_components_v2 import PNG, full_board
from tests.fakediscord_tests.test_limits import post


async def body_of(form: aiohttp.FormData) -> tuple[str, bytes]:
    writer = form()
    return writer.headers["Content-Type"], await writer.as_bytes()


def by_aiohttp(content_type: str, body: bytes) -> list[formdata.Part]:
    headers = CIMultiDict({"Content-Type": content_type})
    return asyncio.run(formdata.parts_by_aiohttp(headers, body, frozenset({"payload_json"})))


def same(plain: list[formdata.Part], read: list[formdata.Part]) -> None:
    assert [list(p.headers.items()) for p in plain] == [list(p.headers.items()) for p in read]
    for p, r in zip(plain, read, strict=True):
        if r.decoded is not None:  # payload_json: its text
            assert p.text() == r.text()
        else:
            assert p.data == r.data


# Bytes that look like a part's end or a boundary inside a file's data
TRICKY = st.lists(
    st.sampled_from([b"\r\n", b"--", b"\r\n--", b"\r\n\r\n", b"-", b"\x00", b"\xff", b"a", b"boundary"]),
    max_size=12,
).map(b"".join)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    text=st.text(max_size=40),
    files=st.lists(
        st.tuples(
            st.text(alphabet="abcXYZ09 ._-", min_size=1, max_size=12),
            st.one_of(TRICKY, st.binary(max_size=64)),
            st.sampled_from(["application/octet-stream", "image/png", "text/plain"]),
        ),
        max_size=3,
    ),
    charset=st.booleans(),
)
def test_a_plain_form_reads_as_aiohttps_reader_reads_it(text, files, charset):
    """Forms as aiohttp's FormData writes them (discord.py's): payload_json in UTF-8 (with or without
    its charset) and files of any bytes, read in one pass, give aiohttp's reader's parts exactly."""
    form = aiohttp.FormData(quote_fields=False)
    form.add_field(
        "payload_json", text, content_type="text/plain; charset=utf-8" if charset else "application/json"
    )
    for i, (name, data, ctype) in enumerate(files):
        form.add_field(f"files[{i}]", data, filename=name, content_type=ctype)
    content_type, body = asyncio.run(body_of(form))
    plain = formdata.plain_parts(content_type, body)
    assert plain is not None
    same(plain, by_aiohttp(content_type, body))


OTHER_SHAPES = {
    "a preamble": lambda b, d: b"preamble\r\n" + b,
    "a charset other than UTF-8": lambda b, d: b.replace(b"charset=utf-8", b"charset=latin-1"),
    "a transfer encoding": lambda b, d: b.replace(
        b"Content-Type: text/plain; charset=utf-8\r\n",
        b"Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n",
    ),
    "a folded header": lambda b, d: b.replace(b"; filename=", b";\r\n filename="),
    "trailing space after a boundary": lambda b, d: b.replace(
        d + b"\r\nContent-Type: app", d + b"  \r\nContent-Type: app"
    ),
    "an epilogue": lambda b, d: b + b"epilogue\r\n",
    "a non-ASCII file name": lambda b, d: b.replace(b'filename="board.png"', 'filename="доска.png"'.encode()),
}


@pytest.mark.parametrize("shape", sorted(OTHER_SHAPES))
def test_any_other_form_is_left_to_aiohttps_reader(shape):
    """A body not of the plain shape is not read in one pass (None): the fake reads it with aiohttp's
    reader, which reads it (or refuses it) as it always did."""
    form = aiohttp.FormData(quote_fields=False)
    form.add_field("payload_json", '{"content": "é"}', content_type="text/plain; charset=utf-8")
    form.add_field("files[0]", PNG, filename="board.png", content_type="application/octet-stream")
    content_type, body = asyncio.run(body_of(form))
    delimiter = b"--" + content_type.split("boundary=")[1].encode()
    assert formdata.plain_parts(content_type, body) is not None
    assert formdata.plain_parts(content_type, OTHER_SHAPES[shape](body, delimiter)) is None


async def test_discord_pys_uploads_are_read_in_one_pass(fd, monkeypatch):
    """What discord.py sends (a message with a board and a log) takes the one-pass path, not aiohttp's
    reader, and is stored as sent."""
    fallback = []
    real = formdata.parts_by_aiohttp

    async def counted(*args, **kwargs):
        fallback.append(args)
        return await real(*args, **kwargs)

    monkeypatch.setattr(formdata, "parts_by_aiohttp", counted)
    params = discord.http.handle_message_parameters(
        content="hi", files=[discord.File(__import__("io").BytesIO(PNG), filename="board.png")]
    )
    form = aiohttp.FormData(quote_fields=False)
    for field in params.multipart:
        form.add_field(**field)
    channel = fd.channel("general")
    async with aiohttp.ClientSession() as http:
        async with http.post(
            f"{fd.api_base}/channels/{channel.id}/messages",
            data=form,
            headers={"Authorization": "Bot fake-token"},
        ) as resp:
            data = await resp.json()
            assert resp.status == 200, data
    msg = fd.message(int(data["id"]))
    assert (
        msg.content == "hi" and msg.attachments[0].data == PNG and msg.attachments[0].filename == "board.png"
    )
    status, _, data = await post(fd, full_board(), files=[("board.png", PNG), ("log.txt", b"log")])
    assert status == 200, data
    assert fallback == []
