"""Transactions commit, roll back, and never interleave between tasks."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from bot.db import Database, MigrationError, latest_level, migrate
from bot.db.migrate import current_level


async def test_pragmas(db):
    assert (await db.fetchone("PRAGMA journal_mode"))[0] == "wal"
    assert (await db.fetchone("PRAGMA foreign_keys"))[0] == 1
    assert (await db.fetchone("PRAGMA busy_timeout"))[0] >= 1000


async def test_transaction_commits_and_rolls_back(db):
    async with db.transaction() as conn:
        await conn.execute("INSERT INTO bot_meta VALUES ('a', '1')")
    with pytest.raises(RuntimeError):
        async with db.transaction() as conn:
            await conn.execute("INSERT INTO bot_meta VALUES ('b', '2')")
            raise RuntimeError("boom")
    rows = await db.fetchall("SELECT key FROM bot_meta ORDER BY key")
    assert [r[0] for r in rows] == ["a"]


async def test_fifty_concurrent_transactions_never_interleave(db):
    """Each task reads a counter, yields to the loop, then writes it back plus one: lost
    updates would show if two transactions shared the connection."""
    async with db.transaction() as conn:
        await conn.execute("INSERT INTO bot_meta VALUES ('counter', '0')")
    inside = 0
    overlaps = 0

    async def bump() -> None:
        nonlocal inside, overlaps
        async with db.transaction() as conn:
            inside += 1
            overlaps = max(overlaps, inside)
            cur = await conn.execute("SELECT value FROM bot_meta WHERE key = 'counter'")
            value = int((await cur.fetchone())[0])
            await asyncio.sleep(0)
            await conn.execute(
                "UPDATE bot_meta SET value = ? WHERE key = 'counter'", (str(value + 1),)
            )
            inside -= 1

    await asyncio.gather(*(bump() for _ in range(50)))
    assert overlaps == 1
    assert (await db.fetchone("SELECT value FROM bot_meta WHERE key='counter'"))[0] == "50"


async def test_migrations_from_empty_reach_latest_and_are_idempotent(db_path):
    db = await Database.open(db_path)
    try:
        first = await migrate(db)
        assert len(first) == latest_level() >= 1
        assert await current_level(db) == latest_level()
        assert await migrate(db) == []
    finally:
        await db.close()


async def test_failed_migration_keeps_previous_level(tmp_path: Path):
    folder = tmp_path / "migrations"
    folder.mkdir()
    (folder / "0001_one.sql").write_text("CREATE TABLE one (x INTEGER);\n")
    (folder / "0002_two.sql").write_text(
        "CREATE TABLE two (x INTEGER);\nINSERT INTO nowhere VALUES (1);\n"
    )
    db = await Database.open(tmp_path / "m.sqlite3")
    try:
        with pytest.raises(MigrationError, match=r"0002_two\.sql"):
            await migrate(db, folder)
        assert await current_level(db) == 1
        tables = {r[0] for r in await db.fetchall("SELECT name FROM sqlite_master")}
        assert "one" in tables and "two" not in tables
    finally:
        await db.close()


async def test_backup_is_a_consistent_copy(db, tmp_path: Path):
    async with db.transaction() as conn:
        await conn.execute("INSERT INTO bot_meta VALUES ('k', 'v')")
    target = tmp_path / "backup" / "copy.sqlite3"
    await db.backup(target)
    with sqlite3.connect(target) as copy:
        assert copy.execute("SELECT value FROM bot_meta").fetchone() == ("v",)
        assert copy.execute("PRAGMA user_version").fetchone()[0] == latest_level()


async def test_run_transaction_mixes_safely_with_aiosqlite_transactions(db):
    """run_transaction uses the connection on the loop's thread, transaction() on
    aiosqlite's thread: run together they neither interleave nor lose a write, and a
    raising function rolls its own writes back."""
    async with db.transaction() as conn:
        await conn.execute("INSERT INTO bot_meta VALUES ('counter', '0')")

    def bump_sync(c: sqlite3.Connection) -> None:
        value = int(c.execute("SELECT value FROM bot_meta WHERE key = 'counter'").fetchone()[0])
        c.execute("UPDATE bot_meta SET value = ? WHERE key = 'counter'", (str(value + 1),))

    async def bump_async() -> None:
        async with db.transaction() as conn:
            cur = await conn.execute("SELECT value FROM bot_meta WHERE key = 'counter'")
            value = int((await cur.fetchone())[0])
            await asyncio.sleep(0)
            await conn.execute(
                "UPDATE bot_meta SET value = ? WHERE key = 'counter'", (str(value + 1),)
            )

    def fail(c: sqlite3.Connection) -> None:
        c.execute("INSERT INTO bot_meta VALUES ('ghost', '1')")
        raise ValueError("refused")

    jobs = []
    for _ in range(40):
        jobs += [db.run_transaction(bump_sync), bump_async(), db.fetchall("SELECT * FROM bot_meta")]
    await asyncio.gather(*jobs)
    with pytest.raises(ValueError):
        await db.run_transaction(fail)
    assert (await db.fetchone("SELECT value FROM bot_meta WHERE key='counter'"))[0] == "80"
    assert await db.fetchone("SELECT 1 FROM bot_meta WHERE key='ghost'") is None
    assert not db.conn._conn.in_transaction  # the failed transaction was rolled back


async def test_checkpointer_copies_the_wal_into_the_database_file(tmp_path: Path):
    """Commits never checkpoint by themselves (wal_autocheckpoint is a far safety net): the
    checkpointer thread copies committed pages into the main file. Proof: a copy of the
    main file alone, without its -wal, already holds rows committed a moment ago."""
    db = await Database.open(tmp_path / "c.sqlite3")
    try:
        await migrate(db)
        assert (await db.fetchone("PRAGMA wal_autocheckpoint"))[0] >= 10_000

        def write(c: sqlite3.Connection, n: int) -> None:
            c.execute("INSERT INTO bot_meta VALUES (?, ?)", (f"k{n}", "x" * 500))

        for n in range(200):
            await db.run_transaction(write, n)
        copy = tmp_path / "copy.sqlite3"
        for _ in range(100):  # the checkpointer runs every 0.5 s
            await asyncio.sleep(0.05)
            copy.write_bytes((tmp_path / "c.sqlite3").read_bytes())
            probe = sqlite3.connect(copy)
            try:
                found = probe.execute("SELECT count(*) FROM bot_meta WHERE key LIKE 'k%'")
                count = found.fetchone()[0]
            except sqlite3.DatabaseError:
                count = 0  # caught the file mid-checkpoint: look again
            finally:
                probe.close()
            if count == 200:
                break
        assert count == 200
    finally:
        await db.close()
    assert not db._checkpointer._thread.is_alive()


async def test_read_committed_sees_only_committed_rows(db):
    """The reader used to put a game back after a failed write: never an uncommitted row."""
    async with db.transaction() as conn:
        await conn.execute("INSERT INTO bot_meta VALUES ('seen', '1')")
    with pytest.raises(RuntimeError):
        async with db.transaction() as conn:
            await conn.execute("UPDATE bot_meta SET value = '2' WHERE key = 'seen'")
            assert db.read_committed("SELECT value FROM bot_meta WHERE key='seen'")[0] == "1"
            raise RuntimeError("refused")
    assert db.read_committed("SELECT value FROM bot_meta WHERE key='seen'")[0] == "1"
    assert db.read_committed("SELECT value FROM bot_meta WHERE key='nope'") is None
