"""Shard layouts: file names, the guard each file keeps, and the operator commands on a
sharded bot's files (see bot/shards.py)."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from bot.config import ConfigError, load_settings
from bot.db import Conn, Database, SqliteDatabase, migrate
from bot.shards import (
    LAYOUT_KEY,
    SPLIT_KEY,
    USERS_SCHEMA,
    ShardLayout,
    check_files,
    check_layout,
    shard_files,
    shard_of,
    users_database_path,
)
from tests.sql import fetchall, fetchone
from tests.test_cli import run


def guild_on(shard: int, count: int, n: int = 1) -> int:
    """A guild id Discord routes to ``shard`` of ``count``."""
    return ((n * count + shard) << 22) | 12345


def test_guild_routing_and_file_names():
    assert [shard_of(guild_on(s, 3), 3) for s in range(3)] == [0, 1, 2]
    assert shard_of(guild_on(1, 2, n=7), 2) == 1
    base = "data/croupier.sqlite3"
    assert ShardLayout().database_path(base) == base
    assert ShardLayout(1, 2).database_path(base) == "data/croupier.shard-1-of-2.sqlite3"
    assert users_database_path(base) == "data/croupier.users.sqlite3"
    assert shard_files(base, 1, users=True) == [base]
    assert shard_files(base, 2, users=True) == [
        "data/croupier.shard-0-of-2.sqlite3",
        "data/croupier.shard-1-of-2.sqlite3",
        "data/croupier.users.sqlite3",
    ]
    assert ShardLayout(1, 2).owns(guild_on(1, 2)) and not ShardLayout(0, 2).owns(guild_on(1, 2))
    for shard_id, count in ((2, 2), (-1, 2), (0, 0)):
        with pytest.raises(ConfigError, match="does not exist"):
            ShardLayout(shard_id, count)


def test_shard_count_setting(monkeypatch):
    monkeypatch.setenv("SHARD_COUNT", "3")
    assert load_settings(env_file=None).shard_count == 3
    monkeypatch.delenv("SHARD_COUNT")
    assert load_settings(env_file=None).shard_count == 1
    for bad in ("0", "two", "-1"):
        monkeypatch.setenv("SHARD_COUNT", bad)
        with pytest.raises(ConfigError, match="SHARD_COUNT"):
            load_settings(env_file=None)


async def test_the_users_file_has_the_migrations_user_prefs(db: Database, tmp_path: Path):
    with sqlite3.connect(tmp_path / "users.sqlite3") as users:
        users.execute(USERS_SCHEMA)
        made = users.execute("PRAGMA table_info(user_prefs)").fetchall()
    migrated = await fetchall(db, "PRAGMA table_info(user_prefs)")
    assert made == [tuple(row) for row in migrated]


async def add_guild(db: Database, guild_id: int) -> None:
    async def _tx(conn: Conn) -> Any:
        await conn.execute("INSERT INTO guild_settings (guild_id) VALUES (?)", (guild_id,))

    await db.write(_tx)


async def meta(db: Database, key: str) -> str | None:
    row = await fetchone(db, "SELECT value FROM bot_meta WHERE key = ?", (key,))
    return None if row is None else str(row[0])


async def test_a_new_shard_file_is_stamped_and_then_kept_to_its_layout(db: Database):
    layout = ShardLayout(1, 2)
    await db.write(check_layout, layout, db.path)
    assert await meta(db, LAYOUT_KEY) == "1/2"
    await add_guild(db, guild_on(1, 2))
    await db.write(check_layout, layout, db.path)  # again: same layout, fine

    refusals = {
        ShardLayout(0, 2): "holds shard 1/2, not 0/2",
        ShardLayout(1, 3): "holds shard 1/2, not 1/3",
        ShardLayout(): "set SHARD_COUNT",
    }
    for other, message in refusals.items():
        with pytest.raises(ConfigError, match=message):
            await db.write(check_layout, other, db.path)
    assert await meta(db, LAYOUT_KEY) == "1/2"

    await add_guild(db, guild_on(0, 2))  # a row no split would have put here
    with pytest.raises(ConfigError, match="servers of another shard"):
        await db.write(check_layout, layout, db.path)


async def test_a_file_with_servers_but_no_layout_is_not_a_shard(db: Database):
    await db.write(check_layout, ShardLayout(), db.path)  # the one-file bot
    await add_guild(db, guild_on(0, 2))
    with pytest.raises(ConfigError, match="python -m bot split --shards 2"):
        await db.write(check_layout, ShardLayout(0, 2), db.path)
    assert await meta(db, LAYOUT_KEY) is None


async def test_a_split_file_runs_no_more(db: Database):
    async def _tx(conn: Conn) -> Any:
        await conn.execute("INSERT INTO bot_meta (key, value) VALUES (?, '2')", (SPLIT_KEY,))

    await db.write(_tx)
    for layout in (ShardLayout(), ShardLayout(0, 2)):
        with pytest.raises(ConfigError, match="was split into 2 shard files"):
            await db.write(check_layout, layout, db.path)


async def test_files_of_another_layout_or_an_unsplit_casino_stop_the_start(tmp_path: Path):
    base = str(tmp_path / "croupier.sqlite3")
    await check_files(base, ShardLayout(0, 2))  # nothing there yet: a new casino
    database = await SqliteDatabase.open(base)
    await migrate(database)
    await check_files(base, ShardLayout(0, 2))  # an empty one-file database: nothing to split
    await add_guild(database, guild_on(1, 2))
    await check_files(base, ShardLayout())
    with pytest.raises(ConfigError, match="not split yet"):
        await check_files(base, ShardLayout(1, 2))

    async def _tx(conn: Conn) -> Any:
        await conn.execute("INSERT INTO bot_meta (key, value) VALUES (?, '2')", (SPLIT_KEY,))

    await database.write(_tx)
    await database.close()
    await check_files(base, ShardLayout(1, 2))  # split: the shard files are the casino now

    Path(ShardLayout(1, 2).database_path(base)).touch()
    await check_files(base, ShardLayout(0, 2))
    with pytest.raises(ConfigError, match="set SHARD_COUNT=2;"):
        await check_files(base, ShardLayout())
    with pytest.raises(ConfigError, match=r"croupier\.shard-1-of-2\.sqlite3"):
        await check_files(base, ShardLayout(2, 3))


def test_the_cli_refuses_a_shard_that_does_not_exist_or_an_unsplit_casino(tmp_path: Path):
    env = {"DISCORD_TOKEN": "not-a-token", "SHARD_COUNT": "2"}
    res = run("run", "--shard", "2", cwd=tmp_path, env_extra=env)
    assert res.returncode == 2 and "shard 2 of 2 does not exist" in res.stderr
    assert "Traceback" not in res.stderr

    base = tmp_path / "data" / "croupier.sqlite3"
    assert run("migrate", cwd=tmp_path).returncode == 0
    with sqlite3.connect(base) as conn:
        conn.execute("INSERT INTO guild_settings (guild_id) VALUES (?)", (guild_on(0, 2),))
    # the launcher checks the files before it starts any shard (or connects to Discord)
    res = run("run", cwd=tmp_path, env_extra=env)
    assert res.returncode == 2, res.stderr
    assert "not split yet" in res.stderr and "python -m bot split --shards 2" in res.stderr
    assert not Path(ShardLayout(0, 2).database_path(str(base))).exists()


def test_migrate_audit_and_backup_take_every_shard_file(tmp_path: Path):
    env = {"SHARD_COUNT": "2"}
    res = run("migrate", cwd=tmp_path, env_extra=env)
    assert res.returncode == 0, res.stderr
    base = str(tmp_path / "data" / "croupier.sqlite3")
    files = shard_files(base, 2)
    assert [line.split(":")[0] for line in res.stdout.splitlines()] == [
        str(Path(f).relative_to(tmp_path)) for f in shard_files(base, 2, users=True)
    ]
    res = run("audit", cwd=tmp_path, env_extra=env)
    assert res.returncode == 0, res.stderr
    assert res.stdout.count("== data/croupier.shard-") == 2

    Path(files[1]).unlink()
    res = run("backup", "saved", cwd=tmp_path, env_extra=env)
    assert res.returncode == 2 and "croupier.shard-1-of-2.sqlite3" in res.stderr
    assert not (tmp_path / "saved").exists()
    assert run("migrate", cwd=tmp_path, env_extra=env).returncode == 0
    res = run("backup", "saved", cwd=tmp_path, env_extra=env)
    assert res.returncode == 0, res.stderr
    assert sorted(p.name for p in (tmp_path / "saved").iterdir()) == sorted(
        Path(f).name for f in shard_files(base, 2, users=True)
    )
