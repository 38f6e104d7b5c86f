"""Pirate 21 end to end through SimCord: a whole standard game, the shared-treasure variant,
privacy (hidden cards never public, a bust looks like a stand), closed DMs and the turn
timer. Real bot, real database; only the pile is rigged (the engine's test hook)."""

from __future__ import annotations

import re
from typing import Any

from bot.engine.cards import pirate54
from bot.engine.shuffle import commitment, shoe_key, shuffled
from tests.bank_audit import assert_audit_clean
from tests.e2e.helpers import (
    Player,
    add_players,
    assert_never_public,
    card_texts,
    embed_text,
    private_texts,
    service,
    table_message,
    table_of,
    thread_of,
)
from tests.sql import fetchone

BACKS = "🂠🂠"


# ----------------------------------------------------------------------------- helpers


async def open_table(env: Any, *names: str, options: str | None = None) -> tuple[Any, ...]:
    """A guild, a lobby channel, players (the first one hosts), a table with all seated."""
    guild = env.create_guild()
    lobby = guild.create_text_channel("port")
    players = add_players(env, guild, *names)
    kwargs: dict[str, Any] = {"game": "pirate21", "name": "Tortuga"}
    if options:
        kwargs["options"] = options
    opened = await players[0].member.slash(lobby, "table open", **kwargs)
    assert opened.ephemeral
    thread = thread_of(lobby)
    table = table_of(env, thread)
    for p in players[1:]:
        res = await p.member.click(table_message(thread, table), label="Join")
        assert not res.ephemeral  # the click edits the table message
    return guild, lobby, thread, table, players


def text(thread: Any, table: Any) -> str:
    return embed_text(table_message(thread, table))


def seat(thread: Any, table: Any, player: Player) -> str:
    """The table message's line for one player."""
    (embed,) = table_message(thread, table).embeds
    seats = embed.fields[0].value or ""
    lines = [line for line in seats.splitlines() if f"<@{player.id}>" in line]
    assert len(lines) == 1, seats
    return lines[0]


def labels(thread: Any, table: Any) -> list[str]:
    message = table_message(thread, table)
    return [c.label for row in message.components for c in row.children]


def public_after(thread: Any, table: Any, count: int) -> list[str]:
    """Public messages posted after the first ``count`` ones (the table message excluded)."""
    msgs = [m for m in thread.history() if m.id != table.message_id]
    return [embed_text(m) for m in msgs[count:]]


def announcements(thread: Any, table: Any) -> list[str]:
    return [embed_text(m) for m in thread.history() if m.id != table.message_id]


# ----------------------------------------------------------------------------- 1. a full game

# Seat order: the dealer (alice, the host) plays last: bob, carol, alice. Each round deals
# bob, carol, alice, bob, carol, alice; hits come next from the pile.
R1 = ["TS", "5C", "8S", "9H", "7D", "8D", "KC"]  # bob 19 · carol 12+K bust · alice 16
R2 = ["9S", "TH", "6H", "9D", "8C", "4D", "2H"]  # bob 18 · carol 18 · alice 10+2: void
R3 = ["AS", "9C", "QS", "KH", "2D", "7C", "TD"]  # bob BJ · carol 11+10=21 · alice 17
R4 = ["3C", "AH", "5D", "4H", "JD", "6D"]  # bob 7 · carol BJ alone · alice 11; pile empty
HIDDEN = {
    1: {"bob": ["TS", "9H"], "carol": ["5C", "7D"], "alice": ["8S", "8D"]},
    2: {"bob": ["9S", "9D"], "carol": ["TH", "8C"], "alice": ["6H", "4D"]},
    3: {"bob": ["AS", "KH"], "carol": ["9C", "2D"], "alice": ["QS", "7C"]},
    4: {"bob": ["3C", "4H"], "carol": ["AH", "JD"], "alice": ["5D", "6D"]},
}


def all_hidden(rnd: int) -> list[str]:
    return [c for cards in HIDDEN[rnd].values() for c in cards]


