"""Deadlines: the one timer loop that fires the tables' due timers and the repair pass.

A ``discord.ext.tasks`` loop that sleeps until the next due timer (1-300 s) rather than
ticking every second: a 1 s tick would cost 86,400 wake-ups per forum day (and as many
steps of SimCord's virtual clock, which drives tasks loops in tests). Every publish wakes
it (``Publisher.wake``), so a table whose render failed is repaired within 15 s.
"""

from __future__ import annotations

import logging

import discord
from discord.ext import tasks

from bot.db import Busy
from bot.db.backups import Backups
from bot.discord.publisher import Publisher
from bot.tables import TableService

log = logging.getLogger(__name__)

TIMER_TICK = 1.0  # the shortest sleep of the timer loop
MAX_SLEEP = 300.0  # the longest: the loop sleeps until the next timer, re-armed on changes
REPAIR_EVERY = 15.0  # seconds between two retries of table messages whose edit failed
SWEEP_EVERY = 300.0  # seconds between two checks that idle tables' messages still exist
# seconds before the next try of a timer whose firing failed (a database error), by
# failures so far: it is tried again until it fires
FIRE_RETRY = (1.0, 2.0, 5.0, 15.0, 30.0, 60.0)


def now() -> float:
    """Seconds since the epoch on Discord's clock (SimCord's virtual clock in tests)."""
    return discord.utils.utcnow().timestamp()


class Scheduler:
    """Fires the tables' deadlines and idle timeouts, and runs the repair pass."""

    def __init__(
        self, tables: TableService, publisher: Publisher, backups: Backups | None = None
    ) -> None:
        self.tables = tables
        self.publisher = publisher
        self.backups = backups  # scheduled backups (BACKUP_EVERY), None when off
        self._last_repair = 0.0
        self._last_sweep = now()
        # timers whose firing failed: (table id, kind, version) -> (failures, next try)
        self.retries: dict[tuple[int, str, int], tuple[int, float]] = {}
        self.loop = tasks.loop(seconds=TIMER_TICK)(self._run)
        publisher.wake = self.rearm

    def start(self) -> None:
        """Start the loop (the open tables are loaded)."""
        self.loop.start()

    def stop(self) -> None:
        """Stop the loop."""
        self.loop.cancel()

    def rearm(self, *, after_tick: bool = False) -> None:
        """Make the loop wake up by the next due timer or repair pass (between TIMER_TICK
        and MAX_SLEEP from now). Called after each tick and each publish (every commit
        goes through one). A wake-up already planned sooner is kept: waking early is
        harmless (nothing is due, it re-arms), and most moves only push timers later, so
        they leave the loop's sleep alone."""
        current = now()
        due = self.tables.next_due()
        if self.retries:
            retry = min(at for _failures, at in self.retries.values())
            due = retry if due is None else min(due, retry)
        wait = MAX_SLEEP if due is None else due - current
        if self.publisher.dirty:  # a table waits for the repair pass
            wait = min(wait, self._last_repair + REPAIR_EVERY - current)
        if self.backups is not None:
            wait = min(wait, self.backups.due - current)
        wait = min(wait, self._last_sweep + SWEEP_EVERY - current)
        target = current + max(TIMER_TICK, min(MAX_SLEEP, wait))
        loop = self.loop
        planned = loop.next_iteration
        if planned is None:
            return  # not running (yet, or any more)
        if not after_tick and planned.timestamp() <= target:
            return
        # discord.py counts a relative loop's interval from the start of its last
        # iteration, not from now: that start is the planned wake-up minus the interval
        interval = loop.seconds or 0.0  # a loop built with ``seconds`` always has it
        seconds = max(0.0, target - (planned.timestamp() - interval))
        if abs(seconds - interval) > 1e-3:
            loop.change_interval(seconds=seconds)

    async def _run(self) -> None:
        """Fire what is due, then sleep until the next timer (see :meth:`rearm`)."""
        try:
            await self.tick()
        finally:
            self.rearm(after_tick=True)

    async def tick(self) -> None:
        """The repair pass and the sweep of idle table messages when it is time, the
        scheduled backup, then every timer due now, each published."""
        if self.publisher.dirty and now() - self._last_repair >= REPAIR_EVERY:
            self._last_repair = now()
            try:
                await self.publisher.repair()
            except Exception:
                log.exception("the repair pass failed")
        if now() - self._last_sweep >= SWEEP_EVERY:
            self._last_sweep = now()
            try:
                await self.publisher.sweep(SWEEP_EVERY)
            except Exception:
                log.exception("the check of the table messages failed")
        if self.backups is not None:
            try:  # on the database's long-read thread: the loop keeps serving moves
                await self.backups.tick(now())
            except Exception:
                log.exception("the scheduled backup failed (tried again next interval)")
        current = now()
        due_now = [key for key, (_f, at) in self.retries.items() if at <= current]
        due = self.tables.next_due()
        if due is not None and due <= current:
            due_now += self.tables.pop_due(current)
        for table_id, kind, version in due_now:
            await self.fire(table_id, kind, version)

    async def fire(self, table_id: int, kind: str, version: int) -> None:
        """Fire one timer and publish its outcome; a firing that failed (a database
        error: nothing was committed) is tried again with backoff until it fires. A table
        that moved since has its own timers: the retry is dropped then (``fire`` checks
        the version)."""
        key = (table_id, kind, version)
        try:
            outcome = await self.tables.fire(table_id, kind, version)
        except Exception as exc:
            failures = self.retries[key][0] + 1 if key in self.retries else 0
            delay = FIRE_RETRY[min(failures, len(FIRE_RETRY) - 1)]
            self.retries[key] = (failures, now() + delay)
            busy = isinstance(exc, Busy)  # another process holds the database: no bug
            log.log(
                logging.WARNING if busy else logging.ERROR,
                "timer %s of table %s failed: tried again in %s s",
                kind,
                table_id,
                delay,
                exc_info=not busy,
            )
            return
        self.retries.pop(key, None)
        if outcome is not None:
            try:
                await self.publisher.publish(outcome)
            except Exception:  # committed: the repair pass shows it
                log.exception("publishing timer %s of table %s failed", kind, table_id)
