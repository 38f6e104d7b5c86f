"""The money a game's events move, kept as balances per endpoint (``seat:1``, ``pot``,
``fund``, ``house``, ``claim:1``, ``wallet:1``) and checked against the game's state: the
scripted tests of every game feed it their events (the bank's own checks are in
``tests/bank/ledger.py``)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from bot.engine.base import Event
from bot.engine.phases import ROUND_PHASES
from bot.engine.registry import AnyGame

#: Endpoints whose balance is never below zero, after every single transfer.
HELD = ("seat:", "pot", "fund")


class Ledger:
    """Balances of every money endpoint, fed with a game's events in order."""

    def __init__(self) -> None:
        self.bal: Counter[str] = Counter()
        self.events: list[Event] = []

    def feed(self, events: Iterable[Event]) -> list[Event]:
        """Apply every transfer of ``events`` (a list of them is returned)."""
        out = list(events)
        for ev in out:
            self.events.append(ev)
            for m in ev.money:
                assert m.amount >= 0 and m.src != m.dst, (m, ev.kind)
                self.bal[m.src] -= m.amount
                self.bal[m.dst] += m.amount
                for end in (m.src, m.dst):
                    if end.startswith(HELD):
                        assert self.bal[end] >= 0, (end, ev)
        return out

    def check(self, g: AnyGame) -> None:
        """The balances are the game's: each seat's its stack (0 once it left), the pot's
        and the fund's theirs, no stake left between rounds, nothing created."""
        if not g.MONEY:  # a game for coins (Pirate 21): no money moves at all
            assert not any(self.bal.values()), self.bal
            return
        assert sum(self.bal.values()) == 0
        stacks = {s.player: s.stack for s in g.seats}
        for end, balance in self.bal.items():
            if end.startswith("seat:"):
                assert balance == stacks.get(int(end[5:]), 0), (end, balance, stacks)
        for player, stack in stacks.items():
            assert self.bal[f"seat:{player}"] == stack, player
        assert self.bal["pot"] == g.pot
        assert self.bal["fund"] == getattr(g, "fund", 0)
        if g.phase not in ROUND_PHASES:
            assert g.pot == 0
