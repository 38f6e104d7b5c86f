"""/stats player, /stats rounds, /stats top and /stats chart: a player's figures, their
last rounds, the rankings, the bankroll chart (bot/stats computes them,
bot/ui/render/stats.py writes them)."""

from __future__ import annotations

import asyncio
import io
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import CroupierBot
from bot.discord.answer import answers_refusals
from bot.errors import UserError
from bot.stats.service import ALL, WEEK
from bot.ui.limits import fit_content, fit_embed
from bot.ui.render import stats as render
from bot.ui.render.stats import game_name
from bot.ui.translator import _, game_choices

PERIODS = [
    app_commands.Choice(name=app_commands.locale_str("This week", fr="Cette semaine"), value=WEEK),
    app_commands.Choice(name=app_commands.locale_str("All time", fr="Depuis toujours"), value=ALL),
]
Someone = discord.Member | discord.User
NO_PINGS = discord.AllowedMentions.none()


class Stats(commands.Cog):
    """Players' statistics."""

    def __init__(self, bot: CroupierBot) -> None:
        self.bot = bot
        self._warm: asyncio.Task[None] | None = None

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        """Import the chart's drawing code off the loop once the bot is up (not during the
        start-up it would slow), so the first chart does not pay it."""
        if self._warm is None:
            self._warm = asyncio.create_task(self.bot.stats.warm())

    stats_group = app_commands.Group(
        name=_("stats", "name.stats"),
        description=_("Players' statistics", "cmd.stats.description"),
        guild_only=True,
    )

    async def context(self, interaction: discord.Interaction) -> tuple[int, str, str]:
        """(guild id, the user's language, the guild's currency name)."""
        assert interaction.guild_id is not None
        locale = await self.bot.locale_for(interaction)
        prefs = await self.bot.bank_channel.prefs(interaction.guild_id)
        return interaction.guild_id, locale, prefs.currency

    @staticmethod
    def target(interaction: discord.Interaction, member: Someone | None) -> discord.Member:
        """The member looked at (the user by default); a bot or a non-member is refused."""
        who = interaction.user if member is None else member
        if who.bot:
            raise UserError("stats.error.bot", user=who.mention)
        if not isinstance(who, discord.Member):  # Discord gave a user without membership
            raise UserError("stats.error.not_member", user=who.mention)
        return who

    @stats_group.command(
        name=_("player", "name.player"),
        description=_("Rounds, results and naturals of a player", "cmd.stats_player.description"),
    )
    @app_commands.describe(
        member=_("The member (default: you)", "cmd.stats_player.member"),
        game=_("One game only (default: every game)", "cmd.stats_player.game"),
    )
    @app_commands.rename(member=_("member", "param.member"), game=_("game", "param.game"))
    @app_commands.choices(game=game_choices())
    @answers_refusals
    async def player(
        self,
        interaction: discord.Interaction,
        member: Someone | None = None,
        game: str | None = None,
    ) -> None:
        """A player's rounds, results, net, biggest win and naturals, by game and in all."""
        guild_id, locale, currency = await self.context(interaction)
        who = self.target(interaction, member)
        stats = await self.bot.stats.player(guild_id, who.id, game)
        if not stats.games:
            raise no_rounds(who, game, locale)
        embed = render.player_embed(stats, who.display_name, locale, currency)
        await send(interaction, embed=embed)

    @stats_group.command(
        name=_("rounds", "name.rounds"),
        description=_("A player's last settled rounds", "cmd.stats_rounds.description"),
    )
    @app_commands.describe(
        member=_("The member (default: you)", "cmd.stats_rounds.member"),
        game=_("One game only (default: every game)", "cmd.stats_rounds.game"),
    )
    @app_commands.rename(member=_("member", "param.member"), game=_("game", "param.game"))
    @app_commands.choices(game=game_choices())
    @answers_refusals
    async def rounds(
        self,
        interaction: discord.Interaction,
        member: Someone | None = None,
        game: str | None = None,
    ) -> None:
        """The player's last 10 settled rounds here, newest first."""
        guild_id, locale, currency = await self.context(interaction)
        who = self.target(interaction, member)
        played = await self.bot.stats.rounds(guild_id, who.id, game)
        if not played:
            raise no_rounds(who, game, locale)
        embed = render.rounds_embed(played, who.display_name, game, guild_id, locale, currency)
        await send(interaction, embed=embed)

    @stats_group.command(
        name=_("top", "name.top"),
        description=_("The best net results and win rates", "cmd.stats_top.description"),
    )
    @app_commands.describe(
        game=_("One game only (default: every game)", "cmd.stats_top.game"),
        period=_("This week (ISO week, UTC) or all time", "cmd.stats_top.period"),
    )
    @app_commands.rename(game=_("game", "param.game"), period=_("period", "param.period"))
    @app_commands.choices(game=game_choices(), period=PERIODS)
    @answers_refusals
    async def top(
        self, interaction: discord.Interaction, game: str | None = None, period: str = WEEK
    ) -> None:
        """The rankings of this ISO week (UTC) or of all time."""
        guild_id, locale, currency = await self.context(interaction)
        top = await self.bot.stats.top(guild_id, game, period)
        if not top.by_net:
            raise UserError("stats.error.nobody")
        await send(interaction, embed=render.top_embed(top, game, locale, currency))

    @stats_group.command(
        name=_("chart", "name.chart"),
        description=_("A chart of a player's money over time", "cmd.stats_chart.description"),
    )
    @app_commands.describe(member=_("The member (default: you)", "cmd.stats_chart.member"))
    @app_commands.rename(member=_("member", "param.member"))
    @answers_refusals
    async def chart(self, interaction: discord.Interaction, member: Someone | None = None) -> None:
        """A PNG of the player's balance and chips on tables, with its figures in words."""
        who = self.target(interaction, member)
        await interaction.response.defer(ephemeral=True, thinking=True)  # a drawing: answer first
        guild_id, locale, currency = await self.context(interaction)
        name = who.display_name
        drawn = await self.bot.stats.chart(guild_id, who.id, render.chart_labels(name, locale))
        if drawn is None:
            raise UserError("stats.error.no_chart", user=who.mention)
        alt = render.chart_alt(drawn, name, locale, currency)
        picture = discord.File(io.BytesIO(drawn.png), "bankroll.png", description=alt)
        words = render.chart_words(drawn, who.mention, locale, currency)
        await send(interaction, words, file=picture)


async def send(interaction: discord.Interaction, text: str | None = None, **kwargs: Any) -> None:
    """Answer (or follow up a deferred answer) ephemerally, pinging nobody."""
    kwargs.update(ephemeral=True, allowed_mentions=NO_PINGS)
    if text is not None:
        kwargs["content"] = fit_content(text)
    if "embed" in kwargs:
        kwargs["embed"] = fit_embed(kwargs["embed"])
    if interaction.response.is_done():
        await interaction.followup.send(**kwargs)
    else:
        await interaction.response.send_message(**kwargs)


async def setup(bot: CroupierBot) -> None:
    """Extension entry point."""
    await bot.add_cog(Stats(bot))


def no_rounds(who: discord.Member, game: str | None, locale: str) -> UserError:
    """The refusal for a member with no settled round here (at ``game``, when given)."""
    if game is None:
        return UserError("stats.error.no_rounds", user=who.mention)
    name = game_name(game, locale)
    return UserError("stats.error.no_rounds_game", user=who.mention, game=name)
