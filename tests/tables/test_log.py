"""The action log and the snapshots: a move between snapshot points writes only its action
row; a load (a restart, a failed transaction's restore) replays the log after the row's
snapshot and gets the table back exactly (snapshot, version, deadline, idle timer), for
each game, on both databases. The hypothesis property (every step of random play, restored
from the database == the live table) is in ``test_log_properties.py``."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.bank import Bank
from bot.db import Database, IntegrityError
from bot.engine.base import Action, ActionKind, IllegalAction, Phase
from bot.engine.shuffle import seeded_entropy
from bot.errors import UserError
from bot.tables import StaleTable, Table, TableService
from bot.tables import service as service_module
from bot.tables.store import MoveRecord
from tests.bank_audit import assert_audit_clean
from tests.sql import fetchone
from tests.tables.opening import GUILD, HOST, open_game

K = ActionKind
BOB, CAROL = 102, 103
SEATED = (BOB, CAROL)
GAMES = ("classic", "casino21", "pirate21", "sept_et_demi")
# what the driver never chooses: seat changes, money and the system's own actions
NOT_MOVES = frozenset({K.JOIN, K.CLOSE, K.LEAVE, K.TOP_UP, K.VOTE_STOP, K.TIMEOUT, K.SIT_OUT})
BETWEEN = (Phase.LOBBY, Phase.BETWEEN_ROUNDS, Phase.FINISHED)


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def service(db: Database, clock: Clock, label: str = "log") -> TableService:
    return TableService(db, Bank(db), clock=clock, entropy=seeded_entropy(label))


def candidates(table: Table) -> list[Action]:
    """Every legal move of the seated players and the host, with a plausible argument."""
    game: Any = table.game
    out: list[Action] = []
    for actor in sorted({*game.seated(), HOST}):
        for kind in sorted(game.legal_actions(actor) - NOT_MOVES, key=lambda k: k.value):
            if kind is K.BET:
                low, high = game.bet_limits(actor)
                out.append(Action(kind, actor, amount=max(low, min(high, 10))))
            elif kind is K.DRAW:
                out += [Action(kind, actor, amount=n) for n in (0, 1, 2)]
            elif kind is K.CHOOSE_ACE:
                out.append(Action(kind, actor, value=11))
            else:
                out.append(Action(kind, actor))
    return out


async def one_move(svc: TableService, table: Table, rng: random.Random, clock: Clock) -> bool:
    """A random legal move at a later time; False when nothing could be played."""
    moves = candidates(table)
    rng.shuffle(moves)
    for action in moves:
        clock.now += rng.choice((1.0, 7.0, 30.0))
        try:
            await svc.act(table.id, action.player, action)
        except (IllegalAction, UserError):
            continue
        return True
    return False


async def mid_round(svc: TableService, table: Table, clock: Clock, *, after: int = 3) -> None:
    """Play until the table is mid-round with ``after`` moves logged after its snapshot."""
    rng = random.Random(table.game_key)
    for _ in range(400):
        if table.version - table.snapshot_version >= after and table.game.phase not in BETWEEN:
            return
        assert await one_move(svc, table, rng, clock), "no move could be played"
    raise AssertionError("never mid-round with moves after the snapshot")


async def mid_round_game(db: Database, game: str) -> tuple[TableService, Table, Clock]:
    """A table of ``game`` opened and played mid-round (moves logged after its snapshot)."""
    clock = Clock()
    svc = service(db, clock)
    table = await open_game(svc, game, players=SEATED)
    await mid_round(svc, table, clock)
    return svc, table, clock


def exact(table: Table) -> tuple[Any, ...]:
    """What a load must give back: snapshot, version, timers, the service's fields."""
    return (
        table.snapshot_json(),
        table.version,
        table.deadline_key,
        table.deadline_due,
        table.idle_due,
        dict(table.last_acted),
        table.round_no,
        table.round_version,
    )


async def row_version(db: Database, table_id: int) -> int:
    row = await fetchone(db, "SELECT version FROM tables WHERE id = ?", (table_id,))
    assert row is not None
    return int(row[0])


