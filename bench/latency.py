"""Latency inside the bot: from a button click reaching the bot to its response being sent.

Two figures per move:

- ``latency``: from the click (the instant the simulated player clicks) to the moment the
  handler hands the interaction response (the edited table message: embed + buttons,
  serialised as discord.py would) to the stubbed transport. It includes the wait for the
  event loop when other tables' moves are running: what a player would feel, minus the
  network. (An idle loop wakes a timer up to ~1 ms late: epoll counts in milliseconds.)
- ``handler``: from the moment ``on_click`` (what ``MoveButton.callback``
  calls) starts to that response: locale, the table lock, ``TableService.act`` (engine
  apply, snapshot, postings, action row, timers, one SQLite transaction on the real
  database file) and the render.

DMs and announcements sent after the response are not in the figures but do load the
event loop. Not included: the gateway, discord.py's dispatch, HTTP, Discord.

The machine's own stalls: unless ``--no-probe``, a second process (``bench noise --json``)
notes when a fixed piece of work was stalled for 5 ms or more. Besides the p99 of all
moves the bench prints the p99 of the "clear" moves, whose wait overlapped no such stall
(a move queued behind a stall's backlog but clicked after it still counts as clear). On
the development VM, at this bench's load, such stalls are rare and short: the two p99s
are close, and the tail is the bot's own (docs/BENCHMARKS.md, fourth pass).

What drives that tail: every move queues on the one event loop, so the p99 follows the
loop's load, printed as ``loop ms/move`` (the loop thread's CPU time per move, simulated
players included) and ``loop load`` (that CPU time over the window). The same fixed work
runs up to ~2x slower at some moments than at others on this VM, and the load with it.

``--steps`` times every event-loop step, and a fixed piece of work right after the slow
ones (``steps.py``): whether a slow step was the move's work or the machine's slow moment.
``--processes K`` splits the tables over K processes sharing one database file
(``processes.py``): what K shard processes of the bot would give.

Two loads:

- ``paced``: each table moves at a human pace (``--think`` seconds between a response
  and the next click, exponential), so N tables offer N / think moves per second.
- ``saturated``: every table clicks again as soon as it is answered (closed loop). The
  bot is then always busy and, by Little's law, latency = tables / throughput: this mode
  measures throughput (and the handler time under full load).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
from pathlib import Path
from typing import Any

from bot.engine.registry import GAMES

from .measure import measure, pct, play, queue_model
from .processes import child, run_processes

__all__ = ["main", "play", "queue_model"]


def main(argv: list[str]) -> int:
    """``bench latency [--tables 1,100,1000] [--seconds S] [--think T] [--saturated]
    [--trials N]``."""
    import logging

    logging.disable(logging.WARNING)
    args = _parser().parse_args(argv)
    if args.child:
        return child(args.child)
    think = 0.0 if args.saturated else args.think
    mode = "saturated (closed loop)" if not think else f"paced, {think:g} s mean think time"
    print(
        f"latency bench: {args.game}, {args.players} players per table, {mode},"
        f" {args.seconds:g} s per line; click -> interaction response, stubbed transport"
    )
    print(
        "| tables | trial | moves | moves/s | median ms | p99 ms | max ms"
        " | handler median ms | handler p99 ms | loop ms/move | loop load | stalls"
        " | clear moves | clear p99 ms |"
    )
    print("|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|")
    counts = [int(x) for x in args.tables.split(",")]
    p99s: dict[int, list[float]] = {n: [] for n in counts}
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        # trials go round the table counts: the machine's drift (its speed moves by tens of
        # per cent within minutes) then falls on every line alike
        for trial in range(1, args.trials + 1):
            for n in counts:
                if args.processes > 1:
                    runs = run_processes(Path(tmp), n, args.processes, args, think)
                    for index, r in enumerate(runs, 1):
                        _print_run(r, f"{trial}.{index}", args, think)
                    everything = [x for r in runs for x in r["latencies"]]
                    p99s[n].append(1000 * pct(everything, 0.99))
                    print(
                        f"  all {args.processes} processes: {len(everything)} moves,"
                        f" p99 {p99s[n][-1]:.2f} ms",
                        flush=True,
                    )
                    continue
                r = asyncio.run(
                    measure(
                        Path(tmp),
                        n,
                        args.game,
                        args.players,
                        args.seconds,
                        think,
                        probe=not args.no_probe,
                        steps=args.steps,
                    )
                )
                p99s[n].append(r["p99 ms"])
                _print_run(r, str(trial), args, think)
    if args.trials > 1:
        print("p99 over the trials (ms): median [lowest - highest]")
        for n, values in p99s.items():
            print(
                f"  {n} tables: {statistics.median(values):.1f}"
                f" [{min(values):.1f} - {max(values):.1f}]",
                flush=True,
            )
    return 0


def _parser() -> argparse.ArgumentParser:
    """The bench's options."""
    ap = argparse.ArgumentParser(prog="python -m bench latency")
    ap.add_argument("--tables", default="1,100,1000")
    ap.add_argument("--game", default="blackjack", choices=GAMES.names())
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--seconds", type=float, default=10.0)
    ap.add_argument("--think", type=float, default=3.0, help="mean seconds between moves")
    ap.add_argument("--saturated", action="store_true", help="no think time (closed loop)")
    ap.add_argument(
        "--trials",
        type=int,
        default=1,
        help="runs per table count, taken in turn (tails are noisy)",
    )
    ap.add_argument("--dir", default=None, help="folder for the database files (temp)")
    ap.add_argument(
        "--model",
        action="store_true",
        help="also print the p99 of a one-server queue fed with each run's own work per move",
    )
    ap.add_argument(
        "--steps",
        action="store_true",
        help="time every event-loop step, and a fixed piece of work after the slow ones",
    )
    ap.add_argument(
        "--processes",
        type=int,
        default=1,
        help="split the tables over this many processes sharing one database file"
        " (no stall probe then: their stalls column reads 0)",
    )
    ap.add_argument(
        "--own-databases",
        action="store_true",
        help="with --processes: a database file per process (shards owning their guilds)",
    )
    ap.add_argument("--child", default=None, help=argparse.SUPPRESS)
    ap.add_argument(
        "--no-probe",
        action="store_true",
        help="do not run the hiccup probe (bench noise --json) beside the bot",
    )
    return ap


