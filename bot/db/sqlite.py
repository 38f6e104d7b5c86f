"""The SQLite database: the writer on the event loop's thread, a reader on a thread of its
own, and a checkpointer thread that keeps WAL checkpoints off both.

Where each transaction runs, and why:

- ``write(fn)``: ``BEGIN IMMEDIATE``, ``fn``, ``COMMIT``, right on the event loop's thread
  (no thread hop). A write is a few short statements: in WAL mode with
  ``synchronous=NORMAL`` a commit does not fsync, and checkpoints run on the
  :class:`Checkpointer` thread, so it holds the loop well under a millisecond. On a worker
  thread instead, each statement gives the GIL up inside SQLite and then waits up to the
  5 ms switch interval to get it back from a busy event loop: under load a move's
  transaction stretched to tens of milliseconds and every other write queued behind it
  (docs/BENCHMARKS.md).
- ``read(fn)``: ``BEGIN``, ``fn``, ``COMMIT`` on the reader thread, in one hop, on a
  read-only connection of its own: in WAL mode it never waits for the writer and never
  sees an uncommitted write. Long reads (an audit, a backup) never hold the loop.

Both run ``fn`` with :func:`~bot.db.base.run_to_end`: its statements are answered at
once, so a transaction is never interleaved with another task's work.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import threading
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from .base import Conn, DbFn, IntegrityError, Memo, P, Params, Row, T, run_to_end

BUSY_TIMEOUT_MS = 5000
CHECKPOINT_INTERVAL = 0.5  # seconds between two background WAL checkpoints
# A commit checkpoints by itself only if the checkpointer falls this far behind (pages).
AUTOCHECKPOINT_PAGES = 20_000
PRAGMAS = (
    "PRAGMA journal_mode=WAL",
    "PRAGMA synchronous=NORMAL",
    "PRAGMA foreign_keys=ON",
    f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}",
    f"PRAGMA wal_autocheckpoint={AUTOCHECKPOINT_PAGES}",
)
log = logging.getLogger(__name__)


class SqliteConn(Conn):
    """A transaction on an ``sqlite3`` connection: every statement answers at once."""

    __slots__ = ("_c",)

    def __init__(self, c: sqlite3.Connection, memo: Memo) -> None:
        super().__init__(memo)
        self._c = c

    async def execute(self, sql: str, params: Params = ()) -> int:
        """Run one statement; the number of rows it changed."""
        try:
            return self._c.execute(sql, params).rowcount
        except sqlite3.IntegrityError as exc:
            raise IntegrityError(str(exc)) from exc

    async def executemany(self, sql: str, rows: Iterable[Params]) -> None:
        """Run one statement once per parameter row."""
        try:
            self._c.executemany(sql, rows)
        except sqlite3.IntegrityError as exc:
            raise IntegrityError(str(exc)) from exc

    async def fetchone(self, sql: str, params: Params = ()) -> Row | None:
        """The first row, or None (the cursor goes at once: an INSERT ... RETURNING is
        finished before the COMMIT)."""
        try:
            return self._c.execute(sql, params).fetchone()
        except sqlite3.IntegrityError as exc:
            raise IntegrityError(str(exc)) from exc

    async def fetchall(self, sql: str, params: Params = ()) -> list[Row]:
        """Every row."""
        return self._c.execute(sql, params).fetchall()

    async def insert(self, sql: str, params: Params = ()) -> int | None:
        """The new row's id (SQLite's last row id: ``RETURNING`` costs ~2 us more)."""
        try:
            cur = self._c.execute(sql, params)
        except sqlite3.IntegrityError as exc:
            raise IntegrityError(str(exc)) from exc
        return cur.lastrowid if cur.rowcount else None


def run_on(c: sqlite3.Connection, fn: DbFn[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
    """``fn(conn, ...)`` on a raw connection as it stands, no BEGIN or COMMIT: for this
    backend's offline tools (``split``), which hold their own transactions and locks."""
    return run_to_end(fn(SqliteConn(c, Memo()), *args, **kwargs))


