"""/help, /rules, /language and /verify: where to start, the rules of each game, the
reply language, fairness.

``/language`` stores the user's choice with ``bot.prefs`` (bot/prefs.py), which
``CroupierBot.locale_for`` consults before Discord's locale.
"""

from __future__ import annotations

from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import CroupierBot
from bot.discord.answer import answers_refusals
from bot.engine.cards import build_deck
from bot.engine.shuffle import (
    CLIENT_SEED_MAX,
    SEED_BYTES,
    client_seed_problem,
    commitment,
    verify,
)
from bot.errors import UserError
from bot.i18n import has, t
from bot.tables.games import GAMES
from bot.tables.models import SETTINGS, TableSettings
from bot.ui.help import help_sections
from bot.ui.limits import fit_content, fit_embed
from bot.ui.options import rules_lines, values_text
from bot.ui.translator import _, game_choices

LanguageChoice = Literal["fr", "en", "auto"]
FIRST_CARDS = 20
RULE_FIELDS = ("round", "settle", "money")
FIELD_MAX = 1024  # characters in an embed field's value


def add_lines(embed: discord.Embed, name: str, lines: list[str]) -> None:
    """Add ``lines`` as one field, or as several when they pass a field's 1,024 chars."""
    chunk: list[str] = []
    for line in lines:
        if chunk and len("\n".join([*chunk, line])) > FIELD_MAX:
            embed.add_field(name=name, value="\n".join(chunk), inline=False)
            chunk = []
        chunk.append(line[:FIELD_MAX])
    if chunk:
        embed.add_field(name=name, value="\n".join(chunk), inline=False)


def rules_embed(
    game: str, locale: str, table_options: dict[str, Any] | None, settings: dict[str, Any] | None
) -> discord.Embed:
    """The rules of a game in a few fields, with every option (name, default, allowed
    values, description, from the engine's declarations) and a table's own values."""
    embed = discord.Embed(
        title=t("rules.title", locale, game=GAMES[game].name(locale)),
        description=t(f"rules.{game}.intro", locale),
        colour=discord.Colour.dark_green(),
    )
    for part in RULE_FIELDS:
        specific = f"rules.field.{part}.{game}"
        embed.add_field(
            name=t(specific if has(specific) else f"rules.field.{part}", locale),
            value=t(f"rules.{game}.{part}", locale)[:FIELD_MAX],
            inline=False,
        )
    spec = GAMES[game]
    add_lines(embed, t("rules.field.options", locale), rules_lines(spec.options, locale))
    example = values_text(spec.options[:2], spec.defaults()).replace("`", "").replace(" · ", " ")
    hint = t("rules.table_settings", locale, example=example)
    add_lines(embed, t("rules.field.settings", locale), [*rules_lines(SETTINGS, locale), hint])
    if table_options is not None:
        text = values_text(spec.options, table_options)
        if settings:
            text += "\n" + values_text(SETTINGS, settings)
        embed.add_field(
            name=t("rules.field.table_options", locale), value=text[:FIELD_MAX], inline=False
        )
    embed.set_footer(text=t("rules.footer", locale))
    return embed


def help_embed(locale: str, sections: list[tuple[str, list[str]]]) -> discord.Embed:
    """The help as an embed: what the bot does, then each section as fields."""
    embed = discord.Embed(
        title=t("help.title", locale),
        description=t("help.intro", locale),
        colour=discord.Colour.dark_green(),
    )
    for name, lines in sections:
        add_lines(embed, name, lines)
    embed.set_footer(text=t("help.footer", locale))
    return embed


def checked_client_seeds(text: str | None, shoe: int | None) -> list[str]:
    """The client seeds of ``/verify`` (space-separated), each checked; they need a shoe."""
    clients = (text or "").split()
    for one in clients:
        if client_seed_problem(one) is not None:
            raise UserError("verify.error.client_seed", max=CLIENT_SEED_MAX)
    if clients and shoe is None:
        raise UserError("verify.error.shoe_needed")
    return clients


