"""A table move's postings (``own_savepoint=False``): on PostgreSQL they go as one
statement (``Conn.post_ledger``), on SQLite entry by entry; both keep the same rules:
each debit checked in the effects' order, a refused move leaves nothing, a replay moves
nothing."""

from __future__ import annotations

import pytest

from bot.bank import Bank, InsufficientFunds
from bot.db import Database
from bot.engine.base import Money, MoneyKind, seat
from tests.bank.conftest import GUILD
from tests.bank_audit import entry_count

TABLE, USER = 5, 77
K = MoneyKind


@pytest.fixture(autouse=True)
async def rich_players(bank: Bank) -> None:
    await bank.configure_guild(GUILD, starting_balance=1000)


async def move(db: Database, bank: Bank, key: str, effects: list[Money]):
    """Post ``effects`` as a move does: its own transaction, no savepoint."""

    async def fn(c):
        return await bank.post_effects(c, GUILD, TABLE, 1, effects, key, USER, own_savepoint=False)

    return await db.write(fn)


async def seat_and_pot(bank: Bank) -> tuple[int, int, int]:
    stats = await bank.db.read(
        lambda c: c.fetchall(
            "SELECT kind, balance FROM bank_accounts WHERE table_id = ? ORDER BY kind", (TABLE,)
        )
    )
    found = {row[0]: int(row[1]) for row in stats}
    return found.get("seat", 0), found.get("pot", 0), await bank.balance(GUILD, USER)


async def test_a_debit_before_its_credit_is_refused_and_leaves_nothing(bank, db):
    wallet = f"wallet:{USER}"
    await move(db, bank, "open", [Money(K.BUY_IN, wallet, seat(USER), 1, USER)])
    before, entries = await seat_and_pot(bank), await entry_count(db)
    with pytest.raises(InsufficientFunds):  # the seat holds 1 when the bet of 10 comes
        await move(
            db,
            bank,
            "t:1",
            [
                Money(K.BET, seat(USER), "pot", 10, USER),
                Money(K.TOP_UP, wallet, seat(USER), 10, USER),
            ],
        )
    assert await seat_and_pot(bank) == before and await entry_count(db) == entries
    # the same effects, credit first: accepted
    out = await move(
        db,
        bank,
        "t:2",
        [
            Money(K.TOP_UP, wallet, seat(USER), 10, USER),
            Money(K.BET, seat(USER), "pot", 10, USER),
        ],
    )
    assert len(out.entry_ids) == 2 and not out.replayed
    assert await seat_and_pot(bank) == (before[0], 10, before[2] - 10)
    stats = await db.read(
        lambda c: c.fetchone(
            "SELECT own_funds, wagered FROM bank_seats WHERE table_id = ? AND user_id = ?",
            (TABLE, USER),
        )
    )
    assert tuple(stats) == (11, 10)


async def test_a_move_posted_twice_moves_money_once(bank, db):
    effects = [
        Money(K.BUY_IN, f"wallet:{USER}", seat(USER), 30, USER),
        Money(K.BET, seat(USER), "pot", 20, USER),
        Money(K.PAYOUT, "house", seat(USER), 5, USER),
    ]
    first = await move(db, bank, "t:9", effects)
    after, entries = await seat_and_pot(bank), await entry_count(db)
    again = await move(db, bank, "t:9", effects)
    assert again.replayed and again.entry_ids == first.entry_ids
    assert await seat_and_pot(bank) == after and await entry_count(db) == entries
    assert after[:2] == (15, 20)
