"""Crash safety: SIGKILL a process in the middle of a burst of postings, many times; the
ledger stays balanced, the audit clean, and game rows match their postings (on both
databases: on PostgreSQL the server rolls the killed client's transaction back)."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from bot.bank import Bank, audit
from bot.db import Conn, migrate, open_database
from tests.sql import fetchall, fetchone

GUILD = 1001
CHILD = Path(__file__).with_name("crash_child.py")


async def _prepare(path: str) -> None:
    db = await open_database(path)
    await migrate(db)
    bank = Bank(db)
    await bank.ensure_guild(GUILD)
    for player in range(1, 7):
        await bank.mint(GUILD, 1_000_000, user_id=player)
    # every seat's welcome stake and every win come from the treasury: enough for the
    # thousands of tables the children open (a write takes no thread hop since fa08466)
    await bank.mint(GUILD, 10**12)

    async def _tx(conn: Conn) -> Any:
        await conn.execute("CREATE TABLE crash_games (table_id INTEGER PRIMARY KEY, state TEXT)")

    await db.write(_tx)
    await db.close()


def _kill_once(path: str, run: int, rng: random.Random) -> None:
    child = subprocess.Popen(
        [sys.executable, str(CHILD), path, str(run), str(rng.randrange(2**32))],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).parents[2])},
    )
    assert child.stdout is not None and child.stderr is not None
    try:
        line = child.stdout.readline()
        if line.strip() != b"ready":
            child.kill()
            raise AssertionError(f"child failed: {line!r} {child.stderr.read()!r}")
        time.sleep(rng.uniform(0.0, 0.25))
        assert child.poll() is None, child.stderr.read()
        child.send_signal(signal.SIGKILL)
    finally:
        child.wait(10)
        for stream in (child.stdout, child.stderr):
            if stream is not None:
                stream.close()


async def _check(path: str) -> tuple[int, int]:
    db = await open_database(path)
    try:
        report = await audit(db)
        assert report.ok, report.format()
        if db.dialect == "sqlite":
            row = await fetchone(db, "PRAGMA integrity_check")
            assert row is not None and row[0] == "ok"
        games = {r[0] for r in await fetchall(db, "SELECT table_id FROM crash_games")}
        joined = {
            r[0]
            for r in await fetchall(
                db, "SELECT DISTINCT table_id FROM bank_entries WHERE idem_key LIKE '%:join:%'"
            )
        }
        assert games == joined  # a game row exists exactly when its join was posted
        closed = {
            r[0]
            for r in await fetchall(db, "SELECT table_id FROM crash_games WHERE state = 'closed'")
        }
        left = await fetchall(
            db,
            "SELECT a.table_id, SUM(a.balance) FROM bank_accounts a WHERE a.kind IN"
            " ('seat', 'pot') GROUP BY a.table_id",
        )
        for table_id, held in left:
            assert table_id not in closed or held == 0, (table_id, held)
        return report.entries, len(games)
    finally:
        await db.close()


async def _run(path: str, kills: int, seed: int) -> None:
    await _prepare(path)
    rng = random.Random(seed)
    entries = 0
    for run in range(1, kills + 1):
        await asyncio.to_thread(_kill_once, path, run, rng)
        now, _ = await _check(path)
        assert now > entries  # the child got some work done before dying
        entries = now


async def test_sigkill_during_postings(database_url: str) -> None:
    await _run(database_url, kills=20, seed=20240601)


@pytest.mark.slow
async def test_sigkill_during_postings_long(database_url: str) -> None:
    await _run(database_url, kills=150, seed=7)
