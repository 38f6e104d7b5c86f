"""Bad input is refused with a specific error and posts nothing."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest

from bot.bank import MAX_AMOUNT, Bank, InvalidAmount, UnknownAccount
from bot.bank.testing import entry_count
from bot.db import Database

GUILD = 1001
ALICE, BOB, ADMIN = 11, 12, 99

BAD_AMOUNTS = [0, -1, -(2**60), True, False, 1.0, 2.5, "10", None, 2**53, 2**53 + 1, 2**70]

Op = Callable[[Bank, object], Awaitable[object]]

OPERATIONS: dict[str, Op] = {
    "mint": lambda b, a: b.mint(GUILD, a, user_id=ALICE),  # type: ignore[arg-type]
    "burn": lambda b, a: b.burn(GUILD, a, user_id=ALICE),  # type: ignore[arg-type]
    "transfer": lambda b, a: b.transfer(GUILD, ALICE, BOB, a),  # type: ignore[arg-type]
    "top_up": lambda b, a: b.top_up(GUILD, 3, ALICE, a),  # type: ignore[arg-type]
    "buy_in": lambda b, a: b.sit_down(GUILD, 3, BOB, buy_in=a),  # type: ignore[arg-type]
    "welcome": lambda b, a: b.sit_down(GUILD, 3, BOB, welcome_stake=a),  # type: ignore[arg-type]
    "open_fund": lambda b, a: b.open_fund(GUILD, 3, a),  # type: ignore[arg-type]
    "adjust": lambda b, a: b.admin_adjust(GUILD, ALICE, a),  # type: ignore[arg-type]
}


@pytest.mark.parametrize("name", sorted(OPERATIONS))
async def test_bad_amounts_rejected(bank: Bank, db: Database, name: str) -> None:
    await bank.mint(GUILD, 1000, user_id=ALICE)
    before = await entry_count(db)
    for amount in BAD_AMOUNTS:
        if name in ("buy_in", "welcome") and amount in (0, False):
            continue  # a zero part of a sit-down is allowed; both zero is tested below
        if name == "adjust" and isinstance(amount, int) and amount < 0:
            continue  # a negative adjustment is a debit
        with pytest.raises(InvalidAmount) as info:
            await OPERATIONS[name](bank, amount)
        assert info.value.code == "invalid_amount"
    with pytest.raises(InvalidAmount):
        await bank.sit_down(GUILD, 3, BOB)
    assert await entry_count(db) == before
    assert await bank.balance(GUILD, ALICE) == 1000


async def test_largest_amount_is_accepted(bank: Bank) -> None:
    r = await bank.mint(GUILD, MAX_AMOUNT, user_id=ALICE)
    assert r.balance == MAX_AMOUNT == 2**53 - 1


@pytest.mark.parametrize("bad", [0, -5, True, 1.5, "11"])
async def test_bad_ids_rejected(bank: Bank, db: Database, bad: object) -> None:
    with pytest.raises(UnknownAccount):
        await bank.mint(GUILD, 5, user_id=bad)  # type: ignore[arg-type]
    with pytest.raises(UnknownAccount):
        await bank.transfer(GUILD, ALICE, bad, 5)  # type: ignore[arg-type]
    with pytest.raises(UnknownAccount):
        await bank.ensure_guild(bad)  # type: ignore[arg-type]
    assert await entry_count(db) == 1  # the treasury mint only


async def test_unknown_guild(bank: Bank) -> None:
    for call in (
        bank.mint(777, 5, user_id=ALICE),
        bank.open_account(777, ALICE),
        bank.sit_down(777, 1, ALICE, welcome_stake=5),
        bank.claim(777, ALICE),
    ):
        with pytest.raises(UnknownAccount):
            await call
