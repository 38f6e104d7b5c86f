"""Seats come from the game's state (``seated()``, the base's): at every step of random play,
in every game, they are the seated players the public view lists, in its order."""

from __future__ import annotations

import random

import pytest

from bot.engine.base import ActionKind, IllegalAction, Phase
from bot.engine.registry import GAMES, AnyGame
from bot.engine.shuffle import seeded_entropy
from tests.engine.cases import random_move

HOST, P2, P3, OUTSIDER = 1, 2, 3, 9


def seated_in_view(game: AnyGame) -> list[int]:
    """The oracle: the seated players as the public view shows them (how the service
    found them before), players who left excluded."""
    return [s.player for s in game.public_view().seats]


@pytest.mark.parametrize("key", list(GAMES))
def test_seats_from_the_state_are_the_views(key: str) -> None:
    game = GAMES[key].build(HOST, {}, seeded_entropy(f"seats-{key}"))
    rng = random.Random(f"seats-{key}")
    changes = 0
    before = game.seated()
    for _ in range(600):
        who: list[int | None] = [None, HOST, P2, P3, OUTSIDER]
        rng.shuffle(who)
        for player in who:
            kinds = sorted(game.legal_actions(player) - {ActionKind.CLOSE}, key=lambda k: k.value)
            if kinds:
                break
        else:
            break
        try:
            game.apply(random_move(rng, rng.choice(kinds), player))
        except IllegalAction:
            continue
        if game.phase is Phase.FINISHED:
            # the game is over: every seat was emptied (its view keeps them for the standings)
            assert game.seated() == []
            break
        assert game.seated() == seated_in_view(game)
        changes += game.seated() != before
        before = game.seated()
    assert changes >= 2  # players sat down and left: the comparison saw seats move
