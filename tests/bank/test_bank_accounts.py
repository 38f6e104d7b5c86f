"""Guild setup, mint/burn, transfers, history and leaderboard."""

from __future__ import annotations

from typing import Any

import pytest

from bot.bank import (
    Bank,
    Duplicate,
    InsufficientFunds,
    InvalidAmount,
    SelfTransfer,
    TransferToBot,
    UnknownAccount,
)
from bot.db import Conn, Database, IntegrityError
from tests.bank_audit import assert_audit_clean, entry_count
from tests.sql import execute

GUILD = 1001
ALICE, BOB, CAROL, ADMIN = 11, 12, 13, 99


async def test_ensure_guild_mints_treasury_once(bank: Bank, db: Database) -> None:
    info = await bank.guild(GUILD)
    assert info.treasury == 1_000_000 and info.claim_approval_limit is None
    again = await bank.ensure_guild(GUILD, treasury_initial=5)
    assert not again.created and again.treasury == 1_000_000
    report = await assert_audit_clean(db)
    assert report.minted == 1_000_000 and report.circulating == 1_000_000
    page = await bank.history(GUILD, None)
    assert [(i.kind, i.amount) for i in page.items] == [("mint", 1_000_000)]


async def test_second_guild_is_separate(bank: Bank, db: Database) -> None:
    info = await bank.ensure_guild(2002, treasury_initial=0, starting_balance=50)
    assert info.created and info.treasury == 0
    assert await bank.open_account(2002, ALICE) == 50
    assert await bank.balance(GUILD, ALICE) == 0
    assert (await assert_audit_clean(db, 2002)).minted == 50


async def test_starting_balance_is_minted_on_open(bank: Bank) -> None:
    await bank.configure_guild(GUILD, starting_balance=250)
    assert await bank.open_account(GUILD, ALICE) == 250
    assert await bank.open_account(GUILD, ALICE) == 250  # opening again gives nothing
    items = (await bank.history(GUILD, ALICE)).items
    assert [(i.kind, i.amount, i.reason) for i in items] == [("mint", 250, "starting balance")]


async def test_mint_and_burn(bank: Bank) -> None:
    r = await bank.mint(GUILD, 500, user_id=ALICE, actor=ADMIN, reason="prize", key="m1")
    assert (r.kind, r.amount, r.balance, r.replayed) == ("mint", 500, 500, False)
    assert (await bank.burn(GUILD, 200, user_id=ALICE, actor=ADMIN)).balance == 300
    with pytest.raises(InsufficientFunds):
        await bank.burn(GUILD, 301, user_id=ALICE, actor=ADMIN)
    assert await bank.balance(GUILD, None) == 1_000_000
    treasury = await bank.mint(GUILD, 10, actor=ADMIN)  # user_id None: the treasury
    assert treasury.balance == 1_000_010
    assert (await bank.burn(GUILD, 30, actor=ADMIN)).balance == 999_980


async def test_idempotent_key_replays_and_conflicts(bank: Bank, db: Database) -> None:
    first = await bank.mint(GUILD, 500, user_id=ALICE, actor=ADMIN, key="k")
    before = await entry_count(db)
    again = await bank.mint(GUILD, 500, user_id=ALICE, actor=ADMIN, key="k")
    assert again.replayed and again.entry_id == first.entry_id and again.balance == 500
    assert await entry_count(db) == before
    with pytest.raises(Duplicate):
        await bank.mint(GUILD, 501, user_id=ALICE, key="k")
    with pytest.raises(Duplicate):
        await bank.transfer(GUILD, ALICE, BOB, 500, key="k")
    with pytest.raises(Duplicate):
        await bank.mint(GUILD, 1, user_id=ALICE, key="")
    assert await bank.balance(GUILD, ALICE) == 500
    assert await entry_count(db) == before


