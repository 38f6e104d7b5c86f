"""The bot's extensions, loaded in this order by ``CroupierBot.setup_hook``."""

EXTENSIONS: tuple[str, ...] = ("cogs.info", "cogs.tables", "cogs.bank", "cogs.help")
