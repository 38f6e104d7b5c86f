"""Settings read from the environment and an optional ``.env`` file."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dotenv import load_dotenv

from bot.db import is_postgres
from bot.errors import ConfigError

DEFAULT_DATABASE_PATH = "data/croupier.sqlite3"
UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}
LOCALES = ("en", "fr")


@dataclass(frozen=True)
class Settings:
    """Everything the bot reads from its environment."""

    token: str | None
    # DATABASE_URL: an SQLite file (path or sqlite:///path) or postgresql://...
    database_url: str = DEFAULT_DATABASE_PATH
    dev_guild_id: int | None = None
    log_level: str = "INFO"
    log_http_bodies: bool = False  # raw HTTP and gateway payloads at DEBUG (bot/logs.py)
    default_locale: str = "en"
    shard_count: int = 1  # Discord shards of the whole bot
    shard_ids: tuple[int, ...] | None = None  # the ones this process serves (None: all)
    backup_every: float | None = None  # seconds between scheduled backups (None: off)
    backup_keep: int = 7  # scheduled backups kept
    backup_dir: str | None = None  # where they go (default: next to the database)

    def require_token(self) -> str:
        """The Discord token, or a ConfigError that says what to set and where."""
        if not self.token:
            raise ConfigError(
                "DISCORD_TOKEN is not set: put DISCORD_TOKEN=<your bot token> in a .env file "
                "next to pyproject.toml (see .env.example) or export it in the environment."
            )
        return self.token


def load_settings(env_file: str | Path | None = ".env") -> Settings:
    """Read settings from ``env_file`` (if present) and the process environment."""
    if env_file is not None and Path(env_file).is_file():
        load_dotenv(env_file, override=False)
    guild = os.environ.get("DEV_GUILD_ID", "").strip()
    if guild and not guild.isdigit():
        raise ConfigError(f"DEV_GUILD_ID must be a server id (digits only), not {guild!r}.")
    locale = os.environ.get("DEFAULT_LOCALE", "en").strip().lower() or "en"
    if locale not in LOCALES:
        raise ConfigError(f"DEFAULT_LOCALE must be one of {', '.join(LOCALES)}, not {locale!r}.")
    raw = os.environ.get("LOG_HTTP_BODIES", "").strip().lower()
    if raw not in ("", "0", "1"):
        raise ConfigError(f"LOG_HTTP_BODIES must be 0 or 1, not {raw!r}.")
    url = (
        os.environ.get("DATABASE_URL", "").strip()
        or os.environ.get("DATABASE_PATH", "").strip()
        or DEFAULT_DATABASE_PATH
    )
    count, ids = _shards(url)
    return Settings(
        token=os.environ.get("DISCORD_TOKEN", "").strip() or None,
        database_url=url,
        dev_guild_id=int(guild) if guild else None,
        log_level=os.environ.get("LOG_LEVEL", "INFO").strip().upper() or "INFO",
        log_http_bodies=raw == "1",
        default_locale=locale,
        shard_count=count,
        shard_ids=ids,
        **_backups(url),
    )


def _whole(name: str, default: str, minimum: int) -> int:
    text = os.environ.get(name, "").strip() or default
    if not text.isdigit() or int(text) < minimum:
        raise ConfigError(f"{name} must be a whole number, {minimum} or more, not {text!r}.")
    return int(text)


def _shards(url: str) -> tuple[int, tuple[int, ...] | None]:
    """SHARD_COUNT, and SHARD_IDS or CLUSTER_INDEX/CLUSTER_COUNT (PostgreSQL only)."""
    count = _whole("SHARD_COUNT", "1", 1)
    listed = os.environ.get("SHARD_IDS", "").strip()
    cluster = os.environ.get("CLUSTER_INDEX", "").strip()
    if listed and cluster:
        raise ConfigError("set SHARD_IDS or CLUSTER_INDEX with CLUSTER_COUNT, not both.")
    ids: tuple[int, ...] | None = None
    if listed:
        ids = parse_shard_ids(listed, count)
    elif cluster:
        ids = cluster_ids(_whole("CLUSTER_INDEX", "0", 0), _whole("CLUSTER_COUNT", "1", 1), count)
    if ids is not None and len(ids) < count and not is_postgres(url):
        raise ConfigError(
            "serving only some shards (SHARD_IDS, CLUSTER_INDEX) needs DATABASE_URL="
            "postgresql://...: an SQLite file is served by one process, which runs every shard."
        )
    return count, ids


def _backups(url: str) -> dict[str, Any]:
    """BACKUP_EVERY (e.g. 6h, 1d, 30m; off by default), BACKUP_KEEP, BACKUP_DIR."""
    every = os.environ.get("BACKUP_EVERY", "").strip().lower()
    if not every or every in ("0", "off"):
        return {}
    if is_postgres(url):
        raise ConfigError(
            "BACKUP_EVERY is for an SQLite database: back a PostgreSQL database up with "
            "PostgreSQL's own tools (pg_dump, or base backups with pg_basebackup)."
        )
    unit = every[-1] if every[-1] in UNITS else "s"
    number = every[:-1] if every[-1] in UNITS else every
    if not number.isdigit() or int(number) < 1:
        raise ConfigError(
            f"BACKUP_EVERY must be a duration such as 30m, 6h or 1d (or off), not {every!r}."
        )
    return {
        "backup_every": float(int(number) * UNITS[unit]),
        "backup_keep": _whole("BACKUP_KEEP", "7", 1),
        "backup_dir": os.environ.get("BACKUP_DIR", "").strip() or None,
    }


def parse_shard_ids(text: str, shard_count: int) -> tuple[int, ...]:
    """``SHARD_IDS``: ``0,2,5`` or ranges ``0-3,8``, each below ``shard_count``."""
    ids: set[int] = set()
    for part in (p.strip() for p in text.split(",")):
        low, _, high = part.partition("-")
        if not low.isdigit() or (high and not high.isdigit()):
            raise ConfigError(
                f"SHARD_IDS must list shard numbers or ranges (e.g. 0,1 or 0-3), not {text!r}."
            )
        ids.update(range(int(low), int(high or low) + 1))
    bad = sorted(i for i in ids if i >= shard_count)
    if bad or not ids:
        raise ConfigError(
            f"SHARD_IDS {text!r} names shards that do not exist: with SHARD_COUNT={shard_count}"
            f" they lie between 0 and {shard_count - 1}."
        )
    return tuple(sorted(ids))


def cluster_ids(index: int, clusters: int, shard_count: int) -> tuple[int, ...]:
    """The shards of cluster ``index`` of ``clusters`` (shard i goes to cluster i mod N)."""
    if not 0 <= index < clusters:
        raise ConfigError(
            f"CLUSTER_INDEX must lie between 0 and CLUSTER_COUNT - 1 ({clusters - 1}), not {index}."
        )
    ids = tuple(i for i in range(shard_count) if i % clusters == index)
    if not ids:
        raise ConfigError(
            f"cluster {index} of {clusters} gets no shard of {shard_count}: "
            "CLUSTER_COUNT must not exceed SHARD_COUNT."
        )
    return ids
