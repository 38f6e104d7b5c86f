"""Scheduled online backups (``BACKUP_EVERY``, ``BACKUP_KEEP``): off by default; when set,
the scheduler copies the database every interval on SimCord's virtual clock, while the bot
plays on, and keeps the newest N complete copies."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.app import CroupierBot, create_bot
from bot.config import Settings, load_settings
from bot.db import latest_level
from bot.engine.shuffle import seeded_entropy
from bot.errors import ConfigError
from tests.e2e.helpers import add_players, table_of, thread_of

HOUR = 3600.0


@pytest.fixture
def simcord_bot(db_path: str) -> CroupierBot:
    settings = Settings(token=None, database_url=db_path, backup_every=HOUR, backup_keep=2)
    return create_bot(settings, entropy=seeded_entropy("e2e"))


def kept(db_path: str) -> list[Path]:
    folder = Path(db_path).parent / "backups"
    return sorted(folder.glob("*.sqlite3*")) if folder.is_dir() else []


def tables(path: Path | str, check: bool = True) -> list[tuple[int, int, str]]:
    with sqlite3.connect(path) as c:
        if check:
            assert c.execute("PRAGMA quick_check").fetchone()[0] == "ok"
            assert c.execute("PRAGMA user_version").fetchone()[0] == latest_level()
        return list(c.execute("SELECT id, version, status FROM tables ORDER BY id"))


async def test_backups_run_on_schedule_and_keep_the_newest(simcord_env, db_path):
    env = simcord_env
    guild = env.create_guild()
    lobby = guild.create_text_channel("casino")
    (host,) = add_players(env, guild, "host")
    await host.member.slash(lobby, "table open", game="blackjack")
    table = table_of(env, thread_of(lobby))
    await env.advance_time(HOUR - 60)
    assert kept(db_path) == []  # not before the interval
    await env.advance_time(120)
    [first] = kept(db_path)
    live = tables(db_path, check=False)
    assert [row[0] for row in live] == [table.id]
    assert tables(first) == live  # a consistent copy of the live database
    await env.advance_time(2 * HOUR)
    copies = kept(db_path)
    assert len(copies) == 2 and first not in copies  # the oldest went
    assert all(p.name.startswith("croupier.backup-") for p in copies)
    assert all(tables(p) == tables(db_path, check=False) for p in copies)


def test_backup_settings(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.delenv("BACKUP_EVERY", raising=False)
    assert load_settings(env_file=None).backup_every is None  # off by default
    monkeypatch.setenv("BACKUP_EVERY", "6h")
    monkeypatch.setenv("BACKUP_KEEP", "3")
    s = load_settings(env_file=None)
    assert (s.backup_every, s.backup_keep) == (6 * HOUR, 3)
    monkeypatch.setenv("BACKUP_EVERY", "soon")
    with pytest.raises(ConfigError, match="BACKUP_EVERY must be a duration"):
        load_settings(env_file=None)
    monkeypatch.setenv("BACKUP_EVERY", "1d")
    monkeypatch.setenv("DATABASE_URL", "postgresql://u@h/db")
    with pytest.raises(ConfigError, match="pg_dump"):
        load_settings(env_file=None)
