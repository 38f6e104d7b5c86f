"""The stats bench, run tiny: its history's round results agree with the ledger it
fills, and it prints every query's p50/p99 and the chart's."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.audit import _open_fresh, fill
from bench.stats import ResultHistory, fill_results, main
from bot.stats.service import StatsService


async def test_the_results_match_the_bets_of_the_history(tmp_path: Path) -> None:
    db = await _open_fresh("", 8000, tmp_path)
    try:
        history = ResultHistory(2)
        await fill(db, history, 8000)
        count, _last = await fill_results(db, history)
        assert count == len(history.rows) > 100
        bets = await db.read(
            lambda c: c.fetchone("SELECT COUNT(*) FROM bank_entries WHERE kind = 'bet'")
        )
        assert bets is not None and count <= int(bets[0]) <= count + 4  # bets still open
        guild, user = int(history.rows[0][0]), int(history.rows[0][3])
        mine = [r for r in history.rows if (r[0], r[3]) == (guild, user)]
        got = (await StatsService(db).player(guild, user)).total
        assert got.rounds == len(mine)
        assert got.net == sum(int(r[6]) for r in mine)  # type: ignore[call-overload]
    finally:
        await db.close()


def test_the_bench_prints_each_query_p99(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert (
        main(["--entries", "8000", "--queries", "3", "--charts", "1", "--dir", str(tmp_path)]) == 0
    )
    out = capsys.readouterr().out
    for name in ("player", "top week, every game", "top all, Black Jack", "chart (query + PNG)"):
        assert any(line.strip().startswith(name) and "p99" in line for line in out.splitlines())
