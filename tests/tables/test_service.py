"""The table service: one transaction per move, idempotent interactions, stale buttons,
restored state after a refused posting, timers."""

from __future__ import annotations

import pytest

from bot.bank import Bank
from bot.engine.base import Action, ActionKind, IllegalAction, InvalidOptions, Phase
from bot.engine.shuffle import seeded_entropy
from bot.tables import StaleAction, TableError, TableService
from bot.tables.store import MoveRecord
from tests.bank.ledger import table_escrow
from tests.bank_audit import assert_audit_clean
from tests.sql import fetchall, fetchone
from tests.tables.opening import GUILD, HOST, open_game

BOB = 102


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
async def service(db):
    svc = TableService(db, Bank(db), clock=Clock(), entropy=seeded_entropy("svc"))
    yield svc
    await assert_audit_clean(db)


async def test_open_seats_the_host_with_a_buy_in(service, db):
    table = await open_game(service, "classic")
    assert table.version == 1 and service.table_in(500) is table
    bank = service.bank
    assert await bank.balance(GUILD, HOST) == 800
    escrow = await table_escrow(bank.db, GUILD, table.id)
    assert escrow[f"seat:{HOST}"] == 200
    with pytest.raises(TableError) as err:
        await open_game(service, "classic")
    assert err.value.key == "table.error.table_exists"


async def test_options_are_validated(service):
    with pytest.raises(InvalidOptions) as err:
        service.parse("classic", "decks=12", locale="en", name="t")
    assert (err.value.code, err.value.params["option"]) == ("out_of_range", "decks")
    with pytest.raises(InvalidOptions):
        service.parse("classic", "colour=red", locale="en", name="t")
    settings, options = service.parse(
        "classic", "decks=2 surrender=on pace=forum", locale="en", name="t"
    )
    assert options == {"decks": 2, "surrender": True} and settings.pace == "forum"


async def test_a_round_with_interaction_ids_and_stale_buttons(service, db):
    table = await open_game(service, "classic")
    await service.join(table.id, BOB, 100)
    out = await service.act(table.id, HOST, Action(ActionKind.START, HOST), interaction_id=11)
    assert table.game.phase is Phase.BETTING
    again = await service.act(table.id, HOST, Action(ActionKind.START, HOST), interaction_id=11)
    assert again.replayed and again.events == []
    version = table.version
    await service.act(table.id, HOST, Action(ActionKind.BET, HOST, amount=10), seen_version=version)
    # the same button pressed twice: the second click carries the old version
    with pytest.raises(StaleAction):
        await service.act(
            table.id, HOST, Action(ActionKind.BET, HOST, amount=10), seen_version=version
        )
    # another player's click on the same rendering still counts
    await service.act(table.id, BOB, Action(ActionKind.BET, BOB, amount=10), seen_version=version)
    assert out.table.game.phase in (
        Phase.PLAYING,
        Phase.INSURANCE,
        Phase.BETWEEN_ROUNDS,
        Phase.BETTING,
    )
    rows = await fetchall(db, "SELECT version FROM table_actions WHERE table_id = ?", (table.id,))
    assert [r[0] for r in rows] == list(range(1, table.version + 1))


async def test_illegal_action_changes_nothing(service, db):
    table = await open_game(service, "classic")
    before = (table.version, table.snapshot_json())
    with pytest.raises(IllegalAction):
        await service.act(table.id, HOST, Action(ActionKind.HIT, HOST))
    assert (table.version, table.snapshot_json()) == before
    row = await fetchone(db, "SELECT version, state FROM tables WHERE id = ?", (table.id,))
    assert (row[0], row[1]) == before


async def test_refused_posting_restores_the_game(service, db):
    table = await open_game(service, "classic")
    # BOB asks to bring more than his balance: the bank refuses inside the transaction
    with pytest.raises(Exception):  # noqa: B017 - the bank's InsufficientFunds
        await service.join(table.id, BOB, 5000)
    assert BOB not in table.game.seated()
    row = await fetchone(db, "SELECT state FROM tables WHERE id = ?", (table.id,))
    assert row[0] == table.snapshot_json()
    await service.join(table.id, BOB, 100)  # and the table goes on


