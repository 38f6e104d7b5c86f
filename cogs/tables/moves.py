"""Moves: the move commands (``/hit``, ``/stand``...), ``/hand``, and every click on a
table message's buttons (one ``DynamicItem`` routes them, after a restart too)."""

from __future__ import annotations

import re
from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import CroupierBot
from bot.discord.publisher import table_link
from bot.tables import TableError
from bot.tables.games import GAMES
from bot.tables.moves import MOVES, move_commands
from bot.ui.buttons import TEMPLATE, custom_id
from bot.ui.translator import _

from .bets import BetModal
from .play import refuse, run_move, send_hand, table_here


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
    try:
        table = bot.tables.get(table_id)
    except TableError:
        await refuse(interaction, TableError("closed"), locale)
        return
    if table.guild_id != interaction.guild_id:
        # a button older than an id change (``import-sqlite`` renumbers tables) naming
        # another server's table: for this server that table is gone, and nothing of the
        # other one may be played nor shown from here
        await refuse(interaction, TableError("closed"), locale)
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

    @app_commands.command(name="hit", description=_("Hit: one more card", "cmd.hit.description"))
    @app_commands.guild_only()
    async def hit(self, interaction: discord.Interaction) -> None:
        """One more card."""
        await self.play(interaction, "hit")

    @app_commands.command(
        name="stand", description=_("Stand: stop drawing", "cmd.stand.description")
    )
    @app_commands.guild_only()
    async def stand(self, interaction: discord.Interaction) -> None:
        """Stand."""
        await self.play(interaction, "stand")

    @app_commands.command(
        name="double", description=_("Double your bet, take one card", "cmd.double.description")
    )
    @app_commands.guild_only()
    async def double(self, interaction: discord.Interaction) -> None:
        """Double down."""
        await self.play(interaction, "double")

    @app_commands.command(name="split", description=_("Split a pair", "cmd.split.description"))
    @app_commands.guild_only()
    async def split(self, interaction: discord.Interaction) -> None:
        """Split."""
        await self.play(interaction, "split")

    @app_commands.command(
        name="surrender",
        description=_("Give up the hand for half the bet", "cmd.surrender.description"),
    )
    @app_commands.guild_only()
    async def surrender(self, interaction: discord.Interaction) -> None:
        """Surrender."""
        await self.play(interaction, "surrender")

    @app_commands.command(
        name="end-turn", description=_("Casino 21: end the turn (host)", "cmd.endturn.description")
    )
    @app_commands.guild_only()
    async def end_turn(self, interaction: discord.Interaction) -> None:
        """The host ends the turn."""
        await self.play(interaction, "end_turn")

    @app_commands.command(
        name="show", description=_("Sept et demi: show the new card", "cmd.show.description")
    )
    @app_commands.guild_only()
    async def show(self, interaction: discord.Interaction) -> None:
        """Show the new card."""
        await self.play(interaction, "show")

    @app_commands.command(
        name="hide",
        description=_(
            "Sept et demi: hide the new card and show the hidden one", "cmd.hide.description"
        ),
    )
    @app_commands.guild_only()
    async def hide(self, interaction: discord.Interaction) -> None:
        """Swap: hide the new card."""
        await self.play(interaction, "swap")

    @app_commands.command(
        name="insurance",
        description=_("Insure against a dealer Black Jack", "cmd.insurance.description"),
    )
    @app_commands.guild_only()
    async def insurance(self, interaction: discord.Interaction, take: bool = True) -> None:
        """Take (or decline) insurance."""
        await self.play(interaction, "insurance" if take else "no_insurance")

    @app_commands.command(
        name="draw", description=_("Casino 21: draw several cards at once", "cmd.draw.description")
    )
    @app_commands.guild_only()
    async def draw(
        self, interaction: discord.Interaction, count: app_commands.Range[int, 0, 10]
    ) -> None:
        """Draw ``count`` cards (0 = stand)."""
        await self.play(interaction, "draw", count)

    @app_commands.command(
        name="ace", description=_("Casino 21: value of your ace", "cmd.ace.description")
    )
    @app_commands.guild_only()
    async def ace(self, interaction: discord.Interaction, value: Literal[1, 11]) -> None:
        """Choose 1 or 11 for the ace just drawn."""
        await self.play(interaction, "ace", value)

    @app_commands.command(
        name="hand",
        description=_("Your cards at this table (only you see it)", "cmd.hand.description"),
    )
    @app_commands.guild_only()
    async def hand(self, interaction: discord.Interaction) -> None:
        """Your private cards, ephemeral."""
        table = table_here(self.bot, interaction)
        await send_hand(self.bot, interaction, table, await self.bot.locale_for(interaction))


async def setup(bot: CroupierBot) -> None:
    """Extension entry point."""
    await bot.add_cog(Moves(bot))
