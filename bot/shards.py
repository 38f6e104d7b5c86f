"""Running the bot as K shard processes, each with a database file of its own.

Discord routes a guild's events to shard ``(guild_id >> 22) % K``. Every table and every
bank is per guild, so a shard's file holds all the money it moves, and no transaction ever
spans two files. Users' language choices are user-wide: they live in one small file that
every shard opens (``users_database_path``).

A file remembers the layout it belongs to (``bot_meta``), and the bot refuses to open a
file under another layout: two processes moving the same guild's money in two files would
be money made from nothing. ``python -m bot split`` turns one file into K.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from bot.config import ConfigError
from bot.db import Conn, open_database

LAYOUT_KEY = "shard_layout"  # bot_meta: "i/K" in a shard's file
SPLIT_KEY = "split_into"  # bot_meta: "K" in a file that was split (retired)

# Tables with a guild, and how a row finds it. Every table of the schema is here or in
# GLOBAL_TABLES (tests/db/test_split.py checks it against the migrations). The subqueries
# name their tables without a schema: evaluate them with the rows' database as ``main``.
GUILD_OF: dict[str, str] = {
    "guild_settings": "guild_id",
    "bank_guilds": "guild_id",
    "bank_accounts": "guild_id",
    "bank_entries": "guild_id",
    "bank_postings": "(SELECT e.guild_id FROM bank_entries e WHERE e.id = entry_id)",
    "bank_seats": "guild_id",
    "bank_claims": "guild_id",
    "tables": "guild_id",
    "table_actions": "(SELECT t.guild_id FROM tables t WHERE t.id = table_id)",
}
# Tables without a guild: user_prefs and user_locales move to the users file, bot_meta
# stays per file.
GLOBAL_TABLES = ("user_prefs", "user_locales", "bot_meta")

# user_prefs as migration 0003 makes it (tests/test_shards.py compares the two)
USERS_SCHEMA = "CREATE TABLE IF NOT EXISTS user_prefs (user_id INTEGER PRIMARY KEY, locale TEXT)"
# user_locales as migration 0007 makes it
USER_LOCALES_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS user_locales (user_id INTEGER PRIMARY KEY, locale TEXT NOT NULL)"
)


async def users_schema(conn: Conn) -> None:
    """Create the tables of the file the shards share."""
    await conn.execute(USERS_SCHEMA)
    await conn.execute(USER_LOCALES_SCHEMA)


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard Discord sends this guild's events to."""
    return (guild_id >> 22) % shard_count


@dataclass(frozen=True)
class ShardLayout:
    """This process's shard (``shard_id`` of ``shard_count``); 0 of 1 is the unsharded bot."""

    shard_id: int = 0
    shard_count: int = 1

    def __post_init__(self) -> None:
        if self.shard_count < 1 or not 0 <= self.shard_id < self.shard_count:
            raise ConfigError(
                f"shard {self.shard_id} of {self.shard_count} does not exist: "
                "SHARD_COUNT must be 1 or more and the shard between 0 and SHARD_COUNT - 1."
            )

    @property
    def sharded(self) -> bool:
        """More than one process."""
        return self.shard_count > 1

    @property
    def stamp(self) -> str:
        """How a shard's file records its layout."""
        return f"{self.shard_id}/{self.shard_count}"

    def database_path(self, base: str) -> str:
        """This shard's file: ``data/croupier.sqlite3`` -> ``…/croupier.shard-1-of-2.sqlite3``."""
        if not self.sharded:
            return base
        path = Path(base)
        return str(
            path.with_name(f"{path.stem}.shard-{self.shard_id}-of-{self.shard_count}{path.suffix}")
        )

    def owns(self, guild_id: int) -> bool:
        """Whether Discord routes this guild to this shard."""
        return shard_of(guild_id, self.shard_count) == self.shard_id


def users_database_path(base: str) -> str:
    """The file every shard shares for user-wide settings: ``data/croupier.users.sqlite3``."""
    path = Path(base)
    return str(path.with_name(f"{path.stem}.users{path.suffix}"))


def shard_files(base: str, shard_count: int, *, users: bool = False) -> list[str]:
    """The database files of a bot run as ``shard_count`` shards (``[base]`` for one)."""
    if shard_count == 1:
        return [base]
    files = [ShardLayout(i, shard_count).database_path(base) for i in range(shard_count)]
    return [*files, users_database_path(base)] if users else files


