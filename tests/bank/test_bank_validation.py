"""Bad input is refused with a specific error and posts nothing."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest

from bot.bank import MAX_AMOUNT, Bank, InvalidAmount, UnknownAccount
from bot.db import Database
from bot.engine.base import Money, MoneyKind, seat, wallet
from tests.bank.ledger import post, sit_down
from tests.bank_audit import entry_count

K = MoneyKind

GUILD = 1001
ALICE, BOB, ADMIN = 11, 12, 99

BAD_AMOUNTS = [0, -1, -(2**60), True, False, 1.0, 2.5, "10", None, 2**53, 2**53 + 1, 2**70]

Op = Callable[[Bank, object], Awaitable[object]]

OPERATIONS: dict[str, Op] = {
    "mint": lambda b, a: b.mint(GUILD, a, user_id=ALICE),  # type: ignore[arg-type]
    "burn": lambda b, a: b.burn(GUILD, a, user_id=ALICE),  # type: ignore[arg-type]
    "transfer": lambda b, a: b.transfer(GUILD, ALICE, BOB, a),  # type: ignore[arg-type]
}


@pytest.mark.parametrize("name", sorted(OPERATIONS))
async def test_bad_amounts_rejected(bank: Bank, db: Database, name: str) -> None:
    await bank.mint(GUILD, 1000, user_id=ALICE)
    before = await entry_count(db)
    for amount in BAD_AMOUNTS:
        with pytest.raises(InvalidAmount) as info:
            await OPERATIONS[name](bank, amount)
        assert info.value.code == "invalid_amount"
    assert await entry_count(db) == before
    assert await bank.balance(GUILD, ALICE) == 1000


async def test_bad_money_effects_post_nothing(bank: Bank, db: Database) -> None:
    """A game's effect cannot even carry a bad amount (Money refuses it); one above the
    bank's largest amount is refused by the bank; a zero amount posts nothing."""
    await bank.mint(GUILD, 1000, user_id=ALICE)
    before = await entry_count(db)
    for amount in BAD_AMOUNTS:
        if isinstance(amount, int) and not isinstance(amount, bool) and amount > MAX_AMOUNT:
            effect = Money(K.TOP_UP, wallet(ALICE), seat(ALICE), amount)
            with pytest.raises(InvalidAmount) as info:
                await post(bank, GUILD, 3, [effect])
            assert info.value.code == "invalid_amount"
        elif amount == 0:
            result = await post(bank, GUILD, 3, [Money(K.TOP_UP, wallet(ALICE), seat(ALICE), 0)])
            assert result.entry_ids == ()
        else:
            with pytest.raises(ValueError, match="money amount"):
                Money(K.TOP_UP, wallet(ALICE), seat(ALICE), amount)  # type: ignore[arg-type]
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
        sit_down(bank, 777, 1, ALICE, welcome_stake=5),
        bank.claim(777, ALICE),
    ):
        with pytest.raises(UnknownAccount):
            await call
