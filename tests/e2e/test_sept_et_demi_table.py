"""Sept et demi end to end through SimCord (the real bot, no mocks): a full 3-round game
with the rotating bank, hidden-card swaps, DMs, summaries, ranking, money and audit; the
guarantee fund; the vote to stop; the timers."""

from __future__ import annotations

from typing import Any

import pytest

from bot.i18n import t
from tests.bank.ledger import casino_money
from tests.bank_audit import assert_audit_clean
from tests.e2e.helpers import (
    Player,
    add_players,
    assert_never_public,
    card_texts,
    embed_text,
    ping_requests,
    private_texts,
    public_texts,
    service,
    table_message,
    table_of,
    thread_of,
)
from tests.e2e.test_refusals import Unchanged, assert_sentence, expected_refusals, reply

SHOW = "Show it"
HIDE = "Hide it (show the other)"
HIT = "Hit"
STAND = "Stand"


@pytest.fixture
def db_path(database_url: str) -> str:
    """This module runs on both databases (tests/conftest.py ``database_url``)."""
    return database_url


# ------------------------------------------------------------------------------ helpers


async def open_table(env: Any, names: tuple[str, ...], options: str | None = None):
    """A guild, a lobby, players (the first one hosts) seated at a Sept et demi table."""
    guild = env.create_guild()
    lobby = guild.create_text_channel("casino")
    players = add_players(env, guild, *names)
    kwargs: dict[str, Any] = {"game": "sept_et_demi", "name": "Le Tapis"}
    if options:
        kwargs["options"] = options
    opened = await players[0].member.slash(lobby, "table open", **kwargs)
    assert opened.ephemeral, opened.response.content
    thread = thread_of(lobby)
    table = table_of(env, thread)
    for p in players[1:]:
        res = await p.member.slash(thread, "table join")
        assert res.ephemeral and "seated" in res.response.content, res.response.content
    return guild, thread, table, players


def text(thread: Any, table: Any) -> str:
    return embed_text(table_message(thread, table))


def labels(thread: Any, table: Any) -> list[str]:
    message = table_message(thread, table)
    return [c.label for row in message.components for c in row.children]


async def click(player: Player, thread: Any, table: Any, label: str):
    res = await player.member.click(table_message(thread, table), label=label)
    return res


def seat_line(thread: Any, table: Any, player: Player) -> str:
    """The line of the table message about one player."""
    for line in text(thread, table).splitlines():
        if f"<@{player.id}> · stack " in line:
            return line
    raise AssertionError(f"no seat line for {player.id}:\n{text(thread, table)}")


def assert_dms_private(thread: Any, players: list[Player], own: dict[int, list[str]]) -> None:
    """Nobody received another player's private cards (by DM or in an answer)."""
    for p in players:
        mine = "\n".join(private_texts(p, thread))
        for other, codes in own.items():
            if other == p.id:
                continue
            for card in card_texts(codes):
                assert card not in mine, f"{card} of {other} in the DMs of {p.id}"


async def hand(player: Player, thread: Any) -> str:
    res = await player.member.slash(thread, "hand")
    assert res.ephemeral
    return res.response.content


def summaries(thread: Any) -> list[str]:
    return [t for t in public_texts(thread) if "results**" in t or "résultats**" in t]


# ------------------------------------------------------------------------------ 1. a full game


