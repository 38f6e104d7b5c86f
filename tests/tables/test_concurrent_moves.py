"""Moves of many tables of one server at once (on PostgreSQL, truly concurrent
transactions on the house's row): every bet and settlement is posted once and the ledger
stays balanced."""

from __future__ import annotations

import asyncio

import pytest

from bot.bank import Bank
from bot.engine.base import Action, ActionKind
from bot.engine.shuffle import seeded_entropy
from bot.tables import TableService
from tests.bank_audit import assert_audit_clean, entry_count

GUILD = 1
TABLES = 12


@pytest.fixture
async def service(db):
    svc = TableService(db, Bank(db), clock=lambda: 1e6, entropy=seeded_entropy("together"))
    yield svc
    await assert_audit_clean(db)


async def test_bets_at_many_tables_of_one_server_at_once(service, db):
    tables = []
    for n in range(TABLES):
        settings, options = service.parse("classic", "", locale="en", name=f"t{n}")
        out = await service.open_table(
            guild_id=GUILD,
            channel_id=500 + n,
            parent_id=None,
            game_key="classic",
            host_id=100 + n,
            settings=settings,
            options=options,
        )
        tables.append(out.table)
        await service.act(out.table.id, 100 + n, Action(ActionKind.START, 100 + n))
    before = await at_tables_and_house(service, db, tables)
    entries = await entry_count(db)
    await asyncio.gather(
        *(
            service.act(t.id, 100 + n, Action(ActionKind.BET, 100 + n, amount=10))
            for n, t in enumerate(tables)
        )
    )
    # each bet posted once (its round may have settled at once: a natural or a dealer's)
    rows = await db.read(
        lambda c: c.fetchall(
            "SELECT table_id, COUNT(*) FROM bank_entries WHERE kind = 'bet'"
            " GROUP BY table_id ORDER BY table_id"
        )
    )
    assert [(int(r[0]), int(r[1])) for r in rows] == [(t.id, 1) for t in tables]
    assert await entry_count(db) > entries
    assert await at_tables_and_house(service, db, tables) == before


async def at_tables_and_house(service: TableService, db, tables) -> int:
    """The seated players' stacks, the pots and the treasury."""
    stacks = sum(t.game.stacks[t.host_id] for t in tables)  # type: ignore[attr-defined]
    pots = await db.read(
        lambda c: c.fetchall("SELECT balance FROM bank_accounts WHERE kind = 'pot'")
    )
    return stacks + sum(int(r[0]) for r in pots) + await service.bank.balance(GUILD, None)
