"""The lobby bench: the server it builds is the one it describes, and it prints its cases."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

from bench.lobby import GUILD, VIEWER, open_many
from bot.bank import Bank
from bot.db import open_database
from bot.db.migrate import migrate
from bot.engine.shuffle import seeded_entropy
from bot.tables import TableService
from bot.tables.listing import listed


async def test_one_table_in_ten_is_private_and_the_viewer_invited_to_half(tmp_path: Path) -> None:
    db = await open_database(str(tmp_path / "lobby.sqlite3"))
    try:
        await migrate(db)
        service = TableService(db, Bank(db), clock=time.time, entropy=seeded_entropy("t"))
        await open_many(service, 40)
        await service.invites.load()
        seen = listed(service.in_guild(GUILD), GUILD, VIEWER, service.invites.admits)
        stranger = listed(service.open_tables(), GUILD, VIEWER + 1, service.invites.admits)
    finally:
        await db.close()
    assert len(seen) == 38 and len(stranger) == 36  # 4 private, the viewer invited to 2
    assert [t.id for t in seen] == sorted((t.id for t in seen), reverse=True)  # newest first


def test_the_bench_prints_each_case() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "bench", "lobby", "--tables", "12", "--runs", "3"],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    ).stdout.splitlines()
    assert out[0] == "lobby page at 12 open tables of one server, 3 runs each"
    assert [line.split(" p50")[0].strip() for line in out[1:4]] == [
        "page 1",
        "middle page",
        "page 1, one game",
    ]
