"""Private tables (issue 39): ``/table open ... private:True`` seats only the members its
host invites (``/table invite``, ``/table uninvite``; the host is always allowed). The
table lives in a private thread when the bot may create one in that channel (Create
Private Threads); else (no such permission, a forum: a post is never private, or
``here``) the thread is public and only its seats are invite-only. An uninvited member
who is seated keeps their seat (the host may ``/table kick`` them); they cannot sit again."""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot.app import CroupierBot
from bot.discord import perms
from bot.discord.answer import refuse
from bot.errors import NotAllowed
from bot.i18n import t
from bot.tables import Table, TableError
from bot.ui.limits import fit_content

from .play import table_here

log = logging.getLogger(__name__)


def thread_allowed(interaction: discord.Interaction, target: Any) -> bool:
    """Whether a private table's new thread in ``target`` (a text channel) may be private:
    the bot may create private threads there (the host needs only what a public thread
    asks of them: a private thread shows less, to fewer members)."""
    guild = interaction.guild
    if guild is None or not isinstance(target, discord.TextChannel):
        return False
    mine = perms.in_new_thread(target, guild.me)
    return not perms.missing(mine, perms.BOT_OPENS_PRIVATE)


def _hosts(table: Table, user_id: int) -> bool:
    return user_id in (table.host_id, table.game.host)


async def _private_thread(interaction: discord.Interaction, table: Table) -> discord.Thread | None:
    """The table's thread if it is a private one (fetched when out of the cache: an
    invited member must be let in)."""
    guild = interaction.guild
    if guild is None or table.parent_id is None:  # in a channel itself: no thread
        return None
    channel: Any = guild.get_thread(table.channel_id)
    if channel is None:
        try:
            channel = await guild.fetch_channel(table.channel_id)
        except discord.HTTPException:
            return None
    if isinstance(channel, discord.Thread) and channel.type is discord.ChannelType.private_thread:
        return channel
    return None


async def _checked(
    bot: CroupierBot, interaction: discord.Interaction, member: discord.Member
) -> tuple[Table, str] | None:
    """The table here and the host's language, or None when refused (answered)."""
    table = table_here(bot, interaction)
    locale = await bot.locale_for(interaction)
    if not _hosts(table, interaction.user.id):
        await refuse(interaction, NotAllowed("table.error.invite_not_host"), locale)
        return None
    if not table.settings.private:
        await refuse(interaction, TableError("not_private"), locale)
        return None
    if member.bot or _hosts(table, member.id):
        who = discord.utils.escape_markdown(member.display_name)
        await refuse(interaction, TableError("invite_self", player=who), locale)
        return None
    return table, locale


async def invite(
    bot: CroupierBot, interaction: discord.Interaction, member: discord.Member
) -> None:
    """``/table invite``: the member may sit; a private thread lets them in."""
    checked = await _checked(bot, interaction, member)
    if checked is None:
        return
    table, locale = checked
    who = discord.utils.escape_markdown(member.display_name)
    if not await bot.tables.invites.invite(table.id, member.id):
        await refuse(interaction, TableError("already_invited", player=who), locale)
        return
    text = t("table.invite.done", locale, player=who, where=f"<#{table.channel_id}>")
    await interaction.response.send_message(fit_content(text), ephemeral=True)
    thread = await _private_thread(interaction, table)
    if thread is not None:
        try:
            await thread.add_user(member)
        except discord.HTTPException:
            log.warning("table %s: could not add an invited member to its thread", table.id)
            await interaction.followup.send(t("table.invite.not_added", locale), ephemeral=True)


async def uninvite(
    bot: CroupierBot, interaction: discord.Interaction, member: discord.Member
) -> None:
    """``/table uninvite``: the member may no longer sit; a seated one keeps their seat
    (and the private thread, to play it)."""
    checked = await _checked(bot, interaction, member)
    if checked is None:
        return
    table, locale = checked
    who = discord.utils.escape_markdown(member.display_name)
    if not await bot.tables.invites.uninvite(table.id, member.id):
        await refuse(interaction, TableError("not_invited", player=who), locale)
        return
    seated = member.id in table.game.seated()
    key = "table.uninvite.seated" if seated else "table.uninvite.done"
    await interaction.response.send_message(fit_content(t(key, locale, player=who)), ephemeral=True)
    thread = await _private_thread(interaction, table)
    if thread is not None and not seated:
        try:
            await thread.remove_user(member)
        except discord.HTTPException:
            log.warning("table %s: could not remove an uninvited member from its thread", table.id)
