"""The four games behind one interface: build, restore, options and defaults."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from bot.engine.base import Game
from bot.engine.casino21 import OPTIONS as CASINO21_OPTIONS
from bot.engine.casino21 import Casino21
from bot.engine.classic import OPTIONS as CLASSIC_OPTIONS
from bot.engine.classic import ClassicGame, ClassicOptions
from bot.engine.options import OptionSpec
from bot.engine.pirate21 import OPTIONS as PIRATE21_OPTIONS
from bot.engine.pirate21 import Pirate21
from bot.engine.sept_et_demi import OPTIONS as SEPT_ET_DEMI_OPTIONS
from bot.engine.sept_et_demi import SeptEtDemi
from bot.engine.shuffle import Entropy

from .models import SETTINGS


@dataclass(frozen=True)
class GameSpec:
    """How the service builds and restores one game."""

    key: str
    build: Callable[[int, dict[str, Any], Entropy], Game]
    load: Callable[[Mapping[str, Any], Entropy], Game]
    options: tuple[OptionSpec, ...]  # the game's typed options (the engine declares them)
    money: bool  # whether seats hold casino money (Pirate 21 plays for coins)
    host_plays: bool  # the host takes a seat when the table opens
    default_buy_in: int  # what /table join brings from the balance when not told
    summary_events: frozenset[str] = frozenset()  # events that close a round
    welcome: bool = False  # the game gives a welcome stake instead of a buy-in
    # every player moves in the same turn: the deadline runs per turn (not per player)
    simultaneous: bool = False

    def defaults(self) -> dict[str, Any]:
        """Every option's default value."""
        return {spec.name: spec.default for spec in self.options}

    def option(self, name: str) -> OptionSpec | None:
        """The spec of one of the game's options, or of a table setting."""
        return next((s for s in (*self.options, *SETTINGS) if s.name == name), None)

    def all_options(self) -> tuple[OptionSpec, ...]:
        """The game's options, then the table settings: what ``/table open`` takes."""
        return (*self.options, *SETTINGS)


def _classic_build(host: int, options: dict[str, Any], entropy: Entropy) -> Game:
    return ClassicGame(ClassicOptions.from_dict(options), host=host, entropy=entropy)


def _casino_build(host: int, options: dict[str, Any], entropy: Entropy) -> Game:
    return Casino21(host, options, entropy=entropy)


def _pirate_build(host: int, options: dict[str, Any], entropy: Entropy) -> Game:
    return Pirate21(host, options, entropy=entropy)


def _sept_build(host: int, options: dict[str, Any], entropy: Entropy) -> Game:
    return SeptEtDemi(options, host=host, entropy=entropy)


GAMES: dict[str, GameSpec] = {
    "classic": GameSpec(
        "classic",
        _classic_build,
        lambda d, e: ClassicGame.from_dict(d, entropy=e),
        CLASSIC_OPTIONS,
        money=True,
        host_plays=True,
        default_buy_in=200,
        summary_events=frozenset({"round_settled"}),
    ),
    "casino21": GameSpec(
        "casino21",
        _casino_build,
        lambda d, e: Casino21.from_dict(d, entropy=e),
        CASINO21_OPTIONS,
        money=True,
        host_plays=True,
        default_buy_in=100,  # own funds brought when the table gives no welcome stake
        summary_events=frozenset({"round_settled"}),
        welcome=True,
        simultaneous=True,
    ),
    "pirate21": GameSpec(
        "pirate21",
        _pirate_build,
        lambda d, e: Pirate21.from_dict(d, entropy=e),
        PIRATE21_OPTIONS,
        money=False,
        host_plays=True,
        default_buy_in=0,
        summary_events=frozenset({"round_result"}),
    ),
    "sept_et_demi": GameSpec(
        "sept_et_demi",
        _sept_build,
        lambda d, e: SeptEtDemi.from_dict(d, entropy=e),
        SEPT_ET_DEMI_OPTIONS,
        money=True,
        host_plays=True,
        default_buy_in=200,
        summary_events=frozenset({"round_summary"}),
    ),
}


def seated_players(view: Mapping[str, Any]) -> list[int]:
    """Player ids in seat order from a game's public view, whatever it calls its seats."""
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
