"""The other answers in the reader's language through the loopback Discord (issue 21): a player's
refusals and private answers (/move, /game undo, resign, follow, history, list) in their own client's
language, /stats and /leaderboard (posted in the channel) in the server's; the person's locale is
remembered when they open, join or follow a game, for the DMs sent them later (the follow DM comes in it);
and the pseudo-locale run of these answers shows no untransformed English and fits Discord's limits."""

from __future__ import annotations

from bot.i18n import PSEUDO
from tests.e2e.test_i18n_e2e import answer, english_left


async def _started(d):
    await d.new_game("alice", quick_setup=True)
    joined = await d.member("bob").click(d.lobby_message(), d.lobby_message().buttons[0].custom_id)
    if joined.pending or not joined.text:
        await joined.wait_for(lambda r: bool(r.text), timeout=10)
    await d.member("alice").click(d.lobby_message(), d.lobby_message().buttons[3].custom_id)  # Start
    await d.host.idle()
    await d.settle()
    return await d.table()


async def test_replies_come_in_each_persons_language_and_posted_ones_in_the_servers(driver):
    d = driver
    alice, bob, carol = d.member("alice"), d.member("bob"), d.member("carol")
    alice.user.locale, bob.user.locale, carol.user.locale = "pl", "it", "it"
    await d.host.storage.set_guild_locale(d.fd.guild.id, "pl")
    storage = d.host.storage
    table = await _started(d)
    # remembered by opening and joining the game: the DMs sent them later are in their language
    assert await storage.user_locale(alice.id) == "pl"
    assert await storage.user_locale(bob.id) == "it"
    assert await storage.user_locale(carol.id) is None

    waiting = table.seat_row(table.game.to_act()[0]).name
    idle = bob if waiting == "Alice" else alice
    refused = await answer(idle, "move", channel=d.channel, action="v0:0")
    assert refused.text in (
        f"Non è il tuo turno — si attende {waiting}.",
        f"To nie twoja tura — czekamy na: {waiting}.",
    ), refused.text
    undo = await answer(bob, "game undo", channel=d.channel)
    assert undo.text == "Non c'è ancora nessuna mossa da annullare."
    pause = await answer(bob, "game pause", channel=d.channel)  # no turn timer here: no clock
    assert pause.text == f"La partita #{table.id} non ha orologio: non c'è tempo da fermare o concedere."

    resign = await answer(bob, "game resign", channel=d.channel)
    assert resign.text == (
        f"Abbandonare la partita #{table.id}? (Enemy Lines) La partita finisce ora."  # two players
    )
    assert [b.label for b in resign.message.buttons] == ["Abbandona", "Continua a giocare"]
    kept = await bob.click(resign.message, resign.message.buttons[1].custom_id)
    if kept.pending or not kept.text:
        await kept.wait_for(lambda r: "Continui" in r.text, timeout=10)
    assert "Continui a giocare." in kept.text

    # a spectator follows in Italian: the answer, its buttons and the DM, and her locale is remembered
    followed = await answer(carol, "game follow", channel=d.channel)
    assert followed.text == f"👁 Segui la partita #{table.id}: ti scriverò in privato quando finisce."
    assert [b.label for b in followed.message.buttons] == ["Anche ogni mossa", "Smetti di seguire"]
    assert await storage.user_locale(carol.id) == "it"
    dm = [m for m in carol.dms() if "👁" in m.text]
    assert dm and dm[-1].text.startswith(f"👁 Segui **Enemy Lines** (partita #{table.id}) in <#"), dm

    listed = await answer(bob, "game list", channel=d.channel)
    assert listed.text.startswith(f"#{table.id} **Enemy Lines** in <#{d.channel.id}> — mossa 0 — ")
    history = await answer(bob, "game history", channel=d.channel)
    assert history.text == f"📜 **Partite passate in <#{d.channel.id}>** — ancora nessuna."

    # posted in the channel: the server's language (Polish), whoever asks
    stats = await answer(bob, "stats", channel=d.channel)
    assert not stats.ephemeral
    assert stats.text == "**Bob** nie ma jeszcze ukończonych gier na tym serwerze."
    board = await answer(bob, "leaderboard", channel=d.channel, game="enemy-lines")
    assert board.text == "Nikt jeszcze nie ukończył gry w **Enemy Lines** na tym serwerze."


async def test_the_other_replies_in_the_pseudo_locale_show_no_english_and_fit(driver):
    d = driver
    alice, bob, carol = d.member("alice"), d.member("bob"), d.member("carol")
    for member in (alice, bob, carol):
        member.user.locale = PSEUDO
    await d.host.storage.set_guild_locale(d.fd.guild.id, PSEUDO)
    table = await _started(d)
    values = ["Alice", "Bob", "Carol", "Enemy Lines", "enemy-lines"]
    waiting = table.seat_row(table.game.to_act()[0]).name
    idle = bob if waiting == "Alice" else alice
    answers = [
        await answer(idle, "move", channel=d.channel, action="v0:0"),
        await answer(carol, "move", channel=d.channel, action="v0:0"),
        await answer(bob, "game undo", channel=d.channel),
        await answer(carol, "game undo", channel=d.channel),
        await answer(bob, "game pause", channel=d.channel),
        await answer(bob, "game resume", channel=d.channel),
        await answer(bob, "game resign", channel=d.channel),
        await answer(carol, "game resign", channel=d.channel),
        await answer(carol, "game follow", channel=d.channel),
        await answer(carol, "game follow", channel=d.channel),
        await answer(bob, "game list", channel=d.channel),
        await answer(bob, "game history", channel=d.channel),
        await answer(bob, "game replay", channel=d.channel, id=table.id),
        await answer(bob, "game replay", channel=d.channel, id=999),
        await answer(bob, "stats", channel=d.channel),
        await answer(bob, "leaderboard", channel=d.channel, game="enemy-lines"),
        await answer(carol, "game unfollow", channel=d.channel),
        await answer(carol, "game unfollow", channel=d.channel),
    ]
    follow_dm = [m for m in carol.dms() if "👁" in m.text]
    assert follow_dm
    for message in [*(m for result in answers for m in result.messages), *follow_dm]:
        assert len(message.text) <= 2000
        assert english_left(message.text, values) == [], message.text
        for button in message.buttons:
            assert english_left(button.label or "", values) == [], button.label
            assert len(button.label or "") <= 100
