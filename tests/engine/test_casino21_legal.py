"""Casino 21's legal_actions only probes the kinds a phase allows (and an ace's value, a
leave that forfeits once confirmed): it must agree with probing every kind."""

from __future__ import annotations

import contextlib
import random

import pytest

from bot.engine.base import Action, ActionKind, IllegalAction
from bot.engine.games.casino21 import Casino21
from bot.engine.shuffle import seeded_entropy
from tests.legal_probe import brute_force as probed

K = ActionKind
PEOPLE = (None, 1, 2, 3, 4, 99)


def brute_force(g: Casino21, player: int | None) -> frozenset[ActionKind]:
    """Every kind whose action (the probe's amount, an ace worth 1, a confirmed leave)
    passes the checks."""

    def build(kind: ActionKind) -> Action:
        amount = g.probe(kind, player).amount
        return Action(kind, player, amount=amount, value=1, confirm=True)

    return probed(g, player, build)


def random_action(rng: random.Random, g: Casino21) -> Action | None:
    """A legal kind for a random player (the timer sometimes), with random parameters."""
    # in a fixed order (a frozenset's order follows the members' ids)
    kinds = {p: sorted(g.legal_actions(p), key=lambda k: k.value) for p in PEOPLE}
    moves = [(p, k) for p in PEOPLE for k in kinds[p] if k is not K.CLOSE]
    if not moves:
        return None
    p, k = rng.choice(moves)
    amount = {
        K.BET: rng.randint(1, 30),
        K.DRAW: rng.choice((0, 0, 1, 2, 3)),
        K.TOP_UP: rng.randint(1, 40),
        K.JOIN: rng.choice((0, 0, 10)),
    }.get(k)
    return Action(k, p, amount=amount, value=rng.choice((1, 11)), confirm=rng.random() < 0.3)


def test_fast_legal_actions_equal_probing_every_kind() -> None:
    rng = random.Random(21)
    checked = 0
    for game_no in range(30):
        options = {"welcome_stake": rng.choice((0, 20, 100)), "wager_requirement": 30}
        g = Casino21(options, host=1, entropy=seeded_entropy(f"legal{game_no}"))
        for p in (1, 2, 3):
            g.apply(Action(K.JOIN, p, amount=0 if options["welcome_stake"] else 50))
        for _ in range(150):
            for who in PEOPLE:
                assert g.legal_actions(who) == brute_force(g, who), (who, g.phase)
                checked += 1
            action = random_action(rng, g)
            if action is None:
                break
            with contextlib.suppress(IllegalAction):
                g.apply(action)
    assert checked > 10000


def test_a_forfeiting_leave_is_legal_but_asks_for_its_confirmation() -> None:
    g = Casino21(host=1, entropy=seeded_entropy("legal"))
    g.apply(Action(K.JOIN, 1))
    assert K.LEAVE in g.legal_actions(1) and g.leave_terms(1) == (100, 0)
    with pytest.raises(IllegalAction) as err:
        g.apply(Action(K.LEAVE, 1))
    assert err.value.code == "forfeit_needs_confirmation"
    assert g.apply(Action(K.LEAVE, 1, confirm=True))[0].kind == "left"
