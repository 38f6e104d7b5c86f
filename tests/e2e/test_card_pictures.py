"""Cards as pictures: the bot uploads its card faces once as application emojis, reuses
them at every start, writes the cards of the table, the DMs and /hand with them, falls
back to text when an upload fails, and the leak scan sees a hidden card in either form.

What a test reads through SimCord shows the emojis as text (tests/card_markup.py); the
raw markup is read from SimCord's store."""

from __future__ import annotations

import logging
import re
from typing import Any

import pytest

from bot.app import create_bot
from bot.discord.card_emojis import RETRY_AFTER, CardEmojis, card_keys, load_faces
from bot.engine.shuffle import seeded_entropy
from bot.ui import cards
from tests.card_markup import CardsIn, raw_text
from tests.e2e.helpers import add_players, embed_text, table_message, table_of, thread_of

EMOJIS = re.compile(r"^/applications/\d+/emojis$")


def emoji_calls(env: Any, start: int = 0) -> tuple[int, list[str]]:
    """(listings, names uploaded) among the REST calls since ``start``."""
    calls = [r for r in env.http_requests[start:] if EMOJIS.match(r.path)]
    lists = sum(1 for r in calls if r.method == "GET")
    return lists, [r.json["name"] for r in calls if r.method == "POST"]


def application_emojis(env: Any) -> dict[str, int]:
    """The application's emojis in SimCord: name -> id."""
    return {e.name: e.id for e in env.backend.application_emojis.values()}


def raw(env: Any, channel_id: int, message_id: int) -> str:
    """A stored message's text with the markup as the bot sent it."""
    return raw_text(env.backend.messages[channel_id][message_id])


async def restart(env: Any, db_path: str) -> None:
    await env.restart_bot(create_bot(database_path=db_path, entropy=seeded_entropy("e2e")))


async def classic_round_start(
    env: Any, rig: tuple[str, ...] = ("TS", "9H", "8S", "KC")
) -> tuple[Any, Any, Any]:
    """alice alone at a Black Jack table, bet placed: by default 10♠ 8♠ against 9♥ and a
    hole card (K♣)."""
    guild = env.create_guild()
    lobby = guild.create_text_channel("casino")
    (alice,) = add_players(env, guild, "alice")
    await alice.member.slash(lobby, "table open", game="blackjack")
    thread = thread_of(lobby)
    table = table_of(env, thread)
    table.game.rig(list(rig))
    await alice.member.click(table_message(thread, table), label="Start")
    await alice.member.click(table_message(thread, table), label="Bet 10")
    return alice, thread, table


async def test_the_first_start_uploads_every_picture_and_a_restart_reuses_them(
    simcord_env, db_path
):
    env = simcord_env
    faces = load_faces()
    assert [f.key for f in faces] == card_keys() and len(faces) == 55
    lists, uploaded = emoji_calls(env)
    assert lists == 1 and sorted(uploaded) == sorted(f.name for f in faces)
    ids = application_emojis(env)
    first = dict(env.bot.card_emojis.markup)
    assert first == {f.key: f"<:{f.name}:{ids[f.name]}>" for f in faces}
    assert cards.card("AS") == first["AS"] and cards.card(None) == first[cards.BACK]

    start = len(env.http_requests)
    await restart(env, db_path)
    assert emoji_calls(env, start) == (1, [])  # listed once, nothing uploaded
    assert env.bot.card_emojis.markup == first  # the same emojis, by name
    assert application_emojis(env) == ids

    # one picture deleted by hand: the next start uploads that one only
    kh = next(f for f in faces if f.key == "KH")
    env.backend.delete_application_emoji(ids[kh.name])
    start = len(env.http_requests)
    await restart(env, db_path)
    assert emoji_calls(env, start) == (1, [kh.name])
    assert set(env.bot.card_emojis.markup) == set(card_keys())


async def test_the_table_shows_pictures_and_the_hole_card_as_a_back(simcord_env):
    env = simcord_env
    _alice, thread, table = await classic_round_start(env)
    markup = env.bot.card_emojis.markup
    shown = raw(env, thread.id, table.message_id)
    for code in ("TS", "8S", "9H"):
        assert markup[code] in shown
    assert markup[cards.BACK] in shown  # the hole card, face down
    assert markup["KC"] not in shown and "K♣" not in shown
    assert "10♠" not in shown and "🂠" not in shown  # no text form left
    # what a reader sees: the same cards, as tests compare them
    assert "10♠ 8♠" in embed_text(table_message(thread, table))


async def test_a_move_with_pictures_still_costs_one_rest_call(simcord_env):
    env = simcord_env
    alice, thread, table = await classic_round_start(env, ("2S", "9H", "3S", "KC", "4S"))
    before = len(env.http_requests)
    await alice.member.click(table_message(thread, table), label="Hit")  # 9: plays on
    calls = env.http_requests[before:]
    assert [c.path.endswith("/callback") for c in calls] == [True]
    markup = env.bot.card_emojis.markup
    sent = str(calls[0].json)  # the edit it carries draws the cards as pictures
    assert all(markup[c] in sent for c in ("2S", "3S", "4S", "9H", cards.BACK)), sent


