"""/stats rounds end to end: Black Jack rounds played through SimCord with rigged cards,
then each player's last rounds, newest first, in English and French, and the refusals
(a non-member, a bot, no rounds yet, no rounds at that game)."""

from __future__ import annotations

import re

import pytest

from bot.i18n import t
from tests.e2e.helpers import add_players, classic_table, table_message
from tests.e2e.test_stats import play_two_rounds

WHEN = re.compile(r"^<t:(\d+):R> · ", re.MULTILINE)


@pytest.fixture
def db_path(database_url: str) -> str:
    """This module runs on both databases (tests/conftest.py ``database_url``)."""
    return database_url


def lines(res) -> list[str]:
    """The embed's round lines, each without its leading timestamp (checked here)."""
    assert res.ephemeral
    (embed,) = res.response.embeds
    out = []
    for line in embed.description.splitlines():
        match = WHEN.match(line)
        assert match is not None, line
        out.append(line[match.end() :])
    return out


async def play_three_rounds(env):
    """The two rounds of tests/e2e/test_stats.py (alice: +15 with a Black Jack, +10; bob:
    a push, -20), then a third: alice 19 against 18 (+10), bob 16 against 18 (-20)."""
    guild, lobby, thread, table, (alice, bob) = await classic_table(env, "alice", "bob")
    table.game.rig(["AS", "TH", "TD", "KH", "QS", "KC"])
    await alice.member.click(table_message(thread, table), label="Start")
    await alice.member.click(table_message(thread, table), label="Bet 10")
    await bob.member.click(table_message(thread, table), label="Bet 20")
    await bob.member.click(table_message(thread, table), label="Stand")
    for _ in range(2):
        assert table.game.phase.value == "betting"
        table.game.rig(["TS", "9H", "TC", "9D", "7S", "8C"])
        await alice.member.click(table_message(thread, table), label="Bet 10")
        await bob.member.click(table_message(thread, table), label="Bet 20")
        await alice.member.click(table_message(thread, table), label="Stand")
        await bob.member.click(table_message(thread, table), label="Stand")
    assert table.game.phase.value == "betting"
    link = f"[#{table.id}](https://discord.com/channels/{guild.id}/{table.channel_id})"
    return lobby, link, alice, bob


async def test_rounds_newest_first_with_nets_outcomes_and_the_table_link(simcord_env):
    env = simcord_env
    lobby, table, alice, bob = await play_three_rounds(env)
    res = await alice.member.slash(lobby, "stats rounds")
    assert res.response.embeds[0].title == "Last rounds of alice · Every game"
    won = "staked 10\xa0flouz · net +10\xa0flouz · won"
    assert lines(res) == [
        f"**Black Jack** · table {table}, round 3 · {won}",
        f"**Black Jack** · table {table}, round 2 · {won}",
        f"**Black Jack** · table {table}, round 1 · staked 10\xa0flouz · net +15\xa0flouz · won"
        " · natural",
    ]
    res = await alice.member.slash(lobby, "stats rounds", member=bob.member, game="blackjack")
    assert res.response.embeds[0].title == "Last rounds of bob · Black Jack"
    lost = "staked 20\xa0flouz · net -20\xa0flouz · lost"
    assert lines(res) == [
        f"**Black Jack** · table {table}, round 3 · {lost}",
        f"**Black Jack** · table {table}, round 2 · {lost}",
        f"**Black Jack** · table {table}, round 1 · staked 20\xa0flouz · net 0\xa0flouz · pushed",
    ]
    stamps = [int(m.group(1)) for m in WHEN.finditer(res.response.embeds[0].description)]
    assert len(stamps) == 3 and stamps == sorted(stamps, reverse=True)
    # French
    await bob.member.slash(lobby, "language", language="fr")
    res = await bob.member.slash(lobby, "stats rounds")
    assert res.response.embeds[0].title == "Dernières manches de bob · Tous les jeux"
    assert lines(res) == [
        f"**Black Jack** · table {table}, manche 3 · misé 20\xa0flouz · net -20\xa0flouz · perdue",
        f"**Black Jack** · table {table}, manche 2 · misé 20\xa0flouz · net -20\xa0flouz · perdue",
        f"**Black Jack** · table {table}, manche 1 · misé 20\xa0flouz · net 0\xa0flouz · nulle",
    ]


async def test_rounds_refusals_name_what_is_wrong(simcord_env):
    env = simcord_env
    guild, lobby, _thread, alice, _bob = await play_two_rounds(env)
    (carol,) = add_players(env, guild, "carol")
    stranger = env.create_user("stranger")  # not a member of this server
    res = await alice.member.slash(lobby, "stats rounds", member=stranger)
    assert res.response.content == t("stats.error.not_member", "en", user=f"<@{stranger.id}>")
    other_bot = guild.add_member(env.create_user("dealer-bot", bot=True))
    res = await alice.member.slash(lobby, "stats rounds", member=other_bot)
    assert res.response.content == t("stats.error.bot", "en", user=f"<@{other_bot.id}>")
    res = await alice.member.slash(lobby, "stats rounds", member=carol.member)
    assert res.response.content == t("stats.error.no_rounds", "en", user=f"<@{carol.id}>")
    res = await alice.member.slash(lobby, "stats rounds", game="casino21")
    assert res.response.content == t(
        "stats.error.no_rounds_game", "en", user=f"<@{alice.id}>", game="Casino 21"
    )
