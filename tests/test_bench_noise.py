"""The stall probe beside the latency bench: what counts as a stall, and what overlaps one."""

from __future__ import annotations

import json
import subprocess
import sys

from bench import noise
from bench.noise import MIN_STALL, SLOW, overlapping, slow_windows


def test_a_run_over_the_threshold_is_a_stall() -> None:
    runs = [(0.0, 1.0), (1.0, 2.0), (2.0, 3.0), (3.0, 3.0 + SLOW + 0.5), (9.0, 10.0)]
    median, slow = slow_windows(runs)
    assert median == 1.0
    assert slow == [(3.0, 3.0 + SLOW + 0.5)]
    # exactly at the threshold is not a stall
    assert slow_windows([(0.0, 1.0), (1.0, 2.0), (2.0, 2.0 + SLOW)])[1] == []


def test_the_probe_keeps_only_stalls_a_move_could_feel(monkeypatch) -> None:
    fast = [(i * 0.001, i * 0.001 + 0.0002) for i in range(100)]
    blip = (0.2, 0.2 + 0.001)  # 5x the median, but 1 ms: not a stall
    stall = (0.3, 0.3 + MIN_STALL + 0.001)
    monkeypatch.setattr(noise, "runs", lambda seconds, pause: [*fast, blip, stall])
    assert noise.probe(1.0) == [stall]


def test_overlap_counts_windows_that_share_any_instant() -> None:
    stalls = [(10.0, 11.0), (20.0, 22.0)]
    moves = [(9.0, 10.5), (11.0, 12.0), (12.0, 19.0), (21.0, 21.5), (5.0, 30.0)]
    # touching at an end point is not overlapping; inside or around is
    assert overlapping(moves, stalls) == 3


def test_the_json_probe_prints_windows() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "bench", "noise", "--json", "--seconds", "0.2"],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    windows = json.loads(out.stdout.splitlines()[0])
    assert isinstance(windows, list)
    assert all(len(w) == 2 and w[0] <= w[1] for w in windows)
