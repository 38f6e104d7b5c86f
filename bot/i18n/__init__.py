"""Message catalogs (English and French) and the lookup every reply goes through."""

from __future__ import annotations

import json
import logging
from functools import cache
from importlib import resources
from typing import Any

SUPPORTED = ("en", "fr")
FALLBACK = "en"
log = logging.getLogger(__name__)
# keys asked for but in no catalog (the tests fail on any: a player would see the raw key)
MISSING: set[str] = set()


@cache
def catalog(locale: str) -> dict[str, str]:
    """The flat ``key -> template`` catalog of a supported locale."""
    text = (resources.files("bot.i18n") / f"{locale}.json").read_text("utf-8")
    data: dict[str, str] = json.loads(text)
    return data


def normalize(locale: str | None) -> str:
    """Map a Discord locale (``fr``, ``en-US``...) to a supported one: French for fr."""
    if locale and str(locale).lower().startswith("fr"):
        return "fr"
    return FALLBACK


def t(key: str, locale: str | None = None, /, **params: Any) -> str:
    """Translate ``key`` into ``locale`` and fill ``{params}``; falls back to English."""
    # a table message asks for ~20 strings per move, nearly always in "en" or "fr"; a text
    # without parameters (a phase, a button's label) is the same every time: kept
    if not params:
        plain = _PLAIN.get((key, locale))
        if plain is not None:
            return plain
    loc = locale if locale in SUPPORTED else normalize(locale)
    template = catalog(loc).get(key) or catalog(FALLBACK).get(key)
    if template is None:
        MISSING.add(key)
        log.warning("missing message key %s", key)
        return key
    try:
        text = template.format(**params)
    except (KeyError, IndexError, ValueError):
        # the names only: the values can be a player's private cards
        log.warning("bad parameters for message key %s: given %s", key, ", ".join(sorted(params)))
        return template
    if not params and len(_PLAIN) < PLAIN_KEPT:
        _PLAIN[key, locale] = text
    return text


# (key, locale as asked) -> the text of a key without parameters; the catalogs never change
# while the process runs. Bounded: a locale is whatever Discord sends.
_PLAIN: dict[tuple[str, str | None], str] = {}
PLAIN_KEPT = 4096


def decimal(value: object, locale: str | None) -> str:
    """A decimal figure as the reader writes it: ``7.5`` in English, ``7,5`` in French."""
    text = str(value)
    return text.replace(".", ",") if normalize(locale) == "fr" else text


def has(key: str, locale: str = FALLBACK) -> bool:
    """True when ``key`` exists in the catalog of ``locale``."""
    return key in catalog(normalize(locale))
