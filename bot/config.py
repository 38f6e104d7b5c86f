"""Settings read from the environment and an optional ``.env`` file."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from dotenv import load_dotenv

DEFAULT_DATABASE_PATH = "data/croupier.sqlite3"
LOCALES = ("en", "fr")


class ConfigError(Exception):
    """A setting is missing or wrong; the message is one sentence for the operator."""


@dataclass(frozen=True)
class Settings:
    """Everything the bot reads from its environment."""

    token: str | None
    database_path: str = DEFAULT_DATABASE_PATH
    dev_guild_id: int | None = None
    log_level: str = "INFO"
    log_http_bodies: bool = False  # raw HTTP and gateway payloads at DEBUG (bot/logs.py)
    default_locale: str = "en"
    shard_count: int = 1  # processes (Discord shards), each with its own database file
    shard_id: int = 0  # this process's shard (``python -m bot run --shard N``)

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
    shards = os.environ.get("SHARD_COUNT", "").strip() or "1"
    if not shards.isdigit() or int(shards) < 1:
        raise ConfigError(f"SHARD_COUNT must be a whole number, 1 or more, not {shards!r}.")
    raw = os.environ.get("LOG_HTTP_BODIES", "").strip().lower()
    if raw not in ("", "0", "1"):
        raise ConfigError(f"LOG_HTTP_BODIES must be 0 or 1, not {raw!r}.")
    return Settings(
        token=os.environ.get("DISCORD_TOKEN", "").strip() or None,
        database_path=os.environ.get("DATABASE_PATH", "").strip() or DEFAULT_DATABASE_PATH,
        dev_guild_id=int(guild) if guild else None,
        log_level=os.environ.get("LOG_LEVEL", "INFO").strip().upper() or "INFO",
        log_http_bodies=raw == "1",
        default_locale=locale,
        shard_count=int(shards),
    )
