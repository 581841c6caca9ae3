"""The boards' PNG encoder: a palette picture (mode "P") in, PNG bytes out.

Why not Pillow's: encoding was most of a board's CPU once the boards were drawn in their palette
(zlib at level 1: about 1.2 ms for a Warships board of 800×590). ISA-L's deflate (the ``isal``
package: Intel's hand-tuned compressor) writes the same zlib stream format about seven times faster,
and smaller (33 KiB instead of 36 for that board); where it is not installed, Python's own zlib does it.
The file is the plainest PNG: the header, the palette, one IDAT chunk of rows without filtering
(filters do not help palette indices), the end; lossless, as every chat client and browser shows it.
"""

from __future__ import annotations

import struct
import zlib

from PIL import Image

try:
    from isal.isal_zlib import compress
except ImportError:  # pragma: no cover - isal is a dependency; a platform without its wheel still draws
    from zlib import compress

LEVEL = 1  # isal's levels are 0-3; 1 and 2 give the same size on the boards, 1 is faster
SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(data, zlib.crc32(kind)))


def _rows(img: Image.Image) -> bytes:
    """The picture's rows, each after its filter byte (0: none): the picture pasted one pixel in on a
    canvas whose first column is 0, so that Pillow lays the bytes out (a join of Python slices takes
    several times as long)."""
    width, height = img.size
    canvas = Image.new("P", (width + 1, height), 0)
    canvas.im.paste(img.im, (1, 0, width + 1, height))
    return canvas.tobytes()


def encode(img: Image.Image) -> bytes:
    """The PNG of a palette picture (every entry of its palette kept, as Pillow writes it)."""
    if img.mode != "P":
        raise ValueError(f"a palette picture (mode P) is encoded here, not {img.mode}")
    colours = bytes(img.getpalette("RGB") or [])[:768]  # entries of 3 bytes, 256 at most
    width, height = img.size
    # 8 bits a pixel, colour type 3 (palette), deflate, filtering method 0, no interlace
    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)
    return b"".join(
        (
            SIGNATURE,
            _chunk(b"IHDR", header),
            _chunk(b"PLTE", colours),
            _chunk(b"IDAT", compress(_rows(img), LEVEL)),
            _chunk(b"IEND", b""),
        )
    )
