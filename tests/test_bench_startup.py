"""The startup bench: its database holds the open tables, and the real bot starts on it."""

from __future__ import annotations

from pathlib import Path

from bench.memory import build, time_to_ready


async def test_the_bot_starts_on_the_built_database_and_times_its_ready(tmp_path: Path) -> None:
    path = tmp_path / "start.sqlite3"
    await build(path, 30, "blackjack", real=3)
    got = time_to_ready(path)
    assert got["tables"] == 30  # every open table there
    assert 0 < got["imports"] < got["ready"]


async def test_a_crashed_database_replays_each_tables_log_at_the_start(tmp_path: Path) -> None:
    from bench.memory import build_crashed

    path = tmp_path / "crashed.sqlite3"
    replayed = await build_crashed(path, 20, "blackjack")
    assert replayed >= 3  # the three bets (the last one deals) after the round's snapshot
    got = time_to_ready(path)
    assert got["tables"] == 20
    from bench.harness import world

    db, bot, _ = await world(path)  # every table replays its log when it is built
    try:
        tables = await bot.tables.load_open_tables()
        assert {t.version - t.snapshot_version for t in tables} == {replayed}
        assert all(t.game.phase.name == "PLAYING" for t in tables)  # dealt by the replay
    finally:
        await db.close()
