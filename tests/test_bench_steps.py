"""The latency bench's step watch: slow event-loop steps, on CPU or not, and a clean exit."""

from __future__ import annotations

import asyncio
import time

from bench.steps import StepWatch


def _spin(seconds: float) -> None:
    """Compute for ``seconds`` of this thread's CPU time (however busy the machine is)."""
    end = time.thread_time() + seconds
    while time.thread_time() < end:
        pass


async def test_slow_steps_are_counted_with_their_cpu_share() -> None:
    original = asyncio.events.Handle._run

    async def blocked() -> None:
        time.sleep(0.02)  # off CPU: the loop is stuck, the thread is not computing

    async def busy() -> None:
        _spin(0.02)

    with StepWatch(slow=0.01, every=1) as watch:
        await asyncio.create_task(blocked())
        sleeping = watch.report()
        await asyncio.create_task(busy())
        for _ in range(5):
            await asyncio.sleep(0)  # quick steps: the baseline
    assert asyncio.events.Handle._run is original
    both = watch.report()
    assert sleeping["slow steps"] == 1 and sleeping["slow on cpu"] < 0.25
    assert both["slow steps"] == 2
    assert watch.slow_cpu[0] < 0.005 <= 0.02 <= watch.slow_cpu[1]  # asleep, then computing
    assert both["steps"] >= 7 and both["fixed work ms"] > 0
    assert len(watch.after_slow) == 2