@pytest.mark.parametrize("game", GAMES)
async def test_a_restart_between_snapshots_loads_the_table_exactly(db, game) -> None:
    _svc, table, clock = await mid_round_game(db, game)
    # the moves after the snapshot are only in the log: the row stayed behind
    assert await row_version(db, table.id) == table.snapshot_version < table.version - 2
    before = exact(table)
    clock.now += 600  # the restart takes a while: nothing may depend on the load's time
    restarted = service(db, clock, "other entropy")
    [loaded] = await restarted.load_open_tables()
    assert exact(loaded) == before
    assert loaded.snapshot_version == table.snapshot_version
    rng = random.Random(3)  # and it plays on from there
    for _ in range(6):
        assert await one_move(restarted, loaded, rng, clock)
    [again] = await service(db, clock).load_open_tables()
    assert exact(again) == exact(loaded)
    await assert_audit_clean(db)


@pytest.mark.parametrize("game", GAMES)
async def test_a_failed_transaction_restores_the_logged_moves(db, game) -> None:
    svc, table, clock = await mid_round_game(db, game)
    before = exact(table)
    real = svc._write_move

    async def then_fails(c: Any, *args: Any, **kwargs: Any) -> None:
        await real(c, *args, **kwargs)  # the rows are written, then the transaction fails
        raise RuntimeError("the disk is full")

    svc._write_move = then_fails  # type: ignore[method-assign]
    rng = random.Random(2)
    with pytest.raises(RuntimeError, match="disk"):
        await one_move(svc, table, rng, clock)
    # memory is back at the last committed move, not at the row's older snapshot
    assert exact(table) == before
    del svc._write_move
    assert await one_move(svc, table, rng, clock)  # and the table plays on
    [loaded] = await service(db, clock).load_open_tables()
    assert exact(loaded) == exact(table)
    await assert_audit_clean(db)


async def test_only_snapshot_points_serialise_the_snapshot(db, monkeypatch) -> None:
    clock = Clock()
    svc = service(db, clock)
    table = await open_game(svc, "classic", players=SEATED)
    snapshots: list[int] = []
    real = Table.snapshot_json

    def counted(self: Table) -> str:
        snapshots.append(self.version)
        return real(self)

    monkeypatch.setattr(Table, "snapshot_json", counted)
    await svc.act(table.id, HOST, Action(K.START, HOST))  # the shoe's seed is drawn: one
    assert len(snapshots) == 1 and await row_version(db, table.id) == table.version == 4
    for player in (HOST, BOB, CAROL):  # the bets, the deal (from that shoe): the log only
        await svc.act(table.id, player, Action(K.BET, player, amount=10))
    assert len(snapshots) == 1 and await row_version(db, table.id) == 4 < table.version == 7
    while table.game.phase is Phase.PLAYING:  # the round's moves, then its settlement: one
        player = table.game.to_act
        await svc.act(table.id, player, Action(K.STAND, player))
    assert len(snapshots) == 2 and await row_version(db, table.id) == table.version


async def test_a_move_that_draws_a_seed_is_a_snapshot_point(db, monkeypatch) -> None:
    """Without it a replay would ask the entropy for the shoe's seed again (refused)."""
    clock = Clock()
    svc = service(db, clock)
    table = await open_game(svc, "classic", players=SEATED)
    shoes: list[int] = []
    real = svc._entropy

    def drawn(n: int) -> bytes:
        shoes.append(table.version + 1)
        return real(n)

    monkeypatch.setattr(svc, "_entropy", drawn)
    table.game.entropy = drawn  # type: ignore[union-attr]
    await mid_round(svc, table, clock, after=1)
    assert shoes, "no shoe was shuffled"
    rows = await fetchone(db, "SELECT version FROM tables WHERE id = ?", (table.id,))
    assert rows is not None and rows[0] >= max(shoes)
    [loaded] = await service(db, clock).load_open_tables()
    assert exact(loaded) == exact(table)


