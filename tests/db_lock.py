"""A second process holding an SQLite database's write lock, as an admin's ``sqlite3``
shell or a backup tool would (issue 37's tests)."""

from __future__ import annotations

import subprocess
import sys
import time

HOLDER = """
import sqlite3, sys, time
c = sqlite3.connect(sys.argv[1], isolation_level=None, timeout=10)
c.execute("BEGIN IMMEDIATE")
print("locked", flush=True)
hold = float(sys.argv[2])
if hold > 0:
    time.sleep(hold)
else:
    sys.stdin.readline()
c.execute("COMMIT")
print("released", flush=True)
"""


class LockHolder:
    """A second process holding the database's write lock for ``hold`` seconds (0: until
    :meth:`release`)."""

    def __init__(self, path: str, hold: float = 0.0) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-c", HOLDER, path, str(hold)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert self.proc.stdout is not None
        assert self.proc.stdout.readline().strip() == "locked"
        self.since = time.monotonic()

    def release(self) -> None:
        """Commit and let go of the lock (waits for the child to say so)."""
        assert self.proc.stdin is not None and self.proc.stdout is not None
        if self.proc.poll() is None:
            self.proc.stdin.write("\n")
            self.proc.stdin.flush()
        self.proc.wait(10)

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)
