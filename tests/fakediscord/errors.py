"""Discord-shaped API errors and the test-side error."""

from __future__ import annotations

from typing import Any


class ApiError(Exception):
    """Raised inside a REST handler; becomes a JSON error body {"code", "message"[, "errors"]}."""

    def __init__(
        self,
        status: int,
        code: int,
        message: str,
        errors: dict | None = None,
        headers: dict[str, str] | None = None,
        extra: dict | None = None,
    ) -> None:
        super().__init__(f"{status} {code} {message}")
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors
        self.headers = headers or {}
        self.extra = extra or {}

    def body(self) -> dict[str, Any]:
        data: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.errors:
            data["errors"] = self.errors
        data.update(self.extra)
        return data


def unknown_message() -> ApiError:
    return ApiError(404, 10008, "Unknown Message")


def unknown_channel() -> ApiError:
    return ApiError(404, 10003, "Unknown Channel")


def unknown_interaction() -> ApiError:
    return ApiError(404, 10062, "Unknown interaction")


def unknown_webhook() -> ApiError:
    return ApiError(404, 10015, "Unknown Webhook")


def invalid_webhook_token() -> ApiError:
    return ApiError(401, 50027, "Invalid Webhook Token")


def already_acknowledged() -> ApiError:
    return ApiError(400, 40060, "Interaction has already been acknowledged.")


def missing_permissions() -> ApiError:
    return ApiError(403, 50013, "Missing Permissions")


def missing_access() -> ApiError:
    return ApiError(403, 50001, "Missing Access")


def cannot_dm() -> ApiError:
    return ApiError(403, 50007, "Cannot send messages to this user")


def cannot_edit_other() -> ApiError:
    return ApiError(403, 50005, "Cannot edit a message authored by another user")


def empty_message() -> ApiError:
    return ApiError(400, 50006, "Cannot send an empty message")


def too_large() -> ApiError:
    return ApiError(413, 40005, "Request entity too large")


class FakeDiscordError(AssertionError):
    """A test acted in a way Discord's client would not allow (clicking an invisible message, a missing
    button, an unknown command...). Subclass of AssertionError so pytest reports it plainly."""
