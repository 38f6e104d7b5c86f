"""Option refusals as people read them (both languages), /rules lines, the autocomplete."""

from __future__ import annotations

import pytest

from bot.engine.options import OptionError
from bot.tables import GAMES, TableService
from bot.tables.games import all_options
from bot.tables.models import SETTINGS, TableSettings
from bot.ui.errors import refusal_text
from bot.ui.options import (
    MAX_CHOICE_LEN,
    MAX_CHOICES,
    allowed_text,
    rules_lines,
    split_last,
    suggest,
    table_values_text,
)

CASES = [
    (
        "classic",
        "decks=6 decks=2",
        "The option `decks` is given twice: give each option once.",
        "L'option `decks` est donnée deux fois\u00a0: donnez chaque option une seule fois.",
    ),
    (
        "casino21",
        "welcome_stake=-1",
        "welcome_stake must be between 0 and 1000000 (got -1).",
        "welcome_stake doit être compris entre 0 et 1000000 (valeur donnée\u00a0: -1).",
    ),
    (
        "classic",
        "max_bet=0",
        "max_bet must be between 1 and 1000000000 (got 0).",
        "max_bet doit être compris entre 1 et 1000000000 (valeur donnée\u00a0: 0).",
    ),
    (
        "classic",
        "min_bet=50 max_bet=20",
        "max_bet (20) cannot be below min_bet (50).",
        "max_bet (20) ne peut pas être inférieur à min_bet (50).",
    ),
    (
        "sept_et_demi",
        "min_bet=150",
        "buy_in (200) must be at least 2 × min_bet (300).",
        "buy_in (200) doit valoir au moins 2 × min_bet (300).",
    ),
    (
        "classic",
        "decks=",
        "`decks` needs a value: a whole number from 1 to 8, e.g. `decks=6`.",
        "`decks` attend une valeur\u00a0: un nombre entier de 1 à 8, par ex. `decks=6`.",
    ),
    (
        "pirate21",
        "treasur=1",
        "Unknown option `treasur`: did you mean `treasure`? Options: auto_next, bet_seconds,"
        " coins_per_player, dealer, deck, idle_seconds, pace, treasure, turn_seconds, variant.",
        "Option inconnue `treasur`\u00a0: vouliez-vous dire `treasure`\u00a0?"
        " Options\u00a0: auto_next,"
        " bet_seconds, coins_per_player, dealer, deck, idle_seconds, pace, treasure,"
        " turn_seconds, variant.",
    ),
    (
        "sept_et_demi",
        "colour=red",
        "Unknown option `colour`. Options: auto_next, bet_seconds, buy_in, deck,"
        " guarantee_fund, idle_seconds, min_bet, pace, rounds, turn_seconds.",
        "Option inconnue `colour`. Options\u00a0: auto_next, bet_seconds, buy_in, deck,"
        " guarantee_fund, idle_seconds, min_bet, pace, rounds, turn_seconds.",
    ),
    (
        "classic",
        "decks=six",
        "`decks=six` is not allowed: `decks` takes a whole number from 1 to 8.",
        "`decks=six` n'est pas permis\u00a0: `decks` accepte un nombre entier de 1 à 8.",
    ),
    (
        "classic",
        "blackjack_pays=2:1",
        "`blackjack_pays=2:1` is not allowed: `blackjack_pays` takes one of `3:2`, `6:5`, `1:1`.",
        "`blackjack_pays=2:1` n'est pas permis\u00a0: `blackjack_pays` accepte l'une des valeurs"
        " `3:2`, `6:5`, `1:1`.",
    ),
    (
        "sept_et_demi",
        "deck=52",
        "`deck=52` is not allowed: `deck` takes one of `40`, `32`.",
        "`deck=52` n'est pas permis\u00a0: `deck` accepte l'une des valeurs `40`, `32`.",
    ),
    (
        "sept_et_demi",
        "rounds=x",
        "`rounds=x` is not allowed: `rounds` takes a whole number from 1 to 1000000, or `none`.",
        "`rounds=x` n'est pas permis\u00a0: `rounds` accepte un nombre entier de 1 à 1000000,"
        " ou `none`.",
    ),
    (
        "casino21",
        "bank_bust_bonus=double",
        "`bank_bust_bonus=double` is not allowed: `bank_bust_bonus` takes a whole number from 0"
        " to 1000000, or `half`.",
        "`bank_bust_bonus=double` n'est pas permis\u00a0: `bank_bust_bonus` accepte"
        " un nombre entier de 0 à 1000000, ou `half`.",
    ),
    (
        "classic",
        "penetration=abc",
        "`penetration=abc` is not allowed: `penetration` takes a number from 0.5 to 0.9.",
        "`penetration=abc` n'est pas permis\u00a0: `penetration` accepte un nombre de 0.5 à 0.9.",
    ),
    (
        "classic",
        "surrender=maybe",
        "`surrender=maybe` is not allowed: `surrender` takes `on` or `off`.",
        "`surrender=maybe` n'est pas permis\u00a0: `surrender` accepte `on` ou `off`.",
    ),
    (
        "classic",
        "pace=slow",
        "`pace=slow` is not allowed: `pace` takes one of `live`, `forum`.",
        "`pace=slow` n'est pas permis\u00a0: `pace` accepte l'une des valeurs `live`, `forum`.",
    ),
    (
        "pirate21",
        "deck=36/14",
        "deck is written numbers/pirates/flags, e.g. `deck=36/14/4` (got 36/14).",
        "deck s'écrit nombres/pirates/drapeaux, par ex. `deck=36/14/4`"
        " (valeur donnée\u00a0: 36/14).",
    ),
    (
        "pirate21",
        "dealer=bob",
        "`dealer=bob` is not allowed: `dealer` takes a player (a mention or an id), or `none`.",
        "`dealer=bob` n'est pas permis\u00a0: `dealer` accepte un joueur (mention ou identifiant),"
        " ou `none`.",
    ),
    (
        "classic",
        "=5",
        "Write options as name=value, e.g. `decks=6 min_bet=10` (not `=5`).",
        "Écrivez les options en nom=valeur, par ex. `decks=6 min_bet=10` (pas `=5`).",
    ),
]


