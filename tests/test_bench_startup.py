"""The startup bench: its database holds the open tables, and the real bot starts on it."""

from __future__ import annotations

from pathlib import Path

from bench.memory import build, time_to_ready


async def test_the_bot_starts_on_the_built_database_and_times_its_ready(tmp_path: Path) -> None:
    path = tmp_path / "start.sqlite3"
    await build(path, 30, "blackjack", real=3)
    got = time_to_ready(path)
    assert got["tables"] == 30  # every open table loaded before READY
    assert 0 < got["imports"] < got["ready"]
