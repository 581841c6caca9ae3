"""discord.py's JSON (issue 19, the CPU a move costs): every REST payload encoded and every response
and gateway event decoded, ~7 REST calls a move. It uses orjson when installed (its "speed" extra),
several times faster than the json module; the bot depends on it."""

from __future__ import annotations

import json

import discord.utils


def test_discord_encodes_and_decodes_with_orjson():
    import orjson

    assert discord.utils.HAS_ORJSON
    assert discord.utils._from_json is orjson.loads
    payload = {"content": "Жора ⚓", "components": [{"type": 1, "id": 2}], "flags": 1 << 15}
    text = discord.utils._to_json(payload)
    assert isinstance(text, str) and json.loads(text) == payload
