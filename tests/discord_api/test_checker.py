"""The spec checker: it catches what Discord's OpenAPI spec refuses, says where, and its
fast unions judge exactly as the spec's own."""

from __future__ import annotations

import copy
import hashlib
import json
import random
import re
from collections.abc import Iterator
from typing import Any

import pytest

from tests.discord_api.checker import SPEC_FILE, SpecChecker, amend

CHANNEL = "/channels/1456074443980800031/messages"
CALLBACK = "/interactions/1456074443980800040/aW50ZXJhY3Rpb24/callback"
COMMANDS = "/applications/1456074443980800000/commands"
TABLE_ROW = {
    "type": 1,
    "components": [
        {"type": 2, "style": 1, "label": "Bet 10", "custom_id": "cr:1:2:bet:10"},
        {"type": 2, "style": 2, "label": "Other amount…", "custom_id": "cr:1:2:bet"},
        {"type": 2, "style": 4, "label": "Leave", "custom_id": "cr:1:2:leave", "disabled": False},
    ],
}
SELECT_ROW = {
    "type": 1,
    "components": [
        {
            "type": 3,
            "custom_id": "cr:1:2:ace",
            "options": [{"label": "1", "value": "1"}, {"label": "11", "value": "11"}],
            "min_values": 1,
            "max_values": 1,
        }
    ],
}
EMBED = {
    "type": "rich",
    "title": "Black Jack — alice's table",
    "description": "**Bets** · round 1",
    "color": 15844367,
    "fields": [{"name": "Seats (2)", "value": "<@1> · stack 200", "inline": False}],
    "footer": {"text": "Table #1 · v3"},
}
TABLE_UPDATE = {"type": 7, "data": {"embeds": [EMBED], "components": [TABLE_ROW, SELECT_ROW]}}
EPHEMERAL = {
    "type": 4,
    "data": {"content": "You are seated.", "flags": 64, "allowed_mentions": {"parse": ["users"]}},
}
MESSAGE = {
    "content": "<@1456074443980800026> it is your turn",
    "embeds": [EMBED],
    "components": [TABLE_ROW],
    "allowed_mentions": {"users": [1456074443980800026], "replied_user": True},
}


def command(max_value: int) -> dict[str, Any]:
    """A command like ``/table``: sub-commands with an integer and a channel option."""
    join = {
        "type": 1,
        "name": "join",
        "description": "Sit down at this table",
        "options": [
            {
                "type": 4,
                "name": "buy_in",
                "description": "Chips to bring",
                "required": False,
                "min_value": 1,
                "max_value": max_value,
            }
        ],
    }
    open_ = {
        "type": 1,
        "name": "open",
        "description": "Open a table",
        "options": [
            {"type": 3, "name": "game", "description": "The game", "required": True,
             "choices": [{"name": "Black Jack", "value": "classic"}]},
            {"type": 7, "name": "where", "description": "A channel",
             "channel_types": [0, 5, 15, 16]},
            {"type": 5, "name": "here", "description": "Here"},
        ],
    }  # fmt: skip
    return {
        "name": "table",
        "description": "Card tables",
        "type": 1,
        "options": [join, open_],
        "description_localizations": {"fr": "Tables de cartes"},
        "default_member_permissions": None,
        "contexts": None,
    }


@pytest.fixture(scope="module")
def checker() -> SpecChecker:
    return SpecChecker()


def test_the_vendored_spec_is_the_upstream_file_at_the_recorded_commit() -> None:
    data = SPEC_FILE.read_bytes()
    blob = hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()  # git hash-object
    readme = SPEC_FILE.with_name("README.md").read_text()
    assert f"| git blob | `{blob}`" in readme
    assert "| commit | `74fda0fad044407ea280043a03ffc9bc64c4e49e`" in readme
    assert json.loads(data)["openapi"] == "3.1.0"


def test_conforming_requests_pass(checker: SpecChecker) -> None:
    assert checker.check("POST", CALLBACK, {"with_response": "1"}, TABLE_UPDATE) == []
    assert checker.check("POST", CALLBACK, {"with_response": "1"}, EPHEMERAL) == []
    assert checker.check("POST", CHANNEL, None, MESSAGE) == []
    assert checker.check("PUT", COMMANDS, None, [command(2**53 - 1)]) == []
    assert checker.check("GET", CHANNEL, {"limit": 100, "before": "12"}, None) == []
    assert checker.check("POST", "/users/@me/channels", None, {"recipient_id": 12}) == []


def test_a_violation_names_the_request_the_field_and_the_value(checker: SpecChecker) -> None:
    bad = copy.deepcopy(TABLE_UPDATE)
    bad["data"]["components"][0]["components"][1]["style"] = 9  # no such button style
    bad["data"]["embeds"][0]["title"] = "T" * 257  # Discord's limit is 256
    problems = checker.check("POST", CALLBACK, {}, bad)
    assert len(problems) == 2, problems
    style, title = sorted(problems, key=lambda p: "title" in p)
    assert style.startswith(f"POST {CALLBACK}: body /data/components/0/components/1/style = 9:")
    assert title.startswith(f"POST {CALLBACK}: body /data/embeds/0/title = 'TTTT")
    assert "is too long" in title


def test_the_sync_with_a_max_value_of_2_53_fails(checker: SpecChecker) -> None:
    """What ``app_commands.Range[int, 1, 2**53]`` declared: above the spec's 2^53 - 1."""
    problems = checker.check("PUT", COMMANDS, None, [command(2**53)])
    assert problems == [
        f"PUT {COMMANDS}: body /0/options/0/options/0/max_value = 9007199254740992: "
        "9007199254740992 is greater than the maximum of 9007199254740991"
    ]


