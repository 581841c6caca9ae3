"""Loading the ship and action decks of Enemy in Sight from data/enemy_in_sight/."""

from __future__ import annotations

import tomllib
from functools import lru_cache
from importlib.resources import files

from bot.games.phrase import ENGLISH, N_, Phrase, Voice

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
    "broadside": N_("Broadside"),
    "rake": N_("Rake"),
    "break_line": N_("Break the Line"),
    "repair": N_("Repair"),
    "bucket": N_("Bucket Brigade"),
    "boarding": N_("Boarding Party"),
    "additional_ship": N_("Additional Ship"),
    "refuse_battle": N_("Refuse Battle"),
    "fire_ship": N_("Fire Ship"),
    "blockade": N_("Blockade"),
    "weathergauge": N_("Weathergauge"),
    "fire": N_("Fire"),
    "strike": N_("Strike"),
    "run_aground": N_("Run Aground"),
    "admiralty": N_("Admiralty's Orders"),
}


@lru_cache(maxsize=1)
def ships_data() -> dict:
    with (DATA_DIR / "ships.toml").open("rb") as f:
        return tomllib.load(f)


@lru_cache(maxsize=1)
def actions_data() -> dict:
    with (DATA_DIR / "actions.toml").open("rb") as f:
        return tomllib.load(f)


NATION_NAMES = {
    "GB": N_("Britain"),
    "FR": N_("France"),
    "ES": N_("Spain"),
    "NL": N_("Netherlands"),
    "US": N_("United States"),
}


def nations() -> dict[str, str]:
    return dict(ships_data()["nations"])


def nation_name(code: str, speaker: Voice = ENGLISH) -> str:
    """A nation's name in the reader's language (its code where the decks know no such nation)."""
    name = NATION_NAMES.get(code)
    return speaker.gettext(name) if name else nations().get(code, code)


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


def card_phrase(card: dict) -> Phrase:
    """The card's printed name as a message, said in each reader's language (a log line holds it)."""
    t = card["type"]
    if t == "broadside":
        return Phrase(N_("Broadside {damage} (rate {rate})"), damage=card["damage"], rate=card["rate"])
    if t == "rake":
        return Phrase(N_("Rake {damage}"), damage=card["damage"])
    if t == "fire":
        hm = card["hull_max"]
        return Phrase(N_("Fire (Hull 1-{hull}, Rigging {rigging}-6)"), hull=hm, rigging=hm + 1)
    return Phrase(TYPE_NAMES[t])


def card_name(card: dict, speaker: Voice = ENGLISH) -> str:
    """The card's printed name, in the reader's language."""
    return speaker.say(card_phrase(card))
