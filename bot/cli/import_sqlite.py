"""``python -m bot import-sqlite FILE... [--to URL]``: move an SQLite bot to PostgreSQL, once.

FILE is the one-file database, or the shard files and the users file a ``split`` made
(retired: every process now shares one PostgreSQL). Run it with the bot stopped. Each file
is copied (SQLite's backup API) and migrated to this code's level in a temporary folder,
so the originals are never written; then every row goes into the PostgreSQL database in ONE
transaction, which commits only if, inside it, the bank's audit is clean and every
account's balance is the one its file held. Anything else rolls the whole import back.

Ids: the first file keeps its ids. Shard files went on numbering on their own after the
split, so a later file's ids are moved past the ones already imported (a table's id moves
with every row that names it) and its idempotency keys get a prefix, so no two rows meet.
"""

from __future__ import annotations

import argparse
import asyncio
import sqlite3
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.bank import proof
from bot.config import load_settings
from bot.db import is_postgres, open_database
from bot.db.base import Conn, Database, IntegrityError
from bot.db.lock import FileInUse, ProcessLock
from bot.db.migrate import migrate
from bot.errors import ConfigError

from . import REFUSED

# Tables in the order their rows go in (a row's parents first), and their columns that
# hold an id of ("account", "entry", ...): those move by that kind's offset.
ID_COLUMNS: dict[str, dict[str, str]] = {
    "guild_settings": {},
    "bank_guilds": {},
    "tables": {"id": "table"},
    "table_actions": {"id": "action", "table_id": "table"},
    "table_invites": {"table_id": "table"},
    "table_rounds": {"table_id": "table"},
    "table_decks": {"table_id": "table"},
    "bank_accounts": {"id": "account", "table_id": "table"},
    "bank_entries": {"id": "entry", "table_id": "table"},
    "bank_postings": {"id": "posting", "entry_id": "entry", "account_id": "account"},
    "bank_seats": {"table_id": "table"},
    "bank_claims": {
        "id": "claim",
        "table_id": "table",
        "entry_id": "entry",
        "paid_entry_id": "entry",
        "rejected_entry_id": "entry",
    },
    "user_prefs": {},
    "user_locales": {},
    "round_results": {"table_id": "table"},
    "round_totals": {},
}
KIND_TABLE = {
    "table": "tables",
    "action": "table_actions",
    "account": "bank_accounts",
    "entry": "bank_entries",
    "posting": "bank_postings",
    "claim": "bank_claims",
}
RETIRED_KEY = "split_into"  # bot_meta of a one-file database that was split: a record
CHUNK = 5000


class ImportRefused(ConfigError):
    """The import cannot go on; nothing was written. One sentence for the operator."""


@dataclass
class Source:
    """One SQLite file, migrated in a temporary copy."""

    path: str
    copy: str
    tables: set[str]
    counts: dict[str, int] = field(default_factory=dict)
    balances: dict[tuple[int, str, int, int], int] = field(default_factory=dict)


