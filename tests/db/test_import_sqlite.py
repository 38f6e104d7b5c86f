"""``python -m bot import-sqlite``: the one-file database or a split's shard and users files
go into PostgreSQL in one transaction, committed only when the bank's audit is clean and
every balance is the one its file held. The fixtures: tables-v1.sqlite3 (a one-file bot
with open tables of every game) and split-2/ (that bot plus a second server, split in two
by the last code that had ``split``: tests/fixtures/README.md)."""

from __future__ import annotations

import asyncio
import shutil
import sqlite3
from pathlib import Path

import pytest

from bot.bank import Bank
from bot.cli.import_sqlite import main as cli_main
from bot.db import migrate, open_database
from bot.engine.base import Action, ActionKind, Money, MoneyKind, claim, seat
from bot.engine.shuffle import seeded_entropy
from bot.tables import TableService
from tests.bank.ledger import float_of
from tests.bank_audit import assert_audit_clean
from tests.conftest import NEEDS_PG
from tests.sql import fetchall
from tests.tables.opening import GUILD, HOST, open_game, win_a_round

FIXTURES = Path(__file__).parent.parent / "fixtures"
SPLIT = FIXTURES / "split-2"
SHARDS = ("croupier.shard-0-of-2.sqlite3", "croupier.shard-1-of-2.sqlite3")
USERS = "croupier.users.sqlite3"

pytestmark = NEEDS_PG


async def import_main(args: list[str]) -> int:
    """The CLI as an operator runs it (its own event loop: on a thread here)."""
    return await asyncio.to_thread(cli_main, args)


@pytest.fixture
def backend() -> str:
    return "postgresql"


def balances(*files: Path) -> dict[tuple[int, str, int], int]:
    """(guild, kind, user) -> balance of player, house, claims and issuer accounts."""
    out: dict[tuple[int, str, int], int] = {}
    for f in files:
        with sqlite3.connect(f) as c:
            for g, kind, u, b in c.execute(
                "SELECT guild_id, kind, user_id, balance FROM bank_accounts"
                " WHERE kind IN ('player', 'house', 'claims', 'issuer')"
            ):
                out[(g, kind, u)] = b
    return out


async def imported_balances(url: str) -> dict[tuple[int, str, int], int]:
    db = await open_database(url)
    try:
        await migrate(db)  # a refused import may have left the database empty
        rows = await fetchall(
            db,
            "SELECT guild_id, kind, user_id, balance FROM bank_accounts"
            " WHERE kind IN ('player', 'house', 'claims', 'issuer')",
        )
        return {(r[0], r[1], r[2]): r[3] for r in rows}
    finally:
        await db.close()


async def open_tables(url: str) -> dict[int, str]:
    db = await open_database(url)
    try:
        svc = TableService(db, Bank(db), clock=lambda: 2e9, entropy=seeded_entropy("i"))
        await assert_audit_clean(db)
        return {t.channel_id: t.snapshot_json() for t in await svc.load_open_tables()}
    finally:
        await db.close()


def sqlite_open_tables(path: Path) -> set[int]:
    with sqlite3.connect(path) as c:
        return {r[0] for r in c.execute("SELECT channel_id FROM tables WHERE status = 'open'")}


async def test_a_one_file_database_moves_over(database_url, tmp_path, capsys):
    source = tmp_path / "one.sqlite3"
    shutil.copy(FIXTURES / "tables-v1.sqlite3", source)
    before = source.read_bytes()
    assert await import_main([str(source), "--to", database_url]) == 0, capsys.readouterr().err
    assert "every balance matches" in capsys.readouterr().out
    assert source.read_bytes() == before  # the original is never written
    assert await imported_balances(database_url) == balances(source)
    assert set(await open_tables(database_url)) == sqlite_open_tables(source)
    # once: a second import into the same database is refused, nothing changes
    assert await import_main([str(source), "--to", database_url]) == 2
    assert "already holds servers" in capsys.readouterr().err


