"""Pirate 21 lobby and language end to end: 2-8 players, no buy-in and no money, a table
in French, and a host closing mid-round (the hidden cards stay hidden)."""

from __future__ import annotations

from tests.bank_audit import assert_audit_clean
from tests.e2e.helpers import (
    add_players,
    answer_text,
    assert_never_public,
    embed_text,
    service,
    table_message,
    table_of,
    thread_of,
)
from tests.sql import fetchone


def labels(thread, table) -> list[str]:
    message = table_message(thread, table)
    return [c.label for row in message.components for c in row.children]


async def test_lobby_in_french_eight_players_no_money_and_close(simcord_env):
    env = simcord_env
    guild = env.create_guild()
    lobby = guild.create_text_channel("port")
    names = ["alice", "bob", "carol", "dave", "erin", "fred", "gus", "hana", "ivan"]
    players = add_players(env, guild, *names)
    alice, bob = players[:2]
    await alice.member.slash(lobby, "language", language="fr")
    await bob.member.slash(lobby, "language", language="fr")  # his DMs: his language
    await alice.member.slash(lobby, "table open", game="pirate21", name="Tortuga")
    thread = thread_of(lobby)
    table = table_of(env, thread)
    text = embed_text(table_message(thread, table))
    assert "En attente des joueurs" in text and "1/8 pirates à bord" in text
    assert "Trésor\u00a0: 10 pièces d'or" in text
    assert labels(thread, table) == ["Rejoindre"]  # alone: no Start, and the host stays

    # no buy-in: a buy_in is ignored, nothing moves at the bank
    res = await bob.member.slash(thread, "table join", buy_in=100)
    assert res.ephemeral
    assert labels(thread, table) == ["Rejoindre", "Commencer", "Quitter"]
    for p in players[2:8]:
        await p.member.click(table_message(thread, table), label="Rejoindre")
    assert "8/8" in embed_text(table_message(thread, table))
    assert labels(thread, table) == ["Commencer", "Quitter"]  # full: no Join
    res = await players[8].member.slash(thread, "table join")
    assert res.ephemeral and "full" in res.response.content
    res = await players[7].member.slash(thread, "table leave")
    assert res.ephemeral and res.response.content == "You left the table."
    assert "bank" not in res.response.content
    assert labels(thread, table)[0] == "Rejoindre"
    res = await alice.member.slash(thread, "table leave")
    assert res.ephemeral and "fermez plutôt la table" in res.response.content  # her language
    for p in players[3:7]:
        await p.member.click(table_message(thread, table), label="Quitter")
    assert "3/8" in embed_text(table_message(thread, table))

    # the game in French: table, buttons, DMs
    table.game.rig(["TS", "5C", "8S", "9H", "7D", "8D", "KC", "2H"], only=True)
    await alice.member.click(table_message(thread, table), label="Commencer")
    text = embed_text(table_message(thread, table))
    assert "Jeu" in text and "manche 1" in text.lower()
    assert "Trésor **9**" in text and "Pioche **2** cartes" in text and "🎩 donneur" in text
    assert labels(thread, table) == ["Carte\u00a0!", "Servi", "Mes cartes"]
    assert bob.dms()[-1].content.startswith("Vos cartes cachées 10♠ 9♥ · total **19** (manche 1).")
    res = await bob.member.click(table_message(thread, table), label="Carte\u00a0!")
    drawn = answer_text(res)  # his own card: in his click's answer
    assert "Vous avez tiré K♣" in drawn and "sauté" in drawn
    assert "Servi" in drawn  # told privately to end his turn
    text = embed_text(table_message(thread, table))
    assert f"▶ <@{bob.id}>" in text and "saut" not in text  # the turn is still his
    await bob.member.click(table_message(thread, table), label="Servi")
    text = embed_text(table_message(thread, table))
    assert "✋ servi" in text and "saut" not in text

    # the host closes mid-round: a ranking, the round abandoned, its cards never shown
    res = await alice.member.slash(thread, "table close")
    assert res.ephemeral
    final = thread.history()[-1].content
    assert "Pirate 21 — fin de la partie" in final and "La table a été fermée." in final
    assert f"🥇 <@{alice.id}> — 🪙 0" in final and "se partagent la victoire" in final
    assert_never_public(thread, ["TS", "9H", "5C", "7D", "8S", "8D"])
    assert service(env).table_in(thread.id) is None

    db = env.bot.db
    assert await fetchone(db, "SELECT 1 FROM bank_entries WHERE table_id = ?", (table.id,)) is None
    assert await service(env).bank.claims(guild.id) == []
    await assert_audit_clean(db)


async def test_a_shared_treasure_too_small_to_divide_is_explained_and_refused(simcord_env):
    env = simcord_env
    guild = env.create_guild()
    lobby = guild.create_text_channel("port")
    alice, bob, carol = add_players(env, guild, "alice", "bob", "carol")
    await alice.member.slash(
        lobby, "table open", game="pirate21", options="variant=shared treasure=2"
    )
    thread = thread_of(lobby)
    table = table_of(env, thread)
    await bob.member.click(table_message(thread, table), label="Join")
    assert labels(thread, table) == ["Join", "Start", "Leave"]  # 2 coins, 2 players: fine
    await carol.member.click(table_message(thread, table), label="Join")
    text = embed_text(table_message(thread, table))
    why = "The shared treasure (2 coins) cannot give one coin to each of the 3 players"
    assert why in text
    assert labels(thread, table) == ["Join", "Leave"]  # no Start, and the table says why
    version = table.version
    res = await alice.member.slash(thread, "table start")
    assert res.ephemeral and why in res.response.content
    assert table.version == version and table.game.phase.value == "lobby"
    await carol.member.click(table_message(thread, table), label="Leave")
    assert why not in embed_text(table_message(thread, table))
    await alice.member.click(table_message(thread, table), label="Start")
    assert "Pot **2**" in embed_text(table_message(thread, table))  # 1 coin each, anted
    await assert_audit_clean(env.bot.db)
