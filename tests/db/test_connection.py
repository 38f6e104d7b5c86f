"""Transactions commit, roll back, never interleave, and reads see only committed rows."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from pathlib import Path

import pytest

from bot.db import Conn, MigrationError, SqliteDatabase, Waited, latest_level, migrate
from bot.db.migrate import current_level
from tests.sql import execute, fetchall, fetchone


async def _pragmas(conn: Conn) -> tuple[str, int, int]:
    mode = await conn.fetchone("PRAGMA journal_mode")
    keys = await conn.fetchone("PRAGMA foreign_keys")
    busy = await conn.fetchone("PRAGMA busy_timeout")
    assert mode is not None and keys is not None and busy is not None
    return mode[0], keys[0], busy[0]


async def test_pragmas(db):
    """The writer never waits inside SQLite for a lock (busy_timeout 0: it sleeps on the
    loop instead) and never checkpoints; the readers wait on their own threads."""
    for way, least, most in ((db.write, 0, 0), (db.read, 1000, None), (db.read_long, 1000, None)):
        mode, keys, busy = await way(_pragmas)
        assert mode == "wal"
        assert keys == 1
        assert busy >= least and (most is None or busy <= most)
    assert (await db.write(lambda c: c.fetchone("PRAGMA wal_autocheckpoint")))[0] == 0


async def test_transaction_commits_and_rolls_back(db):
    await execute(db, "INSERT INTO bot_meta VALUES ('a', '1')")

    async def insert_then_fail(conn: Conn) -> None:
        await conn.execute("INSERT INTO bot_meta VALUES ('b', '2')")
        raise RuntimeError("boom")

    with pytest.raises(RuntimeError):
        await db.write(insert_then_fail)
    rows = await fetchall(db, "SELECT key FROM bot_meta ORDER BY key")
    assert [r[0] for r in rows] == ["a"]


async def test_fifty_concurrent_transactions_never_interleave(db):
    """Each task reads a counter and writes it back plus one: lost updates would show if
    two transactions shared the connection."""
    await execute(db, "INSERT INTO bot_meta VALUES ('counter', '0')")
    inside = 0
    overlaps = 0

    async def bump(conn: Conn) -> None:
        nonlocal inside, overlaps
        inside += 1
        overlaps = max(overlaps, inside)
        row = await conn.fetchone("SELECT value FROM bot_meta WHERE key = 'counter'")
        await conn.execute(
            "UPDATE bot_meta SET value = ? WHERE key = 'counter'", (str(int(row[0]) + 1),)
        )
        inside -= 1

    await asyncio.gather(*(db.write(bump) for _ in range(50)))
    assert overlaps == 1
    assert (await fetchone(db, "SELECT value FROM bot_meta WHERE key='counter'"))[0] == "50"


async def test_a_write_that_waits_for_something_else_is_refused_and_rolled_back(db):
    """A write function may await only its connection: one that yields to the loop (a
    Discord call, a sleep) would keep the transaction open across other tasks' work."""

    async def insert_then_sleep(conn: Conn) -> None:
        await conn.execute("INSERT INTO bot_meta VALUES ('ghost', '1')")
        await asyncio.sleep(0)

    with pytest.raises(Waited):
        await db.write(insert_then_sleep)
    assert await fetchone(db, "SELECT 1 FROM bot_meta WHERE key = 'ghost'") is None
    await execute(db, "INSERT INTO bot_meta VALUES ('after', '1')")  # the writer is free


async def test_migrations_from_empty_reach_latest_and_are_idempotent(db_path):
    db = await SqliteDatabase.open(db_path)
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
    db = await SqliteDatabase.open(tmp_path / "m.sqlite3")
    try:
        with pytest.raises(MigrationError, match=r"0002_two\.sql"):
            await migrate(db, folder)
        assert await current_level(db) == 1
        tables = {r[0] for r in await fetchall(db, "SELECT name FROM sqlite_master")}
        assert "one" in tables and "two" not in tables
    finally:
        await db.close()


async def test_backup_is_a_consistent_copy(db, tmp_path: Path):
    await execute(db, "INSERT INTO bot_meta VALUES ('k', 'v')")
    target = tmp_path / "backup" / "copy.sqlite3"
    await db.backup(target)
    with sqlite3.connect(target) as copy:
        assert copy.execute("SELECT value FROM bot_meta").fetchone() == ("v",)
        assert copy.execute("PRAGMA user_version").fetchone()[0] == latest_level()


