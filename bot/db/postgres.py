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
- ``read(fn)``: a REPEATABLE READ, read-only transaction: one snapshot. ``read_long(fn)``
  (an audit, an export) the same, one at a time, so long reads hold one of the pool's
  connections at most and the interactive reads always find one.
- A row lock held by another process past ``lock_timeout`` (:data:`LOCK_TIMEOUT_MS`, a
  setting of every pooled connection: no round trip) refuses the write with
  :class:`~bot.db.base.Busy`; nothing is applied. The server waits, never the loop.
- SQL is written once, with ``?`` placeholders; :func:`dollar` numbers them (``$1``...)
  outside string literals, once per distinct statement. ``insert`` adds ``RETURNING id``.
  Constraint violations become :class:`~bot.db.base.IntegrityError`.
- Numbers: ``SUM`` of BIGINT is NUMERIC in PostgreSQL; it is read back as an int, as
  SQLite gives it.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import asyncpg

from .base import (
    Busy,
    Conflict,
    Conn,
    DbFn,
    IntegrityError,
    LedgerBatch,
    Memo,
    P,
    Params,
    Row,
    T,
)

RETRIES = 3  # attempts of a write that lost a race (unique key, deadlock, serialization)
POOL_MIN = 1
POOL_MAX = 10
LOCK_TIMEOUT_MS = 1500  # a write waits this long for another's row lock: half of 3 s
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


class Trips:
    """Round trips to the server, counted (a move's cost on a network database):
    ``BEGIN`` and ``COMMIT`` one each, every statement one (``executemany`` too: asyncpg
    pipelines its rows). A statement asyncpg has not prepared on that connection yet costs
    one more, not counted here."""

    __slots__ = ("count",)

    def __init__(self) -> None:
        self.count = 0


class PostgresConn(Conn):
    """A transaction on one asyncpg connection."""

    __slots__ = ("_c", "_trips")
    batches = True
    concurrent = True

    def __init__(self, c: asyncpg.Connection, memo: Memo, trips: Trips | None = None) -> None:
        super().__init__(memo)
        self._c = c
        self._trips = trips or Trips()

    async def execute(self, sql: str, params: Params = ()) -> int:
        """Run one statement; the number of rows it changed (from the command tag)."""
        try:
            self._trips.count += 1
            tag = await self._c.execute(dollar(sql), *params)
        except asyncpg.IntegrityConstraintViolationError as exc:
            raise _integrity(exc) from exc
        found = _COUNT.search(tag)
        return int(found[1]) if found else 0

    async def executemany(self, sql: str, rows: Iterable[Params]) -> None:
        """Run one statement once per parameter row (one pipelined round trip)."""
        try:
            self._trips.count += 1
            await self._c.executemany(dollar(sql), list(rows))
        except asyncpg.IntegrityConstraintViolationError as exc:
            raise _integrity(exc) from exc

    async def fetchone(self, sql: str, params: Params = ()) -> Row | None:
        """The first row, or None."""
        try:
            self._trips.count += 1
            return await self._c.fetchrow(dollar(sql), *params)
        except asyncpg.IntegrityConstraintViolationError as exc:
            raise _integrity(exc) from exc

    async def fetchall(self, sql: str, params: Params = ()) -> list[Row]:
        """Every row."""
        self._trips.count += 1
        return list(await self._c.fetch(dollar(sql), *params))

    async def insert(self, sql: str, params: Params = ()) -> int | None:
        """The new row's id (``RETURNING id``), or None if nothing was inserted."""
        try:
            self._trips.count += 1
            value = await self._c.fetchval(dollar(sql) + " RETURNING id", *params)
        except asyncpg.IntegrityConstraintViolationError as exc:
            raise _integrity(exc) from exc
        return None if value is None else int(value)

    async def execute_together(self, statements: Sequence[tuple[str, Params]]) -> list[int]:
        """The statements as one (a WITH query each): one round trip."""
        sql, args = _together(list(statements))
        row = await self.fetchone(sql, args)
        assert row is not None
        return [int(n) for n in row]

    async def post_ledger(self, batch: LedgerBatch) -> tuple[list[int], bool] | None:
        """The move's ledger in one statement (:data:`LEDGER_SQL`)."""
        entries, postings = batch.entries, batch.postings
        args = (
            batch.guild_id,
            batch.table_id,
            batch.round_no,
            batch.actor,
            [e[0] for e in entries],
            [e[1] for e in entries],
            [e[2] for e in entries],
            *([p[i] for p in postings] for i in range(3)),
            *([b[i] for b in batch.balances] for i in range(3)),
            *([s[i] for s in batch.seats] for i in range(4)),
        )
        row = await self.fetchone(LEDGER_SQL, args)
        assert row is not None
        keys, ids, changed, _ = row
        if not keys:
            return None  # every key used before: a replay, for the caller's careful path
        if len(keys) < len(entries):
            raise IntegrityError("idempotency keys partly used already (idem_key)")
        by_key = dict(zip(keys, ids, strict=True))
        return [int(by_key[e[1]]) for e in entries], changed == len(batch.balances)


