"""Seat and fund operations for bank tests, made as a table makes them: money effects
posted with ``Bank.post_effects`` in a write transaction (the bank's public API); the
escrow balances and seat counters read back with SQL."""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from bot.bank import Bank, PostResult
from bot.db import Conn, Database
from bot.engine.base import FUND, HOUSE, Money, MoneyKind, claim, seat, wallet

K = MoneyKind


@dataclass(frozen=True)
class SeatStats:
    """A player's seat: escrow balance and the counters the rules need."""

    stack: int
    welcome_received: int
    own_funds: int
    wagered: int
    forfeited: int
    cashed_out: int


@dataclass(frozen=True)
class Leave:
    """What leaving a seat did."""

    forfeited: int
    cashed_out: int
    claim_id: int | None
    claim_status: str | None


async def post(
    bank: Bank, guild: int, table: int, effects: list[Money], key: str | None = None
) -> PostResult:
    """Post ``effects`` at ``table`` in a write transaction of their own."""
    prefix = key or f"test:{uuid.uuid4().hex}"
    return await bank.db.write(bank.post_effects, guild, table, None, effects, prefix)


async def stats_in(c: Conn, guild: int, table: int, user: int) -> SeatStats:
    """The seat's stack and counters, inside the caller's transaction."""
    row = await c.fetchone(
        "SELECT balance FROM bank_accounts"
        " WHERE guild_id = ? AND kind = 'seat' AND table_id = ? AND user_id = ?",
        (guild, table, user),
    )
    counters = await c.fetchone(
        "SELECT welcome_received, own_funds, wagered, forfeited, cashed_out FROM bank_seats"
        " WHERE guild_id = ? AND table_id = ? AND user_id = ?",
        (guild, table, user),
    )
    values = (0, 0, 0, 0, 0) if counters is None else tuple(int(v) for v in counters)
    return SeatStats(0 if row is None else int(row[0]), *values)


async def seat_stats(db: Database, guild: int, table: int, user: int) -> SeatStats:
    """The seat's stack and counters (zeros for a seat never used)."""
    return await db.read(stats_in, guild, table, user)


async def _escrow(c: Conn, guild: int, table: int) -> dict[str, int]:
    rows = await c.fetchall(
        "SELECT kind, user_id, balance FROM bank_accounts"
        " WHERE guild_id = ? AND table_id = ? AND kind IN ('seat', 'pot', 'fund') ORDER BY id",
        (guild, table),
    )
    return {(f"seat:{u}" if k == "seat" else str(k)): int(b) for k, u, b in rows}


async def table_escrow(db: Database, guild: int, table: int) -> dict[str, int]:
    """The table's escrow balances by engine endpoint: seat:<p>, pot, fund."""
    return await db.read(_escrow, guild, table)


async def sit_down(
    bank: Bank,
    guild: int,
    table: int,
    user: int,
    *,
    buy_in: int = 0,
    welcome_stake: int = 0,
    key: str | None = None,
) -> SeatStats:
    """Buy-in from the player's balance and/or the welcome stake from the house."""
    effects = [
        Money(K.BUY_IN, wallet(user), seat(user), buy_in, user),
        Money(K.WELCOME_STAKE, HOUSE, seat(user), welcome_stake, user),
    ]
    await post(bank, guild, table, effects, key)
    return await seat_stats(bank.db, guild, table, user)


async def top_up(
    bank: Bank, guild: int, table: int, user: int, amount: int, key: str | None = None
) -> SeatStats:
    """Own funds from the player's balance to their seat."""
    await post(bank, guild, table, [Money(K.TOP_UP, wallet(user), seat(user), amount)], key)
    return await seat_stats(bank.db, guild, table, user)


async def leave_seat(
    bank: Bank,
    guild: int,
    table: int,
    user: int,
    *,
    forfeit: int = 0,
    cash_out: int | None = None,
    key: str | None = None,
) -> Leave:
    """Empty the seat: ``forfeit`` to the house, the rest (or ``cash_out``) into a claim."""
    if cash_out is None:
        cash_out = (await seat_stats(bank.db, guild, table, user)).stack - forfeit
    effects = [
        Money(K.FORFEIT, seat(user), HOUSE, forfeit, user),
        Money(K.CASH_OUT, seat(user), claim(user), max(cash_out, 0), user),
    ]
    result = await post(bank, guild, table, effects, key)
    claim_id = result.claim_ids[0] if result.claim_ids else None
    status = None
    if claim_id is not None:
        row = await bank.db.read(
            lambda c: c.fetchone("SELECT status FROM bank_claims WHERE id = ?", (claim_id,))
        )
        status = str(row[0])
    return Leave(forfeit, max(cash_out, 0), claim_id, status)


async def open_fund(bank: Bank, guild: int, table: int, amount: int, key: str | None = None) -> int:
    """Treasury -> the table's guarantee fund; the fund's balance."""
    await post(bank, guild, table, [Money(K.FUND_OPEN, HOUSE, FUND, amount)], key)
    return (await table_escrow(bank.db, guild, table)).get("fund", 0)


async def close_fund(bank: Bank, guild: int, table: int, key: str | None = None) -> int:
    """What is left of the fund -> the treasury; that amount."""
    left = (await table_escrow(bank.db, guild, table)).get("fund", 0)
    await post(bank, guild, table, [Money(K.FUND_CLOSE, FUND, HOUSE, left)], key)
    return left


async def _casino(c: Conn, guild: int) -> int:
    row = await c.fetchone(
        "SELECT COALESCE(SUM(balance), 0) FROM bank_accounts WHERE guild_id = ? AND kind = 'house'",
        (guild,),
    )
    assert row is not None
    return int(row[0])


async def casino_money(db: Database, guild: int) -> int:
    """The casino's money: the treasury and every table's float (the house's accounts)."""
    return await db.read(_casino, guild)


async def float_of(db: Database, guild: int, table: int) -> int:
    """What a table's float holds."""
    return await Bank(db).float_balance(guild, table)
