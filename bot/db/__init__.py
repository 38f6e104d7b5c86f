"""The one way to the database: ``write(fn)`` / ``read(fn)`` over a :class:`Conn`
(:mod:`bot.db.base`); SQLite (:mod:`bot.db.sqlite`, the default) or PostgreSQL
(:mod:`bot.db.postgres`) behind it; one set of numbered migrations."""

from pathlib import Path

from .base import Busy, Conflict, Conn, Database, IntegrityError, Row, Unusable, Waited
from .migrate import MigrationError, SchemaTooNew, latest_level, migrate
from .sqlite import SqliteDatabase

POSTGRES_SCHEMES = ("postgresql://", "postgres://")


def is_postgres(url: str | Path) -> bool:
    """Whether ``url`` names a PostgreSQL database rather than an SQLite file."""
    return str(url).startswith(POSTGRES_SCHEMES)


def sqlite_path(url: str | Path) -> str:
    """The file of an SQLite URL (``sqlite:///data/x.sqlite3``, or a plain path)."""
    text = str(url)
    return text.removeprefix("sqlite:///")  # sqlite:////abs/x.sqlite3 keeps its root


async def open_database(where: str | Path, **options: int) -> Database:
    """Open the database at ``where``: a ``postgresql://`` URL, or an SQLite file (or
    ``:memory:``). ``options`` are the PostgreSQL pool's sizes (``min_size``, ``max_size``)."""
    if is_postgres(where):
        from .postgres import PostgresDatabase  # asyncpg only when asked for

        return await PostgresDatabase.open(str(where), **options)
    return await SqliteDatabase.open(sqlite_path(where))


__all__ = [
    "Busy",
    "Conflict",
    "Conn",
    "Database",
    "IntegrityError",
    "MigrationError",
    "Row",
    "SchemaTooNew",
    "SqliteDatabase",
    "Unusable",
    "Waited",
    "is_postgres",
    "latest_level",
    "migrate",
    "open_database",
    "sqlite_path",
]
