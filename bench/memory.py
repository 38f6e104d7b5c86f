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
- startup: ``load_open_tables()`` (the rows read, every table built) then ``render(table)``
  (embed + buttons, built as the restart re-render does) for every table; seconds for
  each part: the bot does this work after READY, in slices (``TableService.load`` only
  reads the rows). Then the whole start: a new process runs the real bot (``create_bot``,
  its ``setup_hook``: database, migrations, services, the tables' rows, cogs, card
  emojis) against SimCord until READY, timed from the moment the process is spawned
  (interpreter and imports included).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import hashlib
import itertools
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Any

from bot.discord.publisher import render
from bot.engine.base import Phase
from bot.engine.registry import GAMES

from .drive import Player
from .harness import click, next_click, open_tables, world


def rss_kib() -> int:
    """Resident memory of this process in KiB."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


_COLUMNS = (
    "guild_id, parent_id, message_id, game, host_id, settings, state, version,"
    " status, created_at, updated_at"
)
# (copies, table id): that many copies of a table's row, each in a channel of its own
_COPIES = (
    "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)"
    f" INSERT INTO tables (channel_id, {_COLUMNS}) SELECT 1000000 + i, {_COLUMNS}"
    " FROM tables, n WHERE tables.id = ?"
)


async def build(path: Path, count: int, game: str, real: int = 1) -> int:
    """A database with ``count`` open tables of ``game``: ``real`` tables opened and
    started through the service (playable: their money is in the ledger), the others
    copies of the first one. Returns the size of one snapshot in bytes."""
    db, bot, _ = await world(path)
    # each real table its own shoe: with the harness's one seed every table would deal
    # the same cards, and a first deal and a next one would compare two fixed deals
    draws = itertools.count()
    bot.tables.entropy = lambda _n: hashlib.sha256(b"startup %d" % next(draws)).digest()
    try:
        first, *_ = await open_tables(bot, min(real, count), game, 3, first_channel=1)
        if count > real:
            await db.write(lambda conn: conn.execute(_COPIES, (count - real, first.id)))
        return len(first.snapshot_json())
    finally:
        await db.close()


async def build_crashed(path: Path, count: int, game: str) -> int:
    """A database as a crash leaves it at its worst: ``count`` open tables of ``game``,
    each with its round's bets and deal logged after its last snapshot (the load replays
    them, shuffling each shoe to deal). Returns the actions each table replays."""
    db, bot, _ = await world(path)
    try:
        (first,) = await open_tables(bot, 1, game, 3, first_channel=1)
        strategy, seats = Player(), first.game.seated()
        while first.game.phase is Phase.BETTING:  # the bets, the last one deals
            interaction, name, arg = next_click(bot, first, strategy, seats)
            await click(bot, interaction, first.id, first.version, name, arg)
        log = (
            "INSERT INTO table_actions (table_id, version, user_id, action, at)"
            " SELECT t.id, a.version, a.user_id, a.action, a.at FROM tables t, table_actions a"
            " WHERE t.id != ? AND a.table_id = ? AND a.version > t.version"
        )
        await db.write(lambda conn: conn.execute(_COPIES, (count - 1, first.id)))
        await db.write(lambda conn: conn.execute(log, (first.id, first.id)))
        return int(first.version - first.snapshot_version)
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
        began, cpu0 = time.perf_counter(), time.thread_time()
        tables = await service.load_open_tables()
        loaded, cpu1 = time.perf_counter(), time.thread_time()
        for table in tables:
            render(table, note="back")
        done, cpu2 = time.perf_counter(), time.thread_time()
        if mode == "startup":  # as the bot does once ready (startup-cold: as it did before)
            await service.warm_up()
        warm = time.perf_counter() - done
        deals = await deal_times(bot, tables, DEALS)
        return {
            "tables": len(tables),
            "load": loaded - began,
            "render": done - loaded,
            "warm-up": warm,
            "load cpu": cpu1 - cpu0,
            "render cpu": cpu2 - cpu1,
            **{f"{k} deal ms": 1000 * statistics.median(v) for k, v in deals.items()},
        }
    finally:
        await db.close()


DEALS = 300  # tables whose first deal after the restart is timed


async def deal_times(bot: Any, tables: list[Any], count: int) -> dict[str, list[float]]:
    """CPU seconds of the move that deals the cards (the last bet) at ``count`` tables:
    the first deal after the restart at each table, then the next round's at each, played
    through the click handler with the bench strategy. Table after table, as a live bot's
    deals come: a table's next deal measured right after its first would find the caches
    its first deal just warmed (its SQLite pages, its objects), which no deal does while
    other tables play between."""
    out: dict[str, list[float]] = {"first": [], "next": []}
    players = {table.id: (Player(), table.game.seated()) for table in tables[:count]}
    for key in out:
        for table in tables[:count]:
            strategy, seats = players[table.id]
            for _ in range(100):
                phase = table.game.phase
                interaction, name, arg = next_click(bot, table, strategy, seats)
                began = time.thread_time()
                await click(bot, interaction, table.id, table.version, name, arg)
                took = time.thread_time() - began
                if phase is Phase.BETTING and table.game.phase is not Phase.BETTING:
                    out[key].append(took)
                    break
            else:
                raise RuntimeError(f"no deal at table {table.id}")
    return out


async def ready_child(path: Path, spawned: float) -> None:
    """Start the real bot on ``path`` through SimCord; print the seconds from ``spawned``
    (the parent's wall clock when it spawned this process) to the imports done and to
    READY (the bot's ``on_ready``), and end the process there: what follows READY (the
    tables built, the warm-up, the re-render of every table) is not in the start-up time."""
    import logging

    import simcord

    import bot.app

    imported = time.time() - spawned
    logging.disable(logging.CRITICAL)
    croupier = bot.app.create_bot(database_path=str(path), sync_commands=False)

    async def on_ready() -> None:
        ready = time.time() - spawned
        tables = len(croupier.tables.open_tables())
        print(json.dumps({"tables": tables, "imports": imported, "ready": ready}), flush=True)
        os._exit(0)

    croupier.on_ready = on_ready  # type: ignore[method-assign]
    async with simcord.run(croupier, check_errors=False):
        raise RuntimeError("the bot was ready but on_ready was not called")


READY_RUNS = 3  # starts timed per database: the median (a start's wall time varies here)


def time_to_ready(path: Path, runs: int = 1) -> dict[str, Any]:
    """:func:`ready_child` in a new interpreter, ``runs`` times: the bot's start, spawn to
    READY (the median run's figures; the start-up writes nothing before READY)."""
    got = []
    for _ in range(runs):
        spawned = time.time()
        out = subprocess.run(
            [sys.executable, "-m", "bench.memory", "--ready", str(path), repr(spawned)],
            check=True,
            capture_output=True,
            text=True,
        )
        got.append(dict(json.loads(out.stdout.strip().splitlines()[-1])))
    return sorted(got, key=lambda r: r["ready"])[runs // 2]


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
    if mode == "startup":
        ap.add_argument("--cold", action="store_true", help="also without the warm-up (before)")
    ap.add_argument("--child", default=None, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        runs = _memory if mode == "memory" else _startup
        first = True
        for game in args.games.split(","):
            for n in (int(x) for x in args.tables.split(",")):
                runs(Path(tmp), game, n, args, first)
                first = False
    return 0


def _memory(folder: Path, game: str, n: int, args: argparse.Namespace, first: bool) -> None:
    """One row of the memory bench."""
    if first:
        print(
            "memory bench: open tables loaded by TableService.load_open_tables (3 players,"
            " round started); tracemalloc = Python allocations kept, RSS = process growth"
        )
        print(
            "| game | tables | RSS at 0 tables KiB | snapshot B | tracemalloc KiB |"
            " per table KiB | RSS growth KiB | per table KiB (RSS) |"
        )
        print("|---|--:|--:|--:|--:|--:|--:|--:|")
    path = folder / f"{game}-{n}.sqlite3"
    size = asyncio.run(build(path, n, game))
    r = run_child(path, "memory")
    r.update(run_child(path, "rss"))
    print(
        f"| {game} | {r['tables']} | {r['rss0']} | {size} |"
        f" {r['traced'] / 1024:.0f} |"
        f" {r['traced'] / 1024 / r['tables']:.2f} | {r['rss']} |"
        f" {r['rss'] / r['tables']:.2f} |",
        flush=True,
    )


def _startup(folder: Path, game: str, n: int, args: argparse.Namespace, first: bool) -> None:
    """The startup bench's rows for one game and table count (each run on its own copy
    of the same database: the timed deals change it)."""
    if first:
        print(
            "startup bench: load_open_tables + render of each table (embed + buttons), the"
            f" warm-up, then CPU of the dealing move, median of {DEALS} tables"
        )
        print(
            "| game | tables | warm-up | load s | render s | total s | CPU s (load + render) |"
            " warm-up s | first deal ms | next deal ms | bot start: imports s | to READY s |"
            " to READY after a crash s (actions replayed per table) |"
        )
        print("|---|--:|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|")
    built = folder / f"{game}-{n}.sqlite3"
    asyncio.run(build(built, n, game, DEALS))
    replayed = asyncio.run(build_crashed(folder / f"crashed-{game}-{n}.sqlite3", n, game))
    crashed = time_to_ready(folder / f"crashed-{game}-{n}.sqlite3", READY_RUNS)
    for mode in ("startup-cold", "startup") if args.cold else ("startup",):
        path = folder / f"{mode}-{game}-{n}.sqlite3"
        shutil.copyfile(built, path)
        ready_db = Path(shutil.copyfile(built, folder / f"ready-{game}-{n}.sqlite3"))
        ready = time_to_ready(ready_db, READY_RUNS)
        r = run_child(path, mode)
        total = r["load"] + r["render"]
        print(
            f"| {game} | {r['tables']} | {'no' if mode == 'startup-cold' else 'yes'} |"
            f" {r['load']:.2f} | {r['render']:.2f} | {total:.2f} |"
            f" {r['load cpu']:.2f} + {r['render cpu']:.2f} | {r['warm-up']:.2f} |"
            f" {r['first deal ms']:.3f} | {r['next deal ms']:.3f} |"
            f" {ready['imports']:.2f} | {ready['ready']:.2f} |"
            f" {crashed['ready']:.2f} ({replayed}) |",
            flush=True,
        )


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--child", nargs=2)
    ap.add_argument("--ready", nargs=2)
    ns = ap.parse_args()
    if ns.ready:
        asyncio.run(ready_child(Path(ns.ready[0]), float(ns.ready[1])))
    mode, db_path = ns.child
    print(json.dumps(asyncio.run(child(Path(db_path), mode))))
