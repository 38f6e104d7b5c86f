"""A move's commit writes as few database pages as it can: the WAL frames are counted.

Every page a commit dirties is written to the WAL at commit, and a move commits on the
event loop's thread: a page is ~4 KiB of I/O per move."""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable
from pathlib import Path

from bot.db import SqliteDatabase, migrate
from bot.db.sqlite import run_on
from bot.tables.store import MoveRecord, write_row

FRAME = 4096 + 24  # a WAL frame: one page and its header


async def migrated(tmp_path: Path) -> sqlite3.Connection:
    """A migrated database file on a plain connection that never checkpoints by itself."""
    path = tmp_path / "pages.sqlite3"
    db = await SqliteDatabase.open(path)
    await migrate(db)
    await db.close()
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA wal_autocheckpoint=0")
    return conn


def frames_written(conn: sqlite3.Connection, path: str, work: Callable[[], object]) -> int:
    """How many WAL frames one transaction doing ``work`` appends."""
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    before = os.path.getsize(path + "-wal")
    conn.execute("BEGIN IMMEDIATE")
    work()
    conn.execute("COMMIT")
    return (os.path.getsize(path + "-wal") - before) // FRAME


def record(
    version: int, state: str, at: float, closing: bool, interaction: int, action: str
) -> MoveRecord:
    """A move of table 7 by user 3, its snapshot replacing the one before."""
    return MoveRecord(
        guild_id=1,
        table_id=7,
        version=version,
        user_id=3,
        interaction_id=interaction,
        action_json=action,
        at=at,
        since=version - 1,
        state_json=state,
        closing=closing,
    )


async def test_a_move_rewrites_only_the_table_row_and_its_action(tmp_path: Path) -> None:
    conn = await migrated(tmp_path)
    path = str(tmp_path / "pages.sqlite3")
    for n in range(1, 51):
        conn.execute(
            "INSERT INTO tables (id, guild_id, channel_id, game, host_id, settings, state,"
            " created_at, updated_at) VALUES (?, 1, ?, 'classic', 1, '{}', '{}', 0, 0)",
            (n, n),
        )

    def move() -> None:
        run_on(conn, write_row, record(1, '{"x":1}', 1.0, False, 42, '{"kind":"hit"}'))

    # the table row's page, the action row's page, its two index pages (interaction_id,
    # table/version): the two partial indexes on tables.status are not touched
    assert frames_written(conn, path, move) == 4
    assert conn.execute("SELECT version, status FROM tables WHERE id = 7").fetchone() == (1, "open")
    conn.execute("BEGIN IMMEDIATE")
    run_on(conn, write_row, record(2, '{"x":2}', 2.0, True, 43, '{"kind":"close"}'))
    conn.execute("COMMIT")
    row = conn.execute("SELECT version, status, closed_at FROM tables WHERE id = 7").fetchone()
    assert row == (2, "closed", 2.0)
    assert conn.execute("SELECT COUNT(*) FROM tables WHERE status = 'open'").fetchone() == (49,)


async def test_an_escrow_balance_change_leaves_the_leaderboard_index_alone(
    tmp_path: Path,
) -> None:
    conn = await migrated(tmp_path)
    path = str(tmp_path / "pages.sqlite3")
    conn.execute("INSERT INTO bank_guilds (guild_id) VALUES (1)")
    seat = conn.execute(
        "INSERT INTO bank_accounts (guild_id, kind, table_id, user_id, balance)"
        " VALUES (1, 'seat', 5, 9, 100)"
    ).lastrowid
    player = conn.execute(
        "INSERT INTO bank_accounts (guild_id, kind, table_id, user_id, balance)"
        " VALUES (1, 'player', 0, 9, 100)"
    ).lastrowid
    change = "UPDATE bank_accounts SET balance = balance + 1 WHERE id = ?"
    assert frames_written(conn, path, lambda: conn.execute(change, (seat,))) == 1  # the row only
    # a player's wallet: the row and its leaderboard entry
    assert frames_written(conn, path, lambda: conn.execute(change, (player,))) == 2
    plan = conn.execute(
        "EXPLAIN QUERY PLAN SELECT user_id, balance FROM bank_accounts WHERE guild_id = ?"
        " AND kind = 'player' AND balance > 0 ORDER BY balance DESC, user_id LIMIT ?",
        (1, 10),
    ).fetchall()
    assert "bank_accounts_leaderboard" in str(plan)
