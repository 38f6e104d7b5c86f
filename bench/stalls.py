"""Database stalls: the worst event-loop stall under each database condition, and the
/bank reads while an audit runs (issue 37).

``python -m bench stalls [--only lock,checkpoint,backup,audit] [--entries 100000,1000000]
[--seconds 20] [--dir PATH]``

A ticker sleeps 1 ms at a time beside the work; its worst lateness is the longest the loop
was held at a stretch (a move arriving then waits that long). Each case on an SQLite file:

- first, the loop alone for 5 s: the machine's own stalls (other processes on the cores,
  the disk), the floor under every other figure;
- ``lock``: another process (a child ``sqlite3``) holds the write lock 1 s, then 6 s,
  while a transfer is asked every 5 ms (200/s, each its own task, as interactions are):
  the worst stall, the slowest answered write, and how many were refused or failed.
- ``checkpoint``: transfers back to back (one loop turn between two) for ``--seconds``:
  the worst stall and the largest the WAL grew.
- ``backup``: an online backup of the ledger of ``--entries`` (the largest) while
  transfers are asked at 200/s: its time and the worst stall.
- ``audit``: an audit of ``--entries`` while ``/bank balance`` is asked every 10 ms (what
  the command runs: the account opened if need be, a write on the loop, then the open
  claims, a read): the audit's time, the balances' p50/p99/max and the worst stall.

The ledger is made once per size in ``--dir`` (transfers back and forth between player
accounts: every balance stays true, the audit passes) and copied for each run. Runs on the
code it is imported with: the figures before a change come from the same file run against
a checkout of the older code (``PYTHONPATH=/tmp/old python -m bench.stalls``).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from bot.bank.service import Bank
from bot.db import Database, migrate, open_database

GUILD = 1
PLAYERS = 50
PACE = 0.005  # seconds between two asked transfers (200/s)
HOLDER = """
import sqlite3, sys, time
c = sqlite3.connect(sys.argv[1], isolation_level=None, timeout=30)
c.execute("BEGIN IMMEDIATE")
print("locked", flush=True)
time.sleep(float(sys.argv[2]))
c.execute("COMMIT")
"""


class Ticker:
    """The loop's worst stall: how late a 1 ms sleep woke up, at worst."""

    def __init__(self) -> None:
        self.worst = 0.0
        self.over = 0  # stalls past 50 ms
        self._task: asyncio.Task[None] | None = None
        self._running = False

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        while self._running:
            before = loop.time()
            await asyncio.sleep(0.001)
            late = loop.time() - before - 0.001
            self.worst = max(self.worst, late)
            self.over += late > 0.05

    def start(self) -> None:
        self._running = True
        self._task = asyncio.ensure_future(self._run())

    async def stop(self) -> str:
        """The worst stall, and how many passed 50 ms."""
        self._running = False
        assert self._task is not None
        await self._task
        return f"worst stall {self.worst * 1000:,.0f} ms ({self.over} over 50 ms)"


def ms(seconds: float) -> str:
    return f"{seconds * 1000:,.0f}"


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


async def _open(path: Path) -> tuple[Database, Bank]:
    db = await open_database(str(path))
    await migrate(db)
    bank = Bank(db)
    await bank.ensure_guild(GUILD, starting_balance=1_000)
    for user in range(1, PLAYERS + 1):
        await bank.open_account(GUILD, user)
    return db, bank


def fill(path: Path, entries: int) -> None:
    """Add ``entries`` transfers back and forth between players 1 and 2, in raw SQL."""
    c = sqlite3.connect(path, isolation_level=None)
    ids = [
        row[0]
        for row in c.execute(
            "SELECT id FROM bank_accounts WHERE guild_id = ? AND kind = 'player'"
            " AND user_id IN (1, 2) ORDER BY user_id",
            (GUILD,),
        )
    ]
    first = c.execute("SELECT COALESCE(MAX(id), 0) FROM bank_entries").fetchone()[0] + 1
    c.execute("BEGIN")
    step = 50_000
    for start in range(0, entries, step):
        n = range(first + start, first + min(entries, start + step))
        c.executemany(
            "INSERT INTO bank_entries (id, guild_id, kind, idem_key) VALUES (?, ?, 'transfer', ?)",
            ((i, GUILD, f"fill:{i}") for i in n),
        )
        c.executemany(
            "INSERT INTO bank_postings (entry_id, account_id, amount) VALUES (?, ?, ?)",
            (
                (i, account, amount)
                for i in n
                for account, amount in ((ids[i % 2], -1), (ids[1 - i % 2], 1))
            ),
        )
    c.execute("COMMIT")
    c.close()


