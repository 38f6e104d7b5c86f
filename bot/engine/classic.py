"""Black Jack, casino rules (``classic``): RULES.md section 1.

The bot is the dealer; 1-7 seated players each hold a table stack. One object holds the
whole table: seats, the shoe, and the round in play. ``apply`` validates every action
before touching the state, so an :class:`IllegalAction` leaves the game unchanged.

Money: every bet (insurance, double and split stakes too) goes seat -> pot when staked.
A busted hand loses at once (pot -> house); a surrender refunds floor(bet/2) and loses the
rest; at settlement a winning hand gets its stake back (REFUND pot -> seat) plus its
winnings (PAYOUT house -> seat, rounded down with the exact figure in ``Money.exact``), a
push gets its stake back and a losing hand goes pot -> house. Insurance (half the bet,
rounded down) against a dealer blackjack: the stake and the insured hand's bet both come
back (REFUND pot -> seat), so the hand nets exactly 0, a blackjack too (no even money);
without a dealer blackjack the stake goes pot -> house. A player whose stack is 0
stays seated and must top up before betting again (no automatic leave).

Fairness: shoe n is shuffled from ``entropy(n)``. The next shoe's seed (the spare) is drawn
and committed as soon as a shoe goes in use (``shuffle`` event ``next_commitment``, public
view ``next_commitment``), so a shoe that runs out mid-round is replaced by one committed
before the round. A retired shoe's seed is revealed in a ``seed_revealed`` event (after the
round when the shoe ran out mid-round); closing reveals the shoe in use and the spare.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from decimal import Decimal
from functools import lru_cache
from typing import Any, ClassVar, Self

from .base import (
    HOUSE,
    POT,
    Action,
    ActionKind,
    Deadline,
    Event,
    Game,
    IllegalAction,
    Money,
    MoneyKind,
    Phase,
    Visibility,
    claim,
    reveal_event,
    seat,
    wallet,
)
from .cards import Card, Rank
from .hands import BJTotal, bj_total, bj_value, is_blackjack
from .options import OptionKind, OptionSpec, check_values
from .shuffle import Entropy, Shoe, commitment, secure_entropy

MAX_SEATS = 7

#: Every ``IllegalAction.code`` this game raises, for the UI's translations.
ILLEGAL_CODES: frozenset[str] = frozenset(
    {
        "game_over",  # the table is closed
        "wrong_phase",  # the action does not belong to the current phase
        "not_seated",  # the player has no seat at this table
        "already_seated",
        "table_full",  # params: max
        "system_only",  # TIMEOUT / CLOSE come from the table service, not a player
        "not_host",  # only the host (or the system) starts a round
        "nobody_can_bet",  # START with no seated player able to cover min_bet
        "bad_amount",  # missing or non-positive amount (params: amount)
        "bet_out_of_range",  # params: amount, min, max
        "insufficient_stack",  # params: needed, stack
        "not_betting",  # the player sat out or cannot bet this round
        "already_bet",  # the player already has a bet in this round
        "in_round",  # cannot leave while holding a hand in the current round
        "no_insurance_offered",  # nothing to insure now / already answered
        "not_your_turn",
        "wrong_hand",  # Action.hand is not the hand being played (params: current)
        "cannot_split",  # params: reason
        "cannot_double",  # params: reason
        "cannot_surrender",  # params: reason
        "unknown_action",
    }
)

PAYOUT_RATIOS: dict[str, tuple[int, int]] = {"3:2": (3, 2), "6:5": (6, 5), "1:1": (1, 1)}

_K = ActionKind


@lru_cache(maxsize=4096)
def _probe(kind: ActionKind, player: int | None, amount: int | None) -> Action:
    """The action ``legal_actions`` checks for a kind: an Action is immutable and ~3 us
    to build, and the renderer asks every seat on every move."""
    return Action(kind, player, amount=amount)


_SYSTEM_KINDS: tuple[ActionKind, ...] = (_K.START, _K.TIMEOUT, _K.CLOSE)
_BETWEEN_KINDS: tuple[ActionKind, ...] = (_K.START, _K.LEAVE, _K.TOP_UP)
_LEAVE_ONLY: tuple[ActionKind, ...] = (_K.LEAVE,)
_SEATED_KINDS: dict[Phase, tuple[ActionKind, ...]] = {
    Phase.LOBBY: _BETWEEN_KINDS,
    Phase.BETWEEN_ROUNDS: _BETWEEN_KINDS,
    Phase.BETTING: (_K.BET, _K.SIT_OUT, _K.LEAVE),
    Phase.INSURANCE: (_K.INSURANCE, _K.NO_INSURANCE, _K.LEAVE),
    Phase.PLAYING: (_K.HIT, _K.STAND, _K.DOUBLE, _K.SPLIT, _K.SURRENDER, _K.LEAVE),
}


_I, _B = OptionKind.INT, OptionKind.BOOL

#: The options of a Black Jack table (RULES.md section 1): ``/table open``, ``/rules``.
OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec("decks", _I, 6, "decks in the shoe", "paquets dans le sabot", min=1, max=8),
    OptionSpec(
        "penetration",
        OptionKind.FLOAT,
        0.75,
        "share of the shoe dealt before a reshuffle",
        "part du sabot distribuée avant de rebattre",
        min=0.5,
        max=0.9,
    ),
    OptionSpec("min_bet", _I, 10, "smallest bet", "mise minimale", min=1, max=1_000_000_000),
    OptionSpec(
        "max_bet",
        _I,
        500,
        "largest bet",
        "mise maximale",
        min=1,
        max=1_000_000_000,
        at_least=("min_bet", 1),
    ),
    OptionSpec(
        "max_hands",
        _I,
        4,
        "hands a player may hold by splitting",
        "mains qu'un joueur peut tenir en séparant",
        min=2,
        max=4,
    ),
    OptionSpec(
        "split_aces_one_card",
        _B,
        True,
        "split aces get one card each",
        "les as séparés ne reçoivent qu'une carte chacun",
    ),
    OptionSpec("double", _B, True, "doubling allowed", "doubler est permis"),
    OptionSpec("surrender", _B, False, "surrender allowed", "abandonner est permis"),
    OptionSpec(
        "dealer_peeks",
        _B,
        True,
        "the dealer checks for blackjack under an ace or a ten",
        "le croupier vérifie son Black Jack sous un as ou un dix",
    ),
    OptionSpec(
        "dealer_hits_soft_17",
        _B,
        False,
        "the dealer draws on a soft 17",
        "le croupier tire sur un 17 souple",
    ),
    OptionSpec(
        "blackjack_pays",
        OptionKind.CHOICE,
        "3:2",
        "what a blackjack pays",
        "ce que paie un Black Jack",
        choices=tuple(PAYOUT_RATIOS),
    ),
)
#: Options of earlier versions still found in stored snapshots (the table settings
#: hold the timers now): read and dropped.
_LEGACY_OPTIONS = ("bet_seconds", "turn_seconds")


@dataclass(frozen=True, slots=True)
class ClassicOptions:
    """Per-table options of Black Jack (RULES.md section 1), typed, with their defaults."""

    decks: int = 6
    penetration: float = 0.75
    min_bet: int = 10
    max_bet: int = 500
    max_hands: int = 4
    split_aces_one_card: bool = True
    double: bool = True
    surrender: bool = False
    dealer_peeks: bool = True
    dealer_hits_soft_17: bool = False
    blackjack_pays: str = "3:2"

    def validate(self) -> Self:
        """Raise :class:`InvalidOptions` for the first option out of range; return self."""
        check_values(OPTIONS, self.to_dict())
        return self

    def to_dict(self) -> dict[str, Any]:
        """JSON-able form (every field is a plain value: no deep copy needed)."""
        return {name: getattr(self, name) for name in _OPTION_NAMES}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ClassicOptions:
        """Build and validate typed options; unknown names raise ``unknown_option``."""
        return cls(**check_values(OPTIONS, data, ignore=_LEGACY_OPTIONS))


_OPTION_NAMES: tuple[str, ...] = tuple(f.name for f in fields(ClassicOptions))


def _exact(numerator: int, denominator: int) -> str | None:
    """The exact decimal figure of numerator/denominator when it is not whole."""
    if numerator % denominator == 0:
        return None
    return format((Decimal(numerator) / Decimal(denominator)).normalize(), "f")


def is_ten_or_ace(card: Card) -> bool:
    """Dealer up cards that make the dealer peek."""
    return card.rank is Rank.ACE or bj_value(card) == 10


def dealer_should_hit(total: BJTotal, hits_soft_17: bool) -> bool:
    """The dealer's fixed drawing rule."""
    return total.value < 17 or (hits_soft_17 and total.value == 17 and total.soft)


