"""How steady this machine's CPU is: the same small piece of work, timed again and again.

Tail latencies measured by the other benches include the machine's own hiccups; this
prints them for the machine alone (run it beside another bench to see both).

- ``bench noise``: one process, a fixed ~0.5 ms of work every 2 ms.
- ``bench noise --cores``: one such probe pinned to each core at once, busy (no sleep),
  and how many of one core's slow runs overlap a slow run on the other: a hiccup seen on
  every core at the same instant is the machine's (the host), not a process's.
- ``probe(seconds)`` (used by ``bench latency``): the runs slowed down by a real stall
  (over ``MIN_STALL``, and ``SLOW`` times the median), as ``time.perf_counter()`` windows
  (CLOCK_MONOTONIC on Linux, the same clock in every process).

What it showed on the development VM (docs/BENCHMARKS.md): with both cores busy the VM
exceeds its CPU quota (about 1.3-1.5 CPUs) and every core freezes for up to 100 ms, so
``--cores`` busy measures the probes' own throttling, not the machine at rest. Below that
load the host's hiccups are short (a few ms) and hit both cores at once.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

SLOW = 3.0  # a run this many times the median is a hiccup
# ...and a stall a move could feel lasts at least this long: shorter slowdowns are ordinary
# for a probe that shares the cores with a benchmark
MIN_STALL = 0.005
_DATA = list(range(200_000))


def _work() -> int:
    total = 0
    for i in range(0, 200_000, 50):
        total += _DATA[i]
    return total


def runs(seconds: float, pause: float) -> list[tuple[float, float]]:
    """(start, end) of each run of the fixed work for ``seconds``, ``pause`` s apart."""
    out: list[tuple[float, float]] = []
    clock = time.perf_counter
    end = clock() + seconds
    while clock() < end:
        began = clock()
        _work()
        out.append((began, clock()))
        if pause:
            time.sleep(pause)
    return out


def slow_windows(timed: list[tuple[float, float]]) -> tuple[float, list[tuple[float, float]]]:
    """(median run time, the runs that took over ``SLOW`` times the median)."""
    took = sorted(b - a for a, b in timed)
    median = took[len(took) // 2]
    return median, [(a, b) for a, b in timed if b - a > SLOW * median]


def probe(seconds: float, pause: float = 0.002) -> list[tuple[float, float]]:
    """The machine's stalls during the next ``seconds``: the runs of the fixed work that
    were slow (``slow_windows``) and took at least ``MIN_STALL``."""
    return [(a, b) for a, b in slow_windows(runs(seconds, pause))[1] if b - a >= MIN_STALL]


def overlapping(windows: list[tuple[float, float]], others: list[tuple[float, float]]) -> int:
    """How many of ``windows`` overlap at least one of ``others``."""
    return sum(any(a < d and c < b for c, d in others) for a, b in windows)


def _pinned(core: int, seconds: float, pause: float) -> None:
    """Child of ``--cores``: the probe on one core, its windows and CPU use as JSON."""
    os.sched_setaffinity(0, {core})
    cpu = time.process_time()
    median, windows = slow_windows(runs(seconds, pause))
    cpu = (time.process_time() - cpu) / seconds
    print(json.dumps({"core": core, "median": median, "windows": windows, "cpu": cpu}))


def per_core(seconds: float, pause: float = 0.0) -> int:
    """Run a probe on every core at once (busy, or ``pause`` s between runs) and compare
    their hiccups."""
    cores = sorted(os.sched_getaffinity(0))
    children = [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "bench",
                "noise",
                "--pinned",
                str(c),
                "--seconds",
                str(seconds),
                "--pause",
                str(pause),
            ],
            stdout=subprocess.PIPE,
            text=True,
        )
        for c in cores
    ]
    results = [json.loads(child.communicate()[0]) for child in children]
    load = sum(r["cpu"] for r in results)
    kind = "busy" if not pause else f"{pause * 1e3:g} ms between runs"
    print(
        f"noise bench, one probe per core ({len(cores)} cores, {kind}), {seconds:g} s,"
        f" {load:.2f} CPUs used in all:"
    )
    for r in results:
        windows = r["windows"]
        others = [w for o in results if o is not r for w in o["windows"]]
        slowest = max((b - a for a, b in windows), default=0.0)
        covered = sum(b - a for a, b in windows)
        print(
            f"  core {r['core']}: median {r['median'] * 1e3:.2f} ms, {len(windows)} runs over"
            f" {SLOW:g}x (slowest {slowest * 1e3:.1f} ms, {covered / seconds:.1%} of the time);"
            f" {overlapping(windows, others)} of them overlap a slow run on another core"
        )
    return 0


def main(argv: list[str]) -> int:
    """``bench noise [--seconds S] [--cores]``: time a fixed ~0.5 ms of work again and
    again (every 2 ms, or busy on every core at once)."""
    ap = argparse.ArgumentParser(prog="python -m bench noise")
    ap.add_argument("--seconds", type=float, default=15.0)
    ap.add_argument("--cores", action="store_true", help="a busy probe pinned on each core")
    ap.add_argument(
        "--pause", type=float, default=0.0, help="with --cores: seconds between runs (0: busy)"
    )
    ap.add_argument("--pinned", type=int, default=None, help=argparse.SUPPRESS)
    ap.add_argument("--json", action="store_true", help="print the hiccup windows as JSON")
    args = ap.parse_args(argv)
    if args.json:
        print(json.dumps(probe(args.seconds)))
        return 0
    if args.pinned is not None:
        _pinned(args.pinned, args.seconds, args.pause)
        return 0
    if args.cores:
        return per_core(args.seconds, args.pause)
    timed = runs(args.seconds, 0.002)
    took = sorted(b - a for a, b in timed)
    median = took[len(took) // 2]
    print(
        f"noise bench: {len(took)} runs of the same work in {args.seconds:g} s:"
        f" median {median * 1e3:.2f} ms, p99 {took[int(len(took) * 0.99)] * 1e3:.2f} ms,"
        f" max {took[-1] * 1e3:.2f} ms, {sum(t > 5 * median for t in took)} runs over 5x the"
        " median"
    )
    return 0
