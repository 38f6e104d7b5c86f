"""The audit finds every kind of difference; the CLI exits non-zero on one."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.bank import Bank, audit
from bot.cli.audit import main
from bot.db import Conn, Database, SqliteDatabase, migrate
from tests.bank.ledger import leave_seat, sit_down

GUILD = 1001
ALICE, BOB = 11, 12


async def _setup(bank: Bank) -> None:
    await bank.mint(GUILD, 300, user_id=ALICE)
    await bank.transfer(GUILD, ALICE, BOB, 100)
    await sit_down(bank, GUILD, 4, ALICE, buy_in=50, welcome_stake=100)
    await leave_seat(bank, GUILD, 4, ALICE, forfeit=100)


async def test_clean_report(bank: Bank, db: Database) -> None:
    await _setup(bank)
    await bank.burn(GUILD, 20, user_id=BOB)
    report = await audit(db)
    assert report.ok and report.problems == ()
    assert (report.minted, report.burned, report.circulating) == (1_000_300, 20, 1_000_280)
    assert report.entries == 8 and report.postings == 16
    assert "OK" in report.format()
    assert (await audit(db, GUILD)).ok and (await audit(db, 5555)).ok


async def _tamper(db: Database, sql: str) -> None:
    async def _tx(conn: Conn) -> Any:
        await conn.execute(sql)

    await db.write(_tx)


@pytest.mark.parametrize(
    ("sql", "expected"),
    [
        (
            "UPDATE bank_accounts SET balance = balance + 1 WHERE kind = 'player' AND user_id = 12",
            ["cached 101 != ledger 100", "accounts hold"],
        ),
        (
            "INSERT INTO bank_postings (entry_id, account_id, amount)"
            " SELECT MAX(id), (SELECT id FROM bank_accounts WHERE user_id = 12), 5"
            " FROM bank_entries",
            ["unbalanced", "cached 100 != ledger 105"],
        ),
        ("UPDATE bank_claims SET status = 'paid', paid_entry_id = 1", ["claims account holds"]),
        (
            "INSERT INTO bank_entries (guild_id, kind, idem_key) VALUES (1001, 'transfer', 'x')",
            ["0 postings"],
        ),
    ],
)
async def test_audit_finds_tampering(db: Database, sql: str, expected: list[str]) -> None:
    bank = Bank(db)  # not the audited fixture: this test breaks the ledger on purpose
    await bank.ensure_guild(GUILD)
    await _setup(bank)
    await _tamper(db, sql)
    report = await audit(db)
    assert not report.ok
    text = report.format()
    for fragment in expected:
        assert fragment in text, text


async def test_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import asyncio

    path = tmp_path / "cli.sqlite3"
    # main() runs its own event loop: call it from a thread
    assert await asyncio.to_thread(main, ["--db", str(path)]) == 2  # no file
    assert str(path) in capsys.readouterr().err
    assert not path.exists()  # an audit never creates the file it was asked to read
    db = await SqliteDatabase.open(path)
    await migrate(db)
    bank = Bank(db)
    await bank.ensure_guild(GUILD)
    await _setup(bank)
    await db.close()
    assert await asyncio.to_thread(main, ["--db", str(path)]) == 0
    out = capsys.readouterr().out
    assert "OK (full)" in out and "checkpoint 1 recorded" in out  # the first audit
    assert await asyncio.to_thread(main, ["--db", str(path)]) == 0
    assert "OK (incremental: 0 entries after entry" in capsys.readouterr().out
    assert await asyncio.to_thread(main, ["--db", str(path), "--full"]) == 0
    assert "OK (full)" in capsys.readouterr().out
    assert await asyncio.to_thread(main, ["--db", str(path), "--guild", str(GUILD)]) == 0
    db = await SqliteDatabase.open(path)
    await _tamper(db, "UPDATE bank_accounts SET balance = 0 WHERE kind = 'house'")
    await db.close()
    assert await asyncio.to_thread(main, ["--db", str(path)]) == 1
    assert "FAILED" in capsys.readouterr().out


async def test_cli_on_database_without_bank(tmp_path: Path) -> None:
    import asyncio

    path = tmp_path / "empty.sqlite3"
    db = await SqliteDatabase.open(path)
    await db.close()
    assert await asyncio.to_thread(main, ["--db", str(path)]) == 2
