"""The SQLite database: the writer on the event loop's thread, two readers on aiosqlite's
threads, and a checkpointer thread that keeps WAL checkpoints off the loop.

Where each transaction runs, and why:

- ``write(fn)``: ``BEGIN IMMEDIATE``, ``fn``, ``COMMIT``, right on the event loop's thread
  (no thread hop). A write is a few short statements: in WAL mode with
  ``synchronous=NORMAL`` a commit does not fsync, and the writer never checkpoints
  (``wal_autocheckpoint=0``: the :class:`Checkpointer` thread does), so it holds the loop
  well under a millisecond. On a worker thread instead, each statement gives the GIL up
  inside SQLite and then waits up to the 5 ms switch interval to get it back from a busy
  event loop: under load a move's transaction stretched to tens of milliseconds and every
  other write queued behind it (docs/BENCHMARKS.md).
- A write lock held by another process (a backup tool, ``sqlite3`` opened by an admin)
  never blocks the loop: the writer's ``busy_timeout`` is 0, a busy ``BEGIN IMMEDIATE``
  is tried again after an ``asyncio.sleep`` (2 ms doubling to 50 ms), and a write that
  could not begin within :data:`BUSY_BOUND` raises :class:`~bot.db.base.Busy`, a refusal
  the user reads as one sentence: nothing was applied.
- ``read(fn)``: ``BEGIN``, ``fn``, ``COMMIT`` in one hop to the interactive reader, a
  read-only aiosqlite connection on a thread of its own: in WAL mode it never waits for the
  writer and never sees an uncommitted write. ``read_long(fn)`` (an audit, a backup, an
  export) does the same on a second reader, so an interactive read never queues behind a
  long one.

All run ``fn`` with :func:`~bot.db.base.run_to_end`: its statements are answered at once,
so a transaction is never interleaved with another task's work.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import threading
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import aiosqlite

from .base import Busy, Conn, DbFn, IntegrityError, Memo, P, Params, Row, T, run_to_end

READ_BUSY_TIMEOUT_MS = 5000  # a reader waits on its own thread (WAL recovery only)
BUSY_BOUND = 1.5  # seconds a write may wait for another process's lock: half Discord's 3 s
BUSY_FIRST = 0.002  # the first sleep before a busy BEGIN is tried again (doubling)
BUSY_CAP = 0.05  # the longest sleep between two tries
CHECKPOINT_INTERVAL = 0.5  # seconds between two background WAL checkpoints
# Past this many WAL frames the checkpointer restarts the WAL (back-to-back writes never
# leave it fully copied for the next writer to start it over by itself).
RESTART_FRAMES = 4_000
# How long a RESTART checkpoint waits for the write lock and then for readers to leave the
# WAL (the loop's writer lets it have the lock, see _begin, and sleeps meanwhile)
RESTART_WAIT_MS = 50
PRAGMAS = (
    "PRAGMA journal_mode=WAL",
    "PRAGMA synchronous=NORMAL",
    "PRAGMA foreign_keys=ON",
)
WRITER_PRAGMAS = (*PRAGMAS, "PRAGMA busy_timeout=0", "PRAGMA wal_autocheckpoint=0")
READER_PRAGMAS = (*PRAGMAS[1:], f"PRAGMA busy_timeout={READ_BUSY_TIMEOUT_MS}")
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
    for pragma in READER_PRAGMAS if read_only else WRITER_PRAGMAS:
        c.execute(pragma).fetchall()  # journal_mode returns a row: read it to the end
    return c


def transaction(
    c: sqlite3.Connection, begin: str, memo: Memo, fn: DbFn[P, T], *args: Any, **kwargs: Any
) -> T:
    """``begin``, ``fn(conn, ...)``, ``COMMIT``; ``ROLLBACK`` if anything raises."""
    c.execute(begin)
    return _body(c, memo, fn, *args, **kwargs)


def _body(c: sqlite3.Connection, memo: Memo, fn: DbFn[P, T], *args: Any, **kwargs: Any) -> T:
    """``fn(conn, ...)`` and ``COMMIT`` in the transaction just begun; ``ROLLBACK`` if
    anything raises."""
    conn = SqliteConn(c, memo)
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


def is_busy(exc: sqlite3.OperationalError) -> bool:
    """Whether SQLite refused for a lock another connection holds (SQLITE_BUSY)."""
    code = getattr(exc, "sqlite_errorcode", None)
    return code is not None and code & 0xFF == sqlite3.SQLITE_BUSY


class Reader:
    """A read-only connection on an aiosqlite thread of its own: each call one hop there,
    queued behind the calls before it on that connection only."""

    def __init__(self, c: aiosqlite.Connection, raw: sqlite3.Connection) -> None:
        self._c = c
        self._raw = raw

    @classmethod
    async def open(cls, path: str, name: str) -> Reader:
        """Connect on a new thread (a daemon: a bot that died unclosed never keeps the
        process alive)."""
        raw: list[sqlite3.Connection] = []

        def connect() -> sqlite3.Connection:
            raw.append(_connect(path, read_only=True))
            return raw[0]

        c = aiosqlite.Connection(connect, iter_chunk_size=64)
        c._thread.name, c._thread.daemon = f"sqlite-{name}", True
        await c
        return cls(c, raw[0])

    async def run(self, func: Callable[[sqlite3.Connection], T]) -> T:
        """``func(connection)`` on the reader's thread, in one hop. aiosqlite's public
        calls hop once per statement and would run ``fn``'s Python (an audit's sums over a
        million rows) on the loop: ``_execute`` runs a whole function there."""
        raw = self._raw
        return await self._c._execute(func, raw)  # type: ignore[no-untyped-call,no-any-return]

    async def close(self) -> None:
        """Close the connection and stop its thread."""
        await self._c.close()


class SqliteDatabase:
    """A database file (or ``:memory:``): see the module docstring."""

    dialect = "sqlite"

    def __init__(self, path: str, writer: sqlite3.Connection) -> None:
        self.path = path
        self.memo = Memo()
        self.busy_bound = BUSY_BOUND
        self._writer = writer
        # Writes never yield inside (run_to_end); they wait in turn for a busy BEGIN, and
        # close() waits for the one in progress.
        self._lock = asyncio.Lock()
        self._busy_since: float | None = None  # when BEGIN last found another's lock
        self._reader: Reader | None = None
        self._long: Reader | None = None
        self._checkpointer: Checkpointer | None = None

    @classmethod
    async def open(cls, path: str | Path) -> SqliteDatabase:
        """Open (creating parent folders), configure, start the readers and checkpointer."""
        path = str(path)
        memory = path == ":memory:"
        if not memory:
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        db = cls(path, _connect(path))
        if not memory:  # another connection to :memory: would be another database
            db._reader = await Reader.open(path, "reader")
            db._long = await Reader.open(path, "long-reader")
            db._checkpointer = Checkpointer(path)
        return db

    async def write(self, fn: DbFn[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """``fn(conn, ...)`` between ``BEGIN IMMEDIATE`` and ``COMMIT``, here on the loop's
        thread; ``ROLLBACK`` and the error if it raises; :class:`Busy` if another process
        kept the write lock past :attr:`busy_bound`."""
        loop = asyncio.get_running_loop()
        asked = loop.time()
        async with self._lock:
            await self._begin(loop, asked)
            return _body(self._writer, self.memo, fn, *args, **kwargs)

    async def _begin(self, loop: asyncio.AbstractEventLoop, asked: float) -> None:
        """``BEGIN IMMEDIATE``, tried again while another connection holds the lock. The
        bound counts from the write's call, or from when the lock was first found taken
        if that is earlier: writes queued behind a refused one are refused at once rather
        than each waiting the bound again past Discord's answer window."""
        delay = BUSY_FIRST
        checkpointer = self._checkpointer
        while True:
            if checkpointer is None or not checkpointer.restarting.is_set():
                try:
                    self._writer.execute("BEGIN IMMEDIATE")
                except sqlite3.OperationalError as exc:
                    if not is_busy(exc):
                        raise
                else:
                    self._busy_since = None
                    return
            now = loop.time()
            if self._busy_since is None:
                self._busy_since = now
            left = min(asked, self._busy_since) + self.busy_bound - now
            if left <= 0:
                raise Busy("db.busy")
            await asyncio.sleep(min(delay, left))
            delay = min(delay * 2, BUSY_CAP)

    async def read(self, fn: DbFn[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """``fn(conn, ...)`` in one snapshot of the committed state, on the interactive
        reader's thread."""
        return await self._read(self._reader, fn, *args, **kwargs)

    async def read_long(self, fn: DbFn[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """``read`` for a long read (an audit, an export), on the long reader's thread:
        interactive reads never queue behind it."""
        return await self._read(self._long, fn, *args, **kwargs)

    async def _read(self, reader: Reader | None, fn: DbFn[P, T], *args: Any, **kwargs: Any) -> T:
        if reader is None:  # :memory:
            async with self._lock:
                return transaction(self._writer, "BEGIN", self.memo, fn, *args, **kwargs)
        memo = self.memo
        return await reader.run(lambda c: transaction(c, "BEGIN", memo, fn, *args, **kwargs))

    async def backup(self, target: str | Path) -> None:
        """An online copy with SQLite's backup API (on the long reader's thread)."""
        Path(target).parent.mkdir(parents=True, exist_ok=True)

        def copy(source: sqlite3.Connection) -> None:
            dest = sqlite3.connect(str(target))
            try:
                source.backup(dest)
            finally:
                dest.close()

        if self._long is None:
            async with self._lock:
                copy(self._writer)
            return
        await self._long.run(copy)

    async def close(self) -> None:
        """Stop the checkpointer and the readers, then close the writer."""
        if self._checkpointer is not None:
            self._checkpointer.stop()
        for reader in (self._reader, self._long):
            if reader is not None:
                await reader.close()
        self._reader = self._long = None
        async with self._lock:
            self._writer.close()


class Checkpointer:
    """Copies the WAL back into the database file every ``interval`` seconds, on a thread
    and connection of its own: the writer never checkpoints (``wal_autocheckpoint=0``), so
    no commit on the loop pays for a checkpoint and its fsync.

    A PASSIVE checkpoint never blocks the writer. Under back-to-back writes a write always
    lands while it copies, so the WAL is never wholly copied when the next write begins
    (the moment SQLite starts it over) and it grows; past :data:`RESTART_FRAMES` a RESTART
    checkpoint copies the few frames left and starts it over, holding the write lock that
    long (the loop's writer waits for it with ``asyncio.sleep``, see ``_begin``). It waits
    :data:`RESTART_WAIT_MS` at most for a gap between writes or for a reader to leave the
    WAL (a long audit keeps it there: it tries again next interval)."""

    def __init__(self, path: str, interval: float = CHECKPOINT_INTERVAL) -> None:
        self.path = path
        self.interval = interval
        self._stopping = threading.Event()
        self.restarting = threading.Event()  # a RESTART checkpoint wants the write lock
        self._thread = threading.Thread(target=self._run, name="sqlite-checkpoint", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        conn = sqlite3.connect(self.path, isolation_level=None, timeout=0)
        try:
            wait = self.interval
            while not self._stopping.wait(wait):
                done = self.checkpoint(conn)
                wait = self.interval
                # all copied (no reader on an older snapshot), yet a write came meanwhile
                if done is not None and done[2] == done[1] >= RESTART_FRAMES:
                    self.restart(conn)
                    wait = self.interval / 5  # writes come fast: keep the WAL short
        finally:
            conn.close()

    def restart(self, conn: sqlite3.Connection) -> tuple[int, int, int] | None:
        """A RESTART checkpoint: the loop's writer sleeps while :attr:`restarting` is set
        (it would take the lock back between two of SQLite's busy polls otherwise)."""
        self.restarting.set()
        try:
            conn.execute(f"PRAGMA busy_timeout={RESTART_WAIT_MS}")
            return self.checkpoint(conn, "RESTART")
        finally:
            self.restarting.clear()
            conn.execute("PRAGMA busy_timeout=0")

    @staticmethod
    def checkpoint(conn: sqlite3.Connection, mode: str = "PASSIVE") -> tuple[int, int, int] | None:
        """One checkpoint: (busy, WAL frames, frames copied), or None on error."""
        try:
            row = conn.execute(f"PRAGMA wal_checkpoint({mode})").fetchone()
        except sqlite3.Error:  # e.g. the file went away under a test: try again later
            log.debug("checkpoint failed", exc_info=True)
            return None
        return None if row is None else (int(row[0]), int(row[1]), int(row[2]))

    def stop(self) -> None:
        """Stop the thread (its connection closes; the last close checkpoints)."""
        self._stopping.set()
        self._thread.join(timeout=5)
