"""Bets: ``/bet`` and the "Other amount..." modal of the bet buttons."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import CroupierBot
from bot.discord.answer import refuse
from bot.errors import UserError
from bot.ui.amounts import MAX_TYPED, parse_whole
from bot.ui.translator import _
from bot.ui.wording import t_or

from .play import run_move, table_here


class BetModal(discord.ui.Modal):
    """'Other amount': asks for a bet."""

    def __init__(self, bot: CroupierBot, table_id: int, version: int, locale: str) -> None:
        title = t_or("modal.bet.title", locale, fallback="modal.bet.title")
        super().__init__(title=title, timeout=300)
        self.bot = bot
        self.table_id = table_id
        self.version = version
        label = t_or("modal.bet.label", locale, fallback="modal.bet.label")
        self.amount: discord.ui.TextInput[BetModal] = discord.ui.TextInput(
            label=label, min_length=1, max_length=MAX_TYPED
        )
        self.add_item(self.amount)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        """Bet the typed amount (ASCII digits, thousands grouped or not: ``parse_whole``);
        the game refuses one outside its bets, in the same words as ``/bet``."""
        try:
            amount = parse_whole(self.amount.value)
        except UserError as exc:
            await refuse(interaction, exc, await self.bot.locale_for(interaction))
            return
        await run_move(
            self.bot, interaction, self.table_id, "bet", amount, seen_version=self.version
        )

    async def on_error(  # type: ignore[override]  # Modal's own signature (no item)
        self, interaction: discord.Interaction, error: Exception, /
    ) -> None:
        """Answer as slash commands do (discord.py would only log it)."""
        await self.bot.on_interaction_error(interaction, error, "the bet modal")


class Bets(commands.Cog):
    """Placing bets."""

    def __init__(self, bot: CroupierBot) -> None:
        self.bot = bot

    @app_commands.command(name="bet", description=_("Place your bet", "cmd.bet.description"))
    @app_commands.guild_only()
    async def bet(self, interaction: discord.Interaction, amount: int) -> None:
        """Bet an amount (no range declared: Discord would show its bounds, the internal
        limit among them; the game refuses a bet out of its range in the player's terms)."""
        table = table_here(self.bot, interaction)
        await run_move(self.bot, interaction, table.id, "bet", amount)


async def setup(bot: CroupierBot) -> None:
    """Extension entry point."""
    await bot.add_cog(Bets(bot))
