"""Fixtures of the rendering tests."""

from __future__ import annotations

import pytest
from PIL import ImageDraw


@pytest.fixture
def drawn(monkeypatch) -> list[str]:
    """Every string any renderer draws (``ImageDraw.text``), in order."""
    seen: list[str] = []
    real = ImageDraw.ImageDraw.text

    def text(self, xy, text, *args, **kwargs):
        seen.append(str(text))
        return real(self, xy, text, *args, **kwargs)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", text)
    return seen
