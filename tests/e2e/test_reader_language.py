"""Issue 22 point 1: everything sent to one person is in that person's language (their
``/language`` choice, else the locale their Discord client gives, else the guild's
default); the public table message stays in the table's language.

SimCord sends every interaction with ``locale: en-US``. Real Discord sends each user's
client language: the ``client_locales`` fixture makes SimCord's interaction payloads carry
a per-user locale (wrapping ``simcord.interactions.base_payload``, the one function that
builds them), so the bot reads it exactly as it would from Discord."""

from __future__ import annotations

from typing import Any

import pytest

from bot.app import create_bot
from bot.engine.shuffle import seeded_entropy
from bot.i18n import t
from tests.bank_audit import assert_audit_clean
from tests.e2e.helpers import add_players, embed_text, table_message, table_of, thread_of
from tests.i18n.language import foreign_words


@pytest.fixture
def client_locales(monkeypatch: pytest.MonkeyPatch) -> dict[int, str]:
    """user id -> the locale their Discord client sends with each interaction."""
    import simcord.interactions as interactions

    locales: dict[int, str] = {}
    build = interactions.base_payload

    def with_locale(*args: Any, **kwargs: Any) -> Any:
        record, payload = build(*args, **kwargs)
        user = kwargs.get("user_id")
        if user in locales:
            payload["locale"] = locales[user]
        return record, payload

    monkeypatch.setattr(interactions, "base_payload", with_locale)
    return locales


def in_language(text: str, locale: str) -> bool:
    """``text`` holds words of ``locale`` and none of the other language."""
    other = "en" if locale == "fr" else "fr"
    return not foreign_words(text, locale) and bool(foreign_words(text, other))


async def test_a_french_client_reads_french_at_an_english_table(simcord_env, client_locales):
    """bob's Discord speaks French and he chose nothing: his answers, his DMs (sent on
    alice's move, and after a restart on a timer) are French; carol's are English; the
    table message stays English."""
    env = simcord_env
    guild = env.create_guild()
    lobby = guild.create_text_channel("casino")
    alice, bob, carol = add_players(env, guild, "alice", "bob", "carol")
    client_locales[bob.id] = "fr"
    await alice.member.slash(lobby, "table open", game="sept_et_demi")
    thread = thread_of(lobby)
    table = table_of(env, thread)
    await carol.member.slash(thread, "table join")
    seated = await bob.member.slash(thread, "table join")
    assert in_language(seated.response.content, "fr"), seated.response.content
    table.game.rig(["5H", "3S", "4D"])  # carol, bob, the bank (alice's)
    await alice.member.click(table_message(thread, table), label="Start")  # alice's move
    bob_dm, carol_dm = bob.dms()[-1].content, carol.dms()[-1].content
    assert "3♠" in bob_dm and in_language(bob_dm, "fr"), bob_dm
    assert "5♥" in carol_dm and in_language(carol_dm, "en"), carol_dm
    assert in_language(embed_text(table_message(thread, table)), "en")
    refused = await bob.member.slash(thread, "hit")  # not his turn: a refusal, in French
    assert in_language(refused.response.content, "fr"), refused.response.content

    # a restart forgets nothing: bob's next card comes after his bet timed out, on alice's
    # move; he does nothing after the restart
    await env.restart_bot(
        create_bot(database_url=env.bot.settings.database_url, entropy=seeded_entropy("e2e"))
    )
    table = table_of(env, thread)
    await carol.member.slash(thread, "bet", amount=10)
    await env.advance_time(65)  # bob's betting time is over: he sits this round out
    await carol.member.slash(thread, "stand")
    before = len(bob.dms())
    table.game.rig(["2S", "7H", "6C"])  # round 2, carol's bank: bob, alice, the bank
    await alice.member.slash(thread, "stand")  # the bank stops: round 2 is dealt
    later = [m.content for m in bob.dms()[before:]]
    assert later and all(in_language(text, "fr") for text in later), later
    assert "2♠" in later[-1], later
    await assert_audit_clean(env.bot.db)


async def test_a_language_choice_rules_every_private_text(simcord_env):
    """bob chose French at an English table (his client says English): the modal, its
    answer, a refusal, the leave confirmation and its button, his DMs are French; the table
    message is English."""
    env = simcord_env
    guild = env.create_guild()
    lobby = guild.create_text_channel("casino")
    alice, bob = add_players(env, guild, "alice", "bob")
    await bob.member.slash(lobby, "language", language="fr")
    await alice.member.slash(lobby, "table open", game="casino21")
    thread = thread_of(lobby)
    table = table_of(env, thread)
    await bob.member.slash(thread, "table join")
    await alice.member.click(table_message(thread, table), label="Start")
    shown = await bob.member.click(table_message(thread, table), label="Other amount…")
    modal = shown.modal
    texts = [modal["title"], modal["components"][0]["components"][0]["label"]]
    assert texts == [t("modal.bet.title", "fr"), t("modal.bet.label", "fr")], texts
    field = modal["components"][0]["components"][0]["custom_id"]
    placed = await bob.member.submit_modal(shown, {field: "10"})
    answer = placed.response.content if placed.response else placed.followups[-1].content
    assert in_language(answer, "fr"), answer
    refused = await bob.member.slash(thread, "bet", amount=10)
    assert in_language(refused.response.content, "fr"), refused.response.content
    asked = await bob.member.slash(thread, "table leave")
    confirm = asked.response.message
    labels = [c.label for row in confirm.components for c in row.children]
    assert in_language(asked.response.content, "fr") and all(
        in_language(label, "fr") for label in labels
    ), (asked.response.content, labels)
    assert in_language(embed_text(table_message(thread, table)), "en")
    await alice.member.slash(thread, "table close")
    await assert_audit_clean(env.bot.db)


