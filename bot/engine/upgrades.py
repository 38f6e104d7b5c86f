"""Snapshots written by older versions of the games, brought to today's shape.

Each function turns a snapshot of one format into the next (a game lists them in its
``UPGRADES``; :meth:`~bot.engine.base.TableGame.upgrade` runs them in turn), so a table
stored by an older version restores and plays on with the same cards. Format 1 is each
game's shape before the :class:`~bot.engine.base.TableGame` base; its field names and
values are frozen here as that code wrote them, whatever the games call them today.
Tested with the stored snapshots of ``tests/fixtures`` and ``tests/engine/golden``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .cards import Card, build_deck, parse_pirate_deck, pirate_deck_spec
from .phases import ROUND_PHASES, Phase
from .shuffle import Shoe, shuffled

# --------------------------------------------------------------------------- Black Jack


def blackjack_v1(data: Mapping[str, Any]) -> dict[str, Any]:
    """A ``classic`` snapshot (format 1: seats as [player, stack] pairs, bets and the
    players waited for in lists of their own) in format 2."""
    phase = Phase(data["phase"])
    bets = {int(p): int(b) for p, b in data["bets"]}
    hands = data["hands"]
    insurance = {int(p): int(s) for p, s in data["insurance"]}

    def in_pot(p: int) -> int:
        if phase is Phase.BETTING:
            return bets.get(p, 0)
        if phase in (Phase.INSURANCE, Phase.PLAYING):
            unsettled = (int(h["bet"]) for h in hands if h["player"] == p and h["result"] is None)
            return sum(unsettled) + insurance.get(p, 0)
        return 0

    rigged = data.get("rigged")
    old = ("bets", "pending_bets", "insurance_pending", "rigged")
    return {
        **{k: v for k, v in data.items() if k not in old},
        "game": "blackjack",
        "format": 2,
        "seats": [
            {"player": int(p), "stack": int(s), "bet": bets.get(int(p), 0), "in_pot": in_pot(p)}
            for p, s in data["seats"]
        ],
        "waiting": _blackjack_waiting(phase, data),
        "sequential": phase is Phase.PLAYING,
        "spare": data.get("spare"),
        "unrevealed": list(data.get("unrevealed", [])),
        **({"rig": {"cards": list(rigged), "only": False}} if rigged else {}),
    }


def _blackjack_waiting(phase: Phase, data: Mapping[str, Any]) -> list[int]:
    hands, current = data["hands"], int(data["current"])
    if phase is Phase.BETTING:
        return [int(p) for p in data["pending_bets"]]
    if phase is Phase.INSURANCE:
        return [int(p) for p in data["insurance_pending"]]
    if phase is Phase.PLAYING and current < len(hands):
        return [int(hands[current]["player"])]
    return []


# --------------------------------------------------------------------------- Casino 21


def _casino21_waits(phase: Phase, seat: Mapping[str, Any]) -> bool:
    """Whether a format-1 seat is waited for: a bet or an ace (first turn), a draw or an
    ace (following turns)."""
    pending = None in seat["values"]
    if phase is Phase.BETTING:
        return pending or seat["status"] == "idle"
    if phase is Phase.PLAYING:
        return pending or (seat["status"] == "playing" and not seat["moved"])
    return False


def casino21_v1(data: Mapping[str, Any]) -> dict[str, Any]:
    """A snapshot of the code before the base (format 1: the seats' ``moved``, a
    ``seed_revealed`` flag, ``rig``/``rig_next``) in format 2."""
    phase = Phase(data["phase"])
    seats = [
        {
            **{k: v for k, v in d.items() if k != "moved"},
            "status": "out" if d["status"] == "idle" else d["status"],
        }
        for d in data["seats"]
    ]
    shoe = None if data["seed_revealed"] or data["shoe"] is None else dict(data["shoe"])
    if shoe is not None and data["rig"] is not None:  # this round's rigged order
        rest = shuffled(build_deck(shoe["spec"]), bytes.fromhex(shoe["seed"]))
        for code in data["rig"]:
            rest.remove(Card.parse(code))
        shoe["cards"] = [*data["rig"], *(c.code for c in rest)]
    old = ("ever_seated", "seed_revealed", "rig", "rig_next")
    out = {
        **{k: v for k, v in data.items() if k not in old},
        "format": 2,
        "seats": seats,
        "pot": sum(int(d["in_pot"]) for d in seats),
        "waiting": [int(d["player"]) for d in data["seats"] if _casino21_waits(phase, d)],
        "sequential": False,
        "shoe": shoe,
        "spare": None,
        "unrevealed": [],
        "last_summary": None,
    }
    if data["rig_next"]:  # the next round's rigged cards
        out["rig"] = {"cards": list(data["rig_next"]), "only": False, "skip": {}}
    return out


# --------------------------------------------------------------------------- Pirate 21

_PIRATE21_V1_ONLY = (
    "version",
    "players",
    "order",
    "coins",
    "turn",
    "pile",
    "pile_pos",
    "pile_seed",
    "pile_source",
    "pending_reveals",
    "last_result",
    "rigged",
)


def pirate21_v1(data: Mapping[str, Any]) -> dict[str, Any]:
    """A snapshot of the code before the base (``version`` 1: players, coins and the pile
    in lists of their own) in format 2."""
    order = [int(p) for p in data["order"] or data["players"]]
    coins = {int(p): int(n) for p, n in data["coins"]}
    playing = Phase(data["phase"]) is Phase.PLAYING
    spec = pirate_deck_spec(parse_pirate_deck(data["options"].get("deck")))
    in_round = [int(p) for p in data["in_round"]]
    rigged = data.get("rigged")
    return {
        **{k: v for k, v in data.items() if k not in _PIRATE21_V1_ONLY},
        "format": 2,
        "seats": [{"player": p, "stack": coins[p], "bet": 0, "in_pot": 0} for p in order],
        "waiting": in_round[int(data["turn"]) :] if playing else [],
        "sequential": bool(data["order"]),
        "shoe": _pirate21_pile(data, spec),
        "spare": data.get("spare"),
        "unrevealed": [{"seed": s, "spec": spec} for s in data["pending_reveals"]],
        "last_summary": data["last_result"],
        **({"rig": {"cards": list(rigged), "only": True, "skip": {}}} if rigged else {}),
    }


def _pirate21_pile(data: Mapping[str, Any], spec: str) -> dict[str, Any] | None:
    """The pile as the base's shoe: its seed and position, and its cards when they are not
    the seed's whole deck (a reshuffled pile, a rigged one)."""
    if data["pile_seed"] is None:
        return None
    shoe = Shoe(spec, bytes.fromhex(data["pile_seed"]), int(data["pile_pos"]))
    pile = list(data["pile"])
    if [c.code for c in shoe.order] == pile:
        return shoe.to_dict()
    return {**shoe.to_dict(), "cards": pile}


