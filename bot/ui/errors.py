"""Every refusal as one translated sentence, by lookup: its catalog ``key`` if the catalog
has it, else its fallbacks in order (the last said whatever).

Any :class:`~bot.engine.refusal.Refusal` (engine, options, bank, table, user errors) and
the database's ``Busy`` (the same shape; ``bot/db`` imports nothing of the bot) are
refusals; anything else is a bug. A refusal repeats what the user typed (an option's
value, an unknown name...): each such value is cut to ``QUOTE`` characters, and the
sentence fits a message (issue 36)."""

from __future__ import annotations

from typing import Any

from bot.db.base import Busy
from bot.engine.options import OptionSpec, format_value
from bot.engine.refusal import Fallback, Refusal
from bot.i18n import has, t
from bot.ui.limits import cut, fit_content
from bot.ui.options import allowed_text

QUOTE = 60  # characters of a typed value a refusal repeats
TYPED = frozenset({"value", "other_value", "part", "option", "suggestion", "game"})
REFUSALS = (Refusal, Busy)


def _params(params: dict[str, Any]) -> dict[str, Any]:
    out = {}
    for key, value in params.items():
        if isinstance(value, (list, tuple, set)):
            out[key] = ", ".join(map(str, value))
        else:
            out[key] = cut(value, QUOTE) if key in TYPED and isinstance(value, str) else value
    return out


def refusal_text(exc: BaseException, locale: str | None) -> str | None:
    """The sentence to show for a refusal, or None when ``exc`` is not one (a bug)."""
    if not isinstance(exc, REFUSALS):
        return None
    return fit_content(_refusal_text(exc, locale))


def _refusal_text(exc: Refusal | Busy, locale: str | None) -> str:
    params = _params(dict(exc.params))
    detail = ", ".join(f"{k}={v}" for k, v in params.items())
    spec = getattr(exc, "spec", None)
    if isinstance(spec, OptionSpec):  # a refused option: say what it takes
        params["allowed"] = allowed_text(spec, locale)
        params["example"] = format_value(spec, spec.default)
    said: tuple[Fallback, ...] = ((exc.key, {}), *exc.fallbacks)
    for key, extra in said[:-1]:
        if has(key):
            return t(key, locale, **_said(exc, extra, params, detail))
    key, extra = said[-1]
    return t(key, locale, **_said(exc, extra, params, detail))


def _said(
    exc: Refusal | Busy, extra: dict[str, object], params: dict[str, Any], detail: str
) -> dict[str, Any]:
    """A sentence's parameters: the fallback's, the refusal's own, its code and detail."""
    return {"code": exc.code, "detail": detail, **extra, **params}
