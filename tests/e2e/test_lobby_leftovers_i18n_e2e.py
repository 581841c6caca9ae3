"""The last of issue 21 outside the games, through the loopback Discord: an AI seat's level in the reader's
language wherever its name is shown (the lobby's reply and note, the table's status, log and seats, the
end summary, /stats; the stored name stays "Nelson (AI, hard)"), the lobby's title, options and turn
timer in the server's language, the joining DM in the player's, /game extend's choices localised by the
command tree's translator; and the pseudo-locale run of a lobby with an AI seat and an extend, which
shows no untransformed English."""

from __future__ import annotations

import random

from bot.i18n import PSEUDO
from tests.e2e.test_i18n_e2e import answer, english_left, manager

AI_ENGLISH = ("(AI, hard)", "(AI, normal)", "(AI, easy)", "(AI)")


def no_english_ai(text: str) -> bool:
    return not any(tail in text for tail in AI_ENGLISH)


async def test_a_polish_lobby_names_its_game_options_timer_and_ai_seat_in_polish(driver):
    d = driver
    alice = d.member("alice")
    alice.user.locale = "pl"
    manager(d, "alice")
    await answer(alice, "admiralty language", channel=d.channel, language="pl")

    await d.new_game("alice", game="warships", quick_setup=True, turn_timeout="2h", thread=False)
    added = await answer(alice, "game add-ai", channel=d.channel, level="hard")
    assert added.text == "Dodano miejsce SI: Nelson (SI, trudny) zajmuje miejsce."
    lobby = d.lobby_message().text
    game_id = (await d.table()).id
    assert lobby.startswith(f"⚓ **Manewry Morskie** — gra #{game_id}, gospodarz: <@{alice.id}>\n"), lobby
    # quick-setup as /game new names it in Polish; an option typed as a word keeps its word, its value Polish
    assert "`harder-attack`: nie, " in lobby and ", `szybki-start`: tak · czas na turę: 2 godz.\n" in lobby
    assert "🟥 Nelson (SI, trudny)" in lobby and lobby.endswith("*Nelson (SI, trudny) zajmuje miejsce.*")
    assert no_english_ai(lobby) and "True" not in lobby and "False" not in lobby

    # the joining DM (sent on opening the lobby) in alice's language
    joined = [m.text for m in alice.dms() if "Manewry Morskie" in m.text]
    assert joined and joined[0].startswith(f"Dołączono do gry **Manewry Morskie** (gra #{game_id}). "), joined

    # the AI's name in the host's kick list and reply, in her language; the stored name unchanged
    table = await d.table()
    assert [(s.name, s.ai_level) for s in table.seats if s.is_ai] == [("Nelson (AI, hard)", "hard")]
    kicked = await answer(alice, "game kick", channel=d.channel, ai="Nelson (AI, hard)")
    assert kicked.text == "Usunięto z poczekalni: Nelson (SI, trudny)."
    lobby = d.lobby_message().text
    assert "Nelson (SI, trudny)" in lobby.splitlines()[-1] and no_english_ai(lobby), lobby


async def test_an_italian_table_summary_and_stats_say_the_ais_level_in_italian(driver):
    d = driver
    alice = d.member("alice")
    alice.user.locale = "it"
    await d.host.storage.set_guild_locale(d.fd.guild.id, "it")  # as /admiralty language sets it
    await d.new_game("alice", quick_setup=True, thread=False)
    added = await answer(alice, "game add-ai", channel=d.channel, level="hard")
    assert "Nelson (IA, difficile)" in added.text, added.text
    await alice.click(d.lobby_message(), "Avvia")
    table = await d.table()
    await d.host.idle()
    await d.settle()
    shown = d.table_message().text
    assert "🟥 **Nelson (IA, difficile)**" in shown and no_english_ai(shown), shown

    # a move of each, so the log names the AI (an Enemy Lines move's line names its player)
    rng = random.Random(1)
    for _ in range(40):
        table = await d.table()
        if table.game.is_over or await d.host.storage.count_moves(table.id) >= 2:
            break
        if table.human_to_act():
            await d.host.act(table.id, alice.id, table.game.ai_action(table.human_to_act()[0], rng))
        await d.host.idle()
    await d.settle()
    shown = d.table_message().text
    assert no_english_ai(shown), shown

    await d.host.resign(table.id, alice.id)  # the AI wins: the summary names it
    await d.host.idle()
    await d.fd.wait_for(lambda: any("Partita finita" in m.text for m in d.public()), timeout=15)
    summary = next(m.text for m in d.public() if "Partita finita" in m.text)
    assert "Nelson (IA, difficile)" in summary and no_english_ai(summary), summary

    stats = await answer(alice, "stats", channel=d.channel)
    assert "Nelson (IA, difficile)" in stats.text and no_english_ai(stats.text), stats.text
    table = await d.table()
    assert [s.name for s in table.seats if s.is_ai] == ["Nelson (AI, hard)"]  # stored as before