async def _table_names(conn: Conn) -> set[str]:
    rows = await conn.fetchall("SELECT name FROM sqlite_master WHERE type = 'table'")
    return {str(row[0]) for row in rows}


async def guild_ids(conn: Conn) -> set[int]:
    """Every guild the file holds a row of."""
    present = await _table_names(conn)
    found: set[int] = set()
    for table in ("guild_settings", "bank_guilds", "tables"):
        if table in present:  # a file of an older level may lack one
            rows = await conn.fetchall(f"SELECT DISTINCT guild_id FROM {table}")
            found.update(int(row[0]) for row in rows)
    return found


async def meta(conn: Conn, key: str, schema: str = "main") -> str | None:
    """A ``bot_meta`` value of the file (``schema``: an attached one)."""
    row = await conn.fetchone(f"SELECT value FROM {schema}.bot_meta WHERE key = ?", (key,))
    return None if row is None else str(row[0])


async def check_layout(conn: Conn, layout: ShardLayout, path: str) -> None:
    """Refuse a file that belongs to another layout; stamp a new shard's file.

    Runs on a migrated file, in a transaction, before anything else uses it."""
    split_into = await meta(conn, SPLIT_KEY)
    if split_into is not None:
        raise ConfigError(
            f"{path} was split into {split_into} shard files and is kept only as "
            "a record: set SHARD_COUNT to that number to run on the shard files."
        )
    stamp = await meta(conn, LAYOUT_KEY)
    if not layout.sharded:
        if stamp is not None:
            raise ConfigError(
                f"{path} holds shard {stamp} of a sharded bot: set SHARD_COUNT to run it."
            )
        return
    if stamp == layout.stamp:
        strangers = sorted(g for g in await guild_ids(conn) if not layout.owns(g))
        if strangers:
            raise ConfigError(
                f"{path} holds servers of another shard ({', '.join(map(str, strangers[:5]))}):"
                " the file was not made by `python -m bot split`."
            )
        return
    if stamp is not None:
        raise ConfigError(
            f"{path} holds shard {stamp}, not {layout.stamp}: the shard count cannot change "
            "once the database is split."
        )
    if await guild_ids(conn):
        raise ConfigError(
            f"{path} already holds servers but no shard layout: make the shard files with "
            f"`python -m bot split --shards {layout.shard_count}`."
        )
    await conn.execute(
        "INSERT INTO bot_meta (key, value) VALUES (?, ?)", (LAYOUT_KEY, layout.stamp)
    )


def _shard_files_beside(base: str) -> dict[Path, int]:
    """Shard files next to ``base``, with the shard count each one was made for."""
    path = Path(base)
    found: dict[Path, int] = {}
    for candidate in path.parent.glob(f"{path.stem}.shard-*-of-*{path.suffix}"):
        count = candidate.name[len(path.stem) :].removesuffix(path.suffix).rsplit("-of-", 1)[-1]
        if count.isdigit():
            found[candidate] = int(count)
    return found


async def _unsplit_guilds(conn: Conn) -> bool:
    """Whether a one-file database holds servers and was not split."""
    if "bot_meta" not in await _table_names(conn) or await meta(conn, SPLIT_KEY) is not None:
        return False
    return bool(await guild_ids(conn))


async def check_files(base: str, layout: ShardLayout) -> None:
    """Refuse to start on files that would leave the casino's money in other files: shard
    files of another shard count, or (sharded) a one-file database not split yet."""
    found = _shard_files_beside(base)
    others = sorted(p.name for p, n in found.items() if n != layout.shard_count)
    if others:
        counts = " or ".join(str(n) for n in sorted(set(found.values())))
        raise ConfigError(
            f"shard files of another layout are next to {base} ({', '.join(others[:3])}): "
            f"set SHARD_COUNT={counts}; the shard count cannot change once the database is "
            "split."
        )
    if not layout.sharded or not Path(base).exists():
        return
    db = await open_database(base)
    try:
        unsplit = await db.read(_unsplit_guilds)
    finally:
        await db.close()
    if unsplit:
        raise ConfigError(
            f"{base} holds the casino but is not split yet: run "
            f"`python -m bot split --shards {layout.shard_count}` before starting "
            f"{layout.shard_count} shards."
        )
