"""The one way to the database, whatever database it is.

A service never holds a connection: it hands a function to the database,

    await db.write(fn, *args)   # fn(conn, *args) in one write transaction, committed
    await db.read(fn, *args)    # fn(conn, *args) in one read-only snapshot
    await db.read_long(fn, *args)  # the same for an audit, an export: never in the way

and ``fn`` talks to a :class:`Conn`: ``execute``, ``executemany``, ``fetchone``,
``fetchall``, ``insert`` and ``savepoint``. If ``fn`` raises, the transaction rolls back
and the error goes to the caller. The functions are coroutines so that a network database
(PostgreSQL, asyncpg) can wait on each statement; SQLite answers each at once, so there
``fn`` runs from its first statement to its commit without ever giving the event loop away
(:func:`run_to_end` checks it). SQL is written with ``?`` placeholders; a new row's id
comes from :meth:`Conn.insert` (SQLite's last row id is free, ``RETURNING id`` is not).
A UNIQUE or CHECK constraint that refuses a statement raises :class:`IntegrityError`
whatever the database, its message naming the column or constraint.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Coroutine, Hashable, Iterable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, Concatenate, NamedTuple, ParamSpec, Protocol, TypeAlias, TypeVar

Row: TypeAlias = Any  # a row read by position (``row[0]``) or by column name (``row["id"]``)
Params: TypeAlias = Sequence[object]
P = ParamSpec("P")
T = TypeVar("T")
DbFn: TypeAlias = Callable[Concatenate["Conn", P], Coroutine[Any, Any, T]]


class IntegrityError(Exception):
    """A UNIQUE, CHECK or foreign key constraint refused a statement (both backends raise
    this one; the message names the column or constraint, e.g. ``interaction_id``)."""


class Unusable(Exception):
    """This code will not use the database (damaged, newer than the code, or another
    process's file): the message is one sentence for the operator (exit 2)."""


class Conflict(Exception):
    """Raised by a write function that found a concurrent transaction's work in its way
    (two processes paying the same claims): PostgreSQL runs the function again, from a new
    transaction that sees it; SQLite, with one writer at a time, never meets it."""


class Busy(Exception):
    """A write could not begin in time: another process held the database's write lock
    past the bound (SQLite), or a row lock past ``lock_timeout`` (PostgreSQL). Nothing was
    applied; the user is told to try again in a moment. A refusal of the same shape as the
    engine's ``Refusal`` (``code``, ``key``, ``params``) without importing it: ``bot/db``
    imports nothing of the bot; ``bot/ui/errors.py`` translates it as one."""

    code = "busy"
    fallbacks: tuple[tuple[str, dict[str, object]], ...] = ()

    def __init__(self, key: str = "db.busy", **params: object) -> None:
        super().__init__(key)
        self.key = key
        self.params = params


class Memo:
    """Values that never change once committed (a bank account's id), remembered by the
    database for every later transaction, to spare a SELECT on every move.

    A transaction's finds count only once it commits: a rollback can undo the row, and
    the database could give its id to the next one (see :meth:`Conn.remember`)."""

    LIMIT = 100_000  # values kept; past it the memo starts again (closed tables' accounts)

    def __init__(self) -> None:
        self.values: dict[Hashable, Any] = {}

    def keep(self, found: dict[Hashable, Any]) -> None:
        """Remember committed values (starting again past ``LIMIT``)."""
        if len(self.values) + len(found) > self.LIMIT:
            self.values.clear()
        self.values.update(found)


class LedgerBatch(NamedTuple):
    """A move's ledger writes in one go (:meth:`Conn.post_ledger`): its entries (kind,
    idempotency key, reason each), their postings (entry key, account, amount), each
    account's change with the least balance it must hold first (the most its debits ask
    before its credits come, in the effects' order) and the seat counters' increments."""

    guild_id: int
    table_id: int
    round_no: int | None
    actor: int | None
    entries: list[tuple[str, str, str | None]]
    postings: list[tuple[str, int, int]]
    balances: list[tuple[int, int, int]]  # (account, change, least balance first)
    seats: list[tuple[int, int, int, int]]  # (user, own funds, wagered, forfeited)


class Conn:
    """One open transaction, as ``fn`` receives it. A backend implements the four
    statement methods; what is common (the memo, savepoints) is here."""

    __slots__ = ("_found", "_memo")
    # True where every statement is a network round trip (PostgreSQL): callers then gather
    # statements (execute_together, post_ledger); SQLite answers each at once, cheaper alone
    batches = False
    # True where several writers commit at once (PostgreSQL): an entry id may then commit
    # after a higher one, so "every entry up to id N" holds only once they have committed
    # (the audit's checkpoint waits for them); SQLite commits one writer at a time, in order
    concurrent = False

    def __init__(self, memo: Memo) -> None:
        self._memo = memo
        self._found: dict[Hashable, Any] = {}  # found by this transaction, not yet committed

    async def execute(self, sql: str, params: Params = ()) -> int:
        """Run one statement; the number of rows it changed."""
        raise NotImplementedError

    async def executemany(self, sql: str, rows: Iterable[Params]) -> None:
        """Run one statement once per parameter row."""
        raise NotImplementedError

    async def fetchone(self, sql: str, params: Params = ()) -> Row | None:
        """The first row of a query (or of an ``INSERT ... RETURNING``), or None."""
        raise NotImplementedError

    async def fetchall(self, sql: str, params: Params = ()) -> list[Row]:
        """Every row of a query."""
        raise NotImplementedError

    async def insert(self, sql: str, params: Params = ()) -> int | None:
        """Run an INSERT into a table with an ``id`` key; the new row's id, or None when
        it inserted nothing (``ON CONFLICT DO NOTHING``)."""
        raise NotImplementedError

    async def execute_together(self, statements: Sequence[tuple[str, Params]]) -> list[int]:
        """Run statements that neither read each other's changes nor change the same row
        (a network database sends them as one); for each, the rows it changed (INSERT,
        UPDATE, DELETE, without RETURNING) or returned (SELECT)."""
        counts = []
        for sql, params in statements:
            if sql.startswith("SELECT"):
                counts.append(len(await self.fetchall(sql, params)))
            else:
                counts.append(await self.execute(sql, params))
        return counts

    async def post_ledger(self, batch: LedgerBatch) -> tuple[list[int], bool] | None:
        """Write a move's ledger in one statement (where :attr:`batches`): the entries'
        ids in order and whether every balance could change (False: nothing may commit),
        or None when some keys were used already and nothing was written."""
        raise NotImplementedError

    @asynccontextmanager
    async def savepoint(self) -> AsyncIterator[None]:
        """Make a block atomic inside the transaction: if it raises, its writes (and what
        it found for the memo) are undone and the transaction goes on without them."""
        await self.execute("SAVEPOINT sp")
        before = dict(self._found)
        try:
            yield
        except BaseException:
            await self.execute("ROLLBACK TO sp")
            await self.execute("RELEASE sp")
            self._found = before
            raise
        await self.execute("RELEASE sp")

    def recall(self, key: Hashable) -> Any:
        """A committed value remembered under ``key``, or None."""
        return self._memo.values.get(key)

    def remember(self, key: Hashable, value: Any) -> None:
        """Remember ``value`` once this transaction commits."""
        self._found[key] = value

    def committed(self) -> None:
        """Called by the database after the commit: the finds are true for good."""
        if self._found:
            self._memo.keep(self._found)
            self._found = {}


class Database(Protocol):
    """What the services see of a database (:mod:`bot.db.sqlite`, :mod:`bot.db.postgres`)."""

    path: str  # where it lives, for messages (a PostgreSQL URL without its password)
    dialect: str  # "sqlite" or "postgresql": only bot/db looks at it

    async def write(self, fn: DbFn[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """``fn(conn, ...)`` in one write transaction; committed when it returns."""
        ...

    async def read(self, fn: DbFn[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """``fn(conn, ...)`` in one read-only snapshot of the committed state."""
        ...

    async def read_long(self, fn: DbFn[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """``read`` for a long read (an audit, an export, a backup): on a connection of
        its own, so the interactive reads never wait behind it."""
        ...

    async def backup(self, target: str | Path) -> None:
        """An online, consistent copy of the database."""
        ...

    async def close(self) -> None:
        """Finish the running transactions and close."""
        ...


class Waited(RuntimeError):
    """A function given to an SQLite database awaited something else than its connection."""


def run_to_end(coro: Coroutine[Any, Any, T]) -> T:
    """Run a coroutine that never waits to its end, synchronously.

    SQLite's :class:`Conn` answers every statement at once, so ``fn(conn)`` finishes on
    its first step; if it awaited anything else (a Discord call, a sleep), the
    transaction would stay open across other tasks' work: that is refused instead."""
    try:
        coro.send(None)
    except StopIteration as done:
        return done.value  # type: ignore[no-any-return]
    coro.close()
    raise Waited("a database function may await only its connection's methods")