async def test_a_split_moves_over_even_after_its_shards_went_on(database_url, tmp_path, capsys):
    files = [tmp_path / name for name in (*SHARDS, USERS)]
    for f in files:
        shutil.copy(SPLIT / f.name, f)
    # both shards ran on after the split: their new ids collide (accounts, entries, tables)
    for index, f in enumerate(files[:2]):
        db = await open_database(str(f))
        bank = Bank(db)
        guild = 42 if index == 0 else (1 << 22) | 5

        async def tx(conn, guild=guild, index=index, bank=bank):
            await bank.post_effects(
                conn,
                guild,
                77,
                None,
                [
                    Money(MoneyKind.WELCOME_STAKE, "house", seat(9000 + index), 30),
                    Money(MoneyKind.CASH_OUT, seat(9000 + index), claim(9000 + index), 30),
                ],
                "after-split",  # the same key in both files
            )

        await db.write(tx)
        await db.close()
    assert await import_main([*map(str, files), "--to", database_url]) == 0, capsys.readouterr().err
    assert await imported_balances(database_url) == balances(*files[:2])
    assert set(await open_tables(database_url)) == sqlite_open_tables(files[0]) | (
        sqlite_open_tables(files[1])
    )
    db = await open_database(database_url)
    try:
        prefs = await fetchall(db, "SELECT user_id, locale FROM user_prefs ORDER BY user_id")
        assert [tuple(r) for r in prefs] == [(101, "en"), (7001, "fr")]
        # new rows get new ids after the imported ones
        assert (await Bank(db).mint(42, 5, user_id=1)).entry_id > 0
        await assert_audit_clean(db)
    finally:
        await db.close()


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda p: p.write_bytes(b"garbage" * 1000), "not a Croupier database"),
        (lambda p: None, "no database at"),
    ],
)
async def test_a_bad_file_is_refused_and_nothing_is_written(
    database_url, tmp_path, capsys, make, message
):
    good = tmp_path / "good.sqlite3"
    shutil.copy(FIXTURES / "tables-v1.sqlite3", good)
    bad = tmp_path / "bad.sqlite3"
    make(bad)
    assert await import_main([str(good), str(bad), "--to", database_url]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1
    assert await imported_balances(database_url) == {}


async def test_an_unbalanced_file_is_refused_after_the_copy(database_url, tmp_path, capsys):
    source = tmp_path / "one.sqlite3"
    shutil.copy(FIXTURES / "tables-v1.sqlite3", source)
    with sqlite3.connect(source) as c:  # money made from nothing: a cached balance lies
        c.execute("UPDATE bank_accounts SET balance = balance + 1 WHERE kind = 'player'")
    assert await import_main([str(source), "--to", database_url]) == 2
    assert "bank audit" in capsys.readouterr().err
    assert await imported_balances(database_url) == {}


async def test_a_tables_float_moves_over_with_its_table(database_url, tmp_path, capsys):
    """An open table's float is an account like the others: it moves with its table (a
    split's table ids move on), and the table goes on paying from it, then credits it."""
    source = tmp_path / "floats.sqlite3"
    db = await open_database(str(source))
    try:
        await migrate(db)
        svc = TableService(db, Bank(db), clock=lambda: 2e9, entropy=seeded_entropy("f"))
        table = await open_game(svc, "classic", "max_bet=100 max_hands=2")
        await svc.act(table.id, HOST, Action(ActionKind.START, HOST))
        await win_a_round(svc, table.id)
        assert await float_of(db, GUILD, table.id) == 1500
    finally:
        await db.close()
    assert await import_main([str(source), "--to", database_url]) == 0, capsys.readouterr().err
    pg = await open_database(database_url)
    try:
        svc = TableService(pg, Bank(pg), clock=lambda: 2e9 + 60, entropy=seeded_entropy("g"))
        (moved,) = await svc.load_open_tables()
        assert moved.has_float and await float_of(pg, GUILD, moved.id) == 1500
        treasury = await svc.bank.balance(GUILD, None)
        await win_a_round(svc, moved.id)
        out = await svc.close_table(moved.id, HOST, "host")
        assert [(m.kind, m.amount) for m in out.floats] == [("credit", 1400)]
        assert await svc.bank.balance(GUILD, None) == treasury + 1400
        await assert_audit_clean(pg)
    finally:
        await pg.close()
