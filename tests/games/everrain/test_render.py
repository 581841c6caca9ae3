"""The renderer sees only views: map, tracks, trace and ship board, small PNGs."""

from __future__ import annotations

import io
import random

from PIL import Image

from bot.games import registry
from rendering import has_renderer, render


def _png(data: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(data))
    img.load()
    return img


def test_render_spectator_and_seat_views_through_a_game():
    assert has_renderer("everrain")
    spec = registry.get("everrain")
    for scenario in ("strait", "archipelago"):
        g = spec.new(players=3, options={"scenario": scenario}, seed=3)
        rng = random.Random(3)
        shots = 0
        while not g.is_over:
            seat = g.to_act()[0]
            g.apply(seat, g.ai_action(seat, rng))
            if g.state["last_activation"] and shots < 3 and rng.random() < 0.1:
                shots += 1
                public = render("everrain", g.view(None), ["Ann", "Bo", "Cy"])
                mine = render("everrain", g.view(1), None)
                a, b = _png(public), _png(mine)
                assert a.width <= 800 and a.height <= 1800 and b.height > a.height
                assert len(public) < 500_000 and len(mine) < 500_000
        final = _png(render("everrain", g.view(0), ["Ann", "Bo", "Cy"]))
        assert final.width <= 800 and final.height <= 2800


def test_trace_of_an_attack_is_drawn(kit):
    g = kit.make(1)
    f = kit.Forced(g)
    kit.place(g, 0, (8, 2), crew=[1, 0, 2])
    e = kit.add_enemy(g, "cutter", (5, 2), facing=0)
    f.faces["enemy"].append(["move", "damage", "damage"])
    f.faces["evasion"].append(["evade"])
    g._activate(e["uid"])
    v = g.view(0)
    la = v["last_activation"]
    assert la["path"] == [[5, 2], [6, 2]] and la["evasion"] == ["evade"] and la["evaded"] == 1
    with_trace = _png(render("everrain", v))
    v2 = dict(v, last_activation=None)
    without = _png(render("everrain", v2))
    assert with_trace.tobytes() != without.tobytes()
