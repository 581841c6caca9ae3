"""The repository's licence, the licences of shipped fonts, and the docs kept clean: no passage
written twice, no branch name that only existed for a while."""

from __future__ import annotations

import collections
import fnmatch
import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", ROOT / "docs" / "architecture.md"]
FONT_SUFFIXES = {".ttf", ".otf", ".woff", ".woff2", ".ttc", ".pcf", ".bdf", ".pil"}
LICENCE_NAMES = ("LICENSE", "LICENCE", "OFL", "COPYING")


def repeated_passages(text: str, words: int = 10) -> list[str]:
    """Runs of ``words`` words that appear more than once (a paragraph pasted twice shows here)."""
    tokens = re.findall(r"\S+", text)
    runs = collections.Counter(" ".join(tokens[i : i + words]) for i in range(len(tokens) - words + 1))
    return [run for run, n in runs.items() if n > 1]


def test_the_repository_is_mit_licensed_and_the_package_says_so():
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License\n")
    assert "Copyright (c) 2026 the Admiralty developers" in text
    assert 'THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND' in text
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["license"] == "MIT" and "LICENSE" in project["license-files"]


def test_every_shipped_font_has_its_licence_beside_it_and_in_the_package():
    """Fonts in data/ travel with their licence (the same folder), and both are package data. Today no
    font is shipped: the images use Pillow's embedded font, which comes with Pillow and its licence."""
    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    patterns = data["package-data"]["*"]  # for every package listed; data/<game>/ is admiralty_data.<game>
    fonts = [p for p in (ROOT / "data").rglob("*") if p.suffix.lower() in FONT_SUFFIXES]
    for font in fonts:
        rel = font.relative_to(ROOT / "data")
        package = ".".join(["admiralty_data", *rel.parent.parts])
        assert package in data["packages"], f"{rel.parent} is not a package: its files are not shipped"
        assert any(fnmatch.fnmatch(font.name, pattern) for pattern in patterns), f"{rel} is not package data"
        licences = [p for p in font.parent.iterdir() if p.name.upper().startswith(LICENCE_NAMES)]
        assert licences, f"{rel} has no licence file beside it"
        assert all(any(fnmatch.fnmatch(lic.name, p) for p in patterns) for lic in licences)
    # the patterns would take a font and its licence if one were added
    for name in ("Font.ttf", "Font.otf", "OFL.txt", "LICENSE", "LICENSE.txt"):
        assert any(fnmatch.fnmatch(name, pattern) for pattern in patterns), name


def test_docs_have_no_passage_written_twice():
    for doc in DOCS:
        assert repeated_passages(doc.read_text(encoding="utf-8")) == [], doc.name


def test_docs_name_no_branch_but_main():
    for doc in [*DOCS, *(ROOT / "docs").rglob("*.md")]:
        branches = set(re.findall(r"\bbranch(?:es)? `([^`]+)`", doc.read_text(encoding="utf-8")))
        assert branches <= {"main"}, f"{doc.relative_to(ROOT)} names branches {branches}"


def test_a_pasted_paragraph_is_found():
    paragraph = "The table keeps the ids of the lobby, table, ping and DM messages, so they are edited. "
    assert repeated_passages("Intro. " + paragraph + "Middle. " + paragraph)
    assert not repeated_passages(paragraph)
