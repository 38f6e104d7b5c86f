"""Every refusal as one translated sentence: engine, bank, options and user errors.

A refusal repeats what the user typed (an option's value, an unknown name...): each such
value is cut to ``QUOTE`` characters, and the sentence fits a message (issue 36)."""

from __future__ import annotations

from typing import Any

from bot.bank.errors import BankError
from bot.engine.base import IllegalAction, InvalidOptions
from bot.engine.options import OptionError
from bot.errors import UserError
from bot.i18n import has, t
from bot.ui.limits import cut, fit_content
from bot.ui.options import error_key, error_params

QUOTE = 60  # characters of a typed value a refusal repeats
TYPED = frozenset({"value", "other_value", "part", "option", "suggestion", "game"})


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
    text = _refusal_text(exc, locale)
    return None if text is None else fit_content(text)


def _refusal_text(exc: BaseException, locale: str | None) -> str | None:
    if isinstance(exc, UserError):
        return t(exc.key, locale, **_params(dict(exc.params)))
    if isinstance(exc, IllegalAction):
        key = f"illegal.{exc.code}"
        if has(key):
            return t(key, locale, **_params(dict(exc.params)))
        return t("illegal.generic", locale, code=exc.code)
    if isinstance(exc, OptionError):
        key = error_key(exc)
        if has(key):
            return t(key, locale, **_params(error_params(exc, locale)))
    if isinstance(exc, InvalidOptions):
        key = f"options.{exc.code}"
        params = _params(dict(exc.params))
        if has(key):
            return t(key, locale, **params)
        if exc.code.endswith("_out_of_range") and {"min", "max", "value"} <= params.keys():
            params.setdefault("option", exc.code.removesuffix("_out_of_range"))
            return t("options.out_of_range", locale, **params)
        detail = ", ".join(f"{k}={v}" for k, v in params.items())
        return t("options.generic", locale, code=exc.code, detail=detail)
    if isinstance(exc, BankError):
        code = getattr(exc, "code", type(exc).__name__)
        key = f"bank.error.{code}"
        params = _params(dict(getattr(exc, "params", {}) or {}))
        if has(key):
            return t(key, locale, **params)
        return t("bank.error.generic", locale, code=code)
    return None
