"""No overdraft under concurrency: one connection's tasks, and several connections."""

from __future__ import annotations

import asyncio

from bot.bank import Bank, InsufficientFunds
from bot.db import Database, open_database
from tests.bank_audit import assert_audit_clean

GUILD = 1001
ALICE, BOB = 11, 12


async def _debit(bank: Bank, amount: int, i: int) -> bool:
    try:
        await bank.transfer(GUILD, ALICE, BOB, amount, key=f"d{i}")
    except InsufficientFunds:
        return False
    return True


async def test_200_concurrent_debits_one_connection(bank: Bank) -> None:
    await bank.mint(GUILD, 1000, user_id=ALICE)
    amounts = [3 + i % 7 for i in range(200)]  # 200 debits of 3..9, total far above 1000
    results = await asyncio.gather(*(_debit(bank, a, i) for i, a in enumerate(amounts)))
    spent = sum(a for a, ok in zip(amounts, results, strict=True) if ok)
    assert await bank.balance(GUILD, ALICE) == 1000 - spent >= 0
    assert await bank.balance(GUILD, BOB) == spent
    assert 0 < sum(results) < 200
    # every refusal happened when the balance could not cover it
    assert 1000 - spent < min(a for a, ok in zip(amounts, results, strict=True) if not ok)


async def test_200_concurrent_debits_four_connections(
    bank: Bank, db: Database, database_url: str
) -> None:
    """Separate connections (as separate processes would): BEGIN IMMEDIATE + conditional
    UPDATE keep the account from going below zero."""
    await bank.mint(GUILD, 500, user_id=ALICE)
    others = [await open_database(database_url) for _ in range(3)]
    banks = [bank, *(Bank(d) for d in others)]
    try:
        results = await asyncio.gather(*(_debit(banks[i % 4], 7, i) for i in range(200)))
    finally:
        for d in others:
            await d.close()
    successes = sum(results)
    assert successes == 500 // 7
    assert await bank.balance(GUILD, ALICE) == 500 - 7 * successes
    assert await bank.balance(GUILD, BOB) == 7 * successes
    await assert_audit_clean(db)
