"""One process per database file: a second bot process, or an import of a file a bot still
runs on, is refused while the first process lives, and allowed once it is gone."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bot.cli.import_sqlite import main as import_main
from bot.db import Unusable
from bot.db.lock import FileInUse, ProcessLock, claim
from tests.test_cli import ROOT, run


def in_use(database: str) -> bool:
    """Whether another process holds the file's lock (taking and letting it go if not)."""
    try:
        ProcessLock(database).release()
    except FileInUse:
        return True
    return False


PROBE = """
import sys
from bot.db.lock import FileInUse, ProcessLock
try:
    ProcessLock(sys.argv[1]).release()
    print(False)
except FileInUse:
    print(True)
"""

HOLDER = """
import sys
from bot.db.lock import ProcessLock
lock = ProcessLock(sys.argv[1])
print("held", flush=True)
sys.stdin.read()  # until the test closes our stdin
"""


class Holder:
    """Another process that holds a file's lock until stopped."""

    def __init__(self, database: str) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-c", HOLDER, database],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            cwd=ROOT,
            text=True,
        )
        assert self.proc.stdout is not None
        assert self.proc.stdout.readline().strip() == "held"

    def stop(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait(10)


def test_a_file_held_by_another_process_is_refused_until_it_ends(tmp_path: Path):
    database = str(tmp_path / "data" / "croupier.sqlite3")
    holder = Holder(database)
    try:
        assert in_use(database)
        with pytest.raises(FileInUse):
            ProcessLock(database)
        with pytest.raises(Unusable, match="in use by another Croupier process"):
            claim(database)
    finally:
        holder.stop()
    assert not in_use(database)
    lock = claim(database)
    lock.release()


def test_bots_of_one_process_share_the_lock_until_the_last_lets_go(tmp_path: Path):
    database = str(tmp_path / "croupier.sqlite3")
    first, second = ProcessLock(database), ProcessLock(database)  # a restart under test
    first.release()
    first.release()  # twice is harmless
    probe = subprocess.run(
        [sys.executable, "-c", PROBE, database],
        cwd=ROOT, capture_output=True, text=True, timeout=30,
    )  # fmt: skip
    assert probe.stdout.strip() == "True"  # still held by ``second``
    second.release()
    holder = Holder(database)  # now another process can have it
    holder.stop()


def test_the_bot_and_import_refuse_a_file_in_use(tmp_path: Path, capsys):
    assert run("migrate", cwd=tmp_path).returncode == 0
    database = str(tmp_path / "data" / "croupier.sqlite3")
    holder = Holder(database)
    try:
        # the bot refuses before it connects to Discord
        res = run("run", cwd=tmp_path, env_extra={"DISCORD_TOKEN": "not-a-token"})
        assert res.returncode == 2, res.stderr
        assert "in use by another Croupier process" in res.stderr
        assert "Traceback" not in res.stderr
        to = "postgresql://nobody@127.0.0.1:1/none"  # refused before any connection
        assert import_main([database, "--to", to]) == 2
        assert "in use by a running bot: stop it before importing" in capsys.readouterr().err
        assert sorted(p.name for p in Path(database).parent.iterdir()) == [
            "croupier.sqlite3",
            "croupier.sqlite3.lock",
        ]
    finally:
        holder.stop()