async def test_writes_and_reads_run_together_without_losing_a_write(db):
    """Writes on the loop's thread and reads on the reader's, all at once: no write is
    lost, and a raising write rolls its own rows back and leaves the writer free."""
    await execute(db, "INSERT INTO bot_meta VALUES ('counter', '0')")

    async def bump(conn: Conn) -> None:
        row = await conn.fetchone("SELECT value FROM bot_meta WHERE key = 'counter'")
        await conn.execute(
            "UPDATE bot_meta SET value = ? WHERE key = 'counter'", (str(int(row[0]) + 1),)
        )

    async def fail(conn: Conn) -> None:
        await conn.execute("INSERT INTO bot_meta VALUES ('ghost', '1')")
        raise ValueError("refused")

    jobs = []
    for _ in range(40):
        jobs += [db.write(bump), fetchall(db, "SELECT * FROM bot_meta")]
    await asyncio.gather(*jobs)
    with pytest.raises(ValueError):
        await db.write(fail)
    assert (await fetchone(db, "SELECT value FROM bot_meta WHERE key='counter'"))[0] == "40"
    assert await fetchone(db, "SELECT 1 FROM bot_meta WHERE key='ghost'") is None
    await db.write(bump)  # the failed transaction was rolled back: the writer goes on
    assert (await fetchone(db, "SELECT value FROM bot_meta WHERE key='counter'"))[0] == "41"


async def test_checkpointer_copies_the_wal_into_the_database_file(tmp_path: Path):
    """Commits never checkpoint (the writer's wal_autocheckpoint is 0): the checkpointer
    thread copies committed pages into the main file. Proof: a copy of the main file
    alone, without its -wal, already holds rows committed a moment ago."""
    db = await SqliteDatabase.open(tmp_path / "c.sqlite3")
    try:
        await migrate(db)

        async def write(c: Conn, n: int) -> None:
            await c.execute("INSERT INTO bot_meta VALUES (?, ?)", (f"k{n}", "x" * 500))

        for n in range(200):
            await db.write(write, n)
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


async def test_a_read_never_sees_an_uncommitted_write(db):
    """The reader (the restore after a failed write reads through it) runs on its own
    thread: made to read while a write is open, it still sees the committed value."""
    await execute(db, "INSERT INTO bot_meta VALUES ('seen', '1')")
    started, go, done = threading.Event(), threading.Event(), threading.Event()
    seen: list[str] = []

    async def read_when_told(conn: Conn) -> None:
        started.set()
        go.wait(5)
        row = await conn.fetchone("SELECT value FROM bot_meta WHERE key = 'seen'")
        seen.append(row[0])
        done.set()

    reading = asyncio.ensure_future(db.read(read_when_told))
    while not started.is_set():
        await asyncio.sleep(0.001)

    async def change_then_fail(conn: Conn) -> None:
        await conn.execute("UPDATE bot_meta SET value = '2' WHERE key = 'seen'")
        go.set()  # the reader reads now, while this write is open
        assert done.wait(5)
        raise RuntimeError("refused")

    with pytest.raises(RuntimeError):
        await db.write(change_then_fail)
    await reading
    assert seen == ["1"]
    assert (await fetchone(db, "SELECT value FROM bot_meta WHERE key='seen'"))[0] == "1"
    assert await fetchone(db, "SELECT value FROM bot_meta WHERE key='nope'") is None


async def test_the_reader_cannot_write(db):
    """``read`` is read-only: a write through it is refused by SQLite."""
    with pytest.raises(sqlite3.OperationalError, match="readonly"):
        await db.read(lambda c: c.execute("INSERT INTO bot_meta VALUES ('x', '1')"))
    assert await fetchone(db, "SELECT 1 FROM bot_meta WHERE key = 'x'") is None


async def test_insert_returning_commits(db):
    """``fetchone`` of an INSERT ... RETURNING gives the id and lets the COMMIT through."""

    async def insert(conn: Conn) -> int:
        row = await conn.fetchone("INSERT INTO bot_meta VALUES ('r', '1') RETURNING rowid")
        return int(row[0])

    assert await db.write(insert) > 0
    assert (await fetchone(db, "SELECT value FROM bot_meta WHERE key = 'r'"))[0] == "1"
