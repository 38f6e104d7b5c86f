"""Memory per open table, and start-up time (reload + re-render of every open table).

Both start from a database holding N open tables: one table per game is played to a
realistic state through the real service (3 players seated, a round started: bets asked),
then its row is copied N times with new ids and channels (``INSERT ... SELECT``), which is
what a restarted bot finds in its database. Each N runs in a fresh child process:

- memory: ``TableService.load_open_tables()``; tracemalloc counts the Python allocations it
  keeps (the tables, their games, their snapshots); in another child, without tracemalloc,
  ``/proc/self/status`` VmRSS the process growth over the same load (it includes SQLite's
  page cache and the rows fetched, and what the allocator does not give back). Per-table
  figures are growth / N (the baseline is the same process with 0 tables loaded).
- startup: ``load_open_tables()`` then ``render(table)`` (embed + buttons, built as
  the restart re-render does) for every table; seconds for each part.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Any

from bot.engine.registry import GAMES
from bot.publisher import render

from .harness import open_tables, world


def rss_kib() -> int:
    """Resident memory of this process in KiB."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


async def build(path: Path, count: int, game: str) -> int:
    """A database with ``count`` open tables of ``game`` (copies of one played table).
    Returns the size of one snapshot in bytes."""
    db, bot, _ = await world(path)
    try:
        [table] = await open_tables(bot, 1, game, 3, first_channel=1)
        cols = (
            "guild_id, parent_id, message_id, game, host_id, settings, state, version,"
            " status, created_at, updated_at"
        )
        sql = (
            f"WITH RECURSIVE n(i) AS (SELECT 2 UNION ALL SELECT i + 1 FROM n WHERE i < ?)"
            f" INSERT INTO tables (channel_id, {cols}) SELECT i, {cols} FROM tables, n"
            f" WHERE tables.id = ?"
        )
        await db.write(lambda conn: conn.execute(sql, (count, table.id)))
        return len(table.snapshot_json())
    finally:
        await db.close()


async def settled() -> None:
    """Let the event loop run what is due (the read's completion holds its rows until
    the loop's next turn: they are not the tables' memory), then collect."""
    await asyncio.sleep(0)
    gc.collect()


async def child(path: Path, mode: str) -> dict[str, Any]:
    """Measure in this (fresh) process: memory of loading, or load + render time."""
    db, bot, _ = await world(path)
    try:
        service = bot.tables
        gc.collect()
        if mode == "rss":  # tracemalloc's own bookkeeping would inflate RSS: not here
            rss0 = rss_kib()
            tables = await service.load_open_tables()
            await settled()
            return {"tables": len(tables), "rss": rss_kib() - rss0, "rss0": rss0}
        if mode == "memory":
            rss0 = rss_kib()
            tracemalloc.start()
            snap0 = tracemalloc.take_snapshot()
            tables = await service.load_open_tables()
            await settled()
            snap1 = tracemalloc.take_snapshot()
            traced = sum(s.size_diff for s in snap1.compare_to(snap0, "filename"))
            tracemalloc.stop()
            gc.collect()
            rss1 = rss_kib()
            state = sum(len(t.snapshot_json()) for t in tables)
            return {
                "tables": len(tables),
                "traced": traced,
                "rss": rss1 - rss0,
                "rss0": rss0,
                "state": state,
            }
        began = time.perf_counter()
        tables = await service.load_open_tables()
        loaded = time.perf_counter()
        for table in tables:
            render(table, note="back")
        done = time.perf_counter()
        return {"tables": len(tables), "load": loaded - began, "render": done - loaded}
    finally:
        await db.close()


def run_child(path: Path, mode: str) -> dict[str, Any]:
    """Run :func:`child` in a new interpreter (clean RSS)."""
    out = subprocess.run(
        [sys.executable, "-m", "bench.memory", "--child", mode, str(path)],
        check=True,
        capture_output=True,
        text=True,
    )
    return dict(json.loads(out.stdout.strip().splitlines()[-1]))


def main(argv: list[str]) -> int:
    """``bench memory [--tables 1000,10000] [--games ...]``."""
    return _main(argv, "memory")


def main_startup(argv: list[str]) -> int:
    """``bench startup [--tables 10000] [--games ...]``."""
    return _main(argv, "startup")


def _main(argv: list[str], mode: str) -> int:
    import logging

    logging.disable(logging.WARNING)
    ap = argparse.ArgumentParser(prog=f"python -m bench {mode}")
    default = "1000,10000" if mode == "memory" else "10000"
    ap.add_argument("--tables", default=default)
    ap.add_argument("--games", default="blackjack" if mode == "startup" else ",".join(GAMES))
    ap.add_argument("--child", default=None, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        if mode == "memory":
            print(
                "memory bench: open tables loaded by TableService.load_open_tables (3 players,"
                " round started); tracemalloc = Python allocations kept, RSS = process growth"
            )
            print(
                "| game | tables | RSS at 0 tables KiB | snapshot B | tracemalloc KiB |"
                " per table KiB | RSS growth KiB | per table KiB (RSS) |"
            )
            print("|---|--:|--:|--:|--:|--:|--:|--:|")
        else:
            print("startup bench: load_open_tables + render of each table (embed + buttons)")
            print("| game | tables | load s | render s | total s | tables/s |")
            print("|---|--:|--:|--:|--:|--:|")
        for game in args.games.split(","):
            for n in (int(x) for x in args.tables.split(",")):
                path = Path(tmp) / f"{game}-{n}.sqlite3"
                size = asyncio.run(build(path, n, game))
                r = run_child(path, mode)
                if mode == "memory":
                    r.update(run_child(path, "rss"))
                if mode == "memory":
                    print(
                        f"| {game} | {r['tables']} | {r['rss0']} | {size} |"
                        f" {r['traced'] / 1024:.0f} |"
                        f" {r['traced'] / 1024 / r['tables']:.2f} | {r['rss']} |"
                        f" {r['rss'] / r['tables']:.2f} |",
                        flush=True,
                    )
                else:
                    total = r["load"] + r["render"]
                    print(
                        f"| {game} | {r['tables']} | {r['load']:.2f} | {r['render']:.2f} |"
                        f" {total:.2f} | {r['tables'] / total:.0f} |",
                        flush=True,
                    )
    return 0


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--child", nargs=2)
    ns = ap.parse_args()
    mode, db_path = ns.child
    print(json.dumps(asyncio.run(child(Path(db_path), mode))))