def reader_of(env: Any, r: Any, dms: dict[int, int]) -> int | None:
    """Who alone reads a request's text: the user of the interaction it answers, the
    recipient of a DM; None for what everyone in the channel reads."""
    parts = r.path.strip("/").split("/")
    if parts[0] == "interactions":
        return int(env.backend.interactions[int(parts[1])].user_id)
    if parts[0] == "webhooks":
        interaction = env.backend.interaction_tokens.get(parts[2])
        return None if interaction is None else int(env.backend.interactions[interaction].user_id)
    if parts[0] == "channels" and int(parts[1]) in dms:
        return dms[int(parts[1])]
    return None


@pytest.mark.parametrize("game", ["blackjack", "casino21", "pirate21", "sept_et_demi"])
@pytest.mark.parametrize("table_locale", ["en", "fr"])
async def test_a_round_with_readers_of_both_languages(simcord_env, game: str, table_locale: str):
    """alice and carol speak the table's language, bob the other one (``/language``): one
    round, then ``/hand``, a refusal, a leave and the close. Every text bob alone reads (his
    answers, modals, follow-ups, DMs) is in his language; every public text (the table
    message, even as the answer to his click, the posts) and every text the others read is
    in the table's."""
    from tests.e2e.test_languages import BUTTON, RIGS, Round, place, rigged, texts_of

    env = simcord_env
    other = "en" if table_locale == "fr" else "fr"
    guild = env.create_guild()
    lobby = guild.create_text_channel("casino")
    alice, bob, carol = add_players(env, guild, "alice", "bob", "carol")
    for p, loc in ((alice, table_locale), (bob, other), (carol, table_locale)):
        await p.member.slash(lobby, "language", language=loc)
    start = len(env.http_requests)
    await alice.member.slash(lobby, "table open", game=game)
    thread = thread_of(lobby)
    table = table_of(env, thread)
    join = {"blackjack": {"buy_in": 100}}.get(game, {})
    for p in (bob, carol):
        await p.member.slash(thread, "table join", **join)
    if game in RIGS:
        getattr(table.game, RIGS[game][0])(rigged(game))
    await Round(env, thread, table, []).click(alice, "start", None)
    order = [s for s in table.game.seated()]
    seats = sorted((alice, bob, carol), key=lambda p: order.index(p.id))
    await Round(env, thread, table, seats).play()
    for p in (alice, bob, carol):
        await p.member.slash(thread, "hand")
    await bob.member.slash(thread, "table join")  # already seated: a refusal
    left = await bob.member.slash(thread, "table leave")
    confirm = left.response.message if left.response is not None else None
    if (
        confirm is not None
        and confirm.components
        and BUTTON.fullmatch(confirm.components[0].children[0].custom_id or "")
    ):
        await bob.member.click(confirm, custom_id=confirm.components[0].children[0].custom_id)
    await alice.member.slash(thread, "table close")

    dms = {p.user.dm_channel.id: p.id for p in (alice, bob, carol) if p.user.dm_channel}
    wrong, bobs = [], 0
    for r in env.http_requests[start:]:
        if r.json is None or r.path.endswith("/commands") or "/emojis" in r.path:
            continue
        if r.method == "POST" and r.path.endswith("/threads"):
            continue
        where = place(r, set(dms), table.message_id, 0)
        reader = None if where == "table message" else reader_of(env, r, dms)
        expected = other if reader == bob.id else table_locale
        for text in texts_of(r.json):
            bobs += reader == bob.id
            if foreign_words(text, expected):
                wrong.append((where, reader == bob.id, text, foreign_words(text, expected)))
    assert bobs >= 5, bobs  # bob read his answers, his DMs or his hand, his refusals...
    assert wrong == [], "\n".join(map(str, wrong))
    await assert_audit_clean(env.bot.db)


async def test_a_lost_table_tells_each_player_in_their_own_language(simcord_env, client_locales):
    """The DM that a deleted thread closed the table (issue 26 point 7) is a private text
    too: bob's Discord speaks French and he chose nothing, so his is French; alice's is
    English; the table is English."""
    env = simcord_env
    guild = env.create_guild()
    lobby = guild.create_text_channel("casino")
    alice, bob = add_players(env, guild, "alice", "bob")
    client_locales[bob.id] = "fr"
    await alice.member.slash(lobby, "table open", game="blackjack")
    thread = thread_of(lobby)
    table = table_of(env, thread)
    await bob.member.slash(thread, "table join")
    env.backend.delete_channel(thread.id)  # a moderator deletes the thread
    await env.advance_time(1)
    assert not table.is_open
    bob_dm, alice_dm = bob.dms()[-1].content, alice.dms()[-1].content
    assert in_language(bob_dm, "fr"), bob_dm
    assert in_language(alice_dm, "en"), alice_dm
    await assert_audit_clean(env.bot.db)
