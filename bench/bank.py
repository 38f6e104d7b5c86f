"""Bank benchmark: bet + payout pairs per second, through the service and in plain sqlite3.

``python -m bench bank [--rounds N] [--dir PATH]``

Every round is one transaction posting a BET (seat -> pot) and a PAYOUT (pot -> seat):
two entries, four postings, as the table service does after a hand. Each variant gets its
own fresh database file (WAL, synchronous=NORMAL, foreign keys on, like ``bot.db.sqlite``):

- ``sqlite3``: the service's SQL statements written directly with the standard ``sqlite3``
  module (no asyncio): the reference.
- ``core``: the bank's core (``bot.bank.core.post_effects``) on a plain ``sqlite3``
  connection, run to its end without an event loop (``run_on``): the reference plus the
  bank's Python (validation, mapping, the coroutines).
- ``move``: ``Bank.post_effects`` inside ``db.write`` (the event loop's thread): how a
  table move and every bank command post. Its database checkpoints on the background
  ``Checkpointer`` thread, where the plain ``sqlite3`` connections above checkpoint inside
  a commit every 1000 pages (SQLite's default): that is why it can beat the reference.
- ``thread``: the same transaction run on a worker thread of its own, one thread hop per
  transaction (what ``db.write`` would cost there, on an idle event loop).

All variants know the two account ids after the first round, as the database's memo
remembers them.

The figures that matter are move / sqlite3 and thread / move.
"""

from __future__ import annotations

import argparse
import asyncio
import sqlite3
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from bot.bank import core
from bot.bank.service import Bank
from bot.db import Conn, Database, migrate, open_database
from bot.db.base import Memo
from bot.db.sqlite import transaction
from bot.engine.base import POT, Money, MoneyKind, seat

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
    " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (idem_key) DO NOTHING RETURNING id"
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


async def _warm_up(conn: Conn, bank: Bank) -> tuple[int, int]:
    """Seat the player with a large stack, open the pot; the seat and pot account ids."""
    buy_in = Money(MoneyKind.BUY_IN, f"wallet:{PLAYER}", seat(PLAYER), 10**12, PLAYER)
    await bank.post_effects(conn, GUILD, TABLE, 0, [buy_in, *_effects()], "warm-up")
    seat_row = await conn.fetchone(FIND_SQL, (GUILD, "seat", TABLE, PLAYER))
    pot_row = await conn.fetchone(FIND_SQL, (GUILD, "pot", TABLE, 0))
    assert seat_row is not None and pot_row is not None
    return int(seat_row[0]), int(pot_row[0])


async def _prepare(path: Path) -> tuple[int, int]:
    """A migrated database with a guild and a seated player holding a large stack; the ids
    of the seat and pot accounts."""
    db = await open_database(path)
    await migrate(db)
    bank = Bank(db)
    await bank.ensure_guild(GUILD)
    await bank.mint(GUILD, 10**12, user_id=PLAYER)
    ids = await db.write(_warm_up, bank)
    await db.close()
    return ids


def _raw_connection(path: Path) -> sqlite3.Connection:
    c = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
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
        entry = c.execute(ENTRY_SQL, (GUILD, kind, f"b{i}:{n}", TABLE, i, None, None)).fetchone()[0]
        if c.execute(DEBIT_SQL, (BET, src, BET)).rowcount != 1:
            raise RuntimeError("insufficient funds")
        c.execute(CREDIT_SQL, (BET, dst))
        c.executemany(POSTING_SQL, ((entry, src, -BET), (entry, dst, BET)))
        if kind == "bet":
            c.execute(SEAT_SQL, (GUILD, TABLE, PLAYER, 0, 0, BET, 0, 0))
    c.execute("RELEASE bank_op")
    c.execute("COMMIT")


def _core_round(c: sqlite3.Connection, memo: Memo, i: int) -> None:
    transaction(c, "BEGIN IMMEDIATE", memo, core.post_effects, GUILD, TABLE, i, _effects(), f"b{i}")


async def _move_round(db: Database, bank: Bank, i: int) -> None:
    """As a move posts: ``Bank.post_effects`` inside ``db.write``."""
    await db.write(bank.post_effects, GUILD, TABLE, i, _effects(), f"b{i}")


async def _thread_round(
    pool: ThreadPoolExecutor, c: sqlite3.Connection, memo: Memo, i: int
) -> None:
    """The same transaction on a worker thread: one hop there and back."""
    await asyncio.get_running_loop().run_in_executor(pool, _core_round, c, memo, i)


VARIANTS = ("sqlite3", "core", "move", "thread")


async def run(rounds: int, trials: int, folder: Path) -> dict[str, float]:
    """Best seconds per ``rounds`` rounds for each variant over ``trials`` trials; variants
    alternate within each trial so a busy machine slows them alike."""
    paths = {name: folder / f"bench-{name}.sqlite3" for name in VARIANTS}
    ids = {name: await _prepare(path) for name, path in paths.items()}
    raw = {name: _raw_connection(paths[name]) for name in ("sqlite3", "core", "thread")}
    memos = {name: Memo() for name in raw}
    db = await open_database(paths["move"])
    bank = Bank(db)
    pool = ThreadPoolExecutor(1)
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
                        _core_round(raw[name], memos[name], i)
                    elif name == "move":
                        await _move_round(db, bank, i)
                    else:
                        await _thread_round(pool, raw[name], memos[name], i)
                best[name] = min(best[name], time.perf_counter() - start)
    finally:
        pool.shutdown()
        for c in raw.values():
            c.close()
        await db.close()
    return best


def main(argv: list[str] | None = None) -> int:
    """Print postings per second for each variant and its ratio to plain sqlite3."""
    parser = argparse.ArgumentParser(prog="python -m bench bank")
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
