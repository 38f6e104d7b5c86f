"""Pirate 21 properties (hypothesis): coins conserved, no hidden card in public, a bust
looks exactly like a stand, snapshots round-trip, random play ends, illegal actions change
nothing and ``legal_actions`` agrees with ``apply``."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.engine.base import Action, ActionKind, Event, IllegalAction, Phase, Visibility
from bot.engine.cards import pirate54
from bot.engine.games.pirate21 import Pirate21
from bot.engine.shuffle import seeded_entropy
from bot.engine.views import as_dict

A = ActionKind
ALL_CODES = [c.code for c in pirate54()]
FAST = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])

games = st.fixed_dictionaries(
    {
        "n": st.integers(2, 8),
        "variant": st.sampled_from(["standard", "shared"]),
        "treasure": st.integers(1, 12),
        "cpp": st.sampled_from([None, 1, 2, 3]),  # shared: None divides the treasure
        "seed": st.integers(0, 10**9),
        "hit": st.floats(0.0, 0.9),
        "aim": st.integers(12, 21),  # bots hit below this total (from their private view)
        # a deck rich in Flags and Pirates makes ties at 21 and BlackJacks frequent
        "deck": st.sampled_from([None, None, "8/20/12", "4/6/6"]),
    }
)


def coins_at_start(spec: dict[str, Any]) -> int:
    """Every coin of the game: the treasure, or the coins handed out in the shared variant
    (a divided treasure must give each player at least one)."""
    if spec["variant"] == "standard":
        return int(spec["treasure"])
    if spec["cpp"] is not None:
        return int(spec["cpp"]) * int(spec["n"])
    return int(spec["treasure"]) + int(spec["n"]) - 1


def start(spec: dict[str, Any]) -> Pirate21:
    treasure = coins_at_start(spec) if spec["cpp"] is None else spec["treasure"]
    opts: dict[str, Any] = {"variant": spec["variant"], "treasure": treasure}
    if spec["variant"] == "shared" and spec["cpp"] is not None:
        opts["coins_per_player"] = spec["cpp"]
    if spec.get("deck"):
        opts["deck"] = spec["deck"]
    game = Pirate21.create(1, opts, seeded_entropy(f"prop{spec['seed']}"))
    for p in range(2, spec["n"] + 1):
        game.apply(Action(A.JOIN, p))
    return game


def choose(game: Pirate21, rng: random.Random, hit: float, aim: int) -> Action:
    """A random legal move in a running game."""
    p = game.to_act
    assert p is not None
    if rng.random() < 0.05:
        return Action(A.TIMEOUT)
    if A.HIT not in game.legal_actions(p):
        return Action(A.STAND, p)
    if rng.random() < hit:
        return Action(A.HIT if rng.random() < 0.5 else A.STAND, p)
    wants = game.private_view(p).you.own.total < aim
    return Action(A.HIT if wants else A.STAND, p)


def run(
    spec: dict[str, Any], limit: int = 20_000
) -> Iterator[tuple[Pirate21, Action, list[Event]]]:
    """Play a whole random game, yielding (game, action, events) after every move."""
    game = start(spec)
    rng = random.Random(spec["seed"])
    action = Action(A.START, 1)
    yield game, action, game.apply(action)
    steps = 0
    while game.phase is Phase.PLAYING:
        steps += 1
        assert steps < limit, "random play did not end"
        action = choose(game, rng, spec["hit"], spec["aim"])
        yield game, action, game.apply(action)


def strings(obj: Any) -> set[str]:
    if isinstance(obj, str):
        return {obj}
    if isinstance(obj, dict):
        return set().union(*(strings(v) for v in obj.values())) if obj else set()
    if isinstance(obj, list | tuple):
        return set().union(*(strings(v) for v in obj)) if obj else set()
    return set()


def total(game: Pirate21) -> int:
    return game.treasure + game.pot + sum(game.coins.values())


# ---------------------------------------------------------------------------- properties


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games)
def test_coins_are_conserved(spec: dict[str, Any]) -> None:
    expected = None
    for game, _, events in run(spec):
        if expected is None:
            expected = total(game)
            assert expected == coins_at_start(spec)
            started = next(e.data for e in events if e.kind == "game_started")
            n = spec["n"]
            if spec["variant"] == "shared" and spec["cpp"] is None:  # divided, rest in the pot
                assert set(started["coins"].values()) == {expected // n}
                assert started["pot"] == expected % n
        assert total(game) == expected
        assert min(game.treasure, game.pot, *game.coins.values()) >= 0
        assert all(not e.money for e in events)  # coins are not money
        view = game.public_view()
        assert view.own.treasure + view.pot + sum(s.stack for s in view.seats) == expected


@FAST
@given(games)
def test_no_hidden_card_in_public_before_the_showdown(spec: dict[str, Any]) -> None:
    spec = {**spec, "deck": None}  # 54 distinct codes: a code names one physical card
    hidden: dict[int, set[str]] = {}
    shared = spec["variant"] == "shared"
    for game, _, events in run(spec):
        for e in events:
            if e.visibility is Visibility.PRIVATE and e.kind == "cards":
                assert e.player is not None
                hidden[e.player] = set(e.data["cards"])
            elif e.visibility is Visibility.PRIVATE:
                assert e.player in game.players
            elif e.kind == "showdown":
                hidden = {}
            else:
                data = dict(e.data)
                if e.kind == "shuffle":
                    data.pop("cards", None)  # the unshuffled source, not who gets what
                secret = set().union(*hidden.values()) if hidden else set()
                assert not strings(data) & secret, (e.kind, data)
        if game.phase is not Phase.PLAYING:
            continue
        view = game.public_view()
        if shared:  # past rounds (codes come back after a reshuffle)
            view = replace(view, last_round=None)
        everyone = set().union(*hidden.values()) if hidden else set()
        assert not strings(as_dict(view)) & everyone
        assert all(s.hidden == 2 for s in view.seats if s.in_round)
        for p in game.dealt:
            mine = game.private_view(p)
            if shared:
                mine = replace(mine, table=replace(mine.table, last_round=None))
            others = everyone - hidden.get(p, set())
            assert not strings(as_dict(mine)) & others
            assert set(mine.you.own.cards) == hidden[p]


@FAST
@given(games)
def test_snapshot_round_trip_at_every_step_gives_the_same_future(spec: dict[str, Any]) -> None:
    game = start(spec)
    rng = random.Random(spec["seed"])
    steps = 0
    while True:
        data = json.loads(json.dumps(game.to_dict()))
        clone = Pirate21.from_dict(data, entropy=game.entropy)
        assert clone.to_dict() == data
        assert clone.public_view() == game.public_view()
        assert clone.legal_actions(None) == game.legal_actions(None)
        for p in game.players:
            assert clone.private_view(p) == game.private_view(p)
            assert clone.legal_actions(p) == game.legal_actions(p)
        if game.phase is Phase.FINISHED:
            break
        action = (
            Action(A.START, 1)
            if game.phase is Phase.LOBBY
            else choose(game, rng, spec["hit"], spec["aim"])
        )
        mine = [e.to_dict() for e in game.apply(action)]
        theirs = [e.to_dict() for e in clone.apply(action)]
        assert mine == theirs
        json.dumps(mine)
        assert clone.to_dict() == game.to_dict()
        steps += 1
        if steps > 400:  # long shared games: the first 400 steps are plenty
            break


@settings(max_examples=100, deadline=None)
@given(games)
def test_random_legal_play_always_terminates(spec: dict[str, Any]) -> None:
    spec = {**spec, "cpp": None if spec["cpp"] is None else spec["cpp"] + 2}
    last: Pirate21 | None = None
    for game, _, _ in run(spec):
        last = game
    assert last is not None and last.phase is Phase.FINISHED
    assert last.end_reason is not None and last.ranking is not None
    assert sorted(r["player"] for r in last.ranking) == sorted(last.players)
    assert last.legal_actions(2) == frozenset() and last.to_act is None


ACTIONS = st.builds(
    Action,
    st.sampled_from(list(ActionKind)),
    st.sampled_from([None, 1, 2, 3, 4, 5, 6, 7, 8, 9, 99]),
    st.sampled_from([None, 0, 1, 5]),
)


def check_action(game: Pirate21, action: Action) -> None:
    """On a copy: an action is accepted iff legal_actions says so; a refused one changes
    nothing."""
    copy = Pirate21.from_dict(game.to_dict(), entropy=game.entropy)
    before = copy.to_dict()
    legal = action.kind in copy.legal_actions(action.player) and not (
        action.kind is A.JOIN and action.amount
    )
    try:
        copy.apply(action)
    except IllegalAction as err:
        assert not legal, (action, err.code)
        assert copy.to_dict() == before
        assert isinstance(err.code, str) and err.code
    else:
        assert legal, action


@settings(max_examples=30, deadline=None)
@given(games, st.lists(ACTIONS, min_size=5, max_size=5), st.integers(0, 3))
def test_illegal_actions_change_nothing(
    spec: dict[str, Any], probes: list[Action], every: int
) -> None:
    spec = {**spec, "n": min(spec["n"], 5)}
    lobby = start(spec)
    for action in probes:
        check_action(lobby, action)
    for i, (game, _, _) in enumerate(run(spec)):
        if i % (every + 1) == 0:
            for action in probes:
                check_action(game, action)
        if i > 150:
            break


# ---------------------------------------------------------------------------- bust == hit

BUST = ["TS", "KH"]  # 20: any card but a Flag busts
SAFE = ["2C", "3D"]  # 5: one card never busts


@settings(max_examples=150, deadline=None)
@given(
    st.integers(2, 8),
    st.data(),
    st.permutations([c for c in ALL_CODES if c not in BUST + SAFE]),
)
def test_a_bust_looks_exactly_like_a_safe_hit(n: int, data: st.DataObject, rest: list[str]) -> None:
    """Two games alike but for the target's hidden cards (20 or 5): whatever everyone does,
    each public event, public view, other player's view and legal move is the same, after
    every move, until the showdown; only the target's own view differs."""
    order = [*range(2, n + 1), 1]
    target = data.draw(st.sampled_from(order), label="target")
    script = {p: data.draw(st.integers(0, 2), label=f"hits {p}") for p in order}
    script[target] = data.draw(st.integers(1, 3), label="target hits")
    timeout = data.draw(st.booleans(), label="the timer stands for the target")

    def pile(mine: list[str], spare: list[str]) -> list[str]:
        others = iter(rest)
        hands = {p: mine if p == target else [next(others), next(others)] for p in order}
        used = 2 * (n - 1)
        return [hands[p][0] for p in order] + [hands[p][1] for p in order] + rest[used:] + spare

    def observe(cards: list[str]) -> tuple[list[Any], int]:
        game = Pirate21.create(1, {}, seeded_entropy("bust"))
        for p in range(2, n + 1):
            game.apply(Action(A.JOIN, p))
        game.rig(cards, only=True)
        seen: list[Any] = []

        def act(action: Action) -> None:
            for e in game.apply(action):
                if e.kind == "showdown":
                    seen.append("showdown")
                    return
                if e.visibility is Visibility.PUBLIC:
                    seen.append(e.to_dict())
            seen.append(
                [game.public_view(), game.legal_actions(None)]
                + [game.private_view(q) for q in order if q != target]
                + [game.legal_actions(q) for q in order]
            )

        act(Action(A.START, 1))
        first = 0  # the target's total after their first hit
        for p in order:
            for i in range(script[p]):
                act(Action(A.HIT, p))
                if p == target and i == 0:
                    first = game.private_view(p).you.own.total
            act(Action(A.TIMEOUT) if p == target and timeout else Action(A.STAND, p))
        assert game.round == 2 or game.phase is Phase.FINISHED
        return seen, first

    bust_seen, bust_total = observe(pile(BUST, SAFE))
    safe_seen, safe_total = observe(pile(SAFE, BUST))
    assert bust_seen == safe_seen
    assert bust_seen[-1] == "showdown"
    assert safe_total <= 16 and bust_total >= 21  # 21: 20 + a Flag (1)
