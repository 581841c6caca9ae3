"""The player's language through the loopback Discord (issue 21): a member whose client is in Polish and
one in Italian get /notify, /games and /vacation in their language, and the DMs /notify sends later in
it; a server set to Polish with /admiralty language; the slash commands synced with their localisations (checked as Discord checks
them); and the pseudo-locale run of the slice: no untransformed English reaches the player."""

from __future__ import annotations

import random
import re
import time

from discord import app_commands

from bot.command_translator import CommandTranslator, localise, valid_name
from bot.i18n import PSEUDO, languages, native_name, pseudo
from tests.fakediscord.models import Role
from tests.fakediscord.validate import check_command_localizations

MANAGE_GUILD = 1 << 5
SLICE = ("notify", "games", "vacation", "admiralty")


async def answer(member, command: str, **options):
    result = await member.slash(command, **options)
    if result.pending or not result.text:
        await result.wait_for(lambda r: bool(r.text), timeout=10)
    assert not result.failed, result.text
    return result


async def started(d):
    """Alice opens Enemy Lines, Bob joins, Alice starts it."""
    await d.new_game("alice", quick_setup=True)
    await d.member("bob").click(d.lobby_message(), "Join")
    await d.member("alice").click(d.lobby_message(), "Start")
    await d.host.idle()
    await d.settle()


def manager(d, name: str) -> None:
    guild = d.fd.guild
    role = Role(d.fd.snow(), "managers", MANAGE_GUILD)
    guild.roles[role.id] = role
    guild.members[d.member(name).id].roles.append(role.id)


async def test_a_polish_and_an_italian_member_get_notify_and_games_in_their_language(driver):
    d = driver
    alice, bob = d.member("alice"), d.member("bob")
    alice.user.locale, bob.user.locale = "pl", "it"

    assert "🔔 **Twoje powiadomienia o ruchu** (na każdym serwerze)" in (await answer(alice, "notify")).text
    assert "🔔 **I tuoi avvisi di turno** (in ogni server)" in (await answer(bob, "notify")).text
    refused = await answer(alice, "notify", timezone="Mars/Base")
    assert refused.ephemeral and refused.text == (
        "Nie znam strefy czasowej 'Mars/Base': podaj nazwę w rodzaju Europe/Warsaw albo America/New_York. "
        "Nic nie zostało zmienione."
    )
    saved = await answer(alice, "notify", alerts="dm")
    assert saved.text.startswith(
        "Zapisano.\n🔔 **Twoje powiadomienia o ruchu** (na każdym serwerze): wiadomość"
    )
    assert any("✅ Tu będą przychodzić powiadomienia" in m.text for m in alice.dms())  # the DM check
    assert await d.host.storage.user_locale(alice.id) == "pl"  # for the DMs sent her later

    assert (await answer(bob, "games")).text.startswith("Al momento non stai giocando nessuna partita.")
    await started(d)
    mine, his = await answer(alice, "games"), await answer(bob, "games")
    assert mine.text.startswith("🎲 **Twoje gry** — w toku: 1, w poczekalniach: 0;"), mine.text
    assert his.text.startswith("🎲 **Le tue partite** — in corso: 1, in sala d'attesa: 0;"), his.text
    waiting, moving = (mine, his) if "**Tocca a te**" in his.text else (his, mine)
    assert "**Czekają na innych**" in mine.text or "**Twój ruch**" in mine.text
    labels = [b.label for m in moving.messages for b in m.buttons]
    assert labels and labels[0] in ("Następna gra, w której mam ruch", "Prossima partita in cui tocca a me")
    assert not [b for m in waiting.messages for b in m.buttons]

    # /vacation: plural forms of each language
    assert "ti restano 30 giorni di vacanza in questo server" in (await answer(bob, "vacation")).text
    taken = await answer(alice, "vacation", days=2)
    assert "🏖 Jesteś na urlopie do <t:" in taken.text and "(2 dni pobrane z puli" in taken.text, taken.text
    back = await answer(alice, "vacation", end=True)
    assert back.text.startswith("Witaj z powrotem: twoje zegary znów chodzą."), back.text


