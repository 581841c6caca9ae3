"""The multipart bodies discord.py sends (``payload_json`` and ``files[n]``), read in one pass over the
request's bytes.

aiohttp's multipart reader parses every part a chunk at a time through its stream, its header parser
and ``parse_content_disposition`` (``re.escape`` over every header): about a fifth of the fake's own CPU
in the load bench, where every edit of a board is such a body. The bodies discord.py builds (through
aiohttp's ``FormData``) have one plain shape: the boundary line first, each part's headers
(Content-Disposition, and a Content-Type with at most a UTF-8 charset) in printable ASCII, its bytes up
to the next ``CRLF--boundary``, the closing ``--boundary--``. :func:`plain_parts` reads exactly that
shape and nothing else; any other body (a preamble, folded or other headers, a transfer or content
encoding, another charset, a ``_charset_`` field, nested multipart, an epilogue) is read by aiohttp's
own reader (:func:`parts_by_aiohttp`), so what the fake accepts and how it reads it is aiohttp's in
every case (``tests/fakediscord_tests/test_form_bodies.py`` compares the two on generated bodies)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from aiohttp import hdrs, multipart, streams
from multidict import CIMultiDict, CIMultiDictProxy

# A boundary as aiohttp takes it unquoted (RFC 2046: at most 70 characters), and header names (tokens)
_BOUNDARY = re.compile(r"multipart/form-data;\s*boundary=([0-9A-Za-z'()+_,./:=?-]{1,70})", re.I)
_TOKEN = re.compile(rb"[!#$%&'*+.^_`|~0-9A-Za-z-]+")
_PRINTABLE = re.compile(rb"[\t\x20-\x7e]*")
_UTF_8 = frozenset(("charset=utf-8", 'charset="utf-8"'))  # the part's text as aiohttp decodes it by default
_PLAIN_HEADERS = frozenset((hdrs.CONTENT_DISPOSITION.lower(), hdrs.CONTENT_TYPE.lower()))


@dataclass
class Part:
    """One part of a form: its headers, its bytes as sent and, for a text field read by aiohttp, its text
    (decoded as ``BodyPartReader.text`` does: transfer and content encodings, then the charset)."""

    headers: CIMultiDictProxy[str]
    data: bytes
    decoded: str | None = None

    def text(self) -> str:
        return self.decoded if self.decoded is not None else self.data.decode("utf-8")


def plain_parts(content_type: str, body: bytes) -> list[Part] | None:
    """The parts of a body of discord.py's plain shape, else None (read it with aiohttp's reader)."""
    found = _BOUNDARY.fullmatch(content_type.strip())
    if found is None:
        return None
    delimiter = b"--" + found.group(1).encode()
    if not body.startswith(delimiter + b"\r\n"):
        return None
    parts: list[Part] = []
    at = len(delimiter) + 2
    end = b"\r\n" + delimiter
    while True:
        head_end = body.find(b"\r\n\r\n", at)
        if head_end < 0:
            return None
        headers: CIMultiDict[str] = CIMultiDict()
        for line in body[at:head_end].split(b"\r\n"):
            name, colon, value = line.partition(b":")
            if not colon or _TOKEN.fullmatch(name) is None or _PRINTABLE.fullmatch(value) is None:
                return None
            if name.lower().decode() not in _PLAIN_HEADERS:
                return None  # Content-Length, a transfer or content encoding…: aiohttp's reading
            headers.add(name.decode(), value.strip(b" \t").decode())
        _, semicolon, parameters = headers.get(hdrs.CONTENT_TYPE, "").partition(";")
        if semicolon and parameters.strip().lower() not in _UTF_8:
            return None  # another charset, or other parameters
        if hdrs.CONTENT_DISPOSITION not in headers:
            return None
        if "_charset_" in headers[hdrs.CONTENT_DISPOSITION]:
            return None  # a form's default charset (RFC 7578 §4.6)
        data_end = body.find(end, head_end + 4)
        if data_end < 0:
            return None
        parts.append(Part(CIMultiDictProxy(headers), body[head_end + 4 : data_end]))
        at = data_end + len(end)
        after = body[at : at + 2]
        if after == b"\r\n":
            at += 2
            continue
        if after == b"--" and body[at + 2 :] in (b"", b"\r\n"):
            return parts
        return None


class _Protocol:
    """What an aiohttp StreamReader asks of its protocol when it holds the whole body already: no
    connection to pause or resume."""

    _reading_paused = False

    def pause_reading(self) -> None:
        pass

    def resume_reading(self, resume_parser: bool = True) -> None:
        pass


async def parts_by_aiohttp(headers, body: bytes, text_fields: frozenset[str] = frozenset()) -> list[Part]:
    """The parts of any multipart body, by aiohttp's reader over its bytes: each part's raw bytes, and the
    text of the fields named in ``text_fields`` as ``BodyPartReader.text`` reads it."""
    stream = streams.StreamReader(_Protocol(), max(2**16, len(body) + 1))  # type: ignore[arg-type]
    stream.feed_data(body)
    stream.feed_eof()
    reader = multipart.MultipartReader(headers, stream)
    parts: list[Part] = []
    async for part in reader:
        if not isinstance(part, multipart.BodyPartReader):
            continue  # a nested multipart: no field of discord.py's
        own = CIMultiDictProxy(CIMultiDict(part.headers))
        if (part.name or "") in text_fields:
            parts.append(Part(own, b"", await part.text()))
        else:
            parts.append(Part(own, bytes(await part.read(decode=False))))
    return parts
