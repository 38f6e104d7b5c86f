"""What the event loop runs, step by step: which steps are slow, and whether the machine
was slow at that moment.

Every callback the loop runs (a task step: for a move, from the click to its answer) is
timed, wall clock and the loop thread's CPU time. Right after a slow step, and after every
``every``-th step for a baseline, the same fixed piece of pure-Python work is timed. If that
fixed work is slow too right after the slow steps, the machine ran slowly then (the host
took the core away, and the guest counted that time as the thread's CPU time), not the
step's own work.
"""

from __future__ import annotations

import asyncio.events
import statistics
import time
from types import TracebackType
from typing import Any

CALIBRATION = 20_000  # sum(range(n)): ~0.3-0.5 ms of pure Python on the development VM


def fixed_work() -> float:
    """Seconds the fixed piece of work takes now."""
    began = time.perf_counter()
    sum(range(CALIBRATION))
    return time.perf_counter() - began


class StepWatch:
    """Times the event loop's steps while active (a context manager)."""

    def __init__(self, slow: float = 0.004, every: int = 200) -> None:
        self.slow = slow
        self.every = every
        self.steps = 0
        self.slow_wall: list[float] = []
        self.slow_cpu: list[float] = []
        self.baseline: list[float] = []
        self.after_slow: list[float] = []
        self._original: Any = None

    def __enter__(self) -> StepWatch:
        original = self._original = asyncio.events.Handle._run
        watch = self

        def _run(handle: asyncio.events.Handle) -> None:
            wall, cpu = time.perf_counter(), time.thread_time()
            original(handle)
            wall, cpu = time.perf_counter() - wall, time.thread_time() - cpu
            watch.steps += 1
            if wall > watch.slow:
                watch.slow_wall.append(wall)
                watch.slow_cpu.append(cpu)
                watch.after_slow.append(fixed_work())
            elif watch.steps % watch.every == 0:
                watch.baseline.append(fixed_work())

        asyncio.events.Handle._run = _run  # type: ignore[method-assign]
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        asyncio.events.Handle._run = self._original  # type: ignore[method-assign]

    def report(self) -> dict[str, float]:
        """Steps, slow steps, their share on CPU, and the fixed work's medians (ms)."""

        def median_ms(values: list[float]) -> float:
            return 1000 * statistics.median(values) if values else float("nan")

        wall = sum(self.slow_wall)
        return {
            "steps": self.steps,
            "slow steps": len(self.slow_wall),
            "slow median ms": median_ms(self.slow_wall),
            "slow on cpu": sum(self.slow_cpu) / wall if wall else float("nan"),
            "fixed work ms": median_ms(self.baseline),
            "fixed work after slow ms": median_ms(self.after_slow),
        }
