"""Two processes on one database (a takeover during a rolling restart): each has its own
connections and its own copy of the table. A write from a stale copy is refused, the copy
is reloaded from the database and the player's action is applied to the fresh table; a
timer of the stale copy never fires. Runs on SQLite and on PostgreSQL."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.bank import Bank
from bot.db import Database, open_database
from bot.engine.base import Action, ActionKind, Phase
from bot.engine.shuffle import seeded_entropy
from bot.tables import TableError, TableService
from tests.bank_audit import assert_audit_clean
from tests.sql import committed, fetchall
from tests.tables.opening import HOST, open_game
from tests.tables.test_service import BOB, Clock


@pytest.fixture
async def two(db: Database, database_url: str) -> AsyncIterator[tuple[TableService, TableService]]:
    """Process A (the old one) and process B (the new one), each on its own connections."""
    clock = Clock()
    other = await open_database(database_url)
    a = TableService(db, Bank(db), clock=clock, entropy=seeded_entropy("a"))
    b = TableService(other, Bank(other), clock=clock, entropy=seeded_entropy("b"))
    yield a, b
    await assert_audit_clean(db)
    await other.close()


async def test_a_stale_copy_is_refused_reloaded_and_the_move_applied(two, db) -> None:
    a, b = two
    table = await open_game(a, "classic")
    await a.join(table.id, BOB, 100)
    await a.act(table.id, HOST, Action(ActionKind.START, HOST))
    [taken] = await b.load_open_tables()  # B takes the guild over mid-round
    await b.act(taken.id, HOST, Action(ActionKind.BET, HOST, amount=10))
    assert (await committed(db, table.id))[0] == taken.version == table.version + 1
    # that bet is in the action log only (the row keeps the round's snapshot): what refuses
    # A below is the log's one row per (table, version), and A's reload replays the bet
    row = await fetchall(db, "SELECT version FROM tables WHERE id = ?", (table.id,))
    assert row[0][0] < taken.version
    # A still plays from its copy: its write is refused, A reloads, Bob's bet goes through
    out = await a.act(table.id, BOB, Action(ActionKind.BET, BOB, amount=20))
    fresh = a.get(table.id)
    assert fresh is not table and out.table is fresh
    assert fresh.version == taken.version + 1
    version, state = await committed(db, table.id)
    assert version == fresh.version and state == fresh.snapshot_json()
    assert fresh.game.phase is not Phase.BETTING  # both bets are in: the deal went on
    bets = await fetchall(
        db, "SELECT COUNT(*) FROM bank_entries WHERE kind = 'bet' AND table_id = ?", (table.id,)
    )
    assert bets[0][0] == 2  # Bob's bet once, the host's once: no lost or doubled posting


async def test_the_stale_copys_timer_never_fires(two, db) -> None:
    a, b = two
    table = await open_game(a, "classic")
    await a.join(table.id, BOB, 100)
    await a.act(table.id, HOST, Action(ActionKind.START, HOST))
    [taken] = await b.load_open_tables()
    await b.act(taken.id, HOST, Action(ActionKind.BET, HOST, amount=10))
    before = await committed(db, table.id)
    later = a.clock.now + 10**6
    fired = [await a.fire(*t) for t in a.pop_due(later)]
    assert fired and all(o is None for o in fired)
    assert await committed(db, table.id) == before  # nothing written by the stale copy
    assert a.get(table.id).version == before[0]  # A reloaded it


async def test_a_table_closed_by_the_other_process_is_refused(two, db) -> None:
    a, b = two
    table = await open_game(a, "classic")
    await a.join(table.id, BOB, 100)
    [taken] = await b.load_open_tables()
    await b.close_table(taken.id, HOST, "host")
    with pytest.raises(TableError) as err:
        await a.act(table.id, HOST, Action(ActionKind.START, HOST))
    assert err.value.code == "closed"
    assert a.table_in(table.channel_id) is None
    with pytest.raises(TableError) as err:  # and the channel is B's to reuse
        await open_game(b, "classic", channel=table.channel_id + 1)
        await open_game(a, "classic", channel=table.channel_id + 1)
    assert err.value.code == "table_exists"


async def test_a_process_loads_only_its_shards_tables(db) -> None:
    clock = Clock()
    opener = TableService(db, Bank(db), clock=clock, entropy=seeded_entropy("o"))
    # Discord's routing: shard = (guild_id >> 22) % shard count; here 3 shards
    guilds = {(k << 22) | 7: k % 3 for k in (3, 4, 5, 7)}
    for channel, guild in enumerate(guilds, start=900):
        settings, options = opener.parse("classic", "", locale="en", name="t")
        await opener.open_table(
            guild_id=guild,
            channel_id=channel,
            parent_id=None,
            game_key="classic",
            host_id=HOST,
            settings=settings,
            options=options,
        )
    for ids in ((0,), (1,), (2,), (0, 2)):
        svc = TableService(db, Bank(db), clock=clock, shards=(3, ids))
        loaded = await svc.load_open_tables()
        assert sorted(t.guild_id for t in loaded) == sorted(
            g for g, shard in guilds.items() if shard in ids
        )
        assert svc.next_due() is not None or not loaded
    everything = TableService(db, Bank(db), clock=clock)
    assert len(await everything.load_open_tables()) == len(guilds)
    await assert_audit_clean(db)
