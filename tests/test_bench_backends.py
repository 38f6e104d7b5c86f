"""``bench backends --servers``: alternating windows, their medians and ratio, and the
contention probe's counts (a real lock wait on the test server)."""

from __future__ import annotations

import asyncio
import os

import asyncpg
import pytest

from bench import backends
from bench.contention import Counts, Probe
from bench.servers import Window, order, summary

PG = os.environ.get("TEST_DATABASE_URL", "").strip()
needs_pg = pytest.mark.skipif(not PG, reason="PostgreSQL: set TEST_DATABASE_URL to run it")


def _window(servers: int, rate: float, waits: int = 0, multixacts: int = 0) -> Window:
    counts = Counts(multixacts=multixacts)
    counts.waits["Lock:transactionid on bank_accounts"] = waits
    return Window(servers, rate, 1000, 200, 0, 0, counts)


def test_the_set_ups_alternate_pair_by_pair() -> None:
    assert order([1, 100], 3) == [1, 100, 100, 1, 1, 100]


def test_the_summary_gives_medians_the_ratio_and_its_spread() -> None:
    windows = [
        _window(1, 900, waits=4),
        _window(100, 1000),
        _window(100, 1200),
        _window(1, 1100, waits=2, multixacts=600),
        _window(1, 1000, waits=3),
        _window(100, 800),
    ]
    lines = summary(windows, [1, 100])
    assert lines[0].startswith("1 server(s): median 1000 moves/s over 3 windows")
    assert "lock waits 3.0, MultiXacts 0.0 per 1,000 moves" in lines[0]
    assert lines[1].startswith("100 server(s): median 1000 moves/s")
    # per pair: 900/1000, 1100/1200, 1000/800
    assert lines[2] == "ratio 1 / 100 servers: 1.000 (medians); per pair 0.900-1.250"


@needs_pg
async def test_the_probe_counts_a_row_lock_wait_once() -> None:
    app = "probe-test"
    first = await asyncpg.connect(PG, server_settings={"application_name": app})
    second = await asyncpg.connect(PG, server_settings={"application_name": app})
    await first.execute("CREATE TEMP TABLE IF NOT EXISTS probe_row (id int)")
    await first.execute("CREATE TABLE IF NOT EXISTS probe_row_shared (id int)")
    await first.execute("TRUNCATE probe_row_shared; INSERT INTO probe_row_shared VALUES (1)")
    try:
        async with Probe(PG, app) as probe:
            start = asyncio.get_running_loop().time()
            async with first.transaction():
                await first.execute("UPDATE probe_row_shared SET id = 2")
                waiter = asyncio.create_task(second.execute("UPDATE probe_row_shared SET id = 3"))
                await asyncio.sleep(0.2)  # forty looks of the probe at the same wait
            await waiter
        assert asyncio.get_running_loop().time() - start >= 0.2
        counts = probe.window(0, float("inf"))
        assert counts.lock_waits() == 1
        assert counts.waits == {"Lock:transactionid on UPDATE probe_row_shared SET id = 3": 1}
    finally:
        await first.execute("DROP TABLE probe_row_shared")
        await first.close()
        await second.close()


@needs_pg
def test_a_tiny_run_prints_each_window_then_the_summary(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ["--pg", PG, "--servers", "1,2", "--tables", "3", "--seconds", "0.3"]
    assert backends.main([*argv, "--pairs", "2", "--warmup", "0.2"]) == 0
    out = capsys.readouterr().out
    rows = [line.split(" | ") for line in out.splitlines() if line.startswith("| ")][1:]
    assert [int(row[1]) for row in rows] == [1, 2, 2, 1]  # window 1..4: A B, B A
    for row in rows:
        moves, rounds = int(row[3]), int(row[4])
        assert moves > 0 and rounds > 0
        assert float(row[5]) == 0.0  # no settlement writes a treasury row
    assert "ratio 1 / 2 servers:" in out
    assert "rows per 1,000 moves, 1 server(s)" in out and "bank_postings +" in out