async def test_full_game_three_players_three_rounds(simcord_env):
    env = simcord_env
    guild, thread, table, players = await open_table(env, ("alice", "bob", "carol"), "rounds=3")
    alice, bob, carol = players
    bank = service(env).bank
    for p in players:  # the buy-in (200) came from each balance at join
        assert await bank.balance(guild.id, p.id) == 800
    lobby_text = text(thread, table)
    assert "Le Tapis" in lobby_text and "Buy-in 200" in lobby_text
    assert labels(thread, table) == ["Join", "Start", "Leave", "Leave and collect"]
    treasury = await casino_money(env.bot.db, guild.id)

    # ---------------------------------------------------------------- round 1: alice banks
    # deal: bob 3♠, carol 5♥, bank 4♦; bob draws 2♣ then K♥, carol 2♦, the bank 2♥
    table.game.rig(["3S", "5H", "4D", "2C", "KH", "2D", "2H"])
    before = len(env.http_requests)
    await click(alice, thread, table, "Start")
    t = text(thread, table)
    assert f"🏦 Bank (<@{alice.id}>): 🂠 · face down" in t
    assert "Guarantee fund: 500 (of 500) · round 1 of 3" in t
    assert f"turn: <@{bob.id}>" in t and "bets: from 1 to 100" in t
    assert "holds the bank" in seat_line(thread, table, alice)
    assert "▶" in seat_line(thread, table, bob) and "🂠" in seat_line(thread, table, bob)
    assert labels(thread, table)[:5] == ["Bet 1", "Bet 25", "Bet 50", "Bet 100", "Other amount…"]
    assert "Sit out" in labels(thread, table) and "Vote to stop" in labels(thread, table)
    assert "3♠" in private_texts(bob, thread)[-1] and "5♥" in private_texts(carol, thread)[-1]
    assert private_texts(alice, thread) == []  # the banker does not see the bank's card
    assert_never_public(thread, ["3S", "5H", "4D"])

    await click(bob, thread, table, "Bet 25")
    res = await carol.member.slash(thread, "bet", amount=30)
    assert res.ephemeral
    assert "bet 25" in seat_line(thread, table, bob) and "bet 30" in seat_line(thread, table, carol)
    refused = await carol.member.click(table_message(thread, table), label=HIT)
    assert refused.ephemeral and "not your turn" in refused.response.content

    # bob draws 2♣ privately, hides it and shows 3♠
    await click(bob, thread, table, HIT)
    assert "drew a card" in text(thread, table)
    assert labels(thread, table)[:2] == [SHOW, HIDE]
    assert (
        "2♣" in private_texts(bob, thread)[-1]
        and "3♠" in private_texts(bob, thread)[-1]
        and "**5**" in private_texts(bob, thread)[-1]
    )
    assert_never_public(thread, ["3S", "2C", "5H", "4D"])
    await click(bob, thread, table, HIDE)
    assert "3♠" in seat_line(thread, table, bob) and "🂠" in seat_line(thread, table, bob)
    assert "Your hidden card is now **2♣**" in private_texts(bob, thread)[-1]
    assert_never_public(thread, ["2C", "5H", "4D"])
    mine = await hand(bob, thread)
    assert "hidden card: 2♣" in mine and "Shown: 3♠" in mine and "total: **5**" in mine
    theirs = await hand(carol, thread)
    assert "2♣" not in theirs and "3♠" not in theirs and "5♥" in theirs
    my_cards = await bob.member.click(table_message(thread, table), label="My cards")
    assert my_cards.ephemeral and "2♣" in my_cards.response.content
    # then K♥, shown: 3♠ K♥ in view, 2♣ still hidden
    await click(bob, thread, table, HIT)
    assert "K♥" in private_texts(bob, thread)[-1] and "5½" in private_texts(bob, thread)[-1]
    assert "K♥" not in text(thread, table)
    await click(bob, thread, table, SHOW)
    assert "3♠ K♥" in seat_line(thread, table, bob)
    assert_never_public(thread, ["2C", "5H", "4D"])
    await click(bob, thread, table, STAND)
    # carol by commands: /hit, /show, /stand
    dms = len(carol.dms())
    hit = await carol.member.slash(thread, "hit")  # one answer, the card drawn in it
    assert hit.ephemeral and not hit.followups and len(carol.dms()) == dms
    assert "2♦" in hit.response.content and "**7**" in hit.response.content
    shown = (await carol.member.slash(thread, "show")).response.content
    assert shown == "You show 2♦: your shown cards total **2**."
    assert (await carol.member.slash(thread, "stand")).ephemeral
    # the bank's turn: its card is public now, Carte ! / Servi for alice only
    t = text(thread, table)
    assert "The bank plays" in t and f"🏦 Bank (<@{alice.id}>): 4♦ · **4**" in t
    assert labels(thread, table)[:2] == [HIT, STAND]
    refused = await bob.member.click(table_message(thread, table), label=HIT)
    assert "not your turn" in refused.response.content
    assert_never_public(thread, ["2C", "5H"])
    # round 2 is rigged now (after the bank's 2♥): it starts by itself when round 1 is settled
    table.game.rig(["2H", "7S", "6C", "3C", "JD", "4H", "5D"])
    await click(alice, thread, table, HIT)
    assert "4♦ 2♥ · **6**" in text(thread, table)
    await click(alice, thread, table, STAND)
    round_calls = env.http_requests[before:]
    print(f"REST calls for round 1 (3 players): {len(round_calls)}")
    print([(r.method, r.path) for r in round_calls])

    summary = summaries(thread)[-1]
    assert "Round 1 — results" in summary
    assert f"🏦 Bank (<@{alice.id}>): 4♦ 2♥ **6**" in summary
    assert f"<@{bob.id}> 3♠ K♥ 2♣ **5½** — equal or below the bank" in summary
    assert "**−25**" in summary
    assert f"<@{carol.id}> 2♦ 5♥ **7** — above the bank: the bank pays the bet · **+30**" in summary
    assert f"Banker <@{alice.id}>: −5" in summary
    assert "Shuffle seed revealed" in summary
    # round 2 has started: bob banks, carol and alice have their cards by DM
    t = text(thread, table)
    assert "round 2 of 3" in t and f"🏦 Bank (<@{bob.id}>): 🂠" in t
    assert "stack 195" in seat_line(thread, table, alice)
    assert "stack 175" in seat_line(thread, table, bob)
    assert "stack 230" in seat_line(thread, table, carol)
    assert (
        "(round 2)" in private_texts(carol, thread)[-1] and "7♠" in private_texts(carol, thread)[-1]
    )
    assert (
        "(round 2)" in private_texts(alice, thread)[-1] and "6♣" in private_texts(alice, thread)[-1]
    )
    assert_never_public(thread, ["7S", "6C", "3C"])

    # ---------------------------------------------------------------- round 2: bob banks
    # carol bet 30 last round: "Same bet" for her; bob now holds the bank and may not bet
    assert labels(thread, table)[:6] == [
        *("Same bet", "Rebet ×2"),
        *("Bet 1", "Bet 28", "Bet 57", "Bet 115"),
    ]
    refused = await click(bob, thread, table, "Same bet")
    assert refused.ephemeral and refused.response.content == "The banker does not bet."
    assert (await carol.member.slash(thread, "bet", amount=50)).ephemeral
    assert (await alice.member.slash(thread, "bet", amount=20)).ephemeral
    await click(carol, thread, table, HIT)  # J♦: 7½
    assert "7½" in private_texts(carol, thread)[-1]
    await click(carol, thread, table, SHOW)
    await click(carol, thread, table, STAND)
    await click(alice, thread, table, HIT)  # 4♥: 6 + 4 = 10, over 7½: shown, lost at once
    line = seat_line(thread, table, alice)
    assert "6♣" in line and "4♥" in line and "over 7½" in line
    assert "7♠" not in text(thread, table)
    table.game.rig(["5D", "2S", "QH", "7C", "5S", "7D", "KS"])  # the bank's 5♦, then round 3
    await click(bob, thread, table, HIT)  # the bank: 3♣ 5♦ = 8, over
    summary = summaries(thread)[-1]
    assert "Round 2 — results" in summary
    assert f"🏦 Bank (<@{bob.id}>): 3♣ 5♦ **8** · over 7½" in summary
    assert f"<@{carol.id}> J♦ 7♠ **7½** — 7½! the bank pays twice the bet · **+100**" in summary
    assert f"<@{alice.id}> 6♣ 4♥ **10** — over 7½: the bet goes to the bank · **−20**" in summary
    assert f"Banker <@{bob.id}>: −80" in summary
    assert "stack 95" in seat_line(thread, table, bob)
    assert f"🏦 Bank (<@{carol.id}>)" in text(thread, table)

    # ---------------------------------------------------------------- round 3: carol banks
    assert (await alice.member.slash(thread, "bet", amount=25)).ephemeral
    assert (await bob.member.slash(thread, "bet", amount=10)).ephemeral
    await click(alice, thread, table, HIT)  # 5♠, hidden: 2♠ shown
    await click(alice, thread, table, HIDE)
    assert "2♠" in seat_line(thread, table, alice)
    assert "Your hidden card is now **5♠**" in private_texts(alice, thread)[-1]
    await click(alice, thread, table, STAND)
    await click(bob, thread, table, HIT)  # 7♦: 7½, hidden; Q♥ shown
    hid = await bob.member.slash(thread, "hide")  # one answer: what he showed, what he hides
    assert hid.ephemeral and not hid.followups
    assert "Q♥" in seat_line(thread, table, bob)
    assert hid.response.content.startswith("You show Q♥ and hide the new card")
    assert "Your hidden card is now **7♦** · your total: **7½**" in hid.response.content
    assert_never_public(thread, ["5S", "7D", "7C"])
    await click(bob, thread, table, STAND)
    assert "7♣ · **7**" in text(thread, table)
    await click(carol, thread, table, HIT)  # K♠: the bank has 7½ (and may still draw)
    assert "7♣ K♠ · **7½**" in text(thread, table)
    await click(carol, thread, table, STAND)
    summary = summaries(thread)[-1]
    assert "Round 3 — results" in summary
    assert f"<@{bob.id}> Q♥ 7♦ **7½** — the bank has 7½: the player pays twice the bet" in summary
    assert "**−20**" in summary and "**−50**" in summary

    # ---------------------------------------------------------------- the end
    final = next(t for t in reversed(public_texts(thread)) if "final ranking" in t)
    assert "The round limit (3) is reached." in final
    ranks = final.splitlines()
    first = next(i for i, line in enumerate(ranks) if f"<@{carol.id}>" in line)
    second = next(i for i, line in enumerate(ranks) if f"<@{alice.id}>" in line)
    third = next(i for i, line in enumerate(ranks) if f"<@{bob.id}>" in line)
    assert first < second < third
    assert "🥇" in ranks[first] and "stack 400" in ranks[first]
    assert "stack 125" in ranks[second] and "stack 75" in ranks[third]
    assert "The guarantee fund returns 500 to the treasury." in final
    assert "final ranking" in text(thread, table) and labels(thread, table) == []
    assert service(env).table_in(thread.id) is None

    # DMs: each player got their own cards, nobody else's
    # by DM or in the answer to their own click
    assert len(private_texts(alice, thread)) == 4  # deal r2, deal r3, 5♠ drawn, hidden 5♠
    # r1: deal, 2♣, hidden 2♣, K♥; r3: deal, 7♦ (his /hide's answer said the hidden 7♦)
    assert len(private_texts(bob, thread)) == 6
    assert len(private_texts(carol, thread)) == 3  # r1: deal (her /hit's answer: 2♦); r2: deal, J♦
    assert_dms_private(
        thread,
        players,
        {
            alice.id: ["6C", "2S", "5S"],
            bob.id: ["3S", "2C", "KH", "QH", "7D"],
            carol.id: ["5H", "2D", "7S", "JD"],
        },
    )
    # money: balances untouched since the buy-in, stacks are claims, the fund went home
    expected = {alice.id: 125, bob.id: 75, carol.id: 400}
    for p in players:
        assert await bank.balance(guild.id, p.id) == 800
        claims = await bank.claims(guild.id, p.id)
        assert [c.amount for c in claims] == [expected[p.id]]
    assert await casino_money(env.bot.db, guild.id) == treasury
    await assert_audit_clean(env.bot.db)


