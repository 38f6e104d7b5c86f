"""The work of one move, in CPU instructions counted by valgrind's callgrind.

Timings on the development VM move by ±30 % from one hour to the next, so a 5 % change
in the work per move cannot be seen in them. An instruction count is the same on a busy
or a quiet machine: this bench runs the same moves twice under callgrind, ``--moves N``
and ``2N``, and divides the difference by N. One-off costs (imports, opening the tables,
first moves, lazy caches) are in both runs and cancel out.

A move is what ``bench latency`` times as the handler plus the rest of its publish (DMs,
announcements) and the simulated player's choice of move: button clicks on ``--tables``
tables in turn, through the click handler (``cogs.tables.moves.on_click``), on a real
SQLite file. The background
checkpointer is stopped (it runs on its own thread, not on the event loop). Without
valgrind (``--no-valgrind``) it prints CPU time per move instead: quick, but as noisy as
any timing here.

Run it on an otherwise idle machine. There, three runs of 200 Black Jack moves were within
0.02 % of each other (±3,000 instructions per move). Beside other busy processes, the
same code's figure moved by up to 9 %: some of the work depends on time (the event loop
waking while aiosqlite's thread works, in set-up and in the moves).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bot.engine.registry import GAMES

from .drive import Player
from .harness import click, next_click, open_tables, world

_COLLECTED = re.compile(r"Collected\s*:\s*(\d+)")


async def run_moves(folder: Path, game: str, tables: int, moves: int) -> float:
    """Open ``tables`` tables, then make ``moves`` button moves on them in turn (a table
    whose game is over is replaced by a new one); the CPU seconds the moves took."""
    db, bot, _transport = await world(folder / f"cost-{game}.sqlite3")
    if db._checkpointer is not None:
        db._checkpointer.stop()
    try:
        opened = await open_tables(bot, tables, game, 3)
        players = {t.id: (Player(), t.game.seated()) for t in opened}
        cpu = 0.0
        for n in range(moves):
            slot = n % len(opened)
            if not opened[slot].is_open:  # a game over (Pirate 21): a new table takes its place
                (table,) = await open_tables(bot, 1, game, 3, first_channel=10**6 + n)
                opened[slot], players[table.id] = table, (Player(), table.game.seated())
            table = opened[slot]
            strategy, seats = players[table.id]
            began = time.process_time()
            interaction, name, arg = next_click(bot, table, strategy, seats)
            version = table.version
            await click(bot, interaction, table.id, version, name, arg)
            cpu += time.process_time() - began
            if table.version != version + 1:
                raise RuntimeError(f"{name} was not applied at table {table.id}")
        return cpu
    finally:
        await db.close()


def _counted(game: str, tables: int, moves: int) -> int:
    """Instructions of a whole run of ``moves`` moves under callgrind."""
    env = dict(os.environ, PYTHONHASHSEED="0")  # the same set and dict orders every run
    cmd = [
        "valgrind",
        "--tool=callgrind",
        "--callgrind-out-file=/dev/null",
        sys.executable,
        "-m",
        "bench",
        "cost",
        "--inner",
        "--game",
        game,
        "--tables",
        str(tables),
        "--moves",
        str(moves),
    ]
    done = subprocess.run(cmd, capture_output=True, text=True, env=env, check=False)
    found = _COLLECTED.search(done.stderr)
    if done.returncode or found is None:
        raise RuntimeError(f"callgrind run failed ({done.returncode}): {done.stderr[-2000:]}")
    return int(found[1])


def main(argv: list[str]) -> int:
    """``bench cost [--game G|all] [--tables T] [--moves N] [--no-valgrind]``."""
    import logging

    logging.disable(logging.WARNING)
    ap = argparse.ArgumentParser(prog="python -m bench cost")
    ap.add_argument("--game", default="blackjack", help=f"one of {', '.join(GAMES)}, or all")
    ap.add_argument("--tables", type=int, default=20)
    ap.add_argument("--moves", type=int, default=200, help="N: the runs make N and 2N moves")
    ap.add_argument("--no-valgrind", action="store_true", help="CPU time per move instead")
    ap.add_argument("--inner", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    games = tuple(GAMES) if args.game == "all" else (args.game,)
    if args.inner:
        with tempfile.TemporaryDirectory() as tmp:
            asyncio.run(run_moves(Path(tmp), games[0], args.tables, args.moves))
        return 0
    if args.no_valgrind:
        print(f"cost bench: CPU time per move, {args.tables} tables, {args.moves} moves")
        for game in games:
            with tempfile.TemporaryDirectory() as tmp:
                cpu = asyncio.run(run_moves(Path(tmp), game, args.tables, args.moves))
            print(f"  {game:<13} {1000 * cpu / args.moves:.3f} ms per move")
        return 0
    if shutil.which("valgrind") is None:
        print("bench cost needs valgrind (apt install valgrind), or use --no-valgrind")
        return 2
    print(
        f"cost bench: instructions per move (callgrind), {args.tables} tables,"
        f" runs of {args.moves} and {2 * args.moves} moves"
    )
    print("| game | instructions per move | run of N | run of 2N |")
    print("|---|--:|--:|--:|")
    for game in games:
        one = _counted(game, args.tables, args.moves)
        two = _counted(game, args.tables, 2 * args.moves)
        print(f"| {game} | {(two - one) / args.moves:,.0f} | {one:,} | {two:,} |", flush=True)
    return 0
