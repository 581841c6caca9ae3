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
