"""Numbered SQL migrations, applied in order, one set for both databases.

``NNNN_name.sql`` is the migration; ``NNNN_name.pg.sql`` next to it, when present, is its
PostgreSQL variant (only where the DDL must differ: 64-bit ids, identity keys, trigger
functions). The level is ``PRAGMA user_version`` on SQLite and the one row of
``schema_level`` on PostgreSQL. A database at a level above the code's is refused.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from .base import Conn, Database

_NAME = re.compile(r"^(\d{4})_[\w-]+\.sql$")
PG_SUFFIX = ".pg.sql"
# Every process of a bot may start at once: on PostgreSQL one of them migrates at a time.
PG_MIGRATION_LOCK = 0x43524F55  # "CROU"


class MigrationError(RuntimeError):
    """A migration failed; the database stays at the previous level."""


class SchemaTooNew(MigrationError):
    """The database was migrated by a newer version of the bot."""


@dataclass(frozen=True)
class Migration:
    """One numbered SQL file."""

    level: int
    name: str
    sql: str


def load_migrations(folder: Path | None = None, dialect: str = "sqlite") -> list[Migration]:
    """The migrations in ``folder`` (default: the package's), sorted by level, each in
    its ``dialect``'s variant."""
    root = folder if folder is not None else Path(str(resources.files("bot.db") / "migrations"))
    found: list[Migration] = []
    for path in sorted(root.iterdir()):
        match = _NAME.match(path.name)
        if match:
            variant = path.with_name(path.name.removesuffix(".sql") + PG_SUFFIX)
            if dialect == "postgresql" and variant.is_file():
                path = variant
            found.append(Migration(int(match[1]), path.name, path.read_text("utf-8")))
    levels = [m.level for m in found]
    if levels != list(range(1, len(levels) + 1)):
        raise MigrationError(f"migration numbers must be 1..n without gaps, got {levels}")
    return found


def latest_level(folder: Path | None = None) -> int:
    """The level the migrations reach."""
    return len(load_migrations(folder))


async def _level(conn: Conn, dialect: str = "sqlite") -> int:
    if dialect == "postgresql":
        found = await conn.fetchone("SELECT to_regclass('schema_level') IS NOT NULL")
        if not found or not found[0]:
            return 0
        row = await conn.fetchone("SELECT level FROM schema_level")
    else:
        row = await conn.fetchone("PRAGMA user_version")
    return int(row[0]) if row else 0


async def current_level(db: Database) -> int:
    """The database's migration level."""
    return await db.read(_level, db.dialect)


async def _apply(conn: Conn, migration: Migration, dialect: str) -> bool:
    """Run one migration's statements and record its level; False if already applied."""
    if dialect == "postgresql":
        # a second process waits for the first's migrations however long they take (the
        # pool's lock_timeout is for moves)
        await conn.execute("SET LOCAL lock_timeout = 0")
        await conn.execute(f"SELECT pg_advisory_xact_lock({PG_MIGRATION_LOCK})")
        await conn.execute("CREATE TABLE IF NOT EXISTS schema_level (level INTEGER NOT NULL)")
    if migration.level <= await _level(conn, dialect):
        return False
    if dialect == "postgresql":  # one call runs the whole file ($$ bodies and all)
        await conn.execute(migration.sql)
        await conn.execute("DELETE FROM schema_level")
        await conn.execute(f"INSERT INTO schema_level (level) VALUES ({migration.level})")
        return True
    for statement in _statements(migration.sql):
        await conn.execute(statement)
    await conn.execute(f"PRAGMA user_version = {migration.level}")
    return True


def _statements(sql: str) -> list[str]:
    """Split a migration into statements (sqlite3.complete_statement handles triggers)."""
    import sqlite3

    out: list[str] = []
    buf = ""
    for line in sql.splitlines(keepends=True):
        buf += line
        if sqlite3.complete_statement(buf):
            if buf.strip():
                out.append(buf.strip())
            buf = ""
    if buf.strip() and not buf.strip().startswith("--"):
        out.append(buf.strip())
    return out


async def check_level(db: Database, folder: Path | None = None) -> int:
    """The database's level, or :class:`SchemaTooNew` if this code is older than it."""
    level = await current_level(db)
    latest = latest_level(folder)
    if level > latest:
        raise SchemaTooNew(
            f"{db.path} was migrated by a newer version of Croupier (schema level {level}, "
            f"this version knows up to {latest}): upgrade Croupier, or restore a backup."
        )
    return level


async def migrate(db: Database, folder: Path | None = None) -> list[str]:
    """Apply the pending migrations, each in its own transaction; return their names.
    A database newer than the code is refused (:class:`SchemaTooNew`)."""
    await check_level(db, folder)
    applied: list[str] = []
    for migration in load_migrations(folder, db.dialect):
        try:
            # executescript would COMMIT on its own: statement by statement inside one
            # transaction, so a failing migration leaves the previous level intact.
            if not await db.write(_apply, migration, db.dialect):
                continue
        except Exception as exc:
            raise MigrationError(f"migration {migration.name} failed: {exc}") from exc
        applied.append(migration.name)
    return applied
