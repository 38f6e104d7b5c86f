"""Helpers of the scripted Black Jack (classic) tests: a table, moves, a rigged round and
what the events moved or showed."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from typing import Any

from bot.engine.base import Action, ActionKind, Event, Visibility
from bot.engine.games.blackjack import BlackjackGame, BlackjackOptions
from bot.engine.shuffle import seeded_entropy

K = ActionKind


def table(players: Iterable[int] = (1,), stack: int = 1000, **opts: Any) -> BlackjackGame:
    """A table with seated players (the first is the host) and a deterministic shoe."""
    g = BlackjackGame(BlackjackOptions(**opts), entropy=seeded_entropy("classic-tests"))
    for p in players:
        g.apply(Action(K.JOIN, p, amount=stack))
    return g


def act(g: BlackjackGame, kind: ActionKind, player: int | None = None, **kw: Any) -> list[Event]:
    return g.apply(Action(kind, player, **kw))


def play_round(g: BlackjackGame, deck: list[str], bets: dict[int, int]) -> list[Event]:
    """Rig the next cards, start a round and place the bets (in seat order)."""
    g.rig(deck)
    events = act(g, K.START, g.host)
    for p, amount in bets.items():
        events += act(g, K.BET, p, amount=amount)
    return events


def flows(events: Iterable[Event]) -> dict[str, int]:
    """Net money per endpoint (in minus out)."""
    out: dict[str, int] = defaultdict(int)
    for e in events:
        for m in e.money:
            out[m.src] -= m.amount
            out[m.dst] += m.amount
    return dict(out)


def kinds(events: Iterable[Event]) -> list[str]:
    return [e.kind for e in events]


def summary(events: Iterable[Event]) -> dict[str, Any]:
    found = [e for e in events if e.kind == "round_settled"]
    assert len(found) == 1, kinds(events)
    return dict(found[0].data)


def public(events: Iterable[Event]) -> list[Event]:
    return [e for e in events if e.visibility is Visibility.PUBLIC]
