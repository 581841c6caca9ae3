"""Loading the ship and action decks of Enemy in Sight from data/enemy_in_sight/."""

from __future__ import annotations

import tomllib
from functools import lru_cache
from importlib.resources import files

DATA_DIR = files("admiralty_data") / "enemy_in_sight"  # data/enemy_in_sight/, installed with the package

RED_TYPES = ("weathergauge", "fire", "strike", "run_aground", "admiralty")
BLACK_TYPES = (
    "broadside",
    "rake",
    "break_line",
    "repair",
    "bucket",
    "boarding",
    "additional_ship",
    "refuse_battle",
    "fire_ship",
    "blockade",
)

TYPE_NAMES = {
    "broadside": "Broadside",
    "rake": "Rake",
    "break_line": "Break the Line",
    "repair": "Repair",
    "bucket": "Bucket Brigade",
    "boarding": "Boarding Party",
    "additional_ship": "Additional Ship",
    "refuse_battle": "Refuse Battle",
    "fire_ship": "Fire Ship",
    "blockade": "Blockade",
    "weathergauge": "Weathergauge",
    "fire": "Fire",
    "strike": "Strike",
    "run_aground": "Run Aground",
    "admiralty": "Admiralty's Orders",
}


@lru_cache(maxsize=1)
def ships_data() -> dict:
    with (DATA_DIR / "ships.toml").open("rb") as f:
        return tomllib.load(f)


@lru_cache(maxsize=1)
def actions_data() -> dict:
    with (DATA_DIR / "actions.toml").open("rb") as f:
        return tomllib.load(f)


def nations() -> dict[str, str]:
    return dict(ships_data()["nations"])


def house_rules() -> dict:
    return dict(actions_data()["rules"])


def ship_list() -> list[dict]:
    """Every ship card: name, nation, rate, hull, rig."""
    d = ships_data()
    out = []
    for name, nation, rate in d["ships"]:
        hull, rig = d["rates"][str(rate)]
        out.append({"name": name, "nation": nation, "rate": rate, "hull": hull, "rig": rig})
    return out


@lru_cache(maxsize=1)
def card_list() -> tuple[dict, ...]:
    """Every action card (one dict per copy) with its fields, printed name and colour. Read-only."""
    out = []
    for row in actions_data()["card"]:
        base = {k: v for k, v in row.items() if k != "count"}
        base["name"] = card_name(base)
        base["red"] = base["type"] in RED_TYPES
        for _ in range(row["count"]):
            out.append(dict(base))
    return tuple(out)


def card_name(card: dict) -> str:
    t = card["type"]
    if t == "broadside":
        return f"Broadside {card['damage']} (rate {card['rate']})"
    if t == "rake":
        return f"Rake {card['damage']}"
    if t == "fire":
        hm = card["hull_max"]
        return f"Fire (Hull 1-{hm}, Rigging {hm + 1}-6)"
    return TYPE_NAMES[t]
