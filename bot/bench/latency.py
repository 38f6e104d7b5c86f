"""Latency inside the bot: from a button click reaching the cog to its response being sent.

What is timed: ``Tables.on_move_button`` (the cog's handler that ``MoveButton.callback``
calls) with a fake interaction, up to the moment the cog hands the interaction response
(the edited table message: embed + buttons, serialised as discord.py would) to the stubbed
transport. Inside: locale, the table lock, ``TableService.act`` (engine apply, snapshot,
postings, action row, timers, in one SQLite transaction on the real database file) and
the render. DMs and announcements sent after the response are not in the figure but do
load the event loop. Not included: the gateway, discord.py's dispatch, HTTP, Discord.

Two loads:

- ``paced``: each table moves at a human pace (``--think`` seconds between a response
  and the next click, exponential), so N tables offer N / think moves per second.
- ``saturated``: every table clicks again as soon as it is answered (closed loop). The
  bot is then always busy and, by Little's law, latency = tables / throughput: this mode
  measures throughput, its latency grows linearly with the number of tables.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from bot.heap import settle_after_startup

from .drive import Player, seated
from .harness import Interaction, open_tables, world


def pct(values: list[float], q: float) -> float:
    """The q-quantile (0..1) of ``values``."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def play(
    cog: Any,
    table: Any,
    until: float,
    think: float,
    rng: random.Random,
    out: list[float],
) -> int:
    """Click moves at one table until ``until``; append each latency (seconds) to ``out``."""
    strategy = Player()
    moves = 0
    while time.perf_counter() < until and table.is_open:
        if think:
            await asyncio.sleep(rng.expovariate(1 / think))
        move = strategy.next_move(table.game, seated(table.game))
        if move is None:
            host = table.game.host
            move = (host, "start", None)
        player, name, arg = move
        interaction = Interaction(cog.bot.transport, player, table.message_id)
        began = time.perf_counter()
        await cog.on_move_button(interaction, table.id, table.version, name, arg)
        if interaction.responded_at is None:
            raise RuntimeError(f"no response to {name}")
        out.append(interaction.responded_at - began)
        moves += 1
        if not think:
            await asyncio.sleep(0)  # let the other tables click too
    return moves


async def measure(
    folder: Path, tables: int, game: str, players: int, seconds: float, think: float
) -> dict[str, Any]:
    """Open ``tables`` tables, play them concurrently for ``seconds``, return figures."""
    db, cog, _transport = await world(folder / f"latency-{game}-{tables}-{think}.sqlite3")
    try:
        opened = await open_tables(cog, tables, game, players)
        settle_after_startup()  # as the bot does once its tables are loaded
        latencies: list[float] = []
        rng = random.Random(1)
        began = time.perf_counter()
        until = began + seconds
        counts = await asyncio.gather(*(play(cog, t, until, think, rng, latencies) for t in opened))
        took = time.perf_counter() - began
    finally:
        await db.close()
    return {
        "tables": tables,
        "moves": sum(counts),
        "moves/s": sum(counts) / took,
        "median ms": 1000 * statistics.median(latencies) if latencies else float("nan"),
        "p99 ms": 1000 * pct(latencies, 0.99),
        "max ms": 1000 * max(latencies, default=float("nan")),
    }


def main(argv: list[str]) -> int:
    """``bench latency [--tables 1,100,1000] [--seconds S] [--think T] [--saturated]``."""
    import logging

    logging.disable(logging.WARNING)
    ap = argparse.ArgumentParser(prog="python -m bot bench latency")
    ap.add_argument("--tables", default="1,100,1000")
    ap.add_argument("--game", default="classic")
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--seconds", type=float, default=10.0)
    ap.add_argument("--think", type=float, default=3.0, help="mean seconds between moves")
    ap.add_argument("--saturated", action="store_true", help="no think time (closed loop)")
    args = ap.parse_args(argv)
    think = 0.0 if args.saturated else args.think
    mode = "saturated (closed loop)" if not think else f"paced, {think:g} s mean think time"
    print(
        f"latency bench: {args.game}, {args.players} players per table, {mode},"
        f" {args.seconds:g} s per line; click -> interaction response, stubbed transport"
    )
    print("| tables | moves | moves/s | median ms | p99 ms | max ms |")
    print("|------:|------:|--------:|----------:|-------:|-------:|")
    with tempfile.TemporaryDirectory() as tmp:
        for n in (int(x) for x in args.tables.split(",")):
            r = asyncio.run(measure(Path(tmp), n, args.game, args.players, args.seconds, think))
            print(
                f"| {r['tables']} | {r['moves']} | {r['moves/s']:.0f} | {r['median ms']:.2f} |"
                f" {r['p99 ms']:.2f} | {r['max ms']:.2f} |",
                flush=True,
            )
    return 0
