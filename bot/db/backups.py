"""Scheduled online backups of an SQLite database (``BACKUP_EVERY``, ``BACKUP_KEEP``).

Off by default. The scheduler (bot/discord/scheduler.py) calls :meth:`Backups.tick` on its loop;
the copy itself is SQLite's online backup API on the database's long-read thread, so the
event loop goes on serving moves while it runs, and writers are never blocked (WAL). A
copy is written under a temporary name and renamed when complete: a crash mid-copy leaves
no half backup among the kept ones. The newest ``keep`` copies are kept, the older ones
deleted. PostgreSQL is backed up by PostgreSQL's own tools (the setting is refused there).
"""

from __future__ import annotations

import logging
import os
import time
from pathlib import Path

from .base import Database

log = logging.getLogger(__name__)


def default_folder(database: str) -> Path:
    """``<the database's folder>/backups``."""
    return Path(database).resolve().parent / "backups"


class Backups:
    """Every ``every`` seconds, a copy of ``db`` into ``folder``; the last ``keep`` kept."""

    def __init__(
        self, db: Database, *, every: float, keep: int, folder: Path, start: float
    ) -> None:
        self.db = db
        self.every = every
        self.keep = keep
        self.folder = folder
        self.stem = Path(db.path).stem
        self.due = start + every  # the first one an interval after the start

    def kept(self) -> list[Path]:
        """The complete backups in the folder, oldest first (names sort by time)."""
        if not self.folder.is_dir():
            return []
        return sorted(self.folder.glob(f"{self.stem}.backup-*.sqlite3"))

    async def tick(self, now: float) -> Path | None:
        """Make a backup if one is due; the new file, or None."""
        if now < self.due:
            return None
        self.due = now + self.every
        stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime(now))
        target = self.folder / f"{self.stem}.backup-{stamp}.sqlite3"
        partial = target.with_name(target.name + ".partial")
        await self.db.backup(partial)
        os.replace(partial, target)
        for old in self.kept()[: -self.keep]:
            old.unlink(missing_ok=True)
        log.info("backed the database up to %s", target)
        return target
