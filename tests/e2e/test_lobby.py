"""``/table list`` end to end: the server's open tables page by page, a game filter, the
Join button (the buy-in asked in a modal, or a seat at once), old buttons after a
restart, French, bad input."""

from __future__ import annotations

from typing import Any

import discord

from bot.i18n import t
from tests.e2e.helpers import add_players, embed_text, service, table_of, thread_of
from tests.e2e.recovery_helpers import restart


def labels(message: Any) -> list[str]:
    """The labels of a message's buttons, in order."""
    return [c.label for row in message.components for c in row.children]


async def open_tables(env: Any, guild: Any, channel: Any, games: list[str]) -> list[Any]:
    """One table per game in ``games``, each opened by a host of its own."""
    hosts = add_players(env, guild, *[f"host{i}" for i in range(len(games))])
    threads = []
    for i, (host, game) in enumerate(zip(hosts, games, strict=True)):
        res = await host.member.slash(channel, "table open", game=game, name=f"Table {i}")
        assert res.ephemeral
        threads.append(thread_of(channel))
    return threads


async def test_lobby_pages_filter_and_join(simcord_env):
    env = simcord_env
    guild = env.create_guild()
    casino = guild.create_text_channel("casino")
    threads = await open_tables(env, guild, casino, ["blackjack"] * 9 + ["casino21"] * 3)
    (alice,) = add_players(env, guild, "alice")

    res = await alice.member.slash(casino, "table list")
    assert res.ephemeral
    page = res.response.message
    text = embed_text(page)
    assert "Page 1/2 · 12 tables" in text
    assert "**1. Table 11** · Casino 21" in text and "Table 2" in text and "Table 1 " not in text
    assert f"<#{threads[11].id}>" in text and "0/8 seats free" not in text
    assert "bets 10–500" in text and "Waiting for players" in text
    assert labels(page)[:10] == [f"Join {n}" for n in range(1, 11)]
    assert labels(page)[10:] == ["◀ Previous", "Next ▶"]

    second = await alice.member.click(page, label="Next ▶")
    text = embed_text(second.response.message if second.response else page)
    assert "Page 2/2" in text and "**1. Table 1**" in text and "**2. Table 0**" in text

    only = await alice.member.slash(casino, "table list", game="casino21")
    text = embed_text(only.response.message)
    assert "3 tables" in text and "Black Jack" not in text
    assert "Next ▶" not in labels(only.response.message)  # one page: no pager

    # Join 1 of the Black Jack page 2 (Table 1): the buy-in is asked first
    shown = await alice.member.click(second.response.message, label="Join 1")
    assert shown.modal is not None
    field = shown.modal["components"][0]["components"][0]["custom_id"]
    bad = await alice.member.submit_modal(shown, {field: "lots"})
    assert bad.response.content == t("table.error.amount_not_number", "en")
    shown = await alice.member.click(second.response.message, label="Join 1")  # again
    field = shown.modal["components"][0]["components"][0]["custom_id"]
    zero = await alice.member.submit_modal(shown, {field: "0"})
    assert zero.response.content == t("table.error.buy_in_positive", "en")
    assert alice.id not in table_of(env, threads[1]).game.seated()  # nothing changed
    shown = await alice.member.click(second.response.message, label="Join 1")
    field = shown.modal["components"][0]["components"][0]["custom_id"]
    joined = await alice.member.submit_modal(shown, {field: "150"})
    assert joined.response.content == t("lobby.joined", "en", where=f"<#{threads[1].id}>")
    table = table_of(env, threads[1])
    assert table.game.seat_of(alice.id).stack == 150
    # a Casino 21 seat takes no buy-in: at once, with its welcome stake
    seated = await alice.member.click(only.response.message, label="Join 1")
    assert seated.modal is None and seated.response.content.startswith("You took a seat")
    assert alice.id in table_of(env, threads[11]).game.seated()
    # her own seat's Join is greyed out in a new list
    again = await alice.member.slash(casino, "table list", game="casino21")
    join = next(c for row in again.response.message.components for c in row.children)
    assert join.disabled


async def test_lobby_closed_table_empty_server_and_french(simcord_env, db_path):
    env = simcord_env
    guild = env.create_guild()
    casino = guild.create_text_channel("casino")
    (alice,) = add_players(env, guild, "alice")
    res = await alice.member.slash(casino, "table list")
    assert res.response.content == t("lobby.empty", "en")
    threads = await open_tables(env, guild, casino, ["sept_et_demi"])
    listed = await alice.member.slash(casino, "table list")
    await restart(env, db_path)  # the lobby's buttons still work: a fixed buy-in, seated
    seated = await alice.member.click(listed.response.message, label="Join 1")
    assert seated.response.content == t("lobby.joined", "en", where=f"<#{threads[0].id}>")
    table = table_of(env, threads[0])
    assert alice.id in table.game.seated()
    await service(env).close_table(table.id, None, "host")
    refused = await alice.member.click(listed.response.message, label="Join 1")
    assert refused.ephemeral and refused.response.content == t("table.error.closed", "en")
    await alice.member.slash(casino, "language", language="fr")
    res = await alice.member.slash(casino, "table list", game="blackjack")
    name = "Black Jack"
    assert res.response.content == t("lobby.empty_game", "fr", game=name)
    threads = await open_tables(env, guild, casino, ["blackjack"])
    res = await alice.member.slash(casino, "table list")
    text = embed_text(res.response.message)
    assert "Tables ouvertes" in text and "places libres" in text and "Page 1/1" in text
    assert labels(res.response.message) == ["Rejoindre 1"]


async def test_a_table_in_a_channel_hidden_from_a_member_is_not_listed_to_them(simcord_env):
    env = simcord_env
    guild = env.create_guild()
    staff = guild.create_role("staff")
    hidden = guild.create_text_channel(
        "staff-room",
        overwrites={
            guild.roles["@everyone"]: discord.PermissionOverwrite(view_channel=False),
            staff: discord.PermissionOverwrite(view_channel=True),
            guild.me: discord.PermissionOverwrite(view_channel=True),
        },
    )
    casino = guild.create_text_channel("casino")
    boss = guild.add_member(env.create_user("boss"), roles=[staff])
    (alice,) = add_players(env, guild, "alice")
    await boss.slash(hidden, "table open", game="blackjack", name="Staff only")
    seen = await boss.slash(casino, "table list")
    assert "Staff only" in embed_text(seen.response.message)
    res = await alice.member.slash(casino, "table list")
    assert res.response.content == t("lobby.empty", "en")
