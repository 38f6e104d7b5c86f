"""post_effects: engine money effects posted inside the table service's transaction."""

from __future__ import annotations

from typing import Any

import pytest

from bot.bank import (
    Bank,
    InsufficientFunds,
    InvalidEffect,
    UnknownAccount,
    WelcomeStakeTaken,
)
from bot.db import Conn, Database
from bot.engine.base import FUND, HOUSE, POT, Money, MoneyKind, claim, seat, wallet
from tests.bank.ledger import (
    close_fund,
    leave_seat,
    open_fund,
    seat_stats,
    sit_down,
    stats_in,
    table_escrow,
    top_up,
)
from tests.bank_audit import entry_count
from tests.sql import fetchall

GUILD = 1001
TABLE = 7
ALICE, BOB = 11, 12

K = MoneyKind


def join(p: int, buy_in: int, welcome: int = 100) -> list[Money]:
    return [
        Money(K.BUY_IN, wallet(p), seat(p), buy_in, p),
        Money(K.WELCOME_STAKE, HOUSE, seat(p), welcome, p),
    ]


async def post(
    bank: Bank, db: Database, effects: list[Money], prefix: str, round_no: int | None = None
) -> None:
    async def _tx(conn: Conn) -> Any:
        await bank.post_effects(conn, GUILD, TABLE, round_no, effects, prefix)

    await db.write(_tx)


async def test_a_round_of_play(bank: Bank, db: Database) -> None:
    await bank.mint(GUILD, 1000, user_id=ALICE)
    await post(bank, db, join(ALICE, 50), "t7:join:a")
    await post(bank, db, join(BOB, 0), "t7:join:b")  # zero buy-in is skipped
    await post(
        bank,
        db,
        [Money(K.BET, seat(ALICE), POT, 30, ALICE), Money(K.BET, seat(BOB), POT, 20, BOB)],
        "t7:r1:bets",
        1,
    )
    await post(
        bank,
        db,
        [
            Money(K.PAYOUT, POT, seat(ALICE), 30, ALICE),
            Money(K.PAYOUT, HOUSE, seat(ALICE), 45, ALICE, exact="45"),
            Money(K.LOSS, POT, HOUSE, 20, BOB),
        ],
        "t7:r1:settle",
        1,
    )
    assert await table_escrow(bank.db, GUILD, TABLE) == {"seat:11": 195, "seat:12": 80, "pot": 0}
    a = await seat_stats(bank.db, GUILD, TABLE, ALICE)
    assert (a.stack, a.welcome_received, a.own_funds, a.wagered) == (195, 100, 50, 30)
    b = await seat_stats(bank.db, GUILD, TABLE, BOB)
    assert (b.stack, b.welcome_received, b.own_funds, b.wagered) == (80, 100, 0, 20)
    assert await bank.balance(GUILD, ALICE) == 950
    assert await bank.balance(GUILD, None) == 1_000_000 - 200 - 45 + 20
    items = (await bank.history(GUILD, None, limit=5)).items
    assert items[0].kind == "loss" and items[0].round_no == 1 and items[0].table_id == TABLE


async def test_game_row_and_postings_commit_together(bank: Bank, db: Database) -> None:
    """Atomicity: the caller's own row and the postings share one transaction."""
    await bank.mint(GUILD, 100, user_id=ALICE)

    async def _tx(conn: Conn) -> Any:
        key = "INTEGER" if db.dialect == "sqlite" else "SERIAL"
        await conn.execute(f"CREATE TABLE game_rows (id {key} PRIMARY KEY, v TEXT)")

    await db.write(_tx)
    with pytest.raises(RuntimeError, match="boom"):

        async def _tx(conn: Conn) -> Any:
            await conn.execute("INSERT INTO game_rows (v) VALUES ('snapshot')")
            await bank.post_effects(conn, GUILD, TABLE, 1, join(ALICE, 60), "t7:j")
            raise RuntimeError("boom")

        await db.write(_tx)
    assert await fetchall(db, "SELECT * FROM game_rows") == []
    assert await bank.balance(GUILD, ALICE) == 100
    assert await table_escrow(bank.db, GUILD, TABLE) == {}

    async def _tx(conn: Conn) -> Any:  # the same key posts fine after the rollback
        await conn.execute("INSERT INTO game_rows (v) VALUES ('snapshot')")
        await bank.post_effects(conn, GUILD, TABLE, 1, join(ALICE, 60), "t7:j")

    await db.write(_tx)
    assert len(await fetchall(db, "SELECT * FROM game_rows")) == 1
    assert await bank.balance(GUILD, ALICE) == 40


