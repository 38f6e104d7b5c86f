"""``python -m bot split --shards K [--db PATH]``: turn the bot's one database file into K.

Run offline, with the bot stopped. Each guild's rows (per ``GUILD_OF`` in ``bot/shards.py``)
go to the file of the shard Discord routes the guild to, with the same ids; users'
preferences go to the users file every shard shares. The copy is verified (row counts,
every guild's balances and entries, the bank audit of each file) before the shard files
take their final names, and only then is the one-file database stamped as split: the bot
refuses to run on it again, and it stays as a record, its data untouched.

Re-splitting (changing K later) is not supported: ids are unique per file only, so the K
files would have to be merged first, and nothing does that.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import sqlite3
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from bot.bank import core as bank_core
from bot.config import ConfigError, load_settings
from bot.shards import (
    GLOBAL_TABLES,
    GUILD_OF,
    LAYOUT_KEY,
    SPLIT_KEY,
    USER_LOCALES_SCHEMA,
    USERS_SCHEMA,
    ShardLayout,
    guild_ids,
    meta,
    shard_of,
    users_database_path,
)

from .lock import FileInUse, ProcessLock
from .migrate import latest_level, migrate
from .sqlite import SqliteDatabase, run_on

PARTIAL = ".partial"  # suffix of a file being written: the bot never opens it
SIDE_FILES = ("-wal", "-shm", "-journal")


class SplitError(Exception):
    """The split did not happen; the message is one sentence for the operator."""

    exit_code = 1


class SplitRefused(SplitError):
    """Refused before anything was written."""

    exit_code = 2


class SplitFailed(SplitError):
    """Failed midway: every file written was removed and the source left unstamped."""

    exit_code = 1


@dataclass(frozen=True)
class ShardFile:
    """One shard's file, as verified."""

    shard_id: int
    path: str
    guilds: int
    open_tables: int
    accounts: int
    entries: int


@dataclass(frozen=True)
class SplitReport:
    """What the split wrote."""

    source: str
    shard_count: int
    shards: tuple[ShardFile, ...]
    users_path: str
    prefs: int

    def format(self) -> str:
        """A short human report, ending with the next step."""
        lines = [f"split {self.source} into {self.shard_count} shard files:"]
        for s in self.shards:
            lines.append(
                f"  shard {s.shard_id}: {s.path} - {s.guilds} guild(s), {s.open_tables} open"
                f" table(s), {s.accounts} accounts, {s.entries} entries; bank audit OK"
            )
        lines.append(f"  users: {self.users_path} - {self.prefs} user preference(s)")
        lines.append(
            f"{self.source} is kept as a record, marked split into {self.shard_count}:"
            " the bot will not run on it again."
        )
        lines.append(f"Next: set SHARD_COUNT={self.shard_count} and start the bot.")
        return "\n".join(lines)


# ---------------------------------------------------------------------------- helpers


def _uri(path: str, mode: str) -> str:
    return f"{Path(path).resolve().as_uri()}?mode={mode}"


def _shard_or_none(guild_id: int | None, shard_count: int) -> int | None:
    """``shard_of`` for SQL: a row whose guild cannot be found belongs to no shard."""
    return None if guild_id is None else shard_of(int(guild_id), shard_count)


def _connect(path: str, mode: str = "ro") -> sqlite3.Connection:
    conn = sqlite3.connect(_uri(path, mode), uri=True, isolation_level=None, timeout=0)
    conn.create_function("shard_of", 2, _shard_or_none, deterministic=True)
    return conn


