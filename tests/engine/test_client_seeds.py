"""Client seeds (issue 39.7): a shoe's order from the server seed, the shoe's number and the
seated players' client seeds through HMAC-SHA256; committed before the seeds are read."""

from __future__ import annotations

import hashlib
import hmac
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine.base import Action, ActionKind, Event
from bot.engine.cards import build_deck
from bot.engine.games.blackjack import BlackjackGame
from bot.engine.games.casino21 import Casino21
from bot.engine.shuffle import (
    CLIENT_SEED_CHARS,
    CLIENT_SEED_MAX,
    Shoe,
    client_seed_problem,
    commitment,
    seeded_entropy,
    shoe_key,
    shoe_message,
    shuffled,
    verify,
)

K = ActionKind
SEEDS = st.text(alphabet=sorted(CLIENT_SEED_CHARS), min_size=1, max_size=CLIENT_SEED_MAX)
SERVER = st.binary(min_size=32, max_size=32)
NUMBER = st.integers(min_value=1, max_value=10**6)


def order(server: bytes, number: int, clients: list[str], spec: str = "std52") -> list[str]:
    """The order a shoe deals (the engine's Shoe, the way a table builds it)."""
    shoe = Shoe(spec, server, number=number, clients=tuple(enumerate(clients, start=1)))
    return [c.code for c in shoe.order]


@settings(max_examples=60, deadline=None)
@given(SERVER, NUMBER, st.lists(SEEDS, min_size=1, max_size=7))
def test_same_inputs_give_the_same_order(server: bytes, number: int, clients: list[str]) -> None:
    first = order(server, number, clients)
    assert order(server, number, list(clients)) == first
    checked = verify(server.hex(), commitment(server), "std52", clients, number)
    assert [c.code for c in checked] == first  # /verify recomputes it from the three inputs
    # a snapshot's shoe deals the same order
    shoe = Shoe("std52", server, number=number, clients=tuple(enumerate(clients, start=1)))
    again = Shoe.from_dict(json.loads(json.dumps(shoe.to_dict())))
    assert [c.code for c in again.order] == first


@settings(max_examples=60, deadline=None)
@given(SERVER, NUMBER, st.lists(SEEDS, min_size=1, max_size=7), st.data())
def test_any_one_input_changes_the_order(
    server: bytes, number: int, clients: list[str], data: st.DataObject
) -> None:
    first = order(server, number, clients)
    flip = data.draw(st.integers(0, 31))
    other_server = server[:flip] + bytes([server[flip] ^ 1]) + server[flip + 1 :]
    assert order(other_server, number, clients) != first
    assert order(server, number + 1, clients) != first
    i = data.draw(st.integers(0, len(clients) - 1))
    changed = data.draw(SEEDS.filter(lambda s: s != clients[i]))
    assert order(server, number, [*clients[:i], changed, *clients[i + 1 :]]) != first
    assert order(server, number, [*clients, "x"]) != first  # one more player
    if len(clients) > 1:
        assert order(server, number, clients[:-1]) != first  # one fewer


def test_the_key_is_the_published_hmac() -> None:
    """An independent recomputation of docs/RULES.md's derivation."""
    server = bytes(range(32))
    msg = b"croupier-shoe-v1" + (3).to_bytes(8, "big") + b"\x03abc" + b"\x02xy"
    expected = hmac.new(server, msg, hashlib.sha256).digest()
    assert shoe_key(server, 3, ["abc", "xy"]) == expected
    assert (
        shuffled(build_deck("std52"), expected)
        == Shoe("std52", server, number=3, clients=((5, "abc"), (9, "xy"))).order
    )


def test_seed_boundaries_are_unambiguous() -> None:
    assert shoe_message(1, ["ab", "c"]) != shoe_message(1, ["a", "bc"])
    assert shoe_key(b"s" * 32, 1, ["ab", "c"]) != shoe_key(b"s" * 32, 1, ["a", "bc"])


