"""What every simulator shares: the interface, the statistics and the strategy forms.

A simulator plays rounds through its game's real engine (``apply``, ``legal_actions``, the
events), so the simulated rounds follow exactly the rules the tables play. It deals from
seeded entropy: the same seed gives the same figures. It reads what a player is shown
(the events, its own private ones included) and never builds views it does not need.
"""

from __future__ import annotations

import argparse
import math
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, ClassVar


class Simulator(ABC):
    """One game's simulator: its command-line options, its strategies and its run."""

    game: ClassVar[str]  # the registry key (the game's key)
    title: ClassVar[str]  # one line for ``--help``
    strategies: ClassVar[tuple[str, ...]]  # the forms ``--strategy`` accepts
    default_rounds: ClassVar[int] = 100_000
    rounds_help: ClassVar[str] = "rounds to play"

    @abstractmethod
    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        """Add the game's own options (strategy, table options) to ``parser``."""

    @abstractmethod
    def run(self, args: argparse.Namespace) -> dict[str, Any]:
        """Play ``args.rounds`` rounds and return the results (JSON-able)."""

    @abstractmethod
    def report(self, result: Mapping[str, Any]) -> list[str]:
        """The results as lines of text for a person."""

    def check(self, args: argparse.Namespace) -> str | None:
        """A problem with the options that argparse cannot see, or None."""
        return None

    @staticmethod
    def add_strategy(
        parser: argparse.ArgumentParser,
        form: str,
        default: int,
        help: str,
        *,
        flag: str = "--strategy",
        halves: bool = False,
    ) -> None:
        """A ``--strategy PREFIX:N`` flag (``form``: ``PREFIX:N`` as ``--help`` shows it)."""
        kind = strategy_type(form.partition(":")[0], halves=halves)
        parser.add_argument(flag, type=kind, default=default, metavar=form, help=help)

    @staticmethod
    def ev_row(result: Mapping[str, Any], unit: str = "") -> tuple[str, str]:
        """The report's row of the player's expected value and its standard error, in %."""
        ev, err = 100 * result["player_ev"], 100 * result["player_ev_stderr"]
        return "player EV", f"{ev:+.3f}% (± {err:.3f}%){unit}"

    @staticmethod
    def shares(rates: Mapping[str, float]) -> str:
        """Rates by name as ``name 12.34%`` items."""
        return ", ".join(f"{k} {100 * v:.2f}%" for k, v in rates.items())


@dataclass(slots=True)
class Mean:
    """Running mean and standard error of integer samples (exact integer sums)."""

    n: int = 0
    total: int = 0
    squares: int = 0

    def add(self, x: int) -> None:
        """Count one sample."""
        self.n += 1
        self.total += x
        self.squares += x * x

    def mean(self, unit: int = 1) -> float:
        """The mean, in ``unit``s (0 without samples)."""
        return self.total / self.n / unit if self.n else 0.0

    def stddev(self, unit: int = 1) -> float:
        """The samples' standard deviation, in ``unit``s."""
        if not self.n:
            return 0.0
        var = Fraction(self.squares, self.n) - Fraction(self.total, self.n) ** 2
        return math.sqrt(max(float(var), 0.0)) / unit

    def stderr(self, unit: int = 1) -> float:
        """The standard error of the mean, in ``unit``s."""
        return self.stddev(unit) / math.sqrt(self.n) if self.n else 0.0


def rate(count: int, n: int) -> float:
    """``count / n``, 0 when there is nothing to count."""
    return count / n if n else 0.0


def per_second(count: int, seconds: float) -> float | None:
    """A speed, None when no time was measured."""
    return count / seconds if seconds > 0 else None


def timing(rounds: int, elapsed: float) -> dict[str, float | None]:
    """The last fields of every result: the run's time and its speed."""
    return {"elapsed_seconds": elapsed, "rounds_per_second": per_second(rounds, elapsed)}


def picked(args: argparse.Namespace, *names: str, **renamed: str) -> dict[str, Any]:
    """These flags' values by name (``renamed``: name=the flag's dest), for a ``simulate``
    call or a table's options."""
    out = {name: getattr(args, name) for name in names}
    out.update({name: getattr(args, dest) for name, dest in renamed.items()})
    return out


def strategy_type(prefix: str, *, halves: bool = False) -> Any:
    """An argparse ``type`` for ``PREFIX:N``: the number N (an int, or with ``halves`` a
    count of half-points from a number of points such as 5 or 5.5)."""

    def parse(text: str) -> int:
        head, sep, value = text.partition(":")
        if head != prefix or not sep:
            raise argparse.ArgumentTypeError(f"expected {prefix}:N, got {text!r}")
        try:
            number = Fraction(value.strip())
        except (ValueError, ZeroDivisionError):
            raise argparse.ArgumentTypeError(f"{value!r} is not a number") from None
        scaled = number * 2 if halves else number
        if scaled.denominator != 1 or scaled < 0:
            unit = "a whole or half number of points" if halves else "a whole number"
            raise argparse.ArgumentTypeError(f"{prefix}: {value!r} is not {unit} >= 0")
        return int(scaled)

    parse.__name__ = prefix  # argparse names the type in its errors
    return parse


def positive_int(text: str) -> int:
    """An argparse ``type``: a whole number of at least 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} is below 1")
    return value


def text_rows(pairs: Sequence[tuple[str, str]]) -> list[str]:
    """``label: value`` lines, indented under the title line."""
    return [f"  {label}: {value}" for label, value in pairs]
