"""Seeded Enemy in Sight games played by the AI to the end, with the positions worth drawing or
describing: the start, every ``every`` moves, the first position of each kind (secret set-up, revising
the Lines, aiming, boarding, a capture decision) and the end."""

from __future__ import annotations

import random
from collections.abc import Iterator

from bot.games import registry


def kind_of(game) -> str:
    """The kind of position: what the table is waiting for."""
    st = game.state
    if game.is_over:
        return "over"
    if st.get("boarding"):
        return "boarding"
    if st.get("capture"):
        return "capture"
    if st["phase"] in ("arrange", "revise"):
        return st["phase"]
    if (st.get("pending") or {}).get("step") == "aim":
        return "aim"
    return "turn"


def positions(players: int, options: dict, seed: int, every: int = 60) -> Iterator[tuple[str, object]]:
    """(label, game) along one AI game; the game object is the live one: use it before the next."""
    game = registry.get("enemy-in-sight").new(players=players, options=dict(options), seed=seed)
    rng = random.Random(seed)
    seen: set[str] = set()
    move = 0
    while True:
        kind = kind_of(game)
        if move % every == 0 or kind not in seen:
            seen.add(kind)
            yield f"{players}p-{options.get('variant', 'base')}-seed{seed}-move{move}-{kind}", game
        if game.is_over or move > 3000:
            return
        seat = game.to_act()[0]
        game.apply(seat, game.ai_action(seat, rng))
        move += 1
