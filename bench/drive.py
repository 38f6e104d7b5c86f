"""A simple, game-agnostic player used by every table benchmark.

It only looks at ``legal_actions`` and the game's round counter, so it works the same for
the four games, through the service directly or through SimCord's buttons: bet the
minimum, decline insurance, take one card per round (``hit``, ``draw 1``) then stand,
show a sept-et-demi card, count an ace as 1.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bot.engine.base import ActionKind, Phase

ACTIVE = (Phase.BETTING, Phase.INSURANCE, Phase.PLAYING)


@dataclass
class Player:
    """Per-table memory of the strategy: cards taken this round by player."""

    took: dict[tuple[int, int], int] = field(default_factory=dict)

    def choose(self, game: Any, player: int) -> tuple[str, int | None] | None:
        """The move (name as in ``bot.tables.move_names``, numeric argument) or None."""
        kinds = game.legal_actions(player)
        rnd = int(getattr(game, "round", 0) or getattr(game, "rounds_played", 0) or 0)
        key = (player, rnd)
        if ActionKind.CHOOSE_ACE in kinds:
            return ("ace", 1)
        if ActionKind.BET in kinds:
            view_opts = getattr(game, "options", None)
            low = int(getattr(view_opts, "min_bet", 1) or 1)
            return ("bet", low)
        if ActionKind.NO_INSURANCE in kinds:
            return ("no_insurance", None)
        if ActionKind.SHOW in kinds:
            return ("show", None)
        if ActionKind.DRAW in kinds:
            n = 1 if self.took.get(key, 0) < 1 else 0
            self.took[key] = self.took.get(key, 0) + 1
            return ("draw", n)
        if ActionKind.HIT in kinds and self.took.get(key, 0) < 1:
            self.took[key] = self.took.get(key, 0) + 1
            return ("hit", None)
        if ActionKind.STAND in kinds:
            return ("stand", None)
        if ActionKind.HIT in kinds:
            return ("hit", None)
        return None

    def next_move(self, game: Any, seated: list[int]) -> tuple[int, str, int | None] | None:
        """(player, move, arg) for the player whose turn it is, else any seated player
        with something to do in a round; None when nobody has a round move."""
        if game.phase not in ACTIVE and game.phase is not Phase.BANK:
            return None
        to_act = game.to_act
        order = [to_act, *seated] if to_act is not None else seated
        for player in order:
            if player is None:
                continue
            move = self.choose(game, player)
            if move is not None:
                return (player, *move)
        return None
