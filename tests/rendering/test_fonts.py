"""Fonts policy (rendering/theme.py): pictures carry no player names, and every string a renderer draws
(names of ships, units and cards from ``data/``, the renderers' own words) has all its glyphs in the
shipped font, Pillow's embedded Aileron: nothing is drawn as an empty .notdef box."""

from __future__ import annotations

import itertools
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest

import rendering
from rendering import theme
from tests.rendering.samples import CASES, sample_views

DATA = Path(__file__).resolve().parents[2] / "data"


def strings(obj: object) -> Iterator[str]:
    if isinstance(obj, str):
        yield obj
    elif isinstance(obj, dict):
        for key, value in obj.items():
            yield str(key)
            yield from strings(value)
    elif isinstance(obj, list):
        for value in obj:
            yield from strings(value)


def test_missing_glyphs_finds_the_scripts_the_font_lacks():
    assert theme.missing_glyphs("HMS Victory, 74 guns - 3/4 (Brest)") == set()
    # no dashes, arrows or ticks in Aileron: a renderer draws "-", "->" and words instead
    assert theme.missing_glyphs("3 — 4 – 5 → ✓ · …") == {"—", "–", "→", "✓"}
    assert theme.missing_glyphs("Côte-d'Or, São Tomé") == {"ô", "ã", "é"}  # not even accented Latin
    assert theme.missing_glyphs("Жанна") == set("Жанна")
    assert theme.missing_glyphs("Ann 船 🚢") == {"船", "🚢"}
    assert theme.missing_glyphs("   \n") == set()


def test_the_font_is_the_shipped_one():
    face = theme.font(theme.GLYPH_PROBE_SIZE)
    assert getattr(face, "font", None) is not None and face.font.family == "Aileron"


@pytest.mark.parametrize("path", sorted(DATA.rglob("*.toml")), ids=lambda p: str(p.relative_to(DATA)))
def test_every_string_of_the_data_files_has_its_glyphs_in_the_font(path):
    texts = list(strings(tomllib.loads(path.read_text("utf-8"))))
    assert texts, f"{path} holds no strings"
    missing = {text: theme.missing_glyphs(text) for text in texts}
    assert {t: m for t, m in missing.items() if m} == {}


@pytest.mark.parametrize("key", sorted(CASES))
def test_every_string_a_renderer_draws_has_its_glyphs_in_the_font(key, drawn):
    for _, label, view, names in itertools.islice(sample_views([key]), 0, None, 3):  # a third, for time
        drawn.clear()
        rendering.render(key, view, [f"Zed{i}" for i in range(len(names))])
        bad = {text: theme.missing_glyphs(text) for text in drawn}
        assert {t: m for t, m in bad.items() if m} == {}, label
