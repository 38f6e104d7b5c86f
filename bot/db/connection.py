"""One aiosqlite connection per process, with serialised ``BEGIN IMMEDIATE`` transactions,
and a checkpointer thread that keeps WAL checkpoints off the event loop."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import threading
from collections.abc import AsyncIterator, Callable, Hashable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, Concatenate, ParamSpec, TypeVar, cast

import aiosqlite

BUSY_TIMEOUT_MS = 5000
CHECKPOINT_INTERVAL = 0.5  # seconds between two background WAL checkpoints
# A commit checkpoints by itself only if the checkpointer falls this far behind (pages).
AUTOCHECKPOINT_PAGES = 20_000
log = logging.getLogger(__name__)
P = ParamSpec("P")
T = TypeVar("T")


class MemoConnection(sqlite3.Connection):
    """A connection that remembers values which never change once committed (a bank
    account's id), to spare a SELECT on every move.

    What a transaction found counts only once it commits: a rollback can undo the row, and
    SQLite would give its id to the next one. :class:`Database` reports every commit and
    rollback; a rollback to a savepoint must be reported too (:func:`forget_found`)."""

    LIMIT = 100_000  # values kept; past it the memo starts again (closed tables' accounts)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.memo: dict[Hashable, Any] = {}
        self.found: dict[Hashable, Any] = {}  # by the open transaction, not yet committed

    def began(self) -> None:
        """A transaction begins: nothing found yet (whatever a transaction run around
        :class:`Database` found is dropped, committed or not)."""
        self.found.clear()

    def committed(self) -> None:
        """The open transaction committed: what it found is now true for good."""
        if self.found:
            self.keep(self.found)
            self.found.clear()

    def rolled_back(self) -> None:
        """The open transaction (or a savepoint in it) rolled back: forget what it found."""
        self.found.clear()

    def keep(self, values: dict[Hashable, Any]) -> None:
        """Remember committed ``values`` (starting again past ``LIMIT``)."""
        if len(self.memo) + len(values) > self.LIMIT:
            self.memo.clear()
        self.memo.update(values)


def recall(c: sqlite3.Connection, key: Hashable) -> Any:
    """A committed value remembered by ``c``, or None (always None on a plain connection)."""
    return c.memo.get(key) if isinstance(c, MemoConnection) else None


def remember(c: sqlite3.Connection, key: Hashable, value: Any) -> None:
    """Remember ``value``: at once outside a transaction, else when the transaction commits."""
    if isinstance(c, MemoConnection):
        if c.in_transaction:
            c.found[key] = value
        else:
            c.keep({key: value})


def forget_found(c: sqlite3.Connection) -> None:
    """After ``ROLLBACK TO`` a savepoint: drop what the transaction found (all of it, to be
    safe: it is found again on the next use)."""
    if isinstance(c, MemoConnection):
        c.rolled_back()


class Database:
    """The process's database connection. Every write goes through :meth:`transaction`."""

    def __init__(self, conn: aiosqlite.Connection, path: str) -> None:
        self.conn = conn
        self.path = path
        # aiosqlite runs one connection on one thread, but two tasks could still interleave
        # statements of two transactions on it: the lock makes each transaction exclusive.
        # Every use of the connection holds it, which is also what lets run_transaction use
        # the connection from the event loop's thread.
        self._lock = asyncio.Lock()
        self._checkpointer: Checkpointer | None = None
        self._reader: sqlite3.Connection | None = None

    @classmethod
    async def open(cls, path: str | Path) -> Database:
        """Open (creating parent folders) and configure the connection."""
        path = str(path)
        if path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        # check_same_thread=False: run_transaction uses the connection from the loop's
        # thread, never at the same time as aiosqlite's thread (both hold the lock).
        pending = aiosqlite.connect(
            path, isolation_level=None, check_same_thread=False, factory=MemoConnection
        )
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
            f"PRAGMA wal_autocheckpoint={AUTOCHECKPOINT_PAGES}",
        ):
            # An unexhausted cursor (journal_mode returns a row) would block every COMMIT.
            await (await conn.execute(pragma)).close()
        db = cls(conn, path)
        if path != ":memory:":
            db._checkpointer = Checkpointer(path)
        return db

    async def close(self) -> None:
        """Close the connection (waits for a running transaction)."""
        if self._checkpointer is not None:
            self._checkpointer.stop()
        if self._reader is not None:
            self._reader.close()
            self._reader = None
        async with self._lock:
            await self.conn.close()

    @property
    def in_transaction(self) -> bool:
        """True while a transaction holds the connection."""
        return self._lock.locked()

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """``BEGIN IMMEDIATE`` ... ``COMMIT``, or ``ROLLBACK`` if the block raises."""
        raw = self.raw
        async with self._lock:
            await self.conn.execute("BEGIN IMMEDIATE")
            raw.began()
            try:
                yield self.conn
                await self.conn.execute("COMMIT")
            except BaseException:
                raw.rolled_back()
                if raw.in_transaction:  # a failed COMMIT leaves it open
                    await self.conn.execute("ROLLBACK")
                raise
            raw.committed()

    async def run_transaction(
        self, fn: Callable[Concatenate[sqlite3.Connection, P], T], *args: P.args, **kwargs: P.kwargs
    ) -> T:
        """``fn(raw_connection, ...)`` between ``BEGIN IMMEDIATE`` and ``COMMIT`` (``ROLLBACK``
        if it raises), run right here on the event loop's thread: for a hot path of a few
        short statements (a table move). Same lock as :meth:`transaction`.

        Why not aiosqlite's thread: each statement there re-takes the GIL from a busy event
        loop (up to the 5 ms switch interval each time), so under load a move's transaction
        stretched to tens of ms and every other move queued behind the lock. In WAL mode
        with ``synchronous=NORMAL`` a commit does not fsync, and checkpoints run on the
        :class:`Checkpointer` thread, so this blocks the loop for well under a millisecond
        (see docs/BENCHMARKS.md)."""
        raw = self.raw
        async with self._lock:
            raw.execute("BEGIN IMMEDIATE")
            raw.began()
            try:
                out = fn(raw, *args, **kwargs)
                raw.execute("COMMIT")
            except BaseException:
                raw.rolled_back()
                if raw.in_transaction:  # a failed COMMIT leaves it open
                    raw.execute("ROLLBACK")
                raise
            raw.committed()
            return out

    @property
    def raw(self) -> MemoConnection:
        """The sqlite3 connection under aiosqlite (use it only while holding the lock)."""
        return cast(MemoConnection, cast(Any, self.conn)._conn)

    def read_committed(self, sql: str, params: tuple[object, ...] = ()) -> sqlite3.Row | None:
        """One row of the last committed state, read at once on the caller's thread, without
        the lock: for the rare paths that must not await (putting a game back after a
        failed write). A reader connection of its own: in WAL mode it never waits for the
        writer, and it never sees an uncommitted write."""
        if self.path == ":memory:":  # another connection would see another database
            return cast(sqlite3.Row | None, self.raw.execute(sql, params).fetchone())
        if self._reader is None:
            self._reader = sqlite3.connect(self.path, isolation_level=None)
            self._reader.row_factory = sqlite3.Row
        return cast(sqlite3.Row | None, self._reader.execute(sql, params).fetchone())

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


