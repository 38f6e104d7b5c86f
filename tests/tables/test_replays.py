"""Replayed interactions without a SELECT per move: the in-memory list of recent ids, the
database for interactions older than the process, the UNIQUE constraint as last word."""

from __future__ import annotations

from bot.bank import Bank
from bot.engine.base import Action, ActionKind, Phase
from bot.engine.shuffle import seeded_entropy
from bot.tables import TableService
from bot.tables import service as service_module
from tests.bank.ledger import table_escrow
from tests.tables.opening import GUILD, HOST, open_game

BOB = 102
NOW = 1_800_000_000.0


def snowflake(at: float, n: int = 0) -> int:
    """A Discord-shaped id created at ``at`` (seconds since the epoch)."""
    return ((int(at * 1000) - service_module.DISCORD_EPOCH_MS) << 22) + n


def make(db) -> TableService:
    return TableService(db, Bank(db), clock=lambda: NOW, entropy=seeded_entropy("replay"))


async def test_recent_replay_is_answered_from_memory(db, monkeypatch):
    svc = make(db)
    table = await open_game(svc, "classic", channel=7, players=(BOB,), buy_in=100)
    iid = snowflake(NOW, 1)
    await svc.act(table.id, HOST, Action(ActionKind.START, HOST), interaction_id=iid)
    reads: list[object] = []
    real = db.read

    async def spy(fn, *args, **kwargs):
        reads.append(fn)
        return await real(fn, *args, **kwargs)

    monkeypatch.setattr(db, "read", spy)
    again = await svc.act(table.id, HOST, Action(ActionKind.START, HOST), interaction_id=iid)
    assert again.replayed and again.events == []
    bet = Action(ActionKind.BET, HOST, amount=10)
    await svc.act(table.id, HOST, bet, interaction_id=snowflake(NOW, 2))
    assert reads == []  # no read for a new nor for a replayed interaction


async def test_replay_after_a_restart_is_refused_by_the_database(db):
    svc = make(db)
    table = await open_game(svc, "classic", channel=7, players=(BOB,), buy_in=100)
    iid = snowflake(NOW, 3)
    await svc.act(table.id, HOST, Action(ActionKind.START, HOST), interaction_id=iid)
    bet = Action(ActionKind.BET, HOST, amount=10)
    await svc.act(table.id, HOST, bet, interaction_id=snowflake(NOW, 4))
    version = table.version
    # a new process (empty memory) sees a recent interaction again: the UNIQUE constraint
    fresh = make(db)
    [reloaded] = await fresh.load_open_tables()
    bob_bet = Action(ActionKind.BET, BOB, amount=10)
    replay = await fresh.act(reloaded.id, BOB, bob_bet, interaction_id=snowflake(NOW, 4))
    assert replay.replayed and reloaded.version == version
    assert reloaded.game.phase is Phase.BETTING  # Bob's bet was rolled back in memory too
    assert reloaded.game.public_view().seat(BOB) is not None
    escrow = await table_escrow(fresh.bank.db, GUILD, reloaded.id)
    assert escrow.get("pot", 0) == 10  # only the host's bet
    # an interaction from before the process started is looked up in the database
    old = make(db)
    old._started_ms = int((NOW + 3600) * 1000)
    [again] = await old.load_open_tables()
    start = Action(ActionKind.START, HOST)
    assert (await old.act(again.id, HOST, start, interaction_id=iid)).replayed
