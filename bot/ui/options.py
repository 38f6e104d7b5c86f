"""Table options as people read and type them: what each takes, ``/rules`` lines, the
``/table status`` summary and the autocomplete of ``/table open``'s ``options`` field.

Everything comes from the engine's :class:`~bot.engine.options.OptionSpec` declarations
(no per-game list here). No discord imports: the cogs wrap these strings."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from bot.engine.options import (
    OptionError,
    OptionKind,
    OptionSpec,
    allowed_short,
    closest,
    format_any,
    format_value,
    normalize_name,
    parse_value,
)
from bot.i18n import normalize, t
from bot.tables.models import SETTINGS, TableSettings

MAX_CHOICES = 25  # Discord shows at most 25 autocomplete choices
MAX_CHOICE_LEN = 100  # a choice's name and value hold at most 100 characters
_LAST_TOKEN = re.compile(r"[^\s,;]*\Z")


def _code(value: object) -> str:
    return f"`{value}`"


def _bound(spec: OptionSpec) -> str:
    if spec.at_least is None:
        return format_any(spec.min)
    other, factor = spec.at_least
    return _code(other) if factor == 1 else f"{factor} × {_code(other)}"


def allowed_text(spec: OptionSpec, locale: str | None) -> str:
    """What an option takes, as a phrase: ``a whole number from 1 to 8``."""
    kind = spec.kind
    if kind is OptionKind.FORM:
        text = spec.allowed_fr if normalize(locale) == "fr" else spec.allowed_en
    elif kind is OptionKind.BOOL:
        text = t("options.allowed.bool", locale)
    elif kind is OptionKind.CHOICE:
        choices = ", ".join(_code(c) for c in spec.choices)
        text = t("options.allowed.choice", locale, choices=choices)
    else:
        key = "options.allowed.int" if kind is OptionKind.INT else "options.allowed.float"
        text = t(key, locale, min=_bound(spec), max=format_any(spec.max))
        if spec.choices:
            words = ", ".join(_code(w) for w in spec.choices)
            text = t("options.allowed.or", locale, allowed=text, words=words)
    if spec.none:
        text = t("options.allowed.or", locale, allowed=text, words=_code("none"))
    return text


# --------------------------------------------------------------------------- reading


def rules_lines(specs: Iterable[OptionSpec], locale: str | None) -> list[str]:
    """One ``/rules`` line per option: name, default, allowed values, description."""
    return [
        t(
            "rules.option_line",
            locale,
            option=_code(f"{s.name}={format_value(s, s.default)}"),
            allowed=allowed_short(s),
            description=s.description(locale),
        )
        for s in specs
    ]


def values_text(specs: Iterable[OptionSpec], values: Mapping[str, Any]) -> str:
    """``decks=6 · min_bet=10 · surrender=off``: the values of these options."""
    return " · ".join(
        _code(f"{s.name}={format_value(s, values[s.name])}") for s in specs if s.name in values
    )


def table_values_text(
    options: Sequence[OptionSpec], values: Mapping[str, Any], settings: TableSettings
) -> str:
    """A table's options, then its settings with the timers it really uses."""
    effective = {
        **settings.to_dict(),
        "bet_seconds": settings.bet_timer,
        "turn_seconds": settings.turn_timer,
        "idle_seconds": settings.idle_timer,
    }
    return values_text(options, values) + "\n" + values_text(SETTINGS, effective)


# --------------------------------------------------------------------------- autocomplete


def split_last(text: str) -> tuple[str, str]:
    """(what is kept as typed, the token being typed): ``"decks=2 min"`` -> (``"decks=2 "``,
    ``"min"``)."""
    last = _LAST_TOKEN.search(text)
    assert last is not None  # the pattern matches the empty string at the end
    return text[: last.start()], last.group()


def _typed_names(head: str) -> set[str]:
    out = set()
    for part in re.split(r"[\s,;]+", head):
        name, sep, _value = part.partition("=")
        if sep:
            out.add(normalize_name(name))
    return out


def _clip(text: str) -> str:
    return text if len(text) <= MAX_CHOICE_LEN else text[: MAX_CHOICE_LEN - 1] + "…"


def _candidates(spec: OptionSpec) -> list[str]:
    """Values worth suggesting: the default first, then the choices or the range's ends."""
    out = [format_value(spec, spec.default)]
    kind = spec.kind
    if kind is OptionKind.BOOL:
        out += ["on", "off"]
    elif kind is OptionKind.CHOICE:
        out += list(spec.choices)
    elif kind is OptionKind.FORM:
        out += list(spec.examples)
    else:
        out += [format_any(spec.min), format_any(spec.max), *spec.choices]
    if spec.none:
        out.append("none")
    return list(dict.fromkeys(out))


def _name_choices(
    head: str, token: str, specs: Sequence[OptionSpec], locale: str | None
) -> list[tuple[str, str]]:
    typed = _typed_names(head)
    prefix = normalize_name(token)
    free = [s for s in specs if s.name not in typed]
    ranked = [s for s in free if s.name.startswith(prefix)]
    ranked += [s for s in free if prefix in s.name and s not in ranked]
    near = closest(prefix, [s.name for s in free]) if prefix and not ranked else None
    ranked += [s for s in free if s.name == near]
    out = []
    for s in ranked:
        default = format_value(s, s.default)
        label = f"{s.name}={default} · {allowed_short(s)} · {s.description(locale)}"
        out.append((_clip(label), f"{head}{s.name}={default}"))
    return out


def _value_choices(
    head: str, spec: OptionSpec, partial: str, locale: str | None
) -> list[tuple[str, str]]:
    default = format_value(spec, spec.default)
    values = [v for v in _candidates(spec) if v.lower().startswith(partial.lower())]
    if partial and partial not in values:
        try:
            parse_value(spec, partial)
            values.insert(0, partial)
        except OptionError:
            if not values:  # nothing it could become: say so, and keep what was typed
                label = t(
                    "options.suggest.invalid",
                    locale,
                    option=spec.name,
                    value=partial,
                    allowed=allowed_short(spec),
                )
                return [(_clip(label), f"{head}{spec.name}={partial}")]
    out = []
    for v in values:
        label = f"{spec.name}={v}"
        if v == default:
            label = t("options.suggest.default", locale, option=label)
        out.append((_clip(f"{label} · {spec.description(locale)}"), f"{head}{spec.name}={v}"))
    return out


def suggest(text: str, specs: Sequence[OptionSpec], locale: str | None) -> list[tuple[str, str]]:
    """Autocomplete choices (label, value) for the ``options`` text typed so far: option
    names not yet given (with their default, allowed values and description), or the
    values of the option being written. Each value keeps what was already typed; a choice
    longer than Discord allows is left out."""
    head, token = split_last(text)
    name, sep, partial = token.partition("=")
    spec = next((s for s in specs if s.name == normalize_name(name)), None) if sep else None
    if spec is not None:
        found = _value_choices(head, spec, partial, locale)
    else:
        found = _name_choices(head, name, specs, locale)
    fits = [(label, value) for label, value in found if len(value) <= MAX_CHOICE_LEN]
    return fits[:MAX_CHOICES]
