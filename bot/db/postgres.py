"""The PostgreSQL database, through asyncpg: every process of a bot on one server.

- ``write(fn)``: a connection from the pool, a READ COMMITTED transaction, ``fn``,
  ``COMMIT``. READ COMMITTED is enough for the bank: every debit is a conditional
  ``UPDATE ... SET balance = balance - ? WHERE id = ? AND balance >= ?`` that PostgreSQL
  re-checks on the latest committed row once a concurrent writer of that row commits, and a
  table's row is written only ``WHERE version = ?``; two transactions that raced on the same
  idempotency key (two clicks, two processes) meet on its UNIQUE index, and the loser is
  run again (:data:`RETRIES`) and then finds the winner's entry: a replay, not an error.
  A deadlock or serialization failure is run again too. A stricter level (SERIALIZABLE)
  would refuse more and retry more for no guarantee the bank needs.
- ``read(fn)``: a REPEATABLE READ, read-only transaction: one snapshot (the audit).
- SQL is written once, with ``?`` placeholders; :func:`dollar` numbers them (``$1``...)
  outside string literals, once per distinct statement. ``insert`` adds ``RETURNING id``.
  Constraint violations become :class:`~bot.db.base.IntegrityError`.
- Numbers: ``SUM`` of BIGINT is NUMERIC in PostgreSQL; it is read back as an int, as
  SQLite gives it.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import asyncpg

from .base import Conflict, Conn, DbFn, IntegrityError, Memo, P, Params, Row, T

RETRIES = 3  # attempts of a write that lost a race (unique key, deadlock, serialization)
POOL_MIN = 1
POOL_MAX = 10
_PLACEHOLDER = re.compile(r"'(?:[^']|'')*'|\?")
_translated: dict[str, str] = {}
_COUNT = re.compile(r"(\d+)$")


def dollar(sql: str) -> str:
    """``?`` placeholders as PostgreSQL's ``$1, $2...`` (string literals left alone)."""
    done = _translated.get(sql)
    if done is None:
        n = 0

        def number(match: re.Match[str]) -> str:
            nonlocal n
            if match[0] != "?":
                return match[0]
            n += 1
            return f"${n}"

        done = _translated[sql] = _PLACEHOLDER.sub(number, sql)
    return done


def _integrity(exc: asyncpg.PostgresError) -> IntegrityError:
    constraint = getattr(exc, "constraint_name", None) or ""
    return IntegrityError(f"{exc} ({constraint})" if constraint else str(exc))


class PostgresConn(Conn):
    """A transaction on one asyncpg connection."""

    __slots__ = ("_c",)

    def __init__(self, c: asyncpg.Connection, memo: Memo) -> None:
        super().__init__(memo)
        self._c = c

    async def execute(self, sql: str, params: Params = ()) -> int:
        """Run one statement; the number of rows it changed (from the command tag)."""
        try:
            tag = await self._c.execute(dollar(sql), *params)
        except asyncpg.IntegrityConstraintViolationError as exc:
            raise _integrity(exc) from exc
        found = _COUNT.search(tag)
        return int(found[1]) if found else 0

    async def executemany(self, sql: str, rows: Iterable[Params]) -> None:
        """Run one statement once per parameter row (one pipelined round trip)."""
        try:
            await self._c.executemany(dollar(sql), list(rows))
        except asyncpg.IntegrityConstraintViolationError as exc:
            raise _integrity(exc) from exc

    async def fetchone(self, sql: str, params: Params = ()) -> Row | None:
        """The first row, or None."""
        try:
            return await self._c.fetchrow(dollar(sql), *params)
        except asyncpg.IntegrityConstraintViolationError as exc:
            raise _integrity(exc) from exc

    async def fetchall(self, sql: str, params: Params = ()) -> list[Row]:
        """Every row."""
        return list(await self._c.fetch(dollar(sql), *params))

    async def insert(self, sql: str, params: Params = ()) -> int | None:
        """The new row's id (``RETURNING id``), or None if nothing was inserted."""
        try:
            value = await self._c.fetchval(dollar(sql) + " RETURNING id", *params)
        except asyncpg.IntegrityConstraintViolationError as exc:
            raise _integrity(exc) from exc
        return None if value is None else int(value)


def _numeric(text: str) -> int | float:
    return int(text) if text.lstrip("-").isdigit() else float(text)


async def _setup(c: asyncpg.Connection) -> None:
    await c.set_type_codec(
        "numeric", schema="pg_catalog", encoder=str, decoder=_numeric, format="text"
    )


def redact(url: str) -> str:
    """The URL without its password (for messages and logs)."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.hostname or ""
    netloc = f"{parts.username}:***@{host}" + (f":{parts.port}" if parts.port else "")
    return urlunsplit(parts._replace(netloc=netloc))


class PostgresDatabase:
    """A PostgreSQL database behind a pool of connections: see the module docstring."""

    dialect = "postgresql"

    def __init__(self, url: str, pool: asyncpg.Pool, memo: Memo | None = None) -> None:
        self.url = url
        self.path = redact(url)
        self.memo = memo or Memo()
        self._pool = pool

    @classmethod
    async def open(
        cls, url: str, *, min_size: int = POOL_MIN, max_size: int = POOL_MAX
    ) -> PostgresDatabase:
        """Connect a pool (the URL's unknown query parameters, e.g. ``search_path``, are
        server settings)."""
        pool = await asyncpg.create_pool(
            url, min_size=min_size, max_size=max_size, init=_setup, command_timeout=60
        )
        return cls(url, pool)

    async def write(self, fn: DbFn[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """``fn(conn, ...)`` in one READ COMMITTED transaction, committed when it returns;
        run again if it lost a race (see the module docstring)."""
        for attempt in range(RETRIES):
            try:
                return await self._run(False, fn, *args, **kwargs)
            except IntegrityError as exc:
                cause = exc.__cause__
                if not isinstance(cause, asyncpg.UniqueViolationError) or attempt == RETRIES - 1:
                    raise
            except (Conflict, asyncpg.DeadlockDetectedError, asyncpg.SerializationError):
                if attempt == RETRIES - 1:
                    raise
            await asyncio.sleep(0)
        raise AssertionError("unreachable")

    async def read(self, fn: DbFn[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """``fn(conn, ...)`` in one REPEATABLE READ, read-only snapshot."""
        return await self._run(True, fn, *args, **kwargs)

    async def _run(self, read_only: bool, fn: DbFn[P, T], *args: Any, **kwargs: Any) -> T:
        async with self._pool.acquire() as c:
            conn = PostgresConn(c, self.memo)
            isolation = "repeatable_read" if read_only else "read_committed"
            async with c.transaction(isolation=isolation, readonly=read_only):
                out = await fn(conn, *args, **kwargs)
            conn.committed()
            return out

    async def execute_script(self, sql: str) -> None:
        """Run several statements at once, outside any service (tests, tools)."""
        async with self._pool.acquire() as c:
            await c.execute(sql)

    async def backup(self, target: str | Path) -> None:
        """Refused: a PostgreSQL database is backed up by PostgreSQL's own tools."""
        raise BackupRefused(
            "backups of a PostgreSQL database are PostgreSQL's job: use pg_dump or base "
            "backups (pg_basebackup), not `python -m bot backup` nor BACKUP_EVERY."
        )

    async def close(self) -> None:
        """Wait for the running transactions and close the pool."""
        await self._pool.close()


class BackupRefused(RuntimeError):
    """``backup`` on a database that is not a file."""
