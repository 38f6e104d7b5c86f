"""The question before a host opens a second table while one of theirs is open: an
ephemeral with Open anyway / Cancel (issue 38). Only the host sees it; a question left
unanswered expires, and a restart forgets it (the command is run again)."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import discord

from bot.app import CroupierBot
from bot.i18n import t
from bot.tables import Table
from bot.ui.limits import fit_content

log = logging.getLogger(__name__)

ASK_SECONDS = 300.0  # how long the question waits (the interaction's token lasts 15 min)
LISTED = 5  # the host's tables named in the question, at most

Opener = Callable[[discord.Interaction], Awaitable[None]]


def question(tables: Sequence[Table], locale: str) -> str:
    """The warning: the host's open tables (links to their threads), then the question."""
    links = ", ".join(f"<#{table.channel_id}>" for table in tables[:LISTED])
    if len(tables) > LISTED:
        links += ", …"
    key = "table.second.ask_one" if len(tables) == 1 else "table.second.ask_many"
    return fit_content(t(key, locale, tables=links, count=len(tables)))


class SecondTable(discord.ui.View):
    """Open anyway (the opening the command asked for, from the click) or Cancel."""

    def __init__(self, asker: discord.Interaction, locale: str, open_table: Opener) -> None:
        super().__init__(timeout=ASK_SECONDS)
        self.asker, self.locale, self.open_table = asker, locale, open_table
        for key, style, callback in (
            ("table.second.open", discord.ButtonStyle.primary, self.go),
            ("table.second.cancel", discord.ButtonStyle.secondary, self.cancel),
        ):
            button: discord.ui.Button[SecondTable] = discord.ui.Button(
                label=t(key, locale), style=style
            )
            button.callback = callback  # type: ignore[method-assign]
            self.add_item(button)

    async def go(self, interaction: discord.Interaction) -> None:
        """Open the table: the question becomes "Opening…", the opening answers below."""
        self.stop()  # a second click finds no question
        text = t("table.second.opening", self.locale)
        await interaction.response.edit_message(content=text, view=None)
        await self.open_table(interaction)

    async def cancel(self, interaction: discord.Interaction) -> None:
        """Nothing is opened."""
        self.stop()
        text = t("table.second.cancelled", self.locale)
        await interaction.response.edit_message(content=text, view=None)

    async def on_timeout(self) -> None:
        """Say the question expired (its buttons would answer nothing)."""
        try:
            text = t("table.second.expired", self.locale)
            await self.asker.edit_original_response(content=text, view=None)
        except discord.HTTPException:  # the message was dismissed: nothing to say
            log.info("the second-table question %s could not expire", self.asker.id)

    async def on_error(
        self, interaction: discord.Interaction, error: Exception, item: discord.ui.Item[Any]
    ) -> None:
        """The one answer of every interaction that raised."""
        bot = interaction.client
        assert isinstance(bot, CroupierBot)
        await bot.on_interaction_error(interaction, error, "second table")
