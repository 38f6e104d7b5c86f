"""Table-message edits made by REST: one at a time per table, the ones asked for
meanwhile merged into one."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

log = logging.getLogger(__name__)


@dataclass(slots=True)
class _Slot:
    """A table whose message has a REST edit in flight."""

    table: Any = None  # the table to show once it lands (None: nothing asked meanwhile)
    note: str | None = None
    done: asyncio.Event = field(default_factory=asyncio.Event)  # set when none is left


class TableEdits:
    """REST edits of table messages (slash-command moves, timers, repairs, start-up).

    An edit goes out at once when none of the same table is in flight. Edits asked for
    while one is in flight wait for it and then go out as **one** edit of the table's
    state at that moment. Batching thus follows Discord's own pace: nothing is delayed on
    a quiet table, a burst costs 2 calls instead of N while Discord answers in its usual
    few hundred milliseconds, and one edit per round trip while discord.py holds edits
    back for a rate limit. An older state also never lands after a newer one, which two
    concurrent edits of one message could do.

    Moves made with the table message's buttons are answered by the interaction response,
    which edits the message itself, not through here; ``shown_by_interaction`` has the
    latest state shown again after a REST edit that was in flight beside it.
    """

    def __init__(self, send: Callable[[Any, str | None], Awaitable[bool]]) -> None:
        self._send = send  # edits the message; True when it shows the state (never raises)
        self._slots: dict[int, _Slot] = {}
        self._tasks: set[asyncio.Task[None]] = set()

    def in_flight(self, table_id: int) -> bool:
        """A REST edit of this table's message is in flight."""
        return table_id in self._slots

    async def request(self, table: Any, note: str | None = None) -> bool | None:
        """Edit the table message: True when it shows the state, False when the edit
        failed; None when an edit is in flight and this one will follow it, merged."""
        slot = self._slots.get(table.id)
        if slot is not None:
            self._merge(slot, table, note)
            return None
        slot = self._slots[table.id] = _Slot()
        try:
            shown = await self._send(table, note)
        finally:
            if slot.table is None:
                del self._slots[table.id]
                slot.done.set()
            else:  # asked for meanwhile: sent by a task, this caller has its answer
                task = asyncio.create_task(self._follow_up(table.id, slot))
                self._tasks.add(task)
                task.add_done_callback(self._tasks.discard)
        return shown

    def pending(self, table_id: int) -> asyncio.Event | None:
        """Set once the REST edit of this table in flight now (and the ones merged after
        it) has landed; None when none is in flight."""
        slot = self._slots.get(table_id)
        return None if slot is None else slot.done

    def shown_by_interaction(self, table: Any) -> None:
        """An interaction response has just shown the table's latest state: a REST edit in
        flight may land after it, so the latest state is shown once more after that edit."""
        slot = self._slots.get(table.id)
        if slot is not None:
            self._merge(slot, table, None)

    @staticmethod
    def _merge(slot: _Slot, table: Any, note: str | None) -> None:
        slot.table = table  # the live table: shown as it is when the edit goes out
        slot.note = note if note is not None else slot.note

    async def _follow_up(self, table_id: int, slot: _Slot) -> None:
        try:
            while slot.table is not None:
                table, note = slot.table, slot.note
                slot.table = slot.note = None
                await self._send(table, note)
        except Exception:  # _send handles Discord's errors; anything else is a bug
            log.exception("a merged edit of table %s failed", table_id)
        finally:
            del self._slots[table_id]
            slot.done.set()

    def close(self) -> None:
        """Drop the merged edits still going out (the cog is unloading: at the next start
        every open table is rendered again)."""
        for task in self._tasks:
            task.cancel()