async def test_refused_batch_leaves_caller_transaction_untouched(bank: Bank, db: Database) -> None:
    await bank.mint(GUILD, 100, user_id=ALICE)
    await post(bank, db, join(ALICE, 100, 0), "j")
    before = await entry_count(db)

    async def _tx(conn: Conn) -> Any:
        with pytest.raises(InsufficientFunds):  # the second bet overdraws: nothing posts
            await bank.post_effects(
                conn,
                GUILD,
                TABLE,
                1,
                [
                    Money(K.BET, seat(ALICE), POT, 60),
                    Money(K.BET, seat(ALICE), POT, 60),
                ],
                "bets",
            )
        assert (await stats_in(conn, GUILD, TABLE, ALICE)).stack == 100

    await db.write(_tx)
    assert await entry_count(db) == before
    assert (await seat_stats(bank.db, GUILD, TABLE, ALICE)).wagered == 0


async def test_replayed_batch_posts_once(bank: Bank, db: Database) -> None:
    await bank.mint(GUILD, 100, user_id=ALICE)
    effects = [*join(ALICE, 40), Money(K.CASH_OUT, seat(ALICE), claim(ALICE), 140, ALICE)]

    async def _tx(conn: Conn) -> Any:
        first = await bank.post_effects(conn, GUILD, TABLE, None, effects, "x")
        return first

    first = await db.write(_tx)

    async def _tx(conn: Conn) -> Any:
        second = await bank.post_effects(conn, GUILD, TABLE, None, effects, "x")
        return second

    second = await db.write(_tx)
    assert not first.replayed and second.replayed
    assert first.entry_ids == second.entry_ids and first.claim_ids == second.claim_ids
    assert len(first.claim_ids) == 1
    assert await bank.balance(GUILD, ALICE) == 60
    assert len(await bank.claims(GUILD, ALICE)) == 1


async def test_welcome_stake_once_per_table(bank: Bank, db: Database) -> None:
    await post(bank, db, join(ALICE, 0), "a1")
    await post(bank, db, [Money(K.CASH_OUT, seat(ALICE), claim(ALICE), 100)], "a2")
    with pytest.raises(WelcomeStakeTaken):
        await post(bank, db, join(ALICE, 0), "a3")

    async def _tx(conn: Conn) -> Any:  # another table is another seat
        await bank.post_effects(conn, GUILD, TABLE + 1, None, join(ALICE, 0), "a4")

    await db.write(_tx)


async def test_fund_open_pay_close(bank: Bank, db: Database) -> None:
    assert await open_fund(bank, GUILD, TABLE, 500, key="f1") == 500
    await post(bank, db, join(ALICE, 0), "j")
    await post(bank, db, [Money(K.PAYOUT, FUND, seat(ALICE), 120)], "p")
    assert await close_fund(bank, GUILD, TABLE, key="f2") == 380
    assert await close_fund(bank, GUILD, TABLE, key="f3") == 0
    assert await bank.balance(GUILD, None) == 1_000_000 - 100 - 120


