"""What the table service holds for each table, and what an action returns."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from typing import Any

import orjson

from bot.bank.models import FloatMove
from bot.engine.base import Event
from bot.engine.options import OptionKind, OptionSpec, check_values
from bot.engine.registry import AnyGame

LIVE = "live"
FORUM = "forum"
DAY = 24 * 3600


_SECONDS = OptionKind.INT

#: The settings every table takes besides its game's options (``/table open``, ``/rules``).
SETTINGS: tuple[OptionSpec, ...] = (
    OptionSpec(
        "pace",
        OptionKind.CHOICE,
        LIVE,
        "live (timers in seconds) or forum (timers in days, pings)",
        "live (minuteurs en secondes) ou forum (minuteurs en jours, mentions)",
        choices=(LIVE, FORUM),
    ),
    OptionSpec(
        "bet_seconds",
        _SECONDS,
        None,
        "seconds to bet (none: 60, or a day at forum pace)",
        "secondes pour miser (none\u00a0: 60, ou un jour au rythme forum)",
        min=10,
        max=7 * DAY,
        none=True,
    ),
    OptionSpec(
        "turn_seconds",
        _SECONDS,
        None,
        "seconds to play a turn (none: 90, or a day at forum pace)",
        "secondes pour jouer son tour (none\u00a0: 90, ou un jour au rythme forum)",
        min=10,
        max=7 * DAY,
        none=True,
    ),
    OptionSpec(
        "idle_seconds",
        _SECONDS,
        None,
        "seconds without a move before the table closes (none: 30 min, or 7 days at forum pace)",
        "secondes sans aucun coup avant la fermeture de la table"
        " (none\u00a0: 30 min, ou 7 jours au rythme forum)",
        min=60,
        max=30 * DAY,
        none=True,
    ),
    OptionSpec(
        "auto_next",
        OptionKind.BOOL,
        True,
        "start the next round automatically",
        "enchaîner automatiquement la manche suivante",
    ),
)


@dataclass(frozen=True)
class TableSettings:
    """Service-level settings of a table (the engine's options live in the game)."""

    pace: str = LIVE
    bet_seconds: int | None = None  # None: the pace's default
    turn_seconds: int | None = None
    idle_seconds: int | None = None
    auto_next: bool = True  # start the next round by itself after a round with bets
    name: str = ""
    locale: str = "en"
    # only the members the host invited may sit (bot/tables/invites.py); hidden from the
    # lobby for the others (issue 39)
    private: bool = False

    NAMES = tuple(spec.name for spec in SETTINGS)

    def validate(self) -> TableSettings:
        """Raise InvalidOptions for a bad pace or timer (typed values)."""
        check_values(SETTINGS, {name: getattr(self, name) for name in self.NAMES})
        return self

    @property
    def bet_timer(self) -> int:
        """Seconds players have to bet."""
        if self.bet_seconds is not None:
            return self.bet_seconds
        return DAY if self.pace == FORUM else 60

    @property
    def turn_timer(self) -> int:
        """Seconds a player has to act."""
        if self.turn_seconds is not None:
            return self.turn_seconds
        return DAY if self.pace == FORUM else 90

    @property
    def idle_timer(self) -> int:
        """Seconds without any action before the table closes itself."""
        if self.idle_seconds is not None:
            return self.idle_seconds
        return 7 * DAY if self.pace == FORUM else 30 * 60

    def to_dict(self) -> dict[str, Any]:
        """JSON-able form (a public table's without ``private``: the shape stored before
        private tables, so an older bot reads it as it was)."""
        out = asdict(self)
        if not self.private:
            del out["private"]
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TableSettings:
        """Inverse of :meth:`to_dict` (unknown keys ignored)."""
        names = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in names})


@dataclass(slots=True)
class Table:
    """One table: where it lives, its settings, its game and its version."""

    id: int
    guild_id: int
    channel_id: int
    parent_id: int | None
    message_id: int | None
    game_key: str
    host_id: int
    settings: TableSettings
    game: AnyGame
    version: int
    status: str = "open"
    # per user, the table version their last action produced: a button rendered before it
    # is stale for that user (a double click), while other players' clicks still count
    last_acted: dict[int, int] = field(default_factory=dict)
    deadline_key: str | None = None  # which turn the running deadline belongs to
    deadline_due: float | None = None
    # the game's round number and the table version that started it: a button rendered
    # before that version belongs to a round already over (refused, nothing done)
    round_no: int | None = None
    round_version: int = 0
    # the version of the snapshot in the tables row: the moves after it are only in the
    # action log (table_actions), replayed on a load
    snapshot_version: int = 0
    # the house's money of this table is its float (bot/tables/floats.py): from its opening,
    # or for a table opened before floats existed, from its first round after the upgrade
    has_float: bool = False
    # in memory only (the timer heap): when the idle timeout falls, and the dues of this
    # table's idle and deadline entries in the heap (None: no entry)
    idle_due: float = 0.0
    moved_at: float = 0.0  # the last move's time (the idle timer counts from it)
    armed_idle: float | None = None
    armed_deadline: float | None = None
    render_cache: Any = field(default=None, repr=False, compare=False)  # its buttons (bot.ui)

    @property
    def is_open(self) -> bool:
        """True until the table is closed."""
        return self.status == "open"

    def options(self) -> dict[str, Any]:
        """The game's options as the table was opened with them."""
        return dict(self.game.options.to_dict())

    def snapshot_json(self) -> str:
        """The whole table state as stored in ``tables.state``: the engine snapshot and the
        service's own fields."""
        # orjson: compact JSON like json.dumps(separators=(",", ":")) (UTF-8 instead of
        # \u escapes), ~10x faster; a snapshot is written on every move
        return orjson.dumps({"game": self.game.to_dict(), "service": self.service_state()}).decode()

    def service_state(self) -> dict[str, Any]:
        """The service's own fields stored beside the engine snapshot."""
        return {
            "last_acted": {str(k): v for k, v in self.last_acted.items()},
            "deadline_key": self.deadline_key,
            "deadline_due": self.deadline_due,
            "round_no": self.round_no,
            "round_version": self.round_version,
            "float": self.has_float,
        }


@dataclass
class Outcome:
    """The result of one action: the table after it and the events it produced."""

    table: Table
    events: list[Event]
    replayed: bool = False  # the interaction was seen before: nothing was done
    closed: bool = False  # the table closed with this action
    round_settled: bool = False
    auto_started: bool = False
    notes: list[str] = field(default_factory=list)
    # the float's fill or credit this action made (or a fill the treasury could not make)
    floats: list[FloatMove] = field(default_factory=list)
