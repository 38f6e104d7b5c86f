"""Casino 21 timers at forum pace (24 h): a player who does not bet sits the round out, a
player who does not draw stands, a pending ace takes its fallback value; the deadline runs
per turn (a bet inside the turn does not push it back)."""

from __future__ import annotations

from tests.bank_audit import assert_audit_clean
from tests.e2e.helpers import add_players, embed_text, service, table_message, table_of, thread_of

DAY = 24 * 3600


async def test_casino21_forum_timers(simcord_env):
    env = simcord_env
    guild = env.create_guild()
    lobby = guild.create_text_channel("casino")
    alice, bob, carol = add_players(env, guild, "alice", "bob", "carol")
    await alice.member.slash(lobby, "table open", game="casino21", options="pace=forum")
    thread = thread_of(lobby)
    table = table_of(env, thread)
    for p in (bob, carol):
        await p.member.slash(thread, "table join")

    # deal order: alice 9♠ 5♥, bob 10♦ 6♣, bank 10♣ + hole 8♥, then alice's draw A♠ (14+11=25
    # would bust: the fallback takes 1)
    table.game.rig(["9S", "5H", "TD", "6C", "TC", "8H", "AS"])
    await alice.member.click(table_message(thread, table), label="Start")
    due = table.deadline_due
    assert due is not None
    await env.advance_time(12 * 3600)
    await alice.member.click(table_message(thread, table), label="Bet 10")
    await bob.member.click(table_message(thread, table), label="Bet 10")
    assert table.deadline_due == due  # one deadline per turn, not per player
    text = embed_text(table_message(thread, table))
    assert f"waiting for <@{carol.id}>" in text

    # carol never bets: at the deadline she sits the round out and turn 2 begins
    await env.advance_time(12 * 3600 + 5)
    text = embed_text(table_message(thread, table))
    assert "turn 2" in text and "sits out" in text
    assert "Bank: 10♣ 🂠" in text
    seats = {s.player: s for s in table.game.seats}
    assert seats[carol.id].bet == 0 and seats[carol.id].stack == 100

    # alice draws an ace and does not choose; bob does not draw at all
    await alice.member.slash(thread, "draw", count=1)
    text = embed_text(table_message(thread, table))
    assert "A♠(?)" in text and "chooses the value of A♠" in text
    await env.advance_time(DAY - 60)
    assert "turn 2" in embed_text(table_message(thread, table))
    await env.advance_time(65)
    # the turn timer: the ace takes its fallback (11 would bust 9+5: 1), bob stands on 16;
    # alice, still in play, is alone in turn 3 and pinged
    text = embed_text(table_message(thread, table))
    assert "turn 3" in text and "9♠ 5♥ A♠(1) **15**" in text and "stood" in text
    assert thread.history()[-1].content.startswith(f"Turn 3: <@{alice.id}>")
    await env.advance_time(DAY + 5)  # alice does not draw either: she stands
    summary = [m.content for m in thread.history() if "results**" in (m.content or "")]
    assert len(summary) == 1, [m.content for m in thread.history()]
    s = summary[0]
    assert "Bank: 10♣ 8♥ **18**" in s
    assert f"<@{alice.id}> 9♠ 5♥ A♠(1) **15** · bet 10 · loses **-10**" in s  # fallback: 1
    assert f"<@{bob.id}> 10♦ 6♣ **16** · bet 10 · loses **-10**" in s  # stood at the timer
    assert f"<@{carol.id}>" not in s
    await assert_audit_clean(env.bot.db)
    assert service(env).table_in(thread.id) is not None
