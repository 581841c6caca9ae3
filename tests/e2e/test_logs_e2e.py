"""What the bot logs about an interaction through the loopback Discord: never the values a player sent."""

from __future__ import annotations

import logging

from cogs.common import APOLOGY
from tests.e2e.test_forged_input import plant, start_two_player


async def test_the_error_log_of_a_command_or_click_does_not_carry_its_values(driver, caplog, monkeypatch):
    """A typed move, a menu position in a custom id and a select value may name a secret choice
    (a boarding card, a mine kept off the board): the log of an unexpected error names the command or
    the kind of component, not what was sent."""
    caplog.set_level(logging.INFO)
    table, seat, mover = await start_two_player(driver)

    async def boom(*args, **kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr(driver.host, "choose", boom)
    monkeypatch.setattr(driver.host, "table_in", boom)
    typed = "Boarding card: Broadside 2 (rate 3)"
    assert APOLOGY in (await mover.slash("move", channel=driver.channel, action=typed)).text
    button_id = f"adm:b:{table.id}:{table.version}:{seat}:0.1"
    assert APOLOGY in (await mover.click(plant(driver.fd, driver.channel, button_id), button_id)).text
    select_id = f"adm:s:{table.id}:{table.version}:{seat}:0:0"
    msg = plant(driver.fd, driver.channel, select_id, ["17"])
    assert APOLOGY in (await mover.select(msg, "17", custom_id=select_id)).text
    errors = [r for r in caplog.records if r.name.startswith("admiralty") and r.levelno >= logging.ERROR]
    assert len(errors) == 3 and all(
        f"game {table.id}" in r.getMessage() or "/move" in r.getMessage() for r in errors
    ), [r.getMessage() for r in errors]
    for record in caplog.records:
        text = record.getMessage()
        assert "Broadside" not in text and button_id not in text and select_id not in text, text
        assert "'values'" not in text and "'17'" not in text, text
