"""The guild's bank channel (the forum's "topic de banque"): where the bank posts claim
receipts, the admins' approvals, mints and burns, and from the tables the own funds added
(TOP_UP) and the forfeits."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

import discord

from bot.bank import FloatMove
from bot.db import Conn, Database, Row
from bot.engine.base import MoneyKind
from bot.engine.registry import GAMES
from bot.i18n import normalize, t
from bot.tables import Outcome
from bot.ui.limits import fit_content, fit_embed
from bot.ui.render import bank as fmt

log = logging.getLogger(__name__)
NO_PINGS = discord.AllowedMentions.none()


@dataclass(frozen=True)
class GuildPrefs:
    """What the bank channel keeps of ``guild_settings``."""

    bank_channel_id: int | None
    locale: str
    currency: str


async def _guild_row(conn: Conn, guild_id: int) -> Row | None:
    return await conn.fetchone(
        "SELECT bank_channel_id, locale, currency_name FROM guild_settings WHERE guild_id = ?",
        (guild_id,),
    )


async def _store_channel(conn: Conn, guild_id: int, channel_id: int, locale: str) -> None:
    await conn.execute(
        "INSERT INTO guild_settings (guild_id, bank_channel_id, locale) VALUES (?, ?, ?)"
        " ON CONFLICT (guild_id) DO UPDATE SET"
        " bank_channel_id = excluded.bank_channel_id,"
        " locale = COALESCE(guild_settings.locale, excluded.locale)",
        (guild_id, channel_id, locale),
    )


def _float_amounts(move: FloatMove, loc: str, cur: str) -> dict[str, str]:
    """A float move's figures, written as amounts."""
    needed = move.lacking + move.treasury  # a refill the treasury could not make
    return {
        "amount": fmt.amount(move.amount, loc, cur),
        "balance": fmt.amount(move.balance, loc, cur),
        "available": fmt.amount(move.balance, loc, cur),
        "treasury": fmt.amount(move.treasury, loc, cur),
        "lacking": fmt.amount(move.lacking, loc, cur),
        "needed": fmt.amount(needed, loc, cur),
    }


def mention(user_id: int) -> str:
    """A user mention (sent with pings disabled)."""
    return f"<@{user_id}>"


class BankChannel:
    """Posts in each guild's bank channel; ``announce`` never raises."""

    def __init__(self, client: discord.Client, db: Database, default_locale: str = "en") -> None:
        self.client = client
        self.db = db
        self.default_locale = default_locale  # DEFAULT_LOCALE: a guild's until it has one
        self._guilds: dict[int, GuildPrefs] = {}
        self._short: set[int] = set()  # tables told their float could not be refilled

    async def prefs(self, guild_id: int) -> GuildPrefs:
        """The guild's bank channel, language and currency name (cached)."""
        cached = self._guilds.get(guild_id)
        if cached is not None:
            return cached
        row = await self.db.read(_guild_row, guild_id)
        if row is None:
            prefs = GuildPrefs(None, self.default_locale, fmt.DEFAULT_CURRENCY)
        else:
            prefs = GuildPrefs(
                int(row[0]) if row[0] is not None else None,
                normalize(row[1] or self.default_locale),
                row[2] or fmt.DEFAULT_CURRENCY,
            )
        self._guilds[guild_id] = prefs
        return prefs

    async def set_channel(self, guild_id: int, channel_id: int, locale: str) -> None:
        """Store the bank channel (and the guild's language if it has none yet)."""
        await self.db.write(_store_channel, guild_id, channel_id, normalize(locale))
        self._guilds.pop(guild_id, None)

    async def announce(
        self,
        guild_id: int,
        text: str | None = None,
        *,
        embed: discord.Embed | None = None,
    ) -> bool:
        """Post in the guild's bank channel (no pings); False when there is none or the
        post failed (logged, never raised)."""
        prefs = await self.prefs(guild_id)
        if prefs.bank_channel_id is None:
            return False
        channel = self.client.get_partial_messageable(prefs.bank_channel_id, guild_id=guild_id)
        try:
            kwargs: dict[str, Any] = {"allowed_mentions": NO_PINGS}
            if text:
                kwargs["content"] = fit_content(text)
            if embed is not None:
                kwargs["embed"] = fit_embed(embed)
            await channel.send(**kwargs)
        except discord.HTTPException:
            log.warning("could not post in the bank channel of guild %s", guild_id, exc_info=True)
            return False
        return True

    async def table_outcome(self, outcome: Outcome) -> None:
        """Announce a table's own funds added (TOP_UP), forfeits and its float's fills and
        credits in the bank channel; a refill the treasury could not make is told to the
        host at the table too (and to the admins here)."""
        try:
            table = outcome.table
            floats = self._news(table.id, outcome.floats)
            for move in floats:
                if move.lacking:
                    await self._refill_failed(table, move)
            prefs = await self.prefs(table.guild_id)
            if prefs.bank_channel_id is None:
                return
            lines = [
                self._money_line(money, table, prefs)
                for event in outcome.events
                for money in event.money
                if money.kind in (MoneyKind.TOP_UP, MoneyKind.FORFEIT) and money.amount
            ]
            lines += [self._float_line(move, table, prefs) for move in floats]
            if lines:
                await self.announce(table.guild_id, "\n".join(lines))
        except Exception:  # an announcement must never break a table
            log.exception("bank channel announcement failed")

    def _news(self, table_id: int, moves: list[FloatMove]) -> list[FloatMove]:
        """The float moves worth telling: a refill that failed is told once, until the
        float is filled again (each round would repeat it)."""
        out = []
        for move in moves:
            if not move.lacking:
                self._short.discard(table_id)
            elif table_id in self._short:
                continue
            else:
                self._short.add(table_id)
            out.append(move)
        return out

    async def _refill_failed(self, table: Any, move: FloatMove) -> None:
        """Tell the host, at the table, in its language, what the casino lacks."""
        prefs = await self.prefs(table.guild_id)
        loc, cur = table.settings.locale, prefs.currency
        text = t(
            "table.float.refill_failed",
            loc,
            host=mention(table.host_id),
            **_float_amounts(move, loc, cur),
        )
        channel = self.client.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
        try:
            await channel.send(text, allowed_mentions=NO_PINGS)
        except discord.HTTPException:
            log.warning("could not tell table %s its float ran short", table.id, exc_info=True)

    @staticmethod
    def _float_line(move: FloatMove, table: Any, prefs: GuildPrefs) -> str:
        loc, cur = prefs.locale, prefs.currency
        key = "float_short" if move.lacking else f"float_{move.kind}"
        return t(
            f"bank.channel.{key}",
            loc,
            table=f"<#{table.channel_id}>",
            game=GAMES[table.game_key].name(loc),
            **_float_amounts(move, loc, cur),
        )

    @staticmethod
    def _money_line(money: Any, table: Any, prefs: GuildPrefs) -> str:
        loc, cur = prefs.locale, prefs.currency
        player = money.player
        if player is None:
            seat = money.dst if money.kind is MoneyKind.TOP_UP else money.src
            player = int(seat.split(":", 1)[1]) if seat.startswith("seat:") else 0
        key = "bank.channel.top_up" if money.kind is MoneyKind.TOP_UP else "bank.channel.forfeit"
        return t(
            key,
            loc,
            user=mention(player),
            amount=fmt.amount(money.amount, loc, cur),
            table=f"<#{table.channel_id}>",
            game=GAMES[table.game_key].name(loc),
        )
