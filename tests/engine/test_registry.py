"""The game registry: one entry per game, found by key or old key, with everything the
commands, the simulator and the renderers read from it."""

from __future__ import annotations

import json
from importlib import resources

import pytest

from bot.engine.errors import SHARED_CODES
from bot.engine.options import OptionKind, check_values
from bot.engine.registry import GAMES
from bot.engine.shuffle import seeded_entropy
from bot.engine.sim import SIMULATORS, find

KEYS = ["blackjack", "casino21", "pirate21", "sept_et_demi"]


def catalog(lang: str) -> dict[str, str]:
    text = resources.files("bot.i18n").joinpath(f"{lang}.json").read_text("utf-8")
    return dict(json.loads(text))


def test_the_keys_people_type_and_the_old_one() -> None:
    assert list(GAMES) == KEYS
    assert GAMES.key("classic") == "blackjack" and GAMES["classic"] is GAMES["blackjack"]
    assert "classic" in GAMES and GAMES.get("poker") is None and GAMES.key("poker") is None
    assert set(GAMES.names()) == {*KEYS, "classic"}


@pytest.mark.parametrize("key", KEYS)
def test_each_game_has_names_options_and_players(key: str) -> None:
    spec = GAMES[key]
    assert spec.name("en") and spec.name("fr-FR") == spec.names["fr"]
    assert 1 <= spec.min_players <= spec.max_players <= 8
    assert check_values(spec.options, {}) == spec.defaults()
    game = spec.build(1, {}, seeded_entropy("registry"))
    assert key == game.GAME and game.options.to_dict().keys() == spec.defaults().keys()
    again = spec.load(game.to_dict(), seeded_entropy("registry"))
    assert again.to_dict() == game.to_dict()


@pytest.mark.parametrize("key", KEYS)
def test_the_simulator_is_found_through_the_registry(key: str) -> None:
    sim = GAMES[key].sim()
    assert sim.game == key and type(SIMULATORS[key]) is type(sim)
    assert GAMES[key].strategies == sim.strategies
    for name in (key, *GAMES[key].aliases):
        assert find(name) is SIMULATORS[key]


def test_the_limits_on_casino_money_are_declared_with_the_options() -> None:
    caps = {(key, s.name): s.cap for key, spec in GAMES.items() for s in spec.options if s.cap}
    assert caps == {
        ("casino21", "welcome_stake"): "max_welcome_stake",
        ("casino21", "bank_bust_bonus"): "max_bank_bust_bonus",
        ("sept_et_demi", "guarantee_fund"): "max_guarantee_fund",
    }
    floors = {
        (key, s.name): s.floor for key, spec in GAMES.items() for s in spec.options if s.floor
    }
    assert floors == {("casino21", "min_bet"): "min_casino21_bet"}
    floors = [(s.name, s.open_at_least) for spec in GAMES.values() for s in spec.options]
    assert [f for f in floors if f[1]] == [
        ("wager_requirement", ("welcome_stake", "wager_below_stake"))
    ]


def test_every_option_kind_is_known() -> None:
    for spec in GAMES.values():
        assert all(isinstance(s.kind, OptionKind) for s in spec.options)


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_every_shared_refusal_and_black_jack_refusal_is_translated(lang: str) -> None:
    texts = catalog(lang)
    codes = SHARED_CODES | GAMES["blackjack"].game.ILLEGAL_CODES  # type: ignore[union-attr]
    assert sorted(c for c in codes if f"illegal.{c}" not in texts) == []
