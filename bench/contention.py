"""What a PostgreSQL run's connections waited on and wrote (issue 35 point 3): counts, not
timings, so that one server and 100 servers compare on a machine others share.

- Lock waits: a sampler polls ``pg_stat_activity`` (joined to the ungranted ``pg_locks``)
  every :data:`SAMPLE_S` for the run's connections (their ``application_name``); a wait is
  one (backend, transaction, wait event, relation) seen at least once, so waits shorter
  than the sampling interval can be missed, and the count errs low.
- MultiXacts: the server's next MultiXact id (``mxid_age``) before and after the run. A
  MultiXact is made when a second transaction share-locks a row another one holds, e.g.
  two foreign-key checks on one parent row; the counter is the whole server's, so other
  users' work adds to it (rarely: it takes concurrent share locks on one row).
- Rows: ``pg_stat_user_tables`` of the run's schema (inserted, updated, of which HOT,
  read by index): the whole run's, the tables' openings included, read once the run's
  connections have closed (a backend sends its counts when it ends).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

SAMPLE_S = 0.005  # seconds between two looks at the run's connections
_WAITS = (
    "SELECT a.pid, a.xact_start, a.wait_event_type, a.wait_event,"
    " l.locktype, l.relation::regclass::text, left(a.query, 40)"
    " FROM pg_stat_activity a LEFT JOIN pg_locks l ON l.pid = a.pid AND NOT l.granted"
    " WHERE a.application_name = $1 AND a.state = 'active'"
    " AND a.wait_event_type IN ('Lock', 'LWLock')"
)
_NEXT_MULTIXACT = "SELECT mxid_age('1'::xid)"
_TABLES = (
    "SELECT relname, n_tup_ins, n_tup_upd, n_tup_hot_upd, coalesce(idx_tup_fetch, 0)"
    " FROM pg_stat_user_tables WHERE schemaname = current_schema()"
)
_LEFT = "SELECT count(*) FROM pg_stat_activity WHERE application_name = $1"


@dataclass
class Counts:
    """One window's contention: distinct waits by kind, MultiXacts made; the run's rows by
    table (inserted, updated, of which HOT, fetched by index)."""

    waits: Counter[str] = field(default_factory=Counter)
    multixacts: int = 0
    tables: dict[str, tuple[int, ...]] = field(default_factory=dict)

    def lock_waits(self) -> int:
        """Waits on a heavyweight lock (a row, a transaction, a relation)."""
        return sum(n for kind, n in self.waits.items() if kind.startswith("Lock"))

    def summary(self, moves: int) -> str:
        """The waits seen, by kind, per 1,000 moves."""
        per = 1000 / max(1, moves)
        return ", ".join(f"{kind} {n * per:.1f}" for kind, n in self.waits.most_common(4))

    def rows(self, moves: int) -> str:
        """Rows inserted / updated (HOT) by table per 1,000 moves, one line."""
        per = 1000 / max(1, moves)
        return "; ".join(
            f"{name} +{ins * per:.0f} ~{upd * per:.0f} ({hot * per:.0f} HOT)"
            for name, (ins, upd, hot, _fetched) in sorted(self.tables.items())
            if ins or upd
        )


def _kind(row: Any) -> str:
    """A wait's kind: the wait event and, for a lock, the relation or the statement."""
    kind = f"{row[2]}:{row[3]}"
    if row[2] == "Lock":
        kind += f" on {row[5] or (row[6] or '?').split('(')[0].strip()}"
    return kind


class Probe:
    """Watches the connections named ``app`` while a run goes on (see the module
    docstring): ``async with Probe(url, app) as probe: ...``, then ``probe.window(a, b)``."""

    def __init__(self, url: str, app: str) -> None:
        self.url, self.app = url, app
        self.tables: dict[str, tuple[int, ...]] = {}
        self._seen: set[tuple[Any, ...]] = set()
        self._waits: list[tuple[float, str]] = []  # (first seen, kind), wall clock
        self._multixacts: list[tuple[float, int]] = []  # (wall clock, next MultiXact id)
        self._stop = asyncio.Event()

    async def __aenter__(self) -> Probe:
        import asyncpg

        self._c = await asyncpg.connect(self.url, server_settings={"application_name": "probe"})
        self._task = asyncio.create_task(self._sample())
        return self

    async def __aexit__(self, *exc: object) -> None:
        self._stop.set()
        await self._task
        try:
            deadline = time.monotonic() + 10
            while await self._c.fetchval(_LEFT, self.app) and time.monotonic() < deadline:
                await asyncio.sleep(0.05)  # a backend sends its row counts as it ends
            for name, *numbers in await self._c.fetch(_TABLES):
                self.tables[str(name)] = tuple(int(n) for n in numbers)
        finally:
            await self._c.close()

    def window(self, start: float, end: float) -> Counts:
        """The counts between two wall-clock times (a timed window's)."""
        waits = Counter(kind for t, kind in self._waits if start <= t <= end)

        def at(moment: float) -> int:
            before = [mx for t, mx in self._multixacts if t <= moment]
            return before[-1] if before else self._multixacts[0][1]

        made = at(end) - at(start) if self._multixacts else 0
        return Counts(waits, made, dict(self.tables))

    async def _sample(self) -> None:
        while True:
            now = time.time()
            self._multixacts.append((now, int(await self._c.fetchval(_NEXT_MULTIXACT))))
            for row in await self._c.fetch(_WAITS, self.app):
                key = (row[0], row[1], row[2], row[3], row[5])
                if key not in self._seen:
                    self._seen.add(key)
                    self._waits.append((now, _kind(row)))
            if self._stop.is_set():
                return
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._stop.wait(), SAMPLE_S)
