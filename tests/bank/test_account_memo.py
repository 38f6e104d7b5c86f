"""The database remembers committed account ids, and never one a rollback undid.

SQLite gives a rolled-back row's id to the next row inserted: a remembered id of an
account that was rolled back would point at someone else's account."""

from __future__ import annotations

import contextlib
from typing import Any

import pytest

from bot.bank import Bank, InsufficientFunds, core
from bot.db import Conn, IntegrityError, SqliteDatabase
from bot.db.base import Memo
from bot.engine.base import Money, MoneyKind, seat, wallet

GUILD = 1001
TABLE = 7


class Spy:
    """A connection that records its account lookups and otherwise is ``conn``."""

    def __init__(self, conn: Conn) -> None:
        self.conn = conn
        self.lookups: list[str] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self.conn, name)

    async def fetchone(self, sql: str, params: Any = ()) -> Any:
        if "FROM bank_accounts" in sql:
            self.lookups.append(sql)
        return await self.conn.fetchone(sql, params)


async def spied(conn: Conn, fn: Any, *args: Any) -> tuple[Any, list[str]]:
    """``fn(conn, ...)`` and the account lookups it made."""
    spy = Spy(conn)
    out = await fn(spy, *args)
    return out, spy.lookups


async def test_a_committed_id_is_found_without_a_lookup(bank: Bank, db: SqliteDatabase) -> None:
    first = await db.write(core.escrow_account, GUILD, "seat", TABLE, 5)
    again, seen = await db.write(spied, core.escrow_account, GUILD, "seat", TABLE, 5)
    assert again == first and seen == []


async def test_an_id_found_in_an_open_transaction_is_not_trusted_before_commit(
    bank: Bank, db: SqliteDatabase
) -> None:
    async def find_twice(c: Conn) -> tuple[int, int | None]:
        made = await core.escrow_account(c, GUILD, "seat", TABLE, 5)
        return made, await core.find_account(c, GUILD, "seat", TABLE, 5)

    (made, found), seen = await db.write(spied, find_twice)
    assert found == made and len(seen) == 2  # looked up again: not yet committed


async def test_a_rolled_back_account_is_forgotten(bank: Bank, db: SqliteDatabase) -> None:
    async def create_then_fail(c: Conn) -> None:
        await core.escrow_account(c, GUILD, "seat", TABLE, 5)
        raise RuntimeError("the move fails after creating the seat")

    with pytest.raises(RuntimeError):
        await db.write(create_then_fail)
    other = await db.write(core.escrow_account, GUILD, "seat", TABLE, 6)
    # the rolled-back seat's id went to seat 6: seat 5 must be created anew, not found
    assert await db.write(core.find_account, GUILD, "seat", TABLE, 5) is None
    mine = await db.write(core.escrow_account, GUILD, "seat", TABLE, 5)
    assert mine != other


async def test_an_account_undone_by_a_savepoint_is_forgotten(
    bank: Bank, db: SqliteDatabase
) -> None:
    """A refused bank operation rolls back to its savepoint inside a transaction that then
    commits: the account it created is gone, and its id goes to the next account."""
    buy_in = [Money(MoneyKind.BUY_IN, wallet(55), seat(55), 10)]

    async def refused_then_other(c: Conn) -> int:
        # a new player (starting balance 0 here) cannot buy in: refused, rolled back
        with contextlib.suppress(InsufficientFunds):
            await core.post_effects(c, GUILD, TABLE, 1, buy_in, "refused")
        return await core.escrow_account(c, GUILD, "pot", TABLE)

    await bank.configure_guild(GUILD, starting_balance=0)
    pot = await db.write(refused_then_other)
    # the refused buy-in had created the wallet, then the seat: the pot took the wallet's id
    assert await db.write(core.find_account, GUILD, "player", 0, 55) is None
    assert await db.write(core.find_account, GUILD, "seat", TABLE, 55) is None
    assert await db.write(core.find_account, GUILD, "pot", TABLE) == pot


async def test_a_failed_commit_forgets_and_rolls_back(bank: Bank, db: SqliteDatabase) -> None:
    """A COMMIT refused by a deferred foreign key leaves no transaction open and no id."""
    if db.dialect != "sqlite":
        pytest.skip("SQLite's deferred foreign keys (PostgreSQL's are immediate here)")

    async def create_and_break(c: Conn) -> int:
        await c.execute("PRAGMA defer_foreign_keys = ON")
        made = await core.escrow_account(c, GUILD, "seat", TABLE, 9)
        await c.execute(
            "INSERT INTO bank_postings (entry_id, account_id, amount) VALUES (999999, ?, 1)",
            (made,),
        )
        return made

    with pytest.raises(IntegrityError):
        await db.write(create_and_break)
    assert await db.write(core.find_account, GUILD, "seat", TABLE, 9) is None


async def test_the_memo_is_bounded(
    bank: Bank, db: SqliteDatabase, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Past its limit the memo starts again (the accounts of closed tables pile up)."""
    monkeypatch.setattr(Memo, "LIMIT", 3)
    for user in range(1, 6):
        await db.write(core.escrow_account, GUILD, "seat", TABLE, user)
        assert 0 < len(db.memo.values) <= 3
    _, newest = await db.write(spied, core.escrow_account, GUILD, "seat", TABLE, 5)
    _, dropped = await db.write(spied, core.escrow_account, GUILD, "seat", TABLE, 1)
    assert (len(newest), len(dropped)) == (0, 1)  # the dropped one is looked up again
