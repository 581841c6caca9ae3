"""The boards' PNG encoder (``rendering/png.py``): lossless, a file every decoder reads, with ISA-L's
deflate or, without it, zlib's."""

from __future__ import annotations

import io
import zlib

import pytest
from PIL import Image

import rendering
from rendering import png, theme
from tests.rendering.samples import sample_views


def _decoded(data: bytes) -> Image.Image:
    Image.open(io.BytesIO(data)).verify()  # every chunk's CRC, the chunks' order
    img = Image.open(io.BytesIO(data))
    img.load()
    return img


def _picture() -> Image.Image:
    img, draw = theme.canvas(123, 45, theme.SEA)
    draw.text((4, 4), "A1 J15", font=theme.font(24), fill=theme.TEXT)
    draw.ellipse((80, 5, 115, 40), fill=theme.SEAT_COLOURS[1], outline=theme.WHITE, width=3)
    return img.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)


def test_a_palette_picture_comes_back_pixel_for_pixel_with_its_palette():
    img = _picture()
    back = _decoded(png.encode(img))
    assert back.format == "PNG" and back.mode == "P" and back.size == img.size
    assert back.tobytes() == img.tobytes()
    assert back.getpalette() == img.getpalette()


def test_without_isal_zlib_writes_the_same_picture(monkeypatch):
    img = _picture()
    monkeypatch.setattr(png, "compress", zlib.compress)
    back = _decoded(png.encode(img))
    assert back.tobytes() == img.tobytes() and back.getpalette() == img.getpalette()


def test_isal_is_the_deflate_used_where_it_is_installed():
    isal_zlib = pytest.importorskip("isal.isal_zlib")
    assert png.compress is isal_zlib.compress


def test_only_a_palette_picture_is_taken():
    with pytest.raises(ValueError, match="mode P"):
        png.encode(Image.new("RGB", (4, 4)))


@pytest.mark.parametrize("key", ["enemy-lines", "everrain"])
def test_a_board_drawn_in_rgb_is_sent_as_its_reduced_picture(monkeypatch, key):
    """The RGB boards go through the same encoder after their palette: what is sent is that picture."""
    reduced: list[Image.Image] = []
    encode = png.encode
    monkeypatch.setattr(png, "encode", lambda img: reduced.append(img) or encode(img))
    for _, label, view, names in list(sample_views([key]))[:6]:
        reduced.clear()
        back = _decoded(rendering.render(key, view, names))
        (sent,) = reduced
        assert back.tobytes() == sent.tobytes() and back.getpalette() == sent.getpalette(), label
