"""Casino 21 tables stored by the code before the game moved onto the TableGame base
(format 1, ``golden/casino21_format1.json``, written by ``make_casino21_format1.py``) load
in every phase and go on exactly as that code went on: the same cards, results, seeds and
stacks."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bot.engine.base import Action, Event
from bot.engine.games.casino21 import Casino21
from bot.engine.shuffle import seeded_entropy
from bot.engine.views import as_dict

GOLDEN = json.loads((Path(__file__).parent / "golden" / "casino21_format1.json").read_text())
CARD_EVENTS = ("dealt", "drew", "bank_dealt", "bank_hole", "bank_draw")
RESULTS = ("win", "bank_bust", "push", "lose", "bust")
SEAT_KEYS = ("player", "stack", "bet", "cards", "values", "total", "pending_ace", "wagered")


def record(events: list[Event]) -> dict[str, Any]:
    """What a move dealt and settled, as the generator recorded it."""
    cards: list[str] = []
    for e in events:
        if e.kind in CARD_EVENTS:
            cards += e.data["cards"] if "cards" in e.data else [e.data["card"]]
    results = [[e.player, e.kind, e.data["net"]] for e in events if e.kind in RESULTS]
    seeds = [e.data["seed"] for e in events if e.kind == "seed_revealed"]
    return {"cards": cards, "results": results, "seeds": seeds}


def load(name: str) -> Casino21:
    stored = GOLDEN["tables"][name]["snapshot"]
    return Casino21.from_dict(
        json.loads(json.dumps(stored)), entropy=seeded_entropy(GOLDEN["seed"])
    )


def test_the_golden_file_is_the_old_format() -> None:
    assert GOLDEN["written_by"] == "9a79549"
    for table in GOLDEN["tables"].values():
        assert "format" not in table["snapshot"] and "seed_revealed" in table["snapshot"]


@pytest.mark.parametrize("name", sorted(GOLDEN["tables"]))
def test_a_format_1_table_loads_as_it_was(name: str) -> None:
    stored = GOLDEN["tables"][name]["snapshot"]
    game = load(name)
    shape = Casino21.upgrade(stored)
    now = game.to_dict()
    assert {k: now[k] for k in shape} == shape  # what upgrade builds is what to_dict writes
    assert Casino21.upgrade(now) is now and now["format"] == 2
    old, table = GOLDEN["tables"][name]["public_view"], game.public_view()
    # the format-1 view was one flat mapping: the table's fields and the game's own
    view = json.loads(json.dumps({**as_dict(table), **as_dict(table.own)}))
    for key in ("phase", "round", "turn", "host", "to_act", "deadline", "bank"):
        assert view[key] == old[key], key
    if old["phase"] in ("betting", "playing"):  # between rounds no deck is in use now
        assert (view["max_draw"], view["cards_left"]) == (old["max_draw"], old["cards_left"])
    for seat, old_seat in zip(view["seats"], old["seats"], strict=True):
        assert {k: seat[k] for k in SEAT_KEYS} == {k: old_seat[k] for k in SEAT_KEYS}
        assert seat["status"] == old_seat["status"]
    assert view["shoe"] is None or view["shoe"]["commitment"] == old["commitment"]
    assert game.deadline == Casino21.from_dict(now, entropy=game.entropy).deadline


@pytest.mark.parametrize("name", sorted(GOLDEN["tables"]))
def test_a_format_1_table_plays_on_with_the_same_cards(name: str) -> None:
    game = load(name)
    *moves, end = GOLDEN["tables"][name]["moves"]
    for move in moves:
        action = Action.from_dict(move["action"])
        assert action.kind in game.legal_actions(action.player), move
        got = record(game.apply(action))
        assert got == {k: move[k] for k in ("cards", "results", "seeds")}, move
        game = Casino21.from_dict(game.to_dict(), entropy=game.entropy)  # and restored again
    assert {str(s.player): s.stack for s in game.seats} == end["stacks"]
