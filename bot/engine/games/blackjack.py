"""Black Jack, casino rules (``blackjack``, formerly ``classic``): docs/RULES.md section 1.

The bot is the dealer. The base (:class:`~bot.engine.base.TableGame`) seats the players,
takes the bets in any order, times out, closes and keeps the shoe; this module deals, plays
the hands and the dealer, and settles.

Money: every stake (a bet, an insurance, a double or a split) goes seat -> pot. A busted
hand loses at once; a surrender gets floor(bet/2) back; a settled hand gets its stake back
(REFUND) plus its winnings from the house (PAYOUT, rounded down, the exact figure in
``Money.exact``), or loses it to the house. Against a dealer blackjack an insured hand gets
both stakes back (net 0, no even money); a blackjack is not offered insurance. A stack at
0 stays seated until a top-up.

Fairness: the next shoe's seed (the spare) is committed as soon as a shoe goes in use, so
a shoe that runs out mid-round is replaced by one committed before the round (its seed is
revealed after the round); closing reveals the shoe in use and the spare.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any, ClassVar

from ..actions import Action, ActionKind
from ..base import BuyIn, Refusal, Seat, TableGame
from ..cards import Card, Rank
from ..errors import NOT_YOUR_TURN, SHARED_CODES, UNKNOWN_ACTION, WRONG_PHASE, refuse
from ..events import ROUND_SETTLED, ROUND_STARTED, TURN, Event, Money, Visibility, exact_figure
from ..hands import BJTotal, bj_total, bj_value, is_blackjack
from ..options import GameOptions, OptionKind, OptionSpec, bet_options
from ..phases import Phase
from ..summaries import BlackjackRound, blackjack_round
from ..upgrades import blackjack_v1
from ..views import BlackjackPart, BlackjackYou, DealerView, HandView, InsuranceView

MAX_SEATS = 7

# --------------------------------------------------------------------------- options

_I = OptionKind.INT
PAYOUT_RATIOS: dict[str, tuple[int, int]] = {"3:2": (3, 2), "6:5": (6, 5), "1:1": (1, 1)}

#: The options of a Black Jack table (RULES.md section 1): ``/table open``, ``/rules``.
BLACKJACK_OPTIONS: tuple[OptionSpec, ...] = (
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
    *bet_options(10, 500, 1_000_000_000),
    OptionSpec(
        "max_hands",
        OptionKind.INT,
        4,
        "hands a player may hold by splitting",
        "mains qu'un joueur peut tenir en séparant",
        min=2,
        max=4,
    ),
    OptionSpec(
        "split_aces_one_card",
        OptionKind.BOOL,
        True,
        "split aces get one card each",
        "les as séparés ne reçoivent qu'une carte chacun",
    ),
    OptionSpec("double", OptionKind.BOOL, True, "doubling allowed", "doubler est permis"),
    OptionSpec("surrender", OptionKind.BOOL, False, "surrender allowed", "abandonner est permis"),
    OptionSpec(
        "dealer_peeks",
        OptionKind.BOOL,
        True,
        "the dealer checks for blackjack under an ace or a ten",
        "le croupier vérifie son Black Jack sous un as ou un dix",
    ),
    OptionSpec(
        "dealer_hits_soft_17",
        OptionKind.BOOL,
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


@dataclass(frozen=True, slots=True)
class BlackjackOptions(GameOptions):
    """Per-table options of Black Jack (RULES.md section 1), typed, with their defaults."""

    SPECS = BLACKJACK_OPTIONS
    #: options of earlier versions still found in stored snapshots (the table settings
    #: hold the timers now): read and dropped
    LEGACY = ("bet_seconds", "turn_seconds")

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


#: Every ``IllegalAction.code`` this game raises, for the UI's translations.
ILLEGAL_CODES: frozenset[str] = SHARED_CODES | {
    "nobody_can_bet",  # START with no seated player able to cover min_bet
    "no_insurance_offered",  # nothing to insure now / already answered
    "wrong_hand",  # Action.hand is not the hand being played (params: current)
    "cannot_split",  # params: reason
    "cannot_double",  # params: reason
    "cannot_surrender",  # params: reason
}

_K = ActionKind


def is_ten_or_ace(card: Card) -> bool:
    """Dealer up cards that make the dealer peek."""
    return card.rank is Rank.ACE or bj_value(card) == 10


def dealer_should_hit(total: BJTotal, hits_soft_17: bool) -> bool:
    """The dealer's fixed drawing rule."""
    return total.value < 17 or (hits_soft_17 and total.value == 17 and total.soft)


