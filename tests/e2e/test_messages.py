"""Issue 22: every message right for its reader, read as each person received it through
SimCord: the order of results and deals, seats in seat order, the close posts, the exact
figures shown only when a payout was rounded."""

from __future__ import annotations

import re
from typing import Any

import pytest

from bot.i18n import t
from tests.bank_audit import assert_audit_clean
from tests.card_markup import readable
from tests.e2e.helpers import (
    Player,
    add_players,
    embed_text,
    ping_requests,
    service,
    table_message,
    table_of,
    thread_of,
)
from tests.e2e.test_bank_cog_claims import admin_of, open_and_leave
from tests.e2e.test_languages import Round, rigged
from tests.e2e.test_sept_et_demi_table import STAND, click

MENTION = re.compile(r"<@(\d+)>")


async def open_game(
    env: Any, game: str, names: tuple[str, ...] = ("alice", "bob", "carol"), **kwargs: Any
) -> tuple[Any, Any, Any, list[Player]]:
    """A table of ``game`` opened by the first player, the others seated."""
    guild = env.create_guild()
    lobby = guild.create_text_channel("casino")
    players = add_players(env, guild, *names)
    await players[0].member.slash(lobby, "table open", game=game, **kwargs)
    thread = thread_of(lobby)
    table = table_of(env, thread)
    join = {"blackjack": {"buy_in": 100}}.get(game, {})
    for p in players[1:]:
        await p.member.slash(thread, "table join", **join)
    return guild, thread, table, players


def posts(env: Any, channel_id: int, start: int = 0) -> list[str]:
    """The contents of the messages the bot posted in a channel, and of the table messages
    it turned into a round's summary (by REST, or in the response to a click: the tests
    here click only in that channel), in the order sent."""
    out = []
    messages = f"/channels/{channel_id}/messages"
    for r in env.http_requests[start:]:
        body = r.json or {}
        if r.method == "POST" and r.path.endswith("/callback") and body.get("type") == 7:
            body = body.get("data") or {}  # UPDATE_MESSAGE: the clicked message itself
        elif r.method not in ("POST", "PATCH") or not r.path.startswith(messages):
            continue
        if body.get("content"):
            out.append(readable(env, body["content"]))
    return out


def seat_ids(table: Any) -> list[int]:
    return [s.player for s in table.game.seats]


def mentioned(line: str) -> list[int]:
    return [int(m) for m in MENTION.findall(line)]


async def test_results_are_posted_before_the_next_rounds_private_cards(simcord_env):
    """Sept et demi starts the next round by itself: round 1's results reach the thread
    before anyone's round 2 card reaches their DMs."""
    env = simcord_env
    _guild, thread, table, players = await open_game(env, "sept_et_demi")
    alice, bob, carol = players
    table.game.rig(["3S", "5H", "4D"])
    await click(alice, thread, table, "Start")
    await bob.member.slash(thread, "bet", amount=10)
    await carol.member.slash(thread, "bet", amount=10)
    await bob.member.slash(thread, "stand")
    await carol.member.slash(thread, "stand")
    start = len(env.http_requests)
    await alice.member.slash(thread, "stand")  # the bank stops: round 1 settles, round 2 deals
    order = []
    dms = {p.user.dm_channel.id: p for p in (bob, carol)}
    for r in env.http_requests[start:]:
        ids = [int(n) for n in re.findall(r"\d+", r.path)]
        content = (r.json or {}).get("content") or ""
        # the results: the old table message edited into round 1's summary
        if r.method == "PATCH" and ids and ids[0] == thread.id and "Round 1" in content:
            order.append("results")
        if r.method == "POST" and ids and ids[0] in dms and "round 2" in content:
            order.append("deal")
    assert order and order[0] == "results" and order.count("results") == 1, order
    assert "deal" in order, order
    await alice.member.slash(thread, "table close")
    await assert_audit_clean(env.bot.db)