# ------------------------------------------------------------------------------ 2. the fund


async def test_guarantee_fund_pays_when_the_bank_runs_short(simcord_env):
    env = simcord_env
    guild, thread, table, players = await open_table(env, ("alice", "bob", "carol"), "buy_in=20")
    alice, bob, carol = players
    bank = service(env).bank
    treasury = await casino_money(env.bot.db, guild.id)
    # bob and carol both make 7½ (7 hidden + K shown); the bank stops at 3
    table.game.rig(["7S", "7H", "3C", "KH", "KD"])
    await click(alice, thread, table, "Start")
    assert await casino_money(env.bot.db, guild.id) == treasury - 500  # the fund opened
    assert labels(thread, table)[:4] == ["Bet 1", "Bet 2", "Bet 5", "Bet 10"]
    for p in (bob, carol):
        await click(p, thread, table, "Bet 10")
    for p in (bob, carol):
        await click(p, thread, table, HIT)
        await click(p, thread, table, SHOW)
        await click(p, thread, table, STAND)
    await click(alice, thread, table, STAND)
    summary = summaries(thread)[-1]
    # each is owed twice 10; the bank's 20 pays bob (first on its left), the fund pays carol
    assert f"<@{bob.id}> K♥ 7♠ **7½** — 7½! the bank pays twice the bet · **+20**" in summary
    assert f"<@{carol.id}> K♦ 7♥ **7½** — 7½! the bank pays twice the bet · **+20**" in summary
    assert "(bank paid 0, fund paid 20)" in summary
    assert "The guarantee fund paid 20; 480 left in it." in summary
    assert "unpaid" not in summary
    assert f"<@{alice.id}> has no chips left and leaves the table." in summary
    t = text(thread, table)
    assert "Guarantee fund: 480 (of 500)" in t
    # the bank passed to bob, and the next round started by itself without its host
    assert f"🏦 Bank (<@{bob.id}>)" in t and "round 2" in t
    assert f"<@{alice.id}> · stack" not in t
    res = await alice.member.slash(thread, "table close")
    assert res.ephemeral
    final = next(t for t in reversed(public_texts(thread)) if "final ranking" in t)
    assert "The guarantee fund returns 480 to the treasury." in final
    assert await casino_money(env.bot.db, guild.id) == treasury - 20
    assert [c.amount for c in await bank.claims(guild.id, bob.id)] == [40]
    assert [c.amount for c in await bank.claims(guild.id, carol.id)] == [40]
    assert await bank.claims(guild.id, alice.id) == []
    await assert_audit_clean(env.bot.db)


