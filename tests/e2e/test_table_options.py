"""Table options through Discord: every documented value opens a table and shows in
``/table status``; refusals are one translated ephemeral sentence that leaves nothing
behind; the ``options`` field autocompletes from the games' declarations."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from bot.engine.options import (
    OptionKind,
    OptionSpec,
    allowed_short,
    documented_values,
    format_value,
)
from bot.i18n import t
from bot.tables import GAMES
from bot.tables.games import all_options
from bot.tables.games import option as option_of
from bot.tables.models import SETTINGS, TableSettings
from tests.e2e.helpers import Player, add_players, embed_text, service, thread_of
from tests.e2e.test_refusals import assert_sentence, expected_refusals, reply

RICH = 3 * 10**12  # enough for the largest buy-in, minimum bet and guarantee fund


async def casino_world(env: Any) -> tuple[Any, Any, Player]:
    """A guild, a lobby and a host rich enough for any option (minted by a manager)."""
    guild = env.create_guild()
    lobby = guild.create_text_channel("casino")
    (host,) = add_players(env, guild, "host")
    role = guild.create_role("croupiers", permissions=discord.Permissions(manage_guild=True))
    boss = guild.add_member(env.create_user("boss"), roles=[role])
    for kwargs in ({"user": host.member}, {}):  # the host, then the treasury
        res = await boss.slash(lobby, "bank mint", amount=RICH, **kwargs)
        assert res.ephemeral, res.response.content
    limits = {
        f"max_{name}": RICH for name in ("welcome_stake", "guarantee_fund", "bank_bust_bonus")
    }
    limits["min_casino21_bet"] = 1
    res = await boss.slash(lobby, "bank setup", channel=lobby, **limits)  # allows any option
    assert res.ephemeral, res.response.content
    return guild, lobby, host


def spec_of(game: str, name: str) -> OptionSpec:
    spec = option_of(GAMES[game], name)
    assert spec is not None
    return spec


def companions(game: str, spec: OptionSpec, value: str) -> dict[str, str]:
    """Other options a value needs to be valid with (``max_bet=1`` needs ``min_bet=1``,
    ``min_bet=1000000000`` a ``max_bet`` as high), from the specs' cross bounds."""
    if spec.kind is not OptionKind.INT or not value.isdigit():
        return {}
    typed = int(value)
    out: dict[str, str] = {}
    if spec.at_least is not None:
        other, factor = spec.at_least
        if typed < factor * spec_of(game, other).default:
            out[other] = str(typed // factor)
    for s in GAMES[game].options:
        bound = s.at_least
        if bound is not None and bound[0] == spec.name and s.default < bound[1] * typed:
            out[s.name] = str(bound[1] * typed)
    # the server's rule: a Casino 21 wagering requirement is at least the welcome stake
    if game == "casino21" and spec.name == "wager_requirement" and typed < 100:
        out["welcome_stake"] = value
    if game == "casino21" and spec.name == "welcome_stake" and typed > 100:
        out["wager_requirement"] = value
    return out


def shown_as(spec: OptionSpec, value: str) -> str:
    """How ``/table status`` writes an option given as ``value``: the timers a table
    really uses when left to their default."""
    if spec in SETTINGS and value == "none":
        timers = TableSettings()
        return str(getattr(timers, spec.name.replace("seconds", "timer")))
    return value


def cases(game: str, host_id: int) -> list[dict[str, str]]:
    """For every option ``/rules`` lists: each documented value, with its companions."""
    out = []
    for spec in all_options(GAMES[game]):
        values = documented_values(spec)
        if spec.name == "dealer":
            values = [*values, f"<@{host_id}>"]  # a player: the host is the one seated
        for value in values:
            out.append({spec.name: value, **companions(game, spec, value)})
    return out


@pytest.mark.parametrize("game", sorted(GAMES))
async def test_every_documented_option_value_opens_a_table_shown_by_status(simcord_env, game):
    env = simcord_env
    _guild, lobby, host = await casino_world(env)
    tried = 0
    for options in cases(game, host.id):
        text = " ".join(f"{k}={v}" for k, v in options.items())
        res = await host.member.slash(lobby, "table open", game=game, options=text)
        opened = t("table.opened", "en", where="")
        assert reply(res).startswith(opened), f"{game} {text}: {reply(res)}"
        thread = thread_of(lobby)
        status = await host.member.slash(thread, "table status")
        assert status.ephemeral
        shown = embed_text(status.response)
        assert t("rules.field.table_options", "en") in shown
        for name, value in options.items():
            expected = f"`{name}={shown_as(spec_of(game, name), value)}`"
            assert expected in shown, f"{game} {text}: {expected} not in\n{shown}"
        closed = await host.member.slash(thread, "table close")
        assert closed.ephemeral and service(env).table_in(thread.id) is None, text
        tried += 1
    specs = all_options(GAMES[game])
    assert tried >= 2 * len(specs)  # at least two values per option
    assert not env.errors


async def test_pirate21_deck_counts_are_the_rules_deck(simcord_env):
    """``deck=36/14/4`` is the 54-card pack; other counts build that many cards."""
    env = simcord_env
    _guild, lobby, host = await casino_world(env)
    await host.member.slash(lobby, "table open", game="pirate21", options="deck=18/7/2")
    table = service(env).table_in(thread_of(lobby).id)
    assert table is not None
    assert table.game.options.deck_counts == {"numbers": 18, "pirates": 7, "flags": 2}
    await host.member.slash(thread_of(lobby), "table close")
    await host.member.slash(lobby, "table open", game="pirate21", options="deck=36/14/4")
    table = service(env).table_in(thread_of(lobby).id)
    assert table is not None
    assert table.game.options.deck_counts == {"numbers": 36, "pirates": 14, "flags": 4}


# ------------------------------------------------------------------ refusals

REFUSED = [
    ("casino21", "welcome_stake=-1", "options.out_of_range"),
    ("blackjack", "max_bet=0", "options.out_of_range"),
    ("blackjack", "decks=", "options.option_missing_value"),
    ("blackjack", "decks=6 decks=2", "options.option_repeated"),
    ("blackjack", "deks=2", "options.unknown_option_close"),
    ("blackjack", "colour=red", "options.unknown_option"),
    ("blackjack", "decks=six", "options.option_bad_value"),
    ("sept_et_demi", "deck=52", "options.option_bad_value"),
    ("blackjack", "min_bet=50 max_bet=20", "options.option_below_other"),
    ("pirate21", "deck=36/14", "options.bad_deck"),
]


@pytest.mark.parametrize("locale", ["en", "fr"])
async def test_option_refusals_are_translated_and_leave_nothing(simcord_env, locale):
    env = simcord_env
    guild = env.create_guild()
    lobby = guild.create_text_channel("casino")
    forum = guild.create_forum_channel("tables")
    (alice,) = add_players(env, guild, "alice")
    if locale == "fr":
        await alice.member.slash(lobby, "language", language="fr")
    bank = service(env).bank
    await service(env).ensure_guild(guild.id)
    await bank.open_account(guild.id, alice.id)
    before = (await bank.balance(guild.id, alice.id), await bank.balance(guild.id, None))
    public = [m.id for m in lobby.history()]
    for game, options, key in REFUSED:
        for where in ({}, {"where": forum}, {"here": True}):
            res = await alice.member.slash(lobby, "table open", game=game, options=options, **where)
            text = reply(res)
            assert_sentence(text)
            template = t(key, locale).split("{", 1)[0]
            assert text.startswith(template), (options, text, template)
            if locale == "fr":
                assert text != t(key, "en")
    assert not lobby.threads and not forum.threads and not service(env).open_tables()
    assert [m.id for m in lobby.history()] == public  # nothing posted
    after = (await bank.balance(guild.id, alice.id), await bank.balance(guild.id, None))
    assert after == before and not await bank.claims(guild.id)
    expected_refusals(env)


async def test_french_refusal_names_the_option_and_what_it_takes(simcord_env):
    env = simcord_env
    guild = env.create_guild()
    lobby = guild.create_text_channel("casino")
    (alice,) = add_players(env, guild, "alice")
    await alice.member.slash(lobby, "language", language="fr")
    res = await alice.member.slash(lobby, "table open", game="blackjack", options="decks=six")
    assert_sentence(
        reply(res), "`decks=six` n'est pas permis\u00a0: `decks` accepte un nombre entier de 1 à 8."
    )
    res = await alice.member.slash(
        lobby, "table open", game="sept_et_demi", options="deck=32 deck=40"
    )
    assert_sentence(
        reply(res),
        "L'option `deck` est donnée deux fois\u00a0: donnez chaque option une seule fois.",
    )
    assert not lobby.threads and not service(env).open_tables()


# ------------------------------------------------------------------ autocomplete


async def test_options_autocomplete_from_the_chosen_game(simcord_env):
    env = simcord_env
    guild = env.create_guild()
    lobby = guild.create_text_channel("casino")
    (alice,) = add_players(env, guild, "alice")
    found = await alice.member.autocomplete(lobby, "table open", "options", "", game="pirate21")
    values = [c["value"] for c in found]
    assert values[:5] == [
        "variant=standard",
        "treasure=10",
        "coins_per_player=none",
        "dealer=none",
        "deck=36/14/4",
    ]
    assert "pace=live" in values and all(len(c["name"]) <= 100 for c in found)
    assert len(found) <= 25
    found = await alice.member.autocomplete(
        lobby, "table open", "options", "pace=forum deck=", game="sept_et_demi"
    )
    assert [c["value"] for c in found] == ["pace=forum deck=40", "pace=forum deck=32"]
    assert found[0]["name"] == "deck=40 (default) · 40 cards (ace to 7, heads ½) or 32 (7 to ace)"
    # in the user's language
    await alice.member.slash(lobby, "language", language="fr")
    found = await alice.member.autocomplete(
        lobby, "table open", "options", "decks=2 min", game="blackjack"
    )
    assert found == [
        {"name": "min_bet=10 · 1–1000000000 · mise minimale", "value": "decks=2 min_bet=10"}
    ]
    # no game chosen yet: the settings every game takes
    found = await alice.member.autocomplete(lobby, "table open", "options", "pa")
    assert [c["value"] for c in found] == ["pace=live"]
    # what the autocomplete offers opens a table
    res = await alice.member.slash(
        lobby, "table open", game="blackjack", options="decks=2 min_bet=10"
    )
    assert reply(res).startswith(t("table.opened", "fr", where="")) and service(env).open_tables()


# ------------------------------------------------------------------ /rules


@pytest.mark.parametrize("locale", ["en", "fr"])
async def test_rules_list_every_option_from_the_specs(simcord_env, locale):
    env = simcord_env
    guild = env.create_guild()
    lobby = guild.create_text_channel("casino")
    (alice,) = add_players(env, guild, "alice")
    await alice.member.slash(lobby, "language", language=locale)
    for game, spec in GAMES.items():
        res = await alice.member.slash(lobby, "rules", game=game)
        text = embed_text(res.response)
        for option in all_options(spec):
            line = f"`{option.name}={format_value(option, option.default)}` "
            line += f"({allowed_short(option)})"
            colon = "\u00a0:" if locale == "fr" else ":"
            assert f"{line}{colon} {option.description(locale)}" in text
    # a table's own values, as typed
    await alice.member.slash(
        lobby, "table open", game="pirate21", options="deck=18/7/2 variant=shared"
    )
    res = await alice.member.slash(thread_of(lobby), "rules")
    mine = embed_text(res.response).split(t("rules.field.table_options", locale), 1)[1]
    assert "`deck=18/7/2`" in mine and "`variant=shared`" in mine