async def test_snapshots_come_at_least_every_k_versions(db, monkeypatch) -> None:
    monkeypatch.setattr(service_module, "SNAPSHOT_EVERY", 4)
    clock = Clock()
    svc = service(db, clock)
    table = await open_game(svc, "classic", "auto_next=off")
    for player in range(200, 205):  # joins only: no round, no seed, no settlement
        await svc.join(table.id, player, 20)
        assert table.version - await row_version(db, table.id) < 4
    assert (table.snapshot_version, table.version) == (5, 6)
    [loaded] = await service(db, clock).load_open_tables()
    assert exact(loaded) == exact(table)


async def test_a_second_writer_of_a_version_is_stale_not_a_replay(db) -> None:
    clock = Clock()
    svc = service(db, clock)
    table = await open_game(svc, "classic", players=SEATED)
    await svc.act(table.id, HOST, Action(K.START, HOST), interaction_id=77)

    def start(version: int, interaction_id: int) -> MoveRecord:
        return MoveRecord(
            guild_id=GUILD,
            table_id=table.id,
            version=version,
            user_id=BOB,
            interaction_id=interaction_id,
            action_json='{"kind":"start"}',
            at=clock.now,
            since=table.snapshot_version,
        )

    with pytest.raises(StaleTable):  # the same version, another interaction
        await db.write(svc._write_move, start(table.version, 78))
    with pytest.raises(IntegrityError, match="interaction_id"):  # a replay stays one
        await db.write(svc._write_move, start(table.version + 1, 77))


@pytest.mark.parametrize("game", GAMES)
async def test_a_clean_stop_saves_the_snapshots_and_the_start_replays_nothing(db, game) -> None:
    svc, table, clock = await mid_round_game(db, game)
    before = exact(table)
    assert await svc.save_snapshots() == 1
    assert await row_version(db, table.id) == table.version == table.snapshot_version
    assert await svc.save_snapshots() == 0  # nothing new since
    clock.now += 600
    restarted = service(db, clock, "other entropy")
    replayed = count_replays(restarted)
    [loaded] = await restarted.load_open_tables()
    assert replayed == [] and exact(loaded) == before
    rng = random.Random(4)  # the log goes on from the saved snapshot
    for _ in range(4):
        assert await one_move(restarted, loaded, rng, clock)
    [again] = await service(db, clock).load_open_tables()
    assert exact(again) == exact(loaded)
    await assert_audit_clean(db)


async def test_the_bot_saves_the_snapshots_when_it_stops(tmp_path) -> None:
    from bot.app import create_bot
    from bot.db import migrate, open_database

    path = str(tmp_path / "stop.sqlite3")
    bot = create_bot(database_path=path, entropy=seeded_entropy("stop"))
    db = await open_database(path)
    await migrate(db)
    await bot.start_services(db)  # the services as setup_hook builds them, no gateway
    table = await open_game(bot.tables, "classic", players=SEATED)
    await mid_round(bot.tables, table, Clock())
    assert table.snapshot_version < table.version
    await bot.close()
    db = await open_database(path)
    try:
        assert await row_version(db, table.id) == table.version
    finally:
        await db.close()


def count_replays(svc: TableService) -> list[int]:
    """The versions ``svc`` replays from now on."""
    replayed: list[int] = []
    real = svc._replay

    def counted(t: Table, actions: Any, last_at: float) -> float:
        actions = list(actions)
        replayed.extend(a[1] for a in actions)
        return real(t, actions, last_at)

    svc._replay = counted  # type: ignore[method-assign]
    return replayed


async def crashed(db: Database, game: str) -> tuple[Table, Clock]:
    """A table mid-round with moves logged after its snapshot, its process gone (a crash)."""
    _svc, table, clock = await mid_round_game(db, game)
    clock.now += 600
    return table, clock