async def test_guarantee_fund_runs_out_winners_share_pro_rata(simcord_env):
    env = simcord_env
    guild, thread, table, players = await open_table(
        env, ("alice", "bob", "carol", "dave"), "buy_in=20 guarantee_fund=15"
    )
    alice, bob, carol, dave = players
    table.game.rig(["7S", "7H", "7D", "3C", "KH", "KD", "KC"])
    await click(alice, thread, table, "Start")
    for p in (bob, carol, dave):
        await click(p, thread, table, "Bet 10")
    for p in (bob, carol, dave):
        await click(p, thread, table, HIT)
        await click(p, thread, table, SHOW)
        await click(p, thread, table, STAND)
    await click(alice, thread, table, STAND)
    summary = summaries(thread)[-1]
    # owed 20 each: the bank's 20 pays bob; the fund's 15 is shared 8 / 7 (exact 7½ each)
    assert f"<@{bob.id}> K♥ 7♠ **7½** — 7½! the bank pays twice the bet · **+20**" in summary
    assert (
        f"<@{carol.id}> K♦ 7♥ **7½** — 7½! the bank pays twice the bet · **+8** "
        "(bank paid 0, fund paid 8 (pro rata share, exact 15/2), unpaid 12)"
    ) in summary
    assert (
        f"<@{dave.id}> K♣ 7♦ **7½** — 7½! the bank pays twice the bet · **+7** "
        "(bank paid 0, fund paid 7 (pro rata share, exact 15/2), unpaid 13)"
    ) in summary
    assert "The guarantee fund paid 15; 0 left in it." in summary
    assert "25 unpaid (shared pro rata)" in summary
    t = text(thread, table)
    assert "Guarantee fund: 0 (of 15)" in t
    assert "stack 40" in seat_line(thread, table, bob)
    assert "stack 28" in seat_line(thread, table, carol)
    assert "stack 27" in seat_line(thread, table, dave)
    await alice.member.slash(thread, "table close")
    bank = service(env).bank
    assert [c.amount for c in await bank.claims(guild.id, carol.id)] == [28]
    await assert_audit_clean(env.bot.db)


