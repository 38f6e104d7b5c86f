"""``/table history``: the last settled rounds of this channel's table (open, or the last
one closed here), with their decks' commitments, the seeds revealed and a ready
``/verify`` line each; ephemeral. Nothing of a round being played: it is not settled."""

from __future__ import annotations

import discord

from bot.app import CroupierBot
from bot.discord.answer import refuse
from bot.errors import WrongChannel
from bot.tables import TableError, history
from bot.ui.history import history_embed

ROUNDS = 5  # rounds shown by default


async def show_history(bot: CroupierBot, interaction: discord.Interaction, rounds: int) -> None:
    """The history embed of the table here, or a refusal naming why there is none."""
    locale = await bot.locale_for(interaction)
    channel_id, guild_id = interaction.channel_id or 0, interaction.guild_id or 0
    table = bot.tables.table_in(channel_id)
    if table is not None:
        found: tuple[int, str] | None = (table.id, table.settings.name)
    else:
        found = await bot.db.read(history.table_of_channel, guild_id, channel_id)
    if found is None:
        await refuse(interaction, WrongChannel("table.error.no_table_here"), locale)
        return
    past = await bot.db.read(history.read, found[0], rounds)
    if not past.rounds:
        await refuse(interaction, TableError("history_empty"), locale)
        return
    embed = history_embed(past, found[1], locale)
    await interaction.response.send_message(embed=embed, ephemeral=True)
