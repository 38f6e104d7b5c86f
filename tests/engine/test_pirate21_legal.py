"""legal_actions only probes the kinds a phase allows: it must agree with probing them all,
in both variants, from the lobby (joins, leaves) to the end of the game."""

from __future__ import annotations

import random

from bot.engine.base import Action, ActionKind, IllegalAction, Phase
from bot.engine.games.pirate21 import Pirate21
from bot.engine.shuffle import seeded_entropy

K = ActionKind


def brute_force(g: Pirate21, player: int | None) -> frozenset[ActionKind]:
    out = set()
    for kind in ActionKind:
        try:
            g.check(g.probe(kind, player))
        except IllegalAction:
            continue
        out.add(kind)
    return frozenset(out)


def test_fast_legal_actions_equal_probing_every_kind() -> None:
    rng = random.Random(21)
    checked = 0
    for game_no in range(24):
        options = {"variant": ("standard", "shared")[game_no % 2], "treasure": 6, "deck": "6/3/1"}
        g = Pirate21.create(1, options, seeded_entropy(f"legal{game_no}"))
        for p in (2, 3, 4)[: 1 + game_no % 3]:
            g.apply(Action(K.JOIN, p))
        if len(g.seated()) > 2:  # a player leaves the lobby
            g.apply(Action(K.LEAVE, 2))
        for _ in range(200):
            for who in (None, 1, 2, 3, 4, 99):
                assert g.legal_actions(who) == brute_force(g, who), (who, g.phase)
                checked += 1
            if g.phase is Phase.FINISHED:
                break
            if g.phase is Phase.LOBBY:
                g.apply(Action(K.START, 1))
            elif rng.random() < 0.1:
                g.apply(Action(K.TIMEOUT))
            else:
                p = g.to_act
                g.apply(Action(rng.choice(sorted(g.legal_actions(p), key=str)), p))
        assert g.phase is Phase.FINISHED
    assert checked > 3000