# ------------------------------------------------------------------------------ 3. vote


async def test_majority_vote_stops_the_game(simcord_env):
    env = simcord_env
    guild, thread, table, players = await open_table(env, ("alice", "bob", "carol"))
    alice, bob, carol = players
    await click(alice, thread, table, "Start")
    res = await click(bob, thread, table, "Vote to stop")
    assert "Votes to stop: 1 (majority: 2)" in text(thread, table)
    assert "✋" in seat_line(thread, table, bob)
    again = await bob.member.slash(thread, "table vote-stop")
    assert again.ephemeral and "already voted" in again.response.content
    res = await carol.member.slash(thread, "table vote-stop")
    assert "Your vote to stop is counted (2/2)." in res.response.content
    t = text(thread, table)
    assert "Votes to stop: 2 (majority: 2)" in t
    assert "the game ends after this round" in t
    assert "Bets" in t  # the round in progress is played to its end
    await click(bob, thread, table, "Sit out")
    await click(carol, thread, table, "Sit out")
    summary = summaries(thread)[-1]
    assert "Nobody played this round." in summary
    final = next(t for t in reversed(public_texts(thread)) if "final ranking" in t)
    assert "A majority voted to stop after one round." in final
    assert "The guarantee fund returns 500 to the treasury." in final
    assert "final ranking" in text(thread, table) and labels(thread, table) == []
    bank = service(env).bank
    for p in players:
        assert [c.amount for c in await bank.claims(guild.id, p.id)] == [200]
    await assert_audit_clean(env.bot.db)


