"""The incremental audit: a clean audit records a checkpoint, the next one proves only
the entries after it, and the full audit recomputes every checkpoint (both databases)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot.bank import Bank, audit
from bot.db import Conn, Database, IntegrityError
from tests.bank.ledger import leave_seat, sit_down
from tests.bank_audit import figures

GUILD, OTHER = 1001, 2002
ALICE, BOB, CAROL, DAVE = 11, 12, 13, 14


async def _setup(bank: Bank, guild: int = GUILD) -> None:
    await bank.mint(guild, 300, user_id=ALICE)
    await bank.transfer(guild, ALICE, BOB, 100)
    await sit_down(bank, guild, 4, ALICE, buy_in=50, welcome_stake=100)
    await leave_seat(bank, guild, 4, ALICE, forfeit=100)


async def _sql(db: Database, *statements: str) -> None:
    async def run(conn: Conn) -> None:
        for sql in statements:
            await conn.execute(sql)

    await db.write(run)


async def _last_entry(db: Database) -> int:
    async def last(conn: Conn) -> int:
        row = await conn.fetchone("SELECT MAX(id) FROM bank_entries")
        assert row is not None
        return int(row[0])

    return await db.read(last)


def _no_trigger(db: Database, name: str, table: str) -> str:
    """The statement that drops an append-only trigger (a tamperer's first step)."""
    return f"DROP TRIGGER {name}" + (" ON " + table if db.dialect == "postgresql" else "")


async def test_incremental_audit_proves_only_the_new_entries(bank: Bank, db: Database) -> None:
    await _setup(bank)
    first = await audit(db)
    assert first.ok and first.full and first.checkpoint is not None  # no checkpoint yet
    covered = await _last_entry(db)
    await bank.transfer(GUILD, BOB, CAROL, 30)
    await bank.burn(GUILD, 20, user_id=CAROL)
    step = await audit(db)
    assert step.ok and not step.full, step.format()
    assert (step.after, step.proved) == (covered, 2)
    assert step.checkpoint is not None and step.checkpoint > first.checkpoint
    assert "incremental: 2 entries after entry" in step.format()
    again = await audit(db)  # nothing new: proves nothing, still the whole ledger's figures
    assert again.ok and again.proved == 0 and figures(again) == figures(step)
    full = await audit(db, full=True)
    assert full.ok and full.full and full.proved == full.entries == step.entries
    assert figures(full) == figures(step)
    assert (full.minted, full.burned, full.circulating) == (1_000_300, 20, 1_000_280)


async def test_a_tampered_balance_is_caught_by_both_audits(db: Database) -> None:
    bank = Bank(db)  # not the audited fixture: this test breaks the ledger on purpose
    await bank.ensure_guild(GUILD)
    await _setup(bank)
    assert (await audit(db)).ok
    await bank.transfer(GUILD, ALICE, BOB, 1)
    await _sql(db, f"UPDATE bank_accounts SET balance = balance + 1 WHERE user_id = {BOB}")
    step = await audit(db)
    assert not step.ok and not step.full and step.checkpoint is None
    assert "the cached balances are not the checkpoint's" in step.format()
    full = await audit(db, full=True)
    assert not full.ok and "cached 102 != ledger 101" in full.format(), full.format()


async def test_an_untouched_account_tampered_is_caught_too(db: Database) -> None:
    bank = Bank(db)
    await bank.ensure_guild(GUILD)
    await _setup(bank)
    await bank.mint(GUILD, 40, user_id=DAVE)
    assert (await audit(db)).ok
    await bank.transfer(GUILD, ALICE, BOB, 1)  # DAVE has no posting after the checkpoint
    await _sql(db, f"UPDATE bank_accounts SET balance = 39 WHERE user_id = {DAVE}")
    step = await audit(db)
    assert not step.ok and "the cached balances are not" in step.format(), step.format()


@pytest.mark.parametrize(
    ("change", "incremental_sees"),
    [
        ("minted = minted + 7", "accounts hold"),
        ("entries = entries + 1", None),
        ("balance_digest = '" + "0" * 63 + "1'", "the cached balances are not"),
        ("ledger_digest = '" + "0" * 63 + "1'", None),  # only the full audit reads old entries
    ],
)
async def test_a_tampered_checkpoint_is_caught_by_the_full_audit(
    db: Database, change: str, incremental_sees: str | None
) -> None:
    bank = Bank(db)
    await bank.ensure_guild(GUILD)
    await _setup(bank)
    checkpoint = (await audit(db)).checkpoint
    await bank.transfer(GUILD, BOB, CAROL, 5)
    await _sql(
        db,
        _no_trigger(db, "bank_audit_guilds_no_update", "bank_audit_guilds"),
        f"UPDATE bank_audit_guilds SET {change} WHERE audit_id = {checkpoint}",
    )
    step = await audit(db)
    if incremental_sees is None:
        assert step.ok, step.format()
    else:
        assert not step.ok and incremental_sees in step.format(), step.format()
    latest = step.checkpoint or checkpoint  # a clean incremental audit carried it on
    full = await audit(db, full=True)
    assert not full.ok
    assert f"checkpoint {latest} (guild {GUILD}, up to entry" in full.format(), full.format()
    assert "cached" not in full.format()  # the balances themselves are right


async def test_an_old_entry_changed_in_place_is_caught_by_the_full_audit(db: Database) -> None:
    bank = Bank(db)
    await bank.ensure_guild(GUILD)
    await _setup(bank)
    checkpoint = (await audit(db)).checkpoint
    await _sql(
        db,
        _no_trigger(db, "bank_entries_no_update", "bank_entries"),
        "UPDATE bank_entries SET reason = 'forged' WHERE id = 2",
    )
    step = await audit(db)
    assert step.ok  # the incremental audit trusts what its checkpoint covered
    full = await audit(db, full=True)
    assert not full.ok and f"checkpoint {step.checkpoint} " in full.format(), full.format()
    assert checkpoint is not None and step.checkpoint == checkpoint + 1


async def test_an_old_entry_removed_is_caught_by_the_full_audit(db: Database) -> None:
    bank = Bank(db)
    await bank.ensure_guild(GUILD)
    await _setup(bank)
    receipt = await bank.transfer(GUILD, BOB, CAROL, 5)
    assert (await audit(db)).ok
    await _sql(
        db,
        _no_trigger(db, "bank_postings_no_delete", "bank_postings"),
        _no_trigger(db, "bank_entries_no_delete", "bank_entries"),
        f"DELETE FROM bank_postings WHERE entry_id = {receipt.entry_id}",
        f"DELETE FROM bank_entries WHERE id = {receipt.entry_id}",
    )
    assert (await audit(db)).ok  # the cached balances still match the checkpoint's
    full = await audit(db, full=True)
    assert not full.ok and "cached 95 != ledger 100" in full.format(), full.format()
    assert "does not match the ledger" in full.format()  # the last checkpoint's digests


async def test_guild_audits_start_from_their_own_guild(db: Database) -> None:
    bank = Bank(db)
    for guild in (GUILD, OTHER):
        await bank.ensure_guild(guild)
        await _setup(bank, guild)
    alone = await audit(db, OTHER)
    assert alone.ok and alone.full and alone.guilds == 1  # no checkpoint of OTHER yet
    whole = await audit(db)
    assert whole.ok and whole.full  # no checkpoint of every guild yet; OTHER's is checked
    covered = await _last_entry(db)
    await bank.transfer(GUILD, ALICE, BOB, 3)
    await bank.transfer(OTHER, ALICE, BOB, 4)
    await bank.transfer(OTHER, BOB, ALICE, 1)
    step = await audit(db, OTHER)  # from the whole audit's row for OTHER
    assert step.ok and not step.full and (step.proved, step.after) == (2, covered)
    assert figures(step) == figures(await audit(db, OTHER, full=True))
    await _sql(
        db,
        f"UPDATE bank_accounts SET balance = balance + 9 WHERE guild_id = {OTHER}"
        f" AND user_id = {BOB}",
    )
    assert (await audit(db, GUILD)).ok  # another guild's books do not fail this one's
    assert not (await audit(db, OTHER)).ok
    everyone = await audit(db)
    assert not everyone.ok and not everyone.full and f"guild {OTHER}" in everyone.format()
    assert f"guild {GUILD}:" not in everyone.format()


async def test_checkpoints_are_append_only(bank: Bank, db: Database) -> None:
    await _setup(bank)
    assert (await audit(db)).checkpoint is not None
    for sql in (
        "UPDATE bank_audits SET last_entry_id = 0",
        "DELETE FROM bank_audits",
        "UPDATE bank_audit_guilds SET minted = 0",
        "DELETE FROM bank_audit_guilds",
    ):
        with pytest.raises(IntegrityError, match="append-only"):
            await _sql(db, sql)


async def test_a_checkpoint_waits_for_an_earlier_entry_still_in_flight(
    bank: Bank, db: Database
) -> None:
    """PostgreSQL: a writer may commit entry n after another commits n + 1; the audit that
    saw n + 1 and not n records no checkpoint, and the next one proves both."""
    if db.dialect != "postgresql":
        pytest.skip("SQLite commits one writer at a time, in id order")
    await _setup(bank)
    assert (await audit(db)).ok
    inside, gate = asyncio.Event(), asyncio.Event()

    async def slow(conn: Conn) -> Any:
        receipt = await bank.transfer(GUILD, ALICE, BOB, 7, conn=conn)
        inside.set()
        await gate.wait()
        return receipt

    writer = asyncio.create_task(db.write(slow))
    await inside.wait()
    later = await bank.mint(GUILD, 5, user_id=DAVE)  # another account: commits first
    auditing = asyncio.create_task(audit(db))

    async def waiting(conn: Conn) -> bool:
        row = await conn.fetchone(
            "SELECT COUNT(*) FROM pg_locks WHERE NOT granted"
            " AND relation = 'bank_entries'::regclass"
        )
        return bool(row and row[0])

    async with asyncio.timeout(30):  # its snapshot taken, its record waits for the writer
        while not await db.read(waiting):
            await asyncio.sleep(0.01)
    gate.set()
    earlier = await writer
    assert earlier.entry_id < later.entry_id
    report = await auditing
    assert report.ok and report.checkpoint is None and report.unrecorded, report.format()
    assert "no checkpoint recorded" in report.format()
    step = await audit(db)
    assert step.ok and step.proved == 2 and step.checkpoint is not None, step.format()


async def test_a_posting_to_another_guild_is_named_by_both_audits(db: Database) -> None:
    bank = Bank(db)
    for guild in (GUILD, OTHER):
        await bank.ensure_guild(guild)
        await _setup(bank, guild)
    assert (await audit(db)).ok
    await bank.transfer(GUILD, ALICE, BOB, 2)
    await _sql(
        db,
        _no_trigger(db, "bank_postings_no_update", "bank_postings"),
        "UPDATE bank_postings SET account_id = (SELECT id FROM bank_accounts"
        f" WHERE guild_id = {OTHER} AND user_id = {BOB})"
        " WHERE id = (SELECT MAX(id) FROM bank_postings)",
    )
    for report in (await audit(db), await audit(db, full=True), await audit(db, GUILD)):
        assert not report.ok and "of another guild" in report.format(), report.format()
