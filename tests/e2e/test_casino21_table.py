"""Casino 21 end to end in a text channel (a thread): three players play two rounds, the
host closes the table; the table message, the round summaries, the forfeits and a clean
audit. Also the REST cost of one round."""

from __future__ import annotations

from bot.bank.models import DEFAULT_TREASURY
from tests.bank_audit import assert_audit_clean
from tests.e2e.helpers import add_players, embed_text, service, table_message, table_of, thread_of


def labels(message) -> list[str]:
    """The labels of a message's buttons."""
    return [c.label for row in message.components for c in row.children]


def summaries(thread) -> list[str]:
    return [m.content for m in thread.history() if "results**" in (m.content or "")]


async def test_casino21_three_players_to_the_end(simcord_env):
    env = simcord_env
    guild = env.create_guild()
    lobby = guild.create_text_channel("casino")
    alice, bob, carol = add_players(env, guild, "alice", "bob", "carol")

    opened = await alice.member.slash(lobby, "table open", game="casino21", name="Royale")
    assert opened.ephemeral
    thread = thread_of(lobby)
    table = table_of(env, thread)
    for p in (bob, carol):
        res = await p.member.slash(thread, "table join")
        assert res.ephemeral, res.response.content
    text = embed_text(table_message(thread, table))
    assert "Casino 21 — Royale" in text and text.count("welcome stake 100") == 3
    assert text.count("wagered 0/100") == 3

    # Round 1 (deal order: each bettor's two cards at their bet, then the bank 6♦ + hole K♣),
    # then the round-2 deck (rigged cards left over carry into the next round): round 2
    # starts by itself when round 1 is settled
    round_1 = ["TS", "9H", "5C", "TD", "AS", "7H", "6D", "KC", "7D", "5S", "8C"]
    table.game.rig([*round_1, "KH", "QD", "9S", "5D", "8H", "TC", "TH", "8D", "5H"])
    await alice.member.click(table_message(thread, table), label="Start")
    message = table_message(thread, table)
    assert "1st turn" in embed_text(message)
    assert {"Bet 10", "Bet 25", "Bet 50", "Other amount…", "Sit out"} <= set(labels(message))
    n_calls = len(env.http_requests)
    await alice.member.click(table_message(thread, table), label="Bet 10")
    await bob.member.click(table_message(thread, table), label="Bet 10")
    shown = await carol.member.click(table_message(thread, table), label="Other amount…")
    field = shown.modal["components"][0]["components"][0]["custom_id"]
    await carol.member.submit_modal(shown, {field: "15"})
    message = table_message(thread, table)
    text = embed_text(message)
    assert "10♠ 9♥ **19**" in text and "5♣ 10♦ **15**" in text
    assert "A♠(?) 7♥" in text and "chooses the value of A♠" in text
    assert {"Ace = 1", "Ace = 11"} <= set(labels(message))
    assert "wagered 15/100" in text
    refused = await alice.member.click(message, label="Ace = 11")  # not alice's ace
    assert refused.ephemeral and "no ace" in refused.response.content
    await carol.member.click(table_message(thread, table), label="Ace = 11")
    text = embed_text(table_message(thread, table))
    assert "A♠(11) 7♥ **18**" in text
    assert "Bank: 6♦ 🂠" in text and "K♣" not in text  # the hole card stays face down
    assert "turn 2" in text
    await alice.member.click(table_message(thread, table), label="Stand (0)")
    res = await bob.member.slash(thread, "draw", count=2)  # 7♦ 5♠: 27, bust
    assert res.ephemeral
    assert "bust" in embed_text(table_message(thread, table))
    await carol.member.click(table_message(thread, table), label="Stand (0)")
    one_round = len(env.http_requests) - n_calls

    first = summaries(thread)
    assert len(first) == 1, [m.content for m in thread.history()]
    s = first[0]
    assert "Round 1" in s and "Bank: 6♦ K♣ 8♣ **24** · bust" in s
    assert f"<@{alice.id}> 10♠ 9♥ **19** · bet 10 · bank busts **+5**" in s
    assert f"<@{bob.id}> 5♣ 10♦ 7♦ 5♠ **27** · bet 10 · bust **-10**" in s
    assert f"<@{carol.id}> A♠(11) 7♥ **18** · bet 15 · bank busts **+5**" in s
    assert "bet back plus 5" in s

    # Round 2 started by itself
    text = embed_text(table_message(thread, table))
    assert "round 2" in text and "1st turn" in text
    assert "stack 105" in text and "stack 90" in text
    shown = await alice.member.click(table_message(thread, table), label="Other amount…")
    field = shown.modal["components"][0]["components"][0]["custom_id"]
    await alice.member.submit_modal(shown, {field: "15"})  # K♥ Q♦ = 20
    res = await bob.member.slash(thread, "bet", amount=30)  # 9♠ 5♦ = 14
    assert res.ephemeral
    await carol.member.click(table_message(thread, table), label="Bet 10")  # 8♥ 10♣ = 18
    text = embed_text(table_message(thread, table))
    assert "Bank: 10♥ 🂠" in text and "8♦" not in text
    await alice.member.click(table_message(thread, table), label="Stand (0)")
    await bob.member.click(table_message(thread, table), label="+1")  # 5♥: 19
    await carol.member.click(table_message(thread, table), label="Stand (0)")
    text = embed_text(table_message(thread, table))
    assert "turn 3" in text and f"waiting for <@{bob.id}>" in text
    await bob.member.click(table_message(thread, table), label="Stand (0)")
    second = summaries(thread)
    assert len(second) == 2
    s = second[1]
    assert "Round 2" in s and "Bank: 10♥ 8♦ **18**" in s
    assert f"<@{alice.id}> K♥ Q♦ **20** · bet 15 · wins **+7 (exact 7.5)**" in s
    assert f"<@{bob.id}> 9♠ 5♦ 5♥ **19** · bet 30 · wins **+15**" in s
    assert f"<@{carol.id}> 8♥ 10♣ **18** · bet 10 · push **±0**" in s
    text = embed_text(table_message(thread, table))
    assert "wagered 40/100" in text and "wagered 25/100" in text and "wagered 25/100" in text

    # The host closes the table: every seat is settled as a leave, and nobody has bet the
    # 100 the rules require, so the welcome stakes and their winnings go back to the casino
    res = await alice.member.slash(thread, "table close")
    assert res.ephemeral
    final = thread.history()[-1].content
    assert "The table is closed" in final
    assert f"<@{alice.id}>: nothing waiting at the bank; 112 returns to the casino" in final
    assert f"<@{bob.id}>: nothing waiting at the bank; 105 returns to the casino" in final
    assert f"<@{carol.id}>: nothing waiting at the bank; 105 returns to the casino" in final
    assert service(env).table_in(thread.id) is None
    assert not table_message(thread, table).components  # no buttons on a closed table

    bank = service(env).bank
    assert await bank.claims(guild.id) == []
    assert await bank.balance(guild.id, None) == DEFAULT_TREASURY  # all of it came back
    await assert_audit_clean(env.bot.db)
    print(f"REST calls for one 3-player round: {one_round}")
    assert one_round <= 20


