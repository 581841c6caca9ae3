"""Play a whole game between AI seats offline: a PNG per move and the final score."""

from __future__ import annotations

import json
import random
from pathlib import Path

import rendering
from bot.games import fill_names, registry
from bot.games.names import fill_all


def play(
    game_key: str,
    *,
    players: int | None = None,
    seed: int = 1,
    out: Path | str = "demo",
    options: dict | None = None,
    images: bool = True,
    max_actions: int = 20000,
    echo=print,
) -> dict:
    spec = registry.get(game_key)
    n = players or max(spec.min_players, min(2, spec.max_players))
    game = spec.new(players=n, options=options or {}, seed=seed)
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    for old in out.glob("move-*.png"):
        old.unlink()
    names = [f"AI {i + 1}" for i in range(n)]
    draw = images and rendering.has_renderer(spec.key)
    log_lines: list[str] = []

    def snapshot(step: int) -> None:
        if draw:
            (out / f"move-{step:04d}.png").write_bytes(rendering.render(spec.key, game.view(None), names))

    snapshot(0)
    step = 0
    while not game.is_over and step < max_actions:
        seat = game.to_act()[0]
        action = game.ai_action(seat, random.Random(f"{seed}:{step}:{seat}"))
        events = game.apply(seat, action)
        step += 1
        for e in events:
            if "private_to" not in e and e.get("text"):
                log_lines.append(f"{step:4d} {fill_names(e['text'], names)}")
        snapshot(step)
    result = {
        "game": spec.key,
        "players": n,
        "seed": seed,
        "actions": step,
        "over": game.is_over,
        "result": fill_all(game.result, names),  # the engine names seats by token: the file names them
    }
    (out / "result.json").write_text(json.dumps(result, indent=2))
    (out / "log.txt").write_text("\n".join(log_lines) + "\n")
    echo(f"{spec.title}: {step} actions, {'finished' if game.is_over else 'stopped unfinished'}.")
    if result["result"]:
        scores = result["result"].get("scores", {})
        echo("Scores: " + ", ".join(f"{names[int(k)]}: {v}" for k, v in scores.items()))
        echo("Winners: " + (", ".join(names[int(w)] for w in result["result"].get("winners", [])) or "none"))
        if result["result"].get("reason"):
            echo(f"Why: {result['result']['reason']}")
    echo(f"Images and log in {out}/")
    return result
