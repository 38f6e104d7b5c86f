"""legal_actions only probes the kinds a phase allows: it must agree with probing them all."""

from __future__ import annotations

import contextlib
import random

from bot.engine.base import Action, ActionKind, IllegalAction
from bot.engine.games.blackjack import BlackjackGame, BlackjackOptions
from bot.engine.shuffle import seeded_entropy


def brute_force(g: BlackjackGame, player: int | None) -> frozenset[ActionKind]:
    out = set()
    for kind in ActionKind:
        try:
            g.check(g.probe(kind, player))
        except IllegalAction:
            continue
        out.add(kind)
    return frozenset(out)


def test_fast_legal_actions_equal_probing_every_kind() -> None:
    rng = random.Random(7)
    checked = 0
    for game_no in range(30):
        g = BlackjackGame(
            BlackjackOptions(decks=1, min_bet=1, max_bet=20, surrender=True),
            host=1,
            entropy=seeded_entropy(f"legal{game_no}"),
        )
        for p in (1, 2, 3):
            g.apply(Action(ActionKind.JOIN, p, amount=50))
        for _ in range(120):
            for who in (None, 1, 2, 3, 99):
                assert g.legal_actions(who) == brute_force(g, who)
                checked += 1
            moves = [
                (p, k)
                for p in (1, 2, 3)
                # in a fixed order (a frozenset's order follows the members' ids)
                for k in sorted(g.legal_actions(p), key=lambda k: k.value)
                if k not in (ActionKind.LEAVE, ActionKind.JOIN)
            ]
            if not moves:
                if ActionKind.TIMEOUT in g.legal_actions(None):
                    g.apply(Action(ActionKind.TIMEOUT))
                    continue
                break
            p, k = rng.choice(moves)
            amount = rng.randint(1, 5) if k in (ActionKind.BET, ActionKind.TOP_UP) else None
            with contextlib.suppress(IllegalAction):
                g.apply(Action(k, p, amount=amount))
    assert checked > 5000
