"""The shard launcher with stand-in children (small Python scripts): start order and
spacing, restart after a death, stop on a refusal, SIGINT to every child on stop."""

from __future__ import annotations

import sys
import threading
import time
from pathlib import Path

from bot.launcher import Launcher

# A stand-in shard: logs "start", then follows its script in the file
# ``plan-<shard>`` (one line per start: "exit N" or "wait"), and logs "interrupted" on
# SIGINT before exiting 0, as the bot does when Ctrl-C closes it.
CHILD = r"""
import os, sys, time
shard, folder = sys.argv[1], sys.argv[2]
log = open(os.path.join(folder, f"log-{shard}"), "a", buffering=1)
log.write("start\n")
starts = sum(1 for line in open(os.path.join(folder, f"log-{shard}")) if line.startswith("start"))
plan = open(os.path.join(folder, f"plan-{shard}")).read().split("\n")
step = plan[min(starts, len(plan)) - 1].strip() or "wait"
try:
    if step.startswith("exit"):
        sys.exit(int(step.split()[1]))
    time.sleep(60)
except KeyboardInterrupt:
    log.write("interrupted\n")
"""


def launcher(folder: Path, plans: list[str], **kwargs: float) -> Launcher:
    for shard, plan in enumerate(plans):
        (folder / f"plan-{shard}").write_text(plan)
    options = {"spacing": 0.3, "restart_delays": (0.2, 0.5), "tick": 0.02, "stop_timeout": 10.0}
    options.update(kwargs)
    return Launcher(
        len(plans),
        lambda shard: [sys.executable, "-c", CHILD, str(shard), str(folder)],
        **options,  # type: ignore[arg-type]
    )


def log(folder: Path, shard: int) -> list[str]:
    path = folder / f"log-{shard}"
    return path.read_text().splitlines() if path.exists() else []


def wait_for(condition, seconds: float = 20.0) -> None:
    end = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < end, "timed out"
        time.sleep(0.02)


def run_in_thread(lau: Launcher) -> tuple[threading.Thread, list[int]]:
    code: list[int] = []
    thread = threading.Thread(target=lambda: code.append(lau.run()), daemon=True)
    thread.start()
    return thread, code


def test_shards_start_apart_and_a_dead_one_is_started_again(tmp_path: Path):
    lau = launcher(tmp_path, ["wait", "exit 1\nexit 1\nwait"])
    thread, code = run_in_thread(lau)
    wait_for(lambda: len([x for x in log(tmp_path, 1) if x.startswith("start")]) == 3)
    wait_for(lambda: lau.children.keys() == {0, 1})
    lau.stop()
    thread.join(15)
    assert code == [0]
    assert [shard for shard, _ in lau.starts] == [0, 1, 1, 1]
    at = [when for _, when in lau.starts]
    assert at[1] - at[0] >= 0.3  # Discord's one IDENTIFY per 5 s, scaled down
    assert at[2] - at[1] >= 0.2 and at[3] - at[2] >= 0.5  # growing pauses after deaths
    # stopping interrupts every live child, which then closes cleanly
    assert log(tmp_path, 0)[-1] == "interrupted" and log(tmp_path, 1)[-1] == "interrupted"
    assert lau.children == {}


def test_a_refused_shard_stops_them_all(tmp_path: Path):
    lau = launcher(tmp_path, ["wait", "exit 2"])
    thread, code = run_in_thread(lau)
    thread.join(20)
    assert code == [2]
    # never started again: it would only be refused again
    assert [shard for shard, _ in lau.starts] == [0, 1]
    assert log(tmp_path, 0)[-1] == "interrupted"


def test_a_child_that_ignores_the_stop_is_killed(tmp_path: Path):
    stubborn = "import signal, time; signal.signal(signal.SIGINT, signal.SIG_IGN); time.sleep(60)"
    lau = Launcher(1, lambda shard: [sys.executable, "-c", stubborn], tick=0.02, stop_timeout=0.5)
    thread, code = run_in_thread(lau)
    wait_for(lambda: lau.children.keys() == {0})
    child = lau.children[0]
    time.sleep(0.3)  # let it install its handler
    lau.stop()
    thread.join(15)
    assert code == [0] and child.returncode is not None and child.returncode < 0