async def _prepare(path: str, folder: Path, index: int) -> Source:
    """Check, copy and migrate one file; refuse a retired or damaged one."""
    if not Path(path).is_file():
        raise ImportRefused(f"no database at {path}: nothing was imported.")
    copy = str(folder / f"{index}.sqlite3")
    try:
        src = sqlite3.connect(f"{Path(path).resolve().as_uri()}?mode=ro", uri=True)
        try:
            verdict = src.execute("PRAGMA quick_check").fetchone()[0]
            if verdict != "ok":
                raise ImportRefused(f"{path} is damaged ({verdict}): nothing was imported.")
            dest = sqlite3.connect(copy)
            src.backup(dest)
            dest.close()
        finally:
            src.close()
    except sqlite3.DatabaseError as exc:
        raise ImportRefused(f"{path} is not a Croupier database ({exc}).") from None
    c = sqlite3.connect(copy)
    names = {r[0] for r in c.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    retired = None
    if "bot_meta" in names:
        row = c.execute("SELECT value FROM bot_meta WHERE key = ?", (RETIRED_KEY,)).fetchone()
        retired = row[0] if row else None
    c.close()
    if retired is not None:
        raise ImportRefused(
            f"{path} was split into {retired} shard files and is kept only as a record: "
            "import the shard files and the users file instead."
        )
    if names and names <= {"user_prefs"}:  # the users file of a split bot
        return Source(path, copy, names)
    await _migrate_copy(copy)
    c = sqlite3.connect(copy)
    names = {r[0] for r in c.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    c.close()
    return Source(path, copy, names)


async def _migrate_copy(copy: str) -> None:
    db = await open_database(copy)
    try:
        await migrate(db)
    finally:
        await db.close()


def _columns(c: sqlite3.Connection, table: str) -> list[str]:
    return [str(r[1]) for r in c.execute(f"PRAGMA table_info({table})")]


def _rows(c: sqlite3.Connection, table: str, columns: list[str]) -> Any:
    order = " ORDER BY id" if "id" in columns else ""
    cur = c.execute(f"SELECT {', '.join(columns)} FROM {table}{order}")
    while batch := cur.fetchmany(CHUNK):
        yield batch


def _moved(
    row: Sequence[Any], columns: list[str], table: str, offsets: dict[str, int], prefix: str
) -> tuple[Any, ...]:
    out = list(row)
    for i, name in enumerate(columns):
        kind = ID_COLUMNS[table].get(name)
        if kind is not None and out[i] is not None and out[i] != 0:
            out[i] = int(out[i]) + offsets[kind]
    if table == "bank_entries" and prefix:
        out[columns.index("idem_key")] = prefix + str(out[columns.index("idem_key")])
    return tuple(out)


async def _max_ids(conn: Conn) -> dict[str, int]:
    found: dict[str, int] = {}
    for kind, table in KIND_TABLE.items():
        row = await conn.fetchone(f"SELECT COALESCE(MAX(id), 0) FROM {table}")
        found[kind] = int(row[0]) if row else 0
    return found


async def _copy_file(conn: Conn, source: Source, index: int) -> None:
    """Every row of one file, its ids moved past the rows already in."""
    offsets = await _max_ids(conn)
    prefix = f"import{index}:" if index else ""
    c = sqlite3.connect(source.copy)
    try:
        for table in ID_COLUMNS:
            if table not in source.tables:
                continue
            columns = _columns(c, table)
            marks = ", ".join("?" * len(columns))
            sql = f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})"
            total = 0
            for batch in _rows(c, table, columns):
                moved = [_moved(r, columns, table, offsets, prefix) for r in batch]
                await conn.executemany(sql, moved)
                total += len(batch)
            source.counts[table] = total
        if "bank_accounts" in source.tables:
            for g, kind, t, u, balance in c.execute(
                "SELECT guild_id, kind, table_id, user_id, balance FROM bank_accounts"
            ):
                table_id = t + offsets["table"] if t else 0
                source.balances[(int(g), str(kind), int(table_id), int(u))] = int(balance)
    finally:
        c.close()


async def _check(conn: Conn, sources: list[Source]) -> list[str]:
    """What does not match after the copy (empty: commit)."""
    problems: list[str] = []
    report = (await proof.prove(conn, None, True)).report
    if not report.ok:
        problems.append("the bank audit of the imported data is not clean:\n" + report.format())
    wanted: dict[tuple[int, str, int, int], int] = {}
    for source in sources:
        wanted.update(source.balances)
    rows = await conn.fetchall(
        "SELECT guild_id, kind, table_id, user_id, balance FROM bank_accounts"
    )
    found = {(int(r[0]), str(r[1]), int(r[2]), int(r[3])): int(r[4]) for r in rows}
    if found != wanted:
        differ = sorted(k for k in found.keys() | wanted.keys() if found.get(k) != wanted.get(k))
        problems.append(f"{len(differ)} balance(s) differ from the files, e.g. {differ[:3]}")
    return problems


