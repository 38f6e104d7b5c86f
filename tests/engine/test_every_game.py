"""What every game of the registry must do alike, each game bringing only its data
(``cases.py``): its options' defaults and the options it refuses, naming the option; the
refusal codes it lists."""

from __future__ import annotations

import json
from typing import Any

import pytest

from bot.engine.base import InvalidOptions
from bot.engine.registry import GAMES
from bot.engine.shuffle import seeded_entropy
from tests.engine.cases import CASES

BAD_OPTIONS = [
    pytest.param(key, options, code, option, id=f"{key}-{option}-{code}")
    for key in GAMES
    if key in CASES  # a game without its case fails test_every_game_has_its_case
    for options, code, option in CASES[key].bad_options
]


def test_every_game_has_its_case() -> None:
    assert list(CASES) == list(GAMES)


@pytest.mark.parametrize("key", list(GAMES))
def test_default_options_round_trip(key: str) -> None:
    spec = GAMES[key]
    options = spec.game.Options
    assert options.from_dict({}).to_dict() == CASES[key].defaults == spec.defaults()
    stored = json.loads(json.dumps(options().to_dict()))
    assert options.from_dict(stored) == options()
    assert spec.build(1, {}, seeded_entropy("defaults")).options == options()
    assert spec.game().options == options()  # no options at all: the defaults


@pytest.mark.parametrize(("key", "options", "code", "option"), BAD_OPTIONS)
def test_invalid_options(key: str, options: dict[str, Any], code: str, option: str) -> None:
    with pytest.raises(InvalidOptions) as err:
        GAMES[key].build(1, options, seeded_entropy("options"))
    assert (err.value.code, err.value.params["option"]) == (code, option)


@pytest.mark.parametrize("key", list(GAMES))
def test_every_code_used_is_listed(key: str) -> None:
    codes = GAMES[key].game.ILLEGAL_CODES
    assert all(isinstance(k, str) and k == k.lower() for k in codes)
    assert CASES[key].codes <= codes
