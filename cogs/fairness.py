"""/fairness seed and /fairness show: each player's client seed (``bot.tables.client_seeds``), mixed
into the order of every shoe shuffled while they are seated (docs/RULES.md, "Provable
fairness")."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import CroupierBot
from bot.discord.answer import answers_refusals
from bot.engine.shuffle import CLIENT_SEED_MAX
from bot.i18n import t
from bot.ui.limits import fit_content
from bot.ui.translator import _

NO_PINGS = discord.AllowedMentions.none()


class Fairness(commands.Cog):
    """Players' client seeds."""

    def __init__(self, bot: CroupierBot) -> None:
        self.bot = bot

    fairness_group = app_commands.Group(
        name=_("fairness", "name.fairness"),
        description=_("Your client seed, mixed into every shuffle", "cmd.fairness.description"),
    )

    @fairness_group.command(
        name=_("seed", "name.seed"),
        description=_(
            "Set your client seed (the next shoes use it)", "cmd.fairness_seed.description"
        ),
    )
    @app_commands.describe(
        text=_("1 to 64 letters, digits or - _ . : ! ? @ # + = ~", "cmd.fairness_seed.text")
    )
    @app_commands.rename(text=_("text", "param.text"))
    @answers_refusals
    async def seed(
        self, interaction: discord.Interaction, text: app_commands.Range[str, 1, 200]
    ) -> None:
        """Store the player's new client seed; the shoes already shuffled keep theirs."""
        locale = await self.bot.locale_for(interaction)
        stored = await self.bot.seeds.set(interaction.user.id, text)
        await interaction.response.send_message(
            fit_content(t("fairness.seed.set", locale, seed=stored)),
            ephemeral=True,
            allowed_mentions=NO_PINGS,
        )

    @fairness_group.command(
        name=_("show", "name.show"),
        description=_("Show your client seed", "cmd.fairness_show.description"),
    )
    @answers_refusals
    async def show(self, interaction: discord.Interaction) -> None:
        """The player's client seed (random until they set one)."""
        locale = await self.bot.locale_for(interaction)
        seed = await self.bot.seeds.of(interaction.user.id, refresh=True)
        text = t("fairness.seed.show", locale, seed=seed, max=CLIENT_SEED_MAX)
        await interaction.response.send_message(
            fit_content(text), ephemeral=True, allowed_mentions=NO_PINGS
        )


async def setup(bot: CroupierBot) -> None:
    """Extension entry point."""
    await bot.add_cog(Fairness(bot))
