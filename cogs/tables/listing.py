"""The lobby: ``/table list [game]`` (ephemeral: a private table is listed only for the
members it admits), its pages (Previous / Next) and its Join buttons, which take a seat as
``/table join`` does (a free buy-in is asked in a modal). The buttons are ``DynamicItem``
templates (``bot/ui/lobby.py``), so an old lobby still works after a restart."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import discord

from bot.app import CroupierBot
from bot.discord.answer import refuse
from bot.errors import UserError
from bot.i18n import t
from bot.tables import GAMES, Table, TableError
from bot.tables.listing import listed, page_of
from bot.ui.amounts import MAX_TYPED, parse_whole
from bot.ui.lobby import JOIN_TEMPLATE, PAGE_TEMPLATE, join_id, lobby_page, page_id

from .play import clicked_table, run_move


def seen_by(interaction: discord.Interaction) -> Callable[[Table], bool]:
    """Whether the member may see the channel a table lives in (a table in a channel
    hidden from them is not listed to them); one check per channel, not per table."""
    guild, member = interaction.guild, interaction.user
    known: dict[int, bool] = {}

    def sees(table: Table) -> bool:
        where = table.parent_id or table.channel_id  # a thread: its channel decides
        if where not in known:
            channel = guild.get_channel(where) if guild is not None else None
            if channel is None or not isinstance(member, discord.Member):
                known[where] = True  # not in the cache: listed (its link says the rest)
            else:
                known[where] = channel.permissions_for(member).view_channel
        return known[where]

    return sees


async def lobby_message(
    bot: CroupierBot, interaction: discord.Interaction, game: str | None, number: int, locale: str
) -> tuple[str | None, discord.Embed | None, discord.ui.View | None]:
    """Page ``number`` of the lobby for the interaction's member: (text, None, None) when
    no table is listed, else (None, embed, buttons)."""
    service = bot.tables
    await service.invites.load()
    guild_id, viewer = interaction.guild_id or 0, interaction.user.id
    sees = seen_by(interaction)

    def admits(table: Table, user: int) -> bool:
        return service.invites.admits(table, user) and sees(table)

    tables = listed(service.in_guild(guild_id), guild_id, viewer, admits, game)
    if not tables:
        key = "lobby.empty_game" if game is not None else "lobby.empty"
        name = GAMES[game].name(locale) if game is not None else ""
        return t(key, locale, game=name), None, None
    embed, view = lobby_page(page_of(tables, number), guild_id, game, viewer, locale)
    return None, embed, view


async def show_lobby(bot: CroupierBot, interaction: discord.Interaction, game: str | None) -> None:
    """``/table list``: the first page, ephemeral."""
    locale = await bot.locale_for(interaction)
    assert interaction.guild_id is not None
    text, embed, view = await lobby_message(bot, interaction, game, 0, locale)
    if embed is None or view is None:
        await interaction.response.send_message(text, ephemeral=True)
        return
    await interaction.response.send_message(embed=embed, view=view, ephemeral=True)


class LobbyPage(discord.ui.DynamicItem[discord.ui.Button[Any]], template=PAGE_TEMPLATE):
    """Previous / Next of a lobby page (custom id: guild, page, game filter)."""

    def __init__(self, guild_id: int, page: int, game: str | None) -> None:
        super().__init__(discord.ui.Button(label="page", custom_id=page_id(guild_id, page, game)))
        self.guild_id, self.page, self.game = guild_id, page, game

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> LobbyPage:
        """Rebuild the button from its custom id (after a restart too)."""
        game = match["game"]
        return cls(int(match["guild"]), int(match["page"]), None if game == "*" else game)

    async def callback(self, interaction: discord.Interaction) -> None:
        """Show the asked page in place of this one."""
        bot = interaction.client
        assert isinstance(bot, CroupierBot)
        try:
            locale = await bot.locale_for(interaction)
            game = self.game if self.game in GAMES else None
            if self.guild_id != interaction.guild_id or game != self.game:
                await refuse(interaction, TableError("lobby_gone"), locale)
                return
            text, embed, view = await lobby_message(bot, interaction, game, self.page, locale)
            await interaction.response.edit_message(content=text, embed=embed, view=view)
        except Exception as exc:  # discord.py would only log it: answer as commands do
            await bot.on_interaction_error(interaction, exc, "lobby page")


class LobbyJoin(discord.ui.DynamicItem[discord.ui.Button[Any]], template=JOIN_TEMPLATE):
    """A table's Join button in the lobby."""

    def __init__(self, table_id: int) -> None:
        super().__init__(discord.ui.Button(label="join", custom_id=join_id(table_id)))
        self.table_id = table_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> LobbyJoin:
        """Rebuild the button from its custom id (after a restart too)."""
        return cls(int(match["table"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        """Take a seat: at once, or after the buy-in modal."""
        bot = interaction.client
        assert isinstance(bot, CroupierBot)
        try:
            await join_from_lobby(bot, interaction, self.table_id)
        except Exception as exc:  # discord.py would only log it: answer as commands do
            await bot.on_interaction_error(interaction, exc, "lobby join")


def asks_buy_in(table: Table) -> bool:
    """Whether a seat's buy-in is the player's choice (else it is fixed, a welcome stake
    or no money at all: the seat is taken at once)."""
    terms = table.game.buy_in()
    return GAMES[table.game_key].money and terms.fixed is None and not terms.welcome


async def join_from_lobby(
    bot: CroupierBot, interaction: discord.Interaction, table_id: int
) -> None:
    """A Join click: refused for a closed table, another server's, or a private table the
    member is not invited to; else the seat (the buy-in asked first when it is theirs)."""
    locale = await bot.locale_for(interaction)
    table = await clicked_table(bot, interaction, table_id, locale)
    if table is None:
        return
    if not await bot.tables.invites.may_join(table, interaction.user.id):
        await refuse(interaction, TableError("private_not_invited"), locale)
        return
    if asks_buy_in(table):
        await interaction.response.send_modal(JoinModal(bot, table, locale))
        return
    await take_seat(bot, interaction, table, None, locale)


async def take_seat(
    bot: CroupierBot,
    interaction: discord.Interaction,
    table: Table,
    amount: int | None,
    locale: str,
) -> None:
    """``/table join`` from the lobby: the same move, answered with a link to the table."""
    done = t("lobby.joined", locale, where=f"<#{table.channel_id}>")
    await run_move(bot, interaction, table.id, "join", amount, locale=locale, answer=done)


class JoinModal(discord.ui.Modal):
    """The buy-in of a seat taken from the lobby (empty: the table's default)."""

    def __init__(self, bot: CroupierBot, table: Table, locale: str) -> None:
        super().__init__(title=t("lobby.modal.title", locale), timeout=300)
        self.bot, self.table, self.locale = bot, table, locale
        minimum = table.game.buy_in().minimum
        self.amount: discord.ui.TextInput[JoinModal] = discord.ui.TextInput(
            label=t("lobby.modal.label", locale),
            placeholder=t("lobby.modal.placeholder", locale, minimum=minimum),
            required=False,
            max_length=MAX_TYPED,
        )
        self.add_item(self.amount)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        """Join with the typed buy-in (nothing typed: the default, as ``/table join``)."""
        typed = (self.amount.value or "").strip()
        try:
            amount = parse_whole(typed) if typed else None
            if amount is not None and amount < 1:
                raise UserError("table.error.buy_in_positive")
        except UserError as exc:
            await refuse(interaction, exc, self.locale)
            return
        await take_seat(self.bot, interaction, self.table, amount, self.locale)

    async def on_error(  # type: ignore[override]  # Modal's own signature (no item)
        self, interaction: discord.Interaction, error: Exception, /
    ) -> None:
        """Answer as slash commands do (discord.py would only log it)."""
        await self.bot.on_interaction_error(interaction, error, "the lobby's buy-in modal")