def _ident(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _tables(conn: sqlite3.Connection, schema: str = "main") -> list[str]:
    rows = conn.execute(
        f"SELECT name FROM {schema}.sqlite_master WHERE type = 'table'"
        " AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name"
    )
    return [str(r[0]) for r in rows]


def _schema(conn: sqlite3.Connection, schema: str = "main") -> list[tuple[str, str, str]]:
    rows = conn.execute(
        f"SELECT type, name, sql FROM {schema}.sqlite_master"
        " WHERE name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY type, name"
    )
    return [(str(r[0]), str(r[1]), str(r[2])) for r in rows]


def _count(conn: sqlite3.Connection, table: str) -> int:
    return int(conn.execute(f"SELECT COUNT(*) FROM {_ident(table)}").fetchone()[0])


def _open_tables(conn: sqlite3.Connection) -> int:
    return int(conn.execute("SELECT COUNT(*) FROM tables WHERE status = 'open'").fetchone()[0])


def _sequences(conn: sqlite3.Connection, schema: str = "main") -> dict[str, int]:
    """AUTOINCREMENT high-water marks (none in today's schema: ids are rowids)."""
    has = conn.execute(
        f"SELECT 1 FROM {schema}.sqlite_master WHERE name = 'sqlite_sequence'"
    ).fetchone()
    if has is None:
        return {}
    rows = conn.execute(f"SELECT name, seq FROM {schema}.sqlite_sequence")
    return {str(r[0]): int(r[1]) for r in rows}


def _fk_order(conn: sqlite3.Connection, tables: Iterable[str]) -> list[str]:
    """``tables`` with every table after the tables its foreign keys reference."""
    todo = list(tables)
    parents = {
        t: {str(r[2]) for r in conn.execute(f"PRAGMA foreign_key_list({_ident(t)})")} & set(todo)
        for t in todo
    }
    order: list[str] = []
    while todo:
        ready = [t for t in todo if parents[t] - {t} <= set(order)]
        if not ready:
            raise SplitRefused(f"the foreign keys of {', '.join(todo)} form a cycle.")
        order.extend(ready)
        todo = [t for t in todo if t not in ready]
    return order


def _remove(paths: Iterable[str]) -> None:
    for path in paths:
        for name in (path, *(path + side for side in SIDE_FILES)):
            with contextlib.suppress(FileNotFoundError):
                os.remove(name)


# ---------------------------------------------------------------------------- checks


def _lock_source(source: str) -> sqlite3.Connection:
    """Open the source and hold its write lock until the split ends: nothing can change it
    between the copy and the stamp."""
    guard = sqlite3.connect(_uri(source, "rw"), uri=True, isolation_level=None, timeout=0)
    try:
        guard.execute("BEGIN IMMEDIATE")
        guard.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
    except sqlite3.OperationalError as exc:
        guard.close()
        if "locked" in str(exc) or "busy" in str(exc):
            raise SplitRefused(
                f"{source} is in use by another process: stop the bot before splitting."
            ) from exc
        raise SplitRefused(f"{source} cannot be read as a database ({exc}).") from exc
    except sqlite3.DatabaseError as exc:
        guard.close()
        raise SplitRefused(f"{source} cannot be read as a database ({exc}).") from exc
    return guard


def _check_source(guard: sqlite3.Connection, source: str) -> list[str]:
    """Refuse a source that is not a one-file database at the latest level; return the
    tables to copy by guild, in foreign-key order."""
    level = int(guard.execute("PRAGMA user_version").fetchone()[0])
    latest = latest_level()
    if level > latest:
        raise SplitRefused(
            f"{source} is at migration level {level}, newer than this version of the bot"
            f" ({latest}): split it with the version that migrated it."
        )
    if level < latest:
        raise SplitRefused(
            f"{source} is at migration level {level}, not {latest}: run"
            f" `python -m bot migrate --db {source}` with this version of the bot first."
        )
    split_into = run_on(guard, meta, SPLIT_KEY)
    if split_into is not None:
        raise SplitRefused(
            f"{source} was already split into {split_into} shard files and is kept only as a"
            " record: there is nothing left to split."
        )
    layout = run_on(guard, meta, LAYOUT_KEY)
    if layout is not None:
        raise SplitRefused(
            f"{source} is the file of shard {layout}, not a one-file database: shard files"
            " cannot be split again."
        )
    tables = _tables(guard)
    unknown = [t for t in tables if t not in GUILD_OF and t not in GLOBAL_TABLES]
    if unknown:
        raise SplitRefused(
            f"{source} has table(s) {', '.join(unknown)} that bot/shards.py places in no shard"
            " (GUILD_OF or GLOBAL_TABLES): add them there before splitting."
        )
    return _fk_order(guard, [t for t in GUILD_OF if t in tables])


def _check_targets(paths: Iterable[str]) -> None:
    for path in paths:
        for base in (path, path + PARTIAL):
            for name in (base, *(base + side for side in SIDE_FILES)):
                if Path(name).exists():
                    raise SplitRefused(
                        f"{name} already exists: remove it if it is left from an earlier"
                        " attempt, then split again."
                    )


# ---------------------------------------------------------------------------- writing


async def _create_schema(paths: list[str]) -> None:
    for path in paths:
        db = await SqliteDatabase.open(path)
        try:
            await migrate(db)
        finally:
            await db.close()


def _copy_shard(
    source: str, path: str, layout: ShardLayout, tables: list[str], seqs: dict[str, int]
) -> None:
    """Copy the rows of ``layout``'s guilds from ``source`` into the migrated ``path``, in
    one transaction. The source is the main database, so ``GUILD_OF`` is evaluated in its
    scope; the shard file is attached as ``shard``."""
    conn = _connect(source, "ro")
    try:
        conn.execute("PRAGMA foreign_keys = ON")
        conn.execute("ATTACH DATABASE ? AS shard", (_uri(path, "rw"),))
        # A file in rollback-journal mode is whole once closed, so it can be renamed; the
        # bot turns WAL back on when it opens it.
        conn.execute("PRAGMA shard.journal_mode = DELETE").fetchall()
        if _schema(conn, "shard") != _schema(conn, "main"):
            raise SplitFailed(
                f"the migrations do not give {path} the schema of {source}: was the source"
                " changed by hand?"
            )
        conn.execute("BEGIN")
        try:
            for table in tables:
                cols = ", ".join(
                    _ident(str(r[1])) for r in conn.execute(f"PRAGMA table_info({_ident(table)})")
                )
                conn.execute(
                    f"INSERT INTO shard.{_ident(table)} ({cols}) SELECT {cols}"
                    f" FROM main.{_ident(table)} WHERE shard_of({GUILD_OF[table]}, ?) = ?",
                    (layout.shard_count, layout.shard_id),
                )
            conn.execute(
                "INSERT INTO shard.bot_meta (key, value) SELECT key, value FROM main.bot_meta"
                " WHERE key NOT IN (?, ?)",
                (SPLIT_KEY, LAYOUT_KEY),
            )
            conn.execute(
                "INSERT INTO shard.bot_meta (key, value) VALUES (?, ?)", (LAYOUT_KEY, layout.stamp)
            )
            # Ids must never go back below the source's: raise AUTOINCREMENT marks to its.
            for name, seq in seqs.items():
                updated = conn.execute(
                    "UPDATE shard.sqlite_sequence SET seq = max(seq, ?) WHERE name = ?",
                    (seq, name),
                ).rowcount
                if not updated:
                    conn.execute(
                        "INSERT INTO shard.sqlite_sequence (name, seq) VALUES (?, ?)", (name, seq)
                    )
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
    finally:
        conn.close()


def _write_users(source: str, path: str) -> None:
    """The users file: ``USERS_SCHEMA`` and every row of the source's ``user_prefs``."""
    conn = sqlite3.connect(_uri(path, "rwc"), uri=True, isolation_level=None, timeout=0)
    try:
        conn.execute(USERS_SCHEMA)
        conn.execute(USER_LOCALES_SCHEMA)
        conn.execute("ATTACH DATABASE ? AS src", (_uri(source, "ro"),))
        conn.execute("BEGIN")
        conn.execute(
            "INSERT INTO main.user_prefs (user_id, locale) SELECT user_id, locale"
            " FROM src.user_prefs"
        )
        conn.execute(
            "INSERT INTO main.user_locales (user_id, locale) SELECT user_id, locale"
            " FROM src.user_locales"
        )
        conn.execute("COMMIT")
    finally:
        conn.close()


# ---------------------------------------------------------------------------- verifying


def _guild_totals(conn: sqlite3.Connection) -> tuple[dict[int, int], dict[int, int]]:
    """Per guild: the sum of its accounts' balances, and its number of entries."""
    balances = {
        int(g): int(b)
        for g, b in conn.execute("SELECT guild_id, SUM(balance) FROM bank_accounts GROUP BY 1")
    }
    entries = {
        int(g): int(n)
        for g, n in conn.execute("SELECT guild_id, COUNT(*) FROM bank_entries GROUP BY 1")
    }
    return balances, entries


def _verify(
    guard: sqlite3.Connection,
    source: str,
    shard_count: int,
    files: list[str],
    users_file: str,
    tables: list[str],
    final_paths: list[str],
    users_path: str,
) -> SplitReport:
    """Check the written ``files`` against the source; raise SplitFailed on a difference."""
    latest = latest_level()
    want_counts = {t: _count(guard, t) for t in tables}
    want_balances, want_entries = _guild_totals(guard)
    want_seqs = _sequences(guard)
    got_counts = dict.fromkeys(tables, 0)
    got_balances: dict[int, int] = {}
    got_entries: dict[int, int] = {}
    shards: list[ShardFile] = []
    for shard_id, (path, final) in enumerate(zip(files, final_paths, strict=True)):
        layout = ShardLayout(shard_id, shard_count)
        conn = _connect(path, "ro")
        try:
            name = f"shard {layout.stamp} ({path})"
            if int(conn.execute("PRAGMA user_version").fetchone()[0]) != latest:
                raise SplitFailed(f"{name} is not at migration level {latest}.")
            if run_on(conn, meta, LAYOUT_KEY) != layout.stamp:
                raise SplitFailed(f"{name} is not stamped {LAYOUT_KEY} = {layout.stamp}.")
            for table in tables:
                got_counts[table] += _count(conn, table)
                strangers = conn.execute(
                    f"SELECT COUNT(*) FROM {_ident(table)}"
                    f" WHERE shard_of({GUILD_OF[table]}, ?) IS NOT ?",
                    (shard_count, shard_id),
                ).fetchone()[0]
                if strangers:
                    raise SplitFailed(
                        f"{name}: {strangers} row(s) of {table} belong to another shard or to"
                        " no guild."
                    )
            broken = conn.execute("PRAGMA foreign_key_check").fetchall()
            if broken:
                raise SplitFailed(f"{name}: {len(broken)} row(s) break a foreign key.")
            for seq_name, seq in want_seqs.items():
                if _sequences(conn).get(seq_name, -1) < seq:
                    raise SplitFailed(f"{name}: the id sequence of {seq_name} went back.")
            balances, entries = _guild_totals(conn)
            for mine, total in ((balances, got_balances), (entries, got_entries)):
                twice = set(mine) & set(total)
                if twice:
                    raise SplitFailed(f"guild(s) {sorted(twice)} are in two shard files.")
                total.update(mine)
            report = run_on(conn, bank_core.audit, None)
            if not report.ok:
                problems = "; ".join(report.problems[:3])
                raise SplitFailed(f"the bank audit of {name} failed: {problems}")
            shards.append(
                ShardFile(
                    shard_id=shard_id,
                    path=final,
                    guilds=len(run_on(conn, guild_ids)),
                    open_tables=_open_tables(conn) if "tables" in tables else 0,
                    accounts=report.accounts,
                    entries=report.entries,
                )
            )
        finally:
            conn.close()
    for table in tables:
        if got_counts[table] != want_counts[table]:
            raise SplitFailed(
                f"{table}: the source has {want_counts[table]} rows, the shard files"
                f" {got_counts[table]}."
            )
    for what, want, got in (
        ("balances", want_balances, got_balances),
        ("entries", want_entries, got_entries),
    ):
        if want != got:
            differ = sorted(g for g in set(want) | set(got) if want.get(g) != got.get(g))
            raise SplitFailed(f"the {what} of guild(s) {differ[:5]} differ from the source.")
    conn = _connect(users_file, "ro")
    try:
        prefs = _count(conn, "user_prefs")
    finally:
        conn.close()
    if prefs != _count(guard, "user_prefs"):
        raise SplitFailed(
            f"user_prefs: the source has {_count(guard, 'user_prefs')} rows, {users_file} {prefs}."
        )
    return SplitReport(source, shard_count, tuple(shards), users_path, prefs)


# ---------------------------------------------------------------------------- the split


def split(source: str, shard_count: int) -> SplitReport:
    """Split ``source`` into shard files and a users file, then mark it split (no event loop)."""
    source = str(source)
    if not Path(source).is_file():
        raise SplitRefused(f"{source} does not exist: give the bot's database file with --db.")
    if shard_count < 2:
        raise SplitRefused(
            f"--shards must be 2 or more, not {shard_count}: one shard is the unsplit file."
        )
    finals = [ShardLayout(i, shard_count).database_path(source) for i in range(shard_count)]
    users_path = users_database_path(source)
    try:
        # a bot running on the file, even idle, holds this lock (bot/db/lock.py)
        file_lock = ProcessLock(source)
    except FileInUse:
        raise SplitRefused(
            f"{source} is in use by a running bot: stop it before splitting."
        ) from None
    try:
        return _split_locked(source, shard_count, finals, users_path)
    finally:
        file_lock.release()


def _split_locked(source: str, shard_count: int, finals: list[str], users_path: str) -> SplitReport:
    guard = _lock_source(source)
    try:
        tables = _check_source(guard, source)
        _check_targets([users_path, *finals])
        written: list[str] = []  # every path this run created, removed if it fails
        try:
            files = [final + PARTIAL for final in finals]
            users_file = users_path + PARTIAL
            written.extend([*files, users_file])
            asyncio.run(_create_schema(files))
            seqs = _sequences(guard)
            for shard_id, path in enumerate(files):
                _copy_shard(source, path, ShardLayout(shard_id, shard_count), tables, seqs)
            _write_users(source, users_file)
            report = _verify(
                guard, source, shard_count, files, users_file, tables, finals, users_path
            )
            # Final names only once verified, the users file first: a crash past here
            # leaves complete shard files and a source that is not stamped yet.
            for partial, final in ((users_file, users_path), *zip(files, finals, strict=True)):
                if any(Path(partial + side).exists() for side in SIDE_FILES):
                    raise SplitFailed(f"{partial} was not closed cleanly.")
                if Path(final).exists():
                    raise SplitFailed(f"{final} appeared while splitting.")
                written.append(final)
                os.rename(partial, final)
            guard.execute(
                "INSERT INTO bot_meta (key, value) VALUES (?, ?)", (SPLIT_KEY, str(shard_count))
            )
            guard.execute("COMMIT")
        except BaseException as exc:
            _remove(written)
            if isinstance(exc, Exception) and not isinstance(exc, SplitError):
                raise SplitFailed(f"the split failed and was undone: {exc}") from exc
            raise
        return report
    finally:
        if guard.in_transaction:
            guard.execute("ROLLBACK")
        guard.close()


def main(argv: list[str] | None = None) -> int:
    """CLI entry: print the report; exit 0 when split, 1 when it failed, 2 when refused."""
    parser = argparse.ArgumentParser(
        prog="python -m bot split",
        description="Split the database into one file per shard (run with the bot stopped).",
    )
    parser.add_argument("--shards", type=int, required=True, help="number of shards, 2 or more")
    parser.add_argument("--db", default=None, help="database file (default: DATABASE_PATH)")
    args = parser.parse_args(argv)
    try:
        path = args.db or load_settings().database_path
    except ConfigError as exc:
        print(f"split: {exc}", file=sys.stderr)
        return 2
    try:
        report = split(path, args.shards)
    except SplitError as exc:
        print(f"split: {exc}", file=sys.stderr)
        return exc.exit_code
    print(report.format())
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
