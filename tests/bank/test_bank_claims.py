"""Claims: cash-outs wait in the claims escrow until /bank claim pays them, exactly once."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot.bank import (
    Bank,
    BankError,
    ClaimNotHeld,
    NotYourClaim,
    SelfApproval,
    UnknownClaim,
)
from bot.db import Conn, Database, open_database
from bot.engine.base import Money, MoneyKind, claim, seat
from tests.bank.ledger import leave_seat, sit_down
from tests.bank_audit import entry_count
from tests.sql import fetchall

GUILD = 1001
ALICE, BOB, ADMIN = 11, 12, 99


async def cash_out(bank: Bank, db: Database, table: int, player: int, amount: int) -> int:
    """Seat ``player`` with a welcome stake of ``amount`` and cash it all out."""

    async def _tx(conn: Conn) -> Any:
        result = await bank.post_effects(
            conn,
            GUILD,
            table,
            None,
            [
                Money(MoneyKind.WELCOME_STAKE, "house", seat(player), amount),
                Money(MoneyKind.CASH_OUT, seat(player), claim(player), amount),
            ],
            f"t{table}:p{player}",
        )
        return result

    result = await db.write(_tx)
    (claim_id,) = result.claim_ids
    return claim_id


async def test_claim_pays_every_pending_claim_once(bank: Bank, db: Database) -> None:
    c1 = await cash_out(bank, db, 1, ALICE, 120)
    c2 = await cash_out(bank, db, 2, ALICE, 30)
    await cash_out(bank, db, 3, BOB, 10)
    assert [c.amount for c in await bank.claims(GUILD, ALICE)] == [120, 30]
    receipt = await bank.claim(GUILD, ALICE)
    assert [c.claim_id for c in receipt.paid] == [c1, c2]
    assert (receipt.total, receipt.balance, receipt.held) == (150, 150, ())
    again = await bank.claim(GUILD, ALICE)
    assert (again.paid, again.total, again.balance, again.entry_id) == ((), 0, 150, None)
    assert await bank.claims(GUILD, ALICE) == []
    assert [c.status for c in await bank.claims(GUILD, ALICE, statuses=["paid"])] == ["paid"] * 2
    assert await bank.balance(GUILD, BOB) == 0
    items = (await bank.history(GUILD, ALICE)).items
    assert [(i.kind, i.amount) for i in items] == [("claim_paid", 150)]


async def test_hundred_concurrent_claims_pay_once(bank: Bank, db: Database) -> None:
    for table in range(1, 6):
        await cash_out(bank, db, table, ALICE, 10 * table)
    receipts = await asyncio.gather(*(bank.claim(GUILD, ALICE) for _ in range(100)))
    paid = [r for r in receipts if r.paid]
    assert len(paid) == 1 and paid[0].total == 150
    assert await bank.balance(GUILD, ALICE) == 150
    rows = await fetchall(db, "SELECT COUNT(*) FROM bank_entries WHERE kind = 'claim_paid'")
    assert rows[0][0] == 1


async def test_claims_by_id(bank: Bank, db: Database) -> None:
    mine = await cash_out(bank, db, 1, ALICE, 40)
    other = await cash_out(bank, db, 1, BOB, 50)
    before = await entry_count(db)
    with pytest.raises(NotYourClaim):
        await bank.claim(GUILD, ALICE, claim_ids=[mine, other])
    with pytest.raises(UnknownClaim):
        await bank.claim(GUILD, ALICE, claim_ids=[mine, 999])
    assert await entry_count(db) == before
    assert (await bank.claim(GUILD, ALICE, claim_ids=[mine])).total == 40
    assert (await bank.claim(GUILD, ALICE, claim_ids=[mine])).total == 0


async def test_claim_above_limit_waits_for_another_admin(bank: Bank, db: Database) -> None:
    await bank.configure_guild(GUILD, claim_approval_limit=100)
    small = await cash_out(bank, db, 1, ALICE, 100)
    big = await cash_out(bank, db, 2, ALICE, 101)
    receipt = await bank.claim(GUILD, ALICE)
    assert [c.claim_id for c in receipt.paid] == [small]
    assert [c.claim_id for c in receipt.held] == [big] and receipt.balance == 100
    with pytest.raises(SelfApproval):
        await bank.approve_claim(GUILD, big, ALICE)
    with pytest.raises(ClaimNotHeld):
        await bank.approve_claim(GUILD, small, ADMIN)
    with pytest.raises(UnknownClaim):
        await bank.approve_claim(GUILD, 999, ADMIN)
    approved = await bank.approve_claim(GUILD, big, ADMIN)
    assert (approved.total, approved.balance, approved.user_id) == (101, 201, ALICE)
    with pytest.raises(ClaimNotHeld):
        await bank.approve_claim(GUILD, big, ADMIN)
    await bank.configure_guild(GUILD, claim_approval_limit=None)
    await cash_out(bank, db, 3, ALICE, 10_000)
    assert (await bank.claim(GUILD, ALICE)).total == 10_000


async def test_leave_seat_with_limit_holds_claim(bank: Bank) -> None:
    await bank.configure_guild(GUILD, claim_approval_limit=50)
    await sit_down(bank, GUILD, 5, ALICE, welcome_stake=100)
    left = await leave_seat(bank, GUILD, 5, ALICE)
    assert left.claim_status == "held" and left.claim_id is not None
    assert (await bank.claim(GUILD, ALICE)).held[0].claim_id == left.claim_id


async def test_claims_cannot_be_deleted(bank: Bank, db: Database) -> None:
    await cash_out(bank, db, 1, ALICE, 5)
    with pytest.raises(Exception, match="kept"):

        async def _tx(conn: Conn) -> Any:
            await conn.execute("DELETE FROM bank_claims")

        await db.write(_tx)


def test_error_codes_are_stable() -> None:
    from bot.bank.errors import ALL_ERRORS

    codes = [e.code for e in ALL_ERRORS]
    assert len(set(codes)) == len(codes)
    assert {
        "insufficient_funds",
        "invalid_amount",
        "unknown_account",
        "not_your_claim",
        "self_approval",
        "self_transfer",
        "transfer_to_bot",
        "duplicate",
    } <= set(codes)
    assert all(issubclass(e, BankError) and issubclass(e, ValueError) for e in ALL_ERRORS)


async def _decide(bank: Bank, decision: str, claim_id: int, admin: int) -> str:
    """One admin's decision on a held claim: what it did, or the refusal's code."""
    try:
        if decision == "approve":
            await bank.approve_claim(GUILD, claim_id, admin)
        else:
            await bank.reject_claim(GUILD, claim_id, admin, "race")
    except ClaimNotHeld as refused:
        return refused.code
    return decision


RACES = 30  # held claims decided by two admins at once, each pair from two connections


@pytest.mark.parametrize(
    "pair",
    [("approve", "reject"), ("reject", "approve"), ("approve", "approve"), ("reject", "reject")],
)
async def test_two_admins_decide_a_held_claim_once(
    bank: Bank, db: Database, database_url: str, pair: tuple[str, str]
) -> None:
    """Two decisions of one held claim at the same moment, from two connections (as two
    processes): one is done, the other gets the "already decided" sentence, never an
    internal error nor a false "insufficient funds"; the money moved once."""
    await bank.configure_guild(GUILD, claim_approval_limit=10)
    # another held claim, so that for the first half the claims account holds more than the
    # raced one (a second decision then met the check constraint), for the second half not
    # (it met a false "insufficient funds")
    kept = await cash_out(bank, db, 100, BOB, 500)
    other = await open_database(database_url)
    banks = (bank, Bank(other))
    treasury, paid, done = await bank.balance(GUILD, None), 0, []
    try:
        for race in range(RACES):
            amount = 11 + race
            if race == RACES // 2:
                await bank.approve_claim(GUILD, kept, ADMIN)
            held = await cash_out(bank, db, race + 1, ALICE, amount)
            treasury -= amount  # the welcome stake came from the treasury
            answers = await asyncio.gather(
                _decide(banks[0], pair[0], held, ADMIN), _decide(banks[1], pair[1], held, ADMIN + 1)
            )
            assert sorted(answers, key=lambda a: a == "claim_decided") in (
                [pair[0], "claim_decided"],
                [pair[1], "claim_decided"],
            ), answers
            (decided,) = [a for a in answers if a != "claim_decided"]
            done.append(decided)
            if decided == "approve":
                paid += amount
            else:
                treasury += amount
            assert await bank.balance(GUILD, ALICE) == paid
            assert await bank.balance(GUILD, None) == treasury
    finally:
        await other.close()
    statuses = await fetchall(db, "SELECT id, status FROM bank_claims ORDER BY id")
    want = {"approve": "paid", "reject": "rejected"}
    assert [s for i, s in statuses if i != kept] == [want[d] for d in done]
    assert dict(statuses)[kept] == "paid"
    kinds = await fetchall(
        db, "SELECT kind, COUNT(*) FROM bank_entries WHERE idem_key LIKE 'claim_%' GROUP BY kind"
    )
    assert dict(kinds) == {
        k: n
        for k, n in (
            ("claim_paid", done.count("approve") + 1),
            ("admin_adjust", done.count("reject")),
        )
        if n
    }
