"""Sept et demi tables stored by the code before the base restore and play on the same.

``golden/sept_et_demi_v1.json`` holds snapshots written by the code of 9a79549 (snapshot
``version`` 1: the lobby, bets half taken, a new card to show or hide on a rigged deck, the
bank's turn, between rounds with the host out of chips and the next deal rigged, a game of
eight), each with the moves that game went on with and where they led then: the phase,
round, banker, stacks, fund, the bank's cards and every money flow. Today's code must
accept every one of those moves and end in the same place with the same money."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from bot.engine.base import Action
from bot.engine.games.sept_et_demi import SeptEtDemi
from bot.engine.shuffle import seeded_entropy

FIXTURE = json.loads((Path(__file__).parent / "golden" / "sept_et_demi_v1.json").read_text())
SCENARIOS = {s["name"]: s for s in FIXTURE["scenarios"]}


def restore(scenario: dict[str, Any]) -> SeptEtDemi:
    return SeptEtDemi.from_dict(scenario["snapshot"], entropy=seeded_entropy(scenario["entropy"]))


def test_the_fixture_was_written_by_the_code_before_the_base() -> None:
    assert FIXTURE["written_by"] == "9a79549"
    assert {s["snapshot"]["version"] for s in SCENARIOS.values()} == {1}
    phases = {s["snapshot"]["phase"] for s in SCENARIOS.values()}
    assert phases == {"lobby", "betting", "playing", "bank", "between_rounds"}


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_an_old_snapshot_upgrades_to_what_the_game_writes(name: str) -> None:
    stored = SCENARIOS[name]["snapshot"]
    game = restore(SCENARIOS[name])
    upgraded = SeptEtDemi.upgrade(stored)
    assert game.to_dict() == upgraded
    assert SeptEtDemi.upgrade(upgraded) is upgraded
    seated = [p["id"] for p in stored["players"] if p["seated"]]
    assert game.seated() == seated
    assert (game.phase.value, game.round, game.host) == (
        stored["phase"],
        stored["round"],
        stored["host"],
    )
    assert game.stacks == {p["id"]: p["stack"] for p in stored["players"] if p["seated"]}
    assert (game.pot, game.fund, game.banker) == (stored["pot"], stored["fund"], stored["banker"])
    # the same turn: the same player waited for, the same cards in hand
    old_view = {p["id"]: p for p in stored["players"]}
    for p in seated:
        mine = game.private_view(p).you.own
        assert (mine.hidden, mine.pending) == (old_view[p]["hidden"], old_view[p]["pending"])


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_an_old_table_plays_on_exactly_as_it_would_have(name: str) -> None:
    scenario = SCENARIOS[name]
    game = restore(scenario)
    money: Counter[str] = Counter()
    for move in scenario["moves"]:
        for event in game.apply(Action.from_dict(move)):
            for m in event.money:
                money[m.src] -= m.amount
                money[m.dst] += m.amount
        copy = SeptEtDemi.from_dict(json.loads(json.dumps(game.to_dict())))
        assert copy.to_dict() == game.to_dict()
    after = scenario["after"]
    assert {
        "phase": game.phase.value,
        "round": game.round,
        "banker": game.banker,
        "stacks": {str(p): s for p, s in game.stacks.items()},
        "fund": game.fund,
        "bank_shown": game.bank_shown,
        "money": {k: v for k, v in sorted(money.items()) if v},
    } == after
