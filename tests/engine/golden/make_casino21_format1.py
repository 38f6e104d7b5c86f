"""One-off: Casino 21 snapshots in the format of the code before the game moved onto the
TableGame base (format 1, main at 9a79549), each with the moves that follow it and what
they dealt and paid, for ``tests/engine/test_casino21_restore.py``.

Run with that code: ``python tests/engine/golden/make_casino21_format1.py OUT.json``. Kept
as a record; the suite does not run it."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any

from bot.engine.base import Action, ActionKind, Event, Phase
from bot.engine.games.casino21 import Casino21
from bot.engine.shuffle import seeded_entropy

K = ActionKind
SEED = "casino21-format1"
CARD_EVENTS = ("dealt", "drew", "bank_dealt", "bank_hole", "bank_draw")
RESULTS = ("win", "bank_bust", "push", "lose", "bust")


def new(players: int = 3, **options: Any) -> Casino21:
    game = Casino21(1, options, entropy=seeded_entropy(SEED))
    for p in range(1, players + 1):
        game.apply(Action(K.JOIN, p))
    return game


def record(events: list[Event]) -> dict[str, Any]:
    """What a move dealt and settled: the cards (in order) and each result."""
    cards: list[str] = []
    for e in events:
        if e.kind in CARD_EVENTS:
            cards += e.data["cards"] if "cards" in e.data else [e.data["card"]]
    results = [[e.player, e.kind, e.data["net"]] for e in events if e.kind in RESULTS]
    seeds = [e.data["seed"] for e in events if e.kind == "seed_revealed"]
    return {"cards": cards, "results": results, "seeds": seeds}


def next_move(game: Casino21) -> Action:
    """A fixed choice for whoever may move: value an ace (fallback), bet 7, draw one card
    under 15, else stand; the timer when nobody may; the host starts between rounds."""
    view = game.public_view()
    for s in view["seats"]:
        p = s["player"]
        kinds = game.legal_actions(p)
        if K.CHOOSE_ACE in kinds:
            return Action(K.CHOOSE_ACE, p, value=11 if s["total"] + 11 <= 21 else 1)
        if K.BET in kinds:
            return Action(K.BET, p, amount=min(7, s["stack"]))
        if K.DRAW in kinds:
            return Action(K.DRAW, p, amount=1 if s["total"] < 15 else 0)
    if game.phase in (Phase.LOBBY, Phase.BETWEEN_ROUNDS):
        return Action(K.START, game.host)
    return Action(K.TIMEOUT)


def continuation(game: Casino21, rounds: int = 2) -> list[dict[str, Any]]:
    """The moves until ``rounds`` more rounds are settled, with what each dealt."""
    out: list[dict[str, Any]] = []
    settled = 0
    while settled < rounds and len(out) < 200:
        action = next_move(game)
        events = game.apply(action)
        settled += sum(e.kind == "round_settled" for e in events)
        out.append({"action": action.to_dict(), **record(events)})
    out.append({"stacks": {str(s.player): s.stack for s in game.seats}})
    return out


def lobby() -> Casino21:
    return new()


def betting_ace_pending() -> Casino21:
    game = new()
    game.rig_next_round("TS 9S AH 7H")
    game.apply(Action(K.START, 1))
    game.apply(Action(K.BET, 1, amount=10))
    game.apply(Action(K.BET, 2, amount=20))  # A 7: the ace waits for its value
    return game


def betting_unrigged() -> Casino21:
    game = new(decks=2, bank_bust_bonus="half")
    game.apply(Action(K.START, 1))
    game.apply(Action(K.BET, 3, amount=5))
    game.apply(Action(K.SIT_OUT, 2))
    return game


def playing_unrigged() -> Casino21:
    game = new()
    game.apply(Action(K.START, 1))
    while game.phase is Phase.BETTING:
        game.apply(next_move(game))
    game.apply(next_move(game))  # one player moved in the second turn
    return game


def playing_turn_three() -> Casino21:
    game = new()
    game.rig_next_round("2S 3S 2H 3H TD 9D TC 7C 2D 2C 4H")
    game.apply(Action(K.START, 1))
    for p in (1, 2, 3):
        game.apply(Action(K.BET, p, amount=4))
    while game.turn < 3:
        game.apply(next_move(game))
    game.apply(next_move(game))  # one player moved in this turn
    return game


def playing_drawn_ace_pending() -> Casino21:
    game = new(2)
    game.rig_next_round("TS 4S 9H 5H TD 7D AC 3C")
    game.apply(Action(K.START, 1))
    game.apply(Action(K.BET, 1, amount=10))
    game.apply(Action(K.BET, 2, amount=10))
    game.apply(Action(K.DRAW, 1, amount=2))  # A 3: the ace waits
    return game


def between_rounds_with_rig_next() -> Casino21:
    game = new(2, wager_requirement=50)
    game.apply(Action(K.START, 1))
    while game.phase is not Phase.BETWEEN_ROUNDS:
        game.apply(next_move(game))
    game.apply(Action(K.LEAVE, 2, confirm=True))
    game.apply(Action(K.JOIN, 2, amount=30))  # own funds at a second sitting
    game.rig_next_round("KS AS 5D 6D")
    return game


def stack_at_zero() -> Casino21:
    game = new(2, max_bet=200)
    game.rig_next_round("TS 5S TH 8H TD 8D")
    game.apply(Action(K.START, 1))
    game.apply(Action(K.BET, 1, amount=100))
    game.apply(Action(K.BET, 2, amount=10))
    game.apply(Action(K.DRAW, 1, amount=0))
    game.apply(Action(K.DRAW, 2, amount=0))  # the host's 15 loses: stack 0
    game.apply(Action(K.START, 1))
    game.apply(Action(K.BET, 2, amount=10))
    return game


SCENARIOS: dict[str, Callable[[], Casino21]] = {
    f.__name__: f
    for f in (
        lobby,
        betting_ace_pending,
        betting_unrigged,
        playing_unrigged,
        playing_turn_three,
        playing_drawn_ace_pending,
        between_rounds_with_rig_next,
        stack_at_zero,
    )
}


def main(path: str) -> None:
    out: dict[str, Any] = {"written_by": "9a79549", "seed": SEED, "tables": {}}
    for name, build in SCENARIOS.items():
        game = build()
        snapshot = json.loads(json.dumps(game.to_dict()))
        twin = Casino21.from_dict(snapshot, entropy=seeded_entropy(SEED))
        out["tables"][name] = {
            "snapshot": snapshot,
            "public_view": json.loads(json.dumps(game.public_view())),
            "moves": continuation(twin),
        }
    with open(path, "w", encoding="utf-8") as f:
        json.dump(out, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main(sys.argv[1])
