"""``python -m bot split``: one database file into K shard files and a users file."""

from __future__ import annotations

import asyncio
import shutil
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from bot.bank import Bank
from bot.config import ConfigError
from bot.db import Conn, Database, SqliteDatabase, latest_level, migrate
from bot.db import split as split_mod
from bot.db.split import SplitFailed, main, split
from bot.db.sqlite import run_on
from bot.engine.shuffle import seeded_entropy
from bot.shards import (
    GLOBAL_TABLES,
    GUILD_OF,
    LAYOUT_KEY,
    SPLIT_KEY,
    ShardLayout,
    check_files,
    check_layout,
    shard_of,
    users_database_path,
)
from bot.tables import TableService
from tests.bank_audit import assert_audit_clean
from tests.sql import fetchall, fetchone

K = 3
GUILDS = [(n << 22) + 7 for n in range(1, 7)]  # shards 1, 2, 0, 1, 2, 0
ALICE, BOB, CAROL, ADMIN = 11, 12, 13, 99
PREFS = [(ALICE, "fr"), (BOB, "en"), (CAROL, None)]


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        self.now += 1
        return self.now


async def _populate(path: str) -> None:
    """Real bank and table activity in every guild, the guilds' ids interleaved."""
    db = await SqliteDatabase.open(path)
    try:
        await migrate(db)
        bank = Bank(db)
        tables = TableService(db, bank, clock=Clock(), entropy=seeded_entropy("split"))
        for n, guild in enumerate(GUILDS):
            limit = 50 if n == 1 else None  # a held claim in one guild
            await bank.ensure_guild(guild, starting_balance=100 + n, claim_approval_limit=limit)
        opened = {}
        for n, guild in enumerate(GUILDS):
            await bank.mint(guild, 100 * (n + 1), user_id=ALICE, actor=ADMIN, reason="prize")
            await bank.transfer(guild, ALICE, BOB, 10 + n)
            settings, options = tables.parse("classic", "", locale="en", name=f"t{n}")
            out = await tables.open_table(
                guild_id=guild,
                channel_id=5000 + n,
                parent_id=None,
                game_key="classic",
                host_id=CAROL,
                settings=settings,
                options=options,
            )
            opened[guild] = out.table.id
        for n, guild in enumerate(GUILDS):
            await tables.join(opened[guild], BOB, 60, interaction_id=9000 + n)
            if n % 2:  # closed: the stacks become claims, paid (or held) at once
                await tables.close_table(opened[guild], ADMIN, "done")
                await bank.claim(guild, CAROL)
                await bank.claim(guild, BOB)
            await bank.burn(guild, 1, user_id=ALICE, actor=ADMIN)

        async def _tx(conn: Conn) -> Any:
            for n, guild in enumerate(GUILDS[:4]):
                await conn.execute(
                    "INSERT INTO guild_settings (guild_id, locale) VALUES (?, ?)",
                    (guild, "fr" if n % 2 else "en"),
                )
            await conn.executemany("INSERT INTO user_prefs (user_id, locale) VALUES (?, ?)", PREFS)
            await conn.execute("INSERT INTO bot_meta (key, value) VALUES ('installed', 'yes')")

        await db.write(_tx)
        await assert_audit_clean(db)
    finally:
        await db.close()


@pytest.fixture(scope="session")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("split-template") / "croupier.sqlite3"
    asyncio.run(_populate(str(path)))
    return path


@pytest.fixture
def source(template: Path, tmp_path: Path) -> str:
    """A fresh copy of the populated one-file database."""
    path = tmp_path / "data" / "croupier.sqlite3"
    path.parent.mkdir()
    shutil.copy(template, path)
    return str(path)


def shard_paths(source: str, count: int = K) -> list[str]:
    return [ShardLayout(i, count).database_path(source) for i in range(count)]


@contextmanager
def connect(path: str) -> Iterator[sqlite3.Connection]:
    """A connection to an existing file, closed after (the last close removes a WAL)."""
    assert Path(path).is_file(), path
    conn = sqlite3.connect(path)
    conn.row_factory = sqlite3.Row
    try:
        yield conn
    finally:
        conn.close()


def rows(path: str, table: str) -> list[dict[str, object]]:
    with connect(path) as conn:
        width = len(conn.execute(f"SELECT * FROM {table} LIMIT 0").description)
        order = ", ".join(str(i) for i in range(1, width + 1))
        return [dict(r) for r in conn.execute(f"SELECT * FROM {table} ORDER BY {order}")]


