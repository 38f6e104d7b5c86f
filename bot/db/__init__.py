"""The one way to the database: ``write(fn)`` / ``read(fn)`` over a :class:`Conn`
(:mod:`bot.db.base`); SQLite behind it (:mod:`bot.db.sqlite`); numbered migrations."""

from pathlib import Path

from .base import Conn, Database, Row, Waited
from .migrate import MigrationError, latest_level, migrate
from .sqlite import IntegrityError, SqliteDatabase


async def open_database(where: str | Path) -> Database:
    """Open the database at ``where`` (an SQLite file, or ``:memory:``)."""
    return await SqliteDatabase.open(where)


__all__ = [
    "Conn",
    "Database",
    "IntegrityError",
    "MigrationError",
    "Row",
    "SqliteDatabase",
    "Waited",
    "latest_level",
    "migrate",
    "open_database",
]
