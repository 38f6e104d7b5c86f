"""Every interaction is answered before any other request made for it (issue 36, point 6):
the autouse ``answer_first`` check of tests/e2e/conftest.py holds for every command the
e2e suite runs; here, proof that it is not blind, and ``/bank reject``, which sent its DM
first."""

from __future__ import annotations

from typing import Any

import discord

from bot.i18n import t
from tests.e2e.helpers import add_players
from tests.e2e.test_messages import admin_of, open_and_leave


async def test_the_check_fails_a_request_before_the_answer(simcord_env: Any, answer_first: Any):
    """A listener of the interaction posts before the command answers: named."""
    env = simcord_env
    guild = env.create_guild()
    lobby = guild.create_text_channel("casino")
    (alice,) = add_players(env, guild, "alice")

    async def early(interaction: discord.Interaction) -> None:
        await env.bot.get_partial_messageable(lobby.id).send("before the answer")

    env.bot.add_listener(early, "on_interaction")
    res = await alice.member.slash(lobby, "ping")
    env.bot.remove_listener(early, "on_interaction")
    assert res.ephemeral  # answered, but second
    [violation] = answer_first.violations
    assert violation.endswith(f"POST /channels/{lobby.id}/messages went out before its response")
    assert answer_first.interactions == 1
    answer_first.violations.clear()  # proven
    await alice.member.slash(lobby, "ping")  # without the listener: answered first
    assert not answer_first.violations and len(answer_first.first) == 2


async def test_bank_reject_answers_before_its_dm(simcord_env: Any, answer_first: Any):
    """The admin's answer (a deferral) goes out first, then the player's DM, then the
    answer itself."""
    env = simcord_env
    guild = env.create_guild()
    lobby = guild.create_text_channel("casino")
    _, boss = admin_of(env, guild)
    alice, bob = add_players(env, guild, "alice", "bob")
    bank_channel = guild.create_text_channel("bank")
    await boss.slash(lobby, "bank setup", channel=bank_channel, claim_approval_limit=50)
    await open_and_leave(lobby, alice, bob, 80)
    await bob.member.slash(lobby, "bank claim")
    start = len(env.http_requests)
    res = await boss.slash(lobby, "bank reject", claim_id=1, reason="a win from a bug")
    paths = [r.path for r in env.http_requests[start:]]
    dm = paths.index(f"/channels/{bob.user.dm_channel.id}/messages")
    assert paths[0].endswith("/callback") and dm > 0  # deferred, then the DM
    assert any(p.startswith("/webhooks/") for p in paths[dm:])  # then the answer
    assert "a win from a bug" in bob.dms()[-1].content
    answer = res.response.content  # the follow-up that replaced "thinking..."
    assert "a win from a bug" in answer and t("bank.reject.no_dm", "en") not in answer
    assert not answer_first.violations
