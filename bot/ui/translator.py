"""discord.py Translator: French names and descriptions for the slash commands."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.engine.registry import GAMES
from bot.i18n import catalog


def _(text: str, key: str) -> app_commands.locale_str:
    """A translatable command string: ``text`` in English, ``key`` in the catalogs."""
    return app_commands.locale_str(text, key=key)


def game_choices() -> list[app_commands.Choice[str]]:
    """The games a command offers, from the registry: their names in English and French,
    their keys as values."""
    return [
        app_commands.Choice(
            name=app_commands.locale_str(spec.names["en"], fr=spec.names["fr"]), value=key
        )
        for key, spec in GAMES.items()
    ]


class CroupierTranslator(app_commands.Translator):
    """Looks up the ``key`` extra of each locale_str in the French catalog."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        """The French text for French locales; None (keep English) otherwise."""
        if locale is not discord.Locale.french:
            return None
        if "fr" in string.extras:  # given with the string (a game's name)
            return str(string.extras["fr"])
        key = string.extras.get("key")
        return None if key is None else catalog("fr").get(key)