class Help(commands.Cog):
    """Help, rules, language, fairness."""

    def __init__(self, bot: CroupierBot) -> None:
        self.bot = bot

    # ================================================================ /help

    @app_commands.command(
        name="help", description=_("How to play, and the commands here", "cmd.help.description")
    )
    @answers_refusals
    async def help(self, interaction: discord.Interaction) -> None:
        """What the bot does, a first game, and the commands of this place (a table's moves)."""
        locale = await self.bot.locale_for(interaction)
        table = self.bot.tables.table_in(interaction.channel_id or 0)
        sections = help_sections(
            locale,
            None if table is None else table.game,
            None if table is None else table.game_key,
        )
        embed = fit_embed(help_embed(locale, sections))
        await interaction.response.send_message(embed=embed, ephemeral=True)

    # ================================================================ /rules

    @app_commands.command(
        name=_("rules", "name.rules"), description=_("The rules of a game", "cmd.rules.description")
    )
    @app_commands.describe(
        game=_("The game (default: this table's)", "cmd.rules.game"),
    )
    @app_commands.rename(game=_("game", "param.game"))
    @app_commands.choices(game=game_choices())
    @answers_refusals
    async def rules(self, interaction: discord.Interaction, game: str | None = None) -> None:
        """The rules, the options and their defaults; a table's own options in its thread."""
        locale = await self.bot.locale_for(interaction)
        table = self.bot.tables.table_in(interaction.channel_id or 0)
        if game is None:
            if table is None:
                raise UserError("rules.error.which_game")
            game = table.game_key
        key = GAMES[game].key  # "classic" is "blackjack"
        table_options: dict[str, Any] | None = None
        settings: dict[str, Any] | None = None
        if table is not None and table.game_key == key:
            table_options = table.options()
            values = table.settings.to_dict()
            settings = {k: values[k] for k in TableSettings.NAMES if values.get(k) is not None}
        embed = fit_embed(rules_embed(key, locale, table_options, settings))
        await interaction.response.send_message(embed=embed, ephemeral=True)

    # ================================================================ /language

    @app_commands.command(
        name=_("language", "name.language"),
        description=_("The language I answer you in", "cmd.language.description"),
    )
    @app_commands.describe(
        language=_("fr, en, or auto (your Discord language)", "cmd.language.language")
    )
    @app_commands.rename(language=_("language", "param.language"))
    @answers_refusals
    async def language(self, interaction: discord.Interaction, language: LanguageChoice) -> None:
        """Store the user's reply language."""
        chosen = None if language == "auto" else language
        await self.bot.prefs.set_locale(interaction.user.id, chosen)
        locale = await self.bot.locale_for(interaction)
        key = "language.auto" if chosen is None else "language.set"
        await interaction.response.send_message(fit_content(t(key, locale)), ephemeral=True)

    # ================================================================ /verify

    @app_commands.command(
        name=_("verify", "name.verify"),
        description=_(
            "Check a revealed shuffle seed against its commitment", "cmd.verify.description"
        ),
    )
    @app_commands.describe(
        seed=_("The revealed seed (64 hexadecimal digits)", "cmd.verify.seed"),
        commitment_=_("The SHA-256 commitment posted before the deal", "cmd.verify.commitment"),
        deck=_(
            "The deck: std52, std52*6, pirate54, pirate:36/14/4, sept40, sept32", "cmd.verify.deck"
        ),
        shoe=_("The shoe's number (#N), with client seeds", "cmd.verify.shoe"),
        client_seeds=_(
            "The client seeds the reveal lists, separated by spaces", "cmd.verify.client_seeds"
        ),
    )
    @app_commands.rename(
        seed=_("seed", "param.seed"),
        commitment_=_("commitment", "param.commitment"),
        deck=_("deck", "param.deck"),
        shoe=_("shoe", "param.shoe"),
        client_seeds=_("client_seeds", "param.client_seeds"),
    )
    @answers_refusals
    async def verify_seed(
        self,
        interaction: discord.Interaction,
        seed: app_commands.Range[str, 1, 200],
        commitment_: app_commands.Range[str, 1, 200],
        deck: app_commands.Range[str, 1, 20] = "std52",
        shoe: app_commands.Range[int, 1, 1_000_000] | None = None,
        client_seeds: app_commands.Range[str, 1, 1000] | None = None,
    ) -> None:
        """Whether the seed matches, and the first cards of the order it gives."""
        locale = await self.bot.locale_for(interaction)
        seed = seed.strip().lower()
        expected = commitment_.strip().lower()
        deck = deck.strip()
        try:
            raw = bytes.fromhex(seed)
        except ValueError:
            raise UserError("verify.error.seed_format", bytes=SEED_BYTES) from None
        if len(raw) != SEED_BYTES:
            raise UserError("verify.error.seed_format", bytes=SEED_BYTES)
        try:
            size = len(build_deck(deck))
        except ValueError:
            raise UserError("verify.error.deck", deck=deck) from None
        clients = checked_client_seeds(client_seeds, shoe)
        if commitment(raw) != expected:
            text = t("verify.mismatch", locale, actual=commitment(raw), expected=expected)
            await interaction.response.send_message(fit_content(text), ephemeral=False)
            return
        order = verify(seed, expected, deck, clients, shoe)
        first = " ".join(str(c) for c in order[:FIRST_CARDS])
        text = t("verify.ok", locale, n=size, deck=deck, k=min(FIRST_CARDS, size), cards=first)
        if clients:
            text += "\n" + t("verify.mixed", locale, shoe=shoe, seeds=" ".join(clients))
        await interaction.response.send_message(fit_content(text), ephemeral=False)


async def setup(bot: CroupierBot) -> None:
    """Extension entry point."""
    await bot.add_cog(Help(bot))
