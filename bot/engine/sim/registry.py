"""The simulators, found by game key: one dict, no other list of games here."""

from __future__ import annotations

from .base import Simulator
from .blackjack import BlackjackSimulator
from .casino21 import Casino21Simulator
from .pirate21 import Pirate21Simulator
from .sept_et_demi import SeptEtDemiSimulator

#: Game key -> its simulator.
SIMULATORS: dict[str, Simulator] = {
    sim.game: sim
    for sim in (
        BlackjackSimulator(),
        Casino21Simulator(),
        Pirate21Simulator(),
        SeptEtDemiSimulator(),
    )
}


def find(key: str) -> Simulator | None:
    """The simulator of a game key or of one of its aliases (``classic``), else None."""
    found = SIMULATORS.get(key)
    if found is not None:
        return found
    return next((sim for sim in SIMULATORS.values() if key in sim.aliases), None)
