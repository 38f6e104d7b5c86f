"""Where a game stands and the timer that runs there, as data."""

from __future__ import annotations

from dataclasses import dataclass

from .enums import FastEnum


class Phase(FastEnum):
    """Where a game stands; each game uses the subset it needs."""

    LOBBY = "lobby"  # seats open, not started
    BETTING = "betting"
    INSURANCE = "insurance"
    PLAYING = "playing"  # players' turns
    BANK = "bank"  # a human banker plays the bank's hand (Sept et demi)
    BETWEEN_ROUNDS = "between_rounds"
    FINISHED = "finished"


#: The phases of a round being played (stakes may be on the table).
ROUND_PHASES = frozenset({Phase.BETTING, Phase.INSURANCE, Phase.PLAYING, Phase.BANK})
#: The phases between rounds (seats may change, the next round may start).
BETWEEN = frozenset({Phase.LOBBY, Phase.BETWEEN_ROUNDS})


class DeadlineKind(FastEnum):
    """Which timer runs: the table's bet timer or its turn timer."""

    BET = "bet"
    TURN = "turn"


@dataclass(frozen=True, slots=True)
class Deadline:
    """The timer the table should run now: its kind, and a key naming the turn it belongs
    to (the same key while the same turn goes on: the timer is not restarted)."""

    kind: DeadlineKind
    key: str


#: The timer of each phase in every game (a phase missing here runs none).
DEADLINES: dict[Phase, DeadlineKind] = {
    Phase.BETTING: DeadlineKind.BET,
    Phase.INSURANCE: DeadlineKind.TURN,
    Phase.PLAYING: DeadlineKind.TURN,
    Phase.BANK: DeadlineKind.TURN,
}
