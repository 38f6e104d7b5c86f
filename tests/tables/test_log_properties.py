"""Random play through the real service (``money_model.World``: moves, joins, leaves,
kicks, top-ups, timeouts, refused and illegal commands, closes), and after every step each
open table as the database gives it back (its snapshot and the logged actions after it,
replayed) is the live table: snapshot, version, deadline and idle timer."""

from __future__ import annotations

import asyncio
import os
import tempfile

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.tables import Table
from tests.tables.money_model import GAMES, QUICK, World

LOG_QUICK = settings(QUICK, max_examples=10)


def state(table: Table, idle_due: float) -> tuple[object, ...]:
    return (
        table.snapshot_json(),
        table.version,
        table.deadline_key,
        table.deadline_due,
        idle_due,
        dict(table.last_acted),
        table.round_no,
        table.round_version,
    )


async def check_restores(world: World) -> int:
    """Each open table restored from the database equals the live one; the number of
    tables whose log after the snapshot was not empty."""
    logged = 0
    for table in world.open_tables():
        loaded = await world.service.committed(table.id)
        assert loaded is not None
        live = state(table, table.idle_due)
        assert state(loaded, loaded.moved_at + loaded.settings.idle_timer) == live, world.steps
        logged += table.version > table.snapshot_version
    return logged


async def play(game: str, data: st.DataObject, steps: int) -> int:
    with tempfile.TemporaryDirectory() as folder:
        world = World(game, os.path.join(folder, "log.sqlite3"), data.draw(st.integers(0, 2**32)))
        await world.start()
        logged = 0
        try:
            for _ in range(data.draw(st.integers(steps // 2, steps))):
                await world.step(data)
                logged += await check_restores(world)
        finally:
            await world.stop()
    return logged


LOGGED: dict[str, int] = {}


@pytest.mark.parametrize("game", GAMES)
def test_the_database_gives_back_the_live_table_after_every_step(game: str) -> None:
    LOGGED[game] = 0

    @LOG_QUICK
    @given(data=st.data())
    def prop(data: st.DataObject) -> None:
        LOGGED[game] += asyncio.run(play(game, data, steps=40))

    prop()
    assert LOGGED[game] > 0  # some checks had moves after the snapshot to replay
