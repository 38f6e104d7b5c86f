"""Crash safety of the tables: a child process runs the real bot under SimCord playing
several tables at once; it is SIGKILLed at random moments and restarted on the same
database (and the same virtual Discord) each time. After every kill: a clean audit, no
posting or action twice, closed tables with nothing left in escrow; after every restart
(checked by the child, see crash_child.py): every open table reloaded with seat escrows
equal to its engine's stacks. On both databases (the PostgreSQL half: a schema of its own,
and the same checks but SQLite's page check)."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from bot.bank import Bank, audit
from bot.db import open_database
from bot.tables import TableService
from tests.sql import fetchall, fetchone

CHILD = Path(__file__).with_name("crash_child.py")
ROOT = Path(__file__).parents[2]


@dataclass
class Stats:
    kills: int = 0
    recoveries: list[float] = field(default_factory=list)  # bot start to READY + restored
    with_open_tables: int = 0  # restarts that found tables to go on with
    closed_by_restart: int = 0  # tables a restart closed (thread or message lost)
    steps_killed_mid_game: int = 0  # kills while at least one table was open
    interrupted: Counter[str] = field(default_factory=Counter)  # the step in flight


def start_child(db: str, world: Path, seed: int) -> tuple[subprocess.Popen[bytes], str]:
    child = subprocess.Popen(
        [sys.executable, str(CHILD), db, str(world), str(seed)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert child.stdout is not None
    line = child.stdout.readline().decode().strip()
    return child, line


def stop(child: subprocess.Popen[bytes]) -> str:
    if child.poll() is None:
        child.send_signal(signal.SIGKILL)
    child.wait(10)
    err = child.stderr.read().decode(errors="replace") if child.stderr else ""
    for stream in (child.stdout, child.stderr):
        if stream is not None:
            stream.close()
    return err


def run_once(
    db: str, world: Path, seed: int, rng: random.Random, stats: Stats, *, last: bool = False
) -> None:
    """Start the child (it checks the restart), let it play a random while, SIGKILL it."""
    child, line = start_child(db, world, seed)
    try:
        assert line.startswith("ready "), f"child failed: {line!r}"
        _, recovery, opened, _closed, closed_now = line.split()
        stats.recoveries.append(float(recovery))
        stats.with_open_tables += int(opened) > 0
        stats.closed_by_restart += int(closed_now)
        time.sleep(rng.uniform(0.05, 0.8))
        assert child.poll() is None, "the child stopped by itself"
    except BaseException:
        err = stop(child)
        raise AssertionError(f"{line}\n{err[-3000:]}") from None
    stop(child)
    if last:
        return
    stats.kills += 1
    step = world.with_suffix(".step")
    stats.interrupted[step.read_text() if step.exists() else "?"] += 1


async def check_database(url: str) -> int:
    """After a kill: returns the number of open tables."""
    db = await open_database(url)
    try:
        report = await audit(db)
        assert report.ok, report.format()
        if db.dialect == "sqlite":
            row = await fetchone(db, "PRAGMA integrity_check")
            assert row is not None and row[0] == "ok"
        row = await fetchone(db, "SELECT COUNT(*), COUNT(DISTINCT idem_key) FROM bank_entries")
        assert row is not None and row[0] == row[1], "a posting appears twice"
        row = await fetchone(
            db,
            "SELECT COUNT(*) FROM (SELECT table_id, version FROM table_actions"
            " GROUP BY table_id, version HAVING COUNT(*) > 1) AS twice",
        )
        assert row is not None and row[0] == 0, "an action was applied twice"
        # the row holds a snapshot at most as new as the log (the moves after it are only
        # logged); a closed table's is its last move
        row = await fetchone(
            db,
            "SELECT COUNT(*) FROM tables t WHERE version >"
            " (SELECT COALESCE(MAX(version), 0) FROM table_actions a WHERE a.table_id = t.id)"
            " OR (status = 'closed' AND version !="
            " (SELECT MAX(version) FROM table_actions a WHERE a.table_id = t.id))",
        )
        assert row is not None and row[0] == 0, "a table's version and its action log disagree"
        logged = dict(
            await fetchall(db, "SELECT table_id, MAX(version) FROM table_actions GROUP BY table_id")
        )
        service = TableService(db, Bank(db), clock=time.time)
        for table in await service.load_open_tables():  # snapshot + log replayed
            assert table.version == logged[table.id], "a load did not replay the whole log"
        rows = await fetchall(
            db,
            "SELECT a.table_id, SUM(a.balance) FROM bank_accounts a JOIN tables t"
            " ON t.id = a.table_id WHERE t.status = 'closed' AND a.kind IN ('seat', 'pot', 'fund')"
            " GROUP BY a.table_id HAVING SUM(a.balance) != 0",
        )
        assert not rows, f"closed tables still hold money: {rows}"
        row = await fetchone(db, "SELECT COUNT(*) FROM tables WHERE status = 'open'")
        return int(row[0]) if row else 0
    finally:
        await db.close()


async def crash_loop(database_url: str, tmp_path: Path, kills: int, seed: int) -> Stats:
    db, world = database_url, tmp_path / "world.pkl"
    rng = random.Random(seed)
    stats = Stats()
    for n in range(kills):
        await asyncio.to_thread(run_once, db, world, seed * 1000 + n, rng, stats)
        if "://" in db or Path(db).exists():
            stats.steps_killed_mid_game += await check_database(db) > 0
    # one last restart: the child's own checks on what the last kill left
    await asyncio.to_thread(run_once, db, world, seed * 1000 + kills, rng, stats, last=True)
    print(
        f"\ncrash loop: {stats.kills} kills ({stats.steps_killed_mid_game} with open"
        f" tables), {stats.with_open_tables} restarts went on with open tables,"
        f" {stats.closed_by_restart} tables closed by a restart,"
        f" longest recovery {max(stats.recoveries):.3f} s"
        f" (median {sorted(stats.recoveries)[len(stats.recoveries) // 2]:.3f} s);"
        f" {len(stats.interrupted)} distinct kill points: {dict(stats.interrupted)}"
    )
    return stats


async def test_sigkill_at_random_moments(database_url: str, tmp_path: Path) -> None:
    stats = await crash_loop(database_url, tmp_path, kills=10, seed=11)
    assert stats.with_open_tables >= 3  # the kills did interrupt games in progress


@pytest.mark.slow
async def test_sigkill_at_random_moments_long(tmp_path: Path) -> None:
    stats = await crash_loop(str(tmp_path / "tables.sqlite3"), tmp_path, kills=50, seed=50)
    assert stats.with_open_tables >= 20
