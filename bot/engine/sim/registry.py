"""The simulators, found through the game registry (``GameSpec.simulator``)."""

from __future__ import annotations

from ..registry import GAMES
from .base import Simulator

#: Game key -> its simulator (one instance each).
SIMULATORS: dict[str, Simulator] = {key: spec.sim() for key, spec in GAMES.items()}


def find(name: str) -> Simulator | None:
    """The simulator of a game key or of one of its aliases (``classic``), else None."""
    key = GAMES.key(name)
    return None if key is None else SIMULATORS[key]
