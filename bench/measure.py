"""The latency bench's measurement: tables played concurrently, each move timed from the
click to the interaction response (see ``bench/latency.py`` for what the figures mean)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bot.heap import settle_after_startup

from .drive import Player
from .harness import click, next_click, open_tables, world
from .steps import StepWatch


def pct(values: list[float], q: float) -> float:
    """The q-quantile (0..1) of ``values``."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def queue_model(
    services: list[float], rate: float, scale: float = 1.0, n: int = 200_000, seed: int = 5
) -> list[float]:
    """Sojourn times (wait + service, sorted) of ``n`` moves in a one-server FIFO queue:
    Poisson arrivals at ``rate`` per second, each served in a time drawn from ``services``
    (seconds) times ``scale``. What the bench's latency would be if the event loop were
    only that queue, on a machine of constant speed."""
    rng = random.Random(seed)
    clock = free = 0.0
    out = []
    for _ in range(n):
        clock += rng.expovariate(rate)
        free = max(clock, free) + rng.choice(services) * scale
        out.append(free - clock)
    out.sort()
    return out


async def play(
    bot: Any,
    table: Any,
    until: float,
    think: float,
    rng: random.Random,
    out: dict[str, list[float]],
) -> int:
    """Click moves at one table until ``until``; append each move's latency (from the click,
    waiting for the event loop included) and handler time (seconds) to ``out``."""
    strategy = Player()
    moves = 0
    clock = time.perf_counter
    # the simulated players' own thinking is not the bot's work: seats are read once (the
    # bench's players never leave) instead of from a public view built for every click
    seats = table.game.seated()
    while table.is_open:
        # the click: after a think time, or (saturated) the moment the last one was answered
        clicked = clock() + (rng.expovariate(1 / think) if think else 0.0)
        if clicked >= until:  # a click after the window is not made: the rate stays N / think
            break
        await asyncio.sleep(max(0.0, clicked - clock()))  # saturated: the other tables' turn
        interaction, name, arg = next_click(bot, table, strategy, seats)
        began = clock()
        await click(bot, interaction, table.id, table.version, name, arg)
        if interaction.responded_at is None:
            raise RuntimeError(f"no response to {name}")
        out["latency"].append(interaction.responded_at - clicked)
        out["clicked"].append(clicked)
        out["answered"].append(interaction.responded_at)
        out["handler"].append(interaction.responded_at - began)
        moves += 1
    return moves


def _probe(seconds: float) -> subprocess.Popen[str]:
    """Start ``bench noise --json``: a separate process noting the machine's hiccups."""
    return subprocess.Popen(
        [sys.executable, "-m", "bench", "noise", "--json", "--seconds", str(seconds)],
        stdout=subprocess.PIPE,
        text=True,
    )


async def measure(
    folder: Path,
    tables: int,
    game: str,
    players: int,
    seconds: float,
    think: float,
    probe: bool = False,
    steps: bool = False,
    *,
    path: Path | str | None = None,
    first_channel: int = 1,
    ready: Callable[[], None] | None = None,
    guilds: int = 1,
    warmup: float = 0.0,
    first_table: int = 0,
) -> dict[str, Any]:
    """Open ``tables`` tables, play them concurrently for ``seconds``, return figures.

    ``path``: the database file (one several processes share), else a fresh file in
    ``folder``. ``warmup``: seconds every table plays, untimed, before the window.
    ``first_table``: this process's first table's number (``open_tables``).
    ``ready``: called once the tables are open and warm, just before the timed window
    (processes sharing a file wait for each other there)."""
    if path is None:
        run = len(list(folder.glob("latency-*.sqlite3")))  # a fresh file for every run
        path = folder / f"latency-{game}-{tables}-{run}.sqlite3"
    db, bot, _transport = await world(path)
    try:
        opened = await open_tables(
            bot,
            tables + 1,
            game,
            players,
            first_channel=first_channel,
            guilds=guilds,
            first_table=first_table,
        )
        warm = opened.pop()  # first moves pay for lazy imports and caches: not timed
        await play(
            bot,
            warm,
            time.perf_counter() + 0.5,
            0.0,
            random.Random(0),
            {"latency": [], "handler": [], "clicked": [], "answered": []},
        )
        if warmup > 0:  # every table's own first moves, the pool's connections: not timed
            spare: dict[str, list[float]] = {"latency": [], "handler": [], "clicked": []}
            spare["answered"] = []
            until = time.perf_counter() + warmup
            rng = random.Random(2)
            await asyncio.gather(*(play(bot, t, until, think, rng, spare) for t in opened))
        settle_after_startup()  # as the bot does once its tables are loaded
        if ready is not None:
            ready()
        out: dict[str, list[float]] = {"latency": [], "handler": [], "clicked": [], "answered": []}
        rng = random.Random(1)
        prober = _probe(seconds + 2 * think) if probe else None
        watch = StepWatch() if steps else contextlib.nullcontext()
        began = time.perf_counter()
        window = [time.time()]  # wall clock: comparable between processes
        cpu = time.thread_time()  # the event loop's thread: the bot's work and the players'
        until = began + seconds
        with watch:
            counts = await asyncio.gather(*(play(bot, t, until, think, rng, out) for t in opened))
        took = time.perf_counter() - began
        window.append(time.time())
        cpu = time.thread_time() - cpu
        timers = bot.tables.timer_entries
    finally:
        await db.close()
    return _figures(tables, out, counts, took, cpu, prober, watch, timers, window)


def _figures(
    tables: int,
    out: dict[str, list[float]],
    counts: list[int],
    took: float,
    cpu: float,
    prober: subprocess.Popen[str] | None,
    watch: Any,
    timers: int,
    window: list[float],
) -> dict[str, Any]:
    """A run's figures from its moves' times."""
    latency, handler = out["latency"], out["handler"]
    # the loop's work per move besides the handler (simulated player, post-answer work,
    # asyncio): added to each handler time, it is a move's service in the queue model
    other = max(0.0, cpu / max(1, sum(counts)) - statistics.fmean(handler)) if handler else 0.0
    # moves whose wait overlapped none of the machine's hiccups (moves queued behind a
    # hiccup's backlog but clicked after it still count as clear: this errs high)
    hiccups = json.loads(prober.communicate()[0]) if prober else []
    clear = [
        wait
        for wait, a, b in zip(latency, out["clicked"], out["answered"], strict=True)
        if not any(a < d and c < b for c, d in hiccups)
    ]
    return {
        "tables": tables,
        "moves": sum(counts),
        "moves/s": sum(counts) / took,
        "median ms": 1000 * statistics.median(latency) if latency else float("nan"),
        "p99 ms": 1000 * pct(latency, 0.99),
        "max ms": 1000 * max(latency, default=float("nan")),
        "handler median ms": 1000 * statistics.median(handler) if handler else float("nan"),
        "handler p99 ms": 1000 * pct(handler, 0.99),
        "loop ms/move": 1000 * cpu / max(1, sum(counts)),
        "services": [h + other for h in handler],
        "loop load": cpu / took,
        "stalls": len(hiccups),
        "clear %": 100 * len(clear) / len(latency) if latency else float("nan"),
        "clear p99 ms": 1000 * pct(clear, 0.99),
        "timer entries": timers,
        "latencies": latency,
        "window": window,
        "steps": watch.report() if isinstance(watch, StepWatch) else None,
    }
