"""/help as players read it: what the bot does, a first game in five steps, and the
commands of the place it is asked in (a table: its game's moves), in their language."""

from __future__ import annotations

import re
from typing import Any

import pytest

from bot.i18n import t
from bot.tables.games import GAMES
from tests.e2e.helpers import add_players, embed_text, table_of, thread_of

COMMAND = re.compile(r"`/([a-z-]+(?: [a-z-]+)?)`")


def listed(text: str) -> list[str]:
    """The commands a help text names (in backticks, at the start of each line)."""
    return [m.group(1) for line in text.split("\n") if (m := COMMAND.match(line))]


def in_tree(env: Any, path: str) -> bool:
    """Whether the bot registered the command ``path`` (``table open``)."""
    parent, _, child = path.partition(" ")
    command = env.bot.tree.get_command(parent)
    return command is not None and (not child or command.get_command(child) is not None)


async def help_text(player: Any, channel: Any) -> str:
    res = await player.member.slash(channel, "help")
    assert res.ephemeral  # only the asker reads it
    return embed_text(res.response)


async def test_help_outside_a_table_in_both_languages(simcord_env):
    env = simcord_env
    guild = env.create_guild()
    lobby = guild.create_text_channel("casino")
    alice, bob = add_players(env, guild, "alice", "bob")
    await bob.member.slash(lobby, "language", language="fr")
    en, fr = await help_text(alice, lobby), await help_text(bob, lobby)
    assert t("help.intro", "en") in en and t("help.first", "en") in en
    assert t("help.intro", "fr") in fr and t("help.first", "fr") in fr
    assert len(t("help.first", "en").split("\n")) == 5  # a first game in five lines
    commands = listed(en)
    assert commands == listed(fr)
    assert {"table open", "table join", "bank balance", "bank claim"} <= set(commands)
    assert not {"hit", "stand", "draw", "bet"} & set(commands)  # no table here: no moves
    assert all(in_tree(env, c) for c in commands), commands
    assert "`/table open` — Open a card table" in en
    assert "`/table open` — " + t("cmd.table_open.description", "fr") in fr
    assert "/rules" in en and "/about" in en and "/ping" in en


@pytest.mark.parametrize(
    ("game", "moves", "not_here"),
    [
        ("blackjack", {"bet", "hit", "stand", "double", "split", "insurance"}, {"draw", "show"}),
        ("casino21", {"bet", "draw", "ace", "end-turn", "table top-up"}, {"hit", "split"}),
        ("pirate21", {"hit", "stand"}, {"bet", "double", "draw", "show"}),
        ("sept_et_demi", {"bet", "hit", "stand", "show", "hide", "table vote-stop"}, {"double"}),
    ],
)
async def test_help_at_a_table_lists_its_game_moves(simcord_env, game, moves, not_here):
    env = simcord_env
    guild = env.create_guild()
    lobby = guild.create_text_channel("casino")
    alice, bob = add_players(env, guild, "alice", "bob")
    await bob.member.slash(lobby, "language", language="fr")
    res = await alice.member.slash(lobby, "table open", game=game)
    assert res.ephemeral
    thread = thread_of(lobby)
    table_of(env, thread)
    en, fr = await help_text(alice, thread), await help_text(bob, thread)
    commands = listed(en)
    assert moves <= set(commands) and not not_here & set(commands), commands
    assert {"hand", "table leave", "rules"} <= set(commands)
    assert "table open" not in commands  # the place's own commands only
    assert all(in_tree(env, c) for c in commands), commands
    assert listed(fr) == commands
    assert t("help.field.table", "en", game=GAMES[game].name("en")) in en
    assert t("help.field.table", "fr", game=GAMES[game].name("fr")) in fr
    assert t("cmd.stand.description", "fr") in fr or "stand" not in commands
    assert t("help.first", "fr") in fr  # the first game too, in the reader's language


async def test_hit_and_stand_are_english_words_with_their_french_calls(simcord_env):
    """The synced commands Discord shows: English descriptions, the French calls only in
    the French localization."""
    from tests.e2e.test_discord_spec import the_sync

    commands = {c["name"]: c for c in the_sync(simcord_env).json}
    for name, english in (("hit", "Hit: one more card"), ("stand", "Stand: stop drawing")):
        assert commands[name]["description"] == english
        french = commands[name]["description_localizations"]["fr"]
        assert french == t(f"cmd.{name}.description", "fr") and french != english
    assert "Carte" in commands["hit"]["description_localizations"]["fr"]
    assert "Servi" in commands["stand"]["description_localizations"]["fr"]
