"""Numbered SQL migrations, applied in order, the level kept in ``PRAGMA user_version``."""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from .base import Conn, Database

_NAME = re.compile(r"^(\d{4})_[\w-]+\.sql$")


class MigrationError(RuntimeError):
    """A migration failed; the database stays at the previous level."""


@dataclass(frozen=True)
class Migration:
    """One numbered SQL file."""

    level: int
    name: str
    sql: str


def load_migrations(folder: Path | None = None) -> list[Migration]:
    """The migrations in ``folder`` (default: the package's), sorted by level."""
    root = folder if folder is not None else Path(str(resources.files("bot.db") / "migrations"))
    found: list[Migration] = []
    for path in sorted(root.iterdir()):
        match = _NAME.match(path.name)
        if match:
            found.append(Migration(int(match[1]), path.name, path.read_text("utf-8")))
    levels = [m.level for m in found]
    if levels != list(range(1, len(levels) + 1)):
        raise MigrationError(f"migration numbers must be 1..n without gaps, got {levels}")
    return found


def latest_level(folder: Path | None = None) -> int:
    """The level the migrations reach."""
    return len(load_migrations(folder))


async def _level(conn: Conn) -> int:
    row = await conn.fetchone("PRAGMA user_version")
    return int(row[0]) if row else 0


async def current_level(db: Database) -> int:
    """The database's ``PRAGMA user_version``."""
    return await db.read(_level)


async def _apply(conn: Conn, migration: Migration) -> bool:
    """Run one migration's statements and record its level; False if already applied."""
    if migration.level <= await _level(conn):
        return False
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


async def migrate(db: Database, folder: Path | None = None) -> list[str]:
    """Apply the pending migrations, each in its own transaction; return their names."""
    applied: list[str] = []
    for migration in load_migrations(folder):
        try:
            # executescript would COMMIT on its own: statement by statement inside one
            # transaction, so a failing migration leaves the previous level intact.
            if not await db.write(_apply, migration):
                continue
        except Exception as exc:
            raise MigrationError(f"migration {migration.name} failed: {exc}") from exc
        applied.append(migration.name)
    return applied
