"""Statistics benchmark: /stats player and /stats top queries on a big ledger, and the chart.

``python -m bench stats [--entries 1000000] [--queries 200] [--charts 20] [--pg URL]``

A fresh database gets ``--entries`` ledger entries (bench/audit.py's casino history: two
guilds of 2,000 players, tables of four seats) and, for every bet of that history, the
round result a settling move would have written (won with its payout, lost with its loss;
the games in turn; the rounds spread over ten weeks) with the players' totals. Then
``--queries`` of each read, the players and guilds drawn at random: ``player`` (every
game), ``top week`` and ``top all`` (every game and Black Jack), through the stats service
(``db.read``), p50/p99 in ms; and ``--charts`` bankroll charts (the ledger query and the
PNG drawn), p50/p99. SQLite by default; ``--pg URL`` runs PostgreSQL too.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

from bench.audit import PLAYERS, Entry, History, Posting, _open_fresh, fill
from bot.db import Conn, Database
from bot.stats.results import ALL_GAMES, ALL_TIME, TOTALS_UPSERT, iso_week
from bot.stats.service import StatsService

GAMES = ("blackjack", "casino21", "sept_et_demi")
WEEKS = 10
START = 1_780_000_000.0
CHUNK = 20_000


class ResultHistory(History):
    """The audit bench's history, remembering each bet's round result."""

    def __init__(self, guilds: int = 2, seed: int = 1) -> None:
        super().__init__(guilds, seed)
        self.users: dict[int, int] = {}  # seat account -> user
        self.bets: dict[int, tuple[int, int, int, int]] = {}  # pot -> guild, table, user, bet
        self.rows: list[tuple[object, ...]] = []

    def _account(self, guild: int, kind: str, table: int = 0, user: int = 0) -> int:
        account = super()._account(guild, kind, table, user)
        if kind == "seat":
            self.users[account] = user
        return account

    def _entry(
        self, guild: int, kind: str, src: int, dst: int, amount: int, table: int | None = None
    ) -> tuple[Entry, list[Posting]]:
        if kind == "bet" and table is not None:
            self.bets[dst] = (guild, table, self.users[src], amount)
        elif kind in ("payout", "loss") and src in self.bets:
            guild_id, table_id, user, bet = self.bets.pop(src)
            won = kind == "payout"
            at = START + len(self.rows) * 0.0  # set below, once the count is known
            game = GAMES[len(self.rows) % len(GAMES)]
            natural = int(won and self.rng.random() < 0.05)
            net = bet if won else -bet
            outcome = "won" if won else "lost"
            row = (guild_id, table_id, len(self.rows), user, game, bet, net, outcome, natural, at)
            self.rows.append(row)
        return super()._entry(guild, kind, src, dst, amount, table)


async def _write_results(c: Conn, rows: list[tuple[object, ...]]) -> None:
    await c.executemany(
        "INSERT INTO round_results (guild_id, table_id, round_no, user_id, game, staked, net,"
        " outcome, is_natural, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        rows,
    )


async def _write_totals(c: Conn, rows: list[tuple[object, ...]]) -> None:
    await c.executemany(
        "INSERT INTO round_totals (guild_id, week, game, user_id, rounds, won, lost, pushed,"
        f" staked, net, naturals, best) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?){TOTALS_UPSERT}",
        rows,
    )


async def fill_results(db: Database, history: ResultHistory) -> tuple[int, float]:
    """The history's round results and totals; (rows, the last round's time)."""
    span = WEEKS * 7 * 86_400.0
    rows = history.rows
    step = span / max(1, len(rows))
    timed = [(*r[:9], START + i * step) for i, r in enumerate(rows)]
    for i in range(0, len(timed), CHUNK):
        await db.write(_write_results, timed[i : i + CHUNK])
    totals: dict[tuple[object, ...], list[int]] = {}
    for g, _t, _r, u, game, staked, net, outcome, natural, at in timed:
        for week in (ALL_TIME, iso_week(float(at))):  # type: ignore[arg-type]
            for kind in (game, ALL_GAMES):
                t = totals.setdefault((g, week, kind, u), [0] * 8)
                add = (1, outcome == "won", outcome == "lost", 0, staked, net, natural)
                for k, v in enumerate(add):
                    t[k] += int(v)  # type: ignore[call-overload]
                t[7] = max(t[7], int(net) if outcome == "won" else 0)  # type: ignore[call-overload]
    flat = [(*key, *t) for key, t in totals.items()]
    for i in range(0, len(flat), CHUNK):
        await db.write(_write_totals, flat[i : i + CHUNK])
    return len(timed), START + span


def _p(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return 1000 * ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def _time(calls: int, one: object) -> tuple[float, float]:
    took = []
    for _ in range(calls):
        start = time.perf_counter()
        await one()  # type: ignore[operator]
        took.append(time.perf_counter() - start)
    return _p(took, 0.5), _p(took, 0.99)


async def run(where: str, entries: int, queries: int, charts: int, folder: Path) -> None:
    """Fill one database, then print each query's p50/p99."""
    db = await _open_fresh(where, entries, folder)
    try:
        history = ResultHistory(2)
        await fill(db, history, entries)
        count, last = await fill_results(db, history)
        stats = StatsService(db, clock=lambda: last)
        rng = random.Random(7)
        print(f"  {entries:,} ledger entries, {count:,} round results", flush=True)

        def guild() -> int:
            return rng.randint(1, 2)

        cases = {
            "player": lambda: stats.player(guild(), rng.randint(1, PLAYERS)),
            "top week, every game": lambda: stats.top(guild(), None, "week"),
            "top week, Black Jack": lambda: stats.top(guild(), "blackjack", "week"),
            "top all, every game": lambda: stats.top(guild(), None, "all"),
            "top all, Black Jack": lambda: stats.top(guild(), "blackjack", "all"),
        }
        for name, call in cases.items():
            p50, p99 = await _time(queries, call)
            print(f"    {name:<22} p50 {p50:6.2f} ms  p99 {p99:6.2f} ms", flush=True)
        labels = ("Money of someone", "total", "in the bank", "chips on tables")
        await StatsService.warm()
        played = [(int(r[0]), int(r[3])) for r in history.rows[:: max(1, count // 1000)]]

        async def chart() -> None:
            assert await stats.chart(*rng.choice(played), labels) is not None

        p50, p99 = await _time(charts, chart)
        print(f"    {'chart (query + PNG)':<22} p50 {p50:6.2f} ms  p99 {p99:6.2f} ms", flush=True)
    finally:
        await db.close()


def main(argv: list[str] | None = None) -> int:
    """Print the statistics' query times on a big ledger."""
    parser = argparse.ArgumentParser(prog="python -m bench stats")
    parser.add_argument("--entries", type=int, default=1_000_000, help="ledger entries")
    parser.add_argument("--queries", type=int, default=200, help="timed queries of each kind")
    parser.add_argument("--charts", type=int, default=20, help="timed charts")
    parser.add_argument("--pg", default="", help="postgresql:// URL: run PostgreSQL too")
    parser.add_argument("--dir", default=None, help="folder for the SQLite file (temp)")
    args = parser.parse_args(argv)
    print(f"stats bench: python {sys.version.split()[0]}, SQLite {sqlite3.sqlite_version}")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(args.dir) if args.dir else Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        for where, name in (("", "SQLite (WAL)"), (args.pg, "PostgreSQL")):
            if name == "PostgreSQL" and not where:
                continue
            print(name, flush=True)
            asyncio.run(run(where, args.entries, args.queries, args.charts, folder))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
