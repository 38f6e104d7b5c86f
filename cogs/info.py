"""/ping and /about: the smallest commands, exercising the whole path."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import CroupierBot
from bot.engine.registry import GAMES
from bot.i18n import t
from bot.ui.limits import fit_content, fit_embed
from bot.ui.translator import _
from bot.version import __version__


class Info(commands.Cog):
    """Health and about."""

    def __init__(self, bot: CroupierBot) -> None:
        self.bot = bot

    @app_commands.command(
        name="ping", description=_("Check that the croupier is awake", "cmd.ping.description")
    )
    async def ping(self, interaction: discord.Interaction) -> None:
        """Answer with the gateway latency."""
        locale = await self.bot.locale_for(interaction)
        latency = self.bot.latency
        ms = round(latency * 1000) if latency == latency and latency != float("inf") else 0
        text = fit_content(t("info.ping", locale, ms=ms))
        await interaction.response.send_message(text, ephemeral=True)

    @app_commands.command(
        name="about",
        description=_("What Croupier is and which games it runs", "cmd.about.description"),
    )
    async def about(self, interaction: discord.Interaction) -> None:
        """Version, games and where the rules are."""
        locale = await self.bot.locale_for(interaction)
        games = ", ".join(spec.name(locale) for spec in GAMES.values())
        embed = discord.Embed(
            title=t("info.about.title", locale, version=__version__),
            description=t(
                "info.about.body", locale, games=games, rules=t("info.about.rules", locale)
            ),
            colour=discord.Colour.dark_green(),
        )
        embed.set_footer(text=t("info.about.footer", locale))
        await interaction.response.send_message(embed=fit_embed(embed), ephemeral=True)


async def setup(bot: CroupierBot) -> None:
    """Extension entry point."""
    await bot.add_cog(Info(bot))
