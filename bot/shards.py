"""Which Discord shards this process serves.

Discord routes a guild's events to shard ``(guild_id >> 22) % SHARD_COUNT``. Every table and
every bank is per guild, so a process needs only its shards' guilds: it connects as those
shards, loads their open tables and fires their timers. All processes share one database
(PostgreSQL), so ``SHARD_COUNT`` may change from one start to the next with no data step:
a guild's rows do not move, only the process that serves them (tables carry a version, and
a write from a process's stale copy is refused: bot/tables/service.py).

An SQLite file is served by one process, which runs every shard.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.config import Settings
from bot.errors import ConfigError


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard Discord sends this guild's events to."""
    return (guild_id >> 22) % shard_count


@dataclass(frozen=True)
class ShardLayout:
    """The shards ``shard_ids`` of ``shard_count`` this process serves (all by default)."""

    shard_count: int = 1
    shard_ids: tuple[int, ...] = (0,)

    def __post_init__(self) -> None:
        bad = [i for i in self.shard_ids if not 0 <= i < self.shard_count]
        if self.shard_count < 1 or not self.shard_ids or bad:
            raise ConfigError(
                f"shards {', '.join(map(str, bad or self.shard_ids))} do not exist: the shard "
                f"ids must lie between 0 and SHARD_COUNT - 1 ({self.shard_count - 1})."
            )

    @classmethod
    def every(cls, shard_count: int) -> ShardLayout:
        """One process serving every shard."""
        return cls(shard_count, tuple(range(shard_count)))

    @property
    def partial(self) -> bool:
        """Whether other processes serve the other shards."""
        return len(set(self.shard_ids)) < self.shard_count

    @property
    def first(self) -> bool:
        """Whether this process serves shard 0 (it syncs the commands for all)."""
        return 0 in self.shard_ids

    def owns(self, guild_id: int) -> bool:
        """Whether Discord routes this guild to this process."""
        return shard_of(guild_id, self.shard_count) in self.shard_ids

    def table_filter(self) -> tuple[int, tuple[int, ...]] | None:
        """(shard count, shard ids) for loading tables; None when this process has all."""
        return (self.shard_count, self.shard_ids) if self.partial else None


def layout_of(settings: Settings) -> ShardLayout:
    """The shards a process with these settings serves."""
    if settings.shard_ids is None:
        return ShardLayout.every(settings.shard_count)
    return ShardLayout(settings.shard_count, settings.shard_ids)