@pytest.mark.parametrize(("game", "text", "en", "fr"), CASES)
def test_option_refusals_in_both_languages(game: str, text: str, en: str, fr: str) -> None:
    with pytest.raises(OptionError) as err:
        TableService.parse(game, text, locale="en", name="t")
    assert refusal_text(err.value, "en") == en
    assert refusal_text(err.value, "fr") == fr


def test_every_option_has_an_allowed_phrase_in_both_languages() -> None:
    for spec in {s.name: s for g in GAMES.values() for s in all_options(g)}.values():
        en, fr = allowed_text(spec, "en"), allowed_text(spec, "fr")
        assert en and fr and "{" not in en + fr, spec.name
        assert en != fr or spec.kind.value == "bool", spec.name


@pytest.mark.parametrize("game", sorted(GAMES))
def test_rules_lines_name_default_range_and_description(game: str) -> None:
    lines = rules_lines(GAMES[game].options, "fr")
    assert len(lines) == len(GAMES[game].options)
    for spec, line in zip(GAMES[game].options, lines, strict=True):
        assert line.startswith(f"`{spec.name}=") and spec.fr in line and "\u00a0: " in line


def test_rules_lines_read_as_typed() -> None:
    by_game = {
        g: dict(
            zip(
                (s.name for s in GAMES[g].options), rules_lines(GAMES[g].options, "en"), strict=True
            )
        )
        for g in GAMES
    }
    assert by_game["blackjack"]["decks"] == "`decks=6` (1–8): decks in the shoe"
    assert by_game["blackjack"]["max_bet"] == "`max_bet=500` (min_bet–1000000000): largest bet"
    assert by_game["pirate21"]["deck"].startswith("`deck=36/14/4` (36/14/4 | 18/7/2 | 72/28/8)")
    assert by_game["sept_et_demi"]["deck"].startswith("`deck=40` (40 | 32)")
    assert by_game["sept_et_demi"]["rounds"].startswith("`rounds=none` (1–1000000 | none)")


