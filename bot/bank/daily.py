"""Daily pay (``/bank daily``): a guild's fixed pay from its treasury, once per period per
member, off by default (migration 0015).

The pay is one balanced ledger entry, kind ``transfer``, reason :data:`DAILY_REASON`,
from the guild's treasury (``house``, table 0) to the member's account; the audit proves
that shape (``bot.bank.proof``). The member's ``bank_daily`` row moves forward in the
same transaction, and only when the last pay is a whole period old: two clicks at once
(two processes, two connections) pay once, the second is refused with the time left.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from bot.db import Conn, Database

from . import core
from .errors import BankError, InvalidAmount
from .models import DailyPaid, DailySettings

DAILY_REASON = "daily pay"
DAILY_KIND = "transfer"
MAX_HOURS = 8760  # a year


class DailyOff(BankError):
    """The guild pays no daily pay (its amount is 0)."""

    code = "daily_off"


class DailyTooSoon(BankError):
    """The member was paid less than a period ago (``wait``: seconds to go, ``next_at``)."""

    code = "daily_too_soon"


class TreasuryShort(BankError):
    """The treasury holds less than the daily pay."""

    code = "daily_treasury_short"


async def settings(c: Conn, guild_id: int) -> DailySettings:
    """The guild's daily pay; UnknownAccount if the guild is not set up."""
    await core.guild_settings(c, guild_id)
    row = await c.fetchone(
        "SELECT daily_amount, daily_hours FROM bank_guilds WHERE guild_id = ?", (guild_id,)
    )
    assert row is not None
    return DailySettings(int(row[0]), int(row[1]))


async def configure(c: Conn, guild_id: int, amount: int | None, hours: int | None) -> DailySettings:
    """Change the pay and its period (None: unchanged); amount 0 turns it off."""
    async with c.savepoint():
        await core.guild_settings(c, guild_id)
        if amount is not None:
            amount = core.check_optional_amount(amount, "daily_amount")
            await c.execute(
                "UPDATE bank_guilds SET daily_amount = ? WHERE guild_id = ?", (amount, guild_id)
            )
        if hours is not None:
            if isinstance(hours, bool) or not isinstance(hours, int) or not 1 <= hours <= MAX_HOURS:
                raise InvalidAmount("bad daily period", name="daily_hours", value=hours)
            await c.execute(
                "UPDATE bank_guilds SET daily_hours = ? WHERE guild_id = ?", (hours, guild_id)
            )
        return await settings(c, guild_id)


async def pay(c: Conn, guild_id: int, user_id: int, now: float) -> DailyPaid:
    """Pay the member the daily pay, or refuse (off, too soon, treasury short) with
    nothing changed."""
    core.check_id(user_id, "user_id")
    async with c.savepoint():
        s = await settings(c, guild_id)
        if s.amount == 0:
            raise DailyOff("no daily pay in this guild")
        period = s.hours * 3600
        # the guard: the row moves only when a whole period passed (a concurrent pay waits
        # on the row's lock, then sees it moved and updates nothing)
        moved = await c.execute(
            "INSERT INTO bank_daily (guild_id, user_id, last_paid_at, entry_id)"
            " VALUES (?, ?, ?, 0) ON CONFLICT (guild_id, user_id) DO UPDATE"
            " SET last_paid_at = excluded.last_paid_at WHERE bank_daily.last_paid_at <= ?",
            (guild_id, user_id, now, now - period),
        )
        if moved != 1:
            row = await c.fetchone(
                "SELECT last_paid_at FROM bank_daily WHERE guild_id = ? AND user_id = ?",
                (guild_id, user_id),
            )
            next_at = (now if row is None else float(row[0])) + period
            minutes = max(1, math.ceil((next_at - now) / 60))  # "in 0 min" would be wrong
            raise DailyTooSoon(
                "paid less than a period ago",
                hours=minutes // 60,
                minutes=minutes % 60,
                next_at=math.ceil(next_at),
            )
        house = await core.system_account(c, guild_id, "house")
        treasury = await core.account_balance(c, house)
        if treasury < s.amount:
            raise TreasuryShort("treasury short", amount=s.amount, treasury=treasury)
        player = await core.player_account(c, guild_id, user_id)
        key = f"daily:{guild_id}:{user_id}:{round(now * 1000)}"
        entry, _ = await core.post_entry(
            c,
            guild_id,
            DAILY_KIND,
            key,
            house,
            player,
            s.amount,
            actor=user_id,
            reason=DAILY_REASON,
        )
        await c.execute(
            "UPDATE bank_daily SET entry_id = ? WHERE guild_id = ? AND user_id = ?",
            (entry, guild_id, user_id),
        )
        return DailyPaid(entry, s.amount, await core.account_balance(c, player), now + period)


class DailyPay:
    """``/bank daily`` over one :class:`Database` (built in ``setup_hook``)."""

    def __init__(self, db: Database, clock: Callable[[], float]) -> None:
        self.db = db
        self.clock = clock

    async def settings(self, guild_id: int) -> DailySettings:
        """The guild's daily pay."""
        return await self.db.read(settings, guild_id)

    async def configure(
        self, guild_id: int, *, amount: int | None = None, hours: int | None = None
    ) -> DailySettings:
        """Change the guild's daily pay (amount 0: off); nothing given: read it."""
        if amount is None and hours is None:
            return await self.settings(guild_id)
        return await self.db.write(configure, guild_id, amount, hours)

    async def pay(self, guild_id: int, user_id: int) -> DailyPaid:
        """Pay the member now, or raise the refusal (:class:`DailyTooSoon`...)."""
        return await self.db.write(pay, guild_id, user_id, self.clock())
