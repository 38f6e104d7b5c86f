"""Typed table options: one declaration per option, and the parsing, checks and errors of all.

A game declares its options as a tuple of :class:`OptionSpec` (name, kind, range or choices,
default, description in English and French). From it, once for every game:

- :func:`parse_text` turns what a host types (``decks=6 surrender=on``) into typed values,
  refusing a missing value, an unknown option (with the closest name), a repeated option,
  a wrong type, a value out of range or not among the choices;
- :func:`check_values` validates typed values (a game's options dataclass, or the options
  stored in a snapshot) and fills in the defaults;
- :func:`format_value`, :func:`allowed_short` and :func:`documented_values` say what an
  option holds and takes (``/rules``, ``/table status``, the autocomplete, the tests).

Every refusal is an :class:`OptionError` (an :class:`InvalidOptions`) carrying the spec of
the option concerned, so the UI can name the option and what it takes, in the reader's
language. Values are written the same in both languages (``0.75``, ``on``, ``none``).
"""

from __future__ import annotations

import difflib
import math
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Self

from .enums import FastEnum
from .errors import InvalidOptions
from .refusal import Fallback

TRUE_WORDS = frozenset({"on", "true", "yes", "oui", "1", "vrai"})
FALSE_WORDS = frozenset({"off", "false", "no", "non", "0", "faux"})
NONE_WORDS = frozenset({"none", "aucun", "aucune"})
_INT = re.compile(r"[+-]?[0-9]+", re.ASCII)
_FLOAT = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)", re.ASCII)
_SEPARATORS_KEPT = re.compile(r"([\s,;]+)")
# a run of digits longer than any whole-number bound here or any Discord id (20): refused
# before int() reads it (Python refuses over 4,300 digits: a crash, not a refusal)
MAX_DIGITS = 24
_LONG_NUMBER = re.compile(rf"[0-9]{{{MAX_DIGITS + 1},}}", re.ASCII)
MAX_SUGGESTIONS = 1


