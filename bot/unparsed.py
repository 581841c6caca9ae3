"""Edits through an interaction's token that leave Discord's answer unparsed.

``Interaction.edit_original_response`` and ``WebhookMessage.edit`` build a message object from what
Discord sends back: for a table or a DM that is a Components V2 message (container, gallery, sections,
rows) parsed into discord.py's objects, on every edit, and the bot never reads it. These send the same
request (discord.py's own parameter handling and webhook adapter: the same payload, files, mentions and
errors) and keep only what the library would keep for later: a view with callbacks of its own is stored
for dispatch, as it would be (the bot's views are inert, routed by their custom ids, so none is)."""

from __future__ import annotations

from typing import Any

import discord
from discord.http import Route, handle_message_parameters
from discord.webhook.async_ import async_context, interaction_message_response_params


def _store(state: Any, view: Any, message_id: int) -> None:
    # what edit_original_response / edit_message do with the view they sent
    if view and not view.is_finished() and view.is_dispatchable():
        state.store_view(view, message_id)


async def edit_original(interaction: discord.Interaction, **fields: Any) -> None:
    """``interaction.edit_original_response(**fields)`` without the message it returns."""
    state = interaction._state
    http = state.http
    with handle_message_parameters(previous_allowed_mentions=state.allowed_mentions, **fields) as params:
        data = await async_context.get().edit_original_interaction_response(
            interaction.application_id,
            interaction.token,
            session=interaction._session,
            proxy=http.proxy,
            proxy_auth=http.proxy_auth,
            payload=params.payload,
            multipart=params.multipart,
            files=params.files,
        )
    _store(state, fields.get("view"), int(data["id"]))


async def edit_followup(message: discord.WebhookMessage, **fields: Any) -> None:
    """``message.edit(**fields)`` (a follow-up posted through an interaction's token) without the
    message it returns."""
    webhook = message._state._webhook
    state = webhook._state
    thread = message._state._thread
    with handle_message_parameters(
        previous_allowed_mentions=getattr(state, "allowed_mentions", None), **fields
    ) as params:
        await async_context.get().edit_webhook_message(
            webhook.id,
            webhook.token,
            message.id,
            session=webhook.session,
            proxy=webhook.proxy,
            proxy_auth=webhook.proxy_auth,
            payload=params.payload,
            multipart=params.multipart,
            files=params.files,
            thread_id=thread.id if thread else None,
            with_components=bool(fields.get("view")),
        )
    _store(state, fields.get("view"), message.id)


async def update_message(interaction: discord.Interaction, **fields: Any) -> None:
    """``interaction.response.edit_message(**fields)`` (a click answered by an update of its message)
    without asking Discord for the updated message back (``with_response``) and parsing it."""
    state = interaction._state
    http = state.http
    message = interaction.message
    view = fields.get("view")
    if "view" in fields and message is not None:  # (as edit_message does)
        state.prevent_view_updates_for(message.id)
    with interaction_message_response_params(
        type=discord.InteractionResponseType.message_update.value,
        previous_allowed_mentions=state.allowed_mentions,
        **fields,
    ) as params:
        route = Route(
            "POST",
            "/interactions/{webhook_id}/{webhook_token}/callback",
            webhook_id=interaction.id,
            webhook_token=interaction.token,
        )
        await async_context.get().request(
            route,
            session=interaction._session,
            proxy=http.proxy,
            proxy_auth=http.proxy_auth,
            payload=None if params.files else params.payload,
            multipart=params.multipart if params.files else None,
            files=params.files,
        )
    interaction.response._response_type = discord.InteractionResponseType.message_update
    if message is not None:
        _store(state, view, message.id)