def _connect(path: str, *, read_only: bool = False) -> sqlite3.Connection:
    uri = f"{Path(path).resolve().as_uri()}?mode=ro" if read_only else path
    c = sqlite3.connect(uri, uri=read_only, isolation_level=None)
    c.row_factory = sqlite3.Row
    for pragma in PRAGMAS[1:] if read_only else PRAGMAS:
        c.execute(pragma).fetchall()  # journal_mode returns a row: read it to the end
    return c


def transaction(
    c: sqlite3.Connection, begin: str, memo: Memo, fn: DbFn[P, T], *args: Any, **kwargs: Any
) -> T:
    """``begin``, ``fn(conn, ...)``, ``COMMIT``; ``ROLLBACK`` if anything raises."""
    conn = SqliteConn(c, memo)
    c.execute(begin)
    try:
        out = run_to_end(fn(conn, *args, **kwargs))
        try:
            c.execute("COMMIT")
        except sqlite3.IntegrityError as exc:  # a deferred foreign key
            raise IntegrityError(str(exc)) from exc
    except BaseException:
        if c.in_transaction:  # a failed COMMIT leaves it open too
            c.execute("ROLLBACK")
        raise
    conn.committed()
    return out


class SqliteDatabase:
    """A database file (or ``:memory:``): see the module docstring."""

    dialect = "sqlite"

    def __init__(self, path: str, writer: sqlite3.Connection) -> None:
        self.path = path
        self.memo = Memo()
        self._writer = writer
        # Writes never yield inside (run_to_end), so they cannot interleave; the lock only
        # lets close() wait for a write in progress.
        self._lock = asyncio.Lock()
        self._reader: sqlite3.Connection | None = None
        self._pool: ThreadPoolExecutor | None = None
        self._checkpointer: Checkpointer | None = None

    @classmethod
    async def open(cls, path: str | Path) -> SqliteDatabase:
        """Open (creating parent folders), configure, start the reader and checkpointer."""
        path = str(path)
        memory = path == ":memory:"
        if not memory:
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        db = cls(path, _connect(path))
        if not memory:  # another connection to :memory: would be another database
            db._pool = ThreadPoolExecutor(1, thread_name_prefix="sqlite-reader")
            db._reader = await asyncio.get_running_loop().run_in_executor(
                db._pool, lambda: _connect(path, read_only=True)
            )
            db._checkpointer = Checkpointer(path)
        return db

    async def write(self, fn: DbFn[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """``fn(conn, ...)`` between ``BEGIN IMMEDIATE`` and ``COMMIT``, here on the loop's
        thread; ``ROLLBACK`` and the error if it raises."""
        async with self._lock:
            return transaction(self._writer, "BEGIN IMMEDIATE", self.memo, fn, *args, **kwargs)

    async def read(self, fn: DbFn[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """``fn(conn, ...)`` in one snapshot of the committed state, on the reader thread."""
        if self._pool is None or self._reader is None:  # :memory:
            async with self._lock:
                return transaction(self._writer, "BEGIN", self.memo, fn, *args, **kwargs)
        reader = self._reader
        return await asyncio.get_running_loop().run_in_executor(
            self._pool, lambda: transaction(reader, "BEGIN", self.memo, fn, *args, **kwargs)
        )

    async def backup(self, target: str | Path) -> None:
        """An online copy with SQLite's backup API (on the reader thread)."""
        Path(target).parent.mkdir(parents=True, exist_ok=True)

        def copy(source: sqlite3.Connection) -> None:
            dest = sqlite3.connect(str(target))
            try:
                source.backup(dest)
            finally:
                dest.close()

        if self._pool is None or self._reader is None:
            async with self._lock:
                copy(self._writer)
            return
        reader = self._reader
        await asyncio.get_running_loop().run_in_executor(self._pool, copy, reader)

    async def close(self) -> None:
        """Stop the checkpointer and the reader, then close the writer."""
        if self._checkpointer is not None:
            self._checkpointer.stop()
        if self._pool is not None and self._reader is not None:
            reader, self._reader = self._reader, None
            await asyncio.get_running_loop().run_in_executor(self._pool, reader.close)
            self._pool.shutdown()
        async with self._lock:
            self._writer.close()


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
