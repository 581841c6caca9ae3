"""Benchmark: how long each game's board takes to draw, beside a plain Pillow board in the same run.

The machine is shared and noisy, so every figure is also given as a ratio to the *baseline*: a plain
Pillow 640×640 board (an 8×8 grid, 16 round pieces, a few labels) encoded as PNG with Pillow's default
settings, drawn in the same run, interleaved with the boards. Issue 19's target: every game's channel
view, mid-game, at most 2× the baseline.

Cases: the channel (spectator) view and one seat's view of each game mid-game (Enemy in Sight with 2,
4 and 6 players). Each case prints its median milliseconds, its ratio to the baseline, the image size
and the PNG bytes.

    .venv/bin/python bench/bench_render.py [--reps 15] [--games enemy-lines,warships] [--out DIR] [--clock cpu]

``--clock cpu`` times with this process's CPU clock instead of the wall clock: on a machine loaded by
other work the wall clock counts the waits for a core too (the ratio to the baseline evens out some of
that, not all).

With ``--out DIR`` every image is written there (and a copy scaled to fit 550×350, the chat preview,
and to 360 px wide, a phone) to look at.
"""

from __future__ import annotations

import argparse
import functools
import io
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from PIL import Image, ImageDraw, ImageFont  # noqa: E402

import rendering  # noqa: E402
from bot.games import registry  # noqa: E402

NAMES = ["Alice", "Bob", "Carol", "Dan", "Eve", "Fay"]
OPTIONS = {
    "enemy-lines": {"quick-setup": True},
    "warships": {"quick-setup": True},
    "everrain": {"length": "short"},
}
# (game, players, moves played before the board is drawn)
CASES = [
    ("enemy-lines", 2, 30),
    ("enemy-in-sight", 2, 40),
    ("enemy-in-sight", 4, 40),
    ("enemy-in-sight", 6, 40),
    ("warships", 2, 40),
    ("everrain", 2, 30),
]


def baseline_board() -> bytes:
    """The plain Pillow board every figure is compared with: nothing cached, default PNG settings."""
    size, cells = 640, 8
    step = size // cells
    img = Image.new("RGB", (size, size), (28, 66, 102))
    draw = ImageDraw.Draw(img)
    font = ImageFont.load_default(size=20)
    for row in range(cells):
        for col in range(cells):
            if (row + col) % 2:
                draw.rectangle(
                    (col * step, row * step, (col + 1) * step - 1, (row + 1) * step - 1), fill=(44, 92, 136)
                )
    for i in range(16):
        row, col = divmod(i, 8)
        row = row if row == 0 else cells - 1
        colour = (52, 120, 220) if row == 0 else (208, 58, 52)
        x, y = col * step + step // 2, row * step + step // 2
        draw.ellipse((x - 28, y - 28, x + 28, y + 28), fill=colour, outline=(250, 250, 250), width=3)
    for col in range(cells):
        draw.text((col * step + 4, size // 2 - 10), "ABCDEFGH"[col], fill=(242, 243, 245), font=font)
    out = io.BytesIO()
    img.save(out, "PNG")
    return out.getvalue()


def mid_game(key: str, players: int, moves: int, seed: int = 3):
    spec = registry.get(key)
    game = spec.new(players, OPTIONS.get(key, {}), seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if game.is_over:
            break
        seat = game.to_act()[0]
        game.apply(seat, game.ai_action(seat, rng))
    return game


CLOCK = time.perf_counter  # or time.process_time (--clock cpu)


def median_ms(fn: Callable[[], bytes], reps: int) -> float:
    times = []
    for _ in range(reps):
        t = CLOCK()
        fn()
        times.append(CLOCK() - t)
    return statistics.median(times) * 1000


def save_previews(out: Path, stem: str, png: bytes) -> None:
    img = Image.open(io.BytesIO(png)).convert("RGB")  # a palette PNG would be scaled by nearest neighbour
    img.save(out / f"{stem}.png")
    preview = img.copy()
    preview.thumbnail((550, 350))
    preview.save(out / f"{stem}-preview.png")
    phone = img.resize((360, max(1, round(img.height * 360 / img.width))))
    phone.save(out / f"{stem}-phone.png")


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=15)
    ap.add_argument("--games", default=",".join(sorted({c[0] for c in CASES})))
    ap.add_argument("--out", default=None)
    ap.add_argument("--clock", choices=("wall", "cpu"), default="wall")
    args = ap.parse_args()
    global CLOCK
    CLOCK = time.process_time if args.clock == "cpu" else time.perf_counter
    wanted = set(args.games.split(","))
    out = Path(args.out) if args.out else None
    if out:
        out.mkdir(parents=True, exist_ok=True)
    baseline_board()  # warm up (font)
    print("| board | view | size px | ms | × baseline | PNG KiB |")
    print("|---|---|---|---|---|---|")
    ratios = []
    for key, players, moves in CASES:
        if key not in wanted:
            continue
        game = mid_game(key, players, moves)
        names = NAMES[:players]
        for label, seat in (("channel", None), ("seat 0", 0)):
            view = game.view(seat)
            png = rendering.render(key, view, names)  # warm up (fonts, cached layers)
            base = median_ms(baseline_board, args.reps)
            ms = median_ms(functools.partial(rendering.render, key, view, names), args.reps)
            base = (base + median_ms(baseline_board, args.reps)) / 2  # before and after: noise evens out
            width, height = Image.open(io.BytesIO(png)).size
            ratio = ms / base
            if seat is None:
                ratios.append(ratio)
            print(
                f"| {key} ({players}p) | {label} | {width}×{height} | {ms:.1f} | {ratio:.2f} "
                f"| {len(png) / 1024:.0f} |"
            )
            if out:
                save_previews(out, f"{key}-{players}p-{'channel' if seat is None else 'seat0'}", png)
    print(f"\nbaseline (plain Pillow 640 px board, PNG): {median_ms(baseline_board, args.reps):.1f} ms")
    if ratios:
        print(f"worst channel view: {max(ratios):.2f}× baseline (target ≤ 2×)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
