"""/bank for players and admins end to end: balance, history, top, give, mint, burn, audit,
refusals, and the table news (own funds added, forfeits) in the bank channel."""

from __future__ import annotations

import re

import discord
import pytest

from bot.i18n import t
from bot.ui.render.bank import amount
from tests.bank_audit import assert_audit_clean, entry_count
from tests.e2e.discord_rules import set_thread
from tests.e2e.helpers import add_players, embed_text, service, thread_of


@pytest.fixture
def db_path(database_url: str) -> str:
    """This module runs on both databases (tests/conftest.py ``database_url``)."""
    return database_url


def admin_of(env, guild, name="boss"):
    role = guild.create_role("admin", permissions=discord.Permissions(manage_guild=True))
    return guild.add_member(env.create_user(name), roles=[role])


def reply(res):
    """The text of an answer (deferred answers arrive as a follow-up)."""
    msg = res.followups[-1] if res.followups else res.response
    return embed_text(msg)


async def test_balance_give_history_top(simcord_env):
    env = simcord_env
    guild = env.create_guild()
    lobby = guild.create_text_channel("casino")
    alice, bob, carol = add_players(env, guild, "alice", "bob", "carol")
    robot = guild.add_member(env.create_user("robot", bot=True))
    bank = service(env).bank

    res = await alice.member.slash(lobby, "bank balance")
    assert res.ephemeral and res.response.content.split("\n") == [
        f"Your balance: **{amount(1000, 'en')}**.",
        "-# " + t("bank.currency", "en", currency="flouz"),  # what the currency is
    ]
    res = await alice.member.slash(lobby, "bank balance", user=bob.member)
    assert "has no account at the bank yet" in res.response.content
    res = await alice.member.slash(lobby, "bank balance", user=robot)
    assert res.ephemeral and "Bots have no bank account" in res.response.content

    res = await alice.member.slash(lobby, "bank give", user=bob.member, amount=250)
    assert res.ephemeral and amount(750, "en") in res.response.content
    assert await bank.balance(guild.id, bob.id) == 1250
    res = await alice.member.slash(lobby, "bank balance", user=bob.member)
    assert amount(1250, "en") in res.response.content

    # refusals: one ephemeral sentence each, nothing posted
    entries = await entry_count(env.bot.db)
    for kwargs, expected in (
        ({"user": alice.member, "amount": 5}, t("bank.error.self_transfer", "en")),
        ({"user": robot, "amount": 5}, t("bank.error.transfer_to_bot", "en")),
        ({"user": carol.member, "amount": 5000}, t("bank.error.insufficient_funds", "en")),
    ):
        res = await alice.member.slash(lobby, "bank give", **kwargs)
        assert res.ephemeral and res.response.content == expected
    assert await entry_count(env.bot.db) == entries
    assert await bank.balance(guild.id, alice.id) == 750

    # history: newest first, signed amounts, pages of ten
    res = await alice.member.slash(lobby, "bank history")
    text = embed_text(res.response)
    assert "Transfer" in text and "-250" in text and amount(750, "en") in text
    for _ in range(11):
        await alice.member.slash(lobby, "bank give", user=carol.member, amount=1)
    res = await alice.member.slash(lobby, "bank history")
    assert "page:2" in embed_text(res.response)
    res = await alice.member.slash(lobby, "bank history", page=2)
    text = embed_text(res.response)
    assert "page 2" in text and "Starting balance" in text  # not an admin's doing
    res = await alice.member.slash(lobby, "bank history", page=5)
    assert res.ephemeral and "There is no page 5" in res.response.content

    res = await carol.member.slash(lobby, "bank top")
    assert not res.ephemeral
    lines = embed_text(res.response).splitlines()
    ranked = [line for line in lines if line[:2] in ("1.", "2.", "3.")]
    assert ranked[0].startswith(f"1. {bob.member.mention}")
    assert ranked[1].startswith(f"2. {carol.member.mention}")
    assert ranked[2].startswith(f"3. {alice.member.mention}")
    await assert_audit_clean(env.bot.db)