async def test_a_dm_shows_the_picture(simcord_env):
    """Sept et demi deals each player a card face down: it goes by DM, as a picture."""
    env = simcord_env
    guild = env.create_guild()
    lobby = guild.create_text_channel("casino")
    alice, bob = add_players(env, guild, "alice", "bob")
    await alice.member.slash(lobby, "table open", game="sept_et_demi")
    thread = thread_of(lobby)
    table = table_of(env, thread)
    await bob.member.slash(thread, "table join")
    table.game.rig(["3S", "4D"])  # bob 3♠, the bank 4♦
    await alice.member.click(table_message(thread, table), label="Start")
    markup = env.bot.card_emojis.markup
    dm = bob.user.dm_channel
    (message,) = env.backend.messages[dm.id].values()
    assert markup["3S"] in message.content and "3♠" not in message.content
    assert "3♠" in bob.dms()[-1].content  # read as text, like every test does
    public = raw(env, thread.id, table.message_id)
    assert markup[cards.BACK] in public and markup["3S"] not in public
    res = await bob.member.slash(thread, "hand")
    assert res.ephemeral and "3♠" in res.response.content
    stored = env.backend.messages[thread.id][res.response.id]
    assert markup["3S"] in stored.content


@pytest.mark.parametrize("failing", ["GET", "POST"])
async def test_a_failed_upload_leaves_text_cards_and_the_table_plays(
    simcord_env, db_path, caplog, failing
):
    env = simcord_env
    for emoji_id in list(env.backend.application_emojis):
        env.backend.delete_application_emoji(emoji_id)
    env.inject_error(failing, "/applications/*/emojis", status=500)
    start = len(env.http_requests)
    with caplog.at_level(logging.INFO, logger="croupier.cards"):
        await restart(env, db_path)
    warnings = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(warnings) == 1 and "shown as text" in warnings[0].getMessage()
    lists, uploaded = emoji_calls(env, start)
    assert (lists, len(uploaded)) == ((1, 0) if failing == "GET" else (1, 1))
    assert env.bot.card_emojis.markup == {} and cards.card("AS") == "A♠"

    alice, thread, table = await classic_round_start(env)
    shown = raw(env, thread.id, table.message_id)
    assert "10♠ 8♠" in shown and "🂠" in shown and "<:" not in shown  # the text form
    await alice.member.click(table_message(thread, table), label="Stand")
    assert any("results" in (m.content or "") for m in thread.history())  # it played

    # the retry, later, uploads them all; the next round draws pictures
    await env.advance_time(RETRY_AFTER[0] + 1)
    assert set(env.bot.card_emojis.markup) == set(card_keys())
    assert len([r for r in caplog.records if r.levelno >= logging.WARNING]) == 1
    await alice.member.click(table_message(thread, table), label="Next round")
    await alice.member.click(table_message(thread, table), label="Bet 10")
    seen = CardsIn(raw(env, thread.id, table.message_id))
    assert sum(seen.pictures.values()) >= 4 and "<:" not in seen.plain


async def test_a_process_that_may_not_upload_lists_and_waits(simcord_env):
    """Sharded, processes other than shard 0 never upload: they list, and list again."""
    env = simcord_env
    names = application_emojis(env)
    for emoji_id in list(names.values())[:3]:
        env.backend.delete_application_emoji(emoji_id)
    service = CardEmojis(env.bot, upload=False)
    start = len(env.http_requests)
    await service.start()
    assert emoji_calls(env, start) == (1, [])
    assert len(service.missing) == 3 and len(service.markup) == 52
    await service.stop()


async def test_the_leak_scan_catches_a_hidden_card_shown_as_a_picture(
    simcord_env, leak_scan, monkeypatch
):
    """A renderer that shows the dealer's hole card as a picture, then with a wrong
    emoji id: the scan reports both (it reads a card emoji by its name)."""
    from bot.ui.render import renderer_for

    env = simcord_env
    renderer = renderer_for("blackjack")
    honest = type(renderer).body
    markup = env.bot.card_emojis.markup
    forms = {
        "picture": lambda code: markup[code],
        "stale id": lambda code: re.sub(r":\d+>$", ":999>", markup[code]),
    }
    form = "picture"

    def leaking_body(self: Any, ctx: Any) -> list[str]:
        hole = [c.code for c in getattr(ctx.table.game, "dealer", [])][1:]
        return [*honest(self, ctx), "debug: " + " ".join(forms[form](c) for c in hole)]

    monkeypatch.setattr(type(renderer), "body", leaking_body)
    _alice, thread, table = await classic_round_start(env)
    assert markup["KC"] in raw(env, thread.id, table.message_id)  # the leak, as a picture
    assert any("K♣ is not public yet" in v for v in leak_scan.violations)
    with pytest.raises(AssertionError, match="K♣"):
        leak_scan.check_table(table)
    leak_scan.violations.clear()

    form = "stale id"
    await env.bot.publisher.edit_table_message(table)
    shown = raw(env, thread.id, table.message_id)
    assert markup["KC"] not in shown and CardsIn(shown).pictures["KC"] == 1
    with pytest.raises(AssertionError, match="K♣"):
        leak_scan.check_table(table)
    leak_scan.violations.clear()  # proven: let the test end cleanly
    monkeypatch.setattr(type(renderer), "body", honest)
    await env.bot.publisher.edit_table_message(table)