class OptionKind(FastEnum):
    """What an option holds."""

    INT = "int"  # a whole number in [min, max] (or one of ``words``)
    FLOAT = "float"  # a number in [min, max]
    BOOL = "bool"  # on / off
    CHOICE = "choice"  # one of ``choices`` (strings)
    FORM = "form"  # a game-specific written form, parsed by ``form``


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One table option: its name, kind, range or choices, default and description."""

    name: str
    kind: OptionKind
    default: Any
    en: str  # what it does, in English (one short sentence, no final period)
    fr: str  # the same in French
    min: int | float | None = None
    max: int | float | None = None
    choices: tuple[str, ...] = ()  # CHOICE: the values; INT: words accepted besides numbers
    none: bool = False  # ``none`` is accepted and means None
    # at least ``factor`` times another option (max_bet >= min_bet): (option, factor)
    at_least: tuple[str, int] | None = None
    # FORM: text or stored value -> typed value (raises OptionError); typed value -> text
    form: Callable[[Any], Any] | None = None
    show: Callable[[Any], str] | None = None
    examples: tuple[str, ...] = ()  # FORM: documented values, as typed
    allowed_en: str = ""  # FORM: what it takes, in English
    allowed_fr: str = ""
    # the casino's money at stake: checked when a table opens, not by the engine
    cap: str | None = None  # the server limit (a ``/bank setup`` field) it may not exceed
    floor: str | None = None  # the server limit it may not be below
    # (option, refusal code): it may not be below that option (wager_requirement covers
    # welcome_stake, or the stake could be taken away without a bet)
    open_at_least: tuple[str, str] | None = None

    def description(self, locale: str | None) -> str:
        """The description in ``locale`` (French for ``fr*``, else English)."""
        return self.fr if locale and str(locale).lower().startswith("fr") else self.en


class OptionError(InvalidOptions):
    """A refused option; ``spec`` is the option concerned (None for a syntax error)."""

    def __init__(self, code: str, spec: OptionSpec | None = None, **params: object) -> None:
        if spec is not None:
            params.setdefault("option", spec.name)
        super().__init__(code, **params)
        self.spec = spec
        if code == "unknown_option" and params.get("suggestion"):
            self.key = "options.unknown_option_close"
        elif code == "option_below_other" and params.get("factor", 1) != 1:
            self.key = "options.option_below_other_times"

    @property
    def fallbacks(self) -> tuple[Fallback, ...]:
        """The plain ``options.<code>`` sentence first, then those of any option refusal."""
        return (("options." + self.code, {}), *super().fallbacks)


def bet_options(
    least: int, most: int, top: int, floor: str | None = None
) -> tuple[OptionSpec, OptionSpec]:
    """``min_bet`` (not below the server limit ``floor``, if any) and ``max_bet`` (not
    below ``min_bet``): their defaults and their top."""
    return (
        OptionSpec(
            "min_bet",
            OptionKind.INT,
            least,
            "smallest bet",
            "mise minimale",
            min=1,
            max=top,
            floor=floor,
        ),
        OptionSpec(
            "max_bet",
            OptionKind.INT,
            most,
            "largest bet",
            "mise maximale",
            min=1,
            max=top,
            at_least=("min_bet", 1),
        ),
    )


_MENTION = re.compile(r"<@!?([0-9]+)>|([0-9]+)", re.ASCII)


def player_option(name: str, en: str, fr: str) -> OptionSpec:
    """An option naming a player (none: unset), written as an id or a mention ``<@id>``."""

    def parse(value: object) -> int:
        if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
            return value
        found = _MENTION.fullmatch(value.strip()) if isinstance(value, str) else None
        if found is None:
            raise OptionError("option_bad_value", spec, value=str(value))
        return int(found[1] or found[2])

    spec = OptionSpec(
        name,
        OptionKind.FORM,
        None,
        en,
        fr,
        none=True,
        form=parse,
        show=lambda pid: f"<@{pid}>",
        examples=("none",),
        allowed_en="a player (a mention or an id)",
        allowed_fr="un joueur (mention ou identifiant)",
    )
    return spec


# --------------------------------------------------------------------------- text


def tokenize(text: str | None, names: Iterable[str] = ()) -> list[tuple[str, str]]:
    """Split ``"decks=6, min_bet=10"`` into ``(name, raw value)`` pairs, in order.

    Spaces, commas and semicolons separate options, except a comma right after a value
    that continues it: ``penetration=0,75`` (a decimal comma) and
    ``deck=numbers=36,pirates=14`` (a value holding ``=``). Names are lower-cased with
    ``-`` read as ``_``. A known name with no value is ``option_missing_value``; anything
    else without ``name=value`` is ``option_syntax``."""
    known = set(names)
    out: list[tuple[str, str]] = []
    pieces = _SEPARATORS_KEPT.split(text or "")
    for i in range(0, len(pieces), 2):
        part = pieces[i]
        if not part:
            continue
        tight = i > 0 and pieces[i - 1] == ","
        if tight and out and ("=" not in part or "=" in out[-1][1]):
            out[-1] = (out[-1][0], f"{out[-1][1]},{part}")
            continue
        raw_name, sep, value = part.partition("=")
        name = normalize_name(raw_name)
        if not name:
            raise OptionError("option_syntax", part=part)
        if not value:
            if name in known or sep:
                raise OptionError("option_missing_value", None, option=name)
            raise OptionError("option_syntax", part=part)
        out.append((name, value))
    return out


def normalize_name(name: str) -> str:
    """``Min-Bet`` -> ``min_bet``."""
    return name.strip().lower().replace("-", "_")


def closest(name: str, names: Iterable[str]) -> str | None:
    """The known option name closest to a mistyped one, if any is close enough."""
    found = difflib.get_close_matches(name, list(names), n=MAX_SUGGESTIONS, cutoff=0.6)
    return found[0] if found else None


def parse_text(text: str | None, specs: Sequence[OptionSpec]) -> dict[str, Any]:
    """Typed values of the options written in ``text`` (only those given, in order)."""
    by_name = {s.name: s for s in specs}
    out: dict[str, Any] = {}
    try:
        pairs = tokenize(text, by_name)
    except OptionError as exc:
        if exc.code == "option_missing_value":
            name = str(exc.params["option"])
            if name in by_name:
                raise OptionError("option_missing_value", by_name[name]) from None
            raise unknown(name, by_name) from None
        raise
    for name, raw in pairs:
        spec = by_name.get(name)
        if spec is None:
            raise unknown(name, by_name)
        if name in out:
            raise OptionError("option_repeated", spec)
        out[name] = parse_value(spec, raw)
    return out


def unknown(name: str, names: Iterable[str]) -> OptionError:
    """The refusal of an unknown option: the closest known name and the list."""
    known = sorted(names)
    return OptionError(
        "unknown_option", option=name, suggestion=closest(name, known) or "", choices=known
    )


def parse_value(spec: OptionSpec, raw: str) -> Any:
    """The typed value of one option as written (``"6"`` -> 6, ``"on"`` -> True...)."""
    text = raw.strip()
    low = text.lower()
    if spec.none and low in NONE_WORDS:
        return None
    kind = spec.kind
    if kind is not OptionKind.FLOAT and _LONG_NUMBER.search(text):  # float() reads any
        if kind is OptionKind.INT and None not in (spec.min, spec.max):
            raise OptionError("out_of_range", spec, value=text, min=spec.min, max=spec.max)
        raise OptionError("option_bad_value", spec, value=text)
    if kind is OptionKind.BOOL:
        if low in TRUE_WORDS:
            return True
        if low in FALSE_WORDS:
            return False
        raise OptionError("option_bad_value", spec, value=text)
    if kind is OptionKind.CHOICE:
        for choice in spec.choices:
            if low == choice.lower():
                return choice
        raise OptionError("option_bad_value", spec, value=text)
    if kind is OptionKind.FORM:
        assert spec.form is not None
        return spec.form(text)
    if kind is OptionKind.INT:
        if low in spec.choices:
            return low
        if not _INT.fullmatch(text):
            raise OptionError("option_bad_value", spec, value=text)
        return check_value(spec, int(text))
    number = text.replace(",", ".", 1)  # a decimal comma, as French writes it
    if not _FLOAT.fullmatch(number):
        raise OptionError("option_bad_value", spec, value=text)
    value = float(number)
    if math.isinf(value):  # over 308 digits: out of range, shown as typed
        raise OptionError("out_of_range", spec, value=text, min=spec.min, max=spec.max)
    return check_value(spec, value)


# --------------------------------------------------------------------------- typed values


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def check_value(spec: OptionSpec, value: Any) -> Any:
    """``value`` if it is a valid typed value of ``spec`` (normalised), else OptionError."""
    if value is None and spec.none:
        return None
    kind = spec.kind
    if kind is OptionKind.FORM:
        assert spec.form is not None
        return spec.form(value)
    if kind is OptionKind.BOOL:
        if isinstance(value, bool):
            return value
    elif kind is OptionKind.CHOICE:
        if isinstance(value, str) and value in spec.choices:
            return value
    elif kind is OptionKind.INT and isinstance(value, str) and value in spec.choices:
        return value
    elif (kind is OptionKind.INT and _is_int(value)) or (
        kind is OptionKind.FLOAT and (_is_int(value) or isinstance(value, float))
    ):
        lo = spec.min if spec.min is not None else value
        hi = spec.max if spec.max is not None else value
        if not lo <= value <= hi:
            raise OptionError("out_of_range", spec, value=value, min=lo, max=hi)
        return float(value) if kind is OptionKind.FLOAT else value
    raise OptionError("option_bad_value", spec, value=format_any(value))


def check_values(
    specs: Sequence[OptionSpec], data: Mapping[str, Any], *, ignore: Iterable[str] = ()
) -> dict[str, Any]:
    """Every option of ``specs``: the given typed values checked, the others defaulted.

    Names in ``ignore`` are dropped (options of an older version kept in snapshots); any
    other unknown name is ``unknown_option``. Cross-option bounds (``at_least``) are
    checked last."""
    by_name = {s.name: s for s in specs}
    skip = set(ignore)
    for name in data:
        if name not in by_name and name not in skip:
            raise unknown(str(name), by_name)
    out = {s.name: check_value(s, data[s.name]) if s.name in data else s.default for s in specs}
    for spec in specs:
        if spec.at_least is None or not _is_int(out[spec.name]):
            continue
        other, factor = spec.at_least
        floor = factor * out[other]
        if out[spec.name] < floor:
            raise OptionError(
                "option_below_other",
                spec,
                value=out[spec.name],
                other=other,
                other_value=out[other],
                factor=factor,
                min=floor,
            )
    return out


class GameOptions:
    """A game's typed options: a frozen dataclass subclass declares one field per option
    (with its default) and ``SPECS``, the declarations they are checked against."""

    __slots__ = ()
    SPECS: ClassVar[tuple[OptionSpec, ...]] = ()
    LEGACY: ClassVar[tuple[str, ...]] = ()  # options of older versions, read and dropped

    def to_dict(self) -> dict[str, Any]:
        """JSON-able form (every option)."""
        return {spec.name: getattr(self, spec.name) for spec in self.SPECS}

    def validate(self) -> Self:
        """Raise :class:`InvalidOptions` for the first option out of range; return self."""
        check_values(self.SPECS, self.to_dict())
        return self

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
        """Build and validate typed options; unknown names raise ``unknown_option``."""
        return cls(**check_values(cls.SPECS, data, ignore=cls.LEGACY))

    @classmethod
    def build(cls, options: GameOptions | Mapping[str, Any] | None) -> Self:
        """Options as given to a game: typed (checked), a mapping, or None (defaults)."""
        if options is None:
            return cls()
        if isinstance(options, cls):
            return options.validate()
        if isinstance(options, Mapping):
            return cls.from_dict(options)
        raise TypeError(f"not options of this game: {options!r}")


# --------------------------------------------------------------------------- showing


def format_any(value: Any) -> str:
    """A plain value as people type it: ``on``/``off``, ``none``, ``0.75``."""
    if isinstance(value, bool):
        return "on" if value else "off"
    if value is None:
        return "none"
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def format_value(spec: OptionSpec, value: Any) -> str:
    """An option's value as it would be typed (``36/14/4`` for a Pirate 21 deck)."""
    if spec.kind is OptionKind.FORM and spec.show is not None and value is not None:
        return spec.show(value)
    return format_any(value)


