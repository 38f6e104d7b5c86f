"""The table's buttons come from ``seated_legal()``: exactly the union of every seated
player's ``legal_actions``, in every game; and a refusal raised by ``apply`` is a new
exception each time (the checks may share the refusals they return)."""

from __future__ import annotations

import contextlib
import random

import pytest

from bot.engine.base import Action, ActionKind, IllegalAction
from bot.engine.registry import GAMES, AnyGame
from bot.engine.shuffle import seeded_entropy

K = ActionKind
AMOUNTS = {K.BET: (1, 5, 10), K.TOP_UP: (1, 20), K.DRAW: (0, 1, 2)}
PEOPLE = (None, 1, 2, 3, 4)


def _union(game: AnyGame) -> frozenset[ActionKind]:
    out: set[ActionKind] = set()
    for p in game.seated():
        out |= game.legal_actions(p)
    return frozenset(out)


@pytest.mark.parametrize("key", list(GAMES))
def test_seated_legal_is_the_union_of_every_seats_legal_actions(key: str) -> None:
    rng = random.Random(key)
    checked = 0
    for n in range(80):  # games end (Pirate 21, Sept et demi): a new one each time
        if checked >= 600:
            break
        g = GAMES[key].build(1, {}, seeded_entropy(f"union{n}"))
        for _ in range(200):
            assert g.seated_legal() == _union(g), (key, g.phase)
            checked += 1
            kinds = {p: sorted(g.legal_actions(p), key=lambda k: k.value) for p in PEOPLE}
            moves = [(p, k) for p in PEOPLE for k in kinds[p] if k not in (K.CLOSE, K.LEAVE)]
            if not moves:
                break
            p, k = rng.choice(moves)
            amount = g.probe(k, p).amount if k is K.JOIN else rng.choice(AMOUNTS.get(k, (None,)))
            with contextlib.suppress(IllegalAction):
                g.apply(Action(k, p, amount=amount, value=rng.choice((1, 11)), confirm=True))
    assert checked >= 600


def test_each_refusal_is_a_new_exception() -> None:
    g = GAMES["blackjack"].build(1, {}, seeded_entropy("fresh"))
    g.apply(Action(K.JOIN, 1, amount=100))
    raised = []
    for _ in range(2):
        with pytest.raises(IllegalAction) as err:
            g.apply(Action(K.HIT, 1))
        raised.append(err.value)
    assert raised[0] is not raised[1]
    assert raised[0].code == raised[1].code == "wrong_phase"
    assert g.refusal(Action(K.HIT, 1)) is not raised[0]
