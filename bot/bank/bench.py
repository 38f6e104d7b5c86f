"""Bank benchmark: bet + payout pairs per second, through the service and in plain sqlite3.

``python -m bot.bank.bench [--rounds N] [--dir PATH]``

Every round is one transaction posting a BET (seat -> pot) and a PAYOUT (pot -> seat):
two entries, four postings, as the table service does after a hand. Each variant gets its
own fresh database file (WAL, synchronous=NORMAL, foreign keys on, like ``Database.open``):

- ``sqlite3``: the service's SQL statements written directly with the standard ``sqlite3``
  module (no asyncio): the reference.
- ``core``: the bank's synchronous core (``bot.bank.core.post_effects``) on a plain
  ``sqlite3`` connection: the reference plus the bank's Python (validation, mapping).
- ``move``: the core inside ``Database.run_transaction``, on the event loop's thread: how a
  table move posts. Its connection checkpoints on the background ``Checkpointer`` thread,
  where the plain ``sqlite3`` connections above checkpoint inside a commit every 1000
  pages (SQLite's default): that is why it can beat the reference.
- ``service``: ``Bank.post_effects`` inside ``db.transaction()``: aiosqlite, one thread hop
  for the whole batch (the bank commands: /bank claim, give, mint...).
- ``per-statement``: the same SQL awaited statement by statement on aiosqlite (the first,
  naive design: one thread hop per statement).

All variants know the two account ids after the first round, as the service's connection
remembers them (``MemoConnection``); the plain connections are ``MemoConnection`` too.

The figures that matter are move / sqlite3 and service / sqlite3.
"""

from __future__ import annotations

import argparse
import asyncio
import sqlite3
import sys
import tempfile
import time
from pathlib import Path
from typing import cast

import aiosqlite

from bot.db import Database, migrate
from bot.db.connection import MemoConnection
from bot.engine.base import POT, Money, MoneyKind, seat

from . import core
from .service import Bank

GUILD = 1
TABLE = 1
PLAYER = 42
BET = 10

# The statements the service runs for one bet + payout round, in order.
GUILD_SQL = "SELECT starting_balance, claim_approval_limit FROM bank_guilds WHERE guild_id = ?"
FIND_SQL = (
    "SELECT id FROM bank_accounts WHERE guild_id = ? AND kind = ? AND table_id = ? AND user_id = ?"
)
ENTRY_SQL = (
    "INSERT INTO bank_entries (guild_id, kind, idem_key, table_id, round_no, actor, reason)"
    " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (idem_key) DO NOTHING"
)
DEBIT_SQL = "UPDATE bank_accounts SET balance = balance - ? WHERE id = ? AND balance >= ?"
CREDIT_SQL = "UPDATE bank_accounts SET balance = balance + ? WHERE id = ?"
POSTING_SQL = "INSERT INTO bank_postings (entry_id, account_id, amount) VALUES (?, ?, ?)"
SEAT_SQL = (
    "INSERT INTO bank_seats (guild_id, table_id, user_id, welcome_received, own_funds,"
    " wagered, forfeited, cashed_out) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
    " ON CONFLICT (guild_id, table_id, user_id) DO UPDATE SET"
    " welcome_received = welcome_received + excluded.welcome_received,"
    " own_funds = own_funds + excluded.own_funds,"
    " wagered = wagered + excluded.wagered,"
    " forfeited = forfeited + excluded.forfeited,"
    " cashed_out = cashed_out + excluded.cashed_out"
)


def _effects() -> list[Money]:
    return [
        Money(MoneyKind.BET, seat(PLAYER), POT, BET, PLAYER),
        Money(MoneyKind.PAYOUT, POT, seat(PLAYER), BET, PLAYER),
    ]


async def _prepare(path: Path) -> tuple[int, int]:
    """A migrated database with a guild and a seated player holding a large stack; the ids
    of the seat and pot accounts."""
    db = await Database.open(path)
    await migrate(db)
    bank = Bank(db)
    await bank.ensure_guild(GUILD)
    await bank.mint(GUILD, 10**12, user_id=PLAYER)
    await bank.sit_down(GUILD, TABLE, PLAYER, buy_in=10**12)
    async with db.transaction() as conn:  # opens the pot account
        await bank.post_effects(conn, GUILD, TABLE, 0, _effects(), "warm-up")
    seat_row = await db.fetchone(FIND_SQL, (GUILD, "seat", TABLE, PLAYER))
    pot_row = await db.fetchone(FIND_SQL, (GUILD, "pot", TABLE, 0))
    await db.close()
    assert seat_row is not None and pot_row is not None
    return int(seat_row[0]), int(pot_row[0])


def _raw_connection(path: Path) -> sqlite3.Connection:
    c = sqlite3.connect(path, isolation_level=None, factory=MemoConnection)
    c.execute("PRAGMA journal_mode=WAL")
    c.execute("PRAGMA synchronous=NORMAL")
    c.execute("PRAGMA foreign_keys=ON")
    return c