async def test_a_sept_et_demi_bust_shows_its_cards_in_the_summary_in_seat_order(simcord_env):
    """Round 2 (bob banks): carol busts with 7♥ 7♠; the summary shows her cards, lists the
    players in seat order (alice before carol, though carol plays first), and the final
    post counts the rounds as a person would."""
    env = simcord_env
    _guild, thread, table, players = await open_game(env, "sept_et_demi")
    alice, bob, carol = players
    table.game.rig(["3S", "5H", "4D"])
    await click(alice, thread, table, "Start")
    for p in (bob, carol):
        await p.member.slash(thread, "bet", amount=10)
    for p in (bob, carol):
        await p.member.slash(thread, "stand")
    # round 2 from bob's left: carol, then alice, then the bank; carol draws 7♠ over 7♥
    table.game.rig(["7H", "2C", "4S", "7S"])
    await alice.member.slash(thread, "stand")  # round 1 settles, round 2 is dealt
    assert table.game.banker == bob.id
    for p in (carol, alice):
        await p.member.slash(thread, "bet", amount=10)
    await carol.member.slash(thread, "hit")
    await alice.member.slash(thread, "stand")
    start = len(env.http_requests)
    await click(bob, thread, table, STAND)
    summary = next(p for p in posts(env, thread.id, start) if "Round 2" in p)
    lines = summary.splitlines()
    carol_line = next(line for line in lines if line.startswith(f"<@{carol.id}>"))
    assert "7♥" in carol_line and "7♠" in carol_line, summary
    players_lines = [mentioned(line)[0] for line in lines if line.startswith("<@")]
    assert players_lines == [alice.id, carol.id], summary
    start = len(env.http_requests)
    await alice.member.slash(thread, "table close")
    final = "\n".join(posts(env, thread.id, start))
    assert "after 2 rounds." in final and "(s)" not in final, final
    await assert_audit_clean(env.bot.db)


async def test_casino21_figures_and_close_post_say_each_thing_once(simcord_env):
    """A whole payout shows no "(exact …)"; the close post says the table is closed once."""
    env = simcord_env
    _guild, thread, table, players = await open_game(env, "casino21")
    alice = players[0]
    table.game.rig(rigged("casino21"))
    await Round(env, thread, table, []).click(alice, "start", None)
    await Round(env, thread, table, players).play()
    summary = next(p for p in posts(env, thread.id) if "Round 1" in p)
    assert "+5" in summary and "exact" not in summary, summary
    start = len(env.http_requests)
    await alice.member.slash(thread, "table close")
    final = "\n".join(posts(env, thread.id, start))
    assert final.count("closed") == 1, final
    await assert_audit_clean(env.bot.db)


@pytest.mark.parametrize("game", ["blackjack", "casino21", "pirate21", "sept_et_demi"])
async def test_a_closed_tables_message_says_so_with_its_standings_and_no_buttons(
    simcord_env, game: str
):
    """After a round and ``/table close``, the table message (as a player sees it) says the
    table is closed, names every player with what they left with, asks nobody to join, and
    carries no button."""
    env = simcord_env
    _guild, thread, table, players = await open_game(env, game)
    alice = players[0]
    if game != "sept_et_demi":
        table.game.rig(rigged(game))
    await Round(env, thread, table, []).click(alice, "start", None)
    await Round(env, thread, table, players).play()
    await alice.member.slash(thread, "table close")
    message = table_message(thread, table)
    text = embed_text(message)
    assert message.components == [], message.components
    assert "closed" in text.lower() or "Final" in text or "final" in text, text
    for p in players:
        assert f"<@{p.id}>" in text, text
    assert "Nobody yet" not in text and "/table join" not in text, text
    assert "Round 2" not in text and "round 2" not in text, text
    assert "face down" not in text, text  # no bank line of a round that will not be played
    if game != "pirate21":
        await assert_audit_clean(env.bot.db)


@pytest.mark.parametrize(("game", "seats"), [("blackjack", 7), ("sept_et_demi", 8)])
async def test_a_full_table_shows_no_join_button(simcord_env, game: str, seats: int):
    """Once the last seat is taken, nobody is offered Join (one seat earlier, they were)."""
    env = simcord_env
    names = tuple(f"p{i}" for i in range(seats))
    _guild, thread, table, players = await open_game(env, game, names[:-1])

    def labels() -> list[str]:
        message = table_message(thread, table)
        return [c.label for row in message.components for c in row.children]

    assert "Join" in labels()
    last = add_players(env, _guild, names[-1])[0]
    await last.member.slash(
        thread, "table join", **({"buy_in": 100} if game == "blackjack" else {})
    )
    assert len(table.game.seats) == seats
    assert "Join" not in labels() and "Start" in labels(), labels()
    await players[0].member.slash(thread, "table close")


