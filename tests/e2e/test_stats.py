"""/stats player, /stats top and /stats chart end to end: Black Jack rounds played through
SimCord with rigged cards, then every figure the commands show, in English and French,
and the refusals (a non-member, a bot, nobody's statistics, a chart before any round)."""

from __future__ import annotations

import pytest

from bot.i18n import t
from tests.e2e.helpers import add_players, classic_table, table_message


@pytest.fixture
def db_path(database_url: str) -> str:
    """This module runs on both databases (tests/conftest.py ``database_url``)."""
    return database_url


async def play_two_rounds(env):
    """alice: a Black Jack (+15 on 10), then 19 against 18 (+10): two won, net +25, best 15.
    bob: 20 against 20 (push on 20), then 16 against 18 (-20): a push and a loss."""
    guild, lobby, thread, table, (alice, bob) = await classic_table(env, "alice", "bob")
    # deal order: each player, the dealer's up card, each player again, the hole card
    table.game.rig(["AS", "TH", "TD", "KH", "QS", "KC"])
    await alice.member.click(table_message(thread, table), label="Start")
    await alice.member.click(table_message(thread, table), label="Bet 10")
    await bob.member.click(table_message(thread, table), label="Bet 20")
    await bob.member.click(table_message(thread, table), label="Stand")
    assert table.game.phase.value == "betting"  # round 2 started by itself
    table.game.rig(["TS", "9H", "TC", "9D", "7S", "8C"])
    await alice.member.click(table_message(thread, table), label="Bet 10")
    await bob.member.click(table_message(thread, table), label="Bet 20")
    await alice.member.click(table_message(thread, table), label="Stand")
    await bob.member.click(table_message(thread, table), label="Stand")
    assert table.game.phase.value == "betting"
    return guild, lobby, thread, alice, bob


async def test_player_figures_from_rounds_played(simcord_env):
    env = simcord_env
    _guild, lobby, _thread, alice, bob = await play_two_rounds(env)
    res = await alice.member.slash(lobby, "stats player")
    assert res.ephemeral
    (embed,) = res.response.embeds
    assert embed.title == "Statistics of alice"
    (line,) = embed.description.splitlines()
    assert line == (
        "**Black Jack**: 2 rounds, 2 won, 0 lost, 0 pushed (win rate 100%) · net +25\xa0flouz"
        " · biggest win 15\xa0flouz · Black Jacks: 1"
    )
    res = await alice.member.slash(lobby, "stats player", member=bob.member, game="blackjack")
    (line,) = res.response.embeds[0].description.splitlines()
    assert line == (
        "**Black Jack**: 2 rounds, 0 won, 1 lost, 1 pushed (win rate 0%) · net -20\xa0flouz"
        " · biggest win 0\xa0flouz · Black Jacks: 0"
    )
    # another game: nothing played there yet, said in one sentence
    res = await alice.member.slash(lobby, "stats player", game="casino21")
    assert res.response.content == t(
        "stats.error.no_rounds_game", "en", user=f"<@{alice.id}>", game="Casino 21"
    )
    # French
    await alice.member.slash(lobby, "language", language="fr")
    res = await alice.member.slash(lobby, "stats player")
    (embed,) = res.response.embeds
    assert embed.title == "Statistiques de alice"
    assert embed.description == (
        "**Black Jack**\xa0: 2 manches, 2 gagnées, 0 perdues, 0 nulles (taux de victoire"
        " 100\xa0%) · net +25\xa0flouz · plus gros gain 15\xa0flouz · Black Jacks obtenus\xa0: 1"
    )


async def test_top_orders_net_and_win_rates_with_a_minimum(simcord_env):
    env = simcord_env
    guild, lobby, _thread, alice, bob = await play_two_rounds(env)
    (carol,) = add_players(env, guild, "carol")
    env.bot.stats.min_rounds = 2
    for period in ("week", "all"):
        res = await carol.member.slash(lobby, "stats top", period=period)
        (embed,) = res.response.embeds
        net, rate = embed.fields
        assert net.name == "Best net results"
        assert net.value.splitlines() == [
            f"1. <@{alice.id}> +25\xa0flouz (2 rounds)",
            f"2. <@{bob.id}> -20\xa0flouz (2 rounds)",
        ]
        assert rate.name == "Best win rates (2 rounds or more)"
        assert rate.value.splitlines() == [
            f"1. <@{alice.id}> 100% (2 won of 2)",
            f"2. <@{bob.id}> 0% (0 won of 2)",
        ]
    week = await carol.member.slash(lobby, "stats top", period="week", game="blackjack")
    title = week.response.embeds[0].title
    assert title.startswith("Top players · Black Jack · This week, from Monday 20")
    env.bot.stats.min_rounds = 3  # nobody has three rounds: no win rate is ranked
    res = await carol.member.slash(lobby, "stats top", period="all")
    assert res.response.embeds[0].fields[1].value == "Nobody has played 3 rounds yet."
    res = await carol.member.slash(lobby, "stats top", game="pirate21")
    assert res.response.content == t("stats.error.nobody", "en")


async def test_refusals_name_what_is_wrong(simcord_env):
    env = simcord_env
    guild, lobby, _thread, alice, _bob = await play_two_rounds(env)
    (carol,) = add_players(env, guild, "carol")
    stranger = env.create_user("stranger")  # not a member of this server
    res = await alice.member.slash(lobby, "stats player", member=stranger)
    assert res.response.content == t("stats.error.not_member", "en", user=f"<@{stranger.id}>")
    other_bot = guild.add_member(env.create_user("dealer-bot", bot=True))
    res = await alice.member.slash(lobby, "stats player", member=other_bot)
    assert res.response.content == t("stats.error.bot", "en", user=f"<@{other_bot.id}>")
    res = await alice.member.slash(lobby, "stats player", member=carol.member)
    assert res.response.content == t("stats.error.no_rounds", "en", user=f"<@{carol.id}>")
    res = await carol.member.slash(lobby, "stats chart")
    text = res.response.content if res.response else ""
    texts = [text, *(m.content for m in res.followups)]
    assert t("stats.error.no_chart", "en", user=f"<@{carol.id}>") in texts
    res = await alice.member.slash(lobby, "stats chart", member=stranger)
    assert res.response.content == t("stats.error.not_member", "en", user=f"<@{stranger.id}>")


async def test_chart_is_a_png_with_alt_text_and_its_figures_in_words(simcord_env):
    env = simcord_env
    _guild, lobby, _thread, alice, _bob = await play_two_rounds(env)
    res = await alice.member.slash(lobby, "stats chart")
    assert res.ephemeral
    messages = [m for m in [res.response, *res.followups] if m is not None and m.attachments]
    (message,) = messages
    (picture,) = message.attachments
    assert picture.filename == "bankroll.png"
    data = await picture.read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and 10_000 < len(data) < 500_000
    # alice: 1,000 minted; 200 onto the table (the host's buy-in); +15; +10 (bets are no
    # points: their chips are hers until the round is settled)
    alt = picture.description
    assert alt.startswith("Line chart of the money of alice from ")
    assert alt.endswith(
        ": 1,000\xa0flouz at first, 1,025\xa0flouz now, highest 1,025\xa0flouz,"
        " lowest 1,000\xa0flouz."
    )
    words = message.content
    assert words.startswith(
        f"Money of <@{alice.id}>: 1,025\xa0flouz now (800\xa0flouz in the bank,"
        " 225\xa0flouz in chips on tables), 1,000\xa0flouz at first; highest 1,025\xa0flouz ("
    )
    assert words.endswith("4 points on the chart, one per settled round or bank movement.")
