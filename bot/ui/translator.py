"""discord.py Translator: French names and descriptions for the slash commands."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.i18n import catalog


def _(text: str, key: str) -> app_commands.locale_str:
    """A translatable command string: ``text`` in English, ``key`` in the catalogs."""
    return app_commands.locale_str(text, key=key)


class CroupierTranslator(app_commands.Translator):
    """Looks up the ``key`` extra of each locale_str in the French catalog."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        """The French text for French locales; None (keep English) otherwise."""
        key = string.extras.get("key")
        if key is None or locale is not discord.Locale.french:
            return None
        return catalog("fr").get(key)
