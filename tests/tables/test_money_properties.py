"""Money can never be created: a property test per game through the table service, the
real bank and a real SQLite database (machinery and the invariant: ``money_model.py``).

Each example plays random sequences of commands by four players and checks, after every
step, a clean audit and that nobody holds more than they started with plus what settled
results paid them. The tests at the end inject one-unit faucets (and the old Casino 21
close) and show that the property fails on each."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import Phase, given, settings
from hypothesis import strategies as st

from bot.engine.base import HOUSE, Event, Money, MoneyKind, seat
from bot.engine.games import casino21
from bot.tables import replay
from bot.tables import service as table_service
from bot.tables.store import MoveRecord
from tests.tables import money_model
from tests.tables.money_model import GAMES, MIXED, QUICK, MoneyCreated, SettlementRefused, run

LONG = settings(QUICK, max_examples=150)
# the faucet tests: a fixed search that must fail (no shrinking: the failure is the point)
FIND = settings(QUICK, max_examples=60, derandomize=True, phases=[Phase.generate])


@pytest.mark.parametrize("game", GAMES)
@QUICK
@given(data=st.data())
def test_money_is_never_created(game: str, data: st.DataObject) -> None:
    world = run(game, data, steps=40)
    assert world.steps and world.tables  # the example played


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
@LONG
@given(data=st.data())
def test_money_is_never_created_long(game: str, data: st.DataObject) -> None:
    run(game, data, steps=150)


@QUICK
@given(data=st.data())
def test_floats_on_a_small_treasury_settle_every_round(data: st.DataObject) -> None:
    """Several tables of several games on a small treasury: no settlement refused, no
    float negative, the house's accounts add up after every step (money_model: MIXED)."""
    assert run(MIXED, data, steps=60).steps


@pytest.mark.slow
@LONG
@given(data=st.data())
def test_floats_on_a_small_treasury_settle_every_round_long(data: st.DataObject) -> None:
    run(MIXED, data, steps=200)


# ----------------------------------------------------------------- the property has teeth


def faucet_on_close(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every table that closes credits one unit from the treasury (not the table's float,
    which may hold nothing) to a player's seat."""
    write = table_service.TableService._write_move

    async def leaky(self: Any, c: Any, move: MoveRecord) -> Any:
        table_id = move.table_id
        if move.closing:
            extra = Money(MoneyKind.PAYOUT, HOUSE, seat(money_model.PLAYERS[0]), 1)
            leak = (money_model.GUILD, table_id, None, [extra], f"leak:{table_id}", None)
            await self.bank.post_effects(c, *leak, own_savepoint=False)
        return await write(self, c, move)

    monkeypatch.setattr(table_service.TableService, "_write_move", leaky)


@pytest.mark.parametrize("game", GAMES)
def test_a_one_unit_faucet_on_close_fails_the_property(game, monkeypatch):
    faucet_on_close(monkeypatch)

    @FIND
    @given(data=st.data())
    def prop(data: st.DataObject) -> None:
        run(game, data, steps=12)

    with pytest.raises(MoneyCreated):
        prop()


def test_one_unit_extra_on_a_casino21_push_fails_the_property(monkeypatch):
    settle = casino21.Casino21._settle

    def generous(self: casino21.Casino21, events: list[Event]) -> None:
        start = len(events)
        settle(self, events)
        for e in events[start:]:
            if e.kind == "push" and e.player is not None:
                s = self.seat_of(e.player)
                assert s is not None
                s.stack += 1  # the engine and the bank agree: the audit stays clean
                money = (Money(MoneyKind.PAYOUT, HOUSE, seat(e.player), 1, e.player),)
                events.append(Event("tip", money=money))

    monkeypatch.setattr(casino21.Casino21, "_settle", generous)

    @FIND
    @given(data=st.data())
    def prop(data: st.DataObject) -> None:
        run("casino21", data, steps=40)

    with pytest.raises(MoneyCreated):
        prop()


def test_the_old_casino21_close_fails_the_property(monkeypatch):
    """The bug of issue 21: a close cashed every stack out, welcome stake included."""
    settle_seat = casino21.Casino21.settle_seat

    def old(self: casino21.Casino21, s: Any, reason: str, events: list[Event]) -> None:
        if reason != "close":
            settle_seat(self, s, reason, events)
            return
        self.seats.remove(s)
        del self._seat_of[s.player]
        money = (Money(MoneyKind.CASH_OUT, seat(s.player), f"claim:{s.player}", s.stack),)
        data = {"reason": reason, "keep": s.stack, "forfeit": 0}
        events.append(Event("left", player=s.player, data=data, money=money))

    monkeypatch.setattr(casino21.Casino21, "settle_seat", old)

    @FIND
    @given(data=st.data())
    def prop(data: st.DataObject) -> None:
        run("casino21", data, steps=12)

    with pytest.raises(MoneyCreated):
        prop()


def test_the_treasury_wide_cover_of_before_fails_the_property(monkeypatch):
    """Tables without floats, as before issue 35: each bet covered by the treasury, each
    payout from it. Several tables on a small treasury promise the same money twice, and
    a settlement (or a welcome stake, a guarantee fund) is refused."""
    advance = replay.advance

    async def no_float(self: Any, conn: Any, table: Any) -> list[Any]:
        table.has_float = False
        return []

    def never(table: Any, *args: Any) -> bool:
        started = advance(table, *args)
        table.has_float = False
        return started

    monkeypatch.setattr(table_service.TableService, "_draw_float", no_float)
    monkeypatch.setattr(replay, "advance", never)  # the live moves' and the replays'

    @FIND
    @given(data=st.data())
    def prop(data: st.DataObject) -> None:
        run(MIXED, data, steps=30)

    with pytest.raises(SettlementRefused):
        prop()
