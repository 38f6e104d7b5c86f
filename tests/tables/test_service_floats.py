"""A float per table through the service, on both databases: its size from the options,
one ledger entry to draw it, settlements that leave the treasury alone, the credit at the
close, and the audit, which proves floats like any account."""

from __future__ import annotations

import pytest

from bot.bank import Bank
from bot.bank.core import post_entry, system_account
from bot.engine.base import Action, ActionKind
from bot.engine.shuffle import seeded_entropy
from bot.tables import TableError, TableService
from bot.tables.floats import FLOAT_ROUNDS, float_terms
from tests.bank.ledger import casino_money, float_of
from tests.bank_audit import assert_audit_clean
from tests.sql import fetchall
from tests.tables.opening import GUILD, HOST, open_game, win_a_round

K = ActionKind


@pytest.fixture
async def service(db):
    svc = TableService(db, Bank(db), clock=lambda: 1_000_000.0, entropy=seeded_entropy("float"))
    await svc.ensure_guild(GUILD)
    return svc


async def entries(db, table_id: int) -> list[tuple[str, str]]:
    """The float entries of a table: (kind, reason)."""
    rows = await fetchall(
        db,
        "SELECT kind, reason FROM bank_entries WHERE table_id = ? AND kind IN"
        " ('fund_open', 'fund_close') ORDER BY id",
        (table_id,),
    )
    return [(str(k), str(r)) for k, r in rows]


@pytest.mark.parametrize(
    ("game", "text", "target", "low"),
    [
        ("classic", "", FLOAT_ROUNDS * 4000, 4000),  # 500 split in four, each doubled
        ("classic", "max_bet=100 max_hands=2 blackjack_pays=6:5", FLOAT_ROUNDS * 400, 400),
        # half of 100 and a newcomer's welcome stake; the welcome stakes of 8 seats
        ("casino21", "", FLOAT_ROUNDS * (50 + 100) + 8 * 100, 150),
        ("casino21", "bank_bust_bonus=5 min_bet=2 max_bet=4 welcome_stake=0", FLOAT_ROUNDS * 5, 5),
        ("sept_et_demi", "guarantee_fund=300", 300, 0),  # the fund, drawn once
        ("pirate21", "", 0, 0),  # the players pay each other
    ],
)
async def test_the_float_is_sized_from_the_options(service, db, game, text, target, low):
    await service.ensure_guild(GUILD)
    await service.bank.configure_guild(GUILD, min_casino21_bet=2)  # bets under 10 allowed
    table = await open_game(service, game, text)
    terms = float_terms(table.game)
    assert (terms.target, terms.low) == (target, low)
    welcome = int(getattr(table.game.options, "welcome_stake", 0))  # the host's, paid by it
    assert await float_of(db, GUILD, table.id) == target - welcome
    assert await entries(db, table.id) == ([("fund_open", "float fill")] if target else [])
    await assert_audit_clean(db)


async def test_a_float_the_treasury_cannot_give_refuses_the_table(service, db):
    bank = service.bank
    await bank.burn(GUILD, await bank.balance(GUILD, None) - 1000)
    with pytest.raises(TableError) as err:
        await open_game(service, "classic", "max_bet=100")  # 4 x 800
    assert err.value.code == "float_short"
    assert err.value.params == {
        "lacking": 2200,
        "needed": 3200,
        "treasury": 1000,
        "option": "max_bet",
    }
    assert service.open_tables() == [] and await bank.balance(GUILD, None) == 1000
    await bank.burn(GUILD, 600)
    with pytest.raises(TableError) as err:
        await open_game(service, "sept_et_demi", "guarantee_fund=500 buy_in=100", channel=501)
    assert err.value.params["lacking"] == 100
    assert err.value.params["option"] == "guarantee_fund"
    await assert_audit_clean(db)


