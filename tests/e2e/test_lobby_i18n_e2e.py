"""The lobby in the reader's language through the loopback Discord (issue 21): on a server set to Polish
the lobby message and its buttons are Polish for the whole channel, while each member's private answers
and refusals (buttons and /game new, join, leave, add-ai, kick, start) come in their own client's
language; and the pseudo-locale run of the lobby shows no untransformed English and fits Discord's
limits."""

from __future__ import annotations

from bot.i18n import PSEUDO
from tests.e2e.test_i18n_e2e import answer, english_left, manager

POLISH_BUTTONS = ["Dołącz", "Wyjdź", "Dodaj SI", "Rozpocznij", "Anuluj"]


async def refusal(member, message, label: str) -> str:
    result = await member.click(message, label)
    if result.pending or not result.text:
        await result.wait_for(lambda r: bool(r.text), timeout=10)
    assert result.ephemeral, result.text
    return result.text


async def test_a_polish_server_sees_a_polish_lobby_and_an_italian_member_gets_italian_refusals(driver):
    d = driver
    alice, bob, carol = d.member("alice"), d.member("bob"), d.member("carol")
    bob.user.locale = carol.user.locale = "it"
    manager(d, "alice")
    await answer(alice, "admiralty language", channel=d.channel, language="pl")

    opened = await d.new_game("alice", quick_setup=True)
    # alice's client is English: her answer is English, naming the button as the channel shows it
    assert opened.text.startswith("Lobby opened. Others join with the **Dołącz** button"), opened.text
    lobby = d.lobby_message()
    assert [b.label for b in lobby.buttons] == POLISH_BUTTONS
    game_id = (await d.table()).id
    assert lobby.text.startswith(f"⚓ **Enemy Lines** — gra #{game_id}, gospodarz: <@{alice.id}>\n"), (
        lobby.text
    )
    assert "Gracze (1/2, co najmniej 2):" in lobby.text and "(gospodarz)" in lobby.text
    assert "Opcje: `szybki-start`: tak · czas na turę: brak" in lobby.text
    assert "Każdy może dołączyć (przycisk lub `/game join`) i wyjść." in lobby.text

    # bob (Italian) is refused in Italian: not the host
    assert await refusal(bob, lobby, "Rozpocznij") == "Solo l'host può avviare la partita."
    assert await refusal(bob, lobby, "Dodaj SI") == "Solo l'host può aggiungere posti IA."
    assert await refusal(bob, lobby, "Wyjdź") == "Non sei in questa partita."
    kicked = await answer(bob, "game kick", channel=d.channel, ai="Nelson")
    assert kicked.text == "Solo l'host può rimuovere posti dalla sala d'attesa."
    busy = await answer(bob, "game new", channel=d.channel, game="enemy-lines", thread=False)
    assert (
        busy.text
        == "In questo canale c'è già una partita. Prima finiscila o abbandonala con `/game abandon`."
    )

    joined = await bob.click(lobby, "Dołącz")
    if joined.pending or not joined.text:
        await joined.wait_for(lambda r: bool(r.text), timeout=10)
    assert joined.text.startswith("Ti sei unito alla partita."), joined.text
    lobby = d.lobby_message()
    assert "Gracze (2/2, co najmniej 2):" in lobby.text and lobby.text.endswith("*Bob dołącza.*"), lobby.text
    assert await refusal(bob, lobby, "Dołącz") == "Sei già in questa partita."
    full = await answer(carol, "game join", channel=d.channel)
    assert full.text == "La partita è al completo (2 giocatori)."
    assert (await answer(alice, "game leave", channel=d.channel)).text == (
        "You are the host: use Cancel (or `/game abandon`) to close the lobby."
    )

    started = await alice.click(lobby, "Rozpocznij")
    if started.pending or not started.text:
        await started.wait_for(lambda r: bool(r.text), timeout=10)
    assert started.text == "The game has started."
    await d.host.idle()
    await d.settle()
    closed = d.lobby_message_any()
    assert "\n**Gra się rozpoczęła.**" in closed.text and not closed.buttons, closed.text
    assert "Gracze (2):" in closed.text
    late = await answer(carol, "game leave", channel=d.channel)
    assert late.text == "La partita è già iniziata."