async def test_a_posting_refused_after_others_leaves_no_part_of_the_move(service, db):
    """A move's postings run without a savepoint of their own: when a later one is
    refused, the whole move's transaction rolls back, the earlier postings with it."""
    from bot.engine.base import Money, MoneyKind

    table = await open_game(service, "classic")
    entries = (await fetchone(db, "SELECT COUNT(*) FROM bank_entries"))[0]
    seat = f"seat:{HOST}"
    fine, too_much = Money(MoneyKind.BET, seat, "pot", 1), Money(MoneyKind.BET, seat, "pot", 10**9)
    move = MoveRecord(
        guild_id=GUILD,
        table_id=table.id,
        version=table.version + 1,
        user_id=HOST,
        interaction_id=None,
        action_json="{}",
        at=1.0,
        since=table.version,
        state_json=table.snapshot_json(),
        round_no=1,
        money=[fine, too_much],
    )
    with pytest.raises(Exception):  # noqa: B017 - the bank's InsufficientFunds
        await db.write(service._write_move, move)
    assert (await fetchone(db, "SELECT COUNT(*) FROM bank_entries"))[0] == entries
    row = await fetchone(db, "SELECT version FROM tables WHERE id = ?", (table.id,))
    assert row[0] == table.version
    await db.write(service._write_move, move._replace(money=[fine]))
    assert (await fetchone(db, "SELECT COUNT(*) FROM bank_entries"))[0] == entries + 1


async def test_bet_timer_sits_out_and_idle_closes(service, db):
    table = await open_game(service, "classic")
    await service.act(table.id, HOST, Action(ActionKind.START, HOST))
    clock = service.clock
    due = service.next_due()
    assert due == clock.now + 60
    clock.now = due
    fired = [await service.fire(*t) for t in service.pop_due(clock.now)]
    assert fired and table.game.phase is not Phase.BETTING
    clock.now += 30 * 60
    for t in service.pop_due(clock.now):
        await service.fire(*t)
    assert not table.is_open and service.table_in(500) is None
    claims = await service.bank.claims(GUILD, HOST)
    assert sum(c.amount for c in claims) == 200


async def test_restart_reloads_open_tables(service, db):
    table = await open_game(service, "classic")
    await service.join(table.id, BOB, 100)
    await service.act(table.id, HOST, Action(ActionKind.START, HOST))
    fresh = TableService(db, service.bank, clock=service.clock, entropy=seeded_entropy("svc"))
    [loaded] = await fresh.load_open_tables()
    assert loaded.version == table.version
    assert loaded.game.to_dict() == table.game.to_dict()
    assert fresh.next_due() == service.next_due()
    # the timers are derived from the committed row: the same deadline and idle timeout
    later = service.clock.now + 10**6
    due = sorted(fresh.pop_due(later))
    assert due == sorted(service.pop_due(later))
    assert {kind for _, kind, _ in due} == {"deadline", "idle"}


async def test_a_refused_join_opens_no_account(service, db):
    table = await open_game(service, "classic")
    for player in range(201, 207):  # the table fills up: 7 seats
        await service.join(table.id, player, 50)
    with pytest.raises(IllegalAction) as err:
        await service.join(table.id, 300, None)
    assert err.value.code == "table_full"
    row = await fetchone(
        db, "SELECT COUNT(*) FROM bank_accounts WHERE kind = 'player' AND user_id = 300"
    )
    assert row[0] == 0
    # a join that goes through opens the account (with its starting balance) with the buy-in
    await service.act(table.id, 201, Action(ActionKind.LEAVE, 201))
    await service.join(table.id, 300, None)
    assert await service.bank.balance(GUILD, 300) == 800


async def test_moves_keep_one_idle_and_one_deadline_entry_per_table(service, db):
    """Every move pushes the idle timeout later; the heap still holds one idle entry per
    table (and one deadline entry per turn), not two entries per move."""
    table = await open_game(service, "classic")
    await service.join(table.id, BOB, 500)
    clock = service.clock
    for _ in range(30):
        clock.now += 1
        await service.act(table.id, BOB, Action(ActionKind.TOP_UP, BOB, amount=1))
    assert service.timer_entries <= 2
    # the idle timeout counts from the last move: nothing is due at the first one's
    first_idle = clock.now - 29 + 30 * 60
    assert service.pop_due(first_idle) == []
    assert service.next_due() == clock.now + 30 * 60
    assert [kind for _, kind, _ in service.pop_due(clock.now + 30 * 60)] == ["idle"]