async def test_a_server_set_to_polish_by_admiralty_language(driver):
    d = driver
    alice, bob = d.member("alice"), d.member("bob")
    bob.user.locale = "it"
    manager(d, "alice")
    shown = await answer(bob, "admiralty language", channel=d.channel)
    assert shown.ephemeral and shown.text.startswith("Admiralty parla ai canali di questo server in English:")
    refused = await answer(bob, "admiralty language", channel=d.channel, language="pl")
    assert refused.text == "Solo i membri con il permesso Gestisci server possono cambiarlo."
    assert await d.host.storage.guild_locale(d.fd.guild.id) is None, "nothing changed"

    done = await answer(alice, "admiralty language", channel=d.channel, language="pl")
    assert not done.ephemeral, "the whole channel reads it"
    assert [m.text for m in d.public()][-1].startswith(
        "🌐 Język Admiralty na kanałach tego serwera to teraz: Polski."
    )
    assert await d.host.storage.guild_locale(d.fd.guild.id) == "pl"
    now = await answer(bob, "admiralty language", channel=d.channel)  # bob still reads his own language
    assert (
        now.text
        == "Admiralty parla ai canali di questo server in Polski (impostato con `/admiralty lingua`)."
    )

    # back to the server's own language, as Discord's settings give it
    d.fd.guild.locale = "de"
    back = await answer(alice, "admiralty language", channel=d.channel, language="discord")
    assert back.text.startswith("🌐 Admiralty spricht in den Kanälen dieses Servers jetzt Deutsch."), (
        back.text
    )
    assert await d.host.storage.guild_locale(d.fd.guild.id) is None


async def test_the_commands_are_synced_with_their_localisations(driver):
    commands = {c["name"]: c for c in driver.fd.global_commands}
    notify = commands["notify"]
    assert notify["name_localizations"]["pl"] == "powiadomienia"
    assert notify["name_localizations"]["pt-BR"] == "notificações"
    assert (
        notify["description_localizations"]["de"] == "Wie du erfährst, dass du am Zug bist, auf jedem Server"
    )
    assert "en-US" not in (notify.get("name_localizations") or {}), "English is the source, not a translation"
    options = {o["name"]: o for o in notify["options"]}
    assert options["timezone"]["name_localizations"]["es-ES"] == "zona_horaria"
    assert options["timezone"]["name_localizations"]["es-419"] == "zona_horaria"
    alerts = {c["value"]: c for c in options["alerts"]["choices"]}
    assert alerts["dm"]["name_localizations"]["fr"] == "Un message privé"
    group = {o["name"]: o for o in commands["admiralty"]["options"]}
    assert group["language"]["name_localizations"]["pl"] == "język"
    assert commands["vacation"]["name_localizations"]["it"] == "vacanza"
    assert commands["games"]["name_localizations"]["pl"] == "gry"
    for name in SLICE:  # every name and description of the slice in all six languages
        # (Admiralty's own name stays the same in every language: nothing to localise)
        for key in (
            ("description_localizations",)
            if name == "admiralty"
            else ("name_localizations", "description_localizations")
        ):
            assert {"pl", "it", "de", "fr", "es-ES", "pt-BR"} <= set(commands[name][key]), (name, key)


class _Recorder(app_commands.Translator):
    """Every string the tree asks to translate, with where it goes."""

    def __init__(self) -> None:
        self.asked: list[tuple[str, app_commands.TranslationContextLocation]] = []

    async def translate(self, string, locale, context):
        self.asked.append((string.message, context.location))
        return None


class _PseudoTranslator(CommandTranslator):
    async def translate(self, string, locale, context):
        return localise(string.message, PSEUDO, context.location)


async def test_the_slices_commands_in_the_pseudo_locale_fit_discords_limits(driver):
    tree = driver.bot.tree
    for command in tree.get_commands():
        if command.name not in SLICE:
            continue
        recorder = _Recorder()
        await command.get_translated_payload(tree, recorder)
        assert recorder.asked
        for text, where in recorder.asked:
            # every string of the slice, lengthened by a third, is still one Discord takes
            assert localise(text, PSEUDO, where) is not None, (command.name, text)
        check_command_localizations(await command.get_translated_payload(tree, _PseudoTranslator()))
    assert valid_name(pseudo("vacation-days", name=True))


_NOT_WORDS = re.compile(r"`[^`]*`|<[^>]*>|https?://\S+|\[[^\]]*\]\([^)]*\)")