def check_dms(
    thread: Any,
    players: dict[str, Player],
    rnd: int,
    counts: dict[str, int],
    answers: dict[str, list[str]] | None = None,
) -> None:
    """Each player's private messages (DMs, the answers to their own clicks, ``answers``:
    those to their own commands) hold exactly their own cards of this round, never the
    others' (nor their totals)."""
    for name, p in players.items():
        said = (answers or {}).get(name, [])
        texts = [*private_texts(p, thread), *said]
        assert len(texts) == counts[name], (name, texts)
        mine = card_texts(HIDDEN[rnd][name])
        deal = [t for t in texts if f"(round {rnd})" in t]
        assert len(deal) == 1, (name, texts)
        assert all(c in deal[0] for c in mine), deal[0]
        if deal[0] in said:  # the answer to their own command: its move, then the cards
            assert "Your hidden cards" in deal[0] and "https://" not in deal[0]
        elif deal[0] in [m.content for m in p.dms()]:  # a DM ends with the table and its link
            assert deal[0].startswith("Your hidden cards")  # what changed first
            assert deal[0].splitlines()[-1].startswith("**Pirate 21 — Tortuga** https://")
        else:  # the answer to their own click, under the table: neither
            assert deal[0].startswith("Your hidden cards")
            assert "Tortuga" not in deal[0] and "https://" not in deal[0]
        everything = "\n".join(texts)
        for r in range(1, rnd + 1):
            for other, cards in HIDDEN[r].items():
                if other != name:
                    for c in card_texts(cards):
                        assert c not in everything, (name, other, c)


