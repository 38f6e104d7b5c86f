"""One bot process per database file, enforced with an OS lock on ``<file>.lock``.

The bot keeps each open table in memory and trusts it between moves, so a second process
on the same file would play from stale copies; and ``split`` must not copy a file that a
running bot still writes to. The lock goes away with the process, however it ends.

It is a lock between processes: inside one process, a new bot on the same file (a restart
under test) shares it.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path

from .base import Unusable

_held: dict[str, tuple[int, int]] = {}  # lock file -> (descriptor, holders in this process)


class FileInUse(Exception):
    """Another process holds the file's lock."""


def lock_path(database: str) -> str:
    """The lock file next to ``database``."""
    return f"{database}.lock"


class ProcessLock:
    """An exclusive lock on a database file for as long as this process holds it."""

    def __init__(self, database: str) -> None:
        Path(database).parent.mkdir(parents=True, exist_ok=True)
        self.path = os.path.realpath(lock_path(database))
        self._holding = False
        if self.path in _held:
            fd, holders = _held[self.path]
        else:
            fd, holders = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644), 0
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
                raise FileInUse(database) from None
        _held[self.path] = (fd, holders + 1)
        self._holding = True

    def release(self) -> None:
        """Let go; the last holder in this process unlocks the file for other processes."""
        if not self._holding:
            return
        self._holding = False
        fd, holders = _held.pop(self.path)
        if holders > 1:
            _held[self.path] = (fd, holders - 1)
        else:
            fcntl.flock(fd, fcntl.LOCK_UN)
            os.close(fd)


def claim(database: str) -> ProcessLock:
    """The bot's lock on its file, or an Unusable that says another process has it."""
    try:
        return ProcessLock(database)
    except FileInUse:
        raise Unusable(
            f"{database} is in use by another Croupier process (it holds "
            f"{lock_path(database)}): stop it first; two processes on one file would play "
            "from stale tables."
        ) from None
