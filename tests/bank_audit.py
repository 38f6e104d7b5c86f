"""Bank checks for tests: ``await assert_audit_clean(db)`` after each test."""

from __future__ import annotations

from bot.bank import audit
from bot.bank.models import AuditReport
from bot.db import Conn, Database


def figures(report: AuditReport) -> tuple[int, ...]:
    """What a full and an incremental audit of the same ledger must both say."""
    return (
        report.guilds,
        report.accounts,
        report.entries,
        report.postings,
        report.minted,
        report.burned,
        report.circulating,
    )


async def assert_audit_clean(db: Database, guild_id: int | None = None) -> AuditReport:
    """Fail the test unless the bank audit is clean, from the last checkpoint (incremental)
    and from the first entry (full), with the same figures; returns the full report."""
    step = await audit(db, guild_id)
    assert step.ok, step.format()
    report = await audit(db, guild_id, full=True)
    assert report.ok, report.format()
    assert figures(step) == figures(report), (step.format(), report.format())
    return report


async def entry_count(db: Database) -> int:
    """Number of ledger entries (to prove a refused call posted nothing)."""

    async def count(conn: Conn) -> int:
        row = await conn.fetchone("SELECT COUNT(*) FROM bank_entries")
        assert row is not None
        return int(row[0])

    return await db.read(count)