async def test_sit_down_top_up_leave(bank: Bank) -> None:
    await bank.mint(GUILD, 300, user_id=ALICE)
    s = await sit_down(bank, GUILD, TABLE, ALICE, buy_in=50, welcome_stake=100, key="s")
    assert (s.stack, s.own_funds, s.welcome_received) == (150, 50, 100)
    s = await top_up(bank, GUILD, TABLE, ALICE, 70, key="u")
    assert (s.stack, s.own_funds) == (220, 120) and await bank.balance(GUILD, ALICE) == 180
    with pytest.raises(InsufficientFunds):
        await top_up(bank, GUILD, TABLE, ALICE, 181)
    with pytest.raises(InsufficientFunds):
        await leave_seat(bank, GUILD, TABLE, ALICE, forfeit=221)
    left = await leave_seat(bank, GUILD, TABLE, ALICE, forfeit=100, key="l")
    assert (left.forfeited, left.cashed_out, left.claim_status) == (100, 120, "pending")
    again = await leave_seat(bank, GUILD, TABLE, ALICE, forfeit=100, cash_out=120, key="l")
    assert again.claim_id == left.claim_id  # the same leave posted again: a replay
    s = await seat_stats(bank.db, GUILD, TABLE, ALICE)
    assert (s.stack, s.forfeited, s.cashed_out) == (0, 100, 120)
    empty = await leave_seat(bank, GUILD, TABLE, BOB)
    assert empty.claim_id is None and empty.cashed_out == 0


@pytest.mark.parametrize(
    ("effect", "error"),
    [
        (Money(K.BUY_IN, wallet(ALICE), seat(BOB), 5), InvalidEffect),  # someone's wallet
        (Money(K.CASH_OUT, seat(ALICE), claim(BOB), 5), InvalidEffect),  # someone's claim
        (Money(K.BET, wallet(ALICE), POT, 5), InvalidEffect),
        (Money(K.PAYOUT, HOUSE, wallet(ALICE), 5), InvalidEffect),
        (Money(K.LOSS, POT, claim(ALICE), 5), InvalidEffect),
        (Money(K.PAYOUT, seat(ALICE), seat(ALICE), 5), InvalidEffect),
        (Money(K.BET, seat(ALICE), "pot:3", 5), UnknownAccount),
        (Money(K.BET, "seat:abc", POT, 5), UnknownAccount),
        (Money(K.BET, "seat:-1", POT, 5), UnknownAccount),
        (Money(K.LOSS, POT, "casino", 5), UnknownAccount),
    ],
)
async def test_bad_effects_are_refused(
    bank: Bank, db: Database, effect: Money, error: type[Exception]
) -> None:
    await bank.mint(GUILD, 100, user_id=ALICE)
    await post(bank, db, join(ALICE, 10), "j")
    before = await entry_count(db)
    with pytest.raises(error):
        await post(bank, db, [Money(K.BET, seat(ALICE), POT, 1), effect], "bad")
    assert await entry_count(db) == before


async def test_post_effects_needs_set_up_guild_and_table(bank: Bank, db: Database) -> None:
    async def _tx(conn: Conn) -> Any:
        with pytest.raises(UnknownAccount):
            await bank.post_effects(conn, 4242, TABLE, None, join(ALICE, 0), "g")
        with pytest.raises(UnknownAccount):
            await bank.post_effects(conn, GUILD, 0, None, join(ALICE, 0), "g")
        with pytest.raises(InvalidEffect):
            await bank.post_effects(conn, GUILD, TABLE, None, ["bet"], "g")  # type: ignore[list-item]

    await db.write(_tx)


async def test_post_effects_outside_a_write_transaction_is_refused(
    bank: Bank, db: Database
) -> None:
    """A connection exists only inside ``write``/``read``; a read's cannot move money."""
    await bank.mint(GUILD, 100, user_id=ALICE)
    before = await entry_count(db)
    with pytest.raises(Exception, match=r"read-?only"):
        await db.read(bank.post_effects, GUILD, TABLE, None, join(ALICE, 0), "g")
    assert await entry_count(db) == before
