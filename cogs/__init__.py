"""The bot's extensions, loaded in this order by ``CroupierBot.setup_hook``."""

EXTENSIONS: tuple[str, ...] = (
    "cogs.info",
    "cogs.tables.lobby",
    "cogs.tables.moves",
    "cogs.tables.bets",
    "cogs.bank",
    "cogs.help",
    "cogs.stats",
    "cogs.fairness",
)
