"""The games as the table service sees them: the engine's registry, and the table settings
every game takes besides its own options. No list of games here."""

from __future__ import annotations

from bot.engine.options import OptionSpec
from bot.engine.registry import GAMES, AnyGame, GameSpec

from .models import SETTINGS

__all__ = ["GAMES", "AnyGame", "GameSpec", "all_options", "option"]


def all_options(spec: GameSpec) -> tuple[OptionSpec, ...]:
    """The game's options, then the table settings: what ``/table open`` takes."""
    return (*spec.options, *SETTINGS)


def option(spec: GameSpec, name: str) -> OptionSpec | None:
    """The spec of one of the game's options, or of a table setting."""
    return next((s for s in all_options(spec) if s.name == name), None)
