"""Moves: the move commands (``/hit``, ``/stand``..., made from the one table of move
names, ``bot/tables/move_names.MOVES``), ``/hand``, and every click on a table message's
buttons (one ``DynamicItem`` routes them, after a restart too)."""

from __future__ import annotations

import re
from collections.abc import Callable, Coroutine
from typing import Any, Literal, cast

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import CroupierBot
from bot.discord.answer import refuse
from bot.discord.publisher import table_link
from bot.tables import TableError
from bot.tables.games import GAMES
from bot.tables.move_names import MOVES, move_commands
from bot.ui.buttons import TEMPLATE, custom_id
from bot.ui.help import description_key
from bot.ui.translator import _

from .bets import BetModal
from .play import clicked_table, run_move, send_hand, table_here


class MoveButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=TEMPLATE):
    """A move on a table message (custom_id ``cr:<table>:<version>:<move>[:<arg>]``)."""

    def __init__(
        self,
        table_id: int,
        version: int,
        move: str,
        arg: int | None = None,
        *,
        label: str = "",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        row: int | None = None,
        emoji: str | None = None,
        disabled: bool = False,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label or move,
                style=style,
                custom_id=custom_id(table_id, version, move, arg),
                row=row,
                emoji=emoji,
                disabled=disabled,
            )
        )
        self.table_id = table_id
        self.version = version
        self.move = move
        self.arg = arg

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> MoveButton:
        """Rebuild the button from its custom_id (after a restart too)."""
        arg = match["arg"]
        return cls(
            int(match["table"]),
            int(match["version"]),
            match["move"],
            int(arg) if arg is not None else None,
        )

    async def callback(self, interaction: discord.Interaction) -> None:
        """Play the click's move."""
        bot = interaction.client
        assert isinstance(bot, CroupierBot)
        try:
            await on_click(bot, interaction, self.table_id, self.version, self.move, self.arg)
        except Exception as exc:  # discord.py would only log it: answer as commands do
            await bot.on_interaction_error(interaction, exc, f"button {self.move}")


async def on_click(
    bot: CroupierBot,
    interaction: discord.Interaction,
    table_id: int,
    version: int,
    move: str,
    arg: int | None,
) -> None:
    """A click on a move button: the move, the player's hand, or the bet modal."""
    locale = await bot.locale_for(interaction)
    table = await clicked_table(bot, interaction, table_id, locale)
    if table is None:
        return
    message = interaction.message
    on_message = message is not None and message.id == table.message_id
    old = message is not None and not on_message and not message.flags.ephemeral
    if old and table.message_id is not None:  # an old table message: a round's summary now
        await refuse(interaction, TableError("old_message", link=table_link(table)), locale)
        return
    if move == "hand":
        await send_hand(bot, interaction, table, locale)
    elif move == "bet_modal":
        await interaction.response.send_modal(BetModal(bot, table_id, version, locale))
    else:
        await run_move(
            bot,
            interaction,
            table_id,
            move,
            arg,
            seen_version=version,
            from_table_message=on_message,
            locale=locale,  # looked up above: not again
        )


class Moves(commands.Cog):
    """The moves of a round."""

    def __init__(self, bot: CroupierBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        """Route every click of a move button (before and after a restart)."""
        self.bot.add_dynamic_items(MoveButton)

    async def cog_unload(self) -> None:
        """Stop routing clicks."""
        self.bot.remove_dynamic_items(MoveButton)

    async def play(
        self, interaction: discord.Interaction, move: str, arg: int | None = None
    ) -> None:
        """Play ``move`` at the table of the interaction's channel (a command this game has
        no such move for is answered with the game's own commands)."""
        table = table_here(self.bot, interaction)
        own = table.game.own_moves()
        if MOVES[move][0] not in own:
            locale = await self.bot.locale_for(interaction)
            commands = ", ".join(f"/{c}" for c in move_commands(own))
            game = GAMES[table.game_key].name(locale)
            refusal = TableError("move_not_in_game", game=game, moves=commands)
            await refuse(interaction, refusal, locale)
            return
        await run_move(self.bot, interaction, table.id, move, arg)

    @app_commands.command(
        name="hand",
        description=_("Your cards at this table (only you see it)", "cmd.hand.description"),
    )
    @app_commands.guild_only()
    async def hand(self, interaction: discord.Interaction) -> None:
        """Your private cards, ephemeral."""
        table = table_here(self.bot, interaction)
        await send_hand(self.bot, interaction, table, await self.bot.locale_for(interaction))


# The move commands, made from ``MOVES`` (their names, descriptions and moves). A command
# that takes an argument declares it here, in Discord's terms; the others take none.


async def _insurance(self: Moves, interaction: discord.Interaction, take: bool = True) -> None:
    """Take (or decline) insurance."""
    await self.play(interaction, "insurance" if take else "no_insurance")


async def _draw(
    self: Moves, interaction: discord.Interaction, count: app_commands.Range[int, 0, 10]
) -> None:
    """Draw ``count`` cards (0 = stand)."""
    await self.play(interaction, "draw", count)


async def _ace(self: Moves, interaction: discord.Interaction, value: Literal[1, 11]) -> None:
    """Choose 1 or 11 for the ace just drawn."""
    await self.play(interaction, "ace", value)


MoveCallback = Callable[..., Coroutine[Any, Any, None]]
WITH_ARGUMENT: dict[str, MoveCallback] = {"insurance": _insurance, "draw": _draw, "ace": _ace}


def _plain(move: str) -> MoveCallback:
    async def command(self: Moves, interaction: discord.Interaction) -> None:
        await self.play(interaction, move)

    return command


def move_command(name: str, move: str, about: str) -> app_commands.Command[Any, ..., None]:
    """The slash command ``/name`` playing ``move`` (a method of the cog)."""
    callback = WITH_ARGUMENT.get(name) or _plain(move)
    callback.__name__ = name.replace("-", "_")
    callback.__qualname__ = f"Moves.{callback.__name__}"  # a method: discord.py binds self
    command: app_commands.Command[Any, ..., None] = app_commands.Command(
        name=name, description=_(about, description_key(name)), callback=cast(Any, callback)
    )
    return app_commands.guild_only()(command)


def move_commands_of_moves() -> list[app_commands.Command[Any, ..., None]]:
    """One command per command name of ``MOVES``, from its first move, in their order."""
    first: dict[str, tuple[str, str]] = {}
    for name, move in MOVES.items():
        if move.command:
            first.setdefault(move.command, (name, move.about))
    return [move_command(command, name, about) for command, (name, about) in first.items()]


# before ``/hand``, the cog's own method, as they were declared
Moves.__cog_app_commands__ = [*move_commands_of_moves(), *Moves.__cog_app_commands__]


async def setup(bot: CroupierBot) -> None:
    """Extension entry point."""
    await bot.add_cog(Moves(bot))
