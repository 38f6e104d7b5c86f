"""One aiosqlite connection per process, with serialised ``BEGIN IMMEDIATE`` transactions."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, Concatenate, ParamSpec, TypeVar, cast

import aiosqlite

BUSY_TIMEOUT_MS = 5000
P = ParamSpec("P")
T = TypeVar("T")


class Database:
    """The process's database connection. Every write goes through :meth:`transaction`."""

    def __init__(self, conn: aiosqlite.Connection, path: str) -> None:
        self.conn = conn
        self.path = path
        # aiosqlite runs one connection on one thread, but two tasks could still interleave
        # statements of two transactions on it: the lock makes each transaction exclusive.
        self._lock = asyncio.Lock()

    @classmethod
    async def open(cls, path: str | Path) -> Database:
        """Open (creating parent folders) and configure the connection."""
        path = str(path)
        if path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        pending = aiosqlite.connect(path, isolation_level=None)
        # A daemon worker thread never keeps the process alive after an unclean stop (a
        # failed test, a crash); SQLite's WAL journal makes an abrupt exit safe.
        worker = getattr(pending, "_thread", None)
        if worker is not None:
            worker.daemon = True
        conn = await pending
        conn.row_factory = aiosqlite.Row
        for pragma in (
            "PRAGMA journal_mode=WAL",
            "PRAGMA synchronous=NORMAL",
            "PRAGMA foreign_keys=ON",
            f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}",
        ):
            # An unexhausted cursor (journal_mode returns a row) would block every COMMIT.
            await (await conn.execute(pragma)).close()
        return cls(conn, path)

    async def close(self) -> None:
        """Close the connection (waits for a running transaction)."""
        async with self._lock:
            await self.conn.close()

    @property
    def in_transaction(self) -> bool:
        """True while a transaction holds the connection."""
        return self._lock.locked()

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """``BEGIN IMMEDIATE`` ... ``COMMIT``, or ``ROLLBACK`` if the block raises."""
        async with self._lock:
            await self.conn.execute("BEGIN IMMEDIATE")
            try:
                yield self.conn
            except BaseException:
                await self.conn.execute("ROLLBACK")
                raise
            else:
                await self.conn.execute("COMMIT")

    async def run_transaction(
        self, fn: Callable[Concatenate[sqlite3.Connection, P], T], *args: P.args, **kwargs: P.kwargs
    ) -> T:
        """``fn(raw_connection, ...)`` between ``BEGIN IMMEDIATE`` and ``COMMIT`` (``ROLLBACK``
        if it raises), all in one hop to aiosqlite's worker thread: for a hot path whose
        statements need no await in between (a table move). Same lock as
        :meth:`transaction`."""
        inner = cast(Any, self.conn)

        def run(c: sqlite3.Connection) -> T:
            c.execute("BEGIN IMMEDIATE")
            try:
                out = fn(c, *args, **kwargs)
            except BaseException:
                c.execute("ROLLBACK")
                raise
            c.execute("COMMIT")
            return out

        async with self._lock:
            return cast(T, await inner._execute(run, inner._conn))

    async def fetchone(self, sql: str, params: tuple[object, ...] = ()) -> sqlite3.Row | None:
        """Read one row outside any transaction (waits for a running one)."""
        async with self._lock, self.conn.execute(sql, params) as cur:
            return await cur.fetchone()

    async def fetchall(self, sql: str, params: tuple[object, ...] = ()) -> list[sqlite3.Row]:
        """Read all rows outside any transaction (waits for a running one)."""
        async with self._lock, self.conn.execute(sql, params) as cur:
            return list(await cur.fetchall())

    async def backup(self, target: str | Path) -> None:
        """Online copy of the database with SQLite's backup API."""
        Path(target).parent.mkdir(parents=True, exist_ok=True)
        async with self._lock:
            dest = await aiosqlite.connect(str(target))
            try:
                await self.conn.backup(dest)
            finally:
                await dest.close()
