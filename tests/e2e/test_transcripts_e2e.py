"""The transcripts script (tests/e2e/transcripts.py, `make transcripts`) runs: a short game in Polish
through the loopback Discord, its Markdown holding what the channel, each player privately and their DMs
read, in Polish."""

from __future__ import annotations

from tests.e2e import transcripts


async def test_a_short_polish_transcript_is_written(tmp_path):
    path = await transcripts.record("pl", "enemy-lines", tmp_path, max_steps=3)
    assert path == tmp_path / "pl-enemy-lines.md"
    text = path.read_text(encoding="utf-8")
    assert text.startswith("# enemy-lines in Polski (pl)\n")
    for heading in ("## The lobby", "## The game", "## After the game"):
        assert heading in text
    # the channel's lobby and its buttons, each player's private answers, a follow DM: all Polish
    assert "`[Dołącz]` `[Wyjdź]` `[Dodaj SI]` `[Rozpocznij]` `[Anuluj]`" in text
    assert "**bob** — clicks **Join** → privately:\n> Dołączono do gry." in text
    assert "> To nie twoja tura — czekamy na:" in text  # the move out of turn, refused
    assert text.count("> ✅ Zagrano: ") == 3
    assert "**bob** — DM:\n> 👁 Obserwujesz **Enemy Lines** (gra #1)" in text
    # three moves, then alice resigns so that the end shows; /game history answers in Polish
    assert "**alice** — clicks **Resign** → privately:" in text
    assert "> Poddałeś grę #1." in text
    assert "📜 **Minione gry w <#" in text