async def _reset_sequences(conn: Conn) -> None:
    """Identity columns count on from the largest id imported."""
    for table in KIND_TABLE.values():
        await conn.execute(
            f"SELECT setval(pg_get_serial_sequence('{table}', 'id'),"
            f" (SELECT COALESCE(MAX(id), 0) + 1 FROM {table}), false)"
        )


async def _empty(conn: Conn) -> bool:
    for table in ("bank_guilds", "tables", "user_prefs", "guild_settings"):
        if await conn.fetchone(f"SELECT 1 FROM {table} LIMIT 1") is not None:
            return False
    return True


async def _import(conn: Conn, sources: list[Source]) -> None:
    if not await _empty(conn):
        raise ImportRefused(
            "the PostgreSQL database already holds servers: import into an empty one."
        )
    guilds: dict[int, str] = {}
    for index, source in enumerate(sources):
        if "bank_guilds" in source.tables:
            c = sqlite3.connect(source.copy)
            ids = [int(r[0]) for r in c.execute("SELECT guild_id FROM bank_guilds")]
            c.close()
            for g in ids:
                if g in guilds:
                    raise ImportRefused(
                        f"server {g} is in both {guilds[g]} and {source.path}: "
                        "give each file once (the shard files of one split)."
                    )
                guilds[g] = source.path
        await _copy_file(conn, source, index)
    problems = await _check(conn, sources)
    if problems:
        raise ImportRefused("nothing was imported: " + "; ".join(problems))
    await _reset_sequences(conn)


async def run_import(files: Sequence[str], url: str) -> list[Source]:
    """Import ``files`` into the PostgreSQL database at ``url`` (migrated first)."""
    if not is_postgres(url):
        raise ImportRefused(
            f"import-sqlite copies into PostgreSQL: give --to postgresql://... or set "
            f"DATABASE_URL to one, not {url!r}."
        )
    locks = [_lock(p) for p in files]  # no bot may write a file while it is copied
    try:
        return await _copy_all(files, url)
    finally:
        for lock in locks:
            if lock is not None:
                lock.release()


def _lock(path: str) -> ProcessLock | None:
    if not Path(path).is_file():
        return None
    try:
        return ProcessLock(path)
    except FileInUse:
        raise ImportRefused(
            f"{path} is in use by a running bot: stop it before importing."
        ) from None


async def _copy_all(files: Sequence[str], url: str) -> list[Source]:
    with tempfile.TemporaryDirectory(prefix="croupier-import-") as tmp:
        sources = [await _prepare(p, Path(tmp), i) for i, p in enumerate(files)]
        db: Database = await open_database(url)
        try:
            await migrate(db)
            await db.write(_import, sources)
        finally:
            await db.close()
    return sources


def main(argv: list[str] | None = None) -> int:
    """CLI entry: exit 0 when imported, 2 when refused (nothing written)."""
    parser = argparse.ArgumentParser(
        prog="python -m bot import-sqlite",
        description="Copy an SQLite database (or a split's shard and users files) into "
        "PostgreSQL, once, with the bot stopped.",
    )
    parser.add_argument("files", nargs="+", help="the SQLite file(s)")
    parser.add_argument("--to", help="postgresql:// URL (default: DATABASE_URL)")
    args = parser.parse_args(argv)
    try:
        url = args.to or load_settings().database_url
        sources = asyncio.run(run_import(args.files, url))
    except REFUSED as exc:
        print(f"import-sqlite: {exc}", file=sys.stderr)
        return 2
    except IntegrityError as exc:  # e.g. one user's language in two files
        print(f"import-sqlite: nothing was imported: {exc}", file=sys.stderr)
        return 2
    for source in sources:
        rows = sum(source.counts.values())
        print(f"{source.path}: {rows} rows, {len(source.balances)} account(s)")
    print("imported; the bank audit is clean and every balance matches its file.")
    return 0
