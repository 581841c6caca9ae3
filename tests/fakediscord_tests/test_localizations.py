"""The loopback Discord checks a slash command's localisations as Discord's API does: known locales,
names that are one lowercase word of at most 32 characters, descriptions and choice names of 1 to 100
characters, no two options with one name in a language."""

from __future__ import annotations

import pytest

from tests.fakediscord.errors import ApiError
from tests.fakediscord.validate import check_command_localizations


def command(**changes) -> dict:
    cmd = {
        "name": "notify",
        "type": 1,
        "description": "How you hear that it is your turn",
        "name_localizations": {"pl": "powiadomienia", "pt-BR": "notificações"},
        "description_localizations": {"de": "Wie du erfährst, dass du am Zug bist"},
        "options": [
            {
                "name": "alerts",
                "type": 3,
                "description": "Where",
                "name_localizations": {"pl": "alerty"},
                "choices": [
                    {"name": "A DM", "value": "dm", "name_localizations": {"fr": "Un message privé"}}
                ],
            },
            {
                "name": "timezone",
                "type": 3,
                "description": "Zone",
                "name_localizations": {"pl": "strefa_czasowa"},
            },
        ],
    }
    cmd.update(changes)
    return cmd


def test_valid_localisations_pass():
    check_command_localizations(command())


@pytest.mark.parametrize(
    "bad",
    [
        {"name_localizations": {"pl": "Powiadomienia"}},  # uppercase
        {"name_localizations": {"pl": "dwa słowa"}},  # a space
        {"name_localizations": {"pl": "x" * 33}},
        {"name_localizations": {"pt_BR": "notificações"}},  # not Discord's name of the locale
        {"name_localizations": {"en-XA": "ñöţîƒý"}},  # a pseudo-locale is not one of Discord's
        {"description_localizations": {"de": "x" * 101}},
        {"description_localizations": {"de": ""}},
    ],
)
def test_discord_refuses_a_bad_localisation(bad):
    with pytest.raises(ApiError) as refused:
        check_command_localizations(command(**bad))
    assert refused.value.status == 400


def test_discord_refuses_a_long_choice_name_and_two_options_named_alike():
    long_choice = command()
    long_choice["options"][0]["choices"][0]["name_localizations"] = {"fr": "x" * 101}
    twice = command()
    twice["options"][1]["name_localizations"] = {"pl": "alerty"}
    for cmd in (long_choice, twice):
        with pytest.raises(ApiError):
            check_command_localizations(cmd)


def test_discord_counts_a_commands_size_by_its_longest_localisations():
    options = [
        {"name": f"o{i}", "type": 3, "description": "d", "description_localizations": {"pl": "x" * 100}}
        for i in range(25)
    ]
    fits = command(options=options[:20])  # 20 options of 100 characters in Polish, one of each in English
    check_command_localizations(fits)
    grown = command(
        options=[
            {**o, "choices": [{"name": "y" * 100, "value": "v" * 100} for _ in range(25)]}
            for o in options[:2]
        ]
    )
    with pytest.raises(ApiError):  # 2 options of 25 choices of 200 characters: over 8000
        check_command_localizations(grown)