async def test_full_standard_game_three_players(simcord_env):
    env = simcord_env
    guild, _lobby, thread, table, (alice, bob, carol) = await open_table(
        env, "alice", "bob", "carol"
    )
    players = {"alice": alice, "bob": bob, "carol": carol}
    lobby_text = text(thread, table)
    assert "3/8" in lobby_text and "Treasure: 10" in lobby_text
    assert labels(thread, table) == ["Join", "Start", "Leave"]
    # no buy-in, no money: nobody's bank moved, no seat escrow
    assert await service(env).bank.claims(guild.id) == []

    table.game.rig(R1 + R2 + R3 + R4, only=True)

    # ---- round 1: a single winner (bob 19), carol busts silently, alice stands
    res = await bob.member.click(table_message(thread, table), label="Start")
    assert res.ephemeral and "host" in res.response.content  # only the host starts
    start_calls = len(env.http_requests)
    await alice.member.click(table_message(thread, table), label="Start")
    t = text(thread, table)
    assert "round 1" in t and f"turn: <@{bob.id}>" in t
    assert "Treasure **9**" in t and "Pot **1**" in t and "Pile **21**" in t
    assert seat(thread, table, bob) == f"▶ <@{bob.id}> · 🪙 0 · {BACKS}"
    assert seat(thread, table, alice) == f"<@{alice.id}> · 🎩 dealer · 🪙 0 · {BACKS}"
    assert labels(thread, table) == ["Hit", "Stand", "My cards"]
    check_dms(thread, players, 1, {"alice": 1, "bob": 1, "carol": 1})
    assert "total **19**" in private_texts(bob, thread)[-1]
    assert_never_public(thread, all_hidden(1))

    res = await carol.member.click(table_message(thread, table), label="Stand")
    assert res.ephemeral and "not your turn" in res.response.content
    await bob.member.click(table_message(thread, table), label="Stand")
    assert seat(thread, table, bob) == f"<@{bob.id}> · 🪙 0 · {BACKS} · ✋ stood"
    assert seat(thread, table, carol).startswith("▶ ")
    await carol.member.click(table_message(thread, table), label="Hit")
    # the bust looks like any hit: K♣ public, the turn stays, no word of it in public
    assert seat(thread, table, carol) == f"▶ <@{carol.id}> · 🪙 0 · {BACKS} K♣"
    assert f"turn: <@{carol.id}>" in text(thread, table)
    assert "**22**" not in text(thread, table) and announcements(thread, table) == []
    assert "bust" in private_texts(carol, thread)[-1] and "K♣" in private_texts(carol, thread)[-1]
    await carol.member.click(table_message(thread, table), label="Stand")
    assert seat(thread, table, carol) == f"<@{carol.id}> · 🪙 0 · {BACKS} K♣ · ✋ stood"
    assert f"turn: <@{alice.id}>" in text(thread, table)
    assert all("bust" not in t for t in private_texts(bob, thread) + private_texts(alice, thread))
    assert_never_public(thread, all_hidden(1))
    await alice.member.click(table_message(thread, table), label="Stand")
    round_calls = len(env.http_requests) - start_calls

    (r1,) = announcements(thread, table)
    assert "Round 1 — showdown" in r1
    assert f"<@{bob.id}> 10♠ 9♥ = **19**" in r1
    assert f"<@{carol.id}> 5♣ 7♦ · K♣ = **22** · 💥 bust" in r1
    assert f"<@{alice.id}> 8♠ 8♦ = **16**" in r1
    assert f"🏆 <@{bob.id}> takes the pot: +1." in r1
    assert "Treasure 9 · pot 0" in r1
    t = text(thread, table)
    assert "round 2" in t and "Treasure **8**" in t and "Pot **1**" in t
    assert seat(thread, table, bob) == f"▶ <@{bob.id}> · 🪙 1 · {BACKS}"
    check_dms(thread, players, 2, {"alice": 2, "bob": 2, "carol": 3})
    assert_never_public(thread, all_hidden(2))

    # ---- round 2: bob and carol tie at 18: void, the pot stays in play
    await bob.member.slash(thread, "stand")
    await carol.member.slash(thread, "stand")
    res = await alice.member.slash(thread, "hit")
    assert res.ephemeral and not res.followups  # one answer: the card drawn and the total
    assert seat(thread, table, alice) == f"▶ <@{alice.id}> · 🎩 dealer · 🪙 0 · {BACKS} 2♥"
    assert "You drew 2♥" in res.response.content and "total **12**" in res.response.content
    assert_never_public(thread, all_hidden(2))
    hand = await alice.member.click(table_message(thread, table), label="My cards")
    assert hand.ephemeral and "6♥ 4♦" in hand.response.content and "2♥" in hand.response.content
    stood = await alice.member.slash(thread, "stand")  # ends round 2: one answer, with
    assert not stood.followups  # her cards of round 3 after her stand
    assert stood.response.content.startswith("You stand.\nYour hidden cards")
    assert "(round 3)" in stood.response.content
    r2 = announcements(thread, table)[-1]
    assert "Round 2 — showdown" in r2 and "⚖️ Void round" in r2
    assert f"<@{bob.id}>, <@{carol.id}> tie below 21" in r2 and "1 coin(s) stay in play" in r2
    t = text(thread, table)
    assert "Pot **2**" in t and "Treasure **7**" in t and "Void round" in t
    # alice's /hit said her card in its answer, her /stand her next deal
    answers = {"alice": [stood.response.content]}
    check_dms(thread, players, 3, {"alice": 3, "bob": 3, "carol": 4}, answers)
    assert_never_public(thread, all_hidden(3))

    # ---- round 3: bob (BlackJack) and carol tie at 21: 2 + 1 coins
    assert "BlackJack" in private_texts(bob, thread)[-1]
    await bob.member.click(table_message(thread, table), label="Stand")
    await carol.member.click(table_message(thread, table), label="Hit")
    assert (
        "total **21**" in private_texts(carol, thread)[-1]
        and "bust" not in private_texts(carol, thread)[-1]
    )
    await carol.member.click(table_message(thread, table), label="Stand")
    await alice.member.click(table_message(thread, table), label="Stand")
    r3 = announcements(thread, table)[-1]
    assert "Round 3 — showdown" in r3 and "⭐ BlackJack" in r3
    assert f"Tie at 21: <@{bob.id}> +2, <@{carol.id}> +1." in r3
    assert "Treasure 6 · pot 0" in r3
    check_dms(thread, players, 4, {"alice": 4, "bob": 4, "carol": 6}, answers)
    assert_never_public(thread, all_hidden(4))

    # ---- round 4: carol alone with a BlackJack takes 2; the pile is empty: game over
    for p in (bob, carol, alice):
        await p.member.click(table_message(thread, table), label="Stand")
    *_, r4, final = announcements(thread, table)
    assert "Round 4 — showdown" in r4 and f"🏆 <@{carol.id}> takes the pot: +2." in r4
    assert "game over" in final and "The pile ran out." in final
    assert final.index(f"🥇 <@{bob.id}> — 🪙 3") < final.index(f"🥇 <@{carol.id}> — 🪙 3")
    assert f"🥉 <@{alice.id}> — 🪙 0" in final
    assert "share the win" in final and "Shuffle seed revealed" in final
    t = text(thread, table)
    assert "game over" in t and "🥇" in t and labels(thread, table) == []
    assert service(env).table_in(thread.id) is None  # closed

    # no money anywhere: no journal entry, no seat, no claim for this table
    db = env.bot.db
    assert await fetchone(db, "SELECT 1 FROM bank_entries WHERE table_id = ?", (table.id,)) is None
    assert await fetchone(db, "SELECT 1 FROM bank_seats WHERE table_id = ?", (table.id,)) is None
    assert await service(env).bank.claims(guild.id) == []
    await assert_audit_clean(db)
    print(f"\nREST calls for one full round with 3 players: {round_calls}")


# ----------------------------------------------------------------------------- 2. shared variant


