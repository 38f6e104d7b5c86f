"""The table's own terms explained where they appear, in the reader's language: the
welcome stake and "wagered x/100" (Casino 21), the guarantee fund (Sept et demi), the
currency's name (/bank balance)."""

from __future__ import annotations

from typing import Any

import pytest

from bot.i18n import t
from tests.e2e.helpers import add_players, classic_table, table_message, table_of, thread_of


def footer(thread: Any, table: Any) -> str:
    message = table_message(thread, table)
    return message.embeds[0].footer.text or ""


async def open_table(env: Any, game: str, locale: str, **kwargs: Any) -> tuple[Any, Any, Any]:
    guild = env.create_guild()
    lobby = guild.create_text_channel("casino")
    alice, bob = add_players(env, guild, "alice", "bob")
    for p in (alice, bob):
        await p.member.slash(lobby, "language", language=locale)
    res = await alice.member.slash(lobby, "table open", game=game, **kwargs)
    assert res.ephemeral
    thread = thread_of(lobby)
    return thread, table_of(env, thread), bob


@pytest.mark.parametrize("locale", ["en", "fr"])
async def test_casino21_explains_the_welcome_stake_and_the_wagering(simcord_env, locale):
    thread, table, bob = await open_table(simcord_env, "casino21", locale)
    await bob.member.slash(thread, "table join")
    text = footer(thread, table)
    assert t("terms.welcome", locale) in text
    assert t("terms.wagered", locale, requirement=100) in text  # the table's requirement
    own = t("table.footer", locale, id=table.id, version=table.version)
    assert text.index(t("terms.welcome", locale)) < text.index(own)  # before the table's id
    other = "fr" if locale == "en" else "en"
    assert t("terms.welcome", other) not in text


async def test_casino21_without_a_welcome_stake_has_nothing_to_explain(simcord_env):
    options = "welcome_stake=0 wager_requirement=0"
    thread, table, bob = await open_table(simcord_env, "casino21", "en", options=options)
    await bob.member.slash(thread, "table join", buy_in=50)
    text = footer(thread, table)
    assert text.startswith(t("table.footer", "en", id=table.id, version=table.version))


@pytest.mark.parametrize("locale", ["en", "fr"])
async def test_sept_et_demi_explains_the_guarantee_fund(simcord_env, locale):
    thread, table, bob = await open_table(simcord_env, "sept_et_demi", locale)
    await bob.member.slash(thread, "table join")
    assert t("terms.fund", locale) in footer(thread, table)
    assert "/rules" in t("terms.fund", locale)  # where to read more


async def test_black_jack_has_no_terms_to_explain(simcord_env):
    _guild, _lobby, thread, table, _players = await classic_table(simcord_env, "alice", "bob")
    text = footer(thread, table)
    assert text.startswith(t("table.footer", "en", id=table.id, version=table.version))


@pytest.mark.parametrize("locale", ["en", "fr"])
async def test_the_balance_says_what_the_currency_is(simcord_env, locale):
    env = simcord_env
    guild = env.create_guild()
    lobby = guild.create_text_channel("casino")
    (alice,) = add_players(env, guild, "alice")
    await alice.member.slash(lobby, "language", language=locale)
    res = await alice.member.slash(lobby, "bank balance")
    text = res.response.content or ""
    assert res.ephemeral and t("bank.currency", locale, currency="flouz") in text
