"""Typed table options: parsing what hosts type, checking typed values, the errors."""

from __future__ import annotations

import json
from typing import Any

import pytest

from bot.engine.games.blackjack import BLACKJACK_OPTIONS as CLASSIC
from bot.engine.games.blackjack import BlackjackOptions
from bot.engine.games.casino21 import CASINO21_OPTIONS as CASINO21
from bot.engine.games.casino21 import Casino21Options
from bot.engine.games.pirate21 import PIRATE21_OPTIONS as PIRATE21
from bot.engine.games.pirate21 import Pirate21Options
from bot.engine.games.sept_et_demi import SEPT_ET_DEMI_OPTIONS as SEPT
from bot.engine.games.sept_et_demi import SeptEtDemiOptions
from bot.engine.options import (
    OptionError,
    allowed_short,
    check_values,
    documented_values,
    format_value,
    parse_text,
    parse_value,
    tokenize,
)
from bot.engine.registry import GAMES as REGISTRY
from bot.tables.models import SETTINGS

#: every game's option specs, by key and by old key ("classic")
GAMES = {name: REGISTRY[name].options for name in REGISTRY.names()}
DECK = {"numbers": 36, "pirates": 14, "flags": 4}


@pytest.mark.parametrize(
    ("game", "text", "expected"),
    [
        ("classic", "", {}),
        ("classic", None, {}),
        ("classic", "decks=2", {"decks": 2}),
        ("classic", " Decks=2 ,min-bet=5; max_bet=50 ", {"decks": 2, "min_bet": 5, "max_bet": 50}),
        ("classic", "penetration=0.5", {"penetration": 0.5}),
        ("classic", "penetration=.9", {"penetration": 0.9}),
        ("classic", "penetration=0,75 decks=2", {"penetration": 0.75, "decks": 2}),
        ("classic", "decks=2,min_bet=5", {"decks": 2, "min_bet": 5}),
        ("classic", "surrender=on double=off", {"surrender": True, "double": False}),
        ("classic", "surrender=oui double=NON", {"surrender": True, "double": False}),
        ("classic", "blackjack_pays=6:5", {"blackjack_pays": "6:5"}),
        ("casino21", "bank_bust_bonus=half", {"bank_bust_bonus": "half"}),
        ("casino21", "bank_bust_bonus=HALF", {"bank_bust_bonus": "half"}),
        ("casino21", "bank_bust_bonus=0", {"bank_bust_bonus": 0}),
        ("casino21", "welcome_stake=0 max_players=1", {"welcome_stake": 0, "max_players": 1}),
        ("sept_et_demi", "deck=32", {"deck": "32"}),
        ("sept_et_demi", "deck=40 rounds=none", {"deck": "40", "rounds": None}),
        ("sept_et_demi", "rounds=aucun", {"rounds": None}),
        ("pirate21", "deck=36/14/4", {"deck": DECK}),
        ("pirate21", "deck=72/28/8", {"deck": {"numbers": 72, "pirates": 28, "flags": 8}}),
        ("pirate21", "deck=numbers=36,pirates=14,flags=4", {"deck": DECK}),
        (
            "pirate21",
            "deck=numbers=18,flags=2 treasure=5",
            {"deck": {**DECK, "numbers": 18, "flags": 2}, "treasure": 5},
        ),
        ("pirate21", "variant=shared", {"variant": "shared"}),
        ("pirate21", "dealer=<@123456789012345678>", {"dealer": 123456789012345678}),
        ("pirate21", "dealer=<@!42> treasure=1000", {"dealer": 42, "treasure": 1000}),
        ("pirate21", "dealer=none", {"dealer": None}),
    ],
)
def test_parse_text_gives_typed_values(game: str, text: str | None, expected: dict) -> None:
    assert parse_text(text, GAMES[game]) == expected