async def test_shared_variant_to_its_end(simcord_env):
    env = simcord_env
    _guild, _lobby, thread, table, (alice, bob, carol) = await open_table(
        env, "alice", "bob", "carol", options="variant=shared coins_per_player=2"
    )
    assert "Shared treasure: 2 coins each" in text(thread, table)
    table.game.rig(
        [
            *["TS", "5C", "8S", "9H", "7D", "8D"],  # bob 19 wins the 3 antes
            *["AS", "9C", "QS", "KH", "2D", "7C", "TD"],  # bob BJ, carol 21: split 1+1
            *["9S", "TH", "9D", "4D", "2H"],  # alice is out; bob 18 beats carol 16
        ],
        only=True,
    )
    await alice.member.click(table_message(thread, table), label="Start")
    t = text(thread, table)
    assert "shared treasure" in t and "Pot **3**" in t and "Treasure **" not in t
    assert seat(thread, table, bob) == f"▶ <@{bob.id}> · 🪙 1 · {BACKS}"
    for p in (bob, carol, alice):
        await p.member.click(table_message(thread, table), label="Stand")
    r1 = announcements(thread, table)[-1]
    assert f"🏆 <@{bob.id}> takes the pot: +3." in r1 and "Pot 0" in r1

    await bob.member.click(table_message(thread, table), label="Stand")
    await carol.member.click(table_message(thread, table), label="Hit")
    await carol.member.click(table_message(thread, table), label="Stand")
    assert_never_public(thread, ["QS", "7C"])
    await alice.member.click(table_message(thread, table), label="Stand")
    # the round's summary and what follows it, in one message: the old table message
    last = announcements(thread, table)[-1]
    assert "the pot is split" in last and "1 coin(s) stay in play" in last
    assert last.splitlines()[-1] == f"<@{alice.id}> has no coin left and leaves the game."
    assert seat(thread, table, alice) == f"<@{alice.id}> · 🎩 dealer · 🪙 0 · out of coins"
    assert "Pot **3**" in text(thread, table)

    await bob.member.click(table_message(thread, table), label="Stand")
    await carol.member.click(table_message(thread, table), label="Hit")
    await carol.member.click(table_message(thread, table), label="Stand")
    *_, r3, final = announcements(thread, table)
    assert f"🏆 <@{bob.id}> takes the pot: +3." in r3
    assert "One pirate holds every coin." in final and f"🥇 <@{bob.id}> — 🪙 6" in final
    assert f"🥈 <@{carol.id}> — 🪙 0" in final and f"🥈 <@{alice.id}> — 🪙 0" in final
    assert f"🏆 Winner: <@{bob.id}>!" in final
    assert service(env).table_in(thread.id) is None
    await assert_audit_clean(env.bot.db)


# ----------------------------------------------------------------------------- 3. shared treasure

SHARED_PILE = [
    *["TS", "5C", "8S", "9H", "7D", "8D"],  # R1: bob 19 takes the pot of 4
    *["AS", "9C", "QS", "KH", "2D", "7C", "TD"],  # R2: bob BJ, carol 11+T: 21 each, 3 split
    *["9S", "TH", "6H", "9D", "4D", "8H", "KS"],  # R3: bob 18, carol 14, alice 14+K bust
    *["JS", "2S", "QD", "3S"],  # R4 (alice is out): bob 20, carol 5; the pile is empty
]
SHA = re.compile(r"[0-9a-f]{64}")
CODE_OF = {str(card): card.code for card in pirate54()}  # "10♠" -> "TS"


