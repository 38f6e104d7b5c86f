"""Before anything uses a database: is it one, is it whole, and is it not newer than us.

``migrate``, ``backup``, ``audit`` and the bot itself call :func:`check_database` first, so a
garbage or corrupted SQLite file, or a database migrated by a newer Croupier, is answered
with one sentence (:class:`BadDatabase`, exit 2) instead of a traceback or "up to date".
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from . import is_postgres, open_database, sqlite_path
from .base import Conn, Database, Unusable
from .migrate import SchemaTooNew, check_level


class BadDatabase(Unusable):
    """The database cannot be used: the message is one sentence for the operator."""


async def _quick_check(conn: Conn) -> str:
    rows = await conn.fetchall("PRAGMA quick_check")
    return "; ".join(str(r[0]) for r in rows[:3])


async def check_open(db: Database, *, allow_newer: bool = False) -> None:
    """An open database: SQLite's ``PRAGMA quick_check`` (every page and index readable
    and well formed), then the schema level against the code's (both backends; a backup
    may copy a newer database: ``allow_newer``)."""
    if db.dialect == "sqlite":
        try:
            verdict = await db.read(_quick_check)
        except sqlite3.DatabaseError as exc:
            raise BadDatabase(f"{db.path} is damaged ({exc}): restore a backup.") from None
        if verdict != "ok":
            raise BadDatabase(f"{db.path} is damaged ({verdict}): restore a backup.")
    try:
        await check_level(db)
    except SchemaTooNew as exc:
        if not allow_newer:
            raise BadDatabase(str(exc)) from None


async def open_checked(
    url: str, *, must_exist: bool = False, allow_newer: bool = False
) -> Database:
    """Open ``url`` and check it (:func:`check_open`); a BadDatabase if it is not usable."""
    if not is_postgres(url):
        path = sqlite_path(url)
        if must_exist and not Path(path).is_file():
            raise BadDatabase(f"no database at {path}.")
        if Path(path).is_file():
            _look(path, allow_newer)  # read-only: opening would switch it to WAL mode
    try:
        db = await open_database(url)
    except sqlite3.DatabaseError as exc:
        raise BadDatabase(f"{url} is not a Croupier database ({exc}).") from None
    except Exception as exc:  # PostgreSQL unreachable or refusing us, a folder not made
        raise BadDatabase(f"cannot open {_shown(url)}: {exc}.") from None
    try:
        await check_open(db, allow_newer=allow_newer)
    except BaseException:
        await db.close()
        raise
    return db


def _look(path: str, allow_newer: bool) -> None:
    """The checks of :func:`check_open` on a read-only connection, nothing written."""
    from .migrate import latest_level

    try:
        c = sqlite3.connect(f"{Path(path).resolve().as_uri()}?mode=ro", uri=True)
        try:
            rows = c.execute("PRAGMA quick_check").fetchall()
            level = int(c.execute("PRAGMA user_version").fetchone()[0])
        finally:
            c.close()
    except sqlite3.DatabaseError as exc:
        words = "damaged" if "malformed" in str(exc) else "not a Croupier database"
        raise BadDatabase(f"{path} is {words} ({exc}).") from None
    verdict = "; ".join(str(r[0]) for r in rows[:3])
    if verdict != "ok":
        raise BadDatabase(f"{path} is damaged ({verdict}): restore a backup.")
    latest = latest_level()
    if level > latest and not allow_newer:
        raise BadDatabase(
            f"{path} was migrated by a newer version of Croupier (schema level {level}, "
            f"this version knows up to {latest}): upgrade Croupier, or restore a backup."
        )


def _shown(url: str) -> str:
    if is_postgres(url):
        from .postgres import redact

        return redact(url)
    return url
