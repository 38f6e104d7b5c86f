"""/bank daily end to end (issue 39.6): off by default, /bank setup turns it on, paid once
per period with a post in the bank channel, refused with the time left, paid again once the
period is over, the audit clean; both databases, both languages."""

from __future__ import annotations

import discord
import pytest

from bot.i18n import t
from bot.ui.render.bank import amount
from tests.bank_audit import assert_audit_clean, entry_count
from tests.e2e.helpers import add_players, embed_text, service


@pytest.fixture
def db_path(database_url: str) -> str:
    """This module runs on both databases (tests/conftest.py ``database_url``)."""
    return database_url


def reply(res):
    """The text of an answer (deferred answers arrive as a follow-up)."""
    msg = res.followups[-1] if res.followups else res.response
    return embed_text(msg)


async def test_daily_pay_once_per_period(simcord_env):
    env = simcord_env
    guild = env.create_guild()
    lobby = guild.create_text_channel("casino")
    bank_channel = guild.create_text_channel("bank")
    role = guild.create_role("admin", permissions=discord.Permissions(manage_guild=True))
    boss = guild.add_member(env.create_user("boss"), roles=[role])
    alice, bob = add_players(env, guild, "alice", "bob")
    bank = service(env).bank

    res = await alice.member.slash(lobby, "bank daily")  # off by default
    assert res.ephemeral and res.response.content == t("bank.error.daily_off", "en")

    # only an admin turns it on
    res = await alice.member.slash(lobby, "bank setup", channel=bank_channel, daily_amount=25)
    assert res.ephemeral and res.response.content == t("bank.error.not_admin", "en")
    res = await boss.slash(
        lobby, "bank setup", channel=bank_channel, daily_amount=25, daily_hours=6
    )
    assert t("bank.setup.daily", "en", amount=amount(25, "en"), hours=6) in reply(res)

    res = await alice.member.slash(lobby, "bank daily")
    assert res.ephemeral and res.response.content.startswith("💵")
    balance = await bank.balance(guild.id, alice.id)
    assert balance == 1000 + 25  # the starting balance, then the pay
    assert amount(balance, "en") in res.response.content
    posts = [m.content for m in bank_channel.history()]
    assert any(f"<@{alice.id}> collects the daily pay" in p for p in posts), posts

    entries = await entry_count(env.bot.db)
    await env.advance_time(2 * 3600)
    res = await alice.member.slash(lobby, "bank daily")
    assert res.ephemeral and "next in 4 h 0 min" in res.response.content, res.response.content
    assert await entry_count(env.bot.db) == entries  # a refusal posts nothing
    assert await bank.balance(guild.id, alice.id) == balance

    # French: the same refusal, translated
    await bob.member.slash(lobby, "language", language="fr")
    await bob.member.slash(lobby, "bank daily")
    res = await bob.member.slash(lobby, "bank daily")
    assert "prochaine dans 6 h 0 min" in res.response.content, res.response.content

    await env.advance_time(4 * 3600 + 1)  # the period is over
    res = await alice.member.slash(lobby, "bank daily")
    assert res.response.content.startswith("💵")
    assert await bank.balance(guild.id, alice.id) == balance + 25
    res = await alice.member.slash(lobby, "bank history")
    assert reply(res).count("Daily pay") == 2

    # amount 0 turns it off again
    await boss.slash(lobby, "bank setup", channel=bank_channel, daily_amount=0)
    res = await bob.member.slash(lobby, "bank daily")
    assert res.response.content == t("bank.error.daily_off", "fr")
    await assert_audit_clean(env.bot.db)
