"""The seat palette stays distinct for players with the common colour-vision deficiencies.

Each seat colour is passed through the Machado, Oliveira & Fernandes (2009) simulation of protanopia,
deuteranopia and tritanopia (severity 1.0, applied to linear RGB), then compared in CIELAB with the
CIEDE2000 colour difference. Every pair of seats, and every seat against the backgrounds it is drawn
on (Discord's dark chat and panel colours, the sea blues of the boards), must stay at least
``MIN_DELTA_E`` apart, for normal vision too. ΔE00 ≈ 2 is "just noticeable"; 12 is "clearly another
colour" at a glance on a phone.
"""

from __future__ import annotations

import itertools
import math
import unicodedata

import pytest

from bot import layout
from bot.games import names
from rendering import theme

MIN_DELTA_E = 12.0

Matrix = tuple[tuple[float, float, float], ...]
IDENTITY: Matrix = ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0))
# Machado et al. 2009, severity 1.0 (their supplementary table), on linear RGB.
MACHADO: dict[str, Matrix] = {
    "protanopia": (
        (0.152286, 1.052583, -0.204868),
        (0.114503, 0.786281, 0.099216),
        (-0.003882, -0.048116, 1.051998),
    ),
    "deuteranopia": (
        (0.367322, 0.860646, -0.227968),
        (0.280085, 0.672501, 0.047413),
        (-0.011820, 0.042940, 0.968881),
    ),
    "tritanopia": (
        (1.255528, -0.076749, -0.178779),
        (-0.078411, 0.930809, 0.147602),
        (0.004733, 0.691367, 0.303900),
    ),
}
VISIONS = {"normal": IDENTITY, **MACHADO}
BACKGROUNDS = {
    "chat": theme.BG,
    "panel": theme.PANEL,
    "sea": theme.SEA,
    "sea light": theme.SEA_LIGHT,
    "sea dark": theme.SEA_DARK,
}


def linear(channel: int) -> float:
    c = channel / 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def simulate(rgb: tuple[int, int, int], matrix: Matrix) -> tuple[float, float, float]:
    """Linear RGB of ``rgb`` as seen with the deficiency ``matrix`` (clipped to the gamut)."""
    lin = [linear(c) for c in rgb]
    r, g, b = (min(1.0, max(0.0, sum(row[j] * lin[j] for j in range(3)))) for row in matrix)
    return r, g, b


