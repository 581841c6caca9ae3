"""Replay animations: frames (PNG bytes drawn by a game's renderer from public views) into one GIF.

This module gets pictures and short caption lines, never a game state: ``bot/replay.py`` decides
which views are drawn (the spectator view after each move, the game's ``final_reveal`` at the end).

``frame(png, caption)`` puts a caption strip ("Move 12 of 80 · …") under a drawn view and keeps it
at most :data:`theme.MAX_WIDTH` wide; ``animate(frames)`` makes the GIF, every frame shown
:data:`FRAME_MS`, the last one :data:`LAST_MS`, and shrinks it (fewer frames, then smaller ones)
until it fits in ``max_bytes`` (Discord takes at most 10 MiB a file).
"""

from __future__ import annotations

import io

from PIL import Image

from rendering import theme

FRAME_MS = 900  # each move
LAST_MS = 6000  # the final position, held longer
MAX_BYTES = 9 * 1024 * 1024  # under Discord's 10 MiB per file, with room to spare
CAPTION_LINES = 8  # at most, a caption of one frame (the last one lists the hands revealed at the end)
# characters the default font has no glyph for, in the texts of the games' events
PLAIN = str.maketrans({"→": "->", "←": "<-", "–": "-", "—": "-", "×": "x"})


def frame(
    png: bytes,
    caption: list[str] | tuple[str, ...] = (),
    width: int = theme.MAX_WIDTH,
    size: tuple[int, int] | None = None,
) -> Image.Image:
    """The drawn view (PNG bytes) as an RGB image at most ``width`` wide, with ``caption`` lines
    written in a strip under it; on a canvas of ``size`` (top left) when given (:func:`frame_size`
    of the largest frame: a GIF's frames are all one size)."""
    img = Image.open(io.BytesIO(png)).convert("RGB")
    if img.width > width:
        img = img.resize(_scaled(img.size, width), Image.Resampling.LANCZOS)
    text_size = theme.min_font(img.width)  # legible when the chat shows the GIF 400 px wide, as the boards
    lines = _caption_lines(caption, img.width, text_size)
    step = round(text_size * 1.3)
    high = img.height + 10 + step * len(lines) if lines else img.height
    w, h = size if size is not None else (img.width, high)
    if (w, h) == img.size:
        return img
    out, draw = theme.canvas(max(w, img.width), max(h, high), theme.PANEL_DARK if lines else theme.BG)
    if lines and h > high:  # the padding under a shorter strip stays the background
        draw.rectangle((0, high, out.width, out.height), fill=theme.BG)
    if lines and w > img.width:
        draw.rectangle((img.width, 0, out.width, out.height), fill=theme.BG)
    out.paste(img, (0, 0))
    y = img.height + 5
    for line in lines:
        draw.text(
            (10, y), theme.fit(line, text_size, img.width - 20), font=theme.font(text_size), fill=theme.TEXT
        )
        y += step
    return out


def frame_size(
    png: bytes, caption: list[str] | tuple[str, ...] = (), width: int = theme.MAX_WIDTH
) -> tuple[int, int]:
    """The size :func:`frame` gives (the picture's size is read from its header, not decoded)."""
    w, h = Image.open(io.BytesIO(png)).size
    if w > width:
        w, h = _scaled((w, h), width)
    text_size = theme.min_font(w)
    lines = _caption_lines(caption, w, text_size)
    return (w, h + 10 + round(text_size * 1.3) * len(lines)) if lines else (w, h)


def gif_frame(png: bytes, caption: list[str] | tuple[str, ...], size: tuple[int, int]) -> Image.Image:
    """One frame ready for :func:`animate`: captioned, on the GIF's ``size``, in 256 colours (each
    frame is made on its own, so that a pool of processes makes them side by side)."""
    return _palette(frame(png, caption, size=size))


def _scaled(size: tuple[int, int], width: int) -> tuple[int, int]:
    return width, max(1, round(size[1] * width / size[0]))


def _caption_lines(caption: list[str] | tuple[str, ...], width: int, size: int) -> list[str]:
    lines = [part for line in caption if line for part in _wrap(line.translate(PLAIN), width - 20, size)]
    return lines[:CAPTION_LINES]


def _wrap(text: str, width: float, size: int, most: int = 3) -> list[str]:
    """``text`` cut at spaces into lines of at most ``width`` pixels (at most ``most`` lines, the last
    one shortened with … if needed)."""
    lines: list[str] = []
    current = ""
    for word in text.split():
        trial = f"{current} {word}" if current else word
        if current and theme.text_width(trial, size) > width:
            lines.append(current)
            current = word
        else:
            current = trial
    if current:
        lines.append(current)
    if len(lines) > most:
        lines = lines[: most - 1] + [" ".join(lines[most - 1 :])]
    return [theme.fit(line, size, width) for line in lines]


def _pad(frames: list[Image.Image]) -> list[Image.Image]:
    """Every frame on one canvas size (the largest), top-left aligned."""
    w = max(f.width for f in frames)
    h = max(f.height for f in frames)
    out = []
    for f in frames:
        if f.size == (w, h):
            out.append(f)
            continue
        c, _ = theme.canvas(w, h, theme.BG)
        c.paste(f, (0, 0))
        out.append(c)
    return out


def _palette(img: Image.Image) -> Image.Image:
    """A frame in 256 colours by the fast octree method, without dithering (flat boards stay flat;
    Pillow's default for GIF, median cut, takes several times as long)."""
    if img.mode == "P":
        return img
    return img.convert("RGB").quantize(colors=256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)


def _gif(frames: list[Image.Image], frame_ms: int, last_ms: int) -> bytes:
    buf = io.BytesIO()
    durations = [frame_ms] * (len(frames) - 1) + [last_ms]
    first, *rest = [_palette(f) for f in frames]
    first.save(
        buf,
        format="GIF",
        save_all=True,
        append_images=rest,
        duration=durations,
        loop=0,
        optimize=False,
        disposal=1,
    )
    return buf.getvalue()


def pick(n: int, keep: int) -> list[int]:
    """``keep`` indices of ``range(n)`` spread evenly, the first and the last always among them."""
    if n <= keep:
        return list(range(n))
    if keep <= 1:
        return [n - 1]
    return sorted({round(i * (n - 1) / (keep - 1)) for i in range(keep)})


def animate(
    frames: list[Image.Image], *, max_bytes: int = MAX_BYTES, frame_ms: int = FRAME_MS, last_ms: int = LAST_MS
) -> bytes:
    """One looping GIF of ``frames`` (the last held ``last_ms``), at most ``max_bytes``: when it is
    larger, every other move is left out (the first and last frames stay), then frames are shrunk."""
    if not frames:
        raise ValueError("no frames to animate")
    frames = _pad(frames)
    scale = 1.0
    while True:
        gif = _gif(frames, frame_ms, last_ms)
        if len(gif) <= max_bytes:
            return gif
        if len(frames) > 8:
            frames = [frames[i] for i in pick(len(frames), max(2, len(frames) // 2))]
            continue
        scale *= 0.75
        if scale < 0.1:
            raise ValueError("cannot make the replay small enough")
        frames = [
            f.convert("RGB").resize(
                (max(1, round(f.width * 0.75)), max(1, round(f.height * 0.75))), Image.Resampling.LANCZOS
            )
            for f in frames
        ]
