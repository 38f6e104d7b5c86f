"""Daily pay (issue 39.6): off by default, once per period per member, from the treasury,
refused with the time left, two clicks at once pay once, proved by the audit."""

from __future__ import annotations

import asyncio

import pytest

from bot.bank import Bank, InvalidAmount, audit
from bot.bank.daily import DailyOff, DailyPay, DailyTooSoon, TreasuryShort
from bot.db import Database, open_database
from tests.bank_audit import entry_count

GUILD = 1001
ALICE, BOB = 11, 12
DAY = 24 * 3600


class Clock:
    """A settable clock (seconds)."""

    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def daily(db: Database, clock: Clock) -> DailyPay:
    return DailyPay(db, clock)


async def test_off_by_default_then_once_per_period(
    bank: Bank, db: Database, daily: DailyPay, clock: Clock
) -> None:
    assert (await daily.settings(GUILD)).amount == 0
    with pytest.raises(DailyOff):
        await daily.pay(GUILD, ALICE)
    settings = await daily.configure(GUILD, amount=50)
    assert (settings.amount, settings.hours) == (50, 24)  # 24 h when not given
    paid = await daily.pay(GUILD, ALICE)
    assert (paid.amount, paid.balance, paid.next_at) == (50, 50, clock.now + DAY)
    assert (await bank.guild(GUILD)).treasury == 1_000_000 - 50

    entries = await entry_count(db)
    clock.now += 5 * 3600 + 30  # 5 h in: 18 h 59 min 30 s to go, shown as 19 h 0 min
    with pytest.raises(DailyTooSoon) as refused:
        await daily.pay(GUILD, ALICE)
    assert refused.value.params == {"hours": 19, "minutes": 0, "next_at": int(paid.next_at)}
    assert await entry_count(db) == entries and await bank.balance(GUILD, ALICE) == 50
    assert (await daily.pay(GUILD, BOB)).balance == 50  # per member

    clock.now = paid.next_at  # a whole period later
    assert (await daily.pay(GUILD, ALICE)).balance == 100
    items = (await bank.history(GUILD, ALICE)).items
    assert [(i.kind, i.amount, i.reason) for i in items] == [("transfer", 50, "daily pay")] * 2


async def test_refusals_change_nothing(bank: Bank, db: Database, daily: DailyPay) -> None:
    await daily.configure(GUILD, amount=600, hours=1)
    await bank.burn(GUILD, 1_000_000 - 500)  # the treasury holds 500
    entries = await entry_count(db)
    with pytest.raises(TreasuryShort) as short:
        await daily.pay(GUILD, ALICE)
    assert short.value.params == {"amount": 600, "treasury": 500}
    assert await entry_count(db) == entries
    await bank.mint(GUILD, 100)  # refilled: the refused pay did not start a period
    assert (await daily.pay(GUILD, ALICE)).balance == 600
    for bad in ({"amount": -1}, {"hours": 0}, {"hours": 8761}):
        with pytest.raises(InvalidAmount):
            await daily.configure(GUILD, **bad)  # type: ignore[arg-type]
    assert (await daily.settings(GUILD)).hours == 1


async def test_two_clicks_at_once_on_two_connections_pay_once(
    bank: Bank, db: Database, database_url: str, clock: Clock
) -> None:
    """As two processes would: separate connections, the same member, at once."""
    await DailyPay(db, clock).configure(GUILD, amount=70)
    others = [await open_database(database_url) for _ in range(3)]
    pays = [DailyPay(d, clock) for d in (db, *others)]

    async def click(pay: DailyPay) -> bool:
        try:
            await pay.pay(GUILD, ALICE)
        except DailyTooSoon:
            return False
        return True

    try:
        for _ in range(3):  # three periods, each raced by eight clicks
            results = await asyncio.gather(*(click(pays[i % 4]) for i in range(8)))
            assert sum(results) == 1
            clock.now += DAY
    finally:
        for d in others:
            await d.close()
    assert await bank.balance(GUILD, ALICE) == 3 * 70


async def test_the_audit_knows_a_daily_pay(db: Database) -> None:
    """A clean pay proves; an entry claiming to be one that does not come from the
    treasury is named."""
    bank = Bank(db)
    await bank.ensure_guild(GUILD)
    daily = DailyPay(db, Clock())
    await daily.configure(GUILD, amount=10)
    await daily.pay(GUILD, ALICE)
    assert (await audit(db, full=True)).ok
    await bank.transfer(GUILD, ALICE, BOB, 5, reason="daily pay")  # player -> player
    report = await audit(db, full=True)
    assert not report.ok
    assert [p for p in report.problems if "daily pay" in p] == [
        f"entry {await entry_count(db)}: a daily pay goes from the guild's treasury to one member"
    ]