async def test_transfer(bank: Bank, db: Database) -> None:
    await bank.mint(GUILD, 100, user_id=ALICE)
    r = await bank.transfer(GUILD, ALICE, BOB, 40, reason="thanks", key="t1")
    assert r.balance == 60 and await bank.balance(GUILD, BOB) == 40
    assert (await bank.transfer(GUILD, ALICE, BOB, 40, key="t1")).replayed
    assert await bank.balance(GUILD, BOB) == 40
    before = await entry_count(db)
    with pytest.raises(InsufficientFunds) as info:
        await bank.transfer(GUILD, ALICE, BOB, 61)
    assert info.value.code == "insufficient_funds" and info.value.params["available"] == 60
    with pytest.raises(SelfTransfer):
        await bank.transfer(GUILD, ALICE, ALICE, 1)
    with pytest.raises(TransferToBot):
        await bank.transfer(GUILD, ALICE, CAROL, 1, recipient_is_bot=True)
    with pytest.raises(UnknownAccount):
        await bank.transfer(GUILD, CAROL, ALICE, 1)  # Carol has no account
    with pytest.raises(UnknownAccount):
        await bank.transfer(4242, ALICE, BOB, 1)  # guild not set up
    assert await entry_count(db) == before
    assert await bank.balance(GUILD, CAROL) == 0


async def test_history_pages_and_leaderboard(bank: Bank) -> None:
    for i in range(1, 8):
        await bank.mint(GUILD, i, user_id=ALICE)
    await bank.transfer(GUILD, ALICE, BOB, 5)
    await bank.mint(GUILD, 3, user_id=CAROL)
    page = await bank.history(GUILD, ALICE, limit=3)
    assert [i.amount for i in page.items] == [-5, 7, 6]
    assert page.items[0].kind == "transfer" and page.next_before is not None
    seen = list(page.items)
    while page.next_before is not None:
        page = await bank.history(GUILD, ALICE, limit=3, before=page.next_before)
        seen.extend(page.items)
    assert [i.amount for i in seen] == [-5, 7, 6, 5, 4, 3, 2, 1]
    assert (await bank.history(GUILD, 555)).items == ()
    assert await bank.leaderboard(GUILD) == [(ALICE, 23), (BOB, 5), (CAROL, 3)]
    assert await bank.leaderboard(GUILD, limit=1) == [(ALICE, 23)]


async def test_mutations_inside_caller_transaction(bank: Bank, db: Database) -> None:
    async def _tx(conn: Conn) -> Any:
        await bank.mint(GUILD, 100, user_id=ALICE, conn=conn)
        await bank.transfer(GUILD, ALICE, BOB, 30, conn=conn)
        assert await bank.balance(GUILD, BOB, conn=conn) == 30

    await db.write(_tx)
    assert await bank.balance(GUILD, ALICE) == 70


async def test_ledger_is_append_only(bank: Bank, db: Database) -> None:
    await bank.mint(GUILD, 100, user_id=ALICE)
    for sql in (
        "UPDATE bank_entries SET kind = 'burn'",
        "DELETE FROM bank_entries",
        "UPDATE bank_postings SET amount = 1",
        "DELETE FROM bank_postings",
    ):
        with pytest.raises(Exception, match="append-only"):
            await execute(db, sql)
    with pytest.raises(IntegrityError, match=r"(?i)check"):
        await execute(db, "UPDATE bank_accounts SET balance = -1 WHERE kind = 'player'")


async def test_table_limits_default_to_the_documented_options_and_can_change(bank: Bank) -> None:
    info = await bank.guild(GUILD)
    assert (info.max_welcome_stake, info.max_guarantee_fund, info.max_bank_bust_bonus) == (
        100,
        500,
        5,
    )
    info = await bank.configure_guild(GUILD, max_welcome_stake=0, max_guarantee_fund=2000)
    assert (info.max_welcome_stake, info.max_guarantee_fund, info.max_bank_bust_bonus) == (
        0,
        2000,
        5,
    )
    for bad in (-1, True, 2**53):
        with pytest.raises(InvalidAmount):
            await bank.configure_guild(GUILD, max_bank_bust_bonus=bad)
    assert (await bank.guild(GUILD)).max_bank_bust_bonus == 5  # a refusal changes nothing


async def test_the_casino21_bet_floor_defaults_to_10_and_is_at_least_1(bank: Bank) -> None:
    assert (await bank.guild(GUILD)).min_casino21_bet == 10
    for bad in (0, -1, True, 2**53):
        with pytest.raises(InvalidAmount):
            await bank.configure_guild(GUILD, min_casino21_bet=bad)
    assert (await bank.guild(GUILD)).min_casino21_bet == 10  # a refusal changes nothing
    assert (await bank.configure_guild(GUILD, min_casino21_bet=1)).min_casino21_bet == 1
