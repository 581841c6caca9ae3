"""A loopback Discord for end-to-end tests: see README.md beside this file.

from tests.fakediscord import FakeDiscord, running_bot

async with FakeDiscord(users=["alice", "bob"]) as fd:
    async with running_bot(bot, fd):
        result = await fd.user("alice").slash("game new", game="enemy-lines")
"""

from .errors import ApiError, FakeDiscordError
from .faults import Faults
from .harness import running_bot
from .models import (
    ATTACH_FILES,
    EMBED_LINKS,
    FLAG_COMPONENTS_V2,
    FLAG_EPHEMERAL,
    SEND_MESSAGES,
    VIEW_CHANNEL,
    Attachment,
    Button,
    Channel,
    Interaction,
    Message,
    Select,
)
from .ratelimits import Calls, Ping, RateLimits
from .server import FakeDiscord
from .users import FakeMember, InteractionResult

__all__ = [
    "ATTACH_FILES",
    "EMBED_LINKS",
    "FLAG_COMPONENTS_V2",
    "FLAG_EPHEMERAL",
    "SEND_MESSAGES",
    "VIEW_CHANNEL",
    "ApiError",
    "Attachment",
    "Button",
    "Calls",
    "Channel",
    "FakeDiscord",
    "FakeDiscordError",
    "FakeMember",
    "Faults",
    "Interaction",
    "InteractionResult",
    "Message",
    "Ping",
    "RateLimits",
    "Select",
    "running_bot",
]
