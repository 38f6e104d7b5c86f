"""Two bot processes on one PostgreSQL database, each serving half the shards (so half the
servers: split_crash_child.py), are SIGKILLed at random, either of them, while they play
rounds and admins decide held claims, and restarted; between some restarts the split
changes, a rolling restart: the restarted process takes shards the other still serves
until its own restart, so a server's open tables move to the other process, which loads
and plays them on while the old one may still hold a copy (its writes are then refused
and it reloads). After every kill, with the other process still playing: the audit is
clean, no posting or action is there twice, every table's log and row agree and replay,
closed tables hold nothing, and every claim was decided once, exactly (paid by one entry
of its amount, or rejected by one; the claims account holds the open ones). Each restart
checks what it loaded (the child). At the end one process takes every shard, closes every
table, and every claim is collected or decided: nothing is left anywhere but in the
players' balances and the treasuries, whose sum is what was minted. The checks read every
account of a table whatever its kind, so money a table holds for the house (a float drawn
from the treasury, its fills and credits) is checked like its seats and pot."""

from __future__ import annotations

import asyncio
import os
import random
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from bot.bank import Bank, audit, proof
from bot.db import Conn, migrate, open_database
from bot.tables import TableService
from tests.bank_audit import assert_audit_clean
from tests.conftest import NEEDS_PG
from tests.e2e.test_crash_recovery import check_database, stop
from tests.sql import fetchone
from tests.tables.split_crash_child import ADMINS, CLAIM_LIMIT, GUILDS, PLAYERS, SHARD_COUNT

CHILD = Path(__file__).with_name("split_crash_child.py")
ROOT = Path(__file__).parents[2]
# the two processes' halves of the shards, in turn: each change moves two shards' servers
SPLITS = (((0, 1), (2, 3)), ((1, 2), (3, 0)), ((2, 3), (0, 1)), ((3, 0), (1, 2)))