async def test_admin_commands_and_refusals(simcord_env):
    env = simcord_env
    guild = env.create_guild()
    lobby = guild.create_text_channel("casino")
    bank_channel = guild.create_text_channel("banque")
    boss = admin_of(env, guild)
    alice, bob = add_players(env, guild, "alice", "bob")
    bank = service(env).bank

    # a member without Manage Server: every admin command refused, nothing changes
    entries = await entry_count(env.bot.db)
    for name, kwargs in (
        ("bank setup", {"channel": bank_channel}),
        ("bank mint", {"amount": 100}),
        ("bank burn", {"amount": 100, "user": bob.member}),
        ("bank approve", {"claim_id": 1}),
        ("bank audit", {}),
    ):
        res = await alice.member.slash(lobby, name, **kwargs)
        assert res.ephemeral and res.response.content == t("bank.error.not_admin", "en"), name
    assert await entry_count(env.bot.db) == entries
    assert bank_channel.history() == []

    res = await boss.slash(
        lobby, "bank setup", channel=bank_channel, claim_approval_limit=500, starting_balance=300
    )
    text = reply(res)
    assert amount(500, "en") in text and amount(300, "en") in text
    info = await bank.guild(guild.id)
    assert (info.claim_approval_limit, info.starting_balance) == (500, 300)
    res = await bob.member.slash(lobby, "bank balance")
    assert amount(300, "en") in res.response.content  # new accounts get the new start

    res = await boss.slash(lobby, "bank mint", amount=1000, user=bob.member)
    assert amount(1300, "en") in res.response.content
    res = await boss.slash(lobby, "bank burn", amount=200, user=bob.member)
    assert amount(1100, "en") in res.response.content
    res = await boss.slash(lobby, "bank burn", amount=5000, user=bob.member)
    assert res.ephemeral and res.response.content == t("bank.error.insufficient_funds", "en")
    treasury = await bank.balance(guild.id, None)
    res = await boss.slash(lobby, "bank mint", amount=7)
    assert "the treasury" in res.response.content
    assert await bank.balance(guild.id, None) == treasury + 7
    posted = [m.content for m in bank_channel.history()]
    assert any(boss.mention in p and bob.member.mention in p and "creates" in p for p in posted)
    assert any("destroys" in p for p in posted)

    res = await boss.slash(lobby, "bank audit")
    text = reply(res)
    assert "Bank audit OK" in text and "Treasury" in text
    assert t("bank.audit.full", "en") in text  # the first audit proves everything
    await bank.transfer(guild.id, bob.member.id, boss.id, 10)  # opens boss's account: 2 entries
    text = reply(await boss.slash(lobby, "bank audit"))
    assert "Bank audit OK" in text and re.search(r"Proved 2 entries after entry \d+ ", text), text
    text = reply(await boss.slash(lobby, "bank audit", full=True))
    assert "Bank audit OK" in text and t("bank.audit.full", "en") in text
    # no limit any more
    res = await boss.slash(lobby, "bank setup", channel=bank_channel, claim_approval_limit=-1)
    assert "no approval limit" in reply(res)
    assert (await bank.guild(guild.id)).claim_approval_limit is None
    await assert_audit_clean(env.bot.db)


async def test_top_up_and_forfeit_are_announced_in_the_bank_channel(simcord_env):
    env = simcord_env
    guild = env.create_guild()
    lobby = guild.create_text_channel("casino")
    forum = guild.create_forum_channel("casino-forum")
    boss = admin_of(env, guild)
    alice, bob = add_players(env, guild, "alice", "bob")
    # the bank topic is a thread (a forum post)
    await alice.member.slash(forum, "table open", game="casino21", name="Topic de banque")
    bank_topic = thread_of(forum)
    await alice.member.slash(bank_topic, "table close")  # its post is archived
    set_thread(env, bank_topic, archived=False)  # a moderator reopens it for the bank
    res = await boss.slash(lobby, "bank setup", channel=bank_topic)
    assert bank_topic.mention in reply(res)

    # a minimum bet above the welcome stake: it is spent at once, own funds are welcome
    await alice.member.slash(
        lobby, "table open", game="casino21", options="min_bet=101 max_bet=200"
    )
    thread = thread_of(lobby)
    res = await bob.member.slash(thread, "table join")
    assert res.ephemeral, res.response.content
    res = await bob.member.slash(thread, "table top-up", amount=40)
    assert res.ephemeral
    news = bank_topic.history()[-1].content
    assert bob.member.mention in news and amount(40, "en") in news and thread.mention in news
    assert "own funds" in news

    res = await bob.member.slash(thread, "table leave")
    assert res.ephemeral and "Confirm" in res.response.content
    confirm = res.response
    await bob.member.click(confirm, label=t("move.leave_confirm", "en"))
    news = bank_topic.history()[-1].content
    assert bob.member.mention in news and "return to the casino" in news
    claims = await service(env).bank.claims(guild.id, bob.id)
    assert [c.amount for c in claims] == [40]
    res = await bob.member.slash(lobby, "bank claim")
    assert amount(1000, "en") in embed_text(res.response)
    await assert_audit_clean(env.bot.db)
