"""SQLite and PostgreSQL side by side, in one run (issue 25 point 7).

``python -m bench backends [--pg URL] [--tables 1000] [--seconds 20] [--think 3]
[--rounds 1000] [--trials 5]``

- Ledger postings per second: bet + payout rounds (two entries, four postings, one
  transaction each) through ``Bank.post_effects`` inside ``db.write``, as a move posts;
  SQLite (a fresh file) and PostgreSQL (a fresh schema), best of ``--trials``.
- A move's latency (click -> interaction response, the stubbed transport of
  ``bench latency``) with ``--tables`` live tables: SQLite in one process, PostgreSQL in one
  process, PostgreSQL with the tables split over two processes (the p99 over both).
- ``--servers 1,100 [--pairs 3] [--warmup 3] [--processes 2]`` (issue 35) instead: the
  ``--tables`` tables saturated in 1 server against 100, in alternating windows, with
  their treasury-row writes and contention counts (``bench/servers.py``).

PostgreSQL: ``--pg``, else ``BENCH_DATABASE_URL``, else ``TEST_DATABASE_URL``; without one
the PostgreSQL lines are skipped with a note. Each PostgreSQL line runs in a schema of its
own, dropped afterwards.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import secrets
import sqlite3
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bot.bank import Bank
from bot.db import Database, migrate, open_database
from bot.engine.base import Money, MoneyKind, seat

from .measure import measure, pct
from .pg import pg_schema, schema_sql
from .processes import run_processes

GUILD, TABLE = 1, 1


def _effects() -> list[Money]:
    return [
        Money(MoneyKind.BET, seat(7), "pot", 5),
        Money(MoneyKind.PAYOUT, "pot", seat(7), 5),
    ]


async def _postings(where: str, rounds: int, trials: int) -> float:
    """Best postings per second of ``trials`` runs of ``rounds`` bet+payout rounds."""
    db: Database = await open_database(where)
    try:
        await migrate(db)
        bank = Bank(db)
        await bank.ensure_guild(GUILD)
        await db.write(
            bank.post_effects,
            GUILD,
            TABLE,
            0,
            [Money(MoneyKind.WELCOME_STAKE, "house", seat(7), 1000)],
            "warm",
        )
        best = float("inf")
        for trial in range(trials):
            start = time.perf_counter()
            for i in range(trial * rounds, (trial + 1) * rounds):
                await db.write(bank.post_effects, GUILD, TABLE, i, _effects(), f"b{i}")
            best = min(best, time.perf_counter() - start)
    finally:
        await db.close()
    return 4 * rounds / best


def _latency_line(name: str, r: dict[str, Any] | list[dict[str, Any]]) -> str:
    runs = r if isinstance(r, list) else [r]
    lat = [x for run in runs for x in run["latencies"]]
    moves = sum(run["moves"] for run in runs)
    rate = sum(run["moves/s"] for run in runs)
    median = sorted(lat)[len(lat) // 2] * 1000 if lat else float("nan")
    loads = " + ".join(f"{run['loop load']:.2f}" for run in runs)
    per_move = sum(run["loop ms/move"] * run["moves"] for run in runs) / max(1, moves)
    return (
        f"| {name} | {moves} | {rate:.0f} | {median:.2f} | {1000 * pct(lat, 0.99):.2f}"
        f" | {1000 * max(lat, default=float('nan')):.1f} | {per_move:.2f} | {loads} |"
    )


def main(argv: list[str] | None = None) -> int:
    """Print postings/s and a move's latency for each backend, side by side."""
    ap = argparse.ArgumentParser(prog="python -m bench backends")
    ap.add_argument("--pg", default=None, help="postgresql:// URL (a user that may CREATE SCHEMA)")
    ap.add_argument("--tables", default="1000", help="live tables, e.g. 300,1000")
    ap.add_argument("--seconds", type=float, default=20.0)
    ap.add_argument("--think", type=float, default=3.0, help="mean seconds between moves")
    ap.add_argument("--rounds", type=int, default=1000, help="bank rounds per trial")
    ap.add_argument("--trials", type=int, default=5, help="bank trials (best one counts)")
    ap.add_argument("--game", default="blackjack")
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument(
        "--guilds", type=int, default=100, help="servers the tables go round (a house each)"
    )
    ap.add_argument("--servers", default=None, help="e.g. 1,100: the treasury rows' bench")
    ap.add_argument("--processes", type=int, default=1, help="with --servers: bot processes")
    ap.add_argument("--pairs", type=int, default=3, help="with --servers: pairs of windows")
    ap.add_argument("--warmup", type=float, default=3.0, help="with --servers: untimed seconds")
    args = ap.parse_args(argv)
    args.steps = False
    logging.disable(logging.WARNING)
    pg = args.pg or os.environ.get("BENCH_DATABASE_URL") or os.environ.get("TEST_DATABASE_URL")
    print(
        f"backends bench: python {sys.version.split()[0]}, sqlite {sqlite3.sqlite_version};"
        f" PostgreSQL {'at ' + _server(pg) if pg else 'skipped (no --pg nor BENCH_DATABASE_URL)'}"
    )
    if args.servers:
        if not pg:
            print("--servers needs PostgreSQL (--pg or BENCH_DATABASE_URL)")
            return 2
        from .servers import servers_table

        with tempfile.TemporaryDirectory() as tmp:
            servers_table(Path(tmp), pg, args)
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        print("\nledger postings/s (bet + payout, 4 postings per transaction, best of trials)")
        print("| database | postings/s |\n|---|--:|")
        rate = asyncio.run(_postings(str(folder / "bank.sqlite3"), args.rounds, args.trials))
        print(f"| SQLite (WAL, synchronous=NORMAL) | {rate:,.0f} |", flush=True)
        if pg:
            rate = asyncio.run(_pg(pg, _postings, args.rounds, args.trials))
            print(f"| PostgreSQL (asyncpg) | {rate:,.0f} |", flush=True)
        for tables in (int(n) for n in str(args.tables).split(",")):
            _latency_table(folder, pg, tables, args)
    return 0


