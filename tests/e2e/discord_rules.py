"""What Discord does that SimCord does not model (issue 36), put in front of SimCord's
route table for the bot's REST calls, each from Discord's documentation
(discord-api-docs: topics/threads.mdx, resources/channel.mdx, the error codes of
topics/opcodes-and-status-codes.mdx):

- An archived thread: "users cannot edit messages ... in archived threads" (an edit is
  refused with 50083); "sending a message will automatically unarchive the thread,
  unless the thread has been locked by a moderator" (then 50083 too). Discord archives a
  thread after ``auto_archive_duration`` minutes without a message (edits are no
  activity): ``archive`` is that moment, or a moderator's lock.
- Modify Thread (``PATCH /channels/{thread}``): ``archived``, ``name`` and
  ``auto_archive_duration`` need Manage Threads or being the thread's creator, ``locked``
  Manage Threads (SimCord asks Manage Channels of every channel edit).
- Embed Links: a bot's message whose only content is embeds is refused (403, 50013) where
  the bot lacks it; otherwise (an edit, or a message with text) the embeds are dropped
  (discord-api-docs issues 2601 and 5648).
- A forum with the REQUIRE_TAG flag (``1 << 4``) refuses a post without a tag (400,
  40067); SimCord sends no forum ``flags`` at all: ``forum_flags`` holds them.

``install(monkeypatch)`` puts them in front of ``simcord.http.router.dispatch`` (the one
way SimCord's transport, and tests/e2e/wire.py, reach the route table) and of the channel
payloads; e2e tests get it through the autouse ``discord_rules`` fixture.
"""

from __future__ import annotations

from typing import Any

import discord
from simcord.backend import permissions, serializers
from simcord.backend.errors import BackendError
from simcord.http import router
from simcord.types import HttpLogEntry

REQUIRE_TAG = 1 << 4
ARCHIVED = (400, 50083, "Thread is archived")
TAG_REQUIRED = (400, 40067, "A tag is required to create a forum post in this channel")
THREAD_FIELDS = {"archived", "locked", "auto_archive_duration", "name"}

# forum channel id -> its flags (REQUIRE_TAG)
forum_flags: dict[int, int] = {}


def _bot_has(backend: Any, channel: Any, name: str) -> bool:
    if channel.guild_id is None:
        return True
    value = backend.compute_permissions(channel.guild_id, backend.bot_user.id, channel.id)
    return bool(value & permissions.flag(name))


def _thread_edit(backend: Any, thread: Any, body: dict[str, Any]) -> Any:
    """Modify Thread as Discord checks it (topics/threads.mdx, "Permissions")."""
    meta = thread.thread_metadata
    may = thread.owner_id == backend.bot_user.id or _bot_has(backend, thread, "manage_threads")
    reopen = body.get("archived") is False
    if meta.archived and not reopen:
        raise BackendError(*ARCHIVED)
    refused = (
        ("locked" in body and not _bot_has(backend, thread, "manage_threads"))
        or ({"name", "auto_archive_duration"} & set(body) and not may)
        or (body.get("archived") is True and not may)
        or (reopen and meta.locked and not may)
        or (reopen and backend.bot_user.id not in thread.thread_members)
    )
    if refused:
        raise BackendError(403, 50013, "Missing Permissions")
    changes = {"name": body["name"]} if "name" in body else {}
    metadata = {k: body[k] for k in ("archived", "locked", "auto_archive_duration") if k in body}
    if "archived" in body:
        meta.archive_timestamp = backend.now_iso()
    backend.edit_channel(thread.id, changes, thread_metadata=metadata)
    return dict(serializers.channel_payload(backend, thread))


def _strip_embeds(backend: Any, channel: Any, json: Any, *, creating: bool) -> Any:
    """Embeds where the bot lacks Embed Links: refused alone, dropped beside anything."""
    if (
        not isinstance(json, dict)
        or not json.get("embeds")
        or _bot_has(backend, channel, "embed_links")
    ):
        return json
    if creating and not json.get("content"):
        raise BackendError(403, 50013, "Missing Permissions")
    return {**json, "embeds": []}