async def test_vote_between_rounds_stops_at_once(simcord_env):
    env = simcord_env
    _guild, thread, table, players = await open_table(
        env, ("alice", "bob", "carol"), "auto_next=off"
    )
    alice, bob, carol = players
    table.game.rig(["2S", "3S", "4S"])
    await click(alice, thread, table, "Start")
    await click(bob, thread, table, "Sit out")
    await click(carol, thread, table, "Sit out")
    t = text(thread, table)
    assert "Between rounds" in t and f"Next round, the bank goes to <@{bob.id}>." in t
    assert "Next round" in labels(thread, table)
    await click(alice, thread, table, "Vote to stop")
    assert service(env).table_in(thread.id) is not None
    await click(carol, thread, table, "Vote to stop")
    assert service(env).table_in(thread.id) is None
    final = next(t for t in reversed(public_texts(thread)) if "final ranking" in t)
    assert "A majority voted to stop" in final
    await assert_audit_clean(env.bot.db)


# ------------------------------------------------------------------------------ refusals


async def test_refusals_during_a_round_say_what_is_wrong(simcord_env):
    """The banker's bet, a bet over half the stack, a seat or a leave during the round, a
    leave with a bet in play: one translated sentence each, nothing changed."""
    env = simcord_env
    guild, thread, table, players = await open_table(env, ("alice", "bob", "carol"))
    alice, bob, carol = players
    (dave,) = add_players(env, guild, "dave")
    await carol.member.slash(thread, "language", language="fr")
    table.game.rig(["3S", "5H", "4D"])
    await click(alice, thread, table, "Start")  # alice banks; bob bets first
    users = [p.id for p in (*players, dave)]
    async with Unchanged(env, guild, thread, table, users):
        res = await alice.member.slash(thread, "bet", amount=10)
        assert_sentence(reply(res), t("illegal.banker_cannot_bet", "en"))
        res = await bob.member.slash(thread, "bet", amount=101)  # half of 200 at most
        assert_sentence(reply(res), t("illegal.bet_out_of_range", "en", min=1, max=100))
        res = await dave.member.slash(thread, "table join")
        assert_sentence(reply(res), t("table.error.join_between_rounds", "en"))
        res = await carol.member.slash(thread, "table leave")
        assert_sentence(reply(res), t("illegal.round_in_progress", "fr"))
    await click(bob, thread, table, "Bet 25")
    async with Unchanged(env, guild, thread, table, users):
        res = await bob.member.slash(thread, "table leave")
        assert_sentence(reply(res), t("illegal.in_round", "en"))
        res = await bob.member.slash(thread, "bet", amount=10)
        assert_sentence(reply(res), t("illegal.already_bet", "en"))
    expected_refusals(env)
    await alice.member.slash(thread, "table close")
    await assert_audit_clean(env.bot.db)


# ------------------------------------------------------------------------------ 4. timers