def test_unknown_paths_methods_and_query_parameters_fail(checker: SpecChecker) -> None:
    assert checker.check("GET", "/channels/1/nothing", None, None) == [
        "GET /channels/1/nothing: no path of the spec matches"
    ]
    assert checker.check("POST", "/gateway", None, None) == [
        "POST /gateway: the spec has no POST on /gateway"
    ]
    assert checker.check(
        "GET", CHANNEL, {"limit": 1000, "colour": "red", "around": True}, None
    ) == [
        f"GET {CHANNEL}: query parameter 'limit' = 1000: 1000 is greater than the maximum of 100",
        f"GET {CHANNEL}: query parameter 'colour' is not in the spec for "
        "/channels/{channel_id}/messages",
        f"GET {CHANNEL}: query parameter 'around' = True: not a str, int or float",
    ]
    assert checker.check("GET", "/channels/abc/messages", None, None) == [
        "GET /channels/abc/messages: path parameter 'channel_id' = 'abc': "
        "'abc' does not match '^(0|[1-9][0-9]*)$'"
    ]
    # the most literal template wins: pins is not a message id
    assert checker.check("GET", "/channels/1/messages/pins", None, None) == []
    assert checker.check("POST", "/channels/1/typing", None, {"x": 1}) == [
        "POST /channels/1/typing: a body was sent but the spec takes none: {'x': 1}"
    ]


def test_the_amendments_accept_only_what_they_say(checker: SpecChecker) -> None:
    """GUILD_MEDIA (16), integer ids, ``use_nested_fields``: and the bare spec refuses
    each, so each amendment is needed."""
    bare = SpecChecker(json.loads(SPEC_FILE.read_bytes()))
    media = [command(2**53 - 1)]
    seventeen = copy.deepcopy(media)
    seventeen[0]["options"][1]["options"][1]["channel_types"] = [0, 17]
    dm = {"recipient_id": 1456074443980800026}
    forum = {"name": "Table", "message": {"content": "hi"}}
    threads = "/channels/1/threads"
    assert checker.check("PUT", COMMANDS, None, media) == []
    assert bare.check("PUT", COMMANDS, None, media)
    assert checker.check("PUT", COMMANDS, None, seventeen)
    assert checker.check("POST", "/users/@me/channels", None, dm) == []
    assert bare.check("POST", "/users/@me/channels", None, dm)
    assert checker.check("POST", "/users/@me/channels", None, {"recipient_id": -1})
    assert checker.check("POST", threads, {"use_nested_fields": 1}, forum) == []
    assert bare.check("POST", threads, {"use_nested_fields": 1}, forum)
    assert checker.check("POST", CHANNEL, {"use_nested_fields": 1}, MESSAGE)
    spec = json.loads(SPEC_FILE.read_bytes())
    amend(spec)
    again = json.dumps(spec)
    amend(spec)
    assert json.dumps(spec) == again  # amending twice adds nothing


def leaves(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """The path of every value inside a JSON value."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield from leaves(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from leaves(item, (*path, index))
    if path:
        yield path


def mutants(body: Any, rng: random.Random, count: int) -> Iterator[Any]:
    """``count`` copies of ``body``, each with one value changed or removed."""
    paths = list(leaves(body))
    for _ in range(count):
        copied = copy.deepcopy(body)
        *parents, last = rng.choice(paths)
        node = copied
        for key in parents:
            node = node[key]
        roll = rng.random()
        if roll < 0.25 and isinstance(node, dict):
            del node[last]
        elif roll < 0.6 and last in ("type", "style"):
            node[last] = rng.randint(0, 20)
        else:
            node[last] = rng.choice([None, "x", 12, True, [], {}, -1, 2**64, "", 2**53])
        yield copied


def test_the_fast_unions_judge_as_the_spec_does() -> None:
    """The fast checker (unions rewritten by ``discriminate``, valid ``$ref`` results
    remembered) accepts and refuses exactly what the spec's own oneOf/anyOf do, on real
    bodies and on one-change mutants of them, each judged twice (the second time, what
    was remembered is used)."""
    fast, plain = SpecChecker(), SpecChecker(fast=False)
    assert fast.unions > 200 and plain.unions == 0
    rng = random.Random(21)
    requests = [
        ("POST", CALLBACK, TABLE_UPDATE),
        ("POST", CALLBACK, EPHEMERAL),
        ("POST", CHANNEL, MESSAGE),
        ("PUT", COMMANDS, [command(2**53 - 1)]),
    ]
    verdicts = []
    for method, path, body in requests:
        for mutant in [body, *mutants(body, rng, 25)]:
            ok = not plain.check(method, path, None, mutant)
            for _ in range(2):  # ``problems``: no cache of whole requests
                assert ok == (not list(fast.problems(method, path, None, mutant))), mutant
            verdicts.append(ok)
    assert 20 < sum(verdicts) < len(verdicts) - 20, sum(verdicts)  # many of both kinds


def test_the_messages_stay_readable(checker: SpecChecker) -> None:
    bad = copy.deepcopy(MESSAGE)
    bad["components"][0]["components"][0] = {"type": 99}
    [problem] = checker.check("POST", CHANNEL, None, bad)
    assert re.fullmatch(
        rf"POST {CHANNEL}: body /components/0/components/0/type = 99: 99 is not one of \[.*\]",
        problem,
    )