async def test_shared_treasure_divided_and_played_to_its_end(simcord_env):
    """variant=shared with the default treasure of 10 for 3 players: 3 coins each and 1 in
    the first pot; antes, a tie at 21 splitting the pot (1 coin stays), a bust shown at the
    showdown only, a player out of coins, the empty pile reshuffled (committed before the
    card drawn from it, its seed revealed at the end and checked), one pirate with every
    coin."""
    env = simcord_env
    _guild, lobby, thread, table, (alice, bob, carol) = await open_table(
        env, "alice", "bob", "carol", options="variant=shared"
    )
    assert "the 10 coins are divided among the players" in text(thread, table)
    table.game.rig(SHARED_PILE, only=True)
    await alice.member.click(table_message(thread, table), label="Start")
    t = text(thread, table)
    # 3 coins each, 1 left in the pot; everyone antes one: 2 each, pot 1 + 3
    assert "shared treasure" in t and "Pot **4**" in t and "Treasure **" not in t
    for p in (alice, bob, carol):
        assert "· 🪙 2 ·" in seat(thread, table, p)
    # the footer: the pile in use and the next pile's seed, committed already
    first_commitment, next_commitment = SHA.findall(t)

    # ---- round 1: bob 19 takes the 4 coins
    for p in (bob, carol, alice):
        await p.member.click(table_message(thread, table), label="Stand")
    r1 = announcements(thread, table)[-1]
    assert f"🏆 <@{bob.id}> takes the pot: +4." in r1
    assert f"coins: <@{bob.id}> 6, <@{carol.id}> 2, <@{alice.id}> 2" in r1
    assert "Pot **3**" in text(thread, table)  # round 2's antes

    # ---- round 2: bob (BlackJack) and carol tie at 21: 3 coins split, 1 stays in play
    await bob.member.click(table_message(thread, table), label="Stand")
    await carol.member.click(table_message(thread, table), label="Hit")
    await carol.member.click(table_message(thread, table), label="Stand")
    await alice.member.click(table_message(thread, table), label="Stand")
    r2 = announcements(thread, table)[-1]
    assert f"the pot is split: <@{bob.id}> +1, <@{carol.id}> +1. 1 coin(s) stay in play." in r2
    assert "Pot **4**" in text(thread, table)  # 1 left + bob's, carol's and alice's last coin
    assert seat(thread, table, alice).startswith(f"<@{alice.id}> · 🎩 dealer · 🪙 0 ·")

    # ---- round 3: alice busts on K♠, which only the showdown tells; bob takes 4
    await bob.member.click(table_message(thread, table), label="Stand")
    await carol.member.click(table_message(thread, table), label="Stand")
    before = len(thread.history())
    await alice.member.click(table_message(thread, table), label="Hit")
    assert len(thread.history()) == before and "Over 21" in private_texts(alice, thread)[-1]
    assert seat(thread, table, alice).startswith("▶ ")  # still her turn
    await alice.member.click(table_message(thread, table), label="Stand")
    # the summary, the player out and the reshuffle fit in one message: the old table one
    r3 = announcements(thread, table)[-1]
    out = next(line for line in r3.splitlines() if "has no coin left" in line)
    reshuffle = r3.split(out, 1)[1]
    assert f"<@{alice.id}> 6♥ 8♥ · K♠ = **24** · 💥 bust" in r3
    assert f"🏆 <@{bob.id}> takes the pot: +4." in r3
    assert out == f"<@{alice.id}> has no coin left and leaves the game."
    # round 4's deal took the pile's last card: the 20 played cards are reshuffled at once
    assert "the 20 played cards" in reshuffle
    (second_commitment,) = SHA.findall(reshuffle)
    assert second_commitment == next_commitment  # committed before round 3 was dealt
    assert second_commitment in text(thread, table)  # the footer shows the pile in use
    assert seat(thread, table, alice) == f"<@{alice.id}> · 🎩 dealer · 🪙 0 · out of coins"
    assert "Pot **2**" in text(thread, table)

    # ---- round 4: carol (5) draws from the new pile: at most 16, bob's 20 wins it all
    await bob.member.click(table_message(thread, table), label="Stand")
    await carol.member.click(table_message(thread, table), label="Hit")
    drawn = seat(thread, table, carol).split(BACKS)[1].strip()
    await carol.member.click(table_message(thread, table), label="Stand")
    *_, r4, final = announcements(thread, table)
    assert f"🏆 <@{bob.id}> takes the pot: +2." in r4
    assert "One pirate holds every coin." in final and f"🥇 <@{bob.id}> — 🪙 10" in final
    assert f"🥈 <@{carol.id}> — 🪙 0" in final and f"🥈 <@{alice.id}> — 🪙 0" in final
    assert f"🏆 Winner: <@{bob.id}>!" in final
    assert service(env).table_in(thread.id) is None

    # both seeds are revealed; each matches its commitment (checked with /verify, as a
    # player would), and the second one reprints the reshuffled pile: carol's card first
    seeds = {commitment(bytes.fromhex(s)): s for s in SHA.findall(final)}
    assert {first_commitment, second_commitment} <= set(seeds)
    for posted, seed in seeds.items():
        res = await carol.member.slash(lobby, "verify", seed=seed, commitment=posted)
        assert "Verified" in res.response.content
    # the new pile is the 20 played cards in the order the seed gives the whole deck
    played = set(SHARED_PILE[:20])
    # (mixed with the shoe's number and the players' client seeds the reveal lists)
    seed = seeds[second_commitment]
    mixed = re.search(rf"`{seed}`\n[^\n]*\n[^\n`#]*#(\d+)[^`\n]*`([^`]+)`", final)
    assert mixed is not None, final
    key = shoe_key(bytes.fromhex(seed), int(mixed[1]), mixed[2].split())
    whole = shuffled(pirate54(), key)
    assert drawn == str(next(c for c in whole if c.code in played))
    await assert_audit_clean(env.bot.db)