def test_table_values_show_the_timers_in_use() -> None:
    options = GAMES["pirate21"].options
    values = {s.name: s.default for s in options}
    text = table_values_text(options, values, TableSettings(pace="forum", turn_seconds=30))
    assert "`deck=36/14/4`" in text and "`dealer=none`" in text
    assert "`pace=forum`" in text and "`turn_seconds=30`" in text
    assert "`bet_seconds=86400`" in text  # forum pace: a day


# ------------------------------------------------------------------ autocomplete


def test_split_last_keeps_what_was_typed() -> None:
    assert split_last("") == ("", "")
    assert split_last("decks=2 min") == ("decks=2 ", "min")
    assert split_last("decks=2,") == ("decks=2,", "")
    assert split_last("decks=2 ") == ("decks=2 ", "")


def specs(game: str) -> tuple:
    return all_options(GAMES[game])


def test_empty_text_suggests_every_option_with_default_range_and_description() -> None:
    found = suggest("", specs("classic"), "en")
    names = [value.split("=")[0] for _, value in found]
    assert names == [s.name for s in specs("classic")]
    assert found[0] == ("decks=6 · 1–8 · decks in the shoe", "decks=6")
    assert (
        "pace=live · live | forum · live (timers in seconds) or forum (timers in days, pings)",
        "pace=live",
    ) in found


def test_names_complete_the_last_token_and_skip_those_given() -> None:
    found = suggest("decks=2 min", specs("classic"), "fr")
    assert [v for _, v in found] == ["decks=2 min_bet=10"]
    assert found[0][0] == "min_bet=10 · 1–1000000000 · mise minimale"
    found = suggest("decks=2 bet", specs("classic"), "en")  # contained, not only a prefix
    assert [v for _, v in found] == [
        "decks=2 bet_seconds=none",
        "decks=2 min_bet=10",
        "decks=2 max_bet=500",
    ]
    found = suggest("decks=2 de", specs("classic"), "en")
    assert "decks=2 decks=6" not in [v for _, v in found]  # given already: a repeat is refused
    assert "decks=2 dealer_peeks=on" in [v for _, v in found]
    assert suggest("decks=2 treasur", specs("pirate21"), "en")[0][1] == "decks=2 treasure=10"


def test_values_of_the_option_being_typed() -> None:
    found = suggest("decks=2 surrender=", specs("classic"), "en")
    assert [v for _, v in found] == ["decks=2 surrender=off", "decks=2 surrender=on"]
    assert found[0][0] == "surrender=off (default) · surrender allowed"
    found = suggest("deck=3", specs("sept_et_demi"), "fr")
    assert found == [("deck=32 · 40 cartes (as à 7, figures ½) ou 32 (7 à as)", "deck=32")]
    found = suggest("decks=", specs("classic"), "en")
    assert [v for _, v in found] == ["decks=6", "decks=1", "decks=8"]
    found = suggest("decks=3", specs("classic"), "en")  # a valid value not in the list
    assert [v for _, v in found] == ["decks=3"]
    found = suggest("rounds=", specs("sept_et_demi"), "en")
    assert [v for _, v in found] == ["rounds=none", "rounds=1", "rounds=1000000"]
    found = suggest("pace=forum deck=", specs("pirate21"), "en")
    assert [v for _, v in found] == [
        "pace=forum deck=36/14/4",
        "pace=forum deck=18/7/2",
        "pace=forum deck=72/28/8",
    ]


def test_an_invalid_value_is_flagged_and_kept() -> None:
    found = suggest("decks=9", specs("classic"), "fr")
    assert found == [("⚠ decks=9 n'est pas permis\u00a0: 1–8", "decks=9")]


def test_choices_fit_discord_limits() -> None:
    for game in GAMES:
        for text in ("", "a", "decks=", "min_bet=1 ", "deck="):
            found = suggest(text, specs(game), "fr")
            assert len(found) <= MAX_CHOICES
            assert all(0 < len(n) <= MAX_CHOICE_LEN and len(v) <= MAX_CHOICE_LEN for n, v in found)
    long = "pace=forum " * 9  # 99 characters typed: no completion fits in 100
    assert suggest(long, specs("classic"), "en") == []
    assert len(SETTINGS) + max(len(g.options) for g in GAMES.values()) <= MAX_CHOICES
