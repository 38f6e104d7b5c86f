"""The two message catalogs: the same keys with the same placeholders, written in the
layout docs/ARCHITECTURE.md prescribes (sorted keys, one per line), so a key added to one
language only, or out of place, fails here rather than in front of a player."""

from __future__ import annotations

import json
import string
from importlib import resources

from bot.i18n import SUPPORTED


def raw(locale: str) -> str:
    return (resources.files("bot.i18n") / f"{locale}.json").read_text("utf-8")


def placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def test_both_catalogs_have_the_same_keys_and_placeholders() -> None:
    en, fr = (json.loads(raw(locale)) for locale in SUPPORTED)
    assert sorted(set(en) ^ set(fr)) == []
    differ = [key for key in en if placeholders(en[key]) != placeholders(fr[key])]
    assert differ == []


def test_catalogs_are_sorted_one_key_per_line() -> None:
    for locale in SUPPORTED:
        text = raw(locale)
        data = json.loads(text)
        assert text == json.dumps(data, ensure_ascii=False, indent=1, sort_keys=True) + "\n"