def _before(backend: Any, method: str, path: str, json: Any) -> tuple[Any, Any]:
    """Discord's answer to a call SimCord would take (a value: answered here), or the
    call's body as Discord would apply it."""
    parts = path.strip("/").split("/")
    if len(parts) < 2 or parts[0] != "channels" or not parts[1].isdigit():
        return None, json
    channel = backend.channels.get(int(parts[1]))
    if channel is None:
        return None, json
    meta = channel.thread_metadata
    rest = parts[2:]
    body = json if isinstance(json, dict) else {}
    if method == "PATCH" and not rest and meta is not None and body and set(body) <= THREAD_FIELDS:
        return _thread_edit(backend, channel, body), json
    tagged = bool(body.get("applied_tags")) or not forum_flags.get(channel.id, 0) & REQUIRE_TAG
    if method == "POST" and rest == ["threads"] and not tagged:
        raise BackendError(*TAG_REQUIRED)
    posting = method == "POST" and rest == ["messages"]
    if not posting and not (method == "PATCH" and len(rest) == 2 and rest[0] == "messages"):
        return None, json
    if meta is not None and meta.archived:
        if method == "PATCH" or meta.locked:
            raise BackendError(*ARCHIVED)
        meta.archived = False  # a new message unarchives the thread
        meta.archive_timestamp = backend.now_iso()
        backend.announce_channel_update(channel.id)
    return None, _strip_embeds(backend, channel, json, creating=posting)


def install(monkeypatch: Any) -> None:
    """Put Discord's rules in front of SimCord's route table and channel payloads."""
    dispatch = router.dispatch
    payload = serializers.channel_payload

    def checked(backend: Any, method: str, path: str, *, json: Any = None, **kw: Any) -> Any:
        try:
            answer, json = _before(backend, method, path, json)
        except BackendError:  # refused here: recorded like any call Discord refuses
            backend.http_requests.append(HttpLogEntry(method, path, {}, json, None))
            raise
        if answer is not None:  # recorded and open to injected faults like any call
            backend.http_requests.append(HttpLogEntry(method, path, {}, json, None))
            router._check_faults(backend, method, path)
            return answer
        return dispatch(backend, method, path, json=json, **kw)

    def with_flags(backend: Any, channel: Any) -> Any:
        out = payload(backend, channel)
        if channel.id in forum_flags:
            out = {**out, "flags": forum_flags[channel.id]}
        return out

    forum_flags.clear()
    monkeypatch.setattr(router, "dispatch", checked)
    monkeypatch.setattr(serializers, "channel_payload", with_flags)


def set_thread(
    env: Any, thread: Any, *, archived: bool, locked: bool = False, seen: bool = True
) -> None:
    """Discord archives a thread after its auto-archive duration without a message, or a
    moderator locks (and may archive) it: THREAD_UPDATE to the bot (not ``seen``: the
    bot misses it, as while it is offline)."""
    meta = env.backend.channels[thread.id].thread_metadata
    meta.archived, meta.locked = archived, locked
    meta.archive_timestamp = env.backend.now_iso()
    if seen:
        env.backend.announce_channel_update(thread.id)


def thread_state(env: Any, thread_id: int) -> tuple[bool, bool]:
    """(archived, locked) of a thread, as Discord holds it."""
    meta = env.backend.channels[thread_id].thread_metadata
    return meta.archived, meta.locked


def tagged_forum(env: Any, guild: Any, name: str, tags: list[str], *, require: bool) -> Any:
    """A forum channel with ``tags`` (REQUIRE_TAG if ``require``), as the bot sees it."""
    forum = guild.create_forum_channel(name)
    channel = env.backend.channels[forum.id]
    channel.available_tags = [
        {"id": str(env.backend.snowflake()), "name": tag, "moderated": False}
        | {"emoji_id": None, "emoji_name": None}
        for tag in tags
    ]
    if require:
        forum_flags[forum.id] = REQUIRE_TAG
    env.backend.announce_channel_update(forum.id)
    return forum


def exact_permissions(env: Any, guild: Any, value: int) -> None:
    """The bot's role grants exactly ``value`` and @everyone nothing: the bot has what its
    invite gave it, and members get the usual permissions from a "members" role."""
    backend = env.backend
    stored = backend.guilds[guild.id]
    bot_member = stored.members[backend.bot_user.id]
    everyone = stored.roles[guild.id]
    members = guild.create_role("members", permissions=discord.Permissions(everyone.permissions))
    for user_id, member in stored.members.items():
        if user_id != backend.bot_user.id:
            member.role_ids.append(members.id)
            backend.announce_member_update(guild.id, user_id)
    everyone.permissions = 0
    (bot_role_id,) = bot_member.role_ids
    stored.roles[bot_role_id].permissions = value
    backend.announce_role_updates(guild.id, [everyone, stored.roles[bot_role_id]])