def test_a_shoe_without_client_seeds_keeps_the_old_order() -> None:
    """Older shoes (snapshots without client seeds) verify as before: the server seed."""
    seed = bytes(range(32))
    old = Shoe.from_dict({"spec": "std52", "seed": seed.hex(), "pos": 0})
    assert (
        old.order
        == shuffled(build_deck("std52"), seed)
        == verify(seed.hex(), commitment(seed), "std52")
    )
    assert "clients" not in old.to_dict()


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("", "empty"),
        ("a" * (CLIENT_SEED_MAX + 1), "too_long"),
        ("with space", "bad_chars"),
        ("accentué", "bad_chars"),
        ("`tick`", "bad_chars"),
        ("a" * CLIENT_SEED_MAX, None),
        ("Lucky-7_seed:#1", None),
    ],
)
def test_client_seed_rules(text: str, problem: str | None) -> None:
    assert client_seed_problem(text) == problem


def test_verify_needs_the_shoe_number_with_client_seeds() -> None:
    seed = bytes(range(32))
    with pytest.raises(ValueError, match="shoe"):
        verify(seed.hex(), commitment(seed), "std52", ["abc"])
    with pytest.raises(ValueError, match="client seed"):
        verify(seed.hex(), commitment(seed), "std52", ["a b"], 1)


def _of(events: list[Event], kind: str) -> list[dict[str, Any]]:
    return [e.data for e in events if e.kind == kind]


def test_the_server_seed_is_committed_before_the_client_seeds_are_read() -> None:
    """Opened through ``create``: the first shoe's commitment is public in the lobby; the
    client seeds of the seated players at the shuffle go in; the reveal lets anyone
    recompute the order that was dealt."""
    g = BlackjackGame.create(1, {}, seeded_entropy("client-seeds"))
    g.apply(Action(K.JOIN, 1, amount=500))
    g.apply(Action(K.JOIN, 2, amount=500))
    committed = g.public_view().next_commitment
    assert isinstance(committed, str)
    g.client_seeds = {2: "bob-seed", 1: "alice", 3: "not-seated"}  # the service sets them
    events = g.apply(Action(K.START, 1))
    (shuffle,) = _of(events, "shuffle")
    assert shuffle["commitment"] == committed
    assert shuffle["clients"] == [[1, "alice"], [2, "bob-seed"]]  # seated, by user id
    shoe = g.public_view().shoe
    assert shoe is not None and shoe.clients == ((1, "alice"), (2, "bob-seed"))
    assert g.shoe is not None
    dealt = [c.code for c in g.shoe.order]
    g.client_seeds = {1: "changed"}  # a change now is for the next shoe only
    snapshot = json.loads(json.dumps(g.to_dict()))
    assert [c.code for c in BlackjackGame.from_dict(snapshot).shoe.order] == dealt  # type: ignore[union-attr]
    reveals = _of(g.apply(Action(K.CLOSE)), "seed_revealed")
    mine = next(r for r in reveals if r["commitment"] == committed)
    assert mine["number"] == 1 and mine["clients"] == [[1, "alice"], [2, "bob-seed"]]
    seeds = [text for _, text in mine["clients"]]
    checked = verify(mine["seed"], committed, mine["spec"], seeds, mine["number"])
    assert [c.code for c in checked] == dealt
    assert [c.code for c in verify(mine["seed"], committed, mine["spec"], ["x"], 1)] != dealt


def test_a_shoe_per_round_is_committed_the_round_before() -> None:
    """Casino 21 shuffles each round: each round's shoe was the previous one's spare."""
    g = Casino21.create(1, {}, seeded_entropy("c21-seeds"))
    g.apply(Action(K.JOIN, 1))
    g.apply(Action(K.JOIN, 2))
    upcoming = g.public_view().next_commitment
    g.client_seeds = {1: "a", 2: "b"}
    (shuffle,) = _of(g.apply(Action(K.START, 1)), "shuffle")
    assert shuffle["commitment"] == upcoming
    assert shuffle["next_commitment"] == g.public_view().next_commitment
