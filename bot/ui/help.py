"""``/help``: what the bot does, a first game in five steps, and the commands that apply
where it is asked (at a table: that game's moves; elsewhere: open, join, the bank)."""

from __future__ import annotations

from bot.engine.registry import AnyGame
from bot.i18n import t
from bot.tables.games import GAMES
from bot.tables.move_names import move_commands

#: what a reader can do outside a table, in the order a newcomer needs them
ELSEWHERE = (
    "table open",
    "table list",
    "table join",
    "bank balance",
    "bank claim",
    "bank give",
    "bank history",
    "bank top",
    "stats player",
    "stats rounds",
    "stats top",
    "stats chart",
    "rules",
    "language",
)


def description_key(command: str) -> str:
    """The catalog key of a command's description (``table top-up`` -> cmd.table_topup)."""
    return f"cmd.{command.replace(' ', '_').replace('-', '')}.description"


def table_commands(game: AnyGame) -> list[str]:
    """The commands a player uses at a table of this game: its bets, its moves, the seat."""
    out = ["bet"] if game.BETS else []
    out += move_commands(game.own_moves())
    out += ["hand", "table status", "table leave"]
    if game.TOP_UP_PHASES:
        out.append("table top-up")
    if game.VOTE_STOP:
        out.append("table vote-stop")
    return [*out, "table start", "table history", "table close", "rules"]


def command_lines(commands: list[str], locale: str) -> list[str]:
    """One line per command: its name and its description, in the reader's language."""
    return [f"`/{c}` — {t(description_key(c), locale)}" for c in commands]


def help_sections(
    locale: str, game: AnyGame | None, game_key: str | None
) -> list[tuple[str, list[str]]]:
    """The help's fields (name, lines): the first game, then the commands that apply."""
    first = (t("help.field.first", locale), t("help.first", locale).split("\n"))
    if game is None or game_key is None:
        here = t("help.field.commands", locale)
        return [first, (here, command_lines(list(ELSEWHERE), locale))]
    here = t("help.field.table", locale, game=GAMES[game_key].name(locale))
    return [(here, command_lines(table_commands(game), locale)), first]
