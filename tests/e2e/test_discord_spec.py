"""What Discord accepts: the command sync the bot sends at start-up conforms to Discord's
OpenAPI spec (the amounts top out at 2^53 - 1), and the suite's spec check catches a
request that does not (``discord_spec_check`` in conftest.py runs on every e2e test)."""

from __future__ import annotations

import contextlib
import copy
from typing import Any

import discord

from bot.bank import MAX_AMOUNT
from tests.discord_api.checker import SpecChecker

# (command, sub-command or None, option): the amounts a player types
AMOUNTS = [("table", "join", "buy_in"), ("table", "top-up", "amount")]


def the_sync(env: Any) -> Any:
    """The one command sync of the start-up: its recorded request."""
    syncs = [
        r
        for r in env.http_requests
        if r.method == "PUT" and r.path == f"/applications/{env.backend.application_id}/commands"
    ]
    assert len(syncs) == 1, [f"{r.method} {r.path}" for r in env.http_requests]
    return syncs[0]


def option(commands: list[dict[str, Any]], name: str, sub: str | None, field: str) -> Any:
    """The option dict ``/name [sub] field`` in a sync payload, and its JSON pointer."""
    [(i, found)] = [(i, c) for i, c in enumerate(commands) if c["name"] == name]
    where = f"/{i}"
    if sub is not None:
        [(j, found)] = [(j, o) for j, o in enumerate(found["options"]) if o["name"] == sub]
        where += f"/options/{j}"
    [(k, found)] = [(k, o) for k, o in enumerate(found["options"]) if o["name"] == field]
    return found, f"{where}/options/{k}"


async def test_the_startup_sync_conforms_and_2_53_would_not(
    simcord_env: Any, discord_spec: SpecChecker
) -> None:
    sync = the_sync(simcord_env)
    commands = sync.json
    assert len(commands) > 10  # the whole tree: /table, /bank, /bet, /hit...
    assert discord_spec.check(sync.method, sync.path, sync.params, commands) == []
    today = copy.deepcopy(commands)  # what Range[int, 1, 2**53] declared
    pointers = []
    for name, sub, field in AMOUNTS:
        found, where = option(commands, name, sub, field)
        assert (found["type"], found["min_value"], found["max_value"]) == (4, 1, MAX_AMOUNT)
        option(today, name, sub, field)[0]["max_value"] = 2**53
        pointers.append(where)
    problems = discord_spec.check(sync.method, sync.path, sync.params, today)
    assert problems == [
        f"PUT {sync.path}: body {where}/max_value = 9007199254740992: "
        "9007199254740992 is greater than the maximum of 9007199254740991"
        for where in sorted(pointers, key=lambda p: [int(x) for x in p.split("/")[1::2]])
    ]
    # /bet declares no range: Discord would show its bounds, and a bet's are the table's,
    # said by the bot in the player's terms (tests/e2e/test_refusals.py)
    bet, _ = option(commands, "bet", None, "amount")
    assert bet["type"] == 4 and "min_value" not in bet and "max_value" not in bet
    # /table open where: lists GUILD_MEDIA (16), which the spec lacks and the check allows
    where, _ = option(commands, "table", "open", "where")
    assert 16 in where["channel_types"]


async def test_the_check_fails_a_request_that_breaks_the_spec(
    simcord_env: Any, discord_spec_check: Any
) -> None:
    """The bot's own HTTP client sends an embed title longer than Discord's 256: the
    fixture's check names the request, the field and the value."""
    channel = simcord_env.create_guild().create_text_channel("general")
    assert discord_spec_check.problems() == []
    sent = simcord_env.bot.get_channel(channel.id).send(embed=discord.Embed(title="T" * 257))
    with contextlib.suppress(discord.HTTPException):  # SimCord's answer does not matter:
        await sent  # the request is recorded either way
    [problem] = discord_spec_check.problems()
    assert problem.startswith(
        f"POST /channels/{channel.id}/messages: body /embeds/0/title = 'TTTT"
    ), problem
    assert problem.endswith("is too long")
    discord_spec_check.allow("body /embeds/0/title = 'TTTT")  # made on purpose


async def test_the_check_fails_a_message_over_discords_limits(
    simcord_env: Any, discord_spec_check: Any
) -> None:
    """Limits the spec does not carry: a content over 2,000 characters (the spec allows
    4,000), embeds over 6,000 characters in all."""
    channel = simcord_env.bot.get_channel(
        simcord_env.create_guild().create_text_channel("general").id
    )
    for kwargs in (
        {"content": "x" * 2001},
        {"embeds": [discord.Embed(description="d" * 4000) for _ in range(2)]},
    ):
        with contextlib.suppress(discord.HTTPException):
            await channel.send(**kwargs)
    problems = discord_spec_check.problems()
    assert [p.split(": ", 1)[1] for p in problems] == [
        "content of 2001 characters (at most 2000)",
        "embeds of 8000 characters in all (at most 6000)",
    ], problems
    discord_spec_check.allow("characters (at most 2000)")
    discord_spec_check.allow("characters in all (at most 6000)")