@pytest.mark.parametrize("game", GAMES)
async def test_after_a_crash_a_table_replays_at_its_first_use(db, game) -> None:
    """The start-up reads the rows and the log but builds nothing (10,000 tables mid-deal
    took 3.6 s to READY): the table's channel finds it, and that use builds and replays it,
    timers included."""
    table, clock = await crashed(db, game)
    restarted = service(db, clock, "other entropy")
    replayed = count_replays(restarted)
    assert await restarted.load() == 1
    assert replayed == [] and restarted.next_due() is None  # its timers come with it
    loaded = restarted.table_in(500)
    assert loaded is not None and exact(loaded) == exact(table)
    assert replayed == list(range(table.snapshot_version + 1, table.version + 1))
    assert restarted.next_due() == min(d for d in (loaded.idle_due, loaded.deadline_due) if d)
    assert restarted.get(table.id) is loaded and replayed[-1] == table.version  # once
    assert await one_move(restarted, loaded, random.Random(5), clock)
    await assert_audit_clean(db)


async def test_a_move_on_a_table_not_yet_replayed_plays_on_the_replayed_table(db) -> None:
    table, clock = await crashed(db, "classic")
    restarted = service(db, clock, "other entropy")
    await restarted.load()
    for action in candidates(table):  # what the live table allowed, tried on the restart
        try:
            out = await restarted.act(table.id, action.player, action)
        except (IllegalAction, UserError):
            continue
        break
    else:
        raise AssertionError("no move was accepted after the restart")
    assert out.table.version == table.version + 1
    [again] = await service(db, clock).load_open_tables()
    assert exact(again) == exact(out.table)


async def test_the_pending_tables_build_after_ready_and_a_broken_log_stops_only_its_table(
    db, caplog
) -> None:
    clock = Clock()
    svc = service(db, clock)
    whole = await open_game(svc, "classic", players=SEATED)
    await svc.save_snapshots()  # nothing logged after its snapshot: loaded whole
    broken = await open_game(svc, "casino21", channel=501, players=(BOB,))
    await mid_round(svc, broken, clock)
    await db.write(
        lambda c: c.execute(
            "DELETE FROM table_actions WHERE table_id = ? AND version = ?",
            (broken.id, broken.snapshot_version + 1),
        )
    )
    restarted = service(db, clock)
    assert await restarted.load() == 2 and restarted.next_due() is None
    assert await restarted.build_pending() == 1  # the broken one: logged, the rest go on
    assert "could not load table" in caplog.text
    assert restarted.get(whole.id).version == whole.version and restarted.next_due()
    assert restarted.open_tables() == [restarted.get(whole.id)]  # a sweep, a re-render go on
    with pytest.raises(RuntimeError, match="no action logged"):
        restarted.get(broken.id)  # each use says it, as the start-up did before


async def test_the_warm_up_remembers_the_accounts_the_first_moves_post_to(db) -> None:
    """After a start a table's first postings found each account id with a SELECT (a cold
    index page: ~50 µs of its first deal); the warm-up reads them all in one query."""
    clock = Clock()
    svc = service(db, clock)
    table = await open_game(svc, "classic", players=SEATED)
    await svc.act(table.id, HOST, Action(K.START, HOST))
    for player in (HOST, BOB, CAROL):  # the last bet deals
        await svc.act(table.id, player, Action(K.BET, player, amount=10))
    while table.game.phase is Phase.PLAYING:  # the round settles: its accounts all exist
        await svc.act(table.id, table.game.to_act, Action(K.STAND, table.game.to_act))
    db.memo.values.clear()  # a new process remembers nothing
    restarted = service(db, clock)
    await restarted.load()
    await restarted.warm_up()
    accounts = {k for k in db.memo.values if k[0] == "account"}
    assert {k[2] for k in accounts if k[3] == table.id} >= {"seat", "pot"}
    assert ("account", GUILD, "house", 0, 0) in accounts
    if restarted.get(table.id).game.phase is not Phase.BETTING:  # not started by itself
        await restarted.act(table.id, HOST, Action(K.START, HOST))
    for player in (HOST, BOB, CAROL):  # bets and the deal: every account id remembered
        await restarted.act(table.id, player, Action(K.BET, player, amount=10))
    assert {k for k in db.memo.values if k[0] == "account"} == accounts