def answers(res: Any) -> list[str]:
    """Every ephemeral text an interaction got (its response, then its follow-ups)."""
    out = []
    if res.response is not None and res.response.content and res.response.ephemeral:
        out.append(res.response.content)
    out += [m.content for m in res.followups if m.ephemeral and m.content]
    return out


async def test_leaving_says_how_much_goes_to_the_bank_and_how_to_collect_it(simcord_env):
    """Black Jack, before the first round: bob leaves by the Leave button, carol by
    ``/table leave``; each reads the stack that goes to the bank and ``/bank claim``."""
    env = simcord_env
    _guild, thread, table, players = await open_game(env, "blackjack")
    _alice, bob, carol = players
    res = await bob.member.click(table_message(thread, table), label="Leave")
    said = answers(res)
    assert any("100" in a and "/bank claim" in a for a in said), said
    res = await carol.member.slash(thread, "table leave")
    said = answers(res)
    assert len(said) == 1 and "100" in said[0] and "/bank claim" in said[0], said
    await assert_audit_clean(env.bot.db)


async def test_a_forfeit_that_leaves_nothing_never_says_a_stack_waits(simcord_env):
    """Casino 21: bob sits down (the welcome stake, 100) and leaves at once, confirming the
    forfeit: he reads that the casino takes 100 back and nothing is left to collect, and
    the thread says the same; nobody says a stack waits at the bank."""
    env = simcord_env
    _guild, thread, _table, players = await open_game(env, "casino21")
    bob = players[1]
    start = len(env.http_requests)
    res = await bob.member.slash(thread, "table leave")
    confirm = res.response.message
    res = await bob.member.click(confirm, custom_id=confirm.components[0].children[0].custom_id)
    said = answers(res)
    assert said and "100" in said[-1] and "nothing" in said[-1], said
    news = [p for p in posts(env, thread.id, start) if f"<@{bob.id}>" in p]
    assert news and "nothing" in news[-1], news
    for text in [*said, *news]:
        assert "waiting at the bank" not in text and "goes to the bank" not in text, text
    await assert_audit_clean(env.bot.db)


ODD = re.compile(r"\(s\)|\(none\)|\bno limit\b|Created by an admin|`#\d+`")


async def test_every_bank_answer_reads_as_sentences(simcord_env):
    """``/bank setup`` without an approval limit, then with one; a held claim and a pending
    one in ``/bank balance``; the history's starting balance: no "(s)", no "no limit
    (none)", no admin credited with a starting balance, dates as Discord timestamps."""
    env = simcord_env
    guild = env.create_guild()
    lobby = guild.create_text_channel("casino")
    bank_channel = guild.create_text_channel("bank")
    _, boss = admin_of(env, guild)
    alice, bob = add_players(env, guild, "alice", "bob")
    read: list[str] = []

    def answer(res: Any) -> str:
        message = res.followups[-1] if res.followups else res.response
        text = embed_text(message)
        read.append(text)
        return text

    setup = answer(await boss.slash(lobby, "bank setup", channel=bank_channel))
    assert "paid at once" in setup and "no approval limit" in setup, setup
    setup = answer(
        await boss.slash(lobby, "bank setup", channel=bank_channel, claim_approval_limit=50)
    )
    assert "A claim above 50" in setup and "/bank approve" in setup, setup
    thread = await open_and_leave(lobby, alice, bob, 80)  # held: above 50
    await bob.member.slash(thread, "table join", buy_in=20)
    await bob.member.slash(thread, "table leave")  # pending: 20
    balance = answer(await bob.member.slash(lobby, "bank balance"))
    assert "to collect at the bank (one claim)" in balance, balance
    assert "An admin has yet to approve" in balance and "(claim #1)" in balance, balance
    answer(await bob.member.slash(lobby, "bank claim"))
    history = answer(await bob.member.slash(lobby, "bank history"))
    assert "Starting balance" in history and re.search(r"<t:\d+:f>", history), history
    read += [m.content for m in bank_channel.history()]
    odd = [text for text in read if ODD.search(text)]
    assert odd == [], odd
    await assert_audit_clean(env.bot.db)


