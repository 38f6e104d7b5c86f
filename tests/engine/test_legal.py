"""Every game's ``legal_actions`` only probes the kinds a phase allows: in random play (each
game's own, ``cases.py``), from the lobby to the end, it must agree with probing every
kind through the game's checks, for every player asked; every refusal met on the way is
one of the game's listed codes. Each move is also made on the game restored from its
snapshot: the same refusal, or the same events and the same state."""

from __future__ import annotations

import json
import random
from collections.abc import Callable

import pytest

from bot.engine.base import Action, ActionKind, IllegalAction, Phase
from bot.engine.registry import GAMES, AnyGame
from bot.engine.shuffle import seeded_entropy
from tests.engine.cases import CASES, LegalRun
from tests.engine.legal_probe import probe_all


def probed(
    g: AnyGame, player: int | None, run: LegalRun
) -> tuple[frozenset[ActionKind], frozenset[str]]:
    """Every kind whose action (the case's or the game's probe) passes the checks, and the
    codes of the others' refusals."""
    build: Callable[[ActionKind], Action] | None = None
    if run.build is not None:
        make = run.build
        build = lambda kind: make(g, kind, player)  # noqa: E731
    return probe_all(g, player, build)


def apply_to_twins(key: str, g: AnyGame, action: Action, accepted: bool) -> AnyGame:
    """Apply ``action`` to ``g`` and to a game restored from its stored snapshot: both
    refuse it alike and nothing changes, or both emit the same events and end alike.
    ``accepted``: the game must take it."""
    before = json.dumps(g.to_dict(), sort_keys=True)
    twin = GAMES[key].load(json.loads(before), g.entropy)
    try:
        events = g.apply(action)
    except IllegalAction as err:
        assert not accepted, (action, err.code)
        assert json.dumps(g.to_dict(), sort_keys=True) == before  # a refusal changes nothing
        with pytest.raises(IllegalAction) as again:
            twin.apply(action)
        assert (again.value.code, again.value.params) == (err.code, err.params)
        return g
    assert [e.to_dict() for e in twin.apply(action)] == [e.to_dict() for e in events]
    assert twin.to_dict() == g.to_dict()
    return twin  # play goes on with the restored game: its future is the same


def play(key: str, run: LegalRun) -> tuple[int, set[ActionKind], set[str]]:
    """The case's random play of every game, checked at every step: the comparisons made,
    the kinds found legal and the refusal codes met."""
    rng = random.Random(run.seed)
    checked = 0
    seen: set[ActionKind] = set()
    codes: set[str] = set()
    for game_no in range(run.games):
        options = run.options(rng, game_no)
        g = GAMES[key].build(1, options, seeded_entropy(f"legal{game_no}"))
        run.seat(g, game_no)
        for _ in range(run.steps):
            for who in run.people:
                legal, refused = probed(g, who, run)
                assert g.legal_actions(who) == legal, (who, g.phase)
                seen |= legal
                codes |= refused
                checked += 1
            move = run.move(rng, g)
            if move is None:
                break
            g = apply_to_twins(key, g, *move)
        if run.plays_out:
            assert g.phase is Phase.FINISHED, game_no
    return checked, seen, codes


@pytest.mark.parametrize("key", list(GAMES))
def test_fast_legal_actions_equal_probing_every_kind(key: str) -> None:
    run = CASES[key].legal
    checked, seen, codes = play(key, run)
    assert checked > run.min_checked
    assert seen >= run.kinds_seen
    assert codes <= GAMES[key].game.ILLEGAL_CODES, codes - GAMES[key].game.ILLEGAL_CODES
