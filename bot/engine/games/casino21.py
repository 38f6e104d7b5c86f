"""Casino 21, the forum casino game (``casino21``): docs/RULES.md section 2.

The host plays a hand like everyone else; the bank's hand follows a fixed rule, so the
engine plays it. The base (:class:`~bot.engine.base.TableGame`) seats the players, keeps
stacks and pot, shuffles a deck per round and reveals it, closes and restores; this module
holds the casino's money rules, the simultaneous turns, the aces, the bank and the
settlement. Where the rules are silent (besides docs/RULES.md's "What Croupier settles"):

- The welcome stake comes with a player's first JOIN at a table, never again there; a JOIN
  bringing nothing is refused. An early leave (before ``wager_requirement`` is bet at the
  sitting that got it) spends the welcome stake first: the player keeps
  ``min(stack, own funds)`` and forfeits the rest, after a confirmation. Every seat is
  emptied on these terms (a close asks no confirmation). A live bet forbids leaving; the
  last player gone, the table is finished.
- First turn: bets and sit-outs in any order, each bet dealt its two cards at once; then
  the bank's two cards. Following turns: a DRAW of N cards at once (0 stands; at most
  ``MAX_DRAW`` and the cards left). A turn ends when everybody moved, by the host's
  END_TURN or by the timer: who did not bet sits out, who did not draw stands. Aces are
  valued first ace first; the fallback (timer, host, the bank) is 11 unless that busts,
  other unvalued aces counted 1. 21 stands by itself; the bank plays out even when every
  player busted, and stands if the deck runs out.
- A player blackjack against a bank 17-20 or a multi-card 21 is a plain win. Halves round
  down, the exact figure in ``Money.exact``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, cast

from ..actions import Action, ActionKind
from ..base import BuyIn, Refusal, Seat, TableGame, probe_action
from ..cards import Card
from ..enums import FastEnum
from ..errors import BAD_AMOUNT, NOT_HOST, SHARED_CODES, WRONG_PHASE, refuse
from ..events import (
    HOUSE,
    POT,
    ROUND_SETTLED,
    ROUND_STARTED,
    SAT_OUT,
    Event,
    Money,
    MoneyKind,
    Visibility,
    exact_figure,
)
from ..hands import card_value, fallback_ace, valued_blackjack
from ..options import GameOptions, OptionKind, OptionSpec, bet_options
from ..phases import Phase
from ..summaries import CasinoRound, casino_result, casino_round
from ..upgrades import casino21_v1
from ..views import CasinoBankView, CasinoPart, CasinoSeatView

MAX_PLAYERS = 8
MAX_DRAW = 10  # most cards one DRAW may ask for

# --------------------------------------------------------------------------- options

_I = OptionKind.INT
MAX_DECKS = 8
_MONEY_MAX = 1_000_000

#: The options of a Casino 21 table (RULES.md section 2): ``/table open``, ``/rules``.
CASINO21_OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec(
        "welcome_stake",
        OptionKind.INT,
        100,
        "stake the casino gives each player who sits down",
        "mise de bienvenue offerte par le casino à chaque joueur",
        min=0,
        max=_MONEY_MAX,
        cap="max_welcome_stake",
    ),
    OptionSpec(
        "wager_requirement",
        OptionKind.INT,
        100,
        "total to bet before leaving with winnings",
        "total à miser avant de repartir avec ses gains",
        min=0,
        max=_MONEY_MAX,
        open_at_least=("welcome_stake", "wager_below_stake"),
    ),
    OptionSpec(
        "decks",
        OptionKind.INT,
        1,
        "52-card decks, shuffled each round",
        "paquets de 52 cartes, battus à chaque manche",
        min=1,
        max=MAX_DECKS,
    ),
    # a fixed bank-bust bonus of 5 on bets of 1 paid players ~+54 % of their stakes
    *bet_options(10, 100, _MONEY_MAX, floor="min_casino21_bet"),
    OptionSpec(
        "bank_bust_bonus",
        OptionKind.INT,
        5,
        "paid with the bet back when the bank busts (half: half the bet)",
        "payé avec la mise quand la banque saute (half : la moitié de la mise)",
        min=0,
        max=_MONEY_MAX,
        choices=("half",),
        cap="max_bank_bust_bonus",
    ),
    OptionSpec(
        "max_players",
        OptionKind.INT,
        MAX_PLAYERS,
        "players at the table, host included",
        "joueurs à la table, hôte compris",
        min=1,
        max=MAX_PLAYERS,
    ),
)


@dataclass(frozen=True, slots=True)
class Casino21Options(GameOptions):
    """Per-table options of Casino 21 (RULES.md section 2), typed, with their defaults."""

    SPECS = CASINO21_OPTIONS

    welcome_stake: int = 100
    wager_requirement: int = 100
    decks: int = 1
    min_bet: int = 10
    max_bet: int = 100
    bank_bust_bonus: int | str = 5  # a fixed amount, or "half" (half the bet)
    max_players: int = MAX_PLAYERS


#: Every ``IllegalAction.code`` this game raises, for the UI's translations.
ILLEGAL_CODES: frozenset[str] = SHARED_CODES | {
    "empty_stack",  # a JOIN that brings nothing
    "buy_in_with_welcome",  # own funds with a welcome stake (params: welcome)
    "top_up_too_early",  # the welcome stake is not spent (params: stack, min)
    "forfeit_needs_confirmation",  # params: forfeit, keep, requirement, wagered
    "not_in_round",  # DRAW by a player not in play this round
    "already_moved",  # DRAW twice in one turn
    "ace_pending",  # DRAW before valuing an ace
    "draw_too_many",  # params: max
    "no_ace_pending",
    "bad_ace_value",
}

_K = ActionKind
# Members read on every check, bound once (see base.py).
_BETTING, _PLAYING = Phase.BETTING, Phase.PLAYING
_DRAW, _CHOOSE_ACE, _END_TURN, _JOIN = _K.DRAW, _K.CHOOSE_ACE, _K.END_TURN, _K.JOIN
_TURNS = frozenset({_BETTING, _PLAYING})
_OPEN = frozenset(Phase) - {Phase.FINISHED}


class Status(FastEnum):
    """Where a seated player stands in the current round."""

    IDLE = "idle"  # first turn, still to bet or sit out (never stored: read from waiting)
    OUT = "out"  # no bet this round (sat out, joined late, between rounds)
    PLAYING = "playing"  # in play, may draw in the following turns
    STOOD = "stood"  # done drawing, waits for the bank
    BUST = "bust"  # over 21, bet lost


_IN_PLAY, _OUT, _IDLE = Status.PLAYING, Status.OUT, Status.IDLE  # read on every check


@dataclass(slots=True)
class CasinoSeat(Seat):
    """A seat with this sitting's welcome stake and own funds, and this round's hand."""

    welcome: int = 0  # welcome stake received at this sitting (0 after a rejoin)
    own: int = 0  # own funds brought at this sitting (JOIN amount + TOP_UPs)
    status: Status = Status.OUT
    cards: list[Card] = field(default_factory=list)
    values: list[int | None] = field(default_factory=list)  # None: an ace not valued yet

    @property
    def pending(self) -> bool:
        """An ace waits for its value."""
        return None in self.values

    @property
    def known_total(self) -> int:
        """The total of the valued cards."""
        return sum(filter(None, self.values))  # an ace not valued yet is None

    @property
    def blackjack(self) -> bool:
        """An ace valued 11 and a bûche as the first two cards."""
        return valued_blackjack(self.cards, self.values)

    def to_dict(self) -> dict[str, Any]:
        return {
            **Seat.to_dict(self),
            "welcome": self.welcome,
            "own": self.own,
            "status": self.status.value,
            "cards": [c.code for c in self.cards],
            "values": list(self.values),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> CasinoSeat:
        return cls(
            int(data["player"]),
            int(data["stack"]),
            int(data["bet"]),
            int(data["in_pot"]),
            int(data["welcome"]),
            int(data["own"]),
            status=Status(data["status"]),
            cards=[Card.parse(c) for c in data["cards"]],
            values=[None if v is None else int(v) for v in data["values"]],
        )


def settle_outcome(total: int, blackjack: bool, bank_total: int, bank_blackjack: bool) -> str:
    """Outcome of a hand that did not bust: 'win', 'bank_bust', 'push' or 'lose'."""
    if bank_blackjack:
        return "push" if blackjack else "lose"
    if bank_total > 21:
        return "bank_bust"
    if blackjack or total > bank_total:
        return "win"
    return "push" if total == bank_total else "lose"


class Casino21(TableGame[CasinoSeat]):
    """The Casino 21 table: see the module docstring for every rule and choice."""

    GAME: ClassVar[str] = "casino21"
    Options = Casino21Options
    SEAT = CasinoSeat
    MAX_PLAYERS = MAX_PLAYERS
    FORMAT = 2
    UPGRADES = (casino21_v1,)
    JOIN_PHASES = _OPEN
    TOP_UP_PHASES = _OPEN
    # an ace to value is asked of a player waited for again, in either turn
    MOVES: ClassVar[Mapping[Phase, tuple[ActionKind, ...]]] = {
        _BETTING: (_CHOOSE_ACE,),
        _PLAYING: (_DRAW, _CHOOSE_ACE),
    }
    OPEN_MOVES: ClassVar[Mapping[Phase, tuple[ActionKind, ...]]] = {
        _BETTING: (_END_TURN,),  # the host's, whoever the turn waits for
        _PLAYING: (_END_TURN,),
    }
    SHOE_PER_ROUND = True
    SPARE = True  # each round's shoe is committed at the previous one (client seeds)
    ILLEGAL_CODES = ILLEGAL_CODES
    options: Casino21Options

    def init_state(self) -> None:
        self.welcomed: set[int] = set()  # players who got the welcome stake here
        self.wagered: dict[int, int] = {}  # total bet at this table per player
        self.turn = 0  # 1 = the first turn (bets), 2.. = the following turns
        self.bank_cards: list[Card] = []
        self.bank_values: list[int] = []
        self.bank_revealed = False
        self.results: list[dict[str, Any]] = []  # this round's results, per player

    # ------------------------------------------------------------------ hooks: the table

    def deck_spec(self) -> str:
        decks = self.options.decks
        return f"std52*{decks}" if decks > 1 else "std52"

    def bet_range(self, seat: CasinoSeat) -> tuple[int, int]:
        return self.options.min_bet, self.options.max_bet

    def house_exposure(self, bets: Mapping[int, int]) -> int:
        """Per bet, the larger of half the bet and a fixed bank-bust bonus."""
        bonus = self.options.bank_bust_bonus
        fixed = bonus if isinstance(bonus, int) else 0
        return sum(max(bet // 2, fixed) for bet in bets.values())

    def round_worst_case(self) -> int:
        """A maximum bet's half or the fixed bank-bust bonus, and a newcomer's welcome."""
        return self.house_exposure({0: self.options.max_bet}) + self.options.welcome_stake

    def house_commitment(self) -> int:
        """The welcome stakes of a full table of newcomers."""
        return self.options.max_players * self.options.welcome_stake

    def buy_in(self) -> BuyIn:
        return BuyIn(minimum=self.options.min_bet, welcome=self.options.welcome_stake > 0)

    def max_seats(self) -> int:
        return self.options.max_players

    def turn_key(self) -> str:
        """Every player moves in the same turn: the deadline runs per turn."""
        return f"turn{self.turn}"

    @property
    def to_act(self) -> int | None:
        """The one player the turn still waits for (an ace to value first), else None."""
        waiting = self.waiting
        if len(waiting) > 1:
            waiting = [p for p in waiting if self._seat_of[p].pending] or waiting
        return waiting[0] if len(waiting) == 1 else None

    def _welcome_for(self, player: int) -> int:
        return 0 if player in self.welcomed else self.options.welcome_stake

    def refuse_join(self, player: int, amount: int | None) -> Refusal:
        amount = amount or 0
        if amount < 0:
            return refuse(BAD_AMOUNT, amount=amount)
        welcome = self._welcome_for(player)
        if welcome + amount == 0:
            return refuse("empty_stack")
        if welcome and amount:
            return refuse("buy_in_with_welcome", welcome=welcome)
        return None

    def joined(self, seat: CasinoSeat, amount: int | None) -> list[Money]:
        p, s = seat.player, seat
        welcome = s.welcome = self._welcome_for(p)
        s.own = amount or 0
        self.welcomed.add(p)
        self.wagered.setdefault(p, 0)
        if self.phase is _BETTING:
            self.waiting.append(p)  # the seat is the last one: the order stays the seats'
        money = super().joined(seat, amount)  # own funds, if any
        if welcome:
            money.insert(0, self.transfer(MoneyKind.WELCOME_STAKE, HOUSE, seat, welcome, p))
        return money

    def refuse_top_up(self, seat: CasinoSeat, amount: int) -> Refusal:
        # own funds only once this sitting's welcome stake is spent (RULES.md section 2)
        if seat.welcome == 0 or seat.stack < self.options.min_bet:
            return None
        return refuse("top_up_too_early", stack=seat.stack, min=self.options.min_bet)

    def topped_up(self, seat: CasinoSeat, amount: int) -> None:
        seat.own += amount  # own funds: what an early leave keeps

    def in_round(self, seat: CasinoSeat) -> bool:
        return seat.in_pot > 0

    def forfeit(self, seat: CasinoSeat) -> int:
        if seat.welcome and self.wagered.get(seat.player, 0) < self.options.wager_requirement:
            return seat.stack - min(seat.stack, seat.own)
        return 0

    def refuse_leave(self, seat: CasinoSeat, action: Action) -> Refusal:
        forfeit = self.forfeit(seat)
        if not forfeit or action.confirm:
            return None
        return refuse(
            "forfeit_needs_confirmation",
            forfeit=forfeit,
            keep=seat.stack - forfeit,
            requirement=self.options.wager_requirement,
            wagered=self.wagered.get(seat.player, 0),
        )

    def left_data(self, seat: CasinoSeat) -> dict[str, Any]:
        return {"wagered": self.wagered.get(seat.player, 0)}

    def after_leave(self, seat: CasinoSeat, events: list[Event]) -> None:
        if not self.seats:
            self.finish(events, "empty")
        else:
            self._turn_done(events)

    def probe(self, kind: ActionKind, player: int | None) -> Action:
        if kind is _DRAW:
            return probe_action(kind, player, 0)  # standing: a draw of no card
        if kind is _CHOOSE_ACE:
            return probe_action(kind, player, None, 1)
        if kind is _JOIN and player is not None and self._welcome_for(player):
            return probe_action(kind, player)  # a welcome stake: no buy-in
        return super().probe(kind, player)

    # ------------------------------------------------------------------ hooks: the round

    def start_round(self, events: list[Event]) -> None:
        self.begin_round()
        self.turn = 1
        self.bank_cards, self.bank_values, self.bank_revealed = [], [], False
        self.results = []
        for s in self.seats:
            s.status, s.cards, s.values = Status.OUT, [], []
        players = self.seated()
        self.open_bets(players)
        events.append(Event(ROUND_STARTED, data={"round": self.round, "players": list(players)}))
        self.new_shoe(events)

    def on_bet(self, seat: CasinoSeat, events: list[Event]) -> None:
        s = seat
        s.status = Status.PLAYING
        self.wagered[s.player] = self.wagered.get(s.player, 0) + s.bet
        self._give(s, 2, "dealt", events)

    def bets_closed(self, events: list[Event]) -> None:
        self._end_turn("auto", events)

    def on_timeout(self, events: list[Event]) -> None:
        self._end_turn("timeout", events)

    def refuse_move(self, action: Action, seat: CasinoSeat) -> Refusal:
        kind = action.kind
        if kind is _DRAW:
            return self._refuse_draw(action.amount, seat)
        if kind is _CHOOSE_ACE:
            if not seat.pending:
                return refuse("no_ace_pending")
            if action.value not in (1, 11) or isinstance(action.value, bool):
                return refuse("bad_ace_value")
            return None
        if kind is _END_TURN:
            if seat.player != self.host:
                return refuse(NOT_HOST)
            return None if self.phase in _TURNS else refuse(WRONG_PHASE)
        return super().refuse_move(action, seat)

    def _refuse_draw(self, n: int | None, s: CasinoSeat) -> Refusal:
        if self.phase is not _PLAYING:
            return refuse(WRONG_PHASE)
        if s.status is not _IN_PLAY:
            return refuse("not_in_round")
        if s.pending:
            return refuse("ace_pending")
        if s.player not in self.waiting:
            return refuse("already_moved")
        if n is None or n < 0 or isinstance(n, bool):
            return refuse(BAD_AMOUNT, amount=n)
        if n and n > self.max_draw():  # a stand (0) never needs the cards counted
            return refuse("draw_too_many", max=self.max_draw())
        return None

    def play(self, action: Action, seat: CasinoSeat, events: list[Event]) -> None:
        s, kind = seat, action.kind
        if kind is _END_TURN:
            self._end_turn("host", events)
            return
        if kind is _CHOOSE_ACE:
            self._set_ace(s, cast(int, action.value), False, events)
        elif action.amount:
            self._give(s, action.amount, "drew", events)
        else:
            self._stand(s, None, events)
        self._turn_done(events)

    # ------------------------------------------------------------------ cards and aces

    def max_draw(self) -> int:
        """The most cards one DRAW may ask for now."""
        return min(MAX_DRAW, self.cards_left)

    def _give(self, s: CasinoSeat, n: int, kind: str, events: list[Event]) -> None:
        """Deal ``n`` public cards to ``s`` at once, then ask for aces or finish."""
        cards = [self.draw(events) for _ in range(n)]
        s.cards += cards
        s.values += [card_value(c) for c in cards]
        data = {"cards": [c.code for c in cards], "hand": [c.code for c in s.cards]}
        events.append(Event(kind, player=s.player, data=data))
        self._after_cards(s, events)

    def _after_cards(self, s: CasinoSeat, events: list[Event]) -> None:
        """An ace to value keeps the player waited for; else their move is done: over 21
        busts, 21 stands."""
        p = s.player
        if s.pending:
            index = s.values.index(None)
            data = {"index": index, "card": s.cards[index].code, "fallback": fallback_ace(s.values)}
            events.append(Event("ace_pending", player=p, data=data))
            if p not in self.waiting:  # a bet's ace: waited for again, in seat order
                self.waiting = [x.player for x in self.seats if x.player in {p, *self.waiting}]
            return
        if p in self.waiting:
            self.waiting.remove(p)
        total = s.known_total
        if total > 21:
            self._lose(s, "bust", events)
        elif total == 21:
            s.status = Status.STOOD
            data = {"total": 21, "auto": "21", "blackjack": s.blackjack}
            events.append(Event("stood", player=p, data=data))

    def _set_ace(self, s: CasinoSeat, value: int, auto: bool, events: list[Event]) -> None:
        index = s.values.index(None)
        s.values[index] = value
        data = {"index": index, "card": s.cards[index].code, "value": value, "auto": auto}
        events.append(Event("ace_chosen", player=s.player, data=data))
        self._after_cards(s, events)

    def _stand(self, s: CasinoSeat, auto: str | None, events: list[Event]) -> None:
        s.status = Status.STOOD
        self.waiting.remove(s.player)
        data = {"total": s.known_total, "auto": auto}
        events.append(Event("stood", player=s.player, data=data))

    # ------------------------------------------------------------------ turns

    def _turn_done(self, events: list[Event]) -> None:
        """The turn ends by itself once nobody is waited for."""
        if not self.waiting and self.phase in _TURNS:
            self._end_turn("auto", events)

    def _end_turn(self, by: str, events: list[Event]) -> None:
        """End the turn (``by``: auto, host, timeout): pending aces take the fallback, who
        did not bet sits out, who did not draw stands; then the next turn, the bank's, or
        (nobody bet) the round is cancelled."""
        for s in self.seats:
            while s.pending:
                self._set_ace(s, fallback_ace(s.values), True, events)
        betting = self.phase is _BETTING
        if betting:
            self._close_bets(by, events)
        else:
            for p in list(self.waiting):
                self._stand(self._seat_of[p], by, events)
        data = {"round": self.round, "turn": self.turn, "by": by}
        events.append(Event("turn_ended", data=data))
        if betting and not self.results and not any(s.bet for s in self.seats):
            self.cancel_round(events)
        else:
            if betting:
                self._deal_bank(events)
                self.phase = _PLAYING
            self._next_turn(events)
        if not self.seats:  # the last seats left at 0
            self.finish(events, "empty")

    def _close_bets(self, by: str, events: list[Event]) -> None:
        """The first turn ends: who has not bet sits out, a stack still at 0 leaves."""
        for p in self.waiting:
            events.append(Event(SAT_OUT, player=p, data={"auto": by}))
        self.waiting = []
        for s in [s for s in self.seats if s.stack == 0 and s.in_pot == 0]:
            self.settle_seat(s, "empty_stack", events)

    def _next_turn(self, events: list[Event]) -> None:
        active = [s.player for s in self.seats if s.status is Status.PLAYING]
        if not active:
            self._bank_turn(events)
            return
        self.turn += 1
        self.wait_for(active, sequential=False)
        data = {"round": self.round, "turn": self.turn, "players": list(active)}
        events.append(Event("turn_started", data={**data, "max_draw": self.max_draw()}))

    # ------------------------------------------------------------------ the bank

    @property
    def bank_total(self) -> int:
        """The bank's total."""
        return sum(self.bank_values)

    @property
    def bank_blackjack(self) -> bool:
        """The bank's first two cards are a blackjack."""
        return valued_blackjack(self.bank_cards, list(self.bank_values))

    def _bank_take(self, events: list[Event]) -> tuple[Card, int] | None:
        """The bank's next card and its value (aces by the fallback); None: no card left."""
        if self.cards_left == 0:
            return None
        card = self.draw(events)
        value = card_value(card)
        if value is None:
            value = 11 if self.bank_total + 11 <= 21 else 1
        self.bank_cards.append(card)
        self.bank_values.append(value)
        return card, value

    def _deal_bank(self, events: list[Event]) -> None:
        up = self._bank_take(events)
        hole = self._bank_take(events)
        assert up is not None and hole is not None  # 8 players x 2 + 2 <= 52
        events.append(Event("bank_dealt", data={"card": up[0].code, "value": up[1], "hidden": 1}))
        data = {"card": hole[0].code, "value": hole[1]}
        events.append(Event("bank_hole", Visibility.HIDDEN, data=data))

    def _bank_turn(self, events: list[Event]) -> None:
        self.bank_revealed = True
        data = {
            "card": self.bank_cards[1].code,
            "value": self.bank_values[1],
            "cards": [c.code for c in self.bank_cards],
            "total": self.bank_total,
            "blackjack": self.bank_blackjack,
        }
        events.append(Event("bank_reveal", data=data))
        while self.bank_total <= 16:
            taken = self._bank_take(events)
            if taken is None:
                events.append(Event("deck_empty", data={"total": self.bank_total}))
                break
            data = {"card": taken[0].code, "value": taken[1], "total": self.bank_total}
            events.append(Event("bank_draw", data=data))
        total = self.bank_total
        data = {"total": total, "bust": total > 21, "blackjack": self.bank_blackjack}
        events.append(Event("bank_done", data=data))
        self._settle(events)

    # ------------------------------------------------------------------ settlement

    def _settle(self, events: list[Event]) -> None:
        bank_total, bank_bj = self.bank_total, self.bank_blackjack
        for s in self.seats:
            if s.in_pot:
                outcome = settle_outcome(s.known_total, s.blackjack, bank_total, bank_bj)
                self._pay_out(s, outcome, events)
        bank = {
            "cards": [c.code for c in self.bank_cards],
            "values": list(self.bank_values),
            "total": bank_total,
            "bust": bank_total > 21,
            "blackjack": bank_bj,
        }
        house_net = -sum(int(r["net"]) for r in self.results)
        self.last_summary = {
            "round": self.round,
            "bank": bank,
            "results": list(self.results),
            "house_net": house_net,
        }
        events.append(Event(ROUND_SETTLED, data=self.last_summary))
        self.end_round(events)

    def _pay_out(self, s: CasinoSeat, outcome: str, events: list[Event]) -> None:
        """Settle a bet still in the pot: its stake back (PAYOUT, or REFUND on a push) and
        the winnings from the house, or the loss."""
        if outcome == "lose":
            self._lose(s, outcome, events)
            return
        bet = s.in_pot
        if outcome == "push":
            gain, exact = 0, "0"
            money = [self.refund(s, bet)]
        else:
            bonus = self.options.bank_bust_bonus
            if outcome == "bank_bust" and isinstance(bonus, int):
                gain, exact = bonus, str(bonus)
            else:
                gain, exact = bet // 2, exact_figure(bet, 2) or str(bet // 2)
            money = [self.transfer(MoneyKind.PAYOUT, POT, s, bet, s.player)]
            if gain or exact != "0":  # even 0 with its exact figure (half of 1 is 0.5)
                money.append(self.pay(s, gain, exact))
        result = self._result(s, outcome, gain, exact, bet + gain)
        events.append(Event(outcome, player=s.player, data=result, money=tuple(money)))

    def _lose(self, s: CasinoSeat, outcome: str, events: list[Event]) -> None:
        amount = s.in_pot
        money = self.lose(s, amount)
        if outcome == "bust":
            s.status = Status.BUST
        result = self._result(s, outcome, 0, "0", 0)
        result["net"] = -amount
        events.append(Event(outcome, player=s.player, data=result, money=(money,)))
        if s.stack == 0:  # told privately: own funds before the next bets close keep the seat
            data = {"round": self.round, "min_bet": self.options.min_bet}
            events.append(Event("stack_empty", Visibility.PRIVATE, s.player, data))

    def _result(
        self, s: CasinoSeat, outcome: str, gain: int, exact: str, back: int
    ) -> dict[str, Any]:
        result: dict[str, Any] = {
            "player": s.player,
            "bet": s.bet,
            "outcome": outcome,
            "cards": [c.code for c in s.cards],
            "values": list(s.values),  # each card's value (the aces as chosen)
            "total": s.known_total,
            "blackjack": s.blackjack,
            "gain": gain,
            "gain_exact": exact,
            "returned": back,
            "net": back - s.bet,
        }
        self.results.append(result)
        return result

    # ------------------------------------------------------------------ views

    def seat_view(self, seat: CasinoSeat) -> CasinoSeatView:
        s = seat
        status = s.status
        waited = s.player in self.waiting
        if status is _OUT and waited and self.phase is _BETTING:
            status = _IDLE
        forfeit = self.forfeit(s)
        wagered = self.wagered.get(s.player, 0)
        return CasinoSeatView(
            player=s.player,
            stack=s.stack,
            bet=s.bet,
            in_pot=s.in_pot,
            status=status._value_,
            cards=tuple([c.code for c in s.cards]),
            values=tuple(s.values),
            total=s.known_total,
            pending_ace=s.pending,
            moved=status is _IN_PLAY and self.phase is _PLAYING and not waited,
            blackjack=s.blackjack,
            welcome=s.welcome,
            own=s.own,
            wagered=wagered,
            wager_left=max(0, self.options.wager_requirement - wagered),
            leave_forfeit=forfeit,
            leave_keep=s.stack - forfeit,
        )

    def view(self) -> CasinoPart:
        cards: list[str | None] = [c.code for c in self.bank_cards]
        values: list[int | None] = list(self.bank_values)
        if not self.bank_revealed:  # the hole card (and only it) stays face down
            cards[1:] = [None] * len(cards[1:])
            values[1:] = [None] * len(values[1:])
        bank = CasinoBankView(
            cards=tuple(cards),
            values=tuple(values),
            total=sum(v for v in values if v is not None),
            revealed=self.bank_revealed,
            blackjack=self.bank_blackjack if self.bank_revealed else None,
        )
        results = tuple([casino_result(r) for r in self.results])
        return CasinoPart(self.turn, self.cards_left, self.max_draw(), bank, results)

    def round_summary(self, data: Mapping[str, Any]) -> CasinoRound:
        return casino_round(data)

    # ------------------------------------------------------------------ snapshots

    def state_dict(self) -> dict[str, Any]:
        return {
            "welcomed": sorted(self.welcomed),
            "wagered": {str(p): n for p, n in self.wagered.items()},
            "turn": self.turn,
            "bank_cards": [c.code for c in self.bank_cards],
            "bank_values": list(self.bank_values),
            "bank_revealed": self.bank_revealed,
            "results": [dict(r) for r in self.results],
        }

    def load_state(self, data: Mapping[str, Any]) -> None:
        self.welcomed = {int(p) for p in data["welcomed"]}
        self.wagered = {int(p): int(n) for p, n in data["wagered"].items()}
        self.turn = int(data["turn"])
        self.bank_cards = [Card.parse(c) for c in data["bank_cards"]]
        self.bank_values = [int(v) for v in data["bank_values"]]
        self.bank_revealed = bool(data["bank_revealed"])
        self.results = [dict(r) for r in data["results"]]
