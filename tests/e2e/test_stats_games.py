"""/stats player after Sept et demi, Pirate 21 and Casino 21 rounds played through
SimCord: the banker's round, a 7½, Pirate 21's coins (no money), a void round, a two-card
21, a Casino 21 blackjack."""

from __future__ import annotations

import pytest

from tests.e2e.helpers import classic_table, table_message, table_of, thread_of
from tests.e2e.test_casino21_money import open_casino
from tests.e2e.test_pirate21_table import R1, R2, R3, R4
from tests.e2e.test_pirate21_table import open_table as pirate_table
from tests.e2e.test_sept_et_demi_table import open_table as sept_table


@pytest.fixture
def db_path(database_url: str) -> str:
    """This module runs on both databases (tests/conftest.py ``database_url``)."""
    return database_url


async def line(member, channel, who=None) -> str:
    """The one line of /stats player (for ``who``, default the member)."""
    kwargs = {} if who is None else {"member": who}
    res = await member.slash(channel, "stats player", **kwargs)
    (embed,) = res.response.embeds
    (only,) = embed.description.splitlines()
    return only


async def test_sept_et_demi_banker_and_seven_and_a_half(simcord_env):
    env = simcord_env
    _guild, thread, table, (alice, bob) = await sept_table(env, ("alice", "bob"))
    # bob 7♠, the bank 4♦; bob draws K♥ (½): 7½, paid twice his bet by the banker alice
    table.game.rig(["7S", "4D", "KH"])
    await alice.member.click(table_message(thread, table), label="Start")
    await bob.member.click(table_message(thread, table), label="Bet 25")
    await bob.member.click(table_message(thread, table), label="Hit")
    await bob.member.click(table_message(thread, table), label="Show it")
    await bob.member.click(table_message(thread, table), label="Stand")
    await alice.member.click(table_message(thread, table), label="Stand")
    assert await line(bob.member, thread) == (
        "**Sept et demi**: one round, 1 won, 0 lost, 0 pushed (win rate 100%)"
        " · net +50\xa0flouz · biggest win 50\xa0flouz · sevens and a half: 1"
    )
    assert await line(bob.member, thread, alice.member) == (
        "**Sept et demi**: one round, 0 won, 1 lost, 0 pushed (win rate 0%)"
        " · net -50\xa0flouz · biggest win 0\xa0flouz · sevens and a half: 0"
    )


async def test_pirate21_rounds_count_coins_not_money(simcord_env):
    env = simcord_env
    _guild, _lobby, thread, table, (alice, bob, carol) = await pirate_table(
        env, "alice", "bob", "carol"
    )
    table.game.rig(R1 + R2 + R3 + R4, only=True)
    await alice.member.click(table_message(thread, table), label="Start")
    # round 1: bob 19 takes the pot, carol busts, alice 16
    await bob.member.click(table_message(thread, table), label="Stand")
    await carol.member.click(table_message(thread, table), label="Hit")
    await carol.member.click(table_message(thread, table), label="Stand")
    await alice.member.click(table_message(thread, table), label="Stand")
    # round 2: bob and carol tie at 18: a void round for everyone
    await bob.member.click(table_message(thread, table), label="Stand")
    await carol.member.click(table_message(thread, table), label="Stand")
    await alice.member.click(table_message(thread, table), label="Hit")
    await alice.member.click(table_message(thread, table), label="Stand")
    # round 3: bob's BlackJack and carol's three-card 21 both take coins
    await bob.member.click(table_message(thread, table), label="Stand")
    await carol.member.click(table_message(thread, table), label="Hit")
    await carol.member.click(table_message(thread, table), label="Stand")
    await alice.member.click(table_message(thread, table), label="Stand")
    coins = "played for gold coins, no money"
    assert await line(bob.member, thread) == (
        "**Pirate 21**: 3 rounds, 2 won, 0 lost, 1 void (win rate 67%)"
        f" · BlackJacks (21 in two cards): 1 · {coins}"
    )
    assert await line(bob.member, thread, carol.member) == (
        "**Pirate 21**: 3 rounds, 1 won, 1 lost, 1 void (win rate 33%)"
        f" · BlackJacks (21 in two cards): 0 · {coins}"
    )
    assert await line(bob.member, thread, alice.member) == (
        "**Pirate 21**: 3 rounds, 0 won, 2 lost, 1 void (win rate 0%)"
        f" · BlackJacks (21 in two cards): 0 · {coins}"
    )


