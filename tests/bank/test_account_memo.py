"""The connection remembers committed account ids, and never one a rollback undid.

SQLite gives a rolled-back row's id to the next row inserted: a remembered id of an
account that was rolled back would point at someone else's account."""

from __future__ import annotations

import contextlib
import sqlite3

import pytest

from bot.bank import Bank, InsufficientFunds, core
from bot.db import Database
from bot.engine.base import Money, MoneyKind, seat, wallet

GUILD = 1001
TABLE = 7


def _selects(c: sqlite3.Connection) -> list[str]:
    """Record the account lookups ``c`` runs from now on."""
    seen: list[str] = []
    c.set_trace_callback(lambda sql: seen.append(sql) if "FROM bank_accounts" in sql else None)
    return seen


async def test_a_committed_id_is_found_without_a_lookup(bank: Bank, db: Database) -> None:
    first = await db.run_transaction(core.escrow_account, GUILD, "seat", TABLE, 5)
    seen = _selects(db.raw)
    again = await db.run_transaction(core.escrow_account, GUILD, "seat", TABLE, 5)
    assert again == first and seen == []
    db.raw.set_trace_callback(None)


async def test_an_id_found_in_an_open_transaction_is_not_trusted_before_commit(
    bank: Bank, db: Database
) -> None:
    def find_twice(c: sqlite3.Connection) -> tuple[int, int | None]:
        made = core.escrow_account(c, GUILD, "seat", TABLE, 5)
        return made, core.find_account(c, GUILD, "seat", TABLE, 5)

    seen = _selects(db.raw)
    made, found = await db.run_transaction(find_twice)
    assert found == made and len(seen) == 2  # looked up again: not yet committed
    db.raw.set_trace_callback(None)


async def test_a_rolled_back_account_is_forgotten(bank: Bank, db: Database) -> None:
    def create_then_fail(c: sqlite3.Connection) -> None:
        core.escrow_account(c, GUILD, "seat", TABLE, 5)
        raise RuntimeError("the move fails after creating the seat")

    with pytest.raises(RuntimeError):
        await db.run_transaction(create_then_fail)
    other = await db.run_transaction(core.escrow_account, GUILD, "seat", TABLE, 6)
    # the rolled-back seat's id went to seat 6: seat 5 must be created anew, not found
    assert await db.run_transaction(core.find_account, GUILD, "seat", TABLE, 5) is None
    mine = await db.run_transaction(core.escrow_account, GUILD, "seat", TABLE, 5)
    assert mine != other


async def test_an_account_undone_by_a_savepoint_is_forgotten(bank: Bank, db: Database) -> None:
    """A refused bank operation rolls back to its savepoint inside a transaction that then
    commits: the account it created is gone, and its id goes to the next account."""
    buy_in = [Money(MoneyKind.BUY_IN, wallet(55), seat(55), 10)]

    def refused_then_other(c: sqlite3.Connection) -> int:
        # a new player (starting balance 0 here) cannot buy in: refused, rolled back
        with contextlib.suppress(InsufficientFunds):
            core.post_effects(c, GUILD, TABLE, 1, buy_in, "refused")
        return core.escrow_account(c, GUILD, "pot", TABLE)

    await bank.configure_guild(GUILD, starting_balance=0)
    pot = await db.run_transaction(refused_then_other)
    # the refused buy-in had created the wallet, then the seat: the pot took the wallet's id
    assert await db.run_transaction(core.find_account, GUILD, "player", 0, 55) is None
    assert await db.run_transaction(core.find_account, GUILD, "seat", TABLE, 55) is None
    assert await db.run_transaction(core.find_account, GUILD, "pot", TABLE) == pot


async def test_a_failed_commit_forgets_and_rolls_back(bank: Bank, db: Database) -> None:
    """A COMMIT refused by a deferred foreign key leaves no transaction open and no id."""

    def create_and_break(c: sqlite3.Connection) -> int:
        c.execute("PRAGMA defer_foreign_keys = ON")
        made = core.escrow_account(c, GUILD, "seat", TABLE, 9)
        c.execute(
            "INSERT INTO bank_postings (entry_id, account_id, amount) VALUES (999999, ?, 1)",
            (made,),
        )
        return made

    with pytest.raises(sqlite3.IntegrityError):
        await db.run_transaction(create_and_break)
    assert not db.raw.in_transaction
    assert await db.run_transaction(core.find_account, GUILD, "seat", TABLE, 9) is None


async def test_the_memo_is_bounded(bank: Bank, db: Database, monkeypatch) -> None:
    """Past its limit the memo starts again (the accounts of closed tables pile up)."""
    monkeypatch.setattr(type(db.raw), "LIMIT", 3)
    for user in range(1, 6):
        await db.run_transaction(core.escrow_account, GUILD, "seat", TABLE, user)
        assert 0 < len(db.raw.memo) <= 3
    seen = _selects(db.raw)
    await db.run_transaction(core.escrow_account, GUILD, "seat", TABLE, 5)  # the newest
    await db.run_transaction(core.escrow_account, GUILD, "seat", TABLE, 1)  # dropped: looked up
    assert len(seen) == 1
    db.raw.set_trace_callback(None)