def _bound(spec: OptionSpec, value: int | float | None) -> str:
    if spec.at_least is not None:
        other, factor = spec.at_least
        return other if factor == 1 else f"{factor}×{other}"
    return format_any(value)


def _values(spec: OptionSpec, ranged: list[str]) -> list[str]:
    """The values an option takes as typed (``ranged`` stands for a number's range), then
    ``none`` when it is accepted."""
    kind = spec.kind
    if kind is OptionKind.BOOL:
        values = ["on", "off"]
    elif kind is OptionKind.CHOICE:
        values = list(spec.choices)
    elif kind is OptionKind.FORM:
        values = [e for e in spec.examples if e != "none"]
    else:
        values = [*ranged, *spec.choices]
    return [*values, "none"] if spec.none else values


def allowed_short(spec: OptionSpec) -> str:
    """What an option takes, in the words people type: ``1–8``, ``on | off``, ``3:2 | 6:5``."""
    return " | ".join(_values(spec, [f"{_bound(spec, spec.min)}–{format_any(spec.max)}"]))


def documented_values(spec: OptionSpec) -> list[str]:
    """The values ``/rules`` documents, as typed: each choice, or both ends of the range
    (and each word such as ``none``); for a written form, its examples."""
    return _values(spec, [format_any(spec.min), format_any(spec.max)])