async def test_a_round_is_settled_from_the_float_and_the_close_credits_it(service, db):
    table = await open_game(service, "classic", "max_bet=100 max_hands=2")
    treasury = await service.bank.balance(GUILD, None)
    await service.act(table.id, HOST, Action(K.START, HOST))
    out = await win_a_round(service, table.id)
    assert table.game.round == 2 and out.floats == []
    assert await float_of(db, GUILD, table.id) == 1600 - 100
    assert await service.bank.balance(GUILD, None) == treasury  # not written
    out = await service.close_table(table.id, HOST, "host")
    assert [(m.kind, m.amount) for m in out.floats] == [("credit", 1500)]
    assert await service.bank.balance(GUILD, None) == treasury + 1500
    assert await float_of(db, GUILD, table.id) == 0
    assert await entries(db, table.id) == [
        ("fund_open", "float fill"),
        ("fund_close", "float credit"),
    ]
    await assert_audit_clean(db)


async def test_a_refill_comes_at_the_next_round_when_the_float_runs_low(service, db):
    table = await open_game(service, "classic", "max_bet=100 max_hands=2")
    await service.act(table.id, HOST, Action(K.START, HOST))
    for wins in range(1, 14):  # the float falls by 100 a round, below one round's 400
        out = await win_a_round(service, table.id)
        if out.floats:
            break
        assert await float_of(db, GUILD, table.id) == 1600 - 100 * wins >= 400
    assert wins == 13
    (fill,) = out.floats
    assert (fill.kind, fill.amount, fill.lacking, fill.balance) == ("fill", 1300, 0, 1600)
    assert await float_of(db, GUILD, table.id) == 1600
    await assert_audit_clean(db)


async def test_the_audit_proves_floats_like_any_account(service, db):
    table = await open_game(service, "classic", "max_bet=100")
    assert (await service.bank.audit(GUILD)).floats == 3200
    await service.close_table(table.id, HOST, "host")
    report = await service.bank.audit(GUILD)
    assert report.ok and report.floats == 0

    async def stray(c):  # money sent to the float of a closed table
        house = await system_account(c, GUILD, "house")
        account = await c.fetchone(
            "SELECT id FROM bank_accounts WHERE kind = 'house' AND table_id = ?", (table.id,)
        )
        await post_entry(c, GUILD, "fund_open", "stray", house, int(account[0]), 7)

    await db.write(stray)
    (row,) = await fetchall(
        db, "SELECT id FROM bank_accounts WHERE kind = 'house' AND table_id = ?", (table.id,)
    )
    report = await service.bank.audit(GUILD)
    assert report.problems == (
        f"account {row[0]} (float of closed table {table.id}) still holds 7",
    )

    async def tamper(c):  # a float's cached balance that its postings do not give
        await c.execute(
            "UPDATE bank_accounts SET balance = balance + 1 WHERE kind = 'house' AND table_id = ?",
            (table.id,),
        )

    await db.write(tamper)
    assert not (await service.bank.audit(GUILD)).ok  # the incremental audit sees it too
    problems = (await service.bank.audit(GUILD, full=True)).problems  # and names the account
    assert any("cached 8 != ledger 7" in p for p in problems)
    assert await casino_money(db, GUILD) == await service.bank.balance(GUILD, None) + 8


async def test_a_welcome_stake_the_float_cannot_give_beside_the_bets_is_refused(service, db):
    """A Casino 21 float that ran low (taken back here through the ledger): a newcomer's
    welcome stake must leave what the round's bets may win from it."""
    table = await open_game(service, "casino21", "max_bet=10 max_players=3", players=(102,))
    held = await float_of(db, GUILD, table.id)  # 4 x (5 + 100) + 3 x 100 - 2 x 100

    async def run_low(c):
        house = await system_account(c, GUILD, "house")
        (row,) = await c.fetchall(
            "SELECT id FROM bank_accounts WHERE kind = 'house' AND table_id = ?", (table.id,)
        )
        await post_entry(c, GUILD, "fund_close", "low", int(row[0]), house, held - 105)

    await db.write(run_low)
    await service.act(table.id, HOST, Action(K.START, HOST))  # one round's 105: no refill
    assert await float_of(db, GUILD, table.id) == 105
    for player in (HOST, 102):
        await service.act(table.id, player, Action(K.BET, player, amount=10))  # at worst 5
    with pytest.raises(TableError) as err:
        await service.join(table.id, 103, None)
    assert err.value.code == "float_cannot_welcome"
    assert err.value.params == {"needed": 110, "available": 105}
    assert 103 not in table.game.seated()
    await assert_audit_clean(db)
