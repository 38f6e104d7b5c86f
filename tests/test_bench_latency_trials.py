"""``bench latency``: trials go round the table counts, then a p99 summary; paced players
click inside the timed window only."""

from __future__ import annotations

import asyncio
import random
import re
import time
from pathlib import Path

import pytest

from bench.harness import open_tables, world
from bench.latency import main, play

ROW = re.compile(r"\| (\d+) \| (\d+) \|")


def test_trials_take_the_table_counts_in_turn(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--tables", "1,2", "--trials", "2", "--seconds", "0.4", "--think", "0.02"]
    assert main([*argv, "--no-probe"]) == 0
    out = capsys.readouterr().out
    rows = [line for line in out.splitlines() if ROW.match(line)]
    order = [tuple(int(x) for x in ROW.match(line).groups()) for line in rows]  # type: ignore[union-attr]
    assert order == [(1, 1), (2, 1), (1, 2), (2, 2)]  # not (1, 1), (1, 2), (2, 1)...
    summary = out.split("p99 over the trials (ms): median [lowest - highest]\n")[1]
    for tables in (1, 2):
        p99s = sorted(
            float(line.split("|")[6]) for line in rows if line.startswith(f"| {tables} |")
        )
        found = re.search(rf"  {tables} tables: ([\d.]+) \[([\d.]+) - ([\d.]+)\]", summary)
        assert found is not None
        median, low, high = (float(x) for x in found.groups())
        # the rows print two decimals, the summary one
        assert low == pytest.approx(p99s[0], abs=0.06)
        assert high == pytest.approx(p99s[1], abs=0.06)
        assert median == pytest.approx(sum(p99s) / 2, abs=0.06)


async def test_paced_players_click_only_inside_the_window(tmp_path: Path) -> None:
    """A click that would fall after the window is not made: N tables offer N / think
    moves per second, and the figures cover the window only."""
    db, cog, _transport = await world(tmp_path / "window.sqlite3")
    try:
        tables = await open_tables(cog, 6, "classic", 3)
        out: dict[str, list[float]] = {"latency": [], "handler": [], "clicked": [], "answered": []}
        began = time.perf_counter()
        until = began + 0.6
        counts = await asyncio.gather(
            *(play(cog, t, until, 0.15, random.Random(n), out) for n, t in enumerate(tables))
        )
        assert sum(counts) == len(out["clicked"]) > len(tables)
        assert max(out["clicked"]) < until
    finally:
        await db.close()
