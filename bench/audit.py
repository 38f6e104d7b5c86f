"""Audit benchmark: the bank audit's time by ledger size, full and incremental.

``python -m bench audit [--sizes 100000,1000000] [--new 1000] [--guilds 2] [--db URL]``

For each size a fresh database is filled with a casino's history written straight into the
bank's tables (``fill``: guilds, players, tables of four seats and a pot, buy-ins, bets,
payouts, losses and refunds, every cached balance the sum of its postings), then each
trial runs:

- ``full``: ``python -m bot audit --full``, every entry proved from the first (it records
  a checkpoint);
- ``incremental``: ``--new`` (1,000) more entries written, then ``python -m bot audit``,
  which proves only them against that checkpoint.

Best of ``--trials``, wall and CPU seconds (CPU: this process's, every thread: what the
audit costs on a shared machine). SQLite by default (a WAL file in ``--dir``);
``--db postgresql://...`` fills a fresh schema of that database instead.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sqlite3
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from bot.bank import audit as run_audit
from bot.bank.models import AuditReport
from bot.db import Conn, Database, migrate, open_database

PLAYERS = 2_000  # per guild
SEATS = 4
ENTRIES_PER_TABLE = 50
CHUNK = 20_000

Entry = tuple[int, int, str, str, int | None, int | None]  # id, guild, kind, key, table, round
Posting = tuple[int, int, int, int]  # id, entry, account, amount


class History:
    """A deterministic casino history, generated in order, with its accounts' balances."""

    def __init__(self, guilds: int = 2, seed: int = 1) -> None:
        self.guilds = guilds
        self.rng = random.Random(seed)
        self.accounts: list[tuple[int, int, str, int, int]] = []  # id, guild, kind, table, user
        self.balance: dict[int, int] = {}
        self.system: dict[tuple[int, str], int] = {}
        self.wallets: dict[tuple[int, int], int] = {}
        self.entry_id = 0
        self.posting_id = 0
        self.tables = 0

    def _account(self, guild: int, kind: str, table: int = 0, user: int = 0) -> int:
        account = len(self.accounts) + 1
        self.accounts.append((account, guild, kind, table, user))
        self.balance[account] = 0
        return account

    def _entry(
        self, guild: int, kind: str, src: int, dst: int, amount: int, table: int | None = None
    ) -> tuple[Entry, list[Posting]]:
        self.entry_id += 1
        self.posting_id += 2
        self.balance[src] -= amount
        self.balance[dst] += amount
        entry = (self.entry_id, guild, kind, f"bench:{self.entry_id}", table, None)
        return entry, [
            (self.posting_id - 1, self.entry_id, src, -amount),
            (self.posting_id, self.entry_id, dst, amount),
        ]

    def opening(self) -> Iterator[tuple[Entry, list[Posting]]]:
        """The guilds' system accounts, the treasury's mint and every player's wallet."""
        for g in range(1, self.guilds + 1):
            issuer = self._account(g, "issuer")
            house = self.system[g, "house"] = self._account(g, "house")
            self.system[g, "claims"] = self._account(g, "claims")
            yield self._entry(g, "mint", issuer, house, 10**9)
            for u in range(1, PLAYERS + 1):
                wallet = self.wallets[g, u] = self._account(g, "player", user=u)
                yield self._entry(g, "mint", issuer, wallet, 10_000)

    def table(self) -> Iterator[tuple[Entry, list[Posting]]]:
        """One table's session: buy-ins, rounds of bets settled, the stacks refunded."""
        self.tables += 1
        t, g = self.tables, self.rng.randint(1, self.guilds)
        users = self.rng.sample(range(1, PLAYERS + 1), SEATS)
        seats = [self._account(g, "seat", t, u) for u in users]
        pot, house = self._account(g, "pot", t), self.system[g, "house"]
        for u, s in zip(users, seats, strict=True):
            yield self._entry(g, "buy_in", self.wallets[g, u], s, 100, t)
        for _ in range((ENTRIES_PER_TABLE - 2 * SEATS) // 2):
            s = self.rng.choice(seats)
            bet = self.rng.randint(1, max(1, self.balance[s] // 4)) if self.balance[s] else 0
            if not bet:
                continue
            yield self._entry(g, "bet", s, pot, bet, t)
            if self.rng.random() < 0.5:
                yield self._entry(g, "payout", pot, s, bet, t)
                yield self._entry(g, "payout", house, s, bet, t)
            else:
                yield self._entry(g, "loss", pot, house, bet, t)
        for u, s in zip(users, seats, strict=True):
            if self.balance[s]:
                yield self._entry(g, "refund", s, self.wallets[g, u], self.balance[s], t)

    def entries(self, count: int) -> Iterator[tuple[Entry, list[Posting]]]:
        """The next ``count`` entries (the opening first, then tables, cut anywhere)."""
        produced = 0
        source: Iterator[tuple[Entry, list[Posting]]] = (
            self.opening() if not self.entry_id else iter(())
        )
        while produced < count:
            for item in source:
                yield item
                produced += 1
                if produced == count:
                    return
            source = self.table()


ENTRY_SQL = "INSERT INTO bank_entries (id, guild_id, kind, idem_key, table_id, round_no)"
POSTING_SQL = "INSERT INTO bank_postings (id, entry_id, account_id, amount)"


async def fill(db: Database, history: History, count: int) -> None:
    """Write ``count`` more entries of ``history`` and the balances they leave."""
    written = len(history.accounts)
    chunk: list[tuple[Entry, list[Posting]]] = []
    items = history.entries(count)
    while True:
        chunk = [item for _, item in zip(range(CHUNK), items, strict=False)]
        if not chunk:
            break
        await db.write(_write_chunk, history.accounts[written:], chunk)
        written = len(history.accounts)
    await db.write(_write_balances, history)


async def _write_chunk(
    c: Conn,
    accounts: list[tuple[int, int, str, int, int]],
    chunk: list[tuple[Entry, list[Posting]]],
) -> None:
    guilds = sorted({a[1] for a in accounts})
    await c.executemany(
        "INSERT INTO bank_guilds (guild_id) VALUES (?) ON CONFLICT DO NOTHING",
        [(g,) for g in guilds],
    )
    await c.executemany(
        "INSERT INTO bank_accounts (id, guild_id, kind, table_id, user_id) VALUES (?, ?, ?, ?, ?)",
        accounts,
    )
    await c.executemany(ENTRY_SQL + " VALUES (?, ?, ?, ?, ?, ?)", [e for e, _ in chunk])
    await c.executemany(POSTING_SQL + " VALUES (?, ?, ?, ?)", [p for _, ps in chunk for p in ps])


async def _write_balances(c: Conn, history: History) -> None:
    await c.executemany(
        "UPDATE bank_accounts SET balance = ? WHERE id = ? AND balance <> ?",
        [(b, a, b) for a, b in history.balance.items()],
    )


async def _open_fresh(where: str, size: int, folder: Path) -> Database:
    """A fresh migrated database: a file in ``folder``, or a new schema of ``where``."""
    if not where:
        db = await open_database(folder / f"audit-{size}.sqlite3")
    else:
        import asyncpg

        schema = f"bench_audit_{size}"
        c = await asyncpg.connect(where)
        try:
            await c.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE; CREATE SCHEMA {schema}")
        finally:
            await c.close()
        sep = "&" if "?" in where else "?"
        db = await open_database(f"{where}{sep}search_path={schema}")
    await migrate(db)
    return db


async def _timed(db: Database, full: bool) -> tuple[float, float, AuditReport]:
    wall, cpu = time.perf_counter(), time.process_time()
    report = await run_audit(db, full=full)
    return time.perf_counter() - wall, time.process_time() - cpu, report


async def run(
    where: str, sizes: list[int], new: int, guilds: int, trials: int, folder: Path
) -> None:
    """Print the full and the incremental audit's best seconds for each size."""
    for size in sizes:
        db = await _open_fresh(where, size, folder)
        history = History(guilds)
        try:
            await fill(db, history, size)
            best = {name: (float("inf"), float("inf")) for name in ("full", "incremental")}
            for _ in range(trials):
                *took, full = await _timed(db, True)
                best["full"] = min(best["full"], (took[0], took[1]))
                await fill(db, history, new)
                *took, step = await _timed(db, False)
                best["incremental"] = min(best["incremental"], (took[0], took[1]))
                assert full.ok and step.ok and step.proved == new, (full.format(), step.format())
            (fw, fc), (iw, ic) = best["full"], best["incremental"]
            print(
                f"  {size:>9,} entries, {len(history.accounts):>7,} accounts:"
                f" full {fw:6.2f} s ({1e6 * fw / size:4.1f} us/entry, cpu here {fc:5.2f} s);"
                f" incremental, {new:,} new: {iw:6.3f} s (cpu here {ic:5.3f} s)",
                flush=True,
            )
        finally:
            await db.close()


def main(argv: list[str] | None = None) -> int:
    """Print the audit's time by ledger size."""
    parser = argparse.ArgumentParser(prog="python -m bench audit")
    parser.add_argument("--sizes", default="100000,1000000", help="ledger sizes (entries)")
    parser.add_argument("--new", type=int, default=1000, help="entries after the checkpoint")
    parser.add_argument("--guilds", type=int, default=2, help="guilds sharing the ledger")
    parser.add_argument("--trials", type=int, default=3, help="trials (best one counts)")
    parser.add_argument("--db", default="", help="postgresql:// URL (default: SQLite files)")
    parser.add_argument("--dir", default=None, help="folder for the SQLite files (temp)")
    args = parser.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",")]
    backend = "PostgreSQL" if args.db else f"SQLite {sqlite3.sqlite_version} (WAL)"
    print(
        f"audit bench: {backend}, best of {args.trials}; python {sys.version.split()[0]};"
        f" {args.guilds} guilds, {PLAYERS} players each, {SEATS} seats a table"
    )
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(args.dir) if args.dir else Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        asyncio.run(run(args.db, sizes, args.new, args.guilds, args.trials, folder))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