def lab(lin: tuple[float, float, float]) -> tuple[float, float, float]:
    """CIELAB (D65) of a linear sRGB colour."""
    r, g, b = lin
    x = (0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / 0.95047
    y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * b
    z = (0.0193339 * r + 0.1191920 * g + 0.9503041 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116

    fx, fy, fz = f(x), f(y), f(z)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def ciede2000(one: tuple[float, float, float], two: tuple[float, float, float]) -> float:
    """The CIEDE2000 difference (Sharma, Wu & Dalal 2005), kL = kC = kH = 1."""
    l1, a1, b1 = one
    l2, a2, b2 = two
    c_mean = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(c_mean**7 / (c_mean**7 + 25**7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1 = math.degrees(math.atan2(b1, a1p)) % 360
    h2 = math.degrees(math.atan2(b2, a2p)) % 360
    if c1p * c2p == 0:
        dh = 0.0
    elif abs(h2 - h1) <= 180:
        dh = h2 - h1
    else:
        dh = h2 - h1 - 360 if h2 - h1 > 180 else h2 - h1 + 360
    d_l, d_c = l2 - l1, c2p - c1p
    d_h = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dh / 2))
    l_mean, cp_mean = (l1 + l2) / 2, (c1p + c2p) / 2
    if c1p * c2p == 0:
        h_mean = h1 + h2
    elif abs(h1 - h2) <= 180:
        h_mean = (h1 + h2) / 2
    else:
        h_mean = (h1 + h2 + 360) / 2 if h1 + h2 < 360 else (h1 + h2 - 360) / 2
    t = (
        1
        - 0.17 * math.cos(math.radians(h_mean - 30))
        + 0.24 * math.cos(math.radians(2 * h_mean))
        + 0.32 * math.cos(math.radians(3 * h_mean + 6))
        - 0.20 * math.cos(math.radians(4 * h_mean - 63))
    )
    d_theta = 30 * math.exp(-(((h_mean - 275) / 25) ** 2))
    r_c = 2 * math.sqrt(cp_mean**7 / (cp_mean**7 + 25**7))
    s_l = 1 + 0.015 * (l_mean - 50) ** 2 / math.sqrt(20 + (l_mean - 50) ** 2)
    s_c = 1 + 0.045 * cp_mean
    s_h = 1 + 0.015 * cp_mean * t
    r_t = -math.sin(math.radians(2 * d_theta)) * r_c
    return math.sqrt((d_l / s_l) ** 2 + (d_c / s_c) ** 2 + (d_h / s_h) ** 2 + r_t * (d_c / s_c) * (d_h / s_h))


def seen(rgb: tuple[int, int, int], vision: str) -> tuple[float, float, float]:
    return lab(simulate(rgb, VISIONS[vision]))


def test_ciede2000_matches_the_published_test_data():
    # Sharma, Wu & Dalal (2005), Table 1: pairs 1, 7 and 17.
    assert ciede2000((50, 2.6772, -79.7751), (50, 0, -82.7485)) == pytest.approx(2.0425, abs=1e-4)
    assert ciede2000((50, 0, 0), (50, -1, 2)) == pytest.approx(2.3669, abs=1e-4)
    assert ciede2000((50, 2.5, 0), (73, 25, -18)) == pytest.approx(27.1492, abs=1e-4)


def test_simulations_merge_what_each_deficiency_confuses():
    """The matrices are the right way round: red and green collapse for protans and deutans, blue and
    green are far apart for them, and tritans confuse blue and green instead."""
    red, green, blue = (200, 60, 40), (60, 150, 40), (40, 80, 220)
    for vision in ("protanopia", "deuteranopia"):
        assert (
            ciede2000(seen(red, vision), seen(green, vision))
            < ciede2000(seen(red, "normal"), seen(green, "normal")) / 2
        )
    assert (
        ciede2000(seen(blue, "tritanopia"), seen(green, "tritanopia"))
        < ciede2000(seen(blue, "normal"), seen(green, "normal")) / 2
    )


@pytest.mark.parametrize("vision", sorted(VISIONS))
def test_every_pair_of_seat_colours_stays_apart(vision):
    assert len(theme.SEAT_COLOURS) == 6
    for (i, one), (j, two) in itertools.combinations(enumerate(theme.SEAT_COLOURS), 2):
        delta = ciede2000(seen(one, vision), seen(two, vision))
        assert delta >= MIN_DELTA_E, f"{vision}: seats {i} and {j} only {delta:.1f} ΔE00 apart"


@pytest.mark.parametrize("vision", sorted(VISIONS))
def test_every_seat_colour_stands_out_on_the_boards_backgrounds(vision):
    for i, colour in enumerate(theme.SEAT_COLOURS):
        for where, background in BACKGROUNDS.items():
            delta = ciede2000(seen(colour, vision), seen(background, vision))
            assert delta >= MIN_DELTA_E, f"{vision}: seat {i} only {delta:.1f} ΔE00 from the {where}"


def test_the_two_player_look_is_blue_against_vermillion():
    (r0, g0, b0), (r1, g1, b1) = theme.SEAT_COLOURS[:2]
    assert b0 > r0 + 100 and r1 > b1 + 150 and r1 > g1  # blue; a red-orange


def test_seat_names_marks_and_shapes_agree_everywhere():
    count = len(theme.SEAT_COLOURS)
    assert len(theme.SEAT_NAMES) == len(theme.SEAT_SHAPES) == len(layout.SEAT_MARKS) == count
    assert tuple(theme.SEAT_NAMES) == names.SEAT_COLOURS
    assert len(set(theme.SEAT_SHAPES)) == count
    assert len(set(layout.SEAT_MARKS)) == count
    # the text marks: fully-qualified emoji (each one code point drawn as an emoji by default, no
    # variation selector needed), each of its own shape and its own colour
    for mark in layout.SEAT_MARKS:
        assert len(mark) == 1 and (ord(mark) >= 0x1F300 or mark == "⭐"), mark
        assert unicodedata.name(mark)
    words = [layout.MARK_WORDS[m] for m in layout.SEAT_MARKS]
    assert len({shape for _, shape in words}) == count and len({colour for colour, _ in words}) == count
    assert [colour for colour, _ in words] == [n.lower() for n in theme.SEAT_NAMES]
