"""The old name of Black Jack's module, kept for ``bot/bench/engine.py`` until the
benchmarks move out of the package (issue 24); everything else imports
``bot.engine.games.blackjack``."""

from .games.blackjack import BlackjackGame as ClassicGame
from .games.blackjack import BlackjackOptions as ClassicOptions

__all__ = ["ClassicGame", "ClassicOptions"]
