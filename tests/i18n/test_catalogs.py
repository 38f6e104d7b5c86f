"""The two message catalogs, every key rendered in both languages.

A key in one language only, placeholders that differ, a template that does not render, a
French text left in English, French typography (a no-break space before : ; ! ? », after
«), words of the other language, an engine refusal without a sentence, or the same refusal
worded two ways: each fails here rather than in front of a player."""

from __future__ import annotations

import json
import re
import string
from importlib import resources
from pathlib import Path

import pytest

from bot.i18n import SUPPORTED, catalog, t
from tests.i18n.language import foreign_words

NBSP = "\u00a0"
ROOT = Path(__file__).resolve().parents[2]

#: keys whose French text is the English one on purpose (texts with no word at all, only
#: placeholders, numbers, emojis or code, are always allowed). Keep this list short.
SAME_IN_BOTH = {
    # names: the bot, a two-card 21 (RULES.md calls it Black Jack in French too)
    "info.about.title": "Croupier is the bot's name",
    "casino21.blackjack": "Black Jack, the hand's name in both languages",
    "blackjack.result.blackjack": "Black Jack, the hand's name in both languages",
    "blackjack.status.blackjack": "Black Jack, the hand's name in both languages",
    "pirate21.blackjack": "BlackJack, Pirate 21's own name for a two-card 21",
    # words that are the same in French and English
    "name.audit": "audit is French too",
    "param.page": "page is French too",
}


def raw(locale: str) -> str:
    return (resources.files("bot.i18n") / f"{locale}.json").read_text("utf-8")


def placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def has_words(text: str) -> bool:
    """True when ``text`` holds a word once placeholders and code spans are taken out."""
    return bool(re.search(r"[^\W\d_]", re.sub(r"\{\w*\}|`[^`]*`", "", text)))


SAMPLES: list[tuple[tuple[str, ...], object]] = [
    # (words the placeholder's name contains, the value it gets)
    (("player", "user", "admin", "host", "banker", "target"), "<@1234567890>"),
    (("players", "paid"), "<@1234567890> <@2345678901>"),
    (("card", "hand", "extra", "hidden"), "A♠ K♦"),
    (("channel", "where", "table"), "<#3456789012>"),
    (("game",), "Black Jack"),
    (("seed", "commitment", "expected", "actual", "ref"), "9f86d081884c7d65"),
    (("when",), "<t:1767225600:R>"),
    (("option", "other", "key", "kind"), "decks"),
    (("choices", "allowed", "words", "example", "part", "deck", "ids"), "`36/14/4`"),
    (("medal",), "🥇"),
    (("text", "intro", "description", "detail", "code", "perms"), "…"),
]


def sample(name: str) -> object:
    """A value for a placeholder, chosen by its name (a number by default)."""
    for words, value in SAMPLES:
        if any(word in name for word in words):
            return value
    return 12  # amounts, counts, totals, ids, rounds...


def test_both_catalogs_have_the_same_keys() -> None:
    en, fr = (json.loads(raw(locale)) for locale in SUPPORTED)
    assert sorted(set(en) - set(fr)) == [], "keys missing in French"
    assert sorted(set(fr) - set(en)) == [], "keys missing in English"


def test_both_catalogs_have_the_same_placeholders() -> None:
    en, fr = catalog("en"), catalog("fr")
    differ = {k: (placeholders(en[k]), placeholders(fr[k])) for k in en}
    assert {k: v for k, v in differ.items() if v[0] != v[1]} == {}


def test_catalogs_are_sorted_one_key_per_line() -> None:
    for locale in SUPPORTED:
        text = raw(locale)
        data = json.loads(text)
        assert text == json.dumps(data, ensure_ascii=False, indent=1, sort_keys=True) + "\n"


@pytest.mark.parametrize("locale", SUPPORTED)
def test_every_key_renders_with_its_placeholders_filled(locale: str) -> None:
    broken = {}
    for key, template in catalog(locale).items():
        values = {name: sample(name) for name in placeholders(template)}
        try:
            text = template.format(**values)  # t() hides errors: call format itself
        except (KeyError, IndexError, ValueError) as exc:
            broken[key] = repr(exc)
            continue
        assert t(key, locale, **values) == text
        if not text.strip() or "{" in text or "}" in text or text == key:
            broken[key] = text
    assert broken == {}


def test_french_is_not_english() -> None:
    en, fr = catalog("en"), catalog("fr")
    same = sorted(
        key
        for key in en
        if fr[key].replace(NBSP, " ") == en[key].replace(NBSP, " ") and has_words(en[key])
    )
    assert same == sorted(SAME_IN_BOTH)


