"""The games the bot runs: one :class:`GameSpec` per game, found by key or alias.

Everything that lists the games reads this registry: ``/table open`` (its game choices,
its options, their parsing, checks and autocomplete), ``/rules``, ``/about``, the
sandbox's game picker, ``python -m bot simulate``, the renderers (``bot/ui/render``) and
the option tables of docs/RULES.md (a test checks them). Adding a game is one engine
module, one renderer and one entry here (docs/ARCHITECTURE.md, "Adding a game").
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .base import TableGame
from .games import blackjack, casino21, pirate21, sept_et_demi
from .options import OptionSpec
from .shuffle import Entropy

if TYPE_CHECKING:
    from .sim.base import Simulator

#: A game object as the table service holds it.
AnyGame = TableGame[Any]


@dataclass(frozen=True, slots=True)
class GameSpec:
    """One game: its key (and the old keys still accepted), its names, its class (which
    declares its typed options and how many players it seats) and its simulator."""

    key: str
    names: Mapping[str, str]  # language ("en", "fr") -> the game's name
    game: type[AnyGame]
    simulator: str  # "module:Class" of its simulator, imported when first needed
    aliases: tuple[str, ...] = ()  # keys typed or stored by older versions
    host_plays: bool = True  # the host takes a seat when the table opens
    default_buy_in: int = 0  # what ``/table join`` brings from the balance when not told

    @property
    def options(self) -> tuple[OptionSpec, ...]:
        """The game's typed options (its options dataclass declares them)."""
        return self.game.Options.SPECS

    @property
    def min_players(self) -> int:
        """The fewest seated players a round starts with."""
        return self.game.MIN_PLAYERS

    @property
    def max_players(self) -> int:
        """The most players the game seats."""
        return self.game.MAX_PLAYERS

    @property
    def money(self) -> bool:
        """Whether seats hold casino money (Pirate 21 plays for coins)."""
        return self.game.MONEY

    def name(self, locale: str | None) -> str:
        """The game's name in ``locale`` (French for ``fr*``, else English)."""
        lang = "fr" if locale and str(locale).lower().startswith("fr") else "en"
        return self.names[lang]

    def build(self, host: int, options: Mapping[str, Any], entropy: Entropy) -> AnyGame:
        """A new table hosted by ``host`` with typed ``options`` (InvalidOptions)."""
        return self.game.create(host, options, entropy)

    def load(self, data: Mapping[str, Any], entropy: Entropy) -> AnyGame:
        """A table from its snapshot (an older version's too)."""
        return self.game.from_dict(data, entropy=entropy)

    def defaults(self) -> dict[str, Any]:
        """Every option's default value."""
        return {spec.name: spec.default for spec in self.options}

    def sim(self) -> Simulator:
        """The game's simulator (``python -m bot simulate KEY``)."""
        module, _, name = self.simulator.partition(":")
        cls = getattr(importlib.import_module(module), name)
        return cls()  # type: ignore[no-any-return]

    @property
    def strategies(self) -> tuple[str, ...]:
        """The strategies its simulator plays."""
        return self.sim().strategies


class Registry(Mapping[str, GameSpec]):
    """The games by key; an alias (``classic``) finds its game too. Iterating gives the
    keys, in the order the games are listed."""

    def __init__(self, *specs: GameSpec) -> None:
        self._specs = {spec.key: spec for spec in specs}
        self._keys = {name: spec.key for spec in specs for name in (spec.key, *spec.aliases)}

    def __getitem__(self, name: str) -> GameSpec:
        return self._specs[self._keys[name]]

    def __iter__(self) -> Iterator[str]:
        return iter(self._specs)

    def __len__(self) -> int:
        return len(self._specs)

    def key(self, name: str) -> str | None:
        """The key of the game ``name`` (a key or an alias), or None."""
        return self._keys.get(name)

    def names(self) -> tuple[str, ...]:
        """Every key and alias people may type."""
        return tuple(self._keys)


GAMES = Registry(
    GameSpec(
        key="blackjack",
        aliases=("classic",),
        names={"en": "Black Jack", "fr": "Black Jack"},
        game=blackjack.BlackjackGame,
        simulator="bot.engine.sim.blackjack:BlackjackSimulator",
        default_buy_in=200,
    ),
    GameSpec(
        key="casino21",
        names={"en": "Casino 21", "fr": "Casino 21"},
        game=casino21.Casino21,
        simulator="bot.engine.sim.casino21:Casino21Simulator",
        default_buy_in=100,  # own funds brought when the table gives no welcome stake
    ),
    GameSpec(
        key="pirate21",
        names={"en": "Pirate 21", "fr": "Pirate 21"},
        game=pirate21.Pirate21,
        simulator="bot.engine.sim.pirate21:Pirate21Simulator",
    ),
    GameSpec(
        key="sept_et_demi",
        names={"en": "Sept et demi", "fr": "Sept et demi"},
        game=sept_et_demi.SeptEtDemi,
        simulator="bot.engine.sim.sept_et_demi:SeptEtDemiSimulator",
        default_buy_in=200,
    ),
)