def english_left(text: str, values: list[str]) -> list[str]:
    """The ASCII words of ``text`` (pseudo-locale letters are accented) outside code spans, Discord
    markup, links and the values filled in (names, the server's, a time zone, a language's name)."""
    for value in sorted(values, key=len, reverse=True):
        text = text.replace(value, " ")
    return re.findall(r"[A-Za-z]{2,}", _NOT_WORDS.sub(" ", text))


async def test_the_slice_in_the_pseudo_locale_shows_no_english_and_fits(driver):
    d = driver
    alice, bob = d.member("alice"), d.member("bob")
    manager(d, "alice")
    alice.user.locale = PSEUDO
    values = ["Alice", "Bob", "UTC", "Mars/Base", "Europe/Paris", "games", "general", d.fd.guild.name]
    values += [native_name(code) for code in (*languages(), PSEUDO)]
    answers = [
        await answer(alice, "notify"),
        await answer(alice, "notify", timezone="Mars/Base"),
        await answer(alice, "notify", quiet_hours="22:00-07:00"),
        await answer(alice, "notify", alerts="dm", digest="08:00", heads_up=True, timezone="Europe/Paris"),
        await answer(alice, "notify", quiet_hours="25:00-07:00"),
        await answer(alice, "games"),
        await answer(alice, "vacation"),
        await answer(alice, "vacation", days=2, end=True),
        await answer(alice, "vacation", days=2),
        await answer(alice, "vacation", days=1),
        await answer(alice, "vacation", end=True),
        await answer(alice, "vacation", end=True),
        await answer(alice, "admiralty vacation-days"),
        await answer(alice, "admiralty vacation-days", days=12),
        await answer(alice, "admiralty language"),
    ]
    await started(d)
    answers.append(await answer(alice, "games"))
    answers.append(await answer(bob, "games"))  # English: the check below would see it
    bob_games = answers.pop()
    assert english_left(bob_games.text, values), "the check finds English"
    for result in answers:
        for message in result.messages:
            assert len(message.text) <= 2000
            assert english_left(message.text, values) == [], message.text
            for button in message.buttons:
                assert english_left(button.label or "", values) == [] and len(button.label or "") <= 80
    # the DM that checks DMs reach her (/notify); her turn alerts are not of the slice yet
    dm_check = [m.text for m in alice.dms() if m.text.startswith("✅")]
    assert len(dm_check) == 1 and english_left(dm_check[0], values) == [], dm_check


async def test_turn_alerts_and_the_digest_come_by_dm_in_the_language_notify_was_set_in(driver):
    """/notify in Polish: her turn's DM alert and her daily digest (sent later, with no interaction to
    read a language from) come in Polish; Bob, who never set one, keeps English pings."""
    from tests.e2e.test_notify_e2e import all_dms, started, wait_until_its_turn, with_clock

    d = driver
    alice = d.member("alice")
    alice.user.locale = "pl"
    hour = (time.gmtime().tm_hour + 3) % 24
    await answer(alice, "notify", alerts="dm", timezone="UTC", digest=f"{hour:02d}:00")
    await started(d, turn_timeout="2h")
    table = await wait_until_its_turn(d, alice, random.Random(4))
    await d.fd.wait_for(lambda: all_dms(d, alice, "🔔 Twój ruch w **Enemy Lines**"), timeout=10)
    (alert,) = all_dms(d, alice, "🔔 Twój ruch w **Enemy Lines**")
    assert f"(gra #{table.id})" in alert.content and "\nTermin: <t:" in alert.content, alert.content
    assert "[Otwórz stół](https://discord.com/channels/" in alert.content
    (job,) = await d.host.storage.notify_jobs(alice.id)
    with_clock(d.bot, job.due - time.time() + 5)  # the digest's hour
    await d.fd.wait_for(lambda: all_dms(d, alice, "Twoje codzienne podsumowanie"), timeout=10)
    (digest,) = all_dms(d, alice, "Twoje codzienne podsumowanie")
    assert "📬 **Twoje codzienne podsumowanie**: 1 gra czeka na twój ruch." in digest.content, digest.content
    assert f"• **Enemy Lines** #{table.id} · " in digest.content and "· [otwórz](" in digest.content