def _latency_table(folder: Path, pg: str | None, tables: int, args: argparse.Namespace) -> None:
    """The three setups' latency lines at ``tables`` live tables."""
    args.tables = tables
    print(
        f"\na move's latency at {tables} live tables in {args.guilds} servers"
        f" ({args.game}, {args.players} players, {args.think:g} s mean think time,"
        f" {args.seconds:g} s window)"
    )
    print("| setup | moves | moves/s | median ms | p99 ms | max ms | loop ms/move | loop load |")
    print("|---|--:|--:|--:|--:|--:|--:|--:|")
    line = asyncio.run(_measure(folder, str(folder / f"latency-{tables}.sqlite3"), args))
    print(_latency_line("SQLite, one process", line), flush=True)
    if pg:
        line = asyncio.run(_pg(pg, _measure_url, folder, args))
        print(_latency_line("PostgreSQL, one process", line), flush=True)
        runs = _two_processes(pg, folder, args)
        print(_latency_line("PostgreSQL, two processes", runs), flush=True)


def _server(url: str) -> str:
    from bot.db.postgres import redact

    return redact(url)


async def _pg(url: str, fn: Any, *args: Any) -> Any:
    async with pg_schema(url) as where:
        return await fn(where, *args)


async def _measure(folder: Path, where: str, args: argparse.Namespace) -> dict[str, Any]:
    return await measure(
        folder,
        args.tables,
        args.game,
        args.players,
        args.seconds,
        args.think,
        path=where,
        guilds=args.guilds,
    )


async def _measure_url(where: str, folder: Path, args: argparse.Namespace) -> dict[str, Any]:
    return await _measure(folder, where, args)


def _two_processes(url: str, folder: Path, args: argparse.Namespace) -> list[dict[str, Any]]:
    name = f"bench_{secrets.token_hex(5)}"
    asyncio.run(schema_sql(url, f"CREATE SCHEMA {name}"))
    try:
        where = f"{url}{'&' if '?' in url else '?'}search_path={name}"
        return run_processes(folder, args.tables, 2, args, args.think, database=where)
    finally:
        asyncio.run(schema_sql(url, f"DROP SCHEMA {name} CASCADE"))