async def test_a_move_between_popping_and_firing_a_deadline_keeps_it(service, db):
    """A deadline taken off the heap whose table moves before it fires (the turn goes on)
    is armed again by that move, and fires later."""
    table = await open_game(service, "classic")
    await service.join(table.id, BOB, 500)
    await service.act(table.id, HOST, Action(ActionKind.START, HOST))
    clock = service.clock
    clock.now = service.next_due()
    [(table_id, kind, version)] = service.pop_due(clock.now)
    assert kind == "deadline" and table.game.phase is Phase.BETTING
    await service.act(table.id, HOST, Action(ActionKind.BET, HOST, amount=10))
    assert await service.fire(table_id, kind, version) is None  # the table moved
    assert table.game.phase is Phase.BETTING  # Bob has not bet: the same deadline runs
    assert service.next_due() == clock.now
    fired = [await service.fire(*t) for t in service.pop_due(clock.now)]
    assert fired and table.game.phase is not Phase.BETTING


async def test_a_cash_out_over_the_guild_limit_is_held(service, db):
    """A move's postings read the guild's claim limit only for a cash-out: it still
    applies (200 over a limit of 150 is held, 100 under it is not)."""
    table = await open_game(service, "classic")
    await service.join(table.id, BOB, 100)
    await service.bank.configure_guild(GUILD, claim_approval_limit=150)
    await service.act(table.id, BOB, Action(ActionKind.LEAVE, BOB))
    await service.act(table.id, HOST, Action(ActionKind.LEAVE, HOST))
    claims = {c.user_id: (c.amount, c.status) for c in await service.bank.claims(GUILD)}
    assert claims == {HOST: (200, "held"), BOB: (100, "pending")}


async def test_warm_up_shuffles_the_loaded_shoes_before_any_deal(service, db, monkeypatch):
    import bot.engine.shuffle as shuffle

    shuffles: list[int] = []
    real = shuffle.shuffled

    def counted(items, seed):
        shuffles.append(len(items))
        return real(items, seed)

    monkeypatch.setattr(shuffle, "shuffled", counted)
    dealt = await open_game(service, "classic")  # a round played: its shoe is in the snapshot
    await service.join(dealt.id, BOB, 100)
    await service.act(dealt.id, HOST, Action(ActionKind.START, HOST))
    for player in (HOST, BOB):
        await service.act(dealt.id, player, Action(ActionKind.BET, player, 10))
    assert dealt.game.shoe is not None and dealt.game.phase is Phase.PLAYING
    await open_game(service, "classic", channel=501)  # a lobby: no shoe yet
    fresh = TableService(db, service.bank, clock=service.clock, entropy=seeded_entropy("svc"))
    shuffles.clear()
    loaded = {t.id: t for t in await fresh.load_open_tables()}
    # the deal is in the action log after the round's snapshot: replaying it at the load
    # shuffles the shoe there; a table whose log draws no card leaves it to the warm-up
    assert await fresh.warm_up() == 1
    assert shuffles == [312]  # the six-deck shoe, shuffled once, before any deal
    table = loaded[dealt.id]
    while table.game.phase is Phase.PLAYING:  # the round's moves, then the next deal
        player = table.game.to_act
        await fresh.act(table.id, player, Action(ActionKind.STAND, player))
    if table.game.phase is Phase.BETWEEN_ROUNDS:
        await fresh.act(table.id, HOST, Action(ActionKind.START, HOST))
    assert table.game.phase is Phase.BETTING
    for player in (HOST, BOB):
        await fresh.act(table.id, player, Action(ActionKind.BET, player, 10))
    assert table.game.phase is not Phase.BETTING and table.game.round == 2
    assert shuffles == [312]


async def test_a_table_that_fails_to_warm_up_is_skipped_and_the_others_warmed(service, db, caplog):
    class Broken:
        @property
        def order(self):
            raise RuntimeError("corrupt shoe")

    tables = []
    for channel in (601, 602):
        table = await open_game(service, "classic", channel=channel)
        await service.join(table.id, BOB + channel, 100)
        await service.act(table.id, HOST, Action(ActionKind.START, HOST))
        for player in (HOST, BOB + channel):
            await service.act(table.id, player, Action(ActionKind.BET, player, 10))
        tables.append(table)
    tables[0].game.shoe = Broken()
    assert await service.warm_up() == 1
    assert tables[1].game.shoe._order is not None  # the other one is warm
    assert "could not warm table" in caplog.text