async def test_a_polish_member_gets_polish_plurals_when_too_few_joined(driver):
    d = driver
    alice = d.member("alice")
    alice.user.locale = "pl"
    opened = await d.new_game("alice")
    assert opened.text.startswith(
        "Poczekalnia otwarta. Inni dołączają przyciskiem **Join** albo `/game join`."
    )
    assert [b.label for b in d.lobby_message().buttons] == ["Join", "Leave", "Add AI", "Start", "Cancel"]
    too_few = await answer(alice, "game start", channel=d.channel)
    assert too_few.text == (
        "Enemy Lines wymaga co najmniej 2 graczy; dołączyło: 1. Zaproś kogoś albo dodaj miejsce SI."
    )
    added = await answer(alice, "game add-ai", channel=d.channel)
    assert added.text == "Dodano miejsce SI: Nelson (SI, normalny) zajmuje miejsce."
    removed = await answer(alice, "game kick", channel=d.channel, ai="Nelson")
    assert removed.text == "Usunięto z poczekalni: Nelson (SI, normalny)."
    assert d.lobby_message().text.endswith(
        "*Nelson (AI, normal) was removed by the host.*"
    )  # the channel: English


async def test_the_lobby_in_the_pseudo_locale_shows_no_english_and_fits(driver):
    d = driver
    alice, bob, carol = d.member("alice"), d.member("bob"), d.member("carol")
    for member in (alice, bob, carol):
        member.user.locale = PSEUDO
    await d.host.storage.set_guild_locale(d.fd.guild.id, PSEUDO)
    values = [
        "Alice",
        "Bob",
        "Carol",
        "Enemy Lines",
        "Nelson",  # an AI seat's name; its "(AI, normal)" is said in the reader's language
        "Nobody",
        "enemy-lines",
        "enemy_lines",
    ]
    values += ["game", "join", "kick", "abandon", "new"]  # command names inside code spans are kept

    answers = [await d.new_game("alice", quick_setup=True, turn_timeout="2h")]
    lobby = d.lobby_message()
    answers += [
        await answer(bob, "game start", channel=d.channel),
        await answer(bob, "game add-ai", channel=d.channel),
        await answer(bob, "game leave", channel=d.channel),
        await answer(bob, "game kick", channel=d.channel, ai="Nelson"),
        await answer(alice, "game kick", channel=d.channel, ai="Nobody"),
        await answer(alice, "game kick", channel=d.channel),
        await answer(alice, "game kick", channel=d.channel, player=alice.user),
        await answer(alice, "game leave", channel=d.channel),
        await answer(alice, "game start", channel=d.channel),
        await answer(bob, "game new", channel=d.channel, game="enemy-lines", thread=False),
        await answer(alice, "game add-ai", channel=d.channel),
        await answer(alice, "game kick", channel=d.channel, ai="Nelson"),
        await answer(bob, "game join", channel=d.channel),
        await answer(bob, "game join", channel=d.channel),
        await answer(carol, "game join", channel=d.channel),
    ]
    lobbies = [d.lobby_message()]
    started = await answer(alice, "game start", channel=d.channel)
    # its answer only: the messages after it are the game's table, a later slice of issue 21
    assert english_left(started.messages[0].text, values) == [], started.messages[0].text
    await d.host.idle()
    await d.settle()
    answers.append(await answer(carol, "game leave", channel=d.channel))
    lobbies.append(d.lobby_message_any())
    assert lobby is not None and all(lobbies)

    for message in [lobby, *lobbies]:
        assert len(message.text) <= 4000
        assert english_left(message.text, values) == [], message.text
        for button in message.buttons:
            assert english_left(button.label or "", values) == [], button.label
            assert 0 < len(button.label or "") <= 80  # Discord's limit for a button's label
    for result in answers:  # each answer (an answered token may post the game's table later: not this slice)
        text = result.messages[0].text
        assert result.ephemeral and 0 < len(text) <= 2000
        assert english_left(text, values) == [], text