@dataclass
class Loop:
    url: str
    tmp: Path
    rng: random.Random
    runs: int = 0
    split: int = 0  # index in SPLITS of the newest split
    shards: list[tuple[int, ...]] = field(default_factory=lambda: list(SPLITS[0]))
    children: list[subprocess.Popen[bytes] | None] = field(default_factory=lambda: [None, None])
    started: list[subprocess.Popen[bytes]] = field(default_factory=list)  # all, to end them
    kills: int = 0
    moved: int = 0  # restarts that took over shards the other process served
    reloads: int = 0  # stale copies the processes found and reloaded (the other wrote)
    interrupted: Counter[str] = field(default_factory=Counter)

    def mark(self, who: int) -> Path:
        return self.tmp / f"process{who}.step"

    def start(self, who: int) -> None:
        """Start process ``who`` on its shards; it checks what it loaded first."""
        self.runs += 1
        child = subprocess.Popen(
            [
                sys.executable,
                str(CHILD),
                self.url,
                str(SHARD_COUNT),
                ",".join(map(str, self.shards[who])),
                str(self.runs),
                str(self.mark(who)),
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )
        self.started.append(child)
        assert child.stdout is not None
        line = child.stdout.readline().decode().strip()
        if not line.startswith("ready "):
            raise AssertionError(f"process {who} failed to start: {line}\n{stop(child)[-3000:]}")
        self.children[who] = child

    def kill(self, who: int) -> None:
        """SIGKILL process ``who`` (it must still be playing)."""
        child = self.children[who]
        assert child is not None
        if child.poll() is not None:
            out = child.stdout.read().decode() if child.stdout else ""
            raise AssertionError(f"process {who} stopped by itself: {out}\n{stop(child)[-3000:]}")
        stop(child)
        self.children[who] = None
        self.kills += 1
        mark = self.mark(who)
        self.interrupted[mark.read_text() if mark.exists() else "?"] += 1
        reloads = mark.with_suffix(".reloads")
        if reloads.exists():
            self.reloads += int(reloads.read_text())
            reloads.unlink()

    def restart(self, who: int) -> None:
        """Start ``who`` again, sometimes on the next split (the other keeps its shards
        until its own restart: for a while both serve some of them)."""
        if self.rng.random() < 0.4:
            self.split = (self.split + 1) % len(SPLITS)
        new = SPLITS[self.split][who]
        self.moved += bool(set(new) - set(self.shards[who]))
        self.shards[who] = new
        self.start(who)


async def prepare(url: str) -> None:
    db = await open_database(url)
    try:
        await migrate(db)
        bank = Bank(db)
        for guild in GUILDS:
            await bank.ensure_guild(guild)
            await bank.configure_guild(guild, claim_approval_limit=CLAIM_LIMIT)
            for player in PLAYERS:  # enough for every buy-in the loop asks
                await bank.mint(guild, 100_000, user_id=player)
    finally:
        await db.close()


async def check_claims(c: Conn) -> Counter[str]:
    """Every claim decided once, exactly: a paid one by its payment entry (one entry of the
    sum of the claims it names), a rejected one by one entry of its amount back to the
    treasury; none both. The claims by status."""
    rows = await c.fetchall(
        "SELECT id, amount, status, paid_entry_id, rejected_entry_id FROM bank_claims"
    )
    by_payment: dict[int, int] = {}
    for claim_id, amount, status, paid, rejected in rows:
        assert (status == "paid") == (paid is not None), (claim_id, status, paid)
        assert (status == "rejected") == (rejected is not None), (claim_id, status, rejected)
        if paid is not None:
            by_payment[paid] = by_payment.get(paid, 0) + amount
    payments = await c.fetchall(
        "SELECT e.id, SUM(p.amount) FROM bank_entries e JOIN bank_postings p"
        " ON p.entry_id = e.id WHERE p.amount > 0 AND e.kind = 'claim_paid' GROUP BY e.id"
    )
    assert dict(payments) == by_payment, "a payment that is not exactly the claims it names"
    rejected = await c.fetchall(
        "SELECT c.id, c.amount, SUM(p.amount) FROM bank_claims c JOIN bank_postings p"
        " ON p.entry_id = c.rejected_entry_id WHERE p.amount > 0 GROUP BY c.id, c.amount"
    )
    assert all(amount == back for _, amount, back in rejected), rejected
    row = await c.fetchone(
        "SELECT COUNT(*) FROM bank_entries WHERE idem_key LIKE 'claim_rejected:%'"
    )
    assert row is not None and row[0] == len(rejected), "a rejection posted twice"
    return Counter(str(r[2]) for r in rows)


async def check_snapshot(c: Conn) -> Counter[str]:
    """What must hold at every moment, in one snapshot (the other process writes on): a
    clean audit, no action twice, each table's row at most as new as its log (a closed
    one at its last move), closed tables holding nothing, the claims decided once."""
    report = (await proof.prove(c, None, True)).report  # the full proof, in this snapshot
    assert report.ok, report.format()
    row = await c.fetchone(
        "SELECT COUNT(*) FROM (SELECT table_id, version FROM table_actions"
        " GROUP BY table_id, version HAVING COUNT(*) > 1) AS twice"
    )
    assert row is not None and row[0] == 0, "an action was applied twice"
    row = await c.fetchone(
        "SELECT COUNT(*) FROM tables t WHERE version >"
        " (SELECT COALESCE(MAX(version), 0) FROM table_actions a WHERE a.table_id = t.id)"
        " OR (status = 'closed' AND version !="
        " (SELECT MAX(version) FROM table_actions a WHERE a.table_id = t.id))"
    )
    assert row is not None and row[0] == 0, "a table's version and its action log disagree"
    left = await c.fetchall(
        "SELECT a.table_id, SUM(a.balance) FROM bank_accounts a JOIN tables t"
        " ON t.id = a.table_id WHERE t.status = 'closed' GROUP BY a.table_id"
        " HAVING SUM(a.balance) != 0"
    )
    assert not left, f"closed tables still hold money: {left}"
    return await check_claims(c)


async def wind_up(url: str) -> Counter[str]:
    """One process with every shard closes every table; every player collects, every held
    claim is approved: the money is all in balances and treasuries."""
    db = await open_database(url)
    try:
        bank = Bank(db)
        service = TableService(db, bank, clock=time.time)
        for table in await service.load_open_tables():
            await service.close_table(table.id, None, "host")
        for guild in GUILDS:
            for p in PLAYERS:
                await bank.claim(guild, p)
            for line in await bank.claims(guild, None, statuses=["held"]):
                await bank.approve_claim(guild, line.claim_id, ADMINS[0])
        await assert_audit_clean(db)
        report = await audit(db)
        statuses = await db.read(check_snapshot)
        assert set(statuses) <= {"paid", "rejected"}, statuses
        row = await fetchone(
            db,
            "SELECT COALESCE(SUM(balance), 0) FROM bank_accounts"
            " WHERE kind NOT IN ('issuer', 'house', 'player')",
        )
        assert row is not None and row[0] == 0, "money left in escrows or claims"
        row = await fetchone(
            db,
            "SELECT COALESCE(SUM(balance), 0) FROM bank_accounts WHERE kind IN ('house', 'player')",
        )
        assert row is not None and row[0] == report.minted - report.burned
        return statuses
    finally:
        await db.close()


async def split_crash_loop(url: str, tmp: Path, kills: int, seed: int) -> Loop:
    await prepare(url)
    loop = Loop(url, tmp, random.Random(seed))
    try:
        for who in (0, 1):
            await asyncio.to_thread(loop.start, who)
        for _ in range(kills):
            await asyncio.sleep(loop.rng.uniform(0.2, 1.2))
            who = loop.rng.randrange(2)
            await asyncio.to_thread(loop.kill, who)
            db = await open_database(url)
            try:  # the other process plays on meanwhile
                await db.read(check_snapshot)
            finally:
                await db.close()
            await asyncio.to_thread(loop.restart, who)
        for who in (0, 1):
            await asyncio.to_thread(loop.kill, who)
    finally:
        for child in loop.started:
            if child.returncode is None:
                stop(child)
    await check_database(url)
    statuses = await wind_up(url)
    print(
        f"\nsplit crash loop: {loop.kills} kills, {loop.moved} restarts took over shards,"
        f" {loop.reloads} stale copies reloaded,"
        f" split changed to #{loop.split}; claims {dict(statuses)};"
        f" killed during: {dict(loop.interrupted)}"
    )
    return loop


@NEEDS_PG
@pytest.mark.slow
async def test_two_processes_killed_at_random_lose_nothing(database_url: str, tmp_path) -> None:
    loop = await split_crash_loop(database_url, tmp_path, kills=30, seed=35)
    assert loop.moved >= 3  # servers' tables did move between the processes
    assert loop.reloads > 0  # while both held a copy: the old one's writes were refused
    assert sum(n for what, n in loop.interrupted.items() if what != "start") >= 20


@pytest.fixture
def backend() -> str:
    return "postgresql"