async def test_casino21_table_in_french(simcord_env):
    """A table opened by a French speaker speaks French: turns, ace values, wagering,
    statuses, the summary and the forfeit confirmation."""
    env = simcord_env
    guild = env.create_guild()
    lobby = guild.create_text_channel("casino")
    alice, bob = add_players(env, guild, "alice", "bob")
    await alice.member.slash(lobby, "language", language="fr")
    await bob.member.slash(lobby, "language", language="fr")
    await alice.member.slash(lobby, "table open", game="casino21", name="Tapis")
    thread = thread_of(lobby)
    table = table_of(env, thread)
    await bob.member.slash(thread, "table join")
    table.game.rig(["AS", "KD", "5C", "4D", "9H", "8C", "3S", "2H"])
    await alice.member.click(table_message(thread, table), label="Commencer")
    text = embed_text(table_message(thread, table))
    assert "1er tour" in text and "doit miser" in text and "mise offerte 100" in text
    await alice.member.click(table_message(thread, table), label="Miser 10")  # A♠ K♦
    await alice.member.click(table_message(thread, table), label="As = 11")  # Black Jack
    await bob.member.click(table_message(thread, table), label="Miser 25")  # 5♣ 4♦ = 9
    text = embed_text(table_message(thread, table))
    assert "A♠(11) K♦ **21** · Black Jack" in text and "Banque\u00a0: 9♥ 🂠" in text
    assert "tour 2" in text and "misé 25/100" in text and "doit tirer" in text
    await bob.member.click(table_message(thread, table), label="+1")  # 3♠: 12
    assert "tour 3" in embed_text(table_message(thread, table))  # the only one drawing
    await bob.member.click(table_message(thread, table), label="+1")  # 2♥: 14
    await bob.member.click(table_message(thread, table), label="Servi (0)")
    s = next(m.content for m in thread.history() if "résultats**" in (m.content or ""))
    assert "**Manche 1 — résultats**" in s and "Banque\u00a0: 9♥ 8♣ **17**" in s
    won = "**21** · mise 10 · gagne · Black Jack **+5**"
    assert f"<@{alice.id}> A♠(11) K♦ {won}" in s
    assert f"<@{bob.id}> 5♣ 4♦ 3♠ 2♥ **14** · mise 25 · perd **-25**" in s
    res = await bob.member.slash(thread, "table leave")
    assert "abandonne 75" in res.response.content and "vous gardez 0" in res.response.content
    await bob.member.click(res.response.message, label="Quitter quand même")
    assert "75 retourne au casino" in thread.history()[-1].content
    await assert_audit_clean(env.bot.db)