def dump(path: str) -> dict[str, list[dict[str, object]]]:
    """Every row of every table, and the schema level."""
    with connect(path) as conn:
        names = [
            r[0]
            for r in conn.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite%'"
            )
        ]
        level = conn.execute("PRAGMA user_version").fetchone()[0]
    return {"level": [{"v": level}], **{name: rows(path, name) for name in names}}


def guild_of_rows(path: str) -> dict[str, list[tuple[int, dict[str, object]]]]:
    """(guild, row) of every guild table, the guild found in Python, not with GUILD_OF."""
    entry_guild = {r["id"]: r["guild_id"] for r in rows(path, "bank_entries")}
    table_guild = {r["id"]: r["guild_id"] for r in rows(path, "tables")}
    out: dict[str, list[tuple[int, dict[str, object]]]] = {}
    for table in GUILD_OF:
        found = []
        for row in rows(path, table):
            if table == "bank_postings":
                guild = entry_guild[row["entry_id"]]
            elif table == "table_actions":
                guild = table_guild[row["table_id"]]
            else:
                guild = row["guild_id"]
            found.append((int(guild), row))
        out[table] = found
    return out


def files_in(folder: Path) -> set[str]:
    """The folder's files, less the lock files a split leaves (bot/db/lock.py: removing
    one while another process opens it would let two processes lock two files)."""
    return {p.name for p in folder.iterdir() if not p.name.endswith(".lock")}


# ---------------------------------------------------------------------------- coverage


async def test_every_table_of_the_migrations_has_a_place(db: Database) -> None:
    names = {
        r[0]
        for r in await fetchall(
            db, "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite%'"
        )
    }
    assert names == set(GUILD_OF) | set(GLOBAL_TABLES)
    assert not set(GUILD_OF) & set(GLOBAL_TABLES)


def test_the_guilds_land_on_every_shard() -> None:
    assert sorted({shard_of(g, K) for g in GUILDS}) == list(range(K))


# ---------------------------------------------------------------------------- the split


def test_split_moves_every_guild_to_its_shard(
    source: str, capsys: pytest.CaptureFixture[str]
) -> None:
    before = dump(source)
    by_guild = guild_of_rows(source)
    assert all(by_guild[t] for t in GUILD_OF if t != "guild_settings")

    assert main(["--shards", str(K), "--db", source]) == 0

    out = capsys.readouterr().out
    assert f"{users_database_path(source)} - {len(PREFS)} user preference(s)" in out
    assert f"set SHARD_COUNT={K} and start the bot" in out
    for shard_id, path in enumerate(shard_paths(source)):
        mine = {g for g in GUILDS if shard_of(g, K) == shard_id}
        assert len(mine) == 2
        for table in GUILD_OF:  # exactly its guilds' rows, with the same ids
            expected = [row for guild, row in by_guild[table] if guild in mine]
            assert rows(path, table) == expected, (shard_id, table)
        meta = {r["key"]: r["value"] for r in rows(path, "bot_meta")}
        assert meta == {"installed": "yes", LAYOUT_KEY: f"{shard_id}/{K}"}
        with connect(path) as conn:
            assert conn.execute("PRAGMA user_version").fetchone()[0] == latest_level()
            assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
            schema = "SELECT type, name, sql FROM sqlite_master ORDER BY type, name"
            with connect(source) as src:
                assert [tuple(r) for r in conn.execute(schema)] == [
                    tuple(r) for r in src.execute(schema)
                ]
        # of each shard's two guilds, one closed its table and one still has it open
        assert f"shard {shard_id}: {path} - 2 guild(s), 1 open table(s)" in out
    assert rows(users_database_path(source), "user_prefs") == [
        {"user_id": u, "locale": loc} for u, loc in sorted(PREFS)
    ]
    after = dump(source)
    assert {r["key"]: r["value"] for r in after.pop("bot_meta")} == {
        "installed": "yes",
        SPLIT_KEY: str(K),
    }
    before.pop("bot_meta")
    assert after == before  # nothing else of the source changed
    assert not [n for n in files_in(Path(source).parent) if n.endswith((".partial", "-wal"))]


def test_balances_and_entries_per_guild_are_kept(source: str) -> None:
    def totals(path: str) -> dict[int, tuple[int, int]]:
        with connect(path) as conn:
            return {
                int(g): (int(b), int(n))
                for g, b, n in conn.execute(
                    "SELECT a.guild_id, SUM(a.balance),"
                    " (SELECT COUNT(*) FROM bank_entries e WHERE e.guild_id = a.guild_id)"
                    " FROM bank_accounts a GROUP BY a.guild_id"
                )
            }

    want = totals(source)
    assert sorted(want) == sorted(GUILDS)
    report = split(source, K)
    got: dict[int, tuple[int, int]] = {}
    for shard in report.shards:
        part = totals(shard.path)
        assert {shard_of(g, K) for g in part} == {shard.shard_id}
        got.update(part)
        assert shard.guilds == 2 and shard.accounts > 0 and shard.entries > 0
    assert got == want
    assert sum(s.entries for s in report.shards) == sum(n for _, n in want.values())
    assert report.prefs == len(PREFS)
    assert [s.open_tables for s in report.shards] == [1, 1, 1]