@dataclass(slots=True)
class _Hand:
    """One player hand (a split makes more). Mutable; only the game touches it."""

    player: int
    bet: int
    cards: list[Card] = field(default_factory=list)
    split: bool = False
    status: str = "active"  # active | stood | bust | surrendered | blackjack
    doubled: bool = False
    result: str | None = None  # set once the hand's money is settled
    net: int = 0

    def total(self) -> BJTotal:
        return bj_total(self.cards)

    def to_dict(self) -> dict[str, Any]:
        out = {name: getattr(self, name) for name in _HAND_FIELDS}
        out["cards"] = [c.code for c in self.cards]
        return out

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> _Hand:
        return cls(**{**d, "cards": [Card.parse(c) for c in d["cards"]]})

    def view(self, index: int) -> HandView:
        """The hand as the public view shows it."""
        total = self.total()
        return HandView(
            index=index,
            player=self.player,
            cards=tuple([c.code for c in self.cards]),
            total=total.value,
            soft=total.soft,
            bet=self.bet,
            status=self.status,
            doubled=self.doubled,
            split=self.split,
            result=self.result,
            net=self.net,
        )


_HAND_FIELDS = tuple(f.name for f in fields(_Hand))
# Members read on every check, bound once (see base.py).
_INSURANCE, _PLAYING = Phase.INSURANCE, Phase.PLAYING
_DOUBLE, _SPLIT, _SURRENDER = _K.DOUBLE, _K.SPLIT, _K.SURRENDER
_PLAY_KINDS = frozenset({_K.HIT, _K.STAND, _K.DOUBLE, _K.SPLIT, _K.SURRENDER})
_INSURE_KINDS = frozenset({_K.INSURANCE, _K.NO_INSURANCE})


