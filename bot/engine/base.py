"""TableGame: the concrete base every game extends (the python-chess way).

The base does the work every table shares, once: seats in seat order, the host, stacks
and stakes in integer units, phases and who the game waits for, deadlines as data, the
shoe with its public commitment and the reveal of every seed, the rigging hook for tests,
joining, leaving, topping up, starting, betting, timing out, voting to stop and closing,
snapshots, the public/private view split and legal actions. A game subclasses it, declares
its options and its own moves, and overrides a few hooks (the ``# hooks`` sections below):
its module holds its rules and little else.

``apply(action)`` first asks :meth:`TableGame.refusal` why the action is not allowed (the
same checks ``legal_actions`` runs on a probe of each candidate kind, so the two never
disagree) and raises that :class:`IllegalAction` with the state unchanged, then performs it
and returns the events. The checks return their refusal rather than raise it: probing a
kind costs no exception. Every money movement goes through :meth:`TableGame.transfer`,
which keeps stacks and the pot equal to what the bank holds.

The vocabulary a game needs is re-exported here, so ``from .base import ...`` is its one
import of the engine's plumbing.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import Any, ClassVar, Generic, Self, TypeVar, cast

from .actions import Action, ActionKind
from .cards import Card
from .errors import (
    ALREADY_BET,
    ALREADY_SEATED,
    ALREADY_VOTED,
    BAD_AMOUNT,
    BET_OUT_OF_RANGE,
    GAME_OVER,
    IN_ROUND,
    INSUFFICIENT_STACK,
    NOT_BETTING,
    NOT_ENOUGH_PLAYERS,
    NOT_HOST,
    NOT_SEATED,
    NOT_YOUR_TURN,
    SHARED_CODES,
    SYSTEM_ONLY,
    TABLE_FULL,
    UNKNOWN_ACTION,
    WRONG_PHASE,
    IllegalAction,
    InvalidOptions,
    refuse,
)
from .events import (
    BET,
    CLOSED,
    FUND,
    HOST_CHANGED,
    HOUSE,
    JOINED,
    LEFT,
    POT,
    ROUND_CANCELLED,
    ROUND_REFUNDED,
    ROUND_SETTLED,
    SAT_OUT,
    SEED_REVEALED,
    SHUFFLE,
    TOPPED_UP,
    VOTED_STOP,
    Event,
    Money,
    MoneyKind,
    Visibility,
    claim,
    exact_figure,
    reveal_event,
    seat,
    wallet,
)
from .options import GameOptions
from .phases import BETWEEN, DEADLINES, ROUND_PHASES, Deadline, DeadlineKind, Phase
from .shuffle import Entropy, Retired, Shoe, commitment, secure_entropy
from .summaries import RoundSummary, round_summary
from .views import GamePart, PrivatePart, PrivateView, SeatView, ShoeView, TableView, YouView

__all__ = [
    "FUND",
    "HOUSE",
    "POT",
    "ROUND_SETTLED",
    "SEED_REVEALED",
    "Action",
    "ActionKind",
    "BuyIn",
    "Deadline",
    "DeadlineKind",
    "Event",
    "IllegalAction",
    "InvalidOptions",
    "Money",
    "MoneyKind",
    "Phase",
    "Seat",
    "TableGame",
    "Visibility",
    "claim",
    "exact_figure",
    "reveal_event",
    "seat",
    "wallet",
]

_K = ActionKind
# Members read on every check, bound once (an Enum's class attribute goes through its
# metaclass's __getattr__ in Python 3.11: several times a plain attribute's cost).
_JOIN, _LEAVE, _TOP_UP, _START = _K.JOIN, _K.LEAVE, _K.TOP_UP, _K.START
_BET, _SIT_OUT, _VOTE_STOP = _K.BET, _K.SIT_OUT, _K.VOTE_STOP
_TIMEOUT, _CLOSE = _K.TIMEOUT, _K.CLOSE
_LOBBY, _BETTING, _BETWEEN_ROUNDS = Phase.LOBBY, Phase.BETTING, Phase.BETWEEN_ROUNDS
_FINISHED = Phase.FINISHED
_SYSTEM_KINDS = (_START, _TIMEOUT, _CLOSE)
_JOIN_KINDS = (_JOIN,)
_BET_KINDS = (_BET, _SIT_OUT)
_NO_KINDS: frozenset[ActionKind] = frozenset()
# the kinds whose probe depends on the state (the lowest bet, a welcome stake)
_STATE_PROBES = frozenset({_BET, _JOIN})


@lru_cache(maxsize=4096)
def probe_action(
    kind: ActionKind, player: int | None, amount: int | None = None, value: int | None = None
) -> Action:
    """The action ``legal_actions`` checks for a kind (a leave is probed confirmed): an
    Action is immutable and costs microseconds to build, and the renderer asks every seat
    on every move."""
    return Action(kind, player, amount=amount, value=value, confirm=True)


@dataclass(slots=True)
class Seat:
    """A seated player: the stack (money, or a game's points), this round's bet (shown at
    the seat), ``in_pot``, the part of the pot still staked by the player (a settled
    stake has left it), and ``last_bet``, the bet of the round before (0: none; the
    table's "Same bet" repeats it). A game subclasses it for its own per-seat state."""

    player: int
    stack: int = 0
    bet: int = 0
    in_pot: int = 0
    # keyword-only: the subclasses' fields keep their places in their constructors
    last_bet: int = field(default=0, kw_only=True)

    def to_dict(self) -> dict[str, Any]:
        """JSON-able form (a subclass adds its fields: ``{**Seat.to_dict(self), ...}``)."""
        out = {"player": self.player, "stack": self.stack, "bet": self.bet, "in_pot": self.in_pot}
        if self.last_bet:  # absent when 0: the snapshots of before read the same
            out["last_bet"] = self.last_bet
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
        """Inverse of :meth:`to_dict` for the base fields (a subclass reads its own)."""
        return cls(int(data["player"]), int(data["stack"]), int(data["bet"]), int(data["in_pot"]))


@dataclass(frozen=True, slots=True)
class BuyIn:
    """What sitting down takes from the wallet: exactly ``fixed``, or at least ``minimum``
    (``welcome``: the game gives a welcome stake, so nothing by default)."""

    fixed: int | None = None
    minimum: int = 1
    welcome: bool = False


def keep_only(order: Sequence[Card], cards: Iterable[Card]) -> list[Card]:
    """The ``cards`` in the order they take in ``order`` (a shuffled whole deck); cards
    ``order`` lacks follow in their own order."""
    cards = list(cards)
    want = Counter(cards)
    kept: list[Card] = []
    for card in (*order, *cards):
        if want[card] > 0:
            want[card] -= 1
            kept.append(card)
    return kept


def pro_rata(owed: Sequence[int], available: int) -> tuple[list[int], list[str | None]]:
    """What ``available`` pays of each amount ``owed``, and the exact share where it was
    rounded: all of them when it can, else pro rata rounded down, the remainder units one
    each to the first ones not paid in full (a guarantee fund short of the rests)."""
    need = sum(owed)
    if need <= available:
        return list(owed), [None] * len(owed)
    shares = [available * r // need for r in owed]
    exacts = [str(Fraction(available * r, need)) if available * r % need else None for r in owed]
    left = available - sum(shares)
    for i, r in enumerate(owed):
        if left == 0:
            break
        if r > shares[i]:
            shares[i] += 1
            left -= 1
    return shares, exacts


#: The seat type of a game (``TableGame[CasinoSeat]``: its seats are CasinoSeats).
S = TypeVar("S", bound=Seat)
#: The refusal a check returns (None: allowed).
Refusal = IllegalAction | None
#: One of the base's checks of a kind of action by a seated player.
_Check = Callable[[Any, Action, Any], Refusal]


class TableGame(Generic[S]):
    """A card table. Mutable; ``apply`` is atomic: on IllegalAction nothing has changed.
    Generic in its seat type: a game with its own per-seat state subclasses
    ``TableGame[ItsSeat]`` and sets ``SEAT = ItsSeat``."""

    GAME: ClassVar[str]  # the registry key
    Options: ClassVar[type[GameOptions]]
    SEAT: type[S] = cast(Any, Seat)  # the class of a new seat (a game's own subclass)
    MIN_PLAYERS: ClassVar[int] = 1  # seated players a START needs
    MAX_PLAYERS: ClassVar[int] = 8
    MONEY: ClassVar[bool] = True  # False: stacks are game points, no Money is emitted
    FORMAT: ClassVar[int] = 1  # the snapshot format; older ones go through ``UPGRADES``
    #: ``UPGRADES[n - 1]`` turns a snapshot of format n into format n + 1
    UPGRADES: ClassVar[tuple[Callable[[Mapping[str, Any]], Mapping[str, Any]], ...]] = ()
    JOIN_PHASES: ClassVar[frozenset[Phase]] = BETWEEN
    TOP_UP_PHASES: ClassVar[frozenset[Phase]] = frozenset()  # empty: no top-up
    BETS: ClassVar[bool] = True  # False: BET and SIT_OUT are moves the game does not know
    MOVES: ClassVar[Mapping[Phase, tuple[ActionKind, ...]]] = {}  # the waited-for player's
    OPEN_MOVES: ClassVar[Mapping[Phase, tuple[ActionKind, ...]]] = {}  # any seated player's
    VOTE_STOP: ClassVar[bool] = False  # a majority of the seated players may end the game
    KEEP_PLACE: ClassVar[bool] = False  # a player sitting down again keeps their place
    SPARE: ClassVar[bool] = False  # commit the next shoe's seed with the one in use
    SHOE_PER_ROUND: ClassVar[bool] = False  # a new shoe each round, retired at its end
    DEADLINES: ClassVar[Mapping[Phase, DeadlineKind]] = DEADLINES  # the timer of each phase
    ILLEGAL_CODES: ClassVar[frozenset[str]] = SHARED_CODES

    def __init__(
        self,
        options: GameOptions | Mapping[str, Any] | None = None,
        *,
        host: int | None = None,
        entropy: Entropy = secure_entropy,
    ) -> None:
        self.options = self.Options.build(options)
        self.entropy = entropy
        self.host = host
        self.phase = _LOBBY
        self.round = 0
        self.seats: list[S] = []  # seated players in seat order
        self._seat_of: dict[int, S] = {}
        self._places: list[int] = []  # KEEP_PLACE: every player ever seated, in order
        self.pot = 0
        self.waiting: list[int] = []  # who the game waits for in this step
        self.sequential = False  # only waiting[0] may move (else any of them, any order)
        self.votes: set[int] = set()
        self.last_summary: dict[str, Any] | None = None
        self.shoe: Shoe | None = None
        self.shuffles = 0  # shoes shuffled so far: shoe n is shuffled from entropy(n - 1)
        self.spare: bytes | None = None  # the next shoe's seed, committed in advance
        self._spare_commitment: str | None = None
        self.unrevealed: list[Retired] = []  # retired seeds still secret, with their shoe
        # the seated players' client seeds, set by the table service before each move and
        # read when a shoe is shuffled (the shoe keeps those it used: a replay reads none)
        self.client_seeds: Mapping[int, str] = {}
        self._shoe_cards: list[Card] | None = None  # the shoe's order when not its seed's
        self._rig: list[Card] = []  # TEST HOOK: rigged cards still to be dealt
        self._rig_only = False  # no card of the shoe's own after them
        self._skip: Counter[Card] = Counter()  # the shoe's own copies of rigged cards dealt
        self._probes: dict[int, dict[ActionKind, Action]] = {}  # legal_actions' probes
        # legal_actions and seated_legal of the state as it is: the render, the service and
        # the checks ask several times per move; ``touch`` empties it whenever it changes
        self._legal_memo: dict[int | None, frozenset[ActionKind]] = {}
        self._seated_memo: frozenset[ActionKind] | None = None
        # the public view of the state as it is (immutable: every reader of a state, and
        # every private view of it, shares one; the publisher reads it several times a move)
        self._view_memo: TableView | None = None
        # the last summary read (its mapping, typed): the view and the renderers of the
        # round's events read the same mapping, once
        self._summary_memo: tuple[Mapping[str, Any], RoundSummary] | None = None
        self._kinds_table = self._kinds()
        self.init_state()

    @classmethod
    def create(cls, host: int, options: Mapping[str, Any], entropy: Entropy) -> Self:
        """A new table hosted by ``host`` (the registry's way to build one); its first
        shoe's server seed is committed now, before any client seed is read."""
        game = cls(options, host=host, entropy=entropy)
        game.commit_spare()
        return game

    # ================================================================== hooks
    # What a game overrides. The defaults suit a game without bets or money rules. The
    # ``refuse_*`` hooks return the refusal (an IllegalAction, not raised) or None.

    def init_state(self) -> None:
        """Set the game's own state up (the end of ``__init__``: a game need not
        override ``__init__``)."""

    def deck_spec(self) -> str:
        """The deck spec of a new shoe (``std52*6``, ``pirate54``...)."""
        raise NotImplementedError

    def refuse_start(self, player: int | None) -> Refusal:
        """Why ``player`` (None: the table service) may not start a round now, besides
        phase, seat, host and player count, which the base checks."""
        return None

    def start_game(self, events: list[Event]) -> None:
        """The first START, from the lobby, before the first round (a fund, a dealer)."""

    def start_round(self, events: list[Event]) -> None:
        """Begin a round: :meth:`begin_round`, then open the bets or deal."""
        raise NotImplementedError

    def bet_range(self, seat: S) -> tuple[int, int]:
        """(lowest, highest) bet the rules allow this seat (the stack caps it too)."""
        return 1, seat.stack

    def house_exposure(self, bets: Mapping[int, int]) -> int:
        """The most the house can pay out this round to ``bets`` (player -> bet), whatever
        the cards and the players' later choices; 0 when the house never pays."""
        return 0

    def round_worst_case(self) -> int:
        """The most the house can pay out to one seat in one round at the maximum bet, with
        any stack, whatever the cards (plus a newcomer's welcome stake): what sizes the
        table's float (``bot/tables/floats.py``); 0 when the house never pays."""
        return 0

    def house_commitment(self) -> int:
        """What the house puts on the table once for its whole life, besides the rounds
        (a guarantee fund); part of the table's float."""
        return 0

    def refuse_bet(self, seat: S) -> Refusal:
        """Why this seat may not bet nor sit out at all (a banker), before the base's
        checks of the betting."""
        return None

    def on_bet(self, seat: S, events: list[Event]) -> None:
        """After a bet is staked (a game that deals at once deals here)."""

    def bets_closed(self, events: list[Event]) -> None:
        """Everyone the bets waited for answered: deal, or cancel when nobody bet."""
        if any(s.bet for s in self.seats):
            self.deal(events)
        else:
            self.cancel_round(events)

    def deal(self, events: list[Event]) -> None:
        """Deal the round once the bets are closed."""
        raise NotImplementedError

    def refuse_move(self, action: Action, seat: S) -> Refusal:
        """Why one of the game's own moves by a seated player is not allowed now (the
        base's answer: a move the game does not know)."""
        return refuse(UNKNOWN_ACTION, kind=action.kind.value)

    def play(self, action: Action, seat: S, events: list[Event]) -> None:
        """Perform one of the game's own moves, already checked."""
        raise NotImplementedError

    def on_timeout(self, events: list[Event]) -> None:
        """The timer ran out: the game's fallback move (the default handles the betting:
        whoever the bets wait for sits out; a game calls it for that phase)."""
        if self.phase is not _BETTING:
            raise NotImplementedError
        late = self.waiting[:1] if self.sequential else list(self.waiting)
        for p in late:
            self.waiting.remove(p)
            events.append(Event(SAT_OUT, player=p, data={"timeout": True}))
        self._answered(events)

    def turn_key(self) -> str:
        """Names the turn a deadline belongs to (simultaneous turns: their number)."""
        return str(self.to_act)

    def refuse_join(self, player: int, amount: int | None) -> Refusal:
        """Why the game does not take this buy-in (default: a whole amount >= 0)."""
        if amount is None or amount < 0:
            return refuse(BAD_AMOUNT, amount=amount)
        return None

    def joined(self, seat: S, amount: int | None) -> list[Money]:
        """Seat the player (a new seat, already in place): the money it moves (default:
        the buy-in from the wallet)."""
        if not amount:
            return []
        return [self.transfer(MoneyKind.BUY_IN, wallet(seat.player), seat, amount, seat.player)]

    def refuse_top_up(self, seat: S, amount: int) -> Refusal:
        """Why the game does not allow this top-up now."""
        return None

    def topped_up(self, seat: S, amount: int) -> None:
        """After a top-up reached the seat's stack (own funds to count...)."""

    def in_round(self, seat: S) -> bool:
        """True while the seat holds a stake in the round (it may not leave)."""
        return seat.bet > 0 and self.phase in ROUND_PHASES

    def refuse_leave(self, seat: S, action: Action) -> Refusal:
        """Why the game does not allow this leave (a forfeit to confirm, a host...)."""
        return None

    def forfeit(self, seat: S) -> int:
        """What emptying the seat now (a leave, a kick, a close) would give back to the
        house instead of the player (a welcome stake not wagered yet); the rest is kept."""
        return 0

    def left_data(self, seat: S) -> dict[str, Any]:
        """The game's part of the ``left`` event."""
        return {}

    def after_leave(self, seat: S, events: list[Event]) -> None:
        """After a player left (not at a close): the game may end, the bets close..."""
        if self.phase is _BETTING:
            self._answered(events)

    def unsettled_stakes(self) -> list[tuple[int, int]]:
        """(player, amount) of every stake still in the pot, refunded at a close (a game
        with several stakes per player lists each, and may mark them refunded)."""
        return [(s.player, s.in_pot) for s in self.seats if s.in_pot]

    def on_finish(self, reason: str, events: list[Event]) -> None:
        """The game ends (before the seats are emptied): a ranking, a fund to close."""

    def refill(self, events: list[Event]) -> None:
        """The shoe is empty (or none is in use) and a card is needed: the next shoe
        (committed before the round when the game keeps a spare); the old seed is revealed
        once the round is over."""
        self.new_shoe(events, reveal_old=False)

    def uses_spare(self) -> bool:
        """Whether the next shoe's seed is committed with the one in use."""
        return self.SPARE

    def buy_in(self) -> BuyIn:
        """What ``/table join`` takes from the wallet at this table."""
        return BuyIn()

    def max_seats(self) -> int:
        """How many players may sit at this table."""
        return self.MAX_PLAYERS

    def probe(self, kind: ActionKind, player: int | None) -> Action:
        """The action ``legal_actions`` checks a candidate kind with: the lowest bet, a
        top-up of 1, a buy-in of 1 (none at a fixed buy-in or without money), a confirmed
        leave (a game whose move needs an amount or a value says so here). Besides BET and
        JOIN, a probe may depend on the kind and the player only: it is built once a table."""
        if kind is _BET:
            s = None if player is None else self._seat_of.get(player)
            return probe_action(kind, player, None if s is None else self.bet_range(s)[0])
        if kind is _TOP_UP:
            return probe_action(kind, player, 1)
        if kind is _JOIN:
            given = self.MONEY and self.buy_in().fixed is None
            return probe_action(kind, player, 1 if given else None)
        return probe_action(kind, player)

    def seat_view(self, seat: S) -> SeatView:
        """One seat in the public view (a game returns a SeatView subclass with its public
        per-seat state)."""
        return SeatView(seat.player, seat.stack, seat.bet)

    def seat_views(self) -> tuple[SeatView, ...]:
        """The seats of the public view (default: each seated player's ``seat_view``)."""
        return tuple([self.seat_view(s) for s in self.seats])

    def view(self) -> GamePart | None:
        """The game's own public state (``TableView.own``; never a hidden card)."""
        return None

    def private_part(self, player: int) -> PrivatePart | None:
        """What only ``player`` may see (their hidden cards): ``YouView.own``."""
        return None

    def round_summary(self, data: Mapping[str, Any]) -> RoundSummary:
        """A round's ``round_settled`` data, typed (a game returns its RoundSummary
        subclass); the view's ``last_round`` and the renderers read it."""
        return round_summary(data, self.round)

    def summary_of(self, data: Mapping[str, Any]) -> RoundSummary:
        """:meth:`round_summary` of ``data``, read once for the last mapping asked."""
        memo = self._summary_memo
        if memo is None or memo[0] is not data:
            memo = self._summary_memo = (data, self.round_summary(data))
        return memo[1]

    def state_dict(self) -> dict[str, Any]:
        """The game's own snapshot fields."""
        return {}

    def load_state(self, data: Mapping[str, Any]) -> None:
        """Read the game's own snapshot fields back."""

    # ================================================================== protocol

    @property
    def to_act(self) -> int | None:
        """The one player the game waits for, or None when several (or nobody) may act."""
        waiting = self.waiting
        return waiting[0] if waiting and self.sequential else None

    @property
    def deadline(self) -> Deadline | None:
        """The timer the table runs now: its kind and the turn it belongs to."""
        phase = self.phase
        kind = self.DEADLINES.get(phase)
        if kind is None:
            return None
        return Deadline(kind, f"{phase.value}:{kind.value}:{self.turn_key()}:{self.round}")

    def seated(self) -> list[int]:
        """Seated players in seat order."""
        return [s.player for s in self.seats]

    @property
    def stacks(self) -> dict[int, int]:
        """Every seated player's stack."""
        return {s.player: s.stack for s in self.seats}

    @property
    def bets(self) -> dict[int, int]:
        """This round's bets, by player (the seats that bet)."""
        return {s.player: s.bet for s in self.seats if s.bet}

    def leave_terms(self, player: int) -> tuple[int, int]:
        """(forfeit, keep) if ``player`` left now."""
        s = self._seat_of.get(player)
        if s is None:
            raise IllegalAction(NOT_SEATED)
        forfeit = self.forfeit(s)
        return forfeit, s.stack - forfeit

    def seat_of(self, player: int | None) -> S | None:
        """The seat of ``player``, if seated."""
        return None if player is None else self._seat_of.get(player)

    def bet_limits(self, player: int) -> tuple[int, int]:
        """(lowest, highest) bet the player may place now; lowest > highest means none."""
        s = self._seat_of.get(player)
        if s is None:
            return 1, 0
        low, high = self.bet_range(s)
        return low, min(high, s.stack)

    @property
    def stop_voted(self) -> bool:
        """Strictly more than half the seated players voted to stop."""
        votes = sum(1 for p in self.votes if p in self._seat_of)
        return bool(self.seats) and 2 * votes > len(self.seats)

    def touch(self) -> None:
        """Forget what was worked out from the state (the legal actions, the public view):
        it changed. ``apply``, loading and rigging call it; so must anything else that
        changes it."""
        self._legal_memo.clear()
        self._seated_memo = None
        self._view_memo = None

    def legal_actions(self, player: int | None) -> frozenset[ActionKind]:
        """The kinds of action ``player`` may take now: each candidate kind whose probe
        (:meth:`probe`) the checks accept, so ``apply`` agrees with it (worked out once
        per state)."""
        memo = self._legal_memo
        found = memo.get(player)
        if found is None:
            found = memo[player] = self._legal_now(player)
        return found

    def _legal_now(self, player: int | None) -> frozenset[ActionKind]:
        if self.phase is _FINISHED:
            return _NO_KINDS
        s = None if player is None else self._seat_of.get(player)
        if s is None:
            kinds = _SYSTEM_KINDS if player is None else _JOIN_KINDS
            return frozenset(k for k in kinds if self.refusal(self.probe(k, player)) is None)
        return frozenset(self._legal(s, _NO_KINDS))

    def seated_legal(self) -> frozenset[ActionKind]:
        """What any seated player may do now (the table's buttons): the union of their
        :meth:`legal_actions`, a kind probed only until one of them may take it."""
        found = self._seated_memo
        if found is None:
            found = self._seated_memo = self._seated_legal_now()
        return found

    def _seated_legal_now(self) -> frozenset[ActionKind]:
        if self.phase is _FINISHED:
            return _NO_KINDS
        memo = self._legal_memo
        found: set[ActionKind] = set()
        for s in self.seats:
            known = memo.get(s.player)  # a seat already asked about: nothing to probe
            found.update(self._legal(s, found) if known is None else known)
        return frozenset(found)

    def _legal(self, s: S, skip: AbstractSet[ActionKind]) -> list[ActionKind]:
        """The candidate kinds of seat ``s`` its checks accept, but those in ``skip``."""
        # the renderer asks after every move: a probe that depends on the kind and the
        # player only is built once, and each kind's check is found once per class
        p = s.player
        probes = self._probes.get(p)
        if probes is None:
            probes = self._probes[p] = {}
        table, phase = self._kinds_table, self.phase
        if phase in BETWEEN:
            candidates = table[phase, True]
        else:  # is the player one the game waits for?
            waiting = self.waiting
            candidates = table[phase, p in waiting and (not self.sequential or waiting[0] == p)]
        out: list[ActionKind] = []
        for kind, check in candidates:
            if kind in skip:
                continue
            a = probes.get(kind)
            if a is None:
                a = self.probe(kind, p)
                if kind not in _STATE_PROBES:
                    probes[kind] = a
            if (self.refuse_move(a, s) if check is None else check(self, a, s)) is None:
                out.append(kind)
        return out

    def candidates(self, seat: S) -> tuple[ActionKind, ...]:
        """The kinds the checks could accept from a seated player now; the others fail
        their first test (``legal_actions`` runs for every seat on every render)."""
        return tuple(kind for kind, _ in self._candidates(seat))

    def _candidates(self, seat: S) -> tuple[tuple[ActionKind, _Check | None], ...]:
        """:meth:`candidates`, each with the base's check of it (None: ``refuse_move``)."""
        table = self._kinds_table
        phase = self.phase
        if phase in BETWEEN:
            return table[phase, True]
        waiting = self.waiting
        p = seat.player
        return table[phase, p in waiting and (not self.sequential or waiting[0] == p)]

    @classmethod
    def own_moves(cls) -> frozenset[ActionKind]:
        """The game's own moves, in any phase (a move outside them is no move of this game)."""
        phases = (*cls.MOVES.values(), *cls.OPEN_MOVES.values())
        return frozenset(k for kinds in phases for k in kinds)

    @classmethod
    def _kinds(cls) -> dict[tuple[Phase, bool], tuple[tuple[ActionKind, _Check | None], ...]]:
        """Per (phase, the player is waited for): the candidate kinds of a seated player
        and their checks, worked out once per class (each game has its own table)."""
        cached = cls.__dict__.get("_KINDS")
        if cached is None:
            checks = cls._CHECKS
            cached = {
                (ph, m): tuple((k, checks.get(k)) for k in cls._kinds_of(ph, m))
                for ph in Phase
                for m in (False, True)
            }
            setattr(cls, "_KINDS", cached)  # noqa: B010
        return cast(dict[tuple[Phase, bool], tuple[tuple[ActionKind, _Check | None], ...]], cached)

    @classmethod
    def _kinds_of(cls, phase: Phase, moving: bool) -> tuple[ActionKind, ...]:
        out: list[ActionKind] = []
        if phase in BETWEEN:
            out.append(_START)
        elif moving:
            out += _BET_KINDS if phase is _BETTING and cls.BETS else ()
            out += cls.MOVES.get(phase, ())
        out += (k for k in cls.OPEN_MOVES.get(phase, ()) if k not in out)
        out.append(_LEAVE)
        if phase in cls.TOP_UP_PHASES:
            out.append(_TOP_UP)
        if cls.VOTE_STOP and phase is not _LOBBY:
            out.append(_VOTE_STOP)
        return tuple(out)

    def apply(self, action: Action) -> list[Event]:
        """Check and perform ``action``; the events it produced."""
        self.check(action)
        events: list[Event] = []
        self.touch()
        try:
            self._PERFORM.get(action.kind, TableGame._perform_move)(self, action, events)
        finally:  # a hook may have asked mid-way, on a state half changed
            self.touch()
        return events

    # ================================================================== checks

    def check(self, a: Action) -> None:
        """Raise the IllegalAction :meth:`refusal` finds (``apply`` runs it first)."""
        refusal = self.refusal(a)
        if refusal is not None:  # a fresh one: a check may return a shared refusal
            raise IllegalAction(refusal.code, **refusal.params)

    def refusal(self, a: Action) -> Refusal:
        """Why ``a`` is not allowed now (an IllegalAction, not raised), or None."""
        if self.phase is _FINISHED:
            return refuse(GAME_OVER)
        kind = a.kind
        p = a.player
        if kind is _TIMEOUT or kind is _CLOSE:
            if p is not None:
                return refuse(SYSTEM_ONLY)
            if kind is _TIMEOUT and self.phase not in self.DEADLINES:
                return refuse(WRONG_PHASE)
            return None
        if kind is _START:
            return self._refuse_start(p)
        if p is None:
            return refuse(NOT_SEATED)
        if kind is _JOIN:
            return self._refuse_join(p, a.amount)
        s = self._seat_of.get(p)
        if s is None:
            return refuse(NOT_SEATED)
        check = self._CHECKS.get(kind)
        return self.refuse_move(a, s) if check is None else check(self, a, s)

    def _refuse_start(self, p: int | None) -> Refusal:
        if self.phase not in BETWEEN:
            return refuse(WRONG_PHASE)
        if p is not None:
            if p not in self._seat_of:
                return refuse(NOT_SEATED)
            host = self.host
            if host is not None and host in self._seat_of and p != host:
                return refuse(NOT_HOST)
        refusal = self.refuse_start(p)
        if refusal is None and len(self.seats) < self.MIN_PLAYERS:
            return refuse(NOT_ENOUGH_PLAYERS, min=self.MIN_PLAYERS)
        return refusal

    def _refuse_join(self, p: int, amount: int | None) -> Refusal:
        if p in self._seat_of:
            return refuse(ALREADY_SEATED)
        if self.phase not in self.JOIN_PHASES:
            return refuse(WRONG_PHASE)
        most = self.max_seats()
        if len(self.seats) >= most:
            return refuse(TABLE_FULL, max=most)
        return self.refuse_join(p, amount)

    def _check_start(self, a: Action, s: S) -> Refusal:
        return self._refuse_start(s.player)

    def _check_leave(self, a: Action, s: S) -> Refusal:
        if self.in_round(s):
            return refuse(IN_ROUND)
        return self.refuse_leave(s, a)

    def _check_top_up(self, a: Action, s: S) -> Refusal:
        if not self.TOP_UP_PHASES:
            return refuse(UNKNOWN_ACTION, kind=a.kind.value)
        if self.phase not in self.TOP_UP_PHASES:
            return refuse(WRONG_PHASE)
        if a.amount is None or a.amount <= 0:
            return refuse(BAD_AMOUNT, amount=a.amount)
        return self.refuse_top_up(s, a.amount)

    def _check_betting(self, a: Action, s: S) -> Refusal:
        if not self.BETS:
            return self.refuse_move(a, s)
        refusal = self.refuse_bet(s)
        if refusal is not None:
            return refusal
        if self.in_round(s):
            return refuse(ALREADY_BET)  # one bet per round, in every game
        if self.phase is not _BETTING:
            return refuse(WRONG_PHASE)
        waiting = self.waiting
        if s.player not in waiting:
            return refuse(NOT_BETTING)
        if self.sequential and waiting[0] != s.player:
            return refuse(NOT_YOUR_TURN)
        if a.kind is _BET:
            low, high = self.bet_range(s)
            amount = a.amount
            high = min(high, s.stack)
            if (amount is not None and amount > s.stack) or low > high:  # in every game
                return refuse(INSUFFICIENT_STACK, needed=max(low, amount or 0), stack=s.stack)
            if amount is None or not low <= amount <= high:  # zero, negative: the same
                return refuse(BET_OUT_OF_RANGE, amount=amount, min=low, max=high)
        return None

    def _check_vote(self, a: Action, s: S) -> Refusal:
        if not self.VOTE_STOP:
            return refuse(UNKNOWN_ACTION, kind=a.kind.value)
        if self.phase is _LOBBY:
            return refuse(WRONG_PHASE)
        if s.player in self.votes:
            return refuse(ALREADY_VOTED)
        return None

    #: The base's checks of the kinds it handles for a seated player (the game's own
    #: moves go to ``refuse_move``).
    _CHECKS: ClassVar[dict[ActionKind, _Check]] = {
        _START: _check_start,
        _LEAVE: _check_leave,
        _TOP_UP: _check_top_up,
        _BET: _check_betting,
        _SIT_OUT: _check_betting,
        _VOTE_STOP: _check_vote,
    }

    # ================================================================== the base's moves

    def _actor(self, a: Action) -> S:
        """The seat of the player of an action already checked (a seated player's)."""
        return self._seat_of[cast(int, a.player)]

    def _perform_move(self, a: Action, events: list[Event]) -> None:
        self.play(a, self._actor(a), events)

    def _perform_join(self, a: Action, events: list[Event]) -> None:
        p = a.player
        assert p is not None
        s = self.SEAT(p)
        self._seat(s)
        if self.host is None or self.host not in self._seat_of:
            self.host = p
        money = self.joined(s, a.amount)
        data = {"seat": self.seats.index(s), "stack": s.stack}
        events.append(Event(JOINED, player=p, data=data, money=tuple(money)))

    def _seat(self, s: S) -> None:
        """Put a new seat in place: at the end, or (KEEP_PLACE) at its old place."""
        self._seat_of[s.player] = s
        if not self.KEEP_PLACE:
            self.seats.append(s)
            return
        if s.player not in self._places:
            self._places.append(s.player)
        place = self._places.index
        self.seats.append(s)
        self.seats.sort(key=lambda x: place(x.player))

    def _perform_leave(self, a: Action, events: list[Event]) -> None:
        s = self._actor(a)
        self.settle_seat(s, "leave", events)
        self.after_leave(s, events)

    def _perform_top_up(self, a: Action, events: list[Event]) -> None:
        s = self._actor(a)
        amount = cast(int, a.amount)
        m = self.transfer(MoneyKind.TOP_UP, wallet(s.player), s, amount, s.player)
        self.topped_up(s, amount)
        data = {"amount": amount, "stack": s.stack}
        events.append(Event(TOPPED_UP, player=s.player, data=data, money=(m,)))

    def _perform_start(self, a: Action, events: list[Event]) -> None:
        if self.phase is _LOBBY:
            self.start_game(events)
        self.start_round(events)

    def _perform_bet(self, a: Action, events: list[Event]) -> None:
        s = self._actor(a)
        amount = cast(int, a.amount)
        self.waiting.remove(s.player)
        s.bet = amount
        m = self.stake(s, amount)
        events.append(Event(BET, player=s.player, data={"amount": amount}, money=(m,)))
        self.on_bet(s, events)
        self._answered(events)

    def _perform_sit_out(self, a: Action, events: list[Event]) -> None:
        assert a.player is not None
        self.waiting.remove(a.player)
        events.append(Event(SAT_OUT, player=a.player))
        self._answered(events)

    def _answered(self, events: list[Event]) -> None:
        """A bettor answered (or left): close the bets once nobody is waited for."""
        if self.phase is _BETTING and not self.waiting:
            self.bets_closed(events)

    def _perform_timeout(self, a: Action, events: list[Event]) -> None:
        self.on_timeout(events)

    def _perform_vote(self, a: Action, events: list[Event]) -> None:
        assert a.player is not None
        self.votes.add(a.player)
        majority = self.stop_voted
        between = self.phase is _BETWEEN_ROUNDS
        data = {
            "votes": len(self.votes),
            "needed": len(self.seats) // 2 + 1,
            "majority": majority,
            "ends_after_round": majority and not between,
        }
        events.append(Event(VOTED_STOP, player=a.player, data=data))
        if majority and between:
            self.finish(events, "vote")

    def _perform_close(self, a: Action, events: list[Event]) -> None:
        self.finish(events, "closed")

    _PERFORM: ClassVar[dict[ActionKind, Callable[[Any, Action, list[Event]], None]]] = {
        _JOIN: _perform_join,
        _LEAVE: _perform_leave,
        _TOP_UP: _perform_top_up,
        _START: _perform_start,
        _BET: _perform_bet,
        _SIT_OUT: _perform_sit_out,
        _TIMEOUT: _perform_timeout,
        _VOTE_STOP: _perform_vote,
        _CLOSE: _perform_close,
    }

    # ================================================================== rounds

    def begin_round(self) -> None:
        """A new round: its number, no bets, nobody waited for yet."""
        self.round += 1
        for s in self.seats:
            s.last_bet, s.bet = s.bet, 0
        self.waiting = []
        self.sequential = False

    def open_bets(self, players: list[int], *, sequential: bool = False) -> None:
        """The betting phase: the game waits for these players' bets (``sequential``: one
        after the other, in this order; else in any order)."""
        self.phase = _BETTING
        self.waiting = players
        self.sequential = sequential

    def wait_for(self, players: list[int], *, sequential: bool = True) -> None:
        """The game now waits for these players (a turn, an insurance question...)."""
        self.waiting = players
        self.sequential = sequential

    def cancel_round(self, events: list[Event]) -> None:
        """Nobody bet: the round ends with nothing played."""
        events.append(Event(ROUND_CANCELLED, data={"round": self.round}))
        self.end_round(events)

    def end_round(self, events: list[Event]) -> None:
        """The round is over: between rounds, every seed retired meanwhile revealed (the
        round's shoe too with ``SHOE_PER_ROUND``)."""
        self.phase = _BETWEEN_ROUNDS
        self.waiting = []
        if self.SHOE_PER_ROUND:
            self.retire_shoe(events)
        else:
            self.reveal_seeds(events)

    def finish(self, events: list[Event], reason: str) -> None:
        """End the game: refund an unfinished round, reveal every seed whose commitment
        was shown, empty every seat exactly as a leave would; then the table is over."""
        self.refund_round(events)
        self.reveal_all(events)
        self.on_finish(reason, events)
        for s in list(self.seats):
            self.settle_seat(s, "close", events)
        self.waiting = []
        self.phase = _FINISHED
        events.append(Event(CLOSED, data={"reason": reason}))

    def refund_round(self, events: list[Event]) -> None:
        """Give back every stake of an unfinished round (one ``round_refunded`` event)."""
        if self.phase not in ROUND_PHASES:
            return
        money: list[Money] = []
        refunds: list[dict[str, int]] = []
        for p, amount in self.unsettled_stakes():
            money.append(self.refund(self._seat_of[p], amount))
            refunds.append({"player": p, "amount": amount})
        if money:
            data = {"round": self.round, "refunds": refunds}
            events.append(Event(ROUND_REFUNDED, data=data, money=tuple(money)))

    # ================================================================== seats

    def settle_seat(self, s: S, reason: str, events: list[Event]) -> None:
        """Empty a seat on the game's leave terms, whatever empties it (a leave, a kick, a
        close, an empty stack): the one place a stack leaves the table."""
        forfeit = self.forfeit(s)
        keep = s.stack - forfeit
        money: list[Money] = []
        p = s.player
        if self.MONEY:
            if forfeit:
                money.append(self.transfer(MoneyKind.FORFEIT, s, HOUSE, forfeit, p))
            if keep:
                money.append(self.transfer(MoneyKind.CASH_OUT, s, claim(p), keep, p))
        data = {"reason": reason, "keep": keep, "forfeit": forfeit, **self.left_data(s)}
        del self._seat_of[p]
        self.seats.remove(s)
        self.votes.discard(p)
        if p in self.waiting:
            self.waiting.remove(p)
        events.append(Event(LEFT, player=p, data=data, money=tuple(money)))
        if p == self.host and reason != "close":
            self.pass_host(events)

    def pass_host(self, events: list[Event]) -> None:
        """The host left: the next seated player in seat order hosts the table."""
        previous = self.host
        self.host = self.seats[0].player if self.seats else None
        if self.host is not None:
            events.append(Event(HOST_CHANGED, player=self.host, data={"previous": previous}))

    # ================================================================== money

    def transfer(
        self,
        kind: MoneyKind,
        src: Seat | str,
        dst: Seat | str,
        amount: int,
        player: int | None,
        exact: str | None = None,
    ) -> Money:
        """One money movement, with the stacks and the pot it touches kept equal to what
        the bank holds: a Seat is that seat's stack, ``POT`` the pot (``player``'s stake
        in it), any other endpoint (``house``, ``fund``, a wallet, a claim) is outside."""
        if isinstance(src, Seat):
            src.stack -= amount
            src = seat(src.player)
        elif src == POT:
            self.pot -= amount
            self._seat_of[cast(int, player)].in_pot -= amount
        if isinstance(dst, Seat):
            dst.stack += amount
            dst = seat(dst.player)
        elif dst == POT:
            self.pot += amount
            self._seat_of[cast(int, player)].in_pot += amount
        return Money(kind, src, dst, amount, player, exact)

    def stake(self, s: Seat, amount: int) -> Money:
        """A stake from the seat into the pot (a bet, an insurance, a double)."""
        return self.transfer(MoneyKind.BET, s, POT, amount, s.player)

    def refund(self, s: Seat, amount: int, exact: str | None = None) -> Money:
        """A stake back from the pot to its seat."""
        return self.transfer(MoneyKind.REFUND, POT, s, amount, s.player, exact)

    def lose(self, s: Seat, amount: int, to: Seat | str = HOUSE) -> Money:
        """A lost stake from the pot to the house (or to a banker's seat)."""
        return self.transfer(MoneyKind.LOSS, POT, to, amount, s.player)

    def pay(self, s: Seat, amount: int, exact: str | None = None, src: Seat | str = HOUSE) -> Money:
        """Winnings paid to the seat (by the house, a fund or a banker's seat)."""
        return self.transfer(MoneyKind.PAYOUT, src, s, amount, s.player, exact)

    def settle_bet(self, s: Seat, bet: int, net: int, exact: str | None = None) -> list[Money]:
        """The money of a bet of ``bet`` (in the pot) that wins ``net`` (> 0: the stake back
        and the winnings, 0: a push, < 0: that much of it lost, the rest back). ``exact``,
        the unrounded figure, goes with the winnings or with the part given back."""
        if net >= 0:
            out = [self.refund(s, bet)]
            if net:
                out.append(self.pay(s, net, exact))
            return out
        back = bet + net
        out = [self.refund(s, back, exact)] if back else []
        out.append(self.lose(s, -net))
        return out

    # ================================================================== the shoe

    def new_shoe(
        self, events: list[Event], *, reveal_old: bool = True, keep: Sequence[Card] | None = None
    ) -> Shoe:
        """Put a new shoe in use, committed publicly (one ``shuffle`` event) before its first
        card: shoe n is shuffled from ``entropy(n - 1)``, or from the spare committed
        earlier, mixed with the seated players' client seeds (by user id). ``keep``: the
        shoe holds only these cards, in the order they take in the shuffled deck (a
        reshuffle of the played cards). The old shoe is retired, its seed
        revealed now or (``reveal_old=False``: cards it dealt may still be hidden) with
        :meth:`reveal_seeds`."""
        self.retire_shoe(events, reveal=reveal_old)
        seed = self.spare if self.spare is not None else self.entropy(self.shuffles)
        self.shuffles += 1
        clients = tuple(
            (p, self.client_seeds[p]) for p in sorted(self._seat_of) if p in self.client_seeds
        )
        shoe = Shoe(self.deck_spec(), seed, number=self.shuffles, clients=clients)
        if keep is not None:
            self._shoe_cards = keep_only(shoe.order, keep)
            shoe.rig(self._shoe_cards)
        self.shoe = shoe
        self._skip.clear()
        if not self._rig:  # a rigged pile that ran out (``only``): this shoe deals on
            self._rig_only = False
        self._set_spare(self.entropy(self.shuffles) if self.uses_spare() else None)
        data = {
            "number": self.shuffles,
            "spec": shoe.spec,
            "size": shoe.size,
            "commitment": shoe.commitment,
        }
        if clients:
            data["clients"] = [list(c) for c in clients]
        if self._spare_commitment is not None:
            data["next_commitment"] = self._spare_commitment
        events.append(Event(SHUFFLE, data=data))
        return shoe

    def commit_spare(self) -> None:
        """Draw and commit the next shoe's seed now (a game that keeps a spare)."""
        self._set_spare(self.entropy(self.shuffles))

    def _set_spare(self, seed: bytes | None) -> None:
        self.spare = seed
        self._spare_commitment = None if seed is None else commitment(seed)

    def retire_shoe(self, events: list[Event], *, reveal: bool = True) -> None:
        """Take the shoe out of use; its seed is revealed now, or with :meth:`reveal_seeds`."""
        if self.shoe is not None:
            shoe = self.shoe
            self.unrevealed.append(Retired(shoe.seed, shoe.spec, shoe.number, shoe.clients))
            self.shoe = None
            self._shoe_cards = None
        if reveal:
            self.reveal_seeds(events)

    def reveal_seeds(self, events: list[Event]) -> None:
        """Reveal every retired seed still secret (one ``seed_revealed`` event each)."""
        for r in self.unrevealed:
            events.append(reveal_event(r.seed, r.spec, r.number, r.clients))
        self.unrevealed = []

    def reveal_all(self, events: list[Event]) -> None:
        """The game ends: the shoe in use and the spare are retired and every seed revealed."""
        self.retire_shoe(events, reveal=False)
        if self.spare is not None:  # its commitment was shown: its seed is revealed too
            self.unrevealed.append(Retired(self.spare, self.deck_spec()))
            self._set_spare(None)
        self.reveal_seeds(events)

    def draw(self, events: list[Event]) -> Card:
        """Deal the next card (a rigged one first); an empty shoe is refilled first."""
        if self._rig:
            card = self._rig.pop(0)
            if not self._rig_only:
                self._skip[card] += 1
            return card
        if self._rig_only:  # the rigged shoe is over
            self._rig_only = False
            self.refill(events)
        while True:
            shoe = self.shoe
            if shoe is None or shoe.pos >= shoe.size:
                self.refill(events)
                shoe = self.shoe
                assert shoe is not None
            card = shoe.draw()
            skip = self._skip
            if skip and card in skip:  # dealt already, rigged ahead of its turn
                skip[card] -= 1
                if not skip[card]:
                    del skip[card]
                continue
            return card

    @property
    def cards_left(self) -> int:
        """Cards still to be dealt before the shoe needs a refill."""
        if self._rig_only:
            return len(self._rig)
        shoe = self.shoe
        own = 0 if shoe is None else shoe.remaining
        if own and self._skip:  # rigged tables only
            ahead = Counter(shoe.order[shoe.pos :]) if shoe is not None else Counter()
            own -= sum((ahead & self._skip).values())
        return len(self._rig) + own

    def rig(self, codes: Sequence[str], *, only: bool = False) -> None:
        """FOR TESTS AND THE SIMULATOR CHECK ONLY (it defeats the commitment): the next cards
        dealt are ``codes``, in this order; then the shoe deals on without the copies of
        them it would have dealt (a stacked deck), or, with ``only``, not at all: the shoe
        is over after them. A rig made before a shoe is shuffled (a game that shuffles
        each round, between rounds) comes first from that shoe. Replaces any rigged cards
        not dealt yet. Never used by tables."""
        self._rig = [Card.parse(c) for c in codes]
        self._rig_only = only
        self.touch()

    # ================================================================== views

    def public_view(self) -> TableView:
        """What everybody may see: never a private or face-down card (built once per
        state: ``touch`` forgets it)."""
        view = self._view_memo
        if view is None:
            view = self._view_memo = self._build_view()
        return view

    def _build_view(self) -> TableView:
        shoe, last = self.shoe, self.last_summary
        timer = self.DEADLINES.get(self.phase)
        return TableView(
            game=self.GAME,
            phase=self.phase.value,
            round=self.round,
            host=self.host,
            options=self.options,
            seats=self.seat_views(),
            to_act=self.to_act,
            waiting=tuple(self.waiting),
            deadline=None if timer is None else timer.value,
            pot=self.pot,
            shoe=None
            if shoe is None
            else ShoeView(self.shuffles, shoe.commitment, shoe.size, shoe.remaining, shoe.clients),
            next_commitment=self._spare_commitment,
            last_round=None if last is None else self.summary_of(last),
            own=self.view(),
        )

    def private_view(self, player: int) -> PrivateView:
        """The public view and ``player``'s own part: their seat, hidden cards and moves."""
        s = self._seat_of.get(player)
        you = YouView(
            player=player,
            seated=s is not None,
            stack=None if s is None else s.stack,
            legal=tuple(sorted(k.value for k in self.legal_actions(player))),
            own=self.private_part(player),
        )
        return PrivateView(self.public_view(), you)

    # ================================================================== snapshots

    def to_dict(self) -> dict[str, Any]:
        """The whole state, JSON-able (secret seeds included: never show it)."""
        shoe = self.shoe
        shoe_data: dict[str, Any] | None = None if shoe is None else shoe.to_dict()
        if shoe_data is not None and self._shoe_cards is not None:
            shoe_data["cards"] = [c.code for c in self._shoe_cards]
        out: dict[str, Any] = {
            "game": self.GAME,
            "format": self.FORMAT,
            "options": self.options.to_dict(),
            "host": self.host,
            "phase": self.phase.value,
            "round": self.round,
            "seats": [s.to_dict() for s in self.seats],
            "pot": self.pot,
            "waiting": list(self.waiting),
            "sequential": self.sequential,
            "shoe": shoe_data,
            "shuffles": self.shuffles,
            "spare": None if self.spare is None else self.spare.hex(),
            "unrevealed": [r.to_dict() for r in self.unrevealed],
            "last_summary": self.last_summary,
        }
        if self.votes:
            out["votes"] = sorted(self.votes)
        if self._places:
            out["places"] = list(self._places)
        if self._rig or self._rig_only or self._skip:
            out["rig"] = {
                "cards": [c.code for c in self._rig],
                "only": self._rig_only,
                "skip": {c.code: n for c, n in self._skip.items()},
            }
        out.update(self.state_dict())
        return out

    @classmethod
    def upgrade(cls, data: Mapping[str, Any]) -> Mapping[str, Any]:
        """A snapshot of an older format in the current one, one ``UPGRADES`` step per
        format (a snapshot without ``format`` is of format 1)."""
        fmt = int(data.get("format", 1))
        while fmt < cls.FORMAT:
            data = cls.UPGRADES[fmt - 1](data)
            fmt += 1
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], *, entropy: Entropy = secure_entropy) -> Self:
        """Rebuild a game from :meth:`to_dict` (or an older snapshot); it continues
        identically."""
        data = cls.upgrade(data)
        # the mapping, not typed options: ``build`` checks it once (typed options would be
        # checked again by ``validate``)
        game = cls(data["options"], host=data["host"], entropy=entropy)
        game._load_common(data)
        game.load_state(data)
        game.touch()
        return game

    def _load_common(self, data: Mapping[str, Any]) -> None:
        self.phase = Phase(data["phase"])
        self.round = int(data["round"])
        for d in data["seats"]:
            s = self.SEAT.from_dict(d)
            s.last_bet = int(d.get("last_bet", 0))
            self.seats.append(s)
            self._seat_of[s.player] = s
        self._places = [int(p) for p in data.get("places", ())]
        self.pot = int(data["pot"])
        self.waiting = [int(p) for p in data["waiting"]]
        self.sequential = bool(data["sequential"])
        self.votes = {int(p) for p in data.get("votes", ())}
        self.last_summary = data["last_summary"]
        self.shuffles = int(data["shuffles"])
        spare = data["spare"]
        self._set_spare(None if spare is None else bytes.fromhex(spare))
        self.unrevealed = [Retired.from_dict(d) for d in data["unrevealed"]]
        self._load_shoe(data["shoe"], data.get("rig"))

    def _load_shoe(self, shoe: Mapping[str, Any] | None, rig: Mapping[str, Any] | None) -> None:
        if shoe is not None:
            self.shoe = Shoe.from_dict(dict(shoe))
            if shoe.get("cards") is not None:
                self._shoe_cards = [Card.parse(c) for c in shoe["cards"]]
                self.shoe.rig(self._shoe_cards)
        if rig is not None:
            self.rig(rig["cards"], only=bool(rig["only"]))
            self._skip.update({Card.parse(c): int(n) for c, n in rig.get("skip", {}).items()})
