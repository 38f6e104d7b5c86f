"""Write ``pirate21_format1.json``: Pirate 21 tables stored by the code before Pirate 21
shared the ``TableGame`` base (format 1, ``legacy.Game``), each with the moves that follow
and every event the old code gave for them. Kept as a record; run with that code on the
path (main at 9a79549): ``python tests/engine/golden/make_pirate21_format1.py OUT.json``.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from bot.engine.base import Action, ActionKind
from bot.engine.games.pirate21 import Pirate21
from bot.engine.shuffle import seeded_entropy

A = ActionKind


def policy(game: Any) -> Action:
    """Hit below 15 (by the player's own view) while the pile gives cards, else stand."""
    p = game.to_act
    total = game.private_view(p)["you"]["total"]
    hit = total < 15 and A.HIT in game.legal_actions(p)
    return Action(A.HIT if hit else A.STAND, p)


def case(name: str, options: dict[str, Any], players: int, before: int, after: int) -> dict:
    label = f"format1:{name}"
    game = Pirate21(1, options, entropy=seeded_entropy(label))
    for p in range(2, players + 1):
        game.apply(Action(A.JOIN, p))
    moves = [Action(A.START, 1)] if before >= 0 else []
    for action in moves:
        game.apply(action)
    for _ in range(max(before, 0)):
        game.apply(policy(game))
    stored = json.loads(json.dumps(game.to_dict()))
    script: list[dict[str, Any]] = []
    for _ in range(after):
        if game.phase.value == "finished":
            break
        action = Action(A.START, 1) if game.phase.value == "lobby" else policy(game)
        events = [e.to_dict() for e in game.apply(action)]
        script.append({"action": action.to_dict(), "events": events})
    return {"name": name, "label": label, "snapshot": stored, "moves": script}


def main(out: str) -> None:
    cases = [
        case("standard-lobby", {}, 3, -1, 12),
        case("standard-mid-round", {}, 3, 7, 12),
        case("shared-mid-round", {"variant": "shared"}, 4, 5, 12),
        # a 12-card deck: piles reshuffled from the played cards, a seed waiting for its
        # showdown, the spare committed
        case("shared-reshuffled", {"variant": "shared", "deck": "12/0/0"}, 3, 9, 30),
        case("shared-old-meaning", {"variant": "shared", "coins_per_player": 2}, 2, 3, 20),
    ]
    with open(out, "w") as f:
        json.dump({"written_by": "9a79549", "cases": cases}, f, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main(sys.argv[1])
