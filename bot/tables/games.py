"""The games as the table service sees them: the engine's registry, and the table settings
every game takes besides its own options. No list of games here."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.engine.options import OptionSpec
from bot.engine.registry import GAMES, AnyGame, GameSpec

from .models import SETTINGS

__all__ = ["GAMES", "AnyGame", "GameSpec", "all_options", "option", "seated_players"]


def all_options(spec: GameSpec) -> tuple[OptionSpec, ...]:
    """The game's options, then the table settings: what ``/table open`` takes."""
    return (*spec.options, *SETTINGS)


def option(spec: GameSpec, name: str) -> OptionSpec | None:
    """The spec of one of the game's options, or of a table setting."""
    return next((s for s in all_options(spec) if s.name == name), None)


def seated_players(view: Mapping[str, Any]) -> list[int]:
    """Player ids in seat order from a public view, this version's or an older one's
    (whatever it called its seats)."""
    seats = view.get("seats") or view.get("players") or []
    out: list[int] = []
    for s in seats:
        if isinstance(s, dict):
            pid = s.get("player", s.get("id"))
            if isinstance(pid, int):
                out.append(pid)
        elif isinstance(s, int):
            out.append(s)
    return out