async def test_blackjack_at_forum_pace_pings_whoever_must_move_once(simcord_env):
    """Bets open: every bettor but the host who started is pinged; the dealer's ace: all
    asked about insurance but the last bettor; each turn: its player, once (not again
    after his own hit)."""
    env = simcord_env
    _guild, thread, table, players = await open_game(env, "blackjack", options="pace=forum")
    alice, bob, carol = players
    table.game.rig(rigged("blackjack"))  # the dealer shows an ace

    async def pinged(move: Any) -> list[list[int]]:
        start = len(env.http_requests)
        await move
        return [r["users"] for r in ping_requests(env, thread.id, start)]

    message = table_message(thread, table)
    assert await pinged(alice.member.click(message, label="Start")) == [sorted([bob.id, carol.id])]
    for p in (alice, bob):
        assert await pinged(p.member.slash(thread, "bet", amount=10)) == []
    assert await pinged(carol.member.slash(thread, "bet", amount=10)) == [
        sorted([alice.id, bob.id])
    ]
    for p in (alice, bob):
        assert await pinged(p.member.slash(thread, "insurance")) == []
    assert await pinged(carol.member.slash(thread, "insurance")) == [[alice.id]]
    assert await pinged(alice.member.slash(thread, "hit")) == []  # her turn goes on
    assert await pinged(alice.member.slash(thread, "stand")) == [[bob.id]]
    await alice.member.slash(thread, "table close")
    await assert_audit_clean(env.bot.db)


async def test_an_admin_rejects_a_held_claim_with_a_reason(simcord_env):
    """bob (French) leaves with 80 above the approval limit of 50: the admins read it in the
    bank channel; a non-admin cannot reject; the admin rejects it with a reason: the 80 go
    back to the treasury through the ledger (audit clean), bob reads why by DM in French,
    the bank channel says so, and the claim can be neither rejected again nor collected."""
    env = simcord_env
    guild = env.create_guild()
    lobby = guild.create_text_channel("casino")
    bank_channel = guild.create_text_channel("bank")
    _, boss = admin_of(env, guild)
    alice, bob = add_players(env, guild, "alice", "bob")
    await boss.slash(lobby, "bank setup", channel=bank_channel, claim_approval_limit=50)
    await bob.member.slash(lobby, "language", language="fr")
    await open_and_leave(lobby, alice, bob, 80)
    await bob.member.slash(lobby, "bank claim")
    assert "/bank reject" in bank_channel.history()[-1].content
    bank = service(env).bank
    treasury = await bank.balance(guild.id, None)

    refused = await alice.member.slash(lobby, "bank reject", claim_id=1, reason="no")
    assert refused.ephemeral and "Manage Server" in refused.response.content
    res = await boss.slash(lobby, "bank reject", claim_id=1, reason="a win from a bug")
    answer = res.followups[-1].content if res.followups else res.response.content
    assert "#1" in answer and "treasury" in answer and "a win from a bug" in answer, answer
    assert await bank.balance(guild.id, None) == treasury + 80
    assert await bank.balance(guild.id, bob.id) == 920
    dm = bob.dms()[-1].content
    assert "refusée" in dm and "a win from a bug" in dm and "80" in dm, dm
    posted = bank_channel.history()[-1].content
    assert boss.mention in posted and bob.member.mention in posted and "#1" in posted
    again = await boss.slash(lobby, "bank reject", claim_id=1, reason="twice")
    again_text = again.followups[-1].content if again.followups else again.response.content
    assert again_text == t("bank.error.claim_decided", "en", claim_id=1), again_text
    collect = await bob.member.slash(lobby, "bank claim")
    assert "rien à encaisser" in (collect.response.content or ""), collect.response.content
    assert await bank.balance(guild.id, None) == treasury + 80
    await assert_audit_clean(env.bot.db)


def said(res: Any) -> str:
    """The ephemeral sentence an interaction was answered with."""
    assert res.ephemeral
    message = res.followups[-1] if res.followups else res.response
    return str(message.content)