async def test_game_extends_choices_are_localised_by_the_command_tree(driver):
    commands = {c["name"]: c for c in driver.fd.global_commands}
    extend = next(o for o in commands["game"]["options"] if o["name"] == "extend")
    choices = {c["value"]: c for c in extend["options"][0]["choices"]}
    assert [c["name"] for c in choices.values()] == ["1h", "12h", "1d", "3d"]
    assert choices[3600]["name_localizations"]["pl"] == "1 godz."
    assert choices[86400]["name_localizations"]["it"] == "1 giorno"
    for choice in choices.values():  # every language ships them
        assert set(choice["name_localizations"]) >= {"pl", "it", "de", "fr", "es-ES", "pt-BR"}


async def test_a_lobby_with_an_ai_seat_and_an_extend_in_the_pseudo_locale_shows_no_english(driver):
    d = driver
    alice, bob = d.member("alice"), d.member("bob")
    for member in (alice, bob):
        member.user.locale = PSEUDO
    await d.host.storage.set_guild_locale(d.fd.guild.id, PSEUDO)
    values = ["Alice", "Bob", "Nelson", "Enemy Lines", "Warships", "'nope'", "'speed'"]

    answers = [await d.new_game("alice", game="warships", quick_setup=True, turn_timeout="2h", thread=False)]
    answers.append(await answer(alice, "game add-ai", channel=d.channel, level="hard"))
    lobbies = [d.lobby_message()]
    answers.append(await answer(alice, "game kick", channel=d.channel, ai="Nelson"))
    answers.append(await answer(bob, "game join", channel=d.channel))
    lobbies.append(d.lobby_message())
    await alice.click(d.lobby_message(), d.lobby_message().buttons[3].label)  # Start
    await d.host.idle()
    await d.settle()
    table = await d.table()
    to_act = table.game.to_act()
    # bob gives the one to act more time (a clock on the turn timer): its answer, then the table's log
    mover = alice if table.seat_row(to_act[0]).user_id == alice.id else bob
    other = bob if mover is alice else alice
    answers.append(await answer(other, "game extend", channel=d.channel, time=3600))
    answers.append(await answer(other, "game new", channel=d.channel, game="warships", turn_timeout="nope"))
    answers.append(await answer(other, "game new", channel=d.channel, game="warships", options="speed=x"))
    await d.host.idle()
    await d.settle()
    for message in lobbies:
        assert len(message.text) <= 4000
        assert english_left(message.text, values) == [], message.text
    for result in answers:
        text = result.messages[0].text if result.messages else result.text
        assert 0 < len(text) <= 2000
        assert english_left(text, values) == [], text
    joining = alice.dms()[0].text  # the DM sent on opening the lobby
    assert english_left(joining, values) == [], joining
    table_text = d.table_message().text
    assert english_left(table_text, values) == [], table_text


async def _resigned_against_an_ai(d) -> int:
    """Alice plays Enemy Lines against a hard AI for two moves, then resigns; the game's id."""
    await d.new_game("alice", quick_setup=True, thread=False)
    await answer(d.member("alice"), "game add-ai", channel=d.channel, level="hard")
    await d.member("alice").click(d.lobby_message(), d.lobby_message().buttons[3].label)  # Start
    rng = random.Random(2)
    for _ in range(40):
        await d.host.idle()
        table = await d.table()
        if table.game.is_over or await d.host.storage.count_moves(table.id) >= 3:
            break
        if table.human_to_act():
            await d.host.act(table.id, d.member("alice").id, table.game.ai_action(0, rng))
    await d.host.resign(table.id, d.member("alice").id)
    await d.host.idle()
    return table.id


def _study(result):
    return next(m for m in result.messages if any(b.custom_id.startswith("adm:study:") for b in m.buttons))


async def test_the_study_of_a_game_speaks_the_readers_language(driver):
    d = driver
    carol = d.member("carol")
    carol.user.locale = "it"
    game_id = await _resigned_against_an_ai(d)
    first = _study(await answer(carol, "game study", channel=d.channel, id=game_id, move=1))
    assert "\n> Mossa 1: " in first.text and "Move 1" not in first.text, first.text
    assert "Nelson (IA, difficile)" in first.text and no_english_ai(first.text), first.text  # the badges
    (go,) = first.selects
    await carol.select(first, go.values[-1], custom_id=go.custom_id)
    assert "\n> Risultato: Alice si è ritirato; vince Nelson (IA, difficile)." in first.text, first.text

    carol.user.locale = PSEUDO
    values = ["Alice", "Nelson", "Enemy Lines"]
    start = _study(await answer(carol, "game study", channel=d.channel, id=game_id))
    assert english_left(start.text, values) == [], start.text
    await carol.select(start, start.selects[0].values[-1], custom_id=start.selects[0].custom_id)
    assert english_left(start.text, values) == [], start.text
