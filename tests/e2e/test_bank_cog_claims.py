"""/bank setup and /bank claim end to end: receipts in the bank channel, held claims and
their approval by an admin."""

from __future__ import annotations

import asyncio

import discord
import pytest

from bot.bank import Bank, ClaimNotHeld
from bot.db import open_database
from bot.i18n import t
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
    assert res.ephemeral and res.response.content == t("bank.error.claim_decided", "en", claim_id=1)
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


def answer(res) -> str:
    return res.followups[-1].content if res.followups else res.response.content


async def _decided_elsewhere(bank: Bank, guild_id: int, claim_id: int, admin_id: int, how: str):
    """The other process's admin decides the claim: "approve"/"reject", or the refusal's code."""
    try:
        if how == "approve":
            await bank.approve_claim(guild_id, claim_id, admin_id)
        else:
            await bank.reject_claim(guild_id, claim_id, admin_id, "elsewhere")
    except ClaimNotHeld as refused:
        return refused.code
    return how


def start_beside(monkeypatch, bank: Bank, method: str, start) -> list[asyncio.Task]:
    """Make ``bank.<method>`` start ``start()`` as a task just before its own transaction,
    so both are in flight at once; the tasks started are listed."""
    started: list[asyncio.Task] = []
    real = getattr(bank, method)

    async def beside(*args, **kwargs):
        started.append(asyncio.ensure_future(start()))
        return await real(*args, **kwargs)

    monkeypatch.setattr(bank, method, beside)
    return started


async def test_two_admins_deciding_one_claim_at_once_decide_it_once(
    simcord_env, database_url, monkeypatch
):
    """Ann's /bank approve or reject (through this bot) and Ben's decision of the same held
    claim through another process (its own connections), started before Ann's command or
    beside its transaction: one decision is done, once; when Ben's came first Ann reads
    that the claim was already decided and nothing is announced; when Ann's came first
    Ben's is refused the same way. Then Ben, through this bot too, reads the same sentence.
    (SimCord runs one operation at a time: the second admin at once is the other process.)"""
    env = simcord_env
    guild = env.create_guild()
    lobby = guild.create_text_channel("casino")
    bank_channel = guild.create_text_channel("bank")
    _, ann = admin_of(env, guild, "ann")
    _, ben = admin_of(env, guild, "ben")
    host, *leavers = add_players(env, guild, "host", *(f"p{i}" for i in range(8)))
    await ann.slash(lobby, "bank setup", channel=bank_channel, claim_approval_limit=10)
    await host.member.slash(lobby, "table open", game="blackjack")
    thread = thread_of(lobby)
    for p in leavers:
        await p.member.slash(thread, "table join", buy_in=40)
        await p.member.slash(thread, "table leave")
    bank = service(env).bank
    treasury = await bank.balance(guild.id, None)
    other = Bank(await open_database(database_url))
    try:
        for claim_id, player in enumerate(leavers, start=1):
            mine = ("approve", "reject")[claim_id % 2]
            theirs = ("approve", "reject")[claim_id // 2 % 2]

            def ben_decides(claim_id=claim_id, theirs=theirs):
                return _decided_elsewhere(other, guild.id, claim_id, ben.id, theirs)

            with monkeypatch.context() as patch:
                if claim_id <= len(leavers) // 2:  # Ben's decision is under way first
                    started = [asyncio.ensure_future(ben_decides())]
                else:  # Ben's starts with Ann's transaction
                    started = start_beside(patch, bank, f"{mine}_claim", ben_decides)
                posts = len(bank_channel.history())
                options = {"reason": "race"} if mine == "reject" else {}
                res = await ann.slash(lobby, f"bank {mine}", claim_id=claim_id, **options)
                (elsewhere,) = await asyncio.gather(*started)
            refused = t("bank.error.claim_decided", "en", claim_id=claim_id)
            assert res.ephemeral
            if answer(res) == refused:  # Ben's decision came first
                assert elsewhere == theirs
                assert len(bank_channel.history()) == posts
                done = theirs
            else:
                assert elsewhere == "claim_decided", (elsewhere, answer(res))
                assert f"#{claim_id}" in answer(res), answer(res)
                assert len(bank_channel.history()) == posts + 1
                done = mine
            status = {"approve": "paid", "reject": "rejected"}[done]
            claims = await bank.claims(guild.id, player.id, statuses=["paid", "rejected"])
            assert [c.status for c in claims] == [status]
            assert await bank.balance(guild.id, player.id) == (1000 if done == "approve" else 960)
            treasury += 40 if done == "reject" else 0
            assert await bank.balance(guild.id, None) == treasury
            later = await ben.slash(lobby, "bank approve", claim_id=claim_id)
            assert later.ephemeral and answer(later) == refused
    finally:
        await other.db.close()
    table_of(env, thread)
    await assert_audit_clean(env.bot.db)