@pytest.mark.parametrize("game", ["blackjack", "casino21", "sept_et_demi"])
async def test_the_same_situation_is_refused_with_the_same_words_in_every_game(
    simcord_env, game: str
):
    """A bet above one's stack, a second bet, a bet once the bets are closed (by a player out
    of the round), a move out of turn: one sentence each, the same in every game."""
    env = simcord_env
    options = {"casino21": "max_bet=500"}.get(game)
    _guild, thread, table, players = await open_game(
        env, game, **({"options": options} if options else {})
    )
    alice = players[0]
    if game == "casino21":  # no ace to value: the round goes straight to the draws
        table.game.rig(["5S", "KD", "5C", "4D", "9C", "7D", "9H", "8C", "3S", "2H"])
    elif game == "blackjack":
        table.game.rig(rigged(game))
    await Round(env, thread, table, []).click(alice, "start", None)
    game_ = table.game
    banker = getattr(game_, "banker", None)
    bettors = [p for p in players if p.id != banker]
    first = next((p for p in bettors if p.id == game_.to_act), bettors[0])
    if game == "sept_et_demi":  # bets go round: the one in turn only
        later = bettors[-1]
        text = said(await later.member.slash(thread, "bet", amount=10))
        assert text == t("illegal.not_your_turn", "en"), text
    stack = next(s.stack for s in game_.seats if s.player == first.id)
    text = said(await first.member.slash(thread, "bet", amount=stack + 1))
    assert text == t("illegal.insufficient_stack", "en", stack=stack), text
    await first.member.slash(thread, "bet", amount=10)
    text = said(await first.member.slash(thread, "bet", amount=10))
    assert text == t("illegal.already_bet", "en"), text
    for p in bettors:
        if p is not first:
            await p.member.slash(thread, "bet", amount=10)
    for p in players:  # Black Jack's dealer shows an ace: nobody takes insurance
        if game_.phase.value == "insurance":
            await p.member.slash(thread, "insurance")
    assert game_.phase.value == "playing", game_.phase
    if game == "casino21":  # a newcomer sits down for the next round
        (late,) = add_players(env, _guild, "dave")
        await late.member.slash(thread, "table join")
        outsider = late
    elif game == "sept_et_demi":
        outsider = next(p for p in players if p.id == banker)
    else:
        outsider = None
    if outsider is not None:
        text = said(await outsider.member.slash(thread, "bet", amount=10))
        assert text == t("illegal.not_betting", "en"), text
    if game != "casino21":  # one player at a time: the others wait their turn
        waiting = next(p for p in bettors if p.id != game_.to_act)
        text = said(await waiting.member.slash(thread, "stand"))
        assert text == t("illegal.not_your_turn", "en"), text
    await alice.member.slash(thread, "table close")
    await assert_audit_clean(env.bot.db)


async def test_a_busted_black_jack_hand_says_bust_once(simcord_env):
    """bob's 10♥ 10♠ takes a card over 21: his line on the table message says he is bust
    once, with what he lost."""
    env = simcord_env
    _guild, thread, table, players = await open_game(env, "blackjack")
    alice, bob, carol = players
    table.game.rig(rigged("blackjack"))
    await alice.member.click(table_message(thread, table), label="Start")
    for p in players:
        await p.member.slash(thread, "bet", amount=10)
    for p in players:
        await p.member.slash(thread, "insurance", take=False)
    await alice.member.slash(thread, "stand")
    await bob.member.slash(thread, "hit")
    text = embed_text(table_message(thread, table))
    line = next(line for line in text.splitlines() if "10♥" in line)
    assert line.count("bust") == 1 and "bust -10" in line, line
    await carol.member.slash(thread, "stand")
    await alice.member.slash(thread, "table close")


async def test_sept_et_demi_closed_in_its_first_round_says_so(simcord_env):
    """Closed while round 1 is played: the final post says during the first round, not
    before it (the bets are refunded)."""
    env = simcord_env
    _guild, thread, table, players = await open_game(env, "sept_et_demi")
    alice, bob = players[0], players[1]
    await alice.member.click(table_message(thread, table), label="Start")
    await bob.member.slash(thread, "bet", amount=10)
    start = len(env.http_requests)
    await alice.member.slash(thread, "table close")
    final = next(p for p in posts(env, thread.id, start) if "final ranking" in p)
    assert t("sept.end.during_first", "en") in final, final
    await assert_audit_clean(env.bot.db)


async def test_a_close_with_nothing_to_collect_sends_nobody_to_the_bank(simcord_env):
    """Casino 21 closed before any bet: every welcome stake returns to the casino, nobody
    keeps anything, and nothing tells anyone to collect at the bank."""
    env = simcord_env
    _guild, thread, table, players = await open_game(env, "casino21")
    start = len(env.http_requests)
    await players[0].member.slash(thread, "table close")
    final = "\n".join(posts(env, thread.id, start))
    assert final.count("nothing waiting at the bank") == 3, final
    assert "/bank claim" not in final, final
    assert "/bank claim" not in embed_text(table_message(thread, table))
    await assert_audit_clean(env.bot.db)
