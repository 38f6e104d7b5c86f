"""Which shards a process serves: SHARD_COUNT with SHARD_IDS or CLUSTER_INDEX/COUNT, Discord's
routing, and the refusals (one sentence each)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config import load_settings
from bot.errors import ConfigError
from bot.shards import ShardLayout, layout_of, shard_of
from tests.test_cli import run

PG = "postgresql://u@h/db"


def settings(monkeypatch: pytest.MonkeyPatch, **env: str):
    for name in ("SHARD_COUNT", "SHARD_IDS", "CLUSTER_INDEX", "CLUSTER_COUNT", "DATABASE_URL"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    return load_settings(env_file=None)


def test_guild_routing_and_layouts():
    assert shard_of(5 << 22, 2) == 1 and shard_of((4 << 22) | 999, 2) == 0
    every = ShardLayout.every(3)
    assert not every.partial and every.first and every.table_filter() is None
    mine = ShardLayout(3, (1, 2))
    assert mine.partial and not mine.first and mine.table_filter() == (3, (1, 2))
    assert mine.owns(1 << 22) and not mine.owns(3 << 22)
    with pytest.raises(ConfigError, match="do not exist"):
        ShardLayout(2, (2,))


def test_shard_settings(monkeypatch: pytest.MonkeyPatch):
    s = settings(monkeypatch)
    assert (s.shard_count, s.shard_ids, layout_of(s)) == (1, None, ShardLayout())
    s = settings(monkeypatch, SHARD_COUNT="4")  # SQLite: one process runs them all
    assert layout_of(s) == ShardLayout(4, (0, 1, 2, 3))
    s = settings(monkeypatch, SHARD_COUNT="8", SHARD_IDS="0-2,5", DATABASE_URL=PG)
    assert layout_of(s).shard_ids == (0, 1, 2, 5)
    s = settings(monkeypatch, SHARD_COUNT="8", CLUSTER_INDEX="1", CLUSTER_COUNT="3",
                 DATABASE_URL=PG)  # fmt: skip
    assert layout_of(s).shard_ids == (1, 4, 7)


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"SHARD_COUNT": "0"}, "SHARD_COUNT must be a whole number, 1 or more"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "1"}, "needs DATABASE_URL=postgresql://"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "2", "DATABASE_URL": PG}, "do not exist"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "x", "DATABASE_URL": PG}, "numbers or ranges"),
        ({"SHARD_IDS": "0", "CLUSTER_INDEX": "0", "DATABASE_URL": PG}, "not both"),
        ({"SHARD_COUNT": "2", "CLUSTER_INDEX": "2", "CLUSTER_COUNT": "2"}, "CLUSTER_INDEX"),
        ({"SHARD_COUNT": "2", "CLUSTER_INDEX": "2", "CLUSTER_COUNT": "3"}, "gets no shard"),
    ],
)
def test_bad_shard_settings_are_one_sentence(monkeypatch, env, message):
    with pytest.raises(ConfigError, match=message):
        settings(monkeypatch, **env)


def test_the_cli_refuses_shards_of_an_sqlite_file_before_discord(tmp_path: Path):
    res = run(
        cwd=tmp_path,
        env_extra={"DISCORD_TOKEN": "not-a-token", "SHARD_COUNT": "2", "SHARD_IDS": "1"},
    )
    assert res.returncode == 2 and "Traceback" not in res.stderr
    assert len(res.stderr.strip().splitlines()) == 1 and "postgresql://" in res.stderr
