"""Issue 26 point 9: a garbage or damaged SQLite file, or a database migrated by a newer
Croupier, is answered with one sentence and exit 2 by ``migrate``, ``backup``, ``audit``
and the bot itself (before it connects to Discord); never a traceback, never "up to date".
PostgreSQL: a schema newer than the code is refused the same way."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from bot.db import SchemaTooNew, latest_level, migrate, open_database
from tests.conftest import NEEDS_PG
from tests.test_cli import run

COMMANDS = (("migrate",), ("backup", "copy.sqlite3"), ("audit",), ("run",))


def garbage(path: Path) -> None:
    path.write_bytes(b"this is not a database at all. " * 400)


def newer(path: Path) -> None:
    assert run("migrate", "--db", str(path), cwd=path.parent).returncode == 0
    with sqlite3.connect(path) as c:
        c.execute(f"PRAGMA user_version = {latest_level() + 1}")


def damaged(path: Path) -> None:
    """A real database whose tables' pages were overwritten (a disk gone bad)."""
    assert run("migrate", "--db", str(path), cwd=path.parent).returncode == 0
    with sqlite3.connect(path) as c:
        c.execute("PRAGMA journal_mode=DELETE")
        c.execute("CREATE TABLE filler (x TEXT)")
        c.executemany("INSERT INTO filler VALUES (?)", [("x" * 500,)] * 200)
    data = bytearray(path.read_bytes())
    page = 4096
    for n in range(2, len(data) // page - 1, 3):  # the header and page 1 stay readable
        data[n * page : n * page + 64] = b"\xff" * 64  # the b-tree page headers
    path.write_bytes(bytes(data))


@pytest.mark.parametrize(
    ("make", "words"),
    [
        (garbage, "is not a Croupier database"),
        (newer, "was migrated by a newer version of Croupier"),
        (damaged, "damaged"),
    ],
)
@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c[0])
def test_one_sentence_and_exit_2(tmp_path: Path, make, words, command):
    path = tmp_path / "x.sqlite3"
    make(path)
    if make is newer and command[0] == "backup":  # a copy of a newer database is harmless
        res = run(*command, cwd=tmp_path, env_extra={"DATABASE_PATH": str(path)})
        assert res.returncode == 0 and (tmp_path / "copy.sqlite3").is_file()
        return
    before = path.read_bytes()
    env = {"DATABASE_PATH": str(path), "DISCORD_TOKEN": "not-a-token"}
    res = run(*command, cwd=tmp_path, env_extra=env)
    assert res.returncode == 2, (res.stdout, res.stderr)
    assert words in res.stderr, res.stderr
    assert "Traceback" not in res.stderr + res.stdout
    assert len(res.stderr.strip().splitlines()) == 1, res.stderr
    assert "up to date" not in res.stdout
    assert path.read_bytes() == before  # nothing written to it
    assert not (tmp_path / "copy.sqlite3").exists()


@NEEDS_PG
@pytest.mark.parametrize("backend", ["postgresql"])
def test_a_newer_postgresql_schema_is_refused(tmp_path: Path, database_url: str):
    async def bump() -> None:
        db = await open_database(database_url)
        try:
            await migrate(db)
            await db.write(
                lambda c: c.execute(f"UPDATE schema_level SET level = {latest_level() + 1}")
            )
            with pytest.raises(SchemaTooNew):
                await migrate(db)
        finally:
            await db.close()

    asyncio.run(bump())
    res = run("migrate", "--db", database_url, cwd=tmp_path)
    assert res.returncode == 2 and "newer version of Croupier" in res.stderr
    assert len(res.stderr.strip().splitlines()) == 1 and "Traceback" not in res.stderr