async def _use_shard(path: str, layout: ShardLayout, guild: int) -> tuple[int, int]:
    """What the bot does on start, then a transfer: (new entry id, the file's max before)."""
    db = await SqliteDatabase.open(path)
    try:
        assert await migrate(db) == []
        await db.write(check_layout, layout, path)
        row = await fetchone(db, "SELECT MAX(id) FROM bank_entries")
        assert row is not None
        receipt = await Bank(db).transfer(guild, ALICE, BOB, 1)
        await assert_audit_clean(db)
        return receipt.entry_id, int(row[0])
    finally:
        await db.close()


def test_the_bot_accepts_the_shard_files_and_refuses_the_source(source: str) -> None:
    split(source, K)
    for shard_id, path in enumerate(shard_paths(source)):
        layout = ShardLayout(shard_id, K)
        asyncio.run(check_files(source, layout))  # the source is marked split: no refusal
        guild = next(g for g in GUILDS if layout.owns(g))
        new_id, before = asyncio.run(_use_shard(path, layout, guild))
        assert new_id > before
    with pytest.raises(ConfigError, match="shard files of another layout"):
        asyncio.run(check_files(source, ShardLayout()))
    conn = sqlite3.connect(source, isolation_level=None)
    try:
        with pytest.raises(ConfigError, match="was split into 3 shard files"):
            run_on(conn, check_layout, ShardLayout(), source)
        with pytest.raises(ConfigError, match="was split into 3 shard files"):
            run_on(conn, check_layout, ShardLayout(0, K), source)
    finally:
        conn.close()


# ---------------------------------------------------------------------------- refusals


def _stamp(key: str, value: str) -> Callable[[str], object]:
    def spoil(path: str) -> None:
        with sqlite3.connect(path) as conn:
            conn.execute("INSERT INTO bot_meta (key, value) VALUES (?, ?)", (key, value))
        conn.close()

    return spoil


def _sql(statement: str) -> Callable[[str], object]:
    def spoil(path: str) -> None:
        conn = sqlite3.connect(path, isolation_level=None)
        conn.execute(statement)
        conn.close()

    return spoil


def _touch(name: Callable[[str], str]) -> Callable[[str], object]:
    return lambda path: Path(name(path)).write_bytes(b"")


