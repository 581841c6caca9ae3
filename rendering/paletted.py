"""Drawing straight into a board's fixed 256-colour palette (mode "P"), with the same pixels as drawing
in RGB and reducing the picture to that palette at the end.

Why: reducing a whole picture to its palette (``Image.quantize``) was about a sixth of a board's CPU and
pasting RGBA sprites through their alpha another third; a palette picture is a quarter of the bytes to
copy. Reducing to a fixed palette without dithering maps each pixel on its own, so:

- a piece drawn once (a static layer, a sprite over the square it stands on) can be reduced once and
  pasted as palette indices: the same pixels as reducing it inside every picture;
- a shape drawn in one flat colour with no soft edges (Pillow's lines, rectangles, polygons, ellipses
  and arcs) can be drawn with the palette index that colour maps to (``ink``);
- text, and sprites over something drawn in the same picture, have soft edges mixed with what is under
  them: those are drawn in RGB and reduced, only where they are.

tests/rendering/test_paletted.py checks every board drawn so against the RGB drawing reduced at the end.
"""

from __future__ import annotations

from PIL import Image

RGB = tuple[int, int, int]


def reduce(img: Image.Image, palette: Image.Image) -> Image.Image:
    """``img`` (RGB) as indices of ``palette``: what ``theme.to_png`` did to every picture."""
    return img.quantize(palette=palette, dither=Image.Dither.NONE)


class Inks:
    """A board's palette and the index each flat colour maps to (``reduce``'s own mapping, so a shape
    drawn with it has the pixels it would have had drawn in RGB and reduced)."""

    def __init__(self, palette: Image.Image) -> None:
        self.palette = palette
        self._index: dict[RGB, int] = {}

    def __call__(self, colour: RGB) -> int:
        index = self._index.get(colour)
        if index is None:
            dot = reduce(Image.new("RGB", (1, 1), colour), self.palette)
            index = self._index[colour] = int(dot.getpixel((0, 0)))  # type: ignore[arg-type]
        return index

    def reduce(self, img: Image.Image) -> Image.Image:
        return reduce(img, self.palette)
