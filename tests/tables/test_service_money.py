"""The table service and the casino's money: the guild's limits at open time."""

from __future__ import annotations

import pytest

from bot.bank import Bank
from bot.engine.shuffle import seeded_entropy
from bot.tables import TableError, TableService
from tests.bank_audit import assert_audit_clean, entry_count
from tests.sql import fetchone
from tests.tables.opening import GUILD, open_game


@pytest.fixture
async def service(db):
    svc = TableService(db, Bank(db), clock=lambda: 1_000_000.0, entropy=seeded_entropy("svc"))
    yield svc
    await assert_audit_clean(db)


async def test_a_refused_first_table_leaves_the_guild_set_up(service, db):
    """The first table of a new guild refused (the host's balance is too low): the guild
    stays set up, so the next table opens (it used to fail with 'guild not set up')."""
    with pytest.raises(TableError) as err:
        await open_game(service, "classic", "min_bet=2000 max_bet=2000")
    assert err.value.code == "balance_too_low"
    table = await open_game(service, "classic", channel=501)
    assert table.is_open


@pytest.mark.parametrize(
    ("game", "text", "code"),
    [
        ("casino21", "welcome_stake=101", "option_above_limit"),
        ("casino21", "bank_bust_bonus=6", "option_above_limit"),
        ("casino21", "min_bet=9", "option_below_limit"),
        ("casino21", "welcome_stake=50 wager_requirement=49", "wager_below_stake"),
        ("sept_et_demi", "guarantee_fund=501", "option_above_limit"),
    ],
)
async def test_options_above_the_guild_limits_are_refused(service, db, game, text, code):
    await service.ensure_guild(GUILD)
    entries = await entry_count(db)
    with pytest.raises(TableError) as err:
        await open_game(service, game, text)
    assert err.value.code == code
    assert service.open_tables() == [] and await entry_count(db) == entries
    row = await fetchone(db, "SELECT COUNT(*) FROM tables")
    assert row is not None and row[0] == 0


async def test_options_at_the_guild_limits_are_accepted(service, db):
    await open_game(service, "casino21", "welcome_stake=100 bank_bust_bonus=5", channel=1)
    await open_game(service, "casino21", "bank_bust_bonus=half", channel=2)
    await open_game(service, "sept_et_demi", "guarantee_fund=500", channel=3)
    await service.bank.configure_guild(GUILD, max_welcome_stake=1000)
    await open_game(service, "casino21", "welcome_stake=1000 wager_requirement=1000", channel=4)
    await open_game(service, "casino21", "min_bet=10", channel=5)
    await service.bank.configure_guild(GUILD, min_casino21_bet=1)
    await open_game(service, "casino21", "min_bet=1", channel=6)
    assert len(service.open_tables()) == 6
