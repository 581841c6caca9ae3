"""Languages (migration 0012): a person's remembered locale and a server's chosen language."""

from __future__ import annotations


async def test_a_persons_locale_is_remembered_and_replaced_when_it_changes(store):
    assert await store.user_locale(7) is None
    await store.remember_user_locale(7, "pl")
    await store.remember_user_locale(7, "pl")
    assert await store.user_locale(7) == "pl"
    await store.remember_user_locale(7, "pt-BR")
    assert await store.user_locale(7) == "pt-BR"
    assert await store.user_locale(8) is None


async def test_a_servers_language_is_set_changed_and_given_back_to_discords(store):
    assert await store.guild_locale(1) is None
    await store.set_guild_locale(1, "pl")
    await store.set_guild_locale(2, "it")
    await store.set_guild_locale(1, "de")
    assert (await store.guild_locale(1), await store.guild_locale(2)) == ("de", "it")
    await store.set_guild_locale(1, None)
    assert await store.guild_locale(1) is None and await store.guild_locale(2) == "it"


async def test_the_notify_preferences_carry_the_language_of_their_dms(store):
    from bot.notify import Prefs

    await store.set_notify_prefs(7, Prefs(route="dm"), None)
    await store.set_notify_prefs(8, Prefs(route="dm"), None)
    await store.remember_user_locale(7, "pl")
    prefs = await store.notify_prefs([7, 8, 9])
    assert prefs[7].locale == "pl" and prefs[7].speaker.gettext("Saved.") == "Zapisano."
    assert prefs[8].locale == "en" and 9 not in prefs  # never used a language: English; no prefs: none


async def test_a_servers_language_is_read_once_a_while_not_once_a_publish(store, monkeypatch):
    from bot.storage import locales

    await store.set_guild_locale(3, "pl")
    reads = []
    real = store._fetchone

    async def counted(sql, params=()):
        reads.append(sql)
        return await real(sql, params)

    monkeypatch.setattr(store, "_fetchone", counted)
    for _ in range(5):  # a table publish and its pings, many moves
        assert await store.guild_locale(3) == "pl"
        assert await store.guild_locale(4) is None
    assert len(reads) <= 1  # server 3 known from its own setting; server 4 read once
    await store.set_guild_locale(3, "it")  # a change made here shows at once
    assert await store.guild_locale(3) == "it"
    clock = [0.0]
    monkeypatch.setattr(locales.time, "monotonic", lambda: clock[0])
    store._guild_locale_cache.clear()
    await store.guild_locale(4)
    clock[0] += locales.GUILD_LOCALE_TTL + 1  # another process may have changed it: read again
    await store.guild_locale(4)
    assert len(reads) == 3
