"""Pirate 21 tables stored by the code before the TableGame base restore and play on with
the same cards, the same events and the same seeds (``golden/pirate21_format1.json``,
written by that code with ``golden/make_pirate21_format1.py``); their upgraded snapshot
is exactly what the restored game stores."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bot.engine.base import Action
from bot.engine.games.pirate21 import Pirate21
from bot.engine.shuffle import seeded_entropy

GOLDEN = json.loads((Path(__file__).parent / "golden" / "pirate21_format1.json").read_text())
CASES = {c["name"]: c for c in GOLDEN["cases"]}
CLOSING = ("left", "closed")  # the base's: every seat emptied at the end, then the table


def test_the_cases_cover_the_old_shapes() -> None:
    assert GOLDEN["written_by"] == "9a79549"
    reshuffled = CASES["shared-reshuffled"]["snapshot"]
    assert reshuffled["version"] == 1 and reshuffled["pending_reveals"]
    assert reshuffled["spare"] is not None and len(reshuffled["pile"]) < 12


@pytest.mark.parametrize("name", sorted(CASES))
def test_an_old_table_plays_on_with_the_same_events(name: str) -> None:
    case = CASES[name]
    stored = case["snapshot"]
    game = Pirate21.from_dict(stored, entropy=seeded_entropy(case["label"]))
    upgraded = dict(Pirate21.upgrade(stored))
    assert upgraded["format"] == 2
    assert {k: game.to_dict()[k] for k in upgraded} == upgraded
    assert game.round == stored["round"] and game.phase.value == stored["phase"]
    assert game.coins == {p: n for p, n in stored["coins"]}
    for move in case["moves"]:
        events = [e.to_dict() for e in game.apply(Action.from_dict(move["action"]))]
        old: list[dict[str, Any]] = move["events"]
        if old and old[-1]["kind"] == "game_over":
            assert [e["kind"] for e in events[len(old) :]] == [
                *["left"] * len(game.coins),
                "closed",
            ]
            events = events[: len(old)]
        assert events == old
        again = Pirate21.from_dict(json.loads(json.dumps(game.to_dict())), entropy=game.entropy)
        assert again.to_dict() == game.to_dict()
