"""The open tables' timers in memory: one heap of idle and deadline entries, paused tables,
and the deadline a move leaves. At start-up they are derived from the rows (the idle
timeout counts from the last move, the deadline is the one the snapshot holds)."""

from __future__ import annotations

import heapq
from collections.abc import Callable

from bot.engine.base import DeadlineKind

from .models import Table


def update_deadline(table: Table, now: float) -> None:
    """The deadline of the current phase (kept while the same turn goes on)."""
    settings = table.settings
    deadline = table.game.deadline
    if deadline is None:
        table.deadline_key = None
        table.deadline_due = None
        return
    key = deadline.key
    if key != table.deadline_key or table.deadline_due is None:
        bet = deadline.kind is DeadlineKind.BET
        seconds = settings.bet_timer if bet else settings.turn_timer
        table.deadline_key = key
        table.deadline_due = now + seconds


def _current(table: Table, due: float, kind: str) -> bool:
    """Whether a heap entry is the table's live idle or deadline entry."""
    if kind == "idle":
        return table.armed_idle == due
    return table.armed_deadline == due and table.deadline_due == due


class Timers:
    """The timer heap of the tables in ``tables`` (the service's dict, shared)."""

    def __init__(self, tables: dict[int, Table]) -> None:
        self._tables = tables
        # (due, table id, "idle" | "deadline"): at most one live entry of each kind per table
        self._heap: list[tuple[float, int, str]] = []
        self.paused: set[int] = set()  # tables whose timers are held (a locked thread)

    def __len__(self) -> int:
        """Entries in the heap, live or superseded."""
        return len(self._heap)

    def clear(self) -> None:
        """Drop every entry (a load arms each table again as it is built)."""
        self._heap = []

    def arm(self, table: Table, idle_due: float) -> None:
        """Keep one live idle and one live deadline entry per table in the heap. A move only
        pushes the idle timeout later: its entry stays where it is and moves when it comes
        due. A new turn's deadline is a new entry; the old one is dropped when it reaches
        the top, so superseded entries last at most one turn timer. Pushing both entries on
        every move instead kept each move's idle entry for the whole idle timeout: ~700,000
        entries (~70 MiB) at 1,000 busy tables with a 30-minute idle timeout."""
        table.idle_due = idle_due
        if table.armed_idle is None:
            table.armed_idle = idle_due
            heapq.heappush(self._heap, (idle_due, table.id, "idle"))
        due = table.deadline_due
        if due is not None and due != table.armed_deadline:
            table.armed_deadline = due
            heapq.heappush(self._heap, (due, table.id, "deadline"))

    def next_due(self) -> float | None:
        """When the next timer is due, if any."""
        timers = self._heap
        while timers:
            due, table_id, kind = timers[0]
            table = self._tables.get(table_id)
            if table is None or not _current(table, due, kind):
                heapq.heappop(timers)  # superseded
            elif kind == "idle" and table.idle_due > due:  # the table moved since: later
                heapq.heapreplace(timers, (table.idle_due, table_id, kind))
                table.armed_idle = table.idle_due
            else:
                return due
        return None

    def resume(self, table_id: int, clock: Callable[[], float]) -> None:
        """Start a paused table's timers again, each from ``clock()`` in full."""
        self.paused.discard(table_id)
        table = self._tables.get(table_id)
        if table is None or not table.is_open:
            return
        now = clock()
        if table.deadline_due is not None:
            table.deadline_due = None  # the same turn, its whole timer again
            update_deadline(table, now)
        self.arm(table, now + table.settings.idle_timer)

    def pop_due(self, now: float) -> list[tuple[int, str, int]]:
        """The timers due at ``now``, each with its table's current version (a paused
        table's are dropped: ``resume`` arms them again)."""
        out: list[tuple[int, str, int]] = []
        timers = self._heap
        while timers and timers[0][0] <= now:
            due, table_id, kind = heapq.heappop(timers)
            table = self._tables.get(table_id)
            if table is None or not _current(table, due, kind):
                continue
            if table_id in self.paused:
                if kind == "idle":
                    table.armed_idle = None
                else:
                    table.armed_deadline = None
                continue
            if kind == "idle":
                if table.idle_due > now:  # the table moved since: look again later
                    heapq.heappush(timers, (table.idle_due, table_id, kind))
                    table.armed_idle = table.idle_due
                    continue
                table.armed_idle = None
            else:
                table.armed_deadline = None
            out.append((table_id, kind, table.version))
        return out