class BlackjackGame(TableGame[Seat]):
    """Casino Black Jack with the bot as dealer."""

    GAME: ClassVar[str] = "blackjack"
    Options = BlackjackOptions
    MAX_PLAYERS = MAX_SEATS
    FORMAT = 2
    UPGRADES = (blackjack_v1,)
    TOP_UP_PHASES = frozenset({Phase.LOBBY, Phase.BETWEEN_ROUNDS})
    MOVES: ClassVar[Mapping[Phase, tuple[ActionKind, ...]]] = {
        Phase.INSURANCE: (_K.INSURANCE, _K.NO_INSURANCE),
        Phase.PLAYING: (_K.HIT, _K.STAND, _K.DOUBLE, _K.SPLIT, _K.SURRENDER),
    }
    SPARE = True
    ILLEGAL_CODES = ILLEGAL_CODES
    options: BlackjackOptions

    def init_state(self) -> None:
        self.hands: list[_Hand] = []
        self.current = 0  # the hand being played
        self.dealer: list[Card] = []
        self.hole_revealed = False
        self.insurance: dict[int, int] = {}  # stakes taken, not yet settled
        self.insurance_results: dict[int, int] = {}  # player -> net once settled

    # ------------------------------------------------------------------ hooks: the table

    def deck_spec(self) -> str:
        return f"std52*{self.options.decks}"

    def bet_range(self, seat: Seat) -> tuple[int, int]:
        return self.options.min_bet, self.options.max_bet

    def house_exposure(self, bets: Mapping[int, int]) -> int:
        """Per bet, the larger of a natural's premium and every stake the player could
        still add (splits up to max_hands, each doubled, within the stack) won at 1:1."""
        num, den = PAYOUT_RATIOS[self.options.blackjack_pays]
        total = 0
        for player, bet in bets.items():
            seat = self._seat_of.get(player)
            rest = 0 if seat is None else max(0, seat.stack - (bet - seat.bet))
            staked = min(bet + rest, 2 * self.options.max_hands * bet)
            total += max(bet * num // den, staked)
        return total

    def round_worst_case(self) -> int:
        """A maximum bet split into max_hands hands, each doubled, all won at 1:1 (or its
        natural's premium, when larger)."""
        num, den = PAYOUT_RATIOS[self.options.blackjack_pays]
        bet = self.options.max_bet
        return max(bet * num // den, 2 * self.options.max_hands * bet)

    def buy_in(self) -> BuyIn:
        return BuyIn(minimum=self.options.min_bet)

    def refuse_start(self, player: int | None) -> Refusal:
        if not any(s.stack >= self.options.min_bet for s in self.seats):
            return refuse("nobody_can_bet", min_bet=self.options.min_bet)
        return None

    def start_round(self, events: list[Event]) -> None:
        self.begin_round()
        self.init_state()
        shoe = self.shoe
        if shoe is None or shoe.pos >= self.options.penetration * shoe.size:
            self.new_shoe(events)
        elif self.spare is None:  # a snapshot from before spares: commit one now
            self.commit_spare()
        bettors = [s.player for s in self.seats if s.stack >= self.options.min_bet]
        self.open_bets(bettors)
        data = {
            "round": self.round,
            "players": list(bettors),
            "min_bet": self.options.min_bet,
            "max_bet": self.options.max_bet,
        }
        events.append(Event(ROUND_STARTED, data=data))

    def unsettled_stakes(self) -> list[tuple[int, int]]:
        if self.phase is Phase.BETTING:
            return [(s.player, s.bet) for s in self.seats if s.bet]
        out = []
        for hand in self.hands:
            if hand.result is None:
                out.append((hand.player, hand.bet))
                hand.result = "refunded"
        out += self.insurance.items()
        self.insurance = {}
        return out

    def on_timeout(self, events: list[Event]) -> None:
        if self.phase is Phase.INSURANCE:
            for p in list(self.waiting):
                self._insure(self._seat_of[p], False, events, timeout=True)
            self._after_insurance(events)
        elif self.phase is Phase.PLAYING:
            self._stand(events, timeout=True)
        else:
            super().on_timeout(events)

    # ------------------------------------------------------------------ hooks: moves

    def refuse_move(self, action: Action, seat: Seat) -> Refusal:
        k, ph = action.kind, self.phase
        if k in _INSURE_KINDS:
            if ph is _INSURANCE:
                waited = seat.player in self.waiting
                return None if waited else refuse("no_insurance_offered")
            return refuse("no_insurance_offered" if ph is _PLAYING else WRONG_PHASE)
        if k not in _PLAY_KINDS:
            return refuse(UNKNOWN_ACTION, kind=k.value)
        if ph is not _PLAYING:
            return refuse(WRONG_PHASE)
        if self.to_act != seat.player:
            return refuse(NOT_YOUR_TURN)
        if action.hand is not None and action.hand != self.current:
            return refuse("wrong_hand", current=self.current)
        hand = self.hands[self.current]
        if k is _DOUBLE:
            return self._refuse_double(hand, seat)
        if k is _SPLIT:
            return self._refuse_split(hand, seat)
        if k is _SURRENDER:
            return self._refuse_surrender(hand)
        return None

    def _refuse_double(self, hand: _Hand, seat: Seat) -> Refusal:
        if not self.options.double:
            return refuse("cannot_double", reason="disabled")
        if len(hand.cards) != 2:
            return refuse("cannot_double", reason="not_first_two_cards")
        if seat.stack < hand.bet:
            return refuse("insufficient_stack", needed=hand.bet, stack=seat.stack)
        return None

    def _refuse_split(self, hand: _Hand, seat: Seat) -> Refusal:
        if len(hand.cards) != 2 or bj_value(hand.cards[0]) != bj_value(hand.cards[1]):
            return refuse("cannot_split", reason="not_a_pair")
        count = sum(1 for h in self.hands if h.player == hand.player)
        if count >= self.options.max_hands:
            return refuse("cannot_split", reason="max_hands", max=self.options.max_hands)
        if seat.stack < hand.bet:
            return refuse("insufficient_stack", needed=hand.bet, stack=seat.stack)
        return None

    def _refuse_surrender(self, hand: _Hand) -> Refusal:
        if not self.options.surrender:
            return refuse("cannot_surrender", reason="disabled")
        if hand.split or len(hand.cards) != 2:
            return refuse("cannot_surrender", reason="not_first_two_cards")
        return None

    def play(self, action: Action, seat: Seat, events: list[Event]) -> None:
        k = action.kind
        if k in _INSURE_KINDS:
            self._insure(seat, k is _K.INSURANCE, events)
            if not self.waiting:
                self._after_insurance(events)
            return
        hand = self.hands[self.current]
        if k is _K.STAND:
            self._stand(events)
            return
        if k is _K.HIT:
            events.append(Event("hit", player=seat.player, data={"hand": self.current}))
            self._deal_to(self.current, events)
            if hand.total().bust:
                self._bust(hand, events)
                self.current += 1
        elif k is _K.DOUBLE:
            self._double(hand, seat, events)
        elif k is _K.SPLIT:
            self._split(hand, seat, events)
        else:
            self._surrender(hand, seat, events)
        self._advance(events)

    def _double(self, hand: _Hand, seat: Seat, events: list[Event]) -> None:
        m = self.stake(seat, hand.bet)
        hand.bet *= 2
        hand.doubled = True
        data = {"hand": self.current, "bet": hand.bet}
        events.append(Event("double", player=seat.player, data=data, money=(m,)))
        self._deal_to(self.current, events)
        if hand.total().bust:
            self._bust(hand, events)
        else:
            hand.status = "stood"
        self.current += 1

    def _split(self, hand: _Hand, seat: Seat, events: list[Event]) -> None:
        m = self.stake(seat, hand.bet)
        second = hand.cards.pop()
        hand.split = True
        self.hands.insert(self.current + 1, _Hand(seat.player, hand.bet, [second], split=True))
        data = {"hand": self.current, "new_hand": self.current + 1, "bet": hand.bet}
        events.append(Event("split", player=seat.player, data=data, money=(m,)))
        self._deal_to(self.current, events)
        if self._after_split_card(hand):
            self.current += 1

    def _surrender(self, hand: _Hand, seat: Seat, events: list[Event]) -> None:
        back = hand.bet // 2
        exact = exact_figure(hand.bet, 2)
        hand.status = "surrendered"
        hand.result = "surrender"
        hand.net = back - hand.bet
        money = self.settle_bet(seat, hand.bet, hand.net, exact)
        data = {"hand": self.current, "refund": back, "exact": exact}
        events.append(Event("surrender", player=seat.player, data=data, money=tuple(money)))
        self.current += 1

    # ------------------------------------------------------------------ cards

    def _deal_to(self, index: int, events: list[Event]) -> Card:
        card = self.draw(events)
        hand = self.hands[index]
        hand.cards.append(card)
        total = hand.total()
        data = {"hand": index, "card": card.code, "total": total.value, "soft": total.soft}
        events.append(Event("card", player=hand.player, data=data))
        return card

    def deal(self, events: list[Event]) -> None:
        """The bets are closed: two cards each, the dealer's up card and hole card."""
        players = [s.player for s in self.seats if s.bet]
        self.hands = [_Hand(p, self._seat_of[p].bet) for p in players]
        events.append(Event("deal", data={"players": players}))
        for i in range(len(self.hands)):
            self._deal_to(i, events)
        up = self.draw(events)
        self.dealer = [up]
        events.append(Event("dealer_card", data={"card": up.code}))
        for i in range(len(self.hands)):
            self._deal_to(i, events)
        hole = self.draw(events)
        self.dealer.append(hole)
        events.append(Event("hole_card", Visibility.HIDDEN, data={"card": hole.code}))
        for i, hand in enumerate(self.hands):
            if is_blackjack(hand.cards):
                hand.status = "blackjack"
                events.append(Event("blackjack", player=hand.player, data={"hand": i}))
        if up.rank is Rank.ACE:
            # a blackjack is not offered insurance: insured it nets 0 against a dealer
            # blackjack, as it pushes uninsured, and loses the stake otherwise
            asked = [
                h.player
                for h in self.hands
                if h.status != "blackjack"
                and h.bet >= 2
                and self._seat_of[h.player].stack >= h.bet // 2
            ]
            if asked:
                self.phase = Phase.INSURANCE
                self.wait_for(asked, sequential=False)
                events.append(Event("insurance_offered", data={"players": list(asked)}))
                return
        self._after_insurance(events)

    def _insure(self, seat: Seat, take: bool, events: list[Event], timeout: bool = False) -> None:
        p = seat.player
        self.waiting.remove(p)
        if take:
            stake = seat.bet // 2
            self.insurance[p] = stake
            m = self.stake(seat, stake)
            events.append(Event("insurance", player=p, data={"amount": stake}, money=(m,)))
        else:
            data = {"timeout": True} if timeout else {}
            events.append(Event("no_insurance", player=p, data=data))

    def _dealer_blackjack(self) -> bool:
        return is_blackjack(self.dealer)

    def _reveal_hole(self, events: list[Event]) -> None:
        self.hole_revealed = True
        total = bj_total(self.dealer)
        data = {
            "card": self.dealer[1].code,
            "total": total.value,
            "soft": total.soft,
            "blackjack": self._dealer_blackjack(),
        }
        events.append(Event("hole_revealed", data=data))

    def _settle_insurance(self, events: list[Event]) -> set[int]:
        """Settle the insurance stakes; return the players whose insurance holds. Without a
        dealer blackjack a stake is lost. With one the stake comes back, and so does the
        insured hand's bet (``_settle_hand``): "the hand keeps its bet and its insurance"
        and nets exactly 0, whatever the bet's parity, a player blackjack too (no even
        money)."""
        held = self._dealer_blackjack()
        for p, stake in self.insurance.items():
            seat = self._seat_of[p]
            if held:
                money = self.refund(seat, stake)
                self.insurance_results[p] = 0
            else:
                money = self.lose(seat, stake)
                self.insurance_results[p] = -stake
            data = {"won": held, "stake": stake, "net": self.insurance_results[p]}
            events.append(Event("insurance_settled", player=p, data=data, money=(money,)))
        insured = set(self.insurance) if held else set()
        self.insurance = {}
        return insured

    def _after_insurance(self, events: list[Event]) -> None:
        if self.options.dealer_peeks and is_ten_or_ace(self.dealer[0]):
            if self._dealer_blackjack():
                self._reveal_hole(events)
                self._settle(events)
                return
            self._settle_insurance(events)
            events.append(Event("dealer_peeked", data={"blackjack": False}))
        self.phase = Phase.PLAYING
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
                self.wait_for([hand.player])
                events.append(Event(TURN, player=hand.player, data={"hand": self.current}))
                return
            self.current += 1
        self.waiting = []
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
        m = self.lose(self._seat_of[hand.player], hand.bet)
        data = {"hand": self.current, "total": hand.total().value}
        events.append(Event("bust", player=hand.player, data=data, money=(m,)))

    def _dealer_turn(self, events: list[Event]) -> None:
        self._reveal_hole(events)
        live = any(h.status == "stood" for h in self.hands)
        if live and not self._dealer_blackjack():
            while dealer_should_hit(bj_total(self.dealer), self.options.dealer_hits_soft_17):
                card = self.draw(events)
                self.dealer.append(card)
                total = bj_total(self.dealer)
                data = {"card": card.code, "total": total.value, "soft": total.soft}
                events.append(Event("dealer_card", data=data))
        self._settle(events)

    # ------------------------------------------------------------------ settlement

    def _settle(self, events: list[Event]) -> None:
        insured_players = self._settle_insurance(events)
        first_hands: dict[int, int] = {}
        for i, hand in enumerate(self.hands):
            first_hands.setdefault(hand.player, i)
        insured = {first_hands[p] for p in insured_players}  # the hand that was insured
        dealer_total = bj_total(self.dealer)
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
            "dealer_blackjack": self._dealer_blackjack(),
            "dealer_bust": dealer_total.bust,
            "hands": results,
            "insurance": [{"player": p, "net": n} for p, n in self.insurance_results.items()],
            "net": [{"player": p, "net": n} for p, n in per_player.items()],
        }
        events.append(Event(ROUND_SETTLED, data=self.last_summary, money=tuple(money)))
        self.current = len(self.hands)
        self.end_round(events)  # reveals a shoe that ran out during the round

    def _settle_hand(
        self, hand: _Hand, dealer_total: BJTotal, insured: bool, money: list[Money]
    ) -> str | None:
        """Settle one hand against the dealer (``insured``: the insurance held); return
        the unrounded net when it is not whole (blackjack winnings)."""
        seat, bet = self._seat_of[hand.player], hand.bet
        dealer_bj = self._dealer_blackjack()
        exact: str | None = None
        if insured:  # the dealer has a blackjack: the bet comes back (a part doubled
            # without a peek is lost like any bet against a blackjack)
            hand.result, hand.net = "insured", min(bet, seat.bet) - bet
        elif hand.status == "blackjack" and not dealer_bj:
            num, den = PAYOUT_RATIOS[self.options.blackjack_pays]
            exact = exact_figure(bet * num, den)
            hand.result, hand.net = "blackjack", bet * num // den
        elif hand.status == "blackjack":
            hand.result, hand.net = "push", 0
        elif dealer_bj or (not dealer_total.bust and hand.total().value < dealer_total.value):
            hand.result, hand.net = "loss", -bet
        elif dealer_total.bust or hand.total().value > dealer_total.value:
            hand.result, hand.net = "win", bet
        else:
            hand.result, hand.net = "push", 0
        money += self.settle_bet(seat, bet, hand.net, exact)
        return exact

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
            exact = exact_figure(-hand.bet, 2)
        if exact is not None:  # unrounded: blackjack winnings, half a surrendered bet
            result["exact_net"] = exact
        return result

    # ------------------------------------------------------------------ views

    def view(self) -> BlackjackPart:
        if self.hole_revealed or len(self.dealer) < 2:
            dealer_cards: tuple[str | None, ...] = tuple([c.code for c in self.dealer])
            shown = self.dealer
        else:
            dealer_cards = (self.dealer[0].code, None)
            shown = self.dealer[:1]
        dealer_total = bj_total(shown) if shown else None
        return BlackjackPart(
            insurance=tuple([InsuranceView(p, s) for p, s in self.insurance.items()]),
            hands=tuple([h.view(i) for i, h in enumerate(self.hands)]),
            current_hand=self.current if self.phase is Phase.PLAYING else None,
            dealer=DealerView(
                cards=dealer_cards,
                total=dealer_total.value if dealer_total else None,
                soft=dealer_total.soft if dealer_total else False,
                hole_hidden=len(self.dealer) >= 2 and not self.hole_revealed,
            ),
        )

    def round_summary(self, data: Mapping[str, Any]) -> BlackjackRound:
        return blackjack_round(data)

    def private_part(self, player: int) -> BlackjackYou:
        seated = player in self._seat_of
        return BlackjackYou(self.bet_limits(player) if seated else None)

    # ------------------------------------------------------------------ snapshots

    def state_dict(self) -> dict[str, Any]:
        return {
            "hands": [h.to_dict() for h in self.hands],
            "current": self.current,
            "dealer": [c.code for c in self.dealer],
            "hole_revealed": self.hole_revealed,
            "insurance": [[p, s] for p, s in self.insurance.items()],
            "insurance_results": [[p, n] for p, n in self.insurance_results.items()],
        }

    def load_state(self, data: Mapping[str, Any]) -> None:
        self.hands = [_Hand.from_dict(h) for h in data["hands"]]
        self.current = int(data["current"])
        self.dealer = [Card.parse(c) for c in data["dealer"]]
        self.hole_revealed = bool(data["hole_revealed"])
        self.insurance = {int(p): int(s) for p, s in data["insurance"]}
        self.insurance_results = {int(p): int(n) for p, n in data["insurance_results"]}