class Checkpointer:
    """Copies the WAL back into the database file every ``interval`` seconds, on a thread
    and connection of its own, so no commit pays for a checkpoint and its fsync.

    A PASSIVE checkpoint never blocks the writer; if it ever fell far behind, a commit
    would still checkpoint by itself (``wal_autocheckpoint``)."""

    def __init__(self, path: str, interval: float = CHECKPOINT_INTERVAL) -> None:
        self.path = path
        self.interval = interval
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._run, name="sqlite-checkpoint", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        conn = sqlite3.connect(self.path, isolation_level=None)
        try:
            while not self._stopping.wait(self.interval):
                self.checkpoint(conn)
        finally:
            conn.close()

    @staticmethod
    def checkpoint(conn: sqlite3.Connection) -> tuple[int, int, int] | None:
        """One PASSIVE checkpoint: (busy, WAL frames, frames copied), or None on error."""
        try:
            row = conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
        except sqlite3.Error:  # e.g. the file went away under a test: try again later
            log.debug("checkpoint failed", exc_info=True)
            return None
        return None if row is None else (int(row[0]), int(row[1]), int(row[2]))

    def stop(self) -> None:
        """Stop the thread (its connection closes; the last close checkpoints)."""
        self._stopping.set()
        self._thread.join(timeout=5)