async def test_casino21_blackjack_and_a_loss(simcord_env):
    env = simcord_env
    _guild, _lobby, thread, table, (alice, bob) = await open_casino(env, "alice", "bob")
    # alice A♠ K♦ (ace 11): a blackjack, bet 10, +5; bob 5♣ 4♦ 3♠ 2♥ 14 against 17: -25
    table.game.rig(["AS", "KD", "5C", "4D", "9H", "8C", "3S", "2H"])
    await alice.member.click(table_message(thread, table), label="Start")
    await alice.member.click(table_message(thread, table), label="Bet 10")
    await alice.member.click(table_message(thread, table), label="Ace = 11")
    await bob.member.click(table_message(thread, table), label="Bet 25")
    await bob.member.click(table_message(thread, table), label="+1")
    await bob.member.click(table_message(thread, table), label="+1")
    await bob.member.click(table_message(thread, table), label="Stand (0)")
    assert await line(alice.member, thread) == (
        "**Casino 21**: one round, 1 won, 0 lost, 0 pushed (win rate 100%)"
        " · net +5\xa0flouz · biggest win 5\xa0flouz · blackjacks: 1"
    )
    assert await line(alice.member, thread, bob.member) == (
        "**Casino 21**: one round, 0 won, 1 lost, 0 pushed (win rate 0%)"
        " · net -25\xa0flouz · biggest win 0\xa0flouz · blackjacks: 0"
    )


async def test_every_game_line_and_ranking_over_two_games(simcord_env):
    env = simcord_env
    guild, lobby, thread, table, (alice, bob) = await classic_table(env, "alice", "bob")
    # Black Jack: alice A♠ K♥ (+15 on 10), bob 10♥ Q♠ 20 against 20 (a push on 20)
    table.game.rig(["AS", "TH", "TD", "KH", "QS", "KC"])
    await alice.member.click(table_message(thread, table), label="Start")
    await alice.member.click(table_message(thread, table), label="Bet 10")
    await bob.member.click(table_message(thread, table), label="Bet 20")
    await bob.member.click(table_message(thread, table), label="Stand")
    # Casino 21 in another channel, hosted by bob: his blackjack (+5 on 10), alice 14 (-25)
    other = guild.create_text_channel("forum-casino")
    await bob.member.slash(other, "table open", game="casino21")
    casino_thread = thread_of(other)
    casino = table_of(env, casino_thread)
    await alice.member.slash(casino_thread, "table join")
    casino.game.rig(["AS", "KD", "5C", "4D", "9H", "8C", "3S", "2H"])
    for who, label in (
        (bob, "Start"),
        (bob, "Bet 10"),
        (bob, "Ace = 11"),
        (alice, "Bet 25"),
        (alice, "+1"),
        (alice, "+1"),
        (alice, "Stand (0)"),
    ):
        await who.member.click(table_message(casino_thread, casino), label=label)
    res = await alice.member.slash(lobby, "stats player")
    assert res.response.embeds[0].description.splitlines() == [
        "**Black Jack**: one round, 1 won, 0 lost, 0 pushed (win rate 100%) · net +15\xa0flouz"
        " · biggest win 15\xa0flouz · Black Jacks: 1",
        "**Casino 21**: one round, 0 won, 1 lost, 0 pushed (win rate 0%) · net -25\xa0flouz"
        " · biggest win 0\xa0flouz · blackjacks: 0",
        "**Every game**: 2 rounds, 1 won, 1 lost, 0 pushed (win rate 50%) · net -10\xa0flouz"
        " · biggest win 15\xa0flouz · naturals: 1",
    ]
    env.bot.stats.min_rounds = 2
    res = await alice.member.slash(lobby, "stats top", period="all")
    net, rate = res.response.embeds[0].fields
    assert net.value.splitlines() == [
        f"1. <@{bob.id}> +5\xa0flouz (2 rounds)",
        f"2. <@{alice.id}> -10\xa0flouz (2 rounds)",
    ]
    assert rate.value.splitlines() == [
        f"1. <@{alice.id}> 50% (1 won of 2)",
        f"2. <@{bob.id}> 50% (1 won of 2)",
    ]