class _Hand:
    """One player hand (a split makes more). Mutable; only the game touches it."""

    __slots__ = ("bet", "cards", "doubled", "net", "player", "result", "split", "status")

    # status: active | stood | bust | surrendered | blackjack
    def __init__(
        self,
        player: int,
        bet: int,
        cards: list[Card] | None = None,
        *,
        split: bool = False,
        status: str = "active",
        doubled: bool = False,
        result: str | None = None,
        net: int = 0,
    ) -> None:
        self.player = player
        self.bet = bet
        self.cards: list[Card] = cards if cards is not None else []
        self.split = split
        self.status = status
        self.doubled = doubled
        self.result = result  # set once the hand's money is settled
        self.net = net

    def total(self) -> BJTotal:
        return bj_total(self.cards)

    def to_dict(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "bet": self.bet,
            "cards": [c.code for c in self.cards],
            "split": self.split,
            "status": self.status,
            "doubled": self.doubled,
            "result": self.result,
            "net": self.net,
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> _Hand:
        return cls(
            int(d["player"]),
            int(d["bet"]),
            [Card.parse(c) for c in d["cards"]],
            split=bool(d["split"]),
            status=str(d["status"]),
            doubled=bool(d["doubled"]),
            result=d["result"],
            net=int(d["net"]),
        )


class ClassicGame(Game):
    """Casino Black Jack with the bot as dealer."""

    GAME: ClassVar[str] = "classic"

    def __init__(
        self,
        options: ClassicOptions | None = None,
        *,
        host: int | None = None,
        entropy: Entropy = secure_entropy,
    ) -> None:
        super().__init__(entropy=entropy)
        self.options = (options or ClassicOptions()).validate()
        self.host = host
        self._phase = Phase.LOBBY
        self.seats: list[int] = []
        self.stacks: dict[int, int] = {}
        self.round = 0
        self.pot = 0
        self.shoe: Shoe | None = None
        self.shuffles = 0  # how many shoes were shuffled (entropy counter)
        # the next shoe's seed, committed (public view, shuffle events) before it is needed:
        # a shoe that runs out mid-round is replaced by a shoe whose order was fixed before
        # the round, not by one drawn once the hole card is known
        self.spare: bytes | None = None
        # the round
        self.pending_bets: list[int] = []  # may still bet this round
        self.bets: dict[int, int] = {}
        self.hands: list[_Hand] = []
        self.current = 0
        self.dealer: list[Card] = []
        self.hole_revealed = False
        self.insurance_pending: list[int] = []
        self.insurance: dict[int, int] = {}  # stakes taken, not yet settled
        self.insurance_results: dict[int, int] = {}  # player -> net once settled
        self.last_summary: dict[str, Any] | None = None
        self.unrevealed: list[dict[str, str]] = []  # retired shoes whose seed is still secret
        self._rigged: list[Card] = []

    # ------------------------------------------------------------------ test hook
    def rig(self, codes: Sequence[str]) -> None:
        """FOR TESTS AND THE SIMULATOR CHECK ONLY: the next cards dealt are ``codes`` (then
        the shoe again). Replaces any rigged cards not dealt yet. Never used by tables."""
        self._rigged = [Card.parse(c) for c in codes]

    # ------------------------------------------------------------------ protocol
    @property
    def phase(self) -> Phase:
        return self._phase

    @property
    def to_act(self) -> int | None:
        if self._phase is Phase.PLAYING and self.current < len(self.hands):
            return self.hands[self.current].player
        return None

    @property
    def deadline(self) -> Deadline | None:
        if self._phase is Phase.BETTING:
            return Deadline.BET
        if self._phase in (Phase.INSURANCE, Phase.PLAYING):
            return Deadline.TURN
        return None

    def bet_limits(self, player: int) -> tuple[int, int]:
        """(lowest, highest) bet the player may place now; lowest > highest means none."""
        stack = self.stacks.get(player, 0)
        return self.options.min_bet, min(self.options.max_bet, stack)

    def legal_actions(self, player: int | None) -> frozenset[ActionKind]:
        out: set[ActionKind] = set()
        for kind in self._candidates(player):
            try:
                self._check(_probe(kind, player, self._probe_amount(kind, player)))
            except IllegalAction:
                continue
            out.add(kind)
        return frozenset(out)

    def _candidates(self, player: int | None) -> tuple[ActionKind, ...]:
        """The kinds ``_check`` could accept for this player in this phase (the rest are
        refused by its first tests): legal_actions runs on every render, so probing all
        kinds would be the renderer's main cost."""
        if player is None:
            return _SYSTEM_KINDS
        if player not in self.stacks:
            return (ActionKind.JOIN,)
        ph = self._phase
        # in a round only the player being waited for has moves besides leaving (the
        # renderer asks for every seat on every move: the others' probes would all fail)
        if (
            (ph is Phase.PLAYING and player != self.to_act)
            or (ph is Phase.BETTING and player not in self.pending_bets)
            or (ph is Phase.INSURANCE and player not in self.insurance_pending)
        ):
            return _LEAVE_ONLY
        return _SEATED_KINDS.get(ph, ())

    def _probe_amount(self, kind: ActionKind, player: int | None) -> int | None:
        if kind is ActionKind.BET and player is not None:
            return self.options.min_bet
        if kind in (ActionKind.JOIN, ActionKind.TOP_UP):
            return 1
        return None

    def apply(self, action: Action) -> list[Event]:
        self._check(action)
        return self._do(action)

    # ------------------------------------------------------------------ validation
    def _in_round(self, player: int) -> bool:
        if self._phase is Phase.BETTING:
            return player in self.bets
        if self._phase in (Phase.INSURANCE, Phase.PLAYING):
            return any(h.player == player for h in self.hands)
        return False

    def _can_start(self) -> bool:
        return any(self.stacks[p] >= self.options.min_bet for p in self.seats)

    def _check(self, a: Action) -> None:
        k, p, ph = a.kind, a.player, self._phase
        if ph is Phase.FINISHED:
            raise IllegalAction("game_over")
        if k in (ActionKind.TIMEOUT, ActionKind.CLOSE):
            if p is not None:
                raise IllegalAction("system_only")
            if k is ActionKind.TIMEOUT and ph not in (
                Phase.BETTING,
                Phase.INSURANCE,
                Phase.PLAYING,
            ):
                raise IllegalAction("wrong_phase")
            return
        between = ph in (Phase.LOBBY, Phase.BETWEEN_ROUNDS)
        if k is ActionKind.START:
            if not between:
                raise IllegalAction("wrong_phase")
            if p is not None:
                if p not in self.stacks:
                    raise IllegalAction("not_seated")
                if self.host is not None and self.host in self.stacks and p != self.host:
                    raise IllegalAction("not_host")
            if not self._can_start():
                raise IllegalAction("nobody_can_bet", min_bet=self.options.min_bet)
            return
        if p is None:
            raise IllegalAction("not_seated")
        if k is ActionKind.JOIN:
            if p in self.stacks:
                raise IllegalAction("already_seated")
            if not between:
                raise IllegalAction("wrong_phase")
            if len(self.seats) >= MAX_SEATS:
                raise IllegalAction("table_full", max=MAX_SEATS)
            if a.amount is None or a.amount < 0:
                raise IllegalAction("bad_amount", amount=a.amount)
            return
        if p not in self.stacks:
            raise IllegalAction("not_seated")
        if k is ActionKind.LEAVE:
            if self._in_round(p):
                raise IllegalAction("in_round")
            return
        if k is ActionKind.TOP_UP:
            if not between:
                raise IllegalAction("wrong_phase")
            if a.amount is None or a.amount <= 0:
                raise IllegalAction("bad_amount", amount=a.amount)
            return
        if k in (ActionKind.BET, ActionKind.SIT_OUT):
            if self._in_round(p):
                raise IllegalAction("already_bet")  # one bet per round, in every game
            if ph is not Phase.BETTING:
                raise IllegalAction("wrong_phase")
            if p not in self.pending_bets:
                raise IllegalAction("not_betting")
            if k is ActionKind.BET:
                lo, hi = self.bet_limits(p)
                if a.amount is None or not lo <= a.amount <= self.options.max_bet:
                    raise IllegalAction("bet_out_of_range", amount=a.amount, min=lo, max=hi)
                if a.amount > hi:
                    raise IllegalAction("insufficient_stack", needed=a.amount, stack=self.stacks[p])
            return
        if k in (ActionKind.INSURANCE, ActionKind.NO_INSURANCE):
            if ph is Phase.INSURANCE:
                if p not in self.insurance_pending:
                    raise IllegalAction("no_insurance_offered")
                return
            if ph is Phase.PLAYING:
                raise IllegalAction("no_insurance_offered")
            raise IllegalAction("wrong_phase")
        if k in (
            ActionKind.HIT,
            ActionKind.STAND,
            ActionKind.DOUBLE,
            ActionKind.SPLIT,
            ActionKind.SURRENDER,
        ):
            if ph is not Phase.PLAYING:
                raise IllegalAction("wrong_phase")
            if self.to_act != p:
                raise IllegalAction("not_your_turn")
            if a.hand is not None and a.hand != self.current:
                raise IllegalAction("wrong_hand", current=self.current)
            hand = self.hands[self.current]
            if k is ActionKind.DOUBLE:
                self._check_double(hand)
            elif k is ActionKind.SPLIT:
                self._check_split(hand)
            elif k is ActionKind.SURRENDER:
                self._check_surrender(hand)
            return
        raise IllegalAction("unknown_action", kind=k.value)

    def _check_double(self, hand: _Hand) -> None:
        if not self.options.double:
            raise IllegalAction("cannot_double", reason="disabled")
        if len(hand.cards) != 2:
            raise IllegalAction("cannot_double", reason="not_first_two_cards")
        if self.stacks[hand.player] < hand.bet:
            raise IllegalAction(
                "insufficient_stack", needed=hand.bet, stack=self.stacks[hand.player]
            )

    def _check_split(self, hand: _Hand) -> None:
        if len(hand.cards) != 2 or bj_value(hand.cards[0]) != bj_value(hand.cards[1]):
            raise IllegalAction("cannot_split", reason="not_a_pair")
        count = sum(1 for h in self.hands if h.player == hand.player)
        if count >= self.options.max_hands:
            raise IllegalAction("cannot_split", reason="max_hands", max=self.options.max_hands)
        if self.stacks[hand.player] < hand.bet:
            raise IllegalAction(
                "insufficient_stack", needed=hand.bet, stack=self.stacks[hand.player]
            )

    def _check_surrender(self, hand: _Hand) -> None:
        if not self.options.surrender:
            raise IllegalAction("cannot_surrender", reason="disabled")
        if hand.split or len(hand.cards) != 2:
            raise IllegalAction("cannot_surrender", reason="not_first_two_cards")

    # ------------------------------------------------------------------ money & cards
    def _money(
        self,
        kind: MoneyKind,
        src: str,
        dst: str,
        amount: int,
        player: int,
        exact: str | None = None,
    ) -> Money:
        for end, sign in ((src, -1), (dst, 1)):
            if end == POT:
                self.pot += sign * amount
            elif end == seat(player):
                self.stacks[player] += sign * amount
        return Money(kind, src, dst, amount, player, exact)

    def _stake(self, player: int, amount: int) -> Money:
        return self._money(MoneyKind.BET, seat(player), POT, amount, player)

    def _lose(self, player: int, amount: int) -> Money:
        return self._money(MoneyKind.LOSS, POT, HOUSE, amount, player)

    def _refund(self, player: int, amount: int, exact: str | None = None) -> Money:
        return self._money(MoneyKind.REFUND, POT, seat(player), amount, player, exact)

    def _pay(self, player: int, amount: int, exact: str | None = None) -> Money:
        return self._money(MoneyKind.PAYOUT, HOUSE, seat(player), amount, player, exact)

    @property
    def _spec(self) -> str:
        return f"std52*{self.options.decks}"

    def _new_shoe(self, events: list[Event], *, reveal_old: bool = True) -> None:
        """Put the committed spare shoe in use and commit the next spare."""
        self._retire_shoe(events, reveal=reveal_old)
        seed = self.spare if self.spare is not None else self.entropy(self.shuffles)
        self.shoe = Shoe(self._spec, seed)
        self.shuffles += 1
        self.spare = self.entropy(self.shuffles)  # shoe n is always entropy(n)
        events.append(
            Event(
                "shuffle",
                data={
                    "shoe": self.shuffles,
                    "spec": self._spec,
                    "commitment": self.shoe.commitment,
                    "next_commitment": commitment(self.spare),
                    "cards": self.shoe.size,
                },
            )
        )

    def _retire_shoe(self, events: list[Event], *, reveal: bool = True) -> None:
        """Retire the shoe. Its seed is revealed now, or (a shoe that ran out mid-round,
        whose seed would give away the hole card) once the round is over."""
        if self.shoe is not None:
            self.unrevealed.append({"seed": self.shoe.seed.hex(), "spec": self.shoe.spec})
            self.shoe = None
        if reveal:
            self._reveal_seeds(events)

    def _reveal_seeds(self, events: list[Event]) -> None:
        for data in self.unrevealed:
            events.append(reveal_event(bytes.fromhex(data["seed"]), data["spec"]))
        self.unrevealed = []

    def _needs_shuffle(self) -> bool:
        return self.shoe is None or self.shoe.pos >= self.options.penetration * self.shoe.size

    def _draw(self, events: list[Event]) -> Card:
        if self._rigged:
            return self._rigged.pop(0)
        if self.shoe is None or self.shoe.remaining == 0:
            # the shoe ran out mid-round (few decks, many hands): the spare, committed before
            # the round, goes in; the old seed is revealed after the round (it would show
            # the hole card)
            self._new_shoe(events, reveal_old=False)
        assert self.shoe is not None
        return self.shoe.draw()

    def _deal_to(self, index: int, events: list[Event]) -> Card:
        card = self._draw(events)
        hand = self.hands[index]
        hand.cards.append(card)
        total = hand.total()
        events.append(
            Event(
                "card",
                player=hand.player,
                data={
                    "hand": index,
                    "card": card.code,
                    "total": total.value,
                    "soft": total.soft,
                },
            )
        )
        return card

    # ------------------------------------------------------------------ actions
    def _do(self, a: Action) -> list[Event]:
        events: list[Event] = []
        k, p = a.kind, a.player
        if k is ActionKind.CLOSE:
            self._close(events)
        elif k is ActionKind.TIMEOUT:
            self._timeout(events)
        elif k is ActionKind.START:
            self._start(events)
        elif k is ActionKind.JOIN:
            assert p is not None and a.amount is not None
            self.seats.append(p)
            self.stacks[p] = 0
            if self.host is None or self.host not in self.stacks:
                self.host = p
            money: tuple[Money, ...] = ()
            if a.amount:
                money = (self._money(MoneyKind.BUY_IN, wallet(p), seat(p), a.amount, p),)
            events.append(
                Event(
                    "joined",
                    player=p,
                    data={"seat": len(self.seats) - 1, "stack": self.stacks[p]},
                    money=money,
                )
            )
        elif k is ActionKind.LEAVE:
            assert p is not None
            self._leave(p, events)
        elif k is ActionKind.TOP_UP:
            assert p is not None and a.amount is not None
            m = self._money(MoneyKind.TOP_UP, wallet(p), seat(p), a.amount, p)
            events.append(Event("top_up", player=p, data={"stack": self.stacks[p]}, money=(m,)))
        elif k is ActionKind.BET:
            assert p is not None and a.amount is not None
            self.pending_bets.remove(p)
            self.bets[p] = a.amount
            m = self._stake(p, a.amount)
            events.append(Event("bet", player=p, data={"amount": a.amount}, money=(m,)))
            self._maybe_deal(events)
        elif k is ActionKind.SIT_OUT:
            assert p is not None
            self.pending_bets.remove(p)
            events.append(Event("sit_out", player=p))
            self._maybe_deal(events)
        elif k in (ActionKind.INSURANCE, ActionKind.NO_INSURANCE):
            assert p is not None
            self._insure(p, k is ActionKind.INSURANCE, events)
            if not self.insurance_pending:
                self._after_insurance(events)
        else:
            self._play(k, events)
        return events

    def _leave(self, p: int, events: list[Event]) -> None:
        if p in self.pending_bets:
            self.pending_bets.remove(p)
        amount = self.stacks.pop(p)
        self.seats.remove(p)
        money: tuple[Money, ...] = ()
        if amount:
            money = (Money(MoneyKind.CASH_OUT, seat(p), claim(p), amount, p),)
        events.append(Event("left", player=p, data={"cash_out": amount}, money=money))
        if self.host == p:
            self.host = self.seats[0] if self.seats else None
            if self.host is not None:
                events.append(Event("host_changed", player=self.host))
        if self._phase is Phase.BETTING:
            self._maybe_deal(events)

    def _start(self, events: list[Event]) -> None:
        self.round += 1
        self.pending_bets = [p for p in self.seats if self.stacks[p] >= self.options.min_bet]
        self.bets = {}
        self.hands = []
        self.current = 0
        self.dealer = []
        self.hole_revealed = False
        self.insurance_pending = []
        self.insurance = {}
        self.insurance_results = {}
        self._phase = Phase.BETTING
        if self._needs_shuffle():
            self._new_shoe(events)
        elif self.spare is None:  # a snapshot from before spares: commit one now
            self.spare = self.entropy(self.shuffles)
        events.append(
            Event(
                "betting_open",
                data={
                    "round": self.round,
                    "players": list(self.pending_bets),
                    "min_bet": self.options.min_bet,
                    "max_bet": self.options.max_bet,
                },
            )
        )

    def _maybe_deal(self, events: list[Event]) -> None:
        if self.pending_bets:
            return
        if not self.bets:
            self._phase = Phase.BETWEEN_ROUNDS
            events.append(Event("round_cancelled", data={"round": self.round}))
            return
        self._deal(events)

    def _timeout(self, events: list[Event]) -> None:
        if self._phase is Phase.BETTING:
            for p in list(self.pending_bets):
                self.pending_bets.remove(p)
                events.append(Event("sit_out", player=p, data={"timeout": True}))
            self._maybe_deal(events)
        elif self._phase is Phase.INSURANCE:
            for p in list(self.insurance_pending):
                self._insure(p, False, events, timeout=True)
            self._after_insurance(events)
        else:
            self._stand(events, timeout=True)

    def _deal(self, events: list[Event]) -> None:
        players = [p for p in self.seats if p in self.bets]
        self.hands = [_Hand(p, self.bets[p]) for p in players]
        events.append(Event("deal", data={"players": players}))
        for i in range(len(self.hands)):
            self._deal_to(i, events)
        up = self._draw(events)
        self.dealer = [up]
        events.append(Event("dealer_card", data={"card": up.code}))
        for i in range(len(self.hands)):
            self._deal_to(i, events)
        hole = self._draw(events)
        self.dealer.append(hole)
        events.append(Event("hole_card", Visibility.HIDDEN, data={"card": hole.code}))
        for i, hand in enumerate(self.hands):
            if is_blackjack(hand.cards):
                hand.status = "blackjack"
                events.append(Event("blackjack", player=hand.player, data={"hand": i}))
        if up.rank is Rank.ACE:
            self.insurance_pending = [
                h.player for h in self.hands if h.bet >= 2 and self.stacks[h.player] >= h.bet // 2
            ]
            if self.insurance_pending:
                self._phase = Phase.INSURANCE
                events.append(
                    Event("insurance_offered", data={"players": list(self.insurance_pending)})
                )
                return
        self._after_insurance(events)

    def _insure(self, p: int, take: bool, events: list[Event], timeout: bool = False) -> None:
        self.insurance_pending.remove(p)
        if take:
            stake = self.bets[p] // 2
            self.insurance[p] = stake
            m = self._stake(p, stake)
            events.append(Event("insurance", player=p, data={"amount": stake}, money=(m,)))
        else:
            data = {"timeout": True} if timeout else {}
            events.append(Event("no_insurance", player=p, data=data))

    def _dealer_blackjack(self) -> bool:
        return is_blackjack(self.dealer)

    def _reveal_hole(self, events: list[Event]) -> None:
        self.hole_revealed = True
        total = bj_total(self.dealer)
        events.append(
            Event(
                "hole_revealed",
                data={
                    "card": self.dealer[1].code,
                    "total": total.value,
                    "soft": total.soft,
                    "blackjack": self._dealer_blackjack(),
                },
            )
        )

    def _settle_insurance(self, events: list[Event]) -> set[int]:
        """Settle the insurance stakes; return the players whose insurance holds. Without a
        dealer blackjack a stake is lost. With one the stake comes back, and so does the
        insured hand's bet (``_settle_hand``): "the hand keeps its bet and its insurance"
        and nets exactly 0, whatever the bet's parity, a player blackjack too (no even
        money)."""
        held = self._dealer_blackjack()
        for p, stake in self.insurance.items():
            if held:
                money: tuple[Money, ...] = (self._refund(p, stake),)
                self.insurance_results[p] = 0
            else:
                money = (self._lose(p, stake),)
                self.insurance_results[p] = -stake
            events.append(
                Event(
                    "insurance_settled",
                    player=p,
                    data={"won": held, "stake": stake, "net": self.insurance_results[p]},
                    money=money,
                )
            )
        insured = set(self.insurance) if held else set()
        self.insurance = {}
        return insured

    def _after_insurance(self, events: list[Event]) -> None:
        up = self.dealer[0]
        if self.options.dealer_peeks and is_ten_or_ace(up):
            if self._dealer_blackjack():
                self._reveal_hole(events)
                self._settle(events)
                return
            self._settle_insurance(events)
            events.append(Event("dealer_peeked", data={"blackjack": False}))
        self._phase = Phase.PLAYING
        self.current = 0
        self._advance(events)

    def _advance(self, events: list[Event]) -> None:
        """Move to the first hand from ``current`` that needs a decision."""
        while self.current < len(self.hands):
            hand = self.hands[self.current]
            if hand.status == "active":
                if len(hand.cards) == 1:  # second hand of a split gets its second card
                    self._deal_to(self.current, events)
                    if self._after_split_card(hand):
                        self.current += 1
                        continue
                if hand.total().value == 21:
                    hand.status = "stood"
                    self.current += 1
                    continue
                events.append(Event("turn", player=hand.player, data={"hand": self.current}))
                return
            self.current += 1
        self._dealer_turn(events)

    def _after_split_card(self, hand: _Hand) -> bool:
        """Split aces with one card each stand at once; True when the hand is done."""
        if self.options.split_aces_one_card and hand.split and hand.cards[0].rank is Rank.ACE:
            hand.status = "stood"
            return True
        return False

    def _stand(self, events: list[Event], timeout: bool = False) -> None:
        hand = self.hands[self.current]
        hand.status = "stood"
        data: dict[str, Any] = {"hand": self.current}
        if timeout:
            data["timeout"] = True
        events.append(Event("stand", player=hand.player, data=data))
        self.current += 1
        self._advance(events)

    def _bust(self, hand: _Hand, events: list[Event]) -> None:
        hand.status = "bust"
        hand.result = "bust"
        hand.net = -hand.bet
        m = self._lose(hand.player, hand.bet)
        events.append(
            Event(
                "bust",
                player=hand.player,
                data={"hand": self.current, "total": hand.total().value},
                money=(m,),
            )
        )

    def _play(self, k: ActionKind, events: list[Event]) -> None:
        hand = self.hands[self.current]
        p = hand.player
        if k is ActionKind.STAND:
            self._stand(events)
            return
        if k is ActionKind.HIT:
            events.append(Event("hit", player=p, data={"hand": self.current}))
            self._deal_to(self.current, events)
            if hand.total().bust:
                self._bust(hand, events)
                self.current += 1
        elif k is ActionKind.DOUBLE:
            m = self._stake(p, hand.bet)
            hand.bet *= 2
            hand.doubled = True
            events.append(
                Event("double", player=p, data={"hand": self.current, "bet": hand.bet}, money=(m,))
            )
            self._deal_to(self.current, events)
            if hand.total().bust:
                self._bust(hand, events)
            else:
                hand.status = "stood"
            self.current += 1
        elif k is ActionKind.SPLIT:
            m = self._stake(p, hand.bet)
            second = hand.cards.pop()
            new = _Hand(p, hand.bet, [second], split=True)
            hand.split = True
            self.hands.insert(self.current + 1, new)
            events.append(
                Event(
                    "split",
                    player=p,
                    data={
                        "hand": self.current,
                        "new_hand": self.current + 1,
                        "bet": hand.bet,
                    },
                    money=(m,),
                )
            )
            self._deal_to(self.current, events)
            if self._after_split_card(hand):
                self.current += 1
        elif k is ActionKind.SURRENDER:
            back = hand.bet // 2
            hand.status = "surrendered"
            hand.result = "surrender"
            hand.net = back - hand.bet
            money = [self._refund(p, back, _exact(hand.bet, 2))]
            if hand.bet - back:
                money.append(self._lose(p, hand.bet - back))
            events.append(
                Event(
                    "surrender",
                    player=p,
                    data={"hand": self.current, "refund": back, "exact": _exact(hand.bet, 2)},
                    money=tuple(money),
                )
            )
            self.current += 1
        self._advance(events)

    def _dealer_turn(self, events: list[Event]) -> None:
        self._reveal_hole(events)
        live = any(h.status == "stood" for h in self.hands)
        if live and not self._dealer_blackjack():
            while dealer_should_hit(bj_total(self.dealer), self.options.dealer_hits_soft_17):
                card = self._draw(events)
                self.dealer.append(card)
                total = bj_total(self.dealer)
                events.append(
                    Event(
                        "dealer_card",
                        data={"card": card.code, "total": total.value, "soft": total.soft},
                    )
                )
        self._settle(events)

    def _settle(self, events: list[Event]) -> None:
        self._phase = Phase.BETWEEN_ROUNDS
        insured_players = self._settle_insurance(events)
        first_hands: dict[int, int] = {}
        for i, hand in enumerate(self.hands):
            first_hands.setdefault(hand.player, i)
        insured = {first_hands[p] for p in insured_players}  # the hand that was insured
        dealer_total = bj_total(self.dealer)
        dealer_bj = self._dealer_blackjack()
        money: list[Money] = []
        results: list[dict[str, Any]] = []
        for i, hand in enumerate(self.hands):
            exact: str | None = None
            if hand.result is None:
                exact = self._settle_hand(hand, dealer_total, i in insured, money)
            results.append(self._hand_result(i, hand, exact))
        per_player: dict[int, int] = {}
        for hand in self.hands:
            per_player[hand.player] = per_player.get(hand.player, 0) + hand.net
        for p, net in self.insurance_results.items():
            per_player[p] = per_player.get(p, 0) + net
        self.last_summary = {
            "round": self.round,
            "dealer": [c.code for c in self.dealer],
            "dealer_total": dealer_total.value,
            "dealer_blackjack": dealer_bj,
            "dealer_bust": dealer_total.bust,
            "hands": results,
            "insurance": [{"player": p, "net": n} for p, n in self.insurance_results.items()],
            "net": [{"player": p, "net": n} for p, n in per_player.items()],
        }
        events.append(Event("round_settled", data=self.last_summary, money=tuple(money)))
        self.current = len(self.hands)
        self._reveal_seeds(events)  # a shoe that ran out during the round

    def _settle_hand(
        self, hand: _Hand, dealer_total: BJTotal, insured: bool, money: list[Money]
    ) -> str | None:
        """Settle one hand against the dealer (``insured``: the insurance held); return
        the unrounded net when it is not whole (blackjack winnings)."""
        p, bet = hand.player, hand.bet
        dealer_bj = self._dealer_blackjack()
        if insured:  # the dealer has a blackjack: the bet comes back (a part doubled
            # without a peek is lost like any bet against a blackjack)
            kept = min(bet, self.bets[p])
            hand.result, hand.net = "insured", kept - bet
            money.append(self._refund(p, kept))
            if bet > kept:
                money.append(self._lose(p, bet - kept))
            return None
        total = hand.total()
        if hand.status == "blackjack" and not dealer_bj:
            num, den = PAYOUT_RATIOS[self.options.blackjack_pays]
            win, exact = bet * num // den, _exact(bet * num, den)
            hand.result, hand.net = "blackjack", win
            money += [self._refund(p, bet), self._pay(p, win, exact)]
            return exact
        if hand.status == "blackjack":
            hand.result = "push"
        elif dealer_bj or (not dealer_total.bust and total.value < dealer_total.value):
            hand.result, hand.net = "loss", -bet
            money.append(self._lose(p, bet))
        elif dealer_total.bust or total.value > dealer_total.value:
            hand.result, hand.net = "win", bet
            money += [self._refund(p, bet), self._pay(p, bet)]
        else:
            hand.result = "push"
        if hand.result == "push":
            money.append(self._refund(p, bet))
        return None

    @staticmethod
    def _hand_result(i: int, hand: _Hand, exact: str | None) -> dict[str, Any]:
        """A settled hand as the round summary lists it."""
        result: dict[str, Any] = {
            "player": hand.player,
            "hand": i,
            "cards": [c.code for c in hand.cards],
            "total": hand.total().value,
            "bet": hand.bet,
            "doubled": hand.doubled,
            "split": hand.split,
            "result": hand.result,
            "net": hand.net,
        }
        if hand.result == "surrender":
            exact = _exact(-hand.bet, 2)
        if exact is not None:  # unrounded: blackjack winnings, half a surrendered bet
            result["exact_net"] = exact
        return result

    def _close(self, events: list[Event]) -> None:
        money: list[Money] = []
        if self._phase is Phase.BETTING:
            for p, bet in self.bets.items():
                money.append(self._refund(p, bet))
        elif self._phase in (Phase.INSURANCE, Phase.PLAYING):
            for hand in self.hands:
                if hand.result is None:
                    money.append(self._refund(hand.player, hand.bet))
                    hand.result = "refunded"
            for p, stake in self.insurance.items():
                money.append(self._refund(p, stake))
            self.insurance = {}
        if money:
            events.append(Event("round_refunded", data={"round": self.round}, money=tuple(money)))
        self._retire_shoe(events, reveal=False)
        if self.spare is not None:  # its commitment was shown: its seed is revealed too
            self.unrevealed.append({"seed": self.spare.hex(), "spec": self._spec})
            self.spare = None
        self._reveal_seeds(events)
        for p in list(self.seats):
            amount = self.stacks.pop(p)
            cash = (Money(MoneyKind.CASH_OUT, seat(p), claim(p), amount, p),) if amount else ()
            events.append(Event("left", player=p, data={"cash_out": amount}, money=cash))
        self.seats = []
        self.pending_bets = []
        self.insurance_pending = []
        self._phase = Phase.FINISHED
        events.append(Event("closed"))

    # ------------------------------------------------------------------ views
    def _hand_view(self, i: int, hand: _Hand) -> dict[str, Any]:
        total = hand.total()
        return {
            "index": i,
            "player": hand.player,
            "cards": [c.code for c in hand.cards],
            "total": total.value,
            "soft": total.soft,
            "bet": hand.bet,
            "status": hand.status,
            "doubled": hand.doubled,
            "split": hand.split,
            "result": hand.result,
            "net": hand.net,
        }

    def public_view(self) -> dict[str, Any]:
        if self.hole_revealed or len(self.dealer) < 2:
            dealer_cards: list[str | None] = [c.code for c in self.dealer]
            shown = self.dealer
        else:
            dealer_cards = [self.dealer[0].code, None]
            shown = self.dealer[:1]
        dealer_total = bj_total(shown) if shown else None
        return {
            "game": self.GAME,
            "phase": self._phase.value,
            "round": self.round,
            "host": self.host,
            "options": self.options.to_dict(),
            "seats": [
                {"player": p, "stack": self.stacks[p], "bet": self.bets.get(p)} for p in self.seats
            ],
            "pending_bets": list(self.pending_bets),
            "insurance_pending": list(self.insurance_pending),
            "insurance": [{"player": p, "amount": s} for p, s in self.insurance.items()],
            "hands": [self._hand_view(i, h) for i, h in enumerate(self.hands)],
            "current_hand": self.current if self._phase is Phase.PLAYING else None,
            "to_act": self.to_act,
            "deadline": self.deadline.value if self.deadline else None,
            "dealer": {
                "cards": dealer_cards,
                "total": dealer_total.value if dealer_total else None,
                "soft": dealer_total.soft if dealer_total else False,
                "hole_hidden": len(self.dealer) >= 2 and not self.hole_revealed,
            },
            "pot": self.pot,
            "shoe": None
            if self.shoe is None
            else {
                "number": self.shuffles,
                "commitment": self.shoe.commitment,
                "size": self.shoe.size,
                "remaining": self.shoe.remaining,
            },
            "next_commitment": None if self.spare is None else commitment(self.spare),
            "last_round": self.last_summary,
        }

    def private_view(self, player: int) -> dict[str, Any]:
        view = self.public_view()
        view["you"] = {
            "player": player,
            "seated": player in self.stacks,
            "stack": self.stacks.get(player),
            "bet_limits": list(self.bet_limits(player)) if player in self.stacks else None,
            "legal": sorted(k.value for k in self.legal_actions(player)),
        }
        return view

    # ------------------------------------------------------------------ snapshots
    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "game": self.GAME,
            "options": self.options.to_dict(),
            "host": self.host,
            "phase": self._phase.value,
            "seats": [[p, self.stacks[p]] for p in self.seats],
            "round": self.round,
            "pot": self.pot,
            "shoe": None if self.shoe is None else self.shoe.to_dict(),
            "shuffles": self.shuffles,
            "spare": None if self.spare is None else self.spare.hex(),
            "pending_bets": list(self.pending_bets),
            "bets": [[p, b] for p, b in self.bets.items()],
            "hands": [h.to_dict() for h in self.hands],
            "current": self.current,
            "dealer": [c.code for c in self.dealer],
            "hole_revealed": self.hole_revealed,
            "insurance_pending": list(self.insurance_pending),
            "insurance": [[p, s] for p, s in self.insurance.items()],
            "insurance_results": [[p, n] for p, n in self.insurance_results.items()],
            "last_summary": self.last_summary,
            "unrevealed": list(self.unrevealed),
        }
        if self._rigged:
            out["rigged"] = [c.code for c in self._rigged]
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], *, entropy: Entropy = secure_entropy) -> Self:
        game = cls(ClassicOptions.from_dict(data["options"]), host=data["host"], entropy=entropy)
        game._phase = Phase(data["phase"])
        game.seats = [int(p) for p, _ in data["seats"]]
        game.stacks = {int(p): int(s) for p, s in data["seats"]}
        game.round = int(data["round"])
        game.pot = int(data["pot"])
        game.shoe = None if data["shoe"] is None else Shoe.from_dict(dict(data["shoe"]))
        game.shuffles = int(data["shuffles"])
        spare = data.get("spare")
        game.spare = None if spare is None else bytes.fromhex(spare)
        game.pending_bets = [int(p) for p in data["pending_bets"]]
        game.bets = {int(p): int(b) for p, b in data["bets"]}
        game.hands = [_Hand.from_dict(h) for h in data["hands"]]
        game.current = int(data["current"])
        game.dealer = [Card.parse(c) for c in data["dealer"]]
        game.hole_revealed = bool(data["hole_revealed"])
        game.insurance_pending = [int(p) for p in data["insurance_pending"]]
        game.insurance = {int(p): int(s) for p, s in data["insurance"]}
        game.insurance_results = {int(p): int(n) for p, n in data["insurance_results"]}
        game.last_summary = data["last_summary"]
        game.unrevealed = [
            {"seed": str(d["seed"]), "spec": str(d["spec"])} for d in data.get("unrevealed", [])
        ]
        game._rigged = [Card.parse(c) for c in data.get("rigged", [])]
        return game
