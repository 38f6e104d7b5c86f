"""/bank setup and /bank claim end to end: receipts in the bank channel, held claims and
their approval by an admin."""

from __future__ import annotations

import discord
import pytest

from bot.ui.render.bank import amount
from tests.bank_audit import assert_audit_clean
from tests.e2e.helpers import add_players, embed_text, service, table_of, thread_of


@pytest.fixture
def db_path(database_url: str) -> str:
    """This module runs on both databases (tests/conftest.py ``database_url``)."""
    return database_url


def admin_of(env, guild, name="boss"):
    """A member with Manage Server (and the user handle)."""
    role = guild.create_role("admin", permissions=discord.Permissions(manage_guild=True))
    user = env.create_user(name)
    return user, guild.add_member(user, roles=[role])


async def open_and_leave(lobby, host, leaver, buy_in):
    """A classic table: ``host`` opens, ``leaver`` joins with ``buy_in`` and leaves at once
    (the stack becomes a claim). Returns the table's thread."""
    await host.member.slash(lobby, "table open", game="blackjack")
    thread = thread_of(lobby)
    res = await leaver.member.slash(thread, "table join", buy_in=buy_in)
    assert res.ephemeral, res.response.content
    res = await leaver.member.slash(thread, "table leave")
    assert "/bank claim" in res.response.content, res.response.content
    return thread


def texts(channel):
    return [embed_text(m) for m in channel.history()]


async def test_setup_then_claim_posts_the_receipt_in_the_bank_channel(simcord_env):
    env = simcord_env
    guild = env.create_guild()
    lobby = guild.create_text_channel("casino")
    bank_channel = guild.create_text_channel("banque")
    _, boss = admin_of(env, guild)
    alice, bob = add_players(env, guild, "alice", "bob")

    res = await boss.slash(lobby, "bank setup", channel=bank_channel)
    assert res.ephemeral
    content = res.followups[-1].content if res.followups else res.response.content
    assert bank_channel.mention in content, content
    assert "bank channel" in bank_channel.history()[-1].content

    await open_and_leave(lobby, alice, bob, 100)
    res = await bob.member.slash(lobby, "bank claim")
    assert res.ephemeral
    receipt = embed_text(res.response)
    assert "#1" in receipt and amount(100, "en") in receipt
    assert amount(1000, "en") in receipt  # 1000 - 100 buy-in + 100 claimed
    posted = texts(bank_channel)[-1]
    assert bob.member.mention in posted and "#1" in posted and amount(100, "en") in posted

    # nothing left: a translated sentence, ephemeral, nothing posted
    before = len(bank_channel.history())
    res = await bob.member.slash(lobby, "bank claim")
    assert res.ephemeral and "nothing to collect" in res.response.content
    assert len(bank_channel.history()) == before
    assert await service(env).bank.balance(guild.id, bob.id) == 1000
    await assert_audit_clean(env.bot.db)


async def test_held_claim_waits_for_another_admin(simcord_env):
    env = simcord_env
    guild = env.create_guild()
    lobby = guild.create_text_channel("casino")
    bank_channel = guild.create_text_channel("banque")
    _, boss = admin_of(env, guild)
    alice, bob = add_players(env, guild, "alice", "bob")
    await boss.slash(lobby, "bank setup", channel=bank_channel, claim_approval_limit=50)

    await open_and_leave(lobby, alice, bob, 80)
    res = await bob.member.slash(lobby, "bank claim")
    text = embed_text(res.response)
    assert "waiting for an admin" in text.lower() and "#1" in text, text
    assert await service(env).bank.balance(guild.id, bob.id) == 920
    # the admins are told in the bank channel, once however often bob asks
    notice = bank_channel.history()[-1].content
    assert bob.member.mention in notice and "#1" in notice and amount(80, "en") in notice
    assert "/bank approve" in notice
    posts = len(bank_channel.history())
    await bob.member.slash(lobby, "bank claim")
    assert len(bank_channel.history()) == posts

    # a non-admin cannot approve
    res = await alice.member.slash(lobby, "bank approve", claim_id=1)
    assert res.ephemeral and "Manage Server" in res.response.content
    # the admin approves: paid at once, announced in the bank channel
    res = await boss.slash(lobby, "bank approve", claim_id=1)
    assert res.ephemeral and "#1" in res.response.content, res.response.content
    assert await service(env).bank.balance(guild.id, bob.id) == 1000
    posted = texts(bank_channel)[-1]
    assert boss.mention in posted and bob.member.mention in posted
    # approving again: refused, nothing moves
    res = await boss.slash(lobby, "bank approve", claim_id=1)
    assert res.ephemeral and "not waiting for approval" in res.response.content
    assert await service(env).bank.balance(guild.id, bob.id) == 1000
    await assert_audit_clean(env.bot.db)


async def test_an_admin_cannot_approve_their_own_claim(simcord_env):
    env = simcord_env
    guild = env.create_guild()
    lobby = guild.create_text_channel("casino")
    _, boss = admin_of(env, guild)
    (alice,) = add_players(env, guild, "alice")
    await boss.slash(lobby, "bank setup", channel=lobby, claim_approval_limit=10)

    await alice.member.slash(lobby, "table open", game="blackjack")
    thread = thread_of(lobby)
    await boss.slash(thread, "table join", buy_in=50)
    await boss.slash(thread, "table leave")
    res = await boss.slash(lobby, "bank approve", claim_id=1)
    assert res.ephemeral and "your own claim" in res.response.content
    assert [c.status for c in await service(env).bank.claims(guild.id, boss.id)] == ["held"]
    table_of(env, thread)
    await assert_audit_clean(env.bot.db)