@pytest.mark.parametrize(
    ("game", "text", "code", "params"),
    [
        ("classic", "decks=6 decks=2", "option_repeated", {"option": "decks"}),
        ("classic", "decks=6 Decks=6", "option_repeated", {"option": "decks"}),
        ("classic", "decks=", "option_missing_value", {"option": "decks"}),
        ("classic", "decks", "option_missing_value", {"option": "decks"}),
        ("classic", "=5", "option_syntax", {"part": "=5"}),
        ("classic", "hello", "option_syntax", {"part": "hello"}),
        ("classic", "colour=red", "unknown_option", {"option": "colour", "suggestion": ""}),
        ("classic", "colour=", "unknown_option", {"option": "colour", "suggestion": ""}),
        ("classic", "deks=2", "unknown_option", {"option": "deks", "suggestion": "decks"}),
        (
            "classic",
            "min_bets=2",
            "unknown_option",
            {"option": "min_bets", "suggestion": "min_bet"},
        ),
        ("classic", "decks=six", "option_bad_value", {"option": "decks", "value": "six"}),
        ("classic", "decks=2.0", "option_bad_value", {"option": "decks", "value": "2.0"}),
        ("classic", "decks=٣", "option_bad_value", {"option": "decks", "value": "٣"}),  # ASCII only
        ("classic", "decks=²", "option_bad_value", {"option": "decks", "value": "²"}),
        ("classic", "decks=12", "out_of_range", {"option": "decks", "value": 12, "min": 1}),
        ("classic", "decks=0", "out_of_range", {"option": "decks", "value": 0, "max": 8}),
        ("classic", "max_bet=0", "out_of_range", {"option": "max_bet", "value": 0}),
        ("classic", "penetration=0.95", "out_of_range", {"option": "penetration"}),
        ("classic", "penetration=1,5", "out_of_range", {"option": "penetration", "value": 1.5}),
        ("classic", "penetration=0,7,5", "option_bad_value", {"option": "penetration"}),
        ("classic", "decks=2,colour=red", "unknown_option", {"option": "colour"}),
        ("classic", "surrender=maybe", "option_bad_value", {"option": "surrender"}),
        ("classic", "blackjack_pays=2:1", "option_bad_value", {"option": "blackjack_pays"}),
        ("classic", "pace=slow", "option_bad_value", {"option": "pace", "value": "slow"}),
        ("classic", "bet_seconds=5", "out_of_range", {"option": "bet_seconds", "min": 10}),
        ("casino21", "welcome_stake=-1", "out_of_range", {"option": "welcome_stake"}),
        ("casino21", "bank_bust_bonus=double", "option_bad_value", {"option": "bank_bust_bonus"}),
        ("casino21", "decks=none", "option_bad_value", {"option": "decks"}),
        ("sept_et_demi", "deck=52", "option_bad_value", {"option": "deck", "value": "52"}),
        ("sept_et_demi", "rounds=0", "out_of_range", {"option": "rounds"}),
        ("pirate21", "deck=36/14", "bad_deck", {"option": "deck"}),
        ("pirate21", "deck=1/1/1", "deck_too_small", {"option": "deck"}),
        ("pirate21", "dealer=bob", "option_bad_value", {"option": "dealer"}),
        ("pirate21", "variant=pirate", "option_bad_value", {"option": "variant"}),
        # past Python's 4,300 digits int() would raise ValueError: a refusal instead
        ("classic", "decks=" + "9" * 5000, "out_of_range", {"option": "decks", "max": 8}),
        ("classic", "min_bet=-" + "1" * 25, "out_of_range", {"option": "min_bet", "min": 1}),
        ("classic", "penetration=" + "5" * 5000, "out_of_range", {"option": "penetration"}),
        ("pirate21", "dealer=" + "1" * 5000, "option_bad_value", {"option": "dealer"}),
        ("pirate21", "deck=numbers=" + "3" * 5000, "option_bad_value", {"option": "deck"}),
    ],
)
def test_parse_text_refusals(game: str, text: str, code: str, params: dict[str, Any]) -> None:
    specs = (*GAMES[game], *SETTINGS)
    with pytest.raises(OptionError) as err:
        parse_text(text, specs)
    assert err.value.code == code
    assert {k: err.value.params.get(k) for k in params} == params
    option = err.value.params.get("option")
    if code not in ("unknown_option", "option_syntax"):  # the spec names the option
        assert err.value.spec is None or err.value.spec.name == option


def test_a_long_fraction_is_a_number_like_any() -> None:
    assert parse_text("penetration=0." + "5" * 5000, CLASSIC) == {"penetration": 0.5555555555555556}


def test_an_unknown_option_lists_every_known_name() -> None:
    with pytest.raises(OptionError) as err:
        parse_text("colour=red", CLASSIC)
    assert err.value.params["choices"] == sorted(s.name for s in CLASSIC)


def test_tokenize_keeps_the_order_and_the_raw_values() -> None:
    assert tokenize("a=1, b=x/y;c=on") == [("a", "1"), ("b", "x/y"), ("c", "on")]
    # a comma right after a value continues it when it cannot start an option
    assert tokenize("a=0,5 b=1") == [("a", "0,5"), ("b", "1")]
    assert tokenize("a=0, 5=b") == [("a", "0"), ("5", "b")]
    assert tokenize("d=x=1,y=2,c=3") == [("d", "x=1,y=2,c=3")]
    assert tokenize("a=1,b=2") == [("a", "1"), ("b", "2")]


@pytest.mark.parametrize(
    ("specs", "data", "code", "option"),
    [
        (CLASSIC, {"min_bet": 50, "max_bet": 20}, "option_below_other", "max_bet"),
        (CASINO21, {"min_bet": 10, "max_bet": 5}, "option_below_other", "max_bet"),
        (SEPT, {"min_bet": 150}, "option_below_other", "buy_in"),
        (CLASSIC, {"decks": "6"}, "option_bad_value", "decks"),  # typed values only
        (CLASSIC, {"double": 1}, "option_bad_value", "double"),
        (SEPT, {"deck": 32}, "option_bad_value", "deck"),
        (CLASSIC, {"colour": "red"}, "unknown_option", "colour"),
    ],
)
def test_check_values_refusals(specs: Any, data: dict, code: str, option: str) -> None:
    with pytest.raises(OptionError) as err:
        check_values(specs, data)
    assert (err.value.code, err.value.params["option"]) == (code, option)