async def ledger(folder: Path, entries: int) -> Path:
    """A database with ``entries`` more ledger entries, made once and kept in ``folder``."""
    kept = folder / f"ledger-{entries}.sqlite3"
    if not kept.exists():
        db, _bank = await _open(kept)
        await db.close()
        fill(kept, entries)
    return kept


def copy_of(source: Path, folder: Path) -> Path:
    target = folder / f"run-{source.name}"
    for suffix in ("", "-wal", "-shm"):
        Path(f"{target}{suffix}").unlink(missing_ok=True)
    shutil.copyfile(source, target)
    return target


def refusal(exc: BaseException) -> str:
    """``refused`` for the bound's refusal, else the error's kind (the old code's)."""
    return "refused" if type(exc).__name__ == "Busy" else f"{type(exc).__name__}: {exc}"


async def paced(
    bank: Bank,
    until: Callable[[], bool],
    latencies: list[float],
    errors: dict[str, int],
    refused: list[float] | None = None,
) -> None:
    """A transfer asked every PACE seconds, each its own task, until ``until()``; the time
    to each answer in ``latencies`` (or ``refused``, with the errors counted by kind)."""
    refused = [] if refused is None else refused
    loop = asyncio.get_running_loop()
    tasks: list[asyncio.Task[None]] = []
    n = 0

    async def one(i: int) -> None:
        asked = loop.time()
        try:
            await bank.transfer(GUILD, 1 + i % 2, 2 - i % 2, 1)
        except Exception as exc:
            key = refusal(exc)
            errors[key] = errors.get(key, 0) + 1
            refused.append(loop.time() - asked)
            return
        latencies.append(loop.time() - asked)

    while not until():
        tasks.append(asyncio.ensure_future(one(n)))
        n += 1
        await asyncio.sleep(PACE)
    await asyncio.gather(*tasks)


async def case_idle(seconds: float) -> None:
    """The machine's own stalls (other processes on the cores): the floor of the others."""
    ticker = Ticker()
    ticker.start()
    await asyncio.sleep(seconds)
    print(f"idle loop ({seconds:g} s, no database): {await ticker.stop()}")


async def case_lock(folder: Path, hold: float) -> None:
    db, bank = await _open(copy_of(await ledger(folder, 0), folder))
    ticker, latencies, errors, refused = Ticker(), [], {}, []
    ticker.start()
    loop = asyncio.get_running_loop()
    end = loop.time() + hold + 1.5
    until = lambda: loop.time() > end  # noqa: E731
    writer = asyncio.ensure_future(paced(bank, until, latencies, errors, refused))
    await asyncio.sleep(0.3)
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, db.path, str(hold)], stdout=subprocess.PIPE, text=True
    )
    await loop.run_in_executor(None, holder.stdout.readline)  # type: ignore[union-attr]
    await writer
    await loop.run_in_executor(None, holder.wait)
    stall = await ticker.stop()
    await db.close()
    print(
        f"lock {hold:g} s: {stall}; {len(latencies)} writes answered,"
        f" slowest {ms(max(latencies))} ms, p99 {ms(pct(latencies, 0.99))} ms;"
        f" not applied: {errors or 'none'}"
        + (f", answered after {ms(max(refused))} ms at most" if refused else "")
    )


