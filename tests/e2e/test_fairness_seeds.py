"""Players' client seeds end to end (issue 39.7): /fairness seed and show, a Black Jack table
where two players set theirs, the table and the reveal showing them, /verify recomputing the
order from the three inputs (and another order with a changed client seed)."""

from __future__ import annotations

import re

import pytest

from bot.engine.shuffle import CLIENT_SEED_MAX, commitment, verify
from bot.i18n import t
from tests.e2e.helpers import add_players, classic_table, embed_text, table_message


@pytest.fixture
def db_path(database_url: str) -> str:
    """This module runs on both databases (tests/conftest.py ``database_url``)."""
    return database_url


SEED_SHOWN = re.compile(r"`([^`]+)`")
REVEAL = re.compile(
    r"🔑[^`\n]*`([0-9a-f]{64})`[^`]*`([0-9a-f]{64})`[^`]*`([^`\s]+)`"
    r"[^\n]*\n[^\n`#]*#(\d+)[^`\n]*`([^`]+)`"
)


async def test_seed_show_and_refusals(simcord_env):
    env = simcord_env
    guild = env.create_guild()
    lobby = guild.create_text_channel("casino")
    (alice,) = add_players(env, guild, "alice")
    res = await alice.member.slash(lobby, "fairness show")
    assert res.ephemeral
    (default,) = SEED_SHOWN.findall(res.response.content)
    assert len(default) == 16  # random, generated once and stored
    res = await alice.member.slash(lobby, "fairness show")
    assert SEED_SHOWN.findall(res.response.content) == [default]

    res = await alice.member.slash(lobby, "fairness seed", text="lucky-7")
    assert res.ephemeral and res.response.content == t("fairness.seed.set", "en", seed="lucky-7")
    res = await alice.member.slash(lobby, "fairness show")
    assert SEED_SHOWN.findall(res.response.content) == ["lucky-7"]

    # bad input: one clear sentence each, nothing changed
    for text, key in [
        ("x" * (CLIENT_SEED_MAX + 1), "fairness.error.too_long"),
        ("two words", "fairness.error.bad_chars"),
        ("@everyone", None),  # allowed characters, no ping: answered ephemerally
    ]:
        res = await alice.member.slash(lobby, "fairness seed", text=text)
        assert res.ephemeral
        if key is not None:
            assert res.response.content == t(key, "en", max=CLIENT_SEED_MAX)
    res = await alice.member.slash(lobby, "fairness show")
    assert SEED_SHOWN.findall(res.response.content) == ["@everyone"]
    # French
    await alice.member.slash(lobby, "language", language="fr")
    res = await alice.member.slash(lobby, "fairness seed", text="é")
    assert res.response.content == t("fairness.error.bad_chars", "fr", max=CLIENT_SEED_MAX)


async def test_two_players_seed_a_shoe_that_verify_recomputes(simcord_env):
    env = simcord_env
    _, lobby, thread, table, (alice, bob) = await classic_table(env, "alice", "bob")
    committed = table.game.public_view().next_commitment
    assert committed and committed in embed_text(table_message(thread, table))  # before
    await alice.member.slash(lobby, "fairness seed", text="alice-seed")
    await bob.member.slash(lobby, "fairness seed", text="bob:42")
    await alice.member.slash(thread, "table start")
    shoe = table.game.shoe
    assert shoe.commitment == committed  # the seed committed before the client seeds
    ordered = sorted([(alice.id, "alice-seed"), (bob.id, "bob:42")])
    assert shoe.clients == tuple(ordered)
    footer = embed_text(table_message(thread, table))
    assert "`alice-seed`" in footer and "`bob:42`" in footer  # the table shows them
    dealt = [c.code for c in shoe.order]

    # a seed changed now is for the next shoe only
    await bob.member.slash(lobby, "fairness seed", text="changed")
    assert table.game.shoe.clients == tuple(ordered)

    await alice.member.slash(thread, "table close")
    posts = [m.content for m in thread.history() if "🔑" in (m.content or "")]
    found = [r for p in posts for r in REVEAL.findall(p) if r[1] == committed]
    assert len(found) == 1, posts
    seed, _, deck, number, seeds = found[0]
    assert number == "1" and seeds.split() == [text for _, text in ordered]
    assert commitment(bytes.fromhex(seed)) == committed

    res = await bob.member.slash(
        lobby, "verify", seed=seed, commitment=committed, deck=deck, shoe=1, client_seeds=seeds
    )
    first = " ".join(str(c) for c in verify(seed, committed, deck, seeds.split(), 1)[:20])
    assert [c.code for c in verify(seed, committed, deck, seeds.split(), 1)] == dealt
    assert res.response.content.startswith("✅") and first in res.response.content
    assert t("verify.mixed", "en", shoe=1, seeds=seeds) in res.response.content
    # another client seed gives another order
    res = await bob.member.slash(
        lobby,
        "verify",
        seed=seed,
        commitment=committed,
        deck=deck,
        shoe=1,
        client_seeds="alice-seed changed",
    )
    assert res.response.content.startswith("✅") and first not in res.response.content
    # refusals: client seeds without the shoe, a bad client seed
    res = await bob.member.slash(
        lobby, "verify", seed=seed, commitment=committed, deck=deck, client_seeds=seeds
    )
    assert res.ephemeral and res.response.content == t("verify.error.shoe_needed", "en")
    res = await bob.member.slash(
        lobby, "verify", seed=seed, commitment=committed, shoe=1, client_seeds="a" * 65
    )
    assert res.response.content == t("verify.error.client_seed", "en", max=CLIENT_SEED_MAX)