# --------------------------------------------------------------------------- Sept et demi

#: The game's own snapshot fields, as format 1 wrote them too.
SEPT_ET_DEMI_STATE: tuple[str, ...] = ("banker", "game_host", "rounds_played", "fund", "fund_open")
SEPT_ET_DEMI_STATE += ("bank_hidden", "bank_shown", "round_order", "result")


def sept_et_demi_v1(data: Mapping[str, Any]) -> dict[str, Any]:
    """A snapshot of the code before the base (``version`` 1: every player ever seated in
    ``players``, a ``cursor`` into the round's order, the test rig under names of its
    own) in format 2."""
    phase = Phase(data["phase"])
    playing = phase in ROUND_PHASES
    seats = [
        {
            **{k: d[k] for k in ("stack", "bet", "status", "hidden", "pending")},
            "player": d["id"],
            "in_pot": d["bet"] if playing and d["status"] in ("in", "stood") else 0,
            "shown": list(d["shown"]),
        }
        for d in data["players"]
        if d["seated"]
    ]
    order, cursor = [int(p) for p in data["round_order"]], int(data["cursor"])
    waiting = {
        Phase.BETTING: order[cursor:],
        Phase.PLAYING: order[cursor : cursor + 1],
        Phase.BANK: [data["banker"]],
    }.get(phase, [])
    shoe = dict(data["shoe"]) if playing and data["shoe"] is not None else None
    if shoe is not None and data.get("test_shoe_order"):
        shoe["cards"] = list(data["test_shoe_order"])
    kept = ("game", "options", "host", "phase", "round", "pot", "shuffles", "last_summary")
    out: dict[str, Any] = {k: data[k] for k in (*kept, *SEPT_ET_DEMI_STATE) if k != "game_host"}
    out.update(format=2, seats=seats, waiting=waiting, sequential=playing, shoe=shoe)
    out.update(spare=None, unrevealed=[], game_host=None if phase is Phase.LOBBY else data["host"])
    if data["votes"]:
        out["votes"] = sorted(data["votes"])
    if data["players"]:
        out["places"] = [d["id"] for d in data["players"]]
    if data.get("test_rig_next"):
        out["rig"] = {"cards": list(data["test_rig_next"]), "only": False, "skip": {}}
    return out