def test_french_typography() -> None:
    """A no-break space U+00A0 (one kind everywhere) before : ; ! ? » and after «, in
    prose (code spans and ``3:2``, ``page:2`` are not punctuation)."""
    wrong = {}
    for key, text in catalog("fr").items():
        prose = re.sub(r"`[^`]*`", "x", text)
        bad = re.findall(r".[:;!?»]", prose) + re.findall(r"«.", prose)
        bad = [b for b in bad if NBSP not in b and not re.fullmatch(r"[\w}]:", b)]
        if bad or "\u202f" in text or re.search(r"[ \t][,.)]|  ", prose):
            wrong[key] = bad or text
    assert wrong == {}


def test_english_typography() -> None:
    """No space before : ; ! ? in English."""
    wrong = {}
    for key, text in catalog("en").items():
        prose = re.sub(r"`[^`]*`", "x", text).replace("+ ?", "+ x")
        if re.search(r"\s[:;!?]|[ \t][,.)]|  |[«»]", prose) or NBSP in prose:
            wrong[key] = text
    assert wrong == {}


@pytest.mark.parametrize("locale", SUPPORTED)
def test_no_word_of_the_other_language(locale: str) -> None:
    found = {k: foreign_words(v, locale) for k, v in catalog(locale).items()}
    assert {k: v for k, v in found.items() if v} == {}


def engine_refusal_codes() -> set[str]:
    """Every refusal code the engines raise, read from their sources."""
    from bot.engine.errors import SHARED_CODES

    codes: set[str] = set(SHARED_CODES)
    for path in (ROOT / "bot" / "engine").rglob("*.py"):
        text = path.read_text("utf-8")
        codes |= set(re.findall(r"(?:IllegalAction|_illegal)\(\s*\"([a-z_]+)\"", text))
        # codes returned by name and raised later (Sept et demi's start checks)
        codes |= set(re.findall(r"return \"([a-z_]+)\"\n", text)) & {
            "not_host",
            "host_not_seated",
            "not_enough_players",
            "not_seated",
            "wrong_phase",
        }
    return codes


def test_every_engine_refusal_has_a_sentence() -> None:
    codes = engine_refusal_codes()
    assert {"not_your_turn", "already_bet", "not_betting", "insufficient_stack"} <= codes
    assert sorted(c for c in codes if f"illegal.{c}" not in catalog("en")) == []


#: the same situation in different games (or layers), worded the same: (key, params) pairs
SAME_REFUSAL = [
    # not enough in your stack (Black Jack: bet, double, split; Casino 21: bet)
    [("illegal.insufficient_stack", {"stack": 40}), ("illegal.bet_above_stack", {"stack": 40})],
    # a bet in play: wait for the end of the round (Black Jack, Casino 21)
    [("illegal.in_round", {}), ("illegal.leave_during_round", {})],
    # below the minimum bet (Casino 21, Sept et demi)
    [("illegal.bet_below_min", {"min": 10}), ("illegal.bet_too_small", {"min": 10, "max": 50})],
    # the table is closed (engine, table service)
    [("illegal.table_finished", {}), ("table.error.closed", {})],
    # a fixed buy-in (Sept et demi's engine, the table service)
    [("illegal.bad_buy_in", {"expected": 200}), ("table.error.buy_in_fixed", {"amount": 200})],
    # not seated (a move, /hand)
    [("illegal.not_seated", {}), ("hand.not_seated", {})],
    # an amount that is not a positive whole number (tables, bank)
    [("illegal.bad_amount", {}), ("bank.error.invalid_amount", {})],
    [("illegal.no_player", {}), ("illegal.player_required", {})],
    # no card left to draw (Sept et demi's deck, Pirate 21's pile)
    [("illegal.deck_empty", {}), ("illegal.pile_empty", {})],
]


@pytest.mark.parametrize("locale", SUPPORTED)
def test_the_same_refusal_reads_the_same_in_every_game(locale: str) -> None:
    for group in SAME_REFUSAL:
        texts = {key: t(key, locale, **params) for key, params in group}
        assert len(set(texts.values())) == 1, texts
    # the same opening words where the situations differ only in what follows
    top, half = (
        t("illegal.bet_above_max", locale, max=50),
        t("illegal.bet_too_large", locale, max=50),
    )
    assert half.startswith(top.rstrip(".")), (top, half)
    busy, join = (
        t("illegal.round_in_progress", locale),
        t("table.error.join_between_rounds", locale),
    )
    assert busy.split(":")[0].rstrip(NBSP) == join.split(":")[0].rstrip(NBSP), (busy, join)
