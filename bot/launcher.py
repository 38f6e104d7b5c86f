"""``python -m bot run`` with ``SHARD_COUNT`` > 1: one process per shard, kept running.

Each child is ``python -m bot run --shard N``. Children start a few seconds apart because
Discord lets a bot open one gateway session per 5 s. A child that dies is started again
after a pause that grows with repeated deaths; one that exits with code 2 (a setting or a
database refused, see ``bot/shards.py``) would only fail again, so the launcher stops all.
Ctrl-C or SIGTERM stops every child with SIGINT, which closes each bot cleanly.
"""

from __future__ import annotations

import logging
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from types import FrameType

log = logging.getLogger("croupier.launcher")

IDENTIFY_SPACING = 5.5  # seconds between two shards' starts (one IDENTIFY per 5 s)
RESTART_DELAYS = (2.0, 5.0, 15.0, 60.0)  # after the 1st, 2nd, 3rd, later deaths in a row
STEADY_AFTER = 300.0  # a child up this long has its death count reset
STOP_TIMEOUT = 30.0  # seconds a child gets to close before it is killed
CONFIG_ERROR = 2


def shard_command(shard_id: int) -> list[str]:
    """The command line of one shard's process."""
    return [sys.executable, "-m", "bot", "run", "--shard", str(shard_id)]


class Launcher:
    """Starts ``shard_count`` children and restarts the ones that die."""

    def __init__(
        self,
        shard_count: int,
        command: Callable[[int], Sequence[str]] = shard_command,
        *,
        spacing: float = IDENTIFY_SPACING,
        restart_delays: Sequence[float] = RESTART_DELAYS,
        steady_after: float = STEADY_AFTER,
        stop_timeout: float = STOP_TIMEOUT,
        tick: float = 0.2,
    ) -> None:
        self.shard_count = shard_count
        self.command = command
        self.spacing = spacing
        self.restart_delays = tuple(restart_delays)
        self.steady_after = steady_after
        self.stop_timeout = stop_timeout
        self.tick = tick
        self.children: dict[int, subprocess.Popen[bytes]] = {}
        self.started_at: dict[int, float] = {}
        self.deaths: dict[int, int] = dict.fromkeys(range(shard_count), 0)
        self.starts: list[tuple[int, float]] = []  # (shard, monotonic time) of every start
        self._stopping = False

    def stop(self, *_: object) -> None:
        """Ask the launcher to stop its children and return (a signal handler)."""
        self._stopping = True

    def _start(self, shard_id: int) -> None:
        self.children[shard_id] = subprocess.Popen(list(self.command(shard_id)))
        self.started_at[shard_id] = time.monotonic()
        self.starts.append((shard_id, self.started_at[shard_id]))
        log.info("shard %d started (pid %d)", shard_id, self.children[shard_id].pid)

    def _sleep(self, seconds: float) -> bool:
        """Sleep unless asked to stop; False if the launcher is stopping."""
        end = time.monotonic() + seconds
        while not self._stopping and time.monotonic() < end:
            time.sleep(min(self.tick, max(0.0, end - time.monotonic())))
        return not self._stopping

    def run(self) -> int:
        """Run until stopped or a child is refused; the exit code for the launcher."""
        code = 0
        due: dict[int, float] = {}  # shard -> when to start it again
        for shard_id in range(self.shard_count):
            if shard_id and not self._sleep(self.spacing):
                break
            self._start(shard_id)
        while not self._stopping:
            now = time.monotonic()
            for shard_id, child in list(self.children.items()):
                status = child.poll()
                if status is None:
                    continue
                del self.children[shard_id]
                if status == CONFIG_ERROR:
                    log.error("shard %d was refused (exit 2): stopping every shard", shard_id)
                    code = CONFIG_ERROR
                    self._stopping = True
                    break
                if now - self.started_at[shard_id] >= self.steady_after:
                    self.deaths[shard_id] = 0
                delay = self.restart_delays[
                    min(self.deaths[shard_id], len(self.restart_delays) - 1)
                ]
                self.deaths[shard_id] += 1
                due[shard_id] = now + delay
                log.warning("shard %d exited (%s): restart in %.0f s", shard_id, status, delay)
            for shard_id, when in list(due.items()):
                if not self._stopping and when <= now:
                    del due[shard_id]
                    self._start(shard_id)
            if not self._stopping:
                time.sleep(self.tick)
        self._stop_children()
        return code

    def _stop_children(self) -> None:
        for child in self.children.values():
            if child.poll() is None:
                child.send_signal(signal.SIGINT)
        deadline = time.monotonic() + self.stop_timeout
        for shard_id, child in self.children.items():
            try:
                child.wait(timeout=max(0.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                log.error("shard %d did not stop in %.0f s: killed", shard_id, self.stop_timeout)
                child.kill()
                child.wait()
        self.children.clear()


def run_shards(shard_count: int) -> int:
    """Start and supervise the shard processes until Ctrl-C or SIGTERM."""
    launcher = Launcher(shard_count)

    def on_signal(signum: int, frame: FrameType | None) -> None:
        launcher.stop()

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    return launcher.run()