@pytest.mark.parametrize(
    ("spoil", "shards", "message"),
    [
        (_stamp(SPLIT_KEY, "2"), K, "was already split into 2 shard files"),
        (_stamp(LAYOUT_KEY, "1/2"), K, "is the file of shard 1/2"),
        (_sql(f"PRAGMA user_version = {latest_level() - 1}"), K, "`python -m bot migrate"),
        (_sql("CREATE TABLE mystery (guild_id INTEGER)"), K, "table(s) mystery"),
        (_touch(lambda p: shard_paths(p)[1]), K, "shard-1-of-3.sqlite3 already exists"),
        (_touch(users_database_path), K, "croupier.users.sqlite3 already exists"),
        (_touch(lambda p: shard_paths(p)[0] + ".partial"), K, ".partial already exists"),
        (None, 1, "--shards must be 2 or more"),
    ],
    ids=[
        "already-split",
        "shard-file",
        "old-level",
        "unknown-table",
        "shard-exists",
        "users-exists",
        "partial-exists",
        "one-shard",
    ],
)
def test_refusals_write_nothing(
    source: str,
    spoil: Callable[[str], object] | None,
    shards: int,
    message: str,
    capsys: pytest.CaptureFixture[str],
) -> None:
    if spoil is not None:
        spoil(source)
    folder = Path(source).parent
    files, before = files_in(folder), dump(source)
    assert main(["--shards", str(shards), "--db", source]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1
    assert files_in(folder) == files
    assert dump(source) == before


def test_missing_source_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--shards", "2", "--db", str(tmp_path / "none.sqlite3")]) == 2
    assert "none.sqlite3 does not exist" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


def test_a_source_in_use_is_refused(source: str, capsys: pytest.CaptureFixture[str]) -> None:
    bot = sqlite3.connect(source, isolation_level=None)
    try:
        bot.execute("BEGIN IMMEDIATE")  # the bot is writing
        assert main(["--shards", str(K), "--db", source]) == 2
    finally:
        bot.execute("ROLLBACK")
        bot.close()
    assert "stop the bot before splitting" in capsys.readouterr().err
    assert not any(Path(p).exists() for p in shard_paths(source))


# ---------------------------------------------------------------------------- failures


def _assert_undone(source: str, before: dict[str, list[dict[str, object]]]) -> None:
    folder = Path(source).parent
    assert files_in(folder) == {"croupier.sqlite3"}
    assert dump(source) == before  # not stamped, nothing changed


def test_a_failed_verification_leaves_nothing(
    source: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    seen: list[bool] = []

    def boom(*args: object, **kwargs: object) -> None:
        seen.append(all(Path(p + ".partial").exists() for p in shard_paths(source)))
        raise SplitFailed("the shard files do not add up.")

    monkeypatch.setattr(split_mod, "_verify", boom)
    before = dump(source)
    assert main(["--shards", str(K), "--db", source]) == 1
    assert seen == [True]  # the files were written, then removed
    assert "do not add up" in capsys.readouterr().err
    _assert_undone(source, before)


def test_an_unexpected_error_midway_is_undone(
    source: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def broken(*args: object) -> None:
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(split_mod, "_write_users", broken)
    before = dump(source)
    assert main(["--shards", str(K), "--db", source]) == 1
    assert "the split failed and was undone: disk I/O error" in capsys.readouterr().err
    _assert_undone(source, before)


def test_a_failure_after_the_renames_is_undone(
    source: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = split_mod._verify
    seen: list[bool] = []

    def then_lock(*args: object, **kwargs: object) -> object:
        report = real(*args, **kwargs)
        seen.append(True)
        # the source gets a stamp that conflicts with the one the split writes
        conn = args[0]
        assert isinstance(conn, sqlite3.Connection)
        conn.execute("INSERT INTO bot_meta (key, value) VALUES (?, 'x')", (SPLIT_KEY,))
        return report

    monkeypatch.setattr(split_mod, "_verify", then_lock)
    before = dump(source)
    with pytest.raises(SplitFailed, match="UNIQUE constraint failed"):
        split(source, K)
    assert seen == [True]
    _assert_undone(source, before)


def test_a_ledger_that_does_not_add_up_is_not_split(
    source: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # a cached balance that disagrees with the postings: the shard's audit must catch it
    _sql(
        "UPDATE bank_accounts SET balance = balance + 1"
        " WHERE id = (SELECT MIN(id) FROM bank_accounts WHERE kind = 'player')"
    )(source)
    before = dump(source)
    assert main(["--shards", str(K), "--db", source]) == 1
    err = capsys.readouterr().err
    assert "the bank audit of shard" in err and "cached" in err
    _assert_undone(source, before)


def test_autoincrement_marks_never_go_back(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Today's ids are plain rowids; a future AUTOINCREMENT table keeps the source's mark in
    every shard, even where that shard's own rows stop lower."""
    schema = (
        "CREATE TABLE bot_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);"
        "CREATE TABLE things (id INTEGER PRIMARY KEY AUTOINCREMENT, guild_id INTEGER);"
    )
    source, shard = str(tmp_path / "one.sqlite3"), str(tmp_path / "shard.sqlite3")
    for path in (source, shard):
        conn = sqlite3.connect(path)
        conn.executescript(schema)
        conn.close()
    conn = sqlite3.connect(source)
    conn.executemany(
        "INSERT INTO things (guild_id) VALUES (?)", [(GUILDS[0],), (GUILDS[1],), (GUILDS[1],)]
    )
    conn.execute("DELETE FROM things WHERE id = 3")  # the mark stays at 3
    conn.commit()
    conn.close()
    monkeypatch.setitem(split_mod.GUILD_OF, "things", "guild_id")
    with connect(source) as conn:
        seqs = split_mod._sequences(conn)
    assert seqs == {"things": 3}
    layout = ShardLayout(shard_of(GUILDS[0], K), K)  # holds id 1 only
    split_mod._copy_shard(source, shard, layout, ["things"], seqs)
    assert rows(shard, "things") == [{"id": 1, "guild_id": GUILDS[0]}]
    assert rows(shard, "sqlite_sequence") == [{"name": "things", "seq": 3}]
    with connect(shard) as conn:
        conn.execute("INSERT INTO things (guild_id) VALUES (?)", (GUILDS[0],))
        assert conn.execute("SELECT MAX(id) FROM things").fetchone()[0] == 4
