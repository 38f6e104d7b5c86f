"""Who sits at a table, read from the game's own state (not from its public view).

Each engine keeps its seats in its own attribute today; the one table-game base of
issue 23 gives every game the same seats, and this becomes a call to it."""

from __future__ import annotations

from bot.engine.base import Game
from bot.engine.casino21 import Casino21
from bot.engine.classic import ClassicGame
from bot.engine.pirate21 import Pirate21
from bot.engine.sept_et_demi import SeptEtDemi


def seated(game: Game) -> list[int]:
    """The seated players in seat order (players who left are not seated)."""
    if isinstance(game, ClassicGame):
        return list(game.seats)
    if isinstance(game, Casino21):
        return [s.player for s in game.seats]
    if isinstance(game, Pirate21):
        return list(game.order or game.players)  # seat order once a dealer is chosen
    if isinstance(game, SeptEtDemi):
        return game.seated()
    raise TypeError(f"no seats known for {type(game).__name__}")