def test_check_values_fills_the_defaults_and_keeps_cross_bounds() -> None:
    assert check_values(CLASSIC, {}) == BlackjackOptions().to_dict()
    assert check_values(CLASSIC, {"min_bet": 500, "max_bet": 500})["max_bet"] == 500
    assert check_values(SEPT, {"min_bet": 100, "buy_in": 200})["buy_in"] == 200
    assert check_values(CLASSIC, {"bet_seconds": 60}, ignore=("bet_seconds",)) == (
        BlackjackOptions().to_dict()
    )


def test_the_options_dataclasses_match_their_specs() -> None:
    """Every declared option is a field with the same default: nothing to keep in sync."""
    for specs, defaults in (
        (CLASSIC, BlackjackOptions().to_dict()),
        (CASINO21, Casino21Options().to_dict()),
        (PIRATE21, Pirate21Options().to_dict()),
        (SEPT, SeptEtDemiOptions().to_dict()),
    ):
        assert {s.name: s.default for s in specs} == defaults


def test_stored_options_of_today_restore() -> None:
    """Snapshots store the options dicts ``to_dict`` writes: they load back unchanged."""
    stored = Pirate21Options.from_dict({"deck": "18/7/2", "dealer": 7}).to_dict()
    assert stored["deck"] == {"numbers": 18, "pirates": 7, "flags": 2}
    assert Pirate21Options.from_dict(stored).to_dict() == stored
    sept = SeptEtDemiOptions.from_dict({"deck": "32", "rounds": 3}).to_dict()
    assert SeptEtDemiOptions.from_dict(sept).to_dict() == sept
    casino = Casino21Options.from_dict({"bank_bust_bonus": "half"}).to_dict()
    assert Casino21Options.from_dict(casino).to_dict() == casino


@pytest.mark.parametrize("game", list(REGISTRY))
def test_every_documented_value_parses_and_reads_back(game: str) -> None:
    for spec in (*GAMES[game], *SETTINGS):
        values = documented_values(spec)
        assert values, spec.name
        for text in values:
            typed = parse_value(spec, text)
            assert format_value(spec, typed) == text, (spec.name, text)
        assert format_value(spec, spec.default) in values or spec.kind.value in ("int", "float")
        assert allowed_short(spec)
        assert spec.en and spec.fr and spec.en != spec.fr


def test_allowed_short_says_what_people_type() -> None:
    by_name = {s.name: s for s in (*CLASSIC, *CASINO21, *SETTINGS)}
    assert allowed_short(by_name["decks"]) == "1–8"
    assert allowed_short(by_name["max_bet"]) == "min_bet–1000000"  # Casino 21's, last
    assert allowed_short(by_name["surrender"]) == "on | off"
    assert allowed_short(by_name["blackjack_pays"]) == "3:2 | 6:5 | 1:1"
    assert allowed_short(by_name["bank_bust_bonus"]) == "0–1000000 | half"
    assert allowed_short(by_name["bet_seconds"]) == "10–604800 | none"


def test_snapshots_written_before_typed_options_restore() -> None:
    """Game snapshots and table settings written by the code before typed options
    (commit a646717, ``written_by``) load, hold the same options and play on."""
    from pathlib import Path

    from bot.engine.base import Action, ActionKind
    from bot.engine.shuffle import seeded_entropy
    from bot.tables import GAMES as SERVICE_GAMES
    from bot.tables.models import TableSettings

    path = Path(__file__).parent / "golden" / "snapshots_before_typed_options.json"
    fixture = json.loads(path.read_text())
    assert fixture["written_by"] == "a646717"
    for key, stored in fixture["snapshots"].items():
        if key == "settings":
            settings = TableSettings.from_dict(stored).validate()
            assert settings.to_dict() == stored
            continue
        game = SERVICE_GAMES[key].load(stored, seeded_entropy("restore"))
        expected = dict(stored["options"])
        if key == "classic":  # the timers moved to the table settings
            assert (expected.pop("bet_seconds"), expected.pop("turn_seconds")) == (60, 60)
        assert game.to_dict()["options"] == expected
        now = {**game.to_dict(), "options": stored["options"]}
        shape = dict(type(game).upgrade(stored)) if hasattr(game, "upgrade") else stored
        assert {k: now[k] for k in shape} == shape  # later fields may be added
        player = 2
        kinds = game.legal_actions(player)
        assert kinds, key
    classic = SERVICE_GAMES["classic"].load(fixture["snapshots"]["classic"], seeded_entropy("x"))
    classic.apply(Action(ActionKind.BET, 2, amount=5))  # the round goes on