# A move's ledger in one statement (Conn.post_ledger): the entries, then, only if every key
# was new, their postings, the balances (each debit conditional on the least balance the
# account must hold) and the seat counters. Arrays keep one prepared statement whatever
# the number of effects. The sub-statements run on one snapshot; the postings' foreign key
# is checked at the statement's end, when the entries are there.
LEDGER_SQL = """
WITH e AS (
  INSERT INTO bank_entries (guild_id, kind, idem_key, table_id, round_no, actor, reason)
  SELECT $1, t.kind, t.idem_key, $2, $3, $4, t.reason
  FROM unnest($5::text[], $6::text[], $7::text[]) WITH ORDINALITY AS t(kind, idem_key, reason, n)
  ORDER BY t.n
  ON CONFLICT (idem_key) DO NOTHING
  RETURNING id, idem_key),
whole AS (SELECT count(*) = cardinality($5::text[]) AS yes FROM e),
p AS (
  INSERT INTO bank_postings (entry_id, account_id, amount)
  SELECT e.id, q.account, q.amount
  FROM unnest($8::text[], $9::bigint[], $10::bigint[]) WITH ORDINALITY AS q(key, account, amount, n)
  JOIN e ON e.idem_key = q.key
  WHERE (SELECT yes FROM whole)
  ORDER BY q.n),
b AS (
  UPDATE bank_accounts a SET balance = a.balance + d.change
  FROM unnest($11::bigint[], $12::bigint[], $13::bigint[]) AS d(id, change, least)
  WHERE a.id = d.id AND a.balance >= d.least AND (SELECT yes FROM whole)
  RETURNING a.id),
s AS (
  INSERT INTO bank_seats (guild_id, table_id, user_id, own_funds, wagered, forfeited)
  SELECT $1, $2, u.id, u.own, u.wagered, u.forfeited
  FROM unnest($14::bigint[], $15::bigint[], $16::bigint[], $17::bigint[])
    AS u(id, own, wagered, forfeited)
  WHERE (SELECT yes FROM whole)
  ON CONFLICT (guild_id, table_id, user_id) DO UPDATE SET
    own_funds = bank_seats.own_funds + excluded.own_funds,
    wagered = bank_seats.wagered + excluded.wagered,
    forfeited = bank_seats.forfeited + excluded.forfeited
  RETURNING 1)
SELECT (SELECT array_agg(idem_key) FROM e), (SELECT array_agg(id) FROM e),
  (SELECT count(*) FROM b), (SELECT count(*) FROM s)
"""


def _together(statements: list[tuple[str, Params]]) -> tuple[str, list[object]]:
    """Statements as one: each a WITH query, counted."""
    parts: list[str] = []
    args: list[object] = []
    for i, (sql, params) in enumerate(statements):
        tail = "" if sql.startswith("SELECT") else " RETURNING 1"
        parts.append(f"s{i} AS ({sql}{tail})")
        args.extend(params)
    counts = ", ".join(f"(SELECT count(*) FROM s{i})" for i in range(len(statements)))
    return f"WITH {', '.join(parts)} SELECT {counts}", args


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
        self.trips = Trips()  # round trips of every transaction so far (benches, tests)
        self._pool = pool
        self._long = asyncio.Lock()  # one long read at a time

    @classmethod
    async def open(
        cls, url: str, *, min_size: int = POOL_MIN, max_size: int = POOL_MAX
    ) -> PostgresDatabase:
        """Connect a pool (the URL's unknown query parameters, e.g. ``search_path``, are
        server settings)."""
        pool = await asyncpg.create_pool(
            url,
            min_size=min_size,
            max_size=max_size,
            init=_setup,
            command_timeout=60,
            server_settings={"lock_timeout": str(LOCK_TIMEOUT_MS)},
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

    async def read_long(self, fn: DbFn[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """``read`` for an audit or an export: one at a time (see the module docstring)."""
        async with self._long:
            return await self._run(True, fn, *args, **kwargs)

    async def _run(self, read_only: bool, fn: DbFn[P, T], *args: Any, **kwargs: Any) -> T:
        async with self._pool.acquire() as c:
            conn = PostgresConn(c, self.memo, self.trips)
            self.trips.count += 2  # BEGIN and COMMIT (or ROLLBACK)
            isolation = "repeatable_read" if read_only else "read_committed"
            try:
                async with c.transaction(isolation=isolation, readonly=read_only):
                    out = await fn(conn, *args, **kwargs)
            except asyncpg.LockNotAvailableError as exc:  # lock_timeout: rolled back
                raise Busy("db.busy") from exc
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
