"""How steady this machine's CPU is: the same small piece of work, timed again and again.

Tail latencies measured by the other benches include the machine's own hiccups; this
prints them for the machine alone (run it beside another bench to see both).
"""

from __future__ import annotations

import argparse
import time


def main(argv: list[str]) -> int:
    """``bench noise [--seconds S]``: time a fixed ~0.7 ms of work every 2 ms."""
    ap = argparse.ArgumentParser(prog="python -m bot bench noise")
    ap.add_argument("--seconds", type=float, default=15.0)
    args = ap.parse_args(argv)
    data = list(range(200_000))
    took: list[float] = []
    end = time.perf_counter() + args.seconds
    while time.perf_counter() < end:
        began = time.perf_counter()
        total = 0
        for i in range(0, 200_000, 50):
            total += data[i]
        took.append(time.perf_counter() - began)
        time.sleep(0.002)
    took.sort()
    median = took[len(took) // 2]
    print(
        f"noise bench: {len(took)} runs of the same work in {args.seconds:g} s:"
        f" median {median * 1e3:.2f} ms, p99 {took[int(len(took) * 0.99)] * 1e3:.2f} ms,"
        f" max {took[-1] * 1e3:.2f} ms, {sum(t > 5 * median for t in took)} runs over 5x the"
        " median"
    )
    return 0
