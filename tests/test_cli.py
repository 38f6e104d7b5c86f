"""The command line: a clear exit 2 without a token, migrate and backup, a pure engine."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run(*args: str, cwd: Path, env_extra: dict[str, str] | None = None):
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    env["PYTHONPATH"] = str(ROOT)
    env.update(env_extra or {})
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_no_token_exits_2_with_one_clear_sentence(tmp_path: Path):
    result = run(cwd=tmp_path)
    assert result.returncode == 2
    assert "DISCORD_TOKEN" in result.stderr and ".env" in result.stderr
    assert "Traceback" not in result.stderr + result.stdout
    assert len(result.stderr.strip().splitlines()) == 1


def test_migrate_then_backup(tmp_path: Path):
    db = tmp_path / "x.sqlite3"
    first = run("migrate", "--db", str(db), cwd=tmp_path)
    assert first.returncode == 0 and "applied" in first.stdout
    again = run("migrate", cwd=tmp_path, env_extra={"DATABASE_PATH": str(db)})
    assert again.returncode == 0 and "up to date" in again.stdout
    copy = tmp_path / "copy.sqlite3"
    backup = run("backup", str(copy), "--db", str(db), cwd=tmp_path)
    assert backup.returncode == 0
    with sqlite3.connect(copy) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] >= 1


def test_engine_imports_no_io_library():
    code = (
        "import sys, bot.engine, pkgutil, importlib\n"
        "for m in pkgutil.iter_modules(bot.engine.__path__):\n"
        "    importlib.import_module('bot.engine.' + m.name)\n"
        "bad = [n for n in ('discord', 'aiosqlite', 'asyncio', 'sqlite3') if n in sys.modules]\n"
        "assert not bad, bad\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