def _raw_round(c: sqlite3.Connection, i: int, ids: tuple[int, int]) -> None:
    """One round with the service's statements, written directly (the account ids known
    beforehand: the service's connection remembers them)."""
    c.execute("BEGIN IMMEDIATE")
    c.execute("SAVEPOINT bank_op")
    c.execute(GUILD_SQL, (GUILD,))
    seat_id, pot_id = ids
    for n, (kind, src, dst) in enumerate((("bet", seat_id, pot_id), ("payout", pot_id, seat_id))):
        entry = c.execute(ENTRY_SQL, (GUILD, kind, f"b{i}:{n}", TABLE, i, None, None)).lastrowid
        if c.execute(DEBIT_SQL, (BET, src, BET)).rowcount != 1:
            raise RuntimeError("insufficient funds")
        c.execute(CREDIT_SQL, (BET, dst))
        c.executemany(POSTING_SQL, ((entry, src, -BET), (entry, dst, BET)))
        if kind == "bet":
            c.execute(SEAT_SQL, (GUILD, TABLE, PLAYER, 0, 0, BET, 0, 0))
    c.execute("RELEASE bank_op")
    c.execute("COMMIT")


async def _naive_round(conn: aiosqlite.Connection, i: int, ids: tuple[int, int]) -> None:
    """The same statements, each awaited on aiosqlite (one thread hop per statement)."""
    await conn.execute("SAVEPOINT bank_op")
    await conn.execute(GUILD_SQL, (GUILD,))
    seat_id, pot_id = ids
    for n, (kind, src, dst) in enumerate((("bet", seat_id, pot_id), ("payout", pot_id, seat_id))):
        cur = await conn.execute(ENTRY_SQL, (GUILD, kind, f"b{i}:{n}", TABLE, i, None, None))
        entry = cur.lastrowid
        if (await conn.execute(DEBIT_SQL, (BET, src, BET))).rowcount != 1:
            raise RuntimeError("insufficient funds")
        await conn.execute(CREDIT_SQL, (BET, dst))
        await conn.executemany(POSTING_SQL, ((entry, src, -BET), (entry, dst, BET)))
        if kind == "bet":
            await conn.execute(SEAT_SQL, (GUILD, TABLE, PLAYER, 0, 0, BET, 0, 0))
    await conn.execute("RELEASE bank_op")


def _core_round(c: sqlite3.Connection, i: int) -> None:
    c.execute("BEGIN IMMEDIATE")
    core.post_effects(c, GUILD, TABLE, i, _effects(), f"b{i}", None)
    c.execute("COMMIT")
    cast(MemoConnection, c).committed()  # as Database does after its commits


async def _service_round(bank: Bank, i: int) -> None:
    async with bank.db.transaction() as conn:
        await bank.post_effects(conn, GUILD, TABLE, i, _effects(), f"b{i}")


async def _move_round(db: Database, i: int) -> None:
    """As a table move posts: the core inside ``Database.run_transaction`` (loop thread)."""
    await db.run_transaction(core.post_effects, GUILD, TABLE, i, _effects(), f"b{i}", None)


async def _per_statement_round(db: Database, i: int, ids: tuple[int, int]) -> None:
    async with db.transaction() as conn:
        await _naive_round(conn, i, ids)


VARIANTS = ("sqlite3", "core", "move", "service", "per-statement")


async def run(rounds: int, trials: int, folder: Path) -> dict[str, float]:
    """Best seconds per ``rounds`` rounds for each variant over ``trials`` trials; variants
    alternate within each trial so a busy machine slows them alike."""
    paths = {name: folder / f"bench-{name}.sqlite3" for name in VARIANTS}
    ids = {name: await _prepare(path) for name, path in paths.items()}
    raw = {name: _raw_connection(paths[name]) for name in ("sqlite3", "core")}
    dbs = {name: await Database.open(paths[name]) for name in ("move", "service", "per-statement")}
    bank = Bank(dbs["service"])
    best = dict.fromkeys(VARIANTS, float("inf"))
    try:
        for trial in range(trials):
            first = trial * rounds
            for name in VARIANTS:
                start = time.perf_counter()
                for i in range(first, first + rounds):
                    if name == "sqlite3":
                        _raw_round(raw[name], i, ids[name])
                    elif name == "core":
                        _core_round(raw[name], i)
                    elif name == "move":
                        await _move_round(dbs[name], i)
                    elif name == "service":
                        await _service_round(bank, i)
                    else:
                        await _per_statement_round(dbs[name], i, ids[name])
                best[name] = min(best[name], time.perf_counter() - start)
    finally:
        for c in raw.values():
            c.close()
        for db in dbs.values():
            await db.close()
    return best


def main(argv: list[str] | None = None) -> int:
    """Print postings per second for each variant and the service / sqlite3 ratio."""
    parser = argparse.ArgumentParser(prog="python -m bot.bank.bench")
    parser.add_argument("--rounds", type=int, default=1000, help="rounds per trial")
    parser.add_argument("--trials", type=int, default=7, help="trials (best one counts)")
    parser.add_argument("--dir", default=None, help="folder for the database files (temp)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(args.dir) if args.dir else Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        seconds = asyncio.run(run(args.rounds, args.trials, folder))
    print(
        f"bank bench: bet+payout rounds (2 entries, 4 postings, one transaction each);"
        f" best of {args.trials} trials of {args.rounds} rounds per variant; WAL,"
        f" synchronous=NORMAL; sqlite {sqlite3.sqlite_version}, python {sys.version.split()[0]}"
    )
    base = seconds["sqlite3"]
    for name, took in seconds.items():
        print(
            f"  {name:<14} {args.rounds / took:>9.0f} rounds/s {4 * args.rounds / took:>10.0f}"
            f" postings/s  {1e6 * took / args.rounds:>7.1f} us/round  ratio {base / took:.2f}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
