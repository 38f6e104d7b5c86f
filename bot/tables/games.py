"""The four games behind one interface: build, restore, options and defaults."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from bot.engine.base import Game, InvalidOptions
from bot.engine.casino21 import Casino21, Casino21Options
from bot.engine.classic import ClassicGame, ClassicOptions
from bot.engine.pirate21 import Pirate21, Pirate21Options
from bot.engine.sept_et_demi import SeptEtDemi, SeptEtDemiOptions
from bot.engine.shuffle import Entropy

TRUE_WORDS = {"on", "true", "yes", "oui", "1", "vrai"}
FALSE_WORDS = {"off", "false", "no", "non", "0", "faux"}


@dataclass(frozen=True)
class GameSpec:
    """How the service builds and restores one game."""

    key: str
    build: Callable[[int, dict[str, Any], Entropy], Game]
    load: Callable[[Mapping[str, Any], Entropy], Game]
    defaults: Callable[[], dict[str, Any]]
    money: bool  # whether seats hold casino money (Pirate 21 plays for coins)
    host_plays: bool  # the host takes a seat when the table opens
    default_buy_in: int  # what /table join brings from the balance when not told
    summary_events: frozenset[str] = frozenset()  # events that close a round
    welcome: bool = False  # the game gives a welcome stake instead of a buy-in
    # every player moves in the same turn: the deadline runs per turn (not per player)
    simultaneous: bool = False


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
        lambda: ClassicOptions().to_dict(),
        money=True,
        host_plays=True,
        default_buy_in=200,
        summary_events=frozenset({"round_settled"}),
    ),
    "casino21": GameSpec(
        "casino21",
        _casino_build,
        lambda d, e: Casino21.from_dict(d, entropy=e),
        lambda: Casino21Options().to_dict(),
        money=True,
        host_plays=True,
        default_buy_in=0,
        summary_events=frozenset({"round_settled"}),
        welcome=True,
        simultaneous=True,
    ),
    "pirate21": GameSpec(
        "pirate21",
        _pirate_build,
        lambda d, e: Pirate21.from_dict(d, entropy=e),
        lambda: Pirate21Options().to_dict(),
        money=False,
        host_plays=True,
        default_buy_in=0,
        summary_events=frozenset({"round_result"}),
    ),
    "sept_et_demi": GameSpec(
        "sept_et_demi",
        _sept_build,
        lambda d, e: SeptEtDemi.from_dict(d, entropy=e),
        lambda: SeptEtDemiOptions().to_dict(),
        money=True,
        host_plays=True,
        default_buy_in=200,
        summary_events=frozenset({"round_summary"}),
    ),
}


def coerce(value: str, default: Any) -> Any:
    """Turn a typed option value into the type of its default (``on`` -> True...)."""
    text = value.strip()
    low = text.lower()
    if isinstance(default, bool):
        if low in TRUE_WORDS:
            return True
        if low in FALSE_WORDS:
            return False
        return text
    if low in ("none", "aucun", "aucune", "-"):
        return None
    try:
        return int(text)
    except ValueError:
        pass
    try:
        return float(text)
    except ValueError:
        pass
    if low in TRUE_WORDS - {"1"}:
        return True
    if low in FALSE_WORDS - {"0"}:
        return False
    return text


def parse_options(text: str | None) -> dict[str, str]:
    """Split ``"decks=6 min_bet=10"`` (spaces or commas) into raw strings by name."""
    out: dict[str, str] = {}
    if not text:
        return out
    for part in text.replace(",", " ").replace(";", " ").split():
        name, sep, value = part.partition("=")
        if not sep or not name or not value:
            raise InvalidOptions("option_syntax", part=part)
        out[name.strip().lower().replace("-", "_")] = value
    return out


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
