"""Faults on demand: 429s (per route or global) and 5xx answers on chosen routes."""

from __future__ import annotations

import json
import math
import time
from dataclasses import dataclass

from aiohttp import web


@dataclass
class Rule:
    kind: str  # "rate_limit" | "server_error"
    substring: str
    times: int | None  # None: until cleared
    retry_after: float = 0.05
    is_global: bool = False
    status: int = 500
    hits: int = 0


class Faults:
    """`substring` is matched against "METHOD /path" (path after /api/v10), e.g. "POST /channels/",
    "/callback", "PATCH /webhooks". The first matching rule with times left answers instead of the route."""

    def __init__(self) -> None:
        self.rules: list[Rule] = []
        self.log: list[tuple[str, str, int]] = []  # (kind, "METHOD /path", status)

    def rate_limit(
        self, route_substring: str, times: int | None = 1, retry_after: float = 0.05, is_global: bool = False
    ) -> Rule:
        rule = Rule("rate_limit", route_substring, times, retry_after=retry_after, is_global=is_global)
        self.rules.append(rule)
        return rule

    def server_error(self, route_substring: str, times: int | None = 1, status: int = 500) -> Rule:
        rule = Rule("server_error", route_substring, times, status=status)
        self.rules.append(rule)
        return rule

    def clear(self) -> None:
        self.rules.clear()

    def count(self, kind: str | None = None) -> int:
        return sum(1 for k, _, _ in self.log if kind is None or k == kind)

    def match(self, key: str) -> web.Response | None:
        for rule in self.rules:
            if rule.substring in key and (rule.times is None or rule.times > 0):
                if rule.times is not None:
                    rule.times -= 1
                rule.hits += 1
                return self._respond(rule, key)
        return None

    def _respond(self, rule: Rule, key: str) -> web.Response:
        if rule.kind == "rate_limit":
            ra = rule.retry_after
            body = {"message": "You are being rate limited.", "retry_after": ra, "global": rule.is_global}
            if rule.is_global:
                body["code"] = 0
            headers = {
                "Content-Type": "application/json",
                "Retry-After": str(max(1, math.ceil(ra))),
                "X-RateLimit-Limit": "5",
                "X-RateLimit-Remaining": "0",
                "X-RateLimit-Reset": f"{time.time() + ra:.3f}",
                "X-RateLimit-Reset-After": f"{ra:.3f}",
                "X-RateLimit-Scope": "global" if rule.is_global else "user",
                "Via": "1.1 google",
            }
            if rule.is_global:
                headers["X-RateLimit-Global"] = "true"
            else:
                headers["X-RateLimit-Bucket"] = "fakebucket" + str(abs(hash(rule.substring)) % 10**8)
            self.log.append(("rate_limit", key, 429))
            return web.Response(status=429, body=json.dumps(body).encode(), headers=headers)
        self.log.append(("server_error", key, rule.status))
        body = {"message": "500: Internal Server Error", "code": 0}
        return web.Response(
            status=rule.status, body=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
        )
