"""/rules (both languages, a table's own options) and /verify (good and bad seeds)."""

from __future__ import annotations

import pytest

from bot.engine.cards import build_deck
from bot.engine.shuffle import commitment, seeded_entropy, shuffled
from bot.tables.games import GAMES
from cogs.help import rules_embed
from tests.bank_audit import assert_audit_clean
from tests.e2e.helpers import add_players, embed_text, thread_of


@pytest.mark.parametrize("locale", ["en", "fr"])
@pytest.mark.parametrize("game", sorted(GAMES))
def test_rules_fit_in_one_embed(game, locale):
    embed = rules_embed(game, locale, GAMES[game].defaults(), {"pace": "forum"})
    assert len(embed) < 6000 and len(embed.fields) <= 6
    assert all(0 < len(f.value) <= 1024 for f in embed.fields)
    assert not any(f.value.startswith("rules.") for f in embed.fields)  # no missing key


async def test_rules_in_english_with_defaults(simcord_env):
    env = simcord_env
    guild = env.create_guild()
    lobby = guild.create_text_channel("casino")
    (alice,) = add_players(env, guild, "alice")
    res = await alice.member.slash(lobby, "rules", game="casino21")
    assert res.ephemeral
    text = embed_text(res.response)
    assert "Rules — Casino 21" in text
    assert "welcome stake of 100" in text and "`welcome_stake=100`" in text
    assert "`min_bet=10`" in text  # RULES.md section 2: the default minimum bet is 10
    assert "Options (defaults)" in text and "This table's options" not in text
    res = await alice.member.slash(lobby, "rules", game="blackjack")
    text = embed_text(res.response)
    assert "3:2" in text and "`decks=6`" in text and "`surrender=off`" in text
    # what insurance does, not a payout it never makes (RULES.md section 1, step 3)
    assert "an insured hand nets 0" in text and "not offered it" in text and "2:1" not in text
    # no game outside a table: a translated refusal
    res = await alice.member.slash(lobby, "rules")
    assert res.ephemeral and "Which game?" in res.response.content


async def test_rules_in_a_table_thread_show_its_options_in_french(simcord_env):
    env = simcord_env
    guild = env.create_guild()
    lobby = guild.create_text_channel("casino")
    alice, bob = add_players(env, guild, "alice", "bob")
    await alice.member.slash(lobby, "table open", game="blackjack", options="decks=2 min_bet=5")
    thread = thread_of(lobby)
    await bob.member.slash(lobby, "language", language="fr")
    res = await bob.member.slash(thread, "rules")
    text = embed_text(res.response)
    assert "Règles — Black Jack" in text
    assert "Les options de cette table" in text
    table_part = text.split("Les options de cette table", 1)[1]
    assert "`decks=2`" in table_part and "`min_bet=5`" in table_part
    assert "3 pour 2" in text
    assert "ne gagne ni ne perd" in text and "2 pour 1" not in text
    # another game asked for in the thread: only its defaults
    res = await bob.member.slash(thread, "rules", game="sept_et_demi")
    text = embed_text(res.response)
    assert "Sept et demi" in text and "Les options de cette table" not in text
    await assert_audit_clean(env.bot.db)


async def test_verify_good_and_bad_seeds(simcord_env):
    env = simcord_env
    guild = env.create_guild()
    lobby = guild.create_text_channel("casino")
    (alice,) = add_players(env, guild, "alice")
    seed = seeded_entropy("verify")(0)
    order = [str(c) for c in shuffled(build_deck("sept40"), seed)]

    res = await alice.member.slash(
        lobby, "verify", seed=seed.hex(), commitment=commitment(seed), deck="sept40"
    )
    assert "Verified" in res.response.content, res.response.content
    assert " ".join(order[:20]) in res.response.content
    assert "40 cards" in res.response.content

    other = seeded_entropy("verify")(1)
    res = await alice.member.slash(lobby, "verify", seed=other.hex(), commitment=commitment(seed))
    assert "Not verified" in res.response.content
    assert commitment(other) in res.response.content

    res = await alice.member.slash(lobby, "verify", seed="xyz", commitment=commitment(seed))
    assert res.ephemeral and "64 characters" in res.response.content
    res = await alice.member.slash(
        lobby, "verify", seed=seed.hex(), commitment=commitment(seed), deck="tarot78"
    )
    assert res.ephemeral and "Unknown deck" in res.response.content

    await alice.member.slash(lobby, "language", language="fr")
    res = await alice.member.slash(
        lobby, "verify", seed=seed.hex(), commitment=commitment(seed), deck="sept40"
    )
    assert "Vérifié" in res.response.content