async def test_timers_sit_out_and_stand(simcord_env):
    env = simcord_env
    _guild, thread, table, players = await open_table(env, ("alice", "bob", "carol"))
    alice, bob, carol = players
    # bob 5♠ hidden, carol 6♥, the bank 4♣; bob draws 2♦ (the bank draws nothing)
    table.game.rig(["5S", "6H", "4C", "2D"])
    await click(alice, thread, table, "Start")
    await click(bob, thread, table, "Bet 25")
    # carol never bets: when the betting time is over she sits the round out
    assert "ends <t:" in text(thread, table)
    await env.advance_time(65)
    assert "sits out" in seat_line(thread, table, carol)
    assert f"turn: <@{bob.id}>" in text(thread, table)
    # bob draws, then neither shows nor hides: at the deadline his new card is shown and
    # he stands
    await click(bob, thread, table, HIT)
    assert "2♦" in private_texts(bob, thread)[-1]
    await env.advance_time(95)
    line = seat_line(thread, table, bob)
    assert "2♦" in line and "stood" in line
    assert "5♠" not in text(thread, table)
    # the bank's turn: the banker does nothing, the bank stands on its 4
    t = text(thread, table)
    assert "The bank plays" in t and "4♣ · **4**" in t
    await env.advance_time(95)
    summary = summaries(thread)[-1]
    assert f"<@{bob.id}> 2♦ 5♠ **7** — above the bank: the bank pays the bet · **+25**" in summary
    assert f"<@{carol.id}>" not in summary  # she sat out
    t = text(thread, table)
    assert "round 2" in t and f"🏦 Bank (<@{bob.id}>)" in t
    assert "stack 225" in seat_line(thread, table, bob)
    assert "stack 175" in seat_line(thread, table, alice)
    await alice.member.slash(thread, "table close")
    await assert_audit_clean(env.bot.db)


# ------------------------------------------------------------------------------ French, REST


async def test_french_table_and_dms(simcord_env):
    env = simcord_env
    guild = env.create_guild()
    lobby = guild.create_text_channel("casino")
    alice, bob = add_players(env, guild, "alice", "bob")
    res = await alice.member.slash(lobby, "language", language="fr")
    assert res.ephemeral
    await bob.member.slash(lobby, "language", language="fr")  # his DMs: his language
    await alice.member.slash(lobby, "table open", game="sept_et_demi")
    thread = thread_of(lobby)
    table = table_of(env, thread)
    await bob.member.slash(thread, "table join")
    assert "Cave 200 · fonds de garantie 500" in text(thread, table)
    table.game.rig(["3S", "2H", "4C"])  # bob, the bank, bob's card
    await click(alice, thread, table, "Commencer")
    t = text(thread, table)
    assert f"🏦 Banque (<@{alice.id}>)\u00a0: 🂠 · face cachée" in t
    assert "Fonds de garantie\u00a0: 500 (sur 500)" in t and "tient la banque" in t
    assert private_texts(bob, thread)[-1].startswith(
        "Votre carte cachée\u00a0: **3♠** · votre total\u00a0: **3** (manche 1)."
    )
    await click(bob, thread, table, "Miser 1")
    await click(bob, thread, table, "Carte\u00a0!")
    assert "Vous avez tiré **4♣**" in private_texts(bob, thread)[-1]
    assert labels(thread, table)[:2] == ["La montrer", "La cacher (montrer l'autre)"]
    await click(bob, thread, table, "La cacher (montrer l'autre)")
    assert "Votre carte cachée est maintenant **4♣**" in private_texts(bob, thread)[-1]
    await click(bob, thread, table, "Servi")
    await click(alice, thread, table, "Servi")
    summary = summaries(thread)[-1]
    assert "**Manche 1 — résultats**" in summary
    assert "au-dessus de la banque\u00a0: la banque paie la mise" in summary
    await alice.member.slash(thread, "table close")
    final = next(t for t in reversed(public_texts(thread)) if "classement final" in t)
    assert "La table a été fermée après une manche." in final
    await assert_audit_clean(env.bot.db)


async def test_rest_calls_of_one_round_with_three_players(simcord_env):
    """One plain round: deal, two bets, one card drawn and shown, two Servi, the bank's
    Servi (summary, next deal). Counts every REST call the bot makes."""
    env = simcord_env
    _guild, thread, table, players = await open_table(env, ("alice", "bob", "carol"))
    alice, bob, carol = players
    table.game.rig(["3S", "5H", "4D", "2C"])
    before = len(env.http_requests)
    await click(alice, thread, table, "Start")
    await click(bob, thread, table, "Bet 25")
    await click(carol, thread, table, "Bet 25")
    await click(bob, thread, table, HIT)
    await click(bob, thread, table, SHOW)
    await click(bob, thread, table, STAND)
    await click(carol, thread, table, STAND)
    await click(alice, thread, table, STAND)
    calls = [(r.method, r.path.split("/")[1]) for r in env.http_requests[before:]]
    print(f"REST calls, one round with 3 players: {len(calls)}: {calls}")
    assert summaries(thread)  # the round was settled, the next one dealt
    # 8 clicks answered by editing the table message (8 interaction callbacks); bob's
    # card and alice's next deal in follow-ups of their own clicks; DMs: the deal to bob
    # and carol, the next deal to carol (2 DM channels opened once each); the summary
    assert calls.count(("POST", "interactions")) == 8
    assert calls.count(("POST", "webhooks")) == 2
    assert calls.count(("POST", "users")) == 2
    assert calls.count(("POST", "channels")) == 3 + 1
    assert len(calls) == 8 + 2 + 2 + 4