async def case_checkpoint(folder: Path, seconds: float) -> None:
    db, bank = await _open(copy_of(await ledger(folder, 0), folder))
    wal = Path(f"{db.path}-wal")
    ticker, biggest, n = Ticker(), 0, 0
    ticker.start()
    loop = asyncio.get_running_loop()
    end = loop.time() + seconds
    while loop.time() < end:
        await bank.transfer(GUILD, 1 + n % 2, 2 - n % 2, 1)
        n += 1
        if n % 100 == 0:
            biggest = max(biggest, wal.stat().st_size if wal.exists() else 0)
        await asyncio.sleep(0)
    stall = await ticker.stop()
    await db.close()
    print(
        f"checkpoints under back-to-back writes ({seconds:g} s): {stall};"
        f" {n / seconds:,.0f} writes/s; WAL at most {biggest / 2**20:,.1f} MiB"
    )


async def case_backup(folder: Path, entries: int) -> None:
    db, bank = await _open(copy_of(await ledger(folder, entries), folder))
    ticker, latencies, errors = Ticker(), [], {}
    done = False
    ticker.start()
    writer = asyncio.ensure_future(paced(bank, lambda: done, latencies, errors))
    target = folder / "backup.sqlite3"
    target.unlink(missing_ok=True)
    started = time.perf_counter()
    await db.backup(target)
    took = time.perf_counter() - started
    done = True
    await writer
    stall = await ticker.stop()
    await db.close()
    print(
        f"backup of {entries:,} entries ({target.stat().st_size / 2**20:,.0f} MiB):"
        f" {took:.1f} s; {stall}; writes beside it p99"
        f" {ms(pct(latencies, 0.99))} ms, max {ms(max(latencies, default=0))} ms"
    )


async def case_audit(folder: Path, entries: int) -> None:
    db, bank = await _open(copy_of(await ledger(folder, entries), folder))
    loop = asyncio.get_running_loop()
    latencies: list[float] = []

    async def balance(user: int) -> None:  # what /bank balance runs for oneself
        asked = loop.time()
        await bank.open_account(GUILD, user)
        await bank.claims(GUILD, user)
        latencies.append(loop.time() - asked)

    ticker = Ticker()
    ticker.start()
    started = time.perf_counter()
    audit = asyncio.ensure_future(bank.audit(GUILD))
    asked: list[asyncio.Task[None]] = []
    while not audit.done():
        asked.append(asyncio.ensure_future(balance(1 + len(asked) % PLAYERS)))
        await asyncio.sleep(0.01)
    report = await audit
    took = time.perf_counter() - started
    await asyncio.gather(*asked)
    stall = await ticker.stop()
    await db.close()
    assert report.ok, report.format()
    print(
        f"audit of {entries:,} entries: {took:.1f} s; {stall};"
        f" {len(latencies)} /bank balance beside it: p50 {ms(statistics.median(latencies))}"
        f" ms, p99 {ms(pct(latencies, 0.99))} ms, max {ms(max(latencies))} ms"
    )


def main(argv: list[str] | None = None) -> int:
    """Run the cases asked for and print one line each."""
    parser = argparse.ArgumentParser(prog="python -m bench stalls", description=__doc__)
    parser.add_argument("--only", default="lock,checkpoint,backup,audit")
    parser.add_argument("--entries", default="100000,1000000")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--dir", type=Path, default=None)
    args = parser.parse_args(argv)
    folder = args.dir or Path(tempfile.gettempdir()) / "croupier-bench-stalls"
    folder.mkdir(parents=True, exist_ok=True)
    sizes = [int(n) for n in args.entries.split(",")]
    only = set(args.only.split(","))
    cases: list[Callable[[], Awaitable[Any]]] = [lambda: case_idle(5.0)]
    if "lock" in only:
        cases += [lambda: case_lock(folder, 1.0), lambda: case_lock(folder, 6.0)]
    if "checkpoint" in only:
        cases.append(lambda: case_checkpoint(folder, args.seconds))
    if "backup" in only:
        cases.append(lambda: case_backup(folder, max(sizes)))
    if "audit" in only:
        cases += [lambda n=n: case_audit(folder, n) for n in sizes]  # type: ignore[misc]
    print(f"python {sys.version.split()[0]}, sqlite {sqlite3.sqlite_version}, pid {os.getpid()}")
    for case in cases:
        asyncio.run(case())
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
