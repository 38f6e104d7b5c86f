"""After a restart, the open tables are warmed up in the background once the bot is ready
(``TableService.warm_up``): the first deal after a restart shuffles nothing, like any
other deal in the middle of a shoe."""

from __future__ import annotations

import bot.engine.shuffle as shuffle
from bot.engine.base import Phase
from tests.e2e.helpers import add_players, table_message, table_of, thread_of
from tests.e2e.recovery_helpers import click_move, play_round, restart


async def test_the_first_deal_after_a_restart_shuffles_nothing(simcord_env, db_path, monkeypatch):
    env = simcord_env
    shuffles: list[int] = []
    real = shuffle.shuffled

    def counted(items, seed):
        shuffles.append(len(items))
        return real(items, seed)

    monkeypatch.setattr(shuffle, "shuffled", counted)
    guild = env.create_guild()
    lobby = guild.create_text_channel("casino")
    alice, bob = add_players(env, guild, "alice", "bob")
    await alice.member.slash(lobby, "table open", game="blackjack")
    thread = thread_of(lobby)
    table = table_of(env, thread)
    await bob.member.slash(thread, "table join", buy_in=100)
    await alice.member.click(table_message(thread, table), label="Start")
    await click_move(alice.member, table_message(thread, table), "bet:10")
    await click_move(bob.member, table_message(thread, table), "bet:10")
    await play_round(env, thread, [alice, bob], table)
    assert shuffles == [312]  # round 1's deal shuffled the new shoe
    await restart(env, db_path)
    assert shuffles == [312, 312]  # the loaded shoe, shuffled by the warm-up once ready
    table = table_of(env, thread)
    if table.game.phase is not Phase.BETTING:
        await alice.member.click(table_message(thread, table), label="Next round")
    await click_move(alice.member, table_message(thread, table), "bet:10")
    await click_move(bob.member, table_message(thread, table), "bet:10")
    assert table.game.round == 2 and table.game.phase is not Phase.BETTING
    assert shuffles == [312, 312]  # the first deal after the restart: no shuffle in it
