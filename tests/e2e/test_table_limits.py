"""Table options that commit the casino's money are bounded by the server's limits
(``/bank setup``): a host cannot open a table above them; the admins can move them."""

from __future__ import annotations

import discord
import pytest

from bot.bank.models import DEFAULT_TREASURY
from bot.i18n import t
from bot.ui.render.bank import amount
from tests.bank_audit import assert_audit_clean, entry_count
from tests.e2e.helpers import add_players, open_anyway, service


def admin_of(env, guild, name="boss"):
    role = guild.create_role("admin", permissions=discord.Permissions(manage_guild=True))
    return guild.add_member(env.create_user(name), roles=[role])


def answer(res) -> str:
    """The text of an answer (a deferred one arrives as a follow-up)."""
    msg = res.followups[-1] if res.followups else res.response
    return msg.content or ""


REFUSED = [
    (
        "casino21",
        "welcome_stake=1000000",
        "option_above_limit",
        {"option": "welcome_stake", "value": 1000000, "limit": 100},
    ),
    (
        "casino21",
        "bank_bust_bonus=1000000",
        "option_above_limit",
        {"option": "bank_bust_bonus", "value": 1000000, "limit": 5},
    ),
    (
        "sept_et_demi",
        "guarantee_fund=100000",
        "option_above_limit",
        {"option": "guarantee_fund", "value": 100000, "limit": 500},
    ),
    (
        "casino21",
        "min_bet=9",
        "option_below_limit",
        {"option": "min_bet", "value": 9, "limit": 10},
    ),
    (
        "casino21",
        "wager_requirement=0",
        "wager_below_stake",
        {"value": 0, "other_value": 100},
    ),
]


@pytest.mark.parametrize(("game", "options", "code", "params"), REFUSED)
async def test_a_host_cannot_open_above_the_server_limits(simcord_env, game, options, code, params):
    env = simcord_env
    guild = env.create_guild()
    lobby = guild.create_text_channel("casino")
    (alice,) = add_players(env, guild, "alice")
    await service(env).ensure_guild(guild.id)
    entries = await entry_count(env.bot.db)

    res = await alice.member.slash(lobby, "table open", game=game, options=options)
    assert res.ephemeral
    assert answer(res) == t(f"table.error.{code}", "en", **params)
    assert not lobby.threads  # the thread made for the table is gone again
    assert service(env).open_tables() == []
    assert await entry_count(env.bot.db) == entries  # no money moved
    assert await service(env).bank.balance(guild.id, None) == DEFAULT_TREASURY
    await assert_audit_clean(env.bot.db)


async def test_the_refusal_speaks_french(simcord_env):
    env = simcord_env
    guild = env.create_guild()
    lobby = guild.create_text_channel("casino")
    (alice,) = add_players(env, guild, "alice")
    await alice.member.slash(lobby, "language", language="fr")
    res = await alice.member.slash(
        lobby, "table open", game="casino21", options="welcome_stake=150"
    )
    text = answer(res)
    assert text == "welcome_stake=150 dépasse la limite de ce serveur\u00a0: 100 au plus " + (
        "(les admins du serveur la fixent avec /bank setup)."
    )


async def test_admins_set_the_limits_with_bank_setup(simcord_env):
    env = simcord_env
    guild = env.create_guild()
    lobby = guild.create_text_channel("casino")
    bank_channel = guild.create_text_channel("bank")
    (alice,) = add_players(env, guild, "alice")
    boss = admin_of(env, guild)

    # not an admin: refused, nothing changes
    res = await alice.member.slash(
        lobby, "bank setup", channel=bank_channel, max_welcome_stake=5000
    )
    assert answer(res) == t("bank.error.not_admin", "en")

    res = await boss.slash(
        lobby,
        "bank setup",
        channel=bank_channel,
        max_welcome_stake=1000,
        max_guarantee_fund=2000,
        max_bank_bust_bonus=10,
        min_casino21_bet=2,
    )
    text = answer(res)
    limits = {
        "welcome": amount(1000, "en"),
        "fund": amount(2000, "en"),
        "bonus": amount(10, "en"),
        "min_bet": amount(2, "en"),
    }
    assert t("bank.setup.limits", "en", **limits) in text
    assert "welcome stake of at most 1,000" in text and "minimum bet is at least 2" in text
    info = await service(env).bank.guild(guild.id)
    assert (
        info.max_welcome_stake,
        info.max_guarantee_fund,
        info.max_bank_bust_bonus,
        info.min_casino21_bet,
    ) == (1000, 2000, 10, 2)
    res = await alice.member.slash(
        lobby,
        "table open",
        game="casino21",
        options="welcome_stake=1000 wager_requirement=1000 bank_bust_bonus=10 min_bet=2",
    )
    assert answer(res).startswith("Your table is open"), answer(res)
    # her second table: asked first (tests/e2e/test_fewer_steps.py), opened anyway
    res = await open_anyway(
        alice.member, lobby, game="sept_et_demi", options="guarantee_fund=2001", here=True
    )
    assert answer(res) == t(
        "table.error.option_above_limit", "en", option="guarantee_fund", value=2001, limit=2000
    )
    # lowered again: the next table is refused, the open one keeps its options
    await boss.slash(lobby, "bank setup", channel=bank_channel, max_welcome_stake=50)
    res = await open_anyway(alice.member, lobby, game="casino21", here=True)
    assert answer(res) == t(
        "table.error.option_above_limit", "en", option="welcome_stake", value=100, limit=50
    )
    res = await open_anyway(
        alice.member, lobby, game="casino21", options="welcome_stake=50 min_bet=1", here=True
    )
    assert answer(res) == t(
        "table.error.option_below_limit", "en", option="min_bet", value=1, limit=2
    )
    res = await open_anyway(
        alice.member, lobby, game="casino21", options="welcome_stake=50", here=True
    )
    assert answer(res).startswith("Your table is open"), answer(res)
    await assert_audit_clean(env.bot.db)
