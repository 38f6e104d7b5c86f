"""What the /bank commands share: the ``/bank`` group, the admin check, and the cog's
state (``BankBase``, the common base of the players' and the admins' commands)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import CroupierBot
from bot.bank.models import MAX_AMOUNT
from bot.discord.answer import answer
from bot.errors import NotAllowed
from bot.ui.translator import _

NO_PINGS = discord.AllowedMentions.none()
Amount = app_commands.Range[int, 1, MAX_AMOUNT]


def is_admin(interaction: discord.Interaction) -> bool:
    """Manage Server (or Administrator) in this guild."""
    perms = getattr(interaction.user, "guild_permissions", None)
    return bool(perms and (perms.manage_guild or perms.administrator))


def require_admin(interaction: discord.Interaction) -> None:
    """Refuse (translated, ephemeral) unless the user may manage the server."""
    if not is_admin(interaction):
        raise NotAllowed("bank.error.not_admin")


def mention(user_id: int) -> str:
    """A user mention (sent with pings disabled)."""
    return f"<@{user_id}>"


bank_group = app_commands.Group(
    name=_("bank", "name.bank"),
    description=_("The casino bank", "cmd.bank.description"),
    guild_only=True,
)


class BankBase(commands.Cog):
    """The bank cog's state and helpers, shared by its players' and admins' commands (a
    cog class to discord.py, only ``BankCog`` is added)."""

    bank_group = bank_group  # /bank, with every sub-command (the cog copies it per bot)

    def __init__(self, bot: CroupierBot) -> None:
        self.bot = bot
        self.bank = bot.bank
        self.channel = bot.bank_channel
        # held claims already shown to the admins in the bank channel (a player asking
        # again does not post them again; after a restart they are posted once more)
        self._held_posted: set[int] = set()

    async def context(self, interaction: discord.Interaction) -> tuple[int, str, str]:
        """(guild id, the user's language, the guild's currency name), guild set up with
        the same defaults the tables use."""
        assert interaction.guild_id is not None
        guild_id = interaction.guild_id
        await self.bot.tables.ensure_guild(guild_id)
        locale = await self.bot.locale_for(interaction)
        prefs = await self.channel.prefs(guild_id)
        return guild_id, locale, prefs.currency

    @staticmethod
    async def reply(
        interaction: discord.Interaction,
        text: str | None = None,
        *,
        embed: discord.Embed | None = None,
        ephemeral: bool = True,
    ) -> None:
        """Answer (or follow up) without pinging anybody."""
        await answer(interaction, text, embed=embed, ephemeral=ephemeral, allowed_mentions=NO_PINGS)
