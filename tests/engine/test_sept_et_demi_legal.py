"""Sept et demi's legal_actions probes only the kinds a player's part in the round allows:
it must agree with probing every kind, in every phase, for every player."""

from __future__ import annotations

import contextlib
import random

from bot.engine.base import Action, ActionKind, IllegalAction
from bot.engine.games.sept_et_demi import SeptEtDemi
from bot.engine.shuffle import seeded_entropy

K = ActionKind


def brute_force(g: SeptEtDemi, player: int | None) -> frozenset[ActionKind]:
    out = set()
    for kind in ActionKind:
        try:
            g.check(g.probe(kind, player))
        except IllegalAction:
            continue
        out.add(kind)
    return frozenset(out)


def by_name(kinds: frozenset[ActionKind]) -> list[ActionKind]:
    return sorted(kinds, key=lambda k: k.value)


def test_fast_legal_actions_equal_probing_every_kind() -> None:
    rng = random.Random(11)
    checked, seen = 0, set()
    for game_no in range(40):
        buy_in = 12 if game_no % 3 else 200  # small stacks: players out, games over
        options = {"deck": "32" if game_no % 2 else "40", "buy_in": buy_in, "min_bet": 2}
        g = SeptEtDemi(options, host=1, entropy=seeded_entropy(f"legal{game_no}"))
        for p in (1, 2, 3, 4):
            g.apply(Action(K.JOIN, p))
        for _ in range(150):
            for who in (None, 1, 2, 3, 4, 5):
                legal = g.legal_actions(who)
                assert legal == brute_force(g, who), (g.phase, who)
                seen |= {(g.phase, k) for k in legal}
                checked += 1
            # in a fixed order (a frozenset's order follows the members' ids)
            moves = [(p, k) for p in (None, 1, 2, 3, 4, 5) for k in by_name(g.legal_actions(p))]
            rare = {K.CLOSE: 0.02, K.LEAVE: 0.1, K.VOTE_STOP: 0.2}  # what ends a game
            moves = [m for m in moves if rng.random() < rare.get(m[1], 1)]
            if not moves:
                break
            p, k = rng.choice(moves)
            amount = rng.randint(2, 3) if k is K.BET else None
            with contextlib.suppress(IllegalAction):
                g.apply(Action(k, p, amount=amount))
    assert checked > 5000
    kinds = {k for _, k in seen}
    assert kinds >= {K.JOIN, K.LEAVE, K.START, K.BET, K.SIT_OUT, K.HIT, K.STAND, K.SHOW}
    assert kinds >= {K.SWAP, K.VOTE_STOP, K.TIMEOUT, K.CLOSE}
