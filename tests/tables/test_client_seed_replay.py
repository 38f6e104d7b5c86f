"""Client seeds through the table service: the seated players' seeds go into the shoe at its
shuffle, that move is a snapshot point, and a table rebuilt from its row and log (a crash's
recovery, another process) deals the same order without reading any seed."""

from __future__ import annotations

from bot.bank import Bank
from bot.engine.base import Action, ActionKind, Phase
from bot.engine.shuffle import seeded_entropy
from bot.tables import TableService
from bot.tables.client_seeds import ClientSeeds
from tests.tables.opening import HOST, open_game

BOB = 102
NOW = 1_800_000_000.0


def make(db, seeds: ClientSeeds | None) -> TableService:
    entropy = seeded_entropy("client-seed-replay")
    return TableService(db, Bank(db), clock=lambda: NOW, entropy=entropy, seeds=seeds)


async def test_the_shuffle_reads_the_seeds_and_a_rebuilt_table_deals_the_same(db):
    seeds = ClientSeeds(db, seeded_entropy("defaults"))
    svc = make(db, seeds)
    table = await open_game(svc, "classic", channel=7, players=(BOB,), buy_in=100)
    await seeds.set(BOB, "bob-seed")
    host_default = await seeds.of(HOST)  # drawn once, stored
    assert len(host_default) == 16 and await ClientSeeds(db).of(HOST) == host_default

    await svc.act(table.id, HOST, Action(ActionKind.START, HOST))
    shoe = table.game.shoe
    assert shoe is not None and shoe.clients == ((HOST, host_default), (BOB, "bob-seed"))
    assert table.snapshot_version == table.version  # the shuffle was a snapshot point
    await svc.act(table.id, HOST, Action(ActionKind.BET, HOST, amount=10))
    await svc.act(table.id, BOB, Action(ActionKind.BET, BOB, amount=10))  # deals: logged only
    assert table.version > table.snapshot_version and table.game.phase is not Phase.BETTING
    await seeds.set(BOB, "later")  # for the next shoe: the one in use keeps its seeds

    rebuilt = await make(db, None).committed(table.id)  # no seed source at all
    assert rebuilt is not None and rebuilt.version == table.version
    again = rebuilt.game.shoe
    assert again is not None and again.clients == shoe.clients
    assert (again.order, again.pos) == (shoe.order, shoe.pos)
    assert rebuilt.game.to_dict() == table.game.to_dict()
