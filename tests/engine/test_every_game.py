"""What every game of the registry must do alike, each game bringing only its data
(``cases.py``): its options' defaults and the options it refuses, naming the option; the
refusal codes it lists; a shoe committed before any card is dealt from it, whose seed,
revealed by the end, gives the cards dealt; the money back out once the table closes."""

from __future__ import annotations

import json
from typing import Any

import pytest

from bot.engine.base import Action, ActionKind, InvalidOptions, Phase, Visibility
from bot.engine.registry import GAMES
from bot.engine.shuffle import seeded_entropy, verify
from tests.engine.cases import CASES, cards_of
from tests.engine.ledger import Ledger

K = ActionKind
COMMITMENTS = ("commitment", "next_commitment")  # what a shuffle event commits to

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


@pytest.mark.parametrize("key", list(GAMES))
def test_the_shoe_is_committed_before_any_card_and_its_seed_verifies(key: str) -> None:
    fair = CASES[key].fair
    g = GAMES[key].build(1, fair.options, seeded_entropy(f"fair-{key}"))
    led = Ledger()
    for action in fair.seat:
        led.feed(g.apply(action))
    events = led.feed(g.apply(Action(K.START, 1)))
    shuffle = next(e for e in events if e.kind == "shuffle")
    commitment = shuffle.data["commitment"]
    assert shuffle.visibility is Visibility.PUBLIC
    shoe = g.public_view().shoe
    assert shoe is not None and shoe.commitment == commitment
    events += led.feed(fair.play(g))
    led.check(g)
    kinds = [e.kind for e in events]
    assert kinds.count("shuffle") == 1  # the round is dealt from that shoe
    at = [kinds.index(kind) for kind in fair.order]
    assert at == sorted(at), kinds
    assert kinds.index("shuffle") < min(i for i, e in enumerate(events) if cards_of(e))
    events += led.feed(g.apply(Action(K.CLOSE)))
    led.check(g)
    assert g.phase is Phase.FINISHED and not g.seats
    # every commitment shown (the shoe's, a spare's) has its seed revealed by the close
    revealed = {e.data["commitment"]: e.data for e in events if e.kind == "seed_revealed"}
    shown = {e.data.get(k) for e in events if e.kind == "shuffle" for k in COMMITMENTS}
    assert shown - {None} <= set(revealed)
    seed = revealed[commitment]
    assert seed["spec"] == shuffle.data["spec"] == fair.spec
    order = [c.code for c in verify(seed["seed"], commitment, fair.spec)]
    dealt = fair.dealt(events)
    assert len(dealt) >= fair.cards and order[: len(dealt)] == dealt
