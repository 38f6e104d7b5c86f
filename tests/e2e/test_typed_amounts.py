"""Typed amounts ("Other amount..." modal) and a second bet in a round, as players see
them: one translated ephemeral sentence, nothing changed."""

from __future__ import annotations

from typing import Any

from bot.bank.models import MAX_AMOUNT
from bot.i18n import t
from tests.e2e.helpers import (
    Player,
    add_players,
    classic_table,
    service,
    table_message,
    table_of,
    thread_of,
)
from tests.e2e.test_refusals import ROUND, Unchanged, assert_sentence, expected_refusals, reply

NBSP = "\u00a0"


async def other_amount(player: Player, thread: Any, table: Any, typed: str) -> Any:
    """Open the "Other amount..." modal from the table message and submit ``typed``."""
    shown = await player.member.click(table_message(thread, table), label="Other amount…")
    if shown.modal is None:  # the French label
        shown = await player.member.click(table_message(thread, table), label="Autre montant…")
    field = shown.modal["components"][0]["components"][0]["custom_id"]
    return await player.member.submit_modal(shown, {field: typed})


async def test_other_amount_takes_ascii_digits_only(simcord_env):
    env = simcord_env
    guild, lobby, thread, table, players = await classic_table(
        env, "alice", "bob", options="max_bet=1000", buy_in=1000
    )
    alice, bob = players
    (dave,) = add_players(env, guild, "dave")
    await bob.member.slash(lobby, "language", language="fr")
    await alice.member.click(table_message(thread, table), label="Start")
    users = [p.id for p in (*players, dave)]
    not_number = t("table.error.amount_not_number", "en")
    async with Unchanged(env, guild, thread, table, users):
        for typed in ("²", "2²", "٣٠", "３０", "½", "1,5", "1.000.00", "ten", "1e3", "+5"):
            res = await other_amount(alice, thread, table, typed)
            assert_sentence(reply(res), not_number)
        # zero or negative: the table's bets, from its minimum to the stack (200), in the
        # words /bet uses; never the bank's internal limit
        low = table.game.options.min_bet
        for typed in ("0", "-5", "−5"):
            res = await other_amount(alice, thread, table, typed)
            assert_sentence(reply(res), t("illegal.bet_out_of_range", "en", min=low, max=200))
            assert str(MAX_AMOUNT) not in reply(res)
        for typed in ("9" * 20, str(MAX_AMOUNT + 1)):  # more than any stack
            res = await other_amount(alice, thread, table, typed)
            assert_sentence(reply(res), t("illegal.insufficient_stack", "en", stack=200))
        res = await other_amount(bob, thread, table, "²")  # in French
        assert_sentence(reply(res), t("table.error.amount_not_number", "fr"))
        assert reply(res) != not_number
        res = await other_amount(bob, thread, table, "0")  # his stack is 1,000
        fr = t("illegal.bet_out_of_range", "fr", min=low, max=1000)
        assert_sentence(reply(res), fr)
        assert fr != t("illegal.bet_out_of_range", "en", min=low, max=1000)
    assert not env.errors  # every interaction answered: no crash
    # ASCII digits grouped by thousands (a no-break space, as French writes them) are a bet
    res = await other_amount(bob, thread, table, f"1{NBSP}000")
    assert res.ephemeral
    assert table.game.bets[bob.id] == 1000
    res = await other_amount(alice, thread, table, "0150")  # the host's stack is 200
    assert res.ephemeral
    assert table.game.bets[alice.id] == 150
    expected_refusals(env)


# ------------------------------------------------------------------ a second bet


async def test_a_second_bet_is_already_bet_at_black_jack(simcord_env):
    env = simcord_env
    guild, lobby, thread, table, players = await classic_table(env, "alice", "bob", "carol")
    alice, bob, carol = players
    await carol.member.slash(lobby, "language", language="fr")
    table.game.rig(ROUND.split())  # nobody has a blackjack, the dealer shows a ten
    await alice.member.click(table_message(thread, table), label="Start")
    await alice.member.click(table_message(thread, table), label="Bet 10")
    await carol.member.click(table_message(thread, table), label="Bet 10")
    users = [p.id for p in players]
    async with Unchanged(env, guild, thread, table, users):
        res = await alice.member.click(table_message(thread, table), label="Bet 10")
        assert_sentence(reply(res), t("illegal.already_bet", "en"))
        res = await alice.member.slash(thread, "bet", amount=20)
        assert_sentence(reply(res), t("illegal.already_bet", "en"))
        res = await carol.member.slash(thread, "bet", amount=20)
        assert_sentence(reply(res), t("illegal.already_bet", "fr"))
    await bob.member.click(table_message(thread, table), label="Bet 10")  # the deal
    assert table.game.phase.value == "playing"
    async with Unchanged(env, guild, thread, table, users):  # still this round
        res = await alice.member.slash(thread, "bet", amount=20)
        assert_sentence(reply(res), t("illegal.already_bet", "en"))
    expected_refusals(env)


async def test_a_second_bet_is_already_bet_at_casino21(simcord_env):
    env = simcord_env
    guild = env.create_guild()
    lobby = guild.create_text_channel("casino")
    alice, bob = add_players(env, guild, "alice", "bob")
    await alice.member.slash(lobby, "table open", game="casino21")
    thread = thread_of(lobby)
    table = table_of(env, thread)
    await bob.member.slash(thread, "table join")
    table.game.rig(["TS", "9H", "5C", "TD", "6D", "KC", "7D", "5S", "8C", "2C", "3C"])
    await alice.member.click(table_message(thread, table), label="Start")
    await alice.member.click(table_message(thread, table), label="Bet 10")
    users = [alice.id, bob.id]
    async with Unchanged(env, guild, thread, table, users):  # the first turn
        res = await alice.member.slash(thread, "bet", amount=10)
        assert_sentence(reply(res), t("illegal.already_bet", "en"))
    await bob.member.click(table_message(thread, table), label="Bet 10")  # the turn ends
    assert table.game.phase.value == "playing"
    async with Unchanged(env, guild, thread, table, users):  # a following turn
        res = await bob.member.slash(thread, "bet", amount=10)
        assert_sentence(reply(res), t("illegal.already_bet", "en"))
    expected_refusals(env)


async def test_a_second_bet_is_already_bet_at_sept_et_demi(simcord_env):
    env = simcord_env
    guild = env.create_guild()
    lobby = guild.create_text_channel("casino")
    alice, bob, carol = add_players(env, guild, "alice", "bob", "carol")
    await bob.member.slash(lobby, "language", language="fr")
    await alice.member.slash(lobby, "table open", game="sept_et_demi")
    thread = thread_of(lobby)
    table = table_of(env, thread)
    for p in (bob, carol):
        await p.member.slash(thread, "table join")
    table.game.rig(["3S", "5H", "4D", "2C", "KH", "2D", "2H"])
    await alice.member.click(table_message(thread, table), label="Start")  # alice banks
    await bob.member.slash(thread, "bet", amount=25)
    users = [alice.id, bob.id, carol.id]
    async with Unchanged(env, guild, thread, table, users):  # carol's turn to bet
        res = await bob.member.slash(thread, "bet", amount=10)
        assert_sentence(reply(res), t("illegal.already_bet", "fr"))
    await carol.member.slash(thread, "bet", amount=30)
    assert table.game.phase.value == "playing"
    async with Unchanged(env, guild, thread, table, users):
        res = await carol.member.slash(thread, "bet", amount=30)
        assert_sentence(reply(res), t("illegal.already_bet", "en"))
    assert service(env).table_in(thread.id) is table
    expected_refusals(env)
