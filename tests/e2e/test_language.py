"""/language: the reply language is the user's choice (SimCord always sends en-US)."""

from __future__ import annotations

from bot.app import create_bot
from bot.engine.shuffle import seeded_entropy
from bot.i18n import t
from bot.ui.render.bank import amount
from tests.bank_audit import assert_audit_clean
from tests.e2e.helpers import add_players, thread_of


async def test_language_fr_then_french_replies_then_auto(simcord_env):
    env = simcord_env
    guild = env.create_guild()
    lobby = guild.create_text_channel("casino")
    alice, bob = add_players(env, guild, "alice", "bob")

    res = await alice.member.slash(lobby, "bank balance")
    assert res.response.content.startswith("Your balance")

    res = await alice.member.slash(lobby, "language", language="fr")
    assert res.ephemeral and res.response.content == "Désormais, je vous réponds en français."
    res = await alice.member.slash(lobby, "bank balance")
    assert res.response.content.split("\n")[0] == f"Votre solde\u00a0: **{amount(1000, 'fr')}**."
    assert "1\u00a0000" in res.response.content
    # refusals too
    res = await alice.member.slash(lobby, "bank give", user=alice.member, amount=5)
    assert res.ephemeral and res.response.content == t("bank.error.self_transfer", "fr")
    # a table opened by a French speaker speaks French; bob still gets English replies
    res = await alice.member.slash(lobby, "table open", game="blackjack")
    thread = thread_of(lobby)
    opened = res.followups[-1].content if res.followups else res.response.content
    assert opened == t("table.opened", "fr", where=thread.mention)
    res = await bob.member.slash(lobby, "bank balance")
    assert res.response.content.startswith("Your balance")

    # the choice survives a restart (it is in user_prefs)
    await env.restart_bot(
        create_bot(database_url=env.bot.settings.database_url, entropy=seeded_entropy("e2e"))
    )
    res = await alice.member.slash(lobby, "bank balance")
    assert res.response.content.startswith("Votre solde")

    res = await alice.member.slash(lobby, "language", language="auto")
    assert res.response.content == t("language.auto", "en")
    res = await alice.member.slash(lobby, "bank balance")
    assert res.response.content.startswith("Your balance")
    res = await alice.member.slash(lobby, "language", language="en")
    assert res.response.content == "From now on I answer you in English."
    await assert_audit_clean(env.bot.db)


async def test_commands_have_french_names_and_descriptions(simcord_env):
    env = simcord_env
    synced = [r for r in env.http_requests if r.method == "PUT" and r.path.endswith("/commands")]
    assert synced
    commands = {c["name"]: c for c in synced[-1].json}
    bank = commands["bank"]
    assert bank["name_localizations"]["fr"] == "banque"
    assert bank["description_localizations"]["fr"] == "La banque du casino"
    subs = {o["name"]: o for o in bank["options"]}
    assert subs["claim"]["name_localizations"]["fr"] == "encaisser"
    assert subs["claim"]["description_localizations"]["fr"].startswith("Encaisser vos gains")
    give = {o["name"]: o for o in subs["give"]["options"]}
    assert give["amount"]["name_localizations"]["fr"] == "montant"
    assert commands["rules"]["name_localizations"]["fr"] == "règles"
    assert commands["language"]["name_localizations"]["fr"] == "langue"
    verify = {o["name"]: o for o in commands["verify"]["options"]}
    assert verify["commitment"]["name_localizations"]["fr"] == "engagement"