async def test_nobody_bets_then_the_idle_table_closes(simcord_env):
    env = simcord_env
    guild, thread, table, players = await open_table(env, ("alice", "bob", "carol"))
    alice, bob, _carol = players
    await click(alice, thread, table, "Start")
    # nobody bets: each bettor's window expires in turn and they sit the round out
    await env.advance_time(65)
    assert not summaries(thread) or "Nobody played" not in summaries(thread)[-1]
    await env.advance_time(65)
    summary = summaries(thread)[-1]
    assert "Nobody played this round." in summary
    t = text(thread, table)
    # an empty round does not deal another one by itself: the table waits for a click
    assert "Between rounds" in t and "Next round" in labels(thread, table)
    assert f"Next round, the bank goes to <@{bob.id}>." in t
    await env.advance_time(31 * 60)  # idle: the table closes itself, stacks become claims
    assert service(env).table_in(thread.id) is None
    bank = service(env).bank
    for p in players:
        assert [c.amount for c in await bank.claims(guild.id, p.id)] == [200]
    await assert_audit_clean(env.bot.db)


# ------------------------------------------------------------------------------ forum pace


async def test_forum_pace_pings_each_bettor_player_and_the_banker(simcord_env):
    """The bets and the bank's turn go round one player at a time: each one is pinged when
    the game comes to them, and nobody is pinged to go on with their own turn."""
    env = simcord_env
    _guild, thread, table, players = await open_table(env, ("alice", "bob", "carol"), "pace=forum")
    alice, bob, carol = players
    # bob 3♠ and carol 5♥ hidden, the bank 4♦; bob draws 2♣, the bank A♥
    table.game.rig(["3S", "5H", "4D", "2C", "AH"])

    def pinged(start: int) -> list[tuple[str, list[int]]]:
        return [(r["content"], r["users"]) for r in ping_requests(env, thread.id, start)]

    start = len(env.http_requests)
    await click(alice, thread, table, "Start")  # alice banks round 1: bob bets first
    assert pinged(start) == [(f"<@{bob.id}>, it is your turn.", [bob.id])]
    start = len(env.http_requests)
    await click(bob, thread, table, "Bet 25")
    assert pinged(start) == [(f"<@{carol.id}>, it is your turn.", [carol.id])]
    start = len(env.http_requests)
    await click(carol, thread, table, "Sit out")  # the bets are done: bob plays first
    assert pinged(start) == [(f"<@{bob.id}>, it is your turn.", [bob.id])]
    start = len(env.http_requests)
    await click(bob, thread, table, HIT)  # his own turn goes on: no ping
    await click(bob, thread, table, SHOW)
    assert pinged(start) == []
    await click(bob, thread, table, STAND)  # the bank's card is shown: the banker's turn
    assert pinged(start) == [(f"<@{alice.id}>, it is your turn.", [alice.id])]
    assert "The bank plays" in text(thread, table)
    start = len(env.http_requests)
    await click(alice, thread, table, HIT)  # the banker plays on: no ping
    assert pinged(start) == []
    assert "4♦ A♥ · **5**" in text(thread, table)
    await alice.member.slash(thread, "table close")
    await assert_audit_clean(env.bot.db)


async def test_forum_pace_no_ping_for_the_turn_that_follows_your_own_bet(simcord_env):
    """With one bettor, the bets end on his bet and his turn to play follows at once: he is
    at the table, nobody is pinged."""
    env = simcord_env
    _guild, thread, table, players = await open_table(env, ("alice", "bob"), "pace=forum")
    alice, bob = players
    await click(alice, thread, table, "Start")
    start = len(env.http_requests)
    await click(bob, thread, table, "Bet 25")
    assert f"turn: <@{bob.id}>" in text(thread, table)
    assert ping_requests(env, thread.id, start) == []
    await alice.member.slash(thread, "table close")
    await assert_audit_clean(env.bot.db)
