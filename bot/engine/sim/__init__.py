"""Monte Carlo simulators of the four games, through the real engines.

One module per game (:mod:`.blackjack`, :mod:`.casino21`, :mod:`.pirate21`,
:mod:`.sept_et_demi`), each a :class:`~.base.Simulator` found in :data:`SIMULATORS` by
game key; :func:`main` is ``python -m bot simulate GAME ...``.
"""

from __future__ import annotations

from .base import Simulator
from .cli import main
from .registry import SIMULATORS, find

__all__ = ["SIMULATORS", "Simulator", "find", "main"]
