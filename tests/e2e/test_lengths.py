"""Lengths (issue 36, point 5): what a user types never makes a message Discord refuses,
and the biggest tables fit. Every request of the e2e suite is also checked against
Discord's message limits by the autouse spec check (tests/e2e/discord_limits.py).

- ``options`` takes at most ``OPTIONS_MAX`` characters (Discord's client refuses more);
- a refusal repeats at most ``QUOTE`` characters of what was typed, and a number of
  thousands of digits gets the usual out-of-range sentence;
- seven Black Jack seats of four split hands each, in French, at a table with an
  80-character name (the longest ``name`` takes), with card pictures: the table message
  and the round's summary go out within Discord's limits, every hand in them.
"""

from __future__ import annotations

from typing import Any

import pytest
from simcord.backend.errors import OptionError as DiscordRefusal

from bot.i18n import t
from bot.ui.errors import QUOTE
from bot.ui.limits import CONTENT
from cogs.tables.lobby import OPTIONS_MAX
from tests.e2e.helpers import add_players, embed_text, service, table_message, thread_of
from tests.e2e.test_refusals import assert_sentence, reply

HUGE = [  # (game, options, the refusal's catalog key)
    ("blackjack", "decks=" + "9" * (OPTIONS_MAX - 6), "options.out_of_range"),
    ("blackjack", "penetration=" + "7" * (OPTIONS_MAX - 12), "options.out_of_range"),
    ("pirate21", "dealer=" + "1" * (OPTIONS_MAX - 7), "options.option_bad_value"),
    ("blackjack", "z" * (OPTIONS_MAX - 2) + "=1", "options.unknown_option"),
    ("blackjack", "x" * OPTIONS_MAX, "options.option_syntax"),
    ("sept_et_demi", "deck=" + "4" * (OPTIONS_MAX - 5), "options.option_bad_value"),
]


async def test_options_past_the_limit_are_refused_by_discord(simcord_env: Any):
    env = simcord_env
    guild = env.create_guild()
    lobby = guild.create_text_channel("casino")
    (alice,) = add_players(env, guild, "alice")
    with pytest.raises(DiscordRefusal, match=f"at most {OPTIONS_MAX} characters"):
        await alice.member.slash(lobby, "table open", game="blackjack", options="d" * 5900)
    assert not lobby.threads and not service(env).open_tables()


@pytest.mark.parametrize("locale", ["en", "fr"])
async def test_a_huge_value_gets_a_short_refusal(simcord_env: Any, locale: str):
    env = simcord_env
    guild = env.create_guild()
    lobby = guild.create_text_channel("casino")
    (alice,) = add_players(env, guild, "alice")
    await alice.member.slash(lobby, "language", language=locale)
    for game, options, key in HUGE:
        res = await alice.member.slash(lobby, "table open", game=game, options=options)
        text = reply(res)
        assert_sentence(text)
        assert text.startswith(t(key, locale).split("{", 1)[0]), (options[:20], text)
        assert "…" in text and len(text) < 2 * QUOTE + len(t(key, locale)) + 400, text
    assert not lobby.threads and not service(env).open_tables()
    assert not env.errors  # refusals, not crashes


async def split_everything(env: Any) -> tuple[Any, Any, list[Any]]:
    """Seven players at a French Black Jack table with an 80-character name, each with
    four split hands, all played but the last one; the dealer shows a 7."""
    guild = env.create_guild()
    lobby = guild.create_text_channel("casino")
    players = add_players(env, guild, *(f"player{i}" for i in range(7)))
    host = players[0]
    for p in players:
        await p.member.slash(lobby, "language", language="fr")
    name = "Le Grand Salon " + "de la Rivière " * 5
    name = name[:80]
    await host.member.slash(lobby, "table open", game="blackjack", name=name)
    thread = thread_of(lobby)
    table = service(env).table_in(thread.id)
    assert table is not None and len(table.settings.name) == 80
    for p in players[1:]:
        await p.member.slash(thread, "table join")
    ranks = "2345689"  # one rank each: every hand is a pair, split again up to four hands
    deal = [f"{r}S" for r in ranks] + ["7H"] + [f"{r}H" for r in ranks] + ["TC"]
    draws = [f"{r}{s}" for r in ranks for s in "DCSHDC"]  # six more cards each
    table.game.rig(deal + draws)
    await host.member.click(table_message(thread, table), label=t("move.start", "fr"))
    for p in players:
        await p.member.slash(thread, "bet", amount=10)
    for p in players:
        for _ in range(3):
            res = await p.member.slash(thread, "split")
            assert reply(res).startswith(t("answer.split", "fr", bet=10))
            assert table.game.to_act == p.id
        for _ in range(3 if p is players[-1] else 4):
            await p.member.slash(thread, "stand")
    return thread, table, players


async def test_seven_seats_of_split_hands_fit(simcord_env: Any):
    env = simcord_env
    thread, table, players = await split_everything(env)
    hands = table.game.public_view().own.hands
    assert len(hands) == 28 and all(len(h.cards) == 2 for h in hands)
    text = embed_text(table_message(thread, table))  # within the limits: the spec check
    assert table.settings.name in text
    assert all(f"<@{p.id}>" in text for p in players)
    start = len(env.http_requests)
    await players[-1].member.slash(thread, "stand")  # the dealer plays, the round settles
    posts = [  # the summary: the old table message edited into it
        r.json["content"]
        for r in env.http_requests[start:]
        if r.method in ("POST", "PATCH")
        and r.path.startswith(f"/channels/{thread.id}/messages")
        and (r.json or {}).get("content")
    ]
    summary = next(p for p in posts if all(f"<@{q.id}>" in p for q in players))
    assert len(summary) <= CONTENT  # every player in it, within 2,000 characters
    message = table_message(thread, table)
    print(f"28 hands: embed {len(text)} characters, {len(message.embeds[0].fields)} fields;")
    print(f"summary {len(summary)} characters")
