"""Discord's rate limits, modelled: a global limit per bot token and per-route buckets, with the headers and
429 answers discord.py's HTTPClient reads; plus the call counter tests and benchmarks read.

Discord (developers/topics/rate-limits): every bot has a global limit of 50 requests per second; interaction
endpoints (POST /interactions/{id}/{token}/callback and everything under /webhooks/{application_id}/{token})
are not bound by it. Routes also have their own buckets, scoped by the "major parameter" (channel, guild,
webhook + token): bots observe 5 message creates per 5 s per channel. Every response carries
X-RateLimit-Limit / -Remaining / -Reset / -Reset-After / -Bucket; a 429 adds Retry-After, X-RateLimit-Scope
(user | global | shared), X-RateLimit-Global on global limits, and a JSON body {message, retry_after, global}.

Buckets here are fixed windows: the first request opens a window of `per` seconds holding `limit` requests.
Time comes from an injectable monotonic clock (FakeDiscord(clock=...)).
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import math
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import NamedTuple

from aiohttp import web

# Route templates as counted (see server._ROUTES): ids become {channel_id}, {message_id}...; @original stays.
MESSAGE_CREATE = "POST /channels/{channel_id}/messages"
MESSAGE_EDIT = "PATCH /channels/{channel_id}/messages/{message_id}"
MESSAGE_DELETE = "DELETE /channels/{channel_id}/messages/{message_id}"
CALLBACK = "POST /interactions/{interaction_id}/{token}/callback"
FOLLOWUP = "POST /webhooks/{app_id}/{token}"
ORIGINAL_EDIT = "PATCH /webhooks/{app_id}/{token}/messages/@original"
ORIGINAL_DELETE = "DELETE /webhooks/{app_id}/{token}/messages/@original"
FOLLOWUP_EDIT = "PATCH /webhooks/{app_id}/{token}/messages/{message_id}"

EXEMPT_HANDLERS = frozenset(
    {"interaction_callback", "webhook_execute", "webhook_get", "webhook_edit", "webhook_delete"}
)


@dataclass
class RateLimits:
    """The numbers. Buckets are (limit, per seconds). `routes` maps a route template to its bucket; other
    routes use `default` (per route and major parameter). Adjust freely:
    `FakeDiscord(rate_limits=RateLimits(global_per_second=10, message_create=(2, 1.0)))`."""

    global_per_second: int = 50
    message_create: tuple[int, float] = (5, 5.0)  # POST /channels/{id}/messages, per channel
    message_edit: tuple[int, float] = (5, 5.0)  # PATCH /channels/{id}/messages/{id}, per channel
    message_delete: tuple[int, float] = (5, 1.0)  # DELETE /channels/{id}/messages/{id}, per channel
    interaction_webhook: tuple[int, float] = (5, 2.0)  # /webhooks/{app}/{token}..., per token
    default: tuple[int, float] = (50, 1.0)
    routes: dict[str, tuple[int, float]] = field(default_factory=dict)

    def bucket_for(self, template: str) -> tuple[int, float]:
        if template in self.routes:
            return self.routes[template]
        if template == MESSAGE_CREATE:
            return self.message_create
        if template.startswith("PATCH /channels/{channel_id}/messages/"):
            return self.message_edit
        if (
            template.startswith("DELETE /channels/{channel_id}/messages/{message_id}")
            and "reactions" not in template
        ):
            return self.message_delete
        if template.split(" ", 1)[1].startswith("/webhooks/"):
            return self.interaction_webhook
        return self.default


@dataclass
class _Window:
    limit: int
    per: float
    opened: float = 0.0
    used: int = 0

    def roll(self, now: float) -> None:
        if self.used and now >= self.opened + self.per:
            self.used = 0
        if self.used == 0:
            self.opened = now

    def reset_after(self, now: float) -> float:
        """Seconds until the window closes, rounded up to the millisecond (so a client that sleeps exactly
        this long never lands just inside the old window)."""
        after = max(0.0, self.opened + self.per - now) if self.used else self.per
        return math.ceil(after * 1000) / 1000


@functools.lru_cache(maxsize=256)  # one a route: a response's X-RateLimit-Bucket
def _bucket_hash(template: str) -> str:
    return hashlib.sha1(template.encode()).hexdigest()[:16]


class Limiter:
    """Decides, for one request, whether it passes; builds the headers/429 answer."""

    def __init__(self, config: RateLimits, clock: Callable[[], float]) -> None:
        self.config = config
        self.clock = clock
        self._global = _Window(config.global_per_second, 1.0)
        self._buckets: dict[tuple[str, str], _Window] = {}

    def check(
        self, template: str, major: str, *, exempt: bool
    ) -> tuple[web.Response | None, dict[str, str], str]:
        """-> (429 response or None, headers for a normal answer, bucket key)."""
        now = self.clock()
        limit, per = self.config.bucket_for(template)
        key = (template, major)
        win = self._buckets.get(key)
        if win is None or (win.limit, win.per) != (limit, per):
            win = self._buckets[key] = _Window(limit, per)
        win.roll(now)
        bucket_name = f"{template} [{major}]" if major else template
        if not exempt:
            g = self._global
            g.limit = self.config.global_per_second
            g.roll(now)
            if g.used >= g.limit:
                return self._too_many(g, now, template, is_global=True), {}, "global"
        if win.used >= win.limit:
            return self._too_many(win, now, template, is_global=False), {}, bucket_name
        win.used += 1
        if not exempt:
            self._global.used += 1
        return None, self._headers(win, now, template), bucket_name

    def _headers(self, win: _Window, now: float, template: str) -> dict[str, str]:
        after = win.reset_after(now)
        return {
            "X-RateLimit-Limit": str(win.limit),
            "X-RateLimit-Remaining": str(max(0, win.limit - win.used)),
            "X-RateLimit-Reset": f"{time.time() + after:.3f}",
            "X-RateLimit-Reset-After": f"{after:.3f}",
            "X-RateLimit-Bucket": _bucket_hash(template),
        }

    def _too_many(self, win: _Window, now: float, template: str, *, is_global: bool) -> web.Response:
        retry = max(0.001, win.reset_after(now))
        body: dict = {"message": "You are being rate limited.", "retry_after": retry, "global": is_global}
        headers = {
            "Content-Type": "application/json",
            "Retry-After": str(max(1, math.ceil(retry))),
            "Via": "1.1 google",
        }
        if is_global:
            body["code"] = 0
            headers.update({"X-RateLimit-Global": "true", "X-RateLimit-Scope": "global"})
        else:
            headers.update(self._headers(win, now, template))
            headers["X-RateLimit-Remaining"] = "0"
            headers["X-RateLimit-Scope"] = "user"
        return web.Response(status=429, body=json.dumps(body).encode(), headers=headers)


class Ping(NamedTuple):
    """A bot message (created, not edited; not ephemeral, not @silent) that notifies `user_id` by mention."""

    user_id: int
    message_id: int
    channel_id: int
    time: float  # FakeDiscord.clock()


class Calls:
    """Counts of the bot's REST calls (every request that reached the fake's API, 429s included).

    - `total`, `global_limited` (calls bound by the global limit), `exempt` (interaction callback + webhook);
    - `by_route`: Counter of route templates, e.g. c["POST /channels/{channel_id}/messages"] (or c.by_route[...]);
      the constants MESSAGE_CREATE, MESSAGE_EDIT, CALLBACK, FOLLOWUP, ORIGINAL_EDIT... name the usual ones;
    - `rate_limited`: Counter of 429s by bucket ("global", or "TEMPLATE [major]"); `rate_limited_total`;
    - `statuses`: Counter of (template, status).
    """

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        self.total = 0
        self.global_limited = 0
        self.exempt = 0
        self.by_route: Counter[str] = Counter()
        self.rate_limited: Counter[str] = Counter()
        self.statuses: Counter[tuple[str, int]] = Counter()

    def record(self, template: str, status: int, *, exempt: bool, bucket: str | None = None) -> None:
        self.total += 1
        if exempt:
            self.exempt += 1
        else:
            self.global_limited += 1
        self.by_route[template] += 1
        self.statuses[(template, status)] += 1
        if status == 429:
            self.rate_limited[bucket or template] += 1

    @property
    def rate_limited_total(self) -> int:
        return sum(self.rate_limited.values())

    def __getitem__(self, template: str) -> int:
        return self.by_route[template]

    def snapshot(self) -> dict:
        return {
            "total": self.total,
            "global_limited": self.global_limited,
            "exempt": self.exempt,
            "by_route": dict(self.by_route),
            "rate_limited": dict(self.rate_limited),
        }

    def __repr__(self) -> str:
        return (
            f"<Calls total={self.total} global_limited={self.global_limited} exempt={self.exempt} "
            f"429s={self.rate_limited_total} {dict(self.by_route)}>"
        )


class CallLog:
    """fd.calls: the running count since start (or the last reset), and `fd.count()` windows."""

    def __init__(self) -> None:
        self.all = Calls()
        self._open: list[Calls] = []

    def record(self, template: str, status: int, *, exempt: bool, bucket: str | None = None) -> None:
        self.all.record(template, status, exempt=exempt, bucket=bucket)
        for c in self._open:
            c.record(template, status, exempt=exempt, bucket=bucket)

    @contextlib.contextmanager
    def window(self):
        c = Calls()
        self._open.append(c)
        try:
            yield c
        finally:
            self._open.remove(c)
