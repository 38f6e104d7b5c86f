"""Private tables' invites (bot/tables/invites.py) on both databases: the host is always
admitted, a stranger never, an invite is in the database first, and a process whose copy
of the invites is older than another's invite still seats the member (a takeover)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.bank import Bank
from bot.engine.shuffle import seeded_entropy
from bot.tables import TableError, TableService
from bot.tables.invites import Invites
from tests.sql import fetchall
from tests.tables.opening import GUILD, HOST


async def open_private(svc: TableService) -> int:
    settings, options = svc.parse("blackjack", "", locale="en", name="secret")
    out = await svc.open_table(
        guild_id=GUILD,
        channel_id=700,
        parent_id=None,
        game_key="blackjack",
        host_id=HOST,
        settings=replace(settings, private=True),
        options=options,
    )
    return out.table.id


async def test_only_the_invited_sit_and_an_older_copy_asks_the_database(db) -> None:
    svc = TableService(db, Bank(db), clock=lambda: 1000.0, entropy=seeded_entropy("inv"))
    table_id = await open_private(svc)
    table = svc.get(table_id)
    other = Invites(db)  # another process's copy, read before the invite
    await other.load()
    with pytest.raises(TableError) as refused:
        await svc.join(table_id, 202, None)
    assert refused.value.code == "private_not_invited" and 202 not in table.game.seated()
    assert await svc.invites.invite(table_id, 202)
    assert not await svc.invites.invite(table_id, 202)  # twice: nothing more
    assert [tuple(r) for r in await fetchall(db, "SELECT * FROM table_invites")] == [
        (table_id, 202)
    ]
    assert not other.admits(table, 202)  # its memory is older ...
    assert await other.may_join(table, 202)  # ... the database says yes
    assert other.admits(table, 202)
    await svc.join(table_id, 202, None)
    assert 202 in table.game.seated()
    assert await svc.invites.uninvite(table_id, 202)
    assert not await svc.invites.uninvite(table_id, 202)
    assert not await svc.invites.may_join(table, 202)
    assert await svc.invites.may_join(table, HOST)
    await svc.close_table(table_id, HOST, "host")
