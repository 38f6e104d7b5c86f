"""The Discord permissions a table needs where it lives, and their names in the user's
language (the names Discord's own settings show)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import discord

from bot.i18n import t

# what the bot needs to keep a table's message up to date where the table lives (Read
# Message History: the sweep fetches a quiet table's message to see that it is still there)
POST_IN_CHANNEL = ("view_channel", "send_messages", "embed_links", "read_message_history")
POST_IN_THREAD = ("view_channel", "send_messages_in_threads", "embed_links", "read_message_history")
# what opening a table asks of the bot, by where it opens it (Embed Links of a new thread
# as the thread will grant it, see ``in_new_thread``); Manage Threads: a table refused
# after its thread was made deletes it, and a thread a moderator locked still shows the
# table's state (only Manage Threads may post or edit in a locked thread)
BOT_OPENS_THREAD = (
    "view_channel",
    "create_public_threads",
    "send_messages_in_threads",
    "embed_links",
    "read_message_history",
    "manage_threads",
)
BOT_OPENS_POST = (*POST_IN_THREAD, "send_messages", "manage_threads")
# what a private table's thread asks besides (bot/cogs/tables/private.py): without it the
# table opens in a public thread whose seats only invited members may take
BOT_OPENS_PRIVATE = ("create_private_threads",)
# what the member could do by hand there: write here, start a thread, create a post
MEMBER_OPENS_HERE = ("view_channel", "send_messages")
MEMBER_OPENS_IN_THREAD = ("view_channel", "send_messages_in_threads")
MEMBER_OPENS_THREAD = ("view_channel", "create_public_threads")
MEMBER_OPENS_POST = ("view_channel", "create_posts")


# every permission the bot checks anywhere: the invite asks for exactly these (README)
INVITE = tuple(
    dict.fromkeys((*POST_IN_CHANNEL, *BOT_OPENS_THREAD, *BOT_OPENS_POST, *BOT_OPENS_PRIVATE))
)


def invite_value() -> int:
    """The permissions integer of the bot's invite link."""
    return discord.Permissions(**dict.fromkeys(INVITE, True)).value


def in_new_thread(parent: Any, member: discord.Member) -> discord.Permissions:
    """What ``member`` will have in a new thread of ``parent``: the parent's permissions
    without the channel's own Send Messages rule, which withholds Embed Links from a
    read-only channel whose threads grant it (Send Messages in Threads is checked)."""
    base = discord.abc.GuildChannel.permissions_for(parent, member)
    return base if base.view_channel else discord.Permissions.none()


def opening_needs(target: Any, here: bool) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """What opening a table in ``target`` asks of the bot and of the member: a forum
    post, a thread of a text channel, or the channel or thread itself (``here``)."""
    if isinstance(target, discord.ForumChannel):
        return BOT_OPENS_POST, MEMBER_OPENS_POST
    if isinstance(target, discord.TextChannel) and not here:
        return BOT_OPENS_THREAD, MEMBER_OPENS_THREAD
    if isinstance(target, discord.Thread):
        return POST_IN_THREAD, MEMBER_OPENS_IN_THREAD
    return POST_IN_CHANNEL, MEMBER_OPENS_HERE


def has(perms: discord.Permissions, name: str) -> bool:
    """Whether ``perms`` holds ``name`` (``create_posts`` is a forum's Send Messages)."""
    return bool(getattr(perms, "send_messages" if name == "create_posts" else name))


def missing(perms: discord.Permissions, needed: Iterable[str]) -> list[str]:
    """The permissions of ``needed`` that ``perms`` lacks, in order; only View Channel
    when that one is missing (Discord then withholds the others, which may be granted)."""
    if "view_channel" in needed and not perms.view_channel:
        return ["view_channel"]
    return [name for name in needed if not has(perms, name)]


def names(missing_names: Iterable[str], locale: str | None) -> str:
    """The permissions' names as Discord shows them, quoted, in ``locale``."""
    return ", ".join(t("perm.quoted", locale, name=t(f"perm.{n}", locale)) for n in missing_names)


def table_needs(channel: Any) -> tuple[str, ...]:
    """What the bot needs in a table's thread or channel to keep its message."""
    return POST_IN_THREAD if isinstance(channel, discord.Thread) else POST_IN_CHANNEL


def bot_missing_in(channel: Any) -> list[str] | None:
    """What the bot lacks to keep a table's message in ``channel`` (None: unknown, the
    channel or the bot's member is not in the cache)."""
    guild = getattr(channel, "guild", None)
    me = getattr(guild, "me", None)
    if channel is None or me is None:
        return None
    return missing(channel.permissions_for(me), table_needs(channel))