def _print_run(r: dict[str, Any], trial: str, args: argparse.Namespace, think: float) -> None:
    """One run's row, then its timer heap, loop steps and queue model lines."""
    print(
        f"| {r['tables']} | {trial} | {r['moves']} | {r['moves/s']:.0f}"
        f" | {r['median ms']:.2f} | {r['p99 ms']:.2f} | {r['max ms']:.2f}"
        f" | {r['handler median ms']:.2f} | {r['handler p99 ms']:.2f}"
        f" | {r['loop ms/move']:.2f} | {r['loop load']:.0%}"
        f" | {r['stalls']} | {r['clear %']:.1f}% | {r['clear p99 ms']:.2f} |",
        flush=True,
    )
    print(
        f"  timer heap: {r['timer entries']} entries for {r['tables'] + 1} tables"
        f" after {r['moves']} moves",
        flush=True,
    )
    if r["steps"]:
        w = r["steps"]
        print(
            f"  loop steps: {w['steps']}, {w['slow steps']} over 4 ms (median"
            f" {w['slow median ms']:.1f} ms, {w['slow on cpu']:.0%} of it on CPU);"
            f" fixed work {w['fixed work ms']:.2f} ms, right after a slow step"
            f" {w['fixed work after slow ms']:.2f} ms",
            flush=True,
        )
    if args.model and r["services"]:
        rate = r["moves/s"]
        cuts = ", ".join(
            f"x{k:g}: {1000 * pct(queue_model(r['services'], rate, k), 0.99):.1f}"
            for k in (1.0, 0.9, 0.8, 0.7)
        )
        print(f"  queue model p99 ms, the work per move scaled {cuts}", flush=True)
