"""A move's round trips to PostgreSQL, counted: each is a network wait while the table's
lock is held, so a move must cost a few whatever its money (the bet and the settlement
that pays several seats alike)."""

from __future__ import annotations

import pytest

from bot.bank import Bank
from bot.db.postgres import PostgresDatabase
from bot.engine.base import Action, ActionKind, Phase
from bot.engine.shuffle import seeded_entropy
from bot.tables import TableService
from tests.bank_audit import assert_audit_clean

GUILD = 1
HOST, BOB, CARL = 101, 102, 103
BEGIN_COMMIT = 2
MOST_PER_MOVE = BEGIN_COMMIT + 2  # the table's rows with the house's cover, then the ledger


@pytest.fixture
async def service(db):
    if not isinstance(db, PostgresDatabase):
        pytest.skip("round trips are PostgreSQL's cost (SQLite's is bench cost's)")
    svc = TableService(db, Bank(db), clock=lambda: 1e6, entropy=seeded_entropy("trips"))
    yield svc
    await assert_audit_clean(db)


async def counted(db: PostgresDatabase, svc: TableService, table_id: int, action: Action) -> int:
    """The round trips of one move."""
    before = db.trips.count
    await svc.act(table_id, action.player, action)
    return db.trips.count - before


async def test_every_move_of_a_round_costs_at_most_four_round_trips(service, db):
    settings, options = service.parse("classic", "", locale="en", name="t")
    table = (
        await service.open_table(
            guild_id=GUILD,
            channel_id=500,
            parent_id=None,
            game_key="classic",
            host_id=HOST,
            settings=settings,
            options=options,
        )
    ).table
    for player in (BOB, CARL):
        await service.join(table.id, player, 100)
    await service.act(table.id, HOST, Action(ActionKind.START, HOST))
    trips: dict[str, list[int]] = {}
    players = (HOST, BOB, CARL)
    for round_no in range(4):  # the first round finds the accounts, prepares statements
        assert table.game.phase is Phase.BETTING
        for player in players:
            n = await counted(db, service, table.id, Action(ActionKind.BET, player, amount=10))
            trips.setdefault("bet", []).append(n)
        while table.game.phase is not Phase.BETTING:  # the next round starts by itself
            player = next(p for p in players if table.game.legal_actions(p))
            legal = table.game.legal_actions(player)
            kind = ActionKind.STAND if ActionKind.STAND in legal else ActionKind.NO_INSURANCE
            n = await counted(db, service, table.id, Action(kind, player))
            settled = table.game.phase is Phase.BETTING
            trips.setdefault("settle" if settled else "play", []).append(n)
        if round_no == 0:
            trips.clear()
    print("round trips per move:", trips)
    assert trips["settle"], "no round was settled"
    assert max(n for ns in trips.values() for n in ns) <= MOST_PER_MOVE, trips
