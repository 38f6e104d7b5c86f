"""Sept et demi: one hidden card, a rotating bank, a guarantee fund (docs/RULES.md
section 4).

The base (:class:`~bot.engine.base.TableGame`) seats the players (a player back at the
table keeps their place), takes the bets in turn, times out, counts the votes to stop,
closes and keeps the deck; this module deals, plays the hands and the bank, and settles.
A round: BETTING (in turn) -> PLAYING -> BANK -> showdown and settlement.

Choices where the rules are silent:

- JOIN takes exactly ``buy_in``, between rounds only. LEAVE between rounds only; a player
  out of chips after a round leaves (``empty_stack``).
- Cards go, from the banker's left, to every player whose stack allows the minimum bet
  (``stack // 2 >= min_bet``), then one to the bank; the others sit the round out.
- HIT: the card arrives privately; over 7½ the whole hand is shown and the bet goes to
  the banker at once, else the player must SHOW or SWAP first. No HIT on an empty deck.
- TIMEOUT: a pending choice is shown, then the player stands; the bank stands; in the
  bets the bettor whose turn it is sits out.
- Nobody still in after the players' turns: the bank's card is shown, no bank turn.
- The fund pays pro rata of the rests when it cannot pay them all (rounded down, the
  remainder units one each to the first unpaid winners).
- The game ends when fewer than two seated players have chips, at the ``rounds`` limit
  or by a vote; ties in the ranking share a rank (1, 1, 3).
- The host passes in the lobby only; once started, with the host away, any seated
  player starts the next round.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Self

from ..actions import Action, ActionKind
from ..base import BuyIn, Refusal, Seat, TableGame, pro_rata
from ..cards import build_deck
from ..errors import NOT_YOUR_TURN, SHARED_CODES, WRONG_PHASE, refuse
from ..events import (
    FUND,
    HOUSE,
    ROUND_SETTLED,
    ROUND_STARTED,
    SAT_OUT,
    TURN,
    Event,
    Money,
    MoneyKind,
    Visibility,
    wallet,
)
from ..hands import SEPT32_HALF_POINTS, SEPT40_HALF_POINTS, SEPT_ET_DEMI, format_half_points
from ..options import GameOptions, OptionKind, OptionSpec
from ..phases import ROUND_PHASES, Phase
from ..summaries import SeptRound, sept_game_over, sept_round
from ..upgrades import sept_et_demi_v1
from ..views import FundView, SeptBankView, SeptPart, SeptSeatView, SeptYou

GAME = "sept_et_demi"
MIN_PLAYERS = 2
MAX_PLAYERS = 8

# --------------------------------------------------------------------------- options

DECK_SPECS: dict[str, str] = {"40": "sept40", "32": "sept32"}

#: The options of a Sept et demi table (RULES.md section 4): ``/table open``, ``/rules``.
SEPT_ET_DEMI_OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec(
        "deck",
        OptionKind.CHOICE,
        "40",
        "40 cards (ace to 7, heads ½) or 32 (7 to ace)",
        "40 cartes (as à 7, figures ½) ou 32 (7 à as)",
        choices=tuple(DECK_SPECS),
    ),
    OptionSpec(
        "buy_in",
        OptionKind.INT,
        200,
        "chips each player brings, at least twice min_bet",
        "jetons apportés par chaque joueur, au moins deux fois min_bet",
        min=2,
        max=10**12,
        at_least=("min_bet", 2),
    ),
    OptionSpec("min_bet", OptionKind.INT, 1, "smallest bet", "mise minimale", min=1, max=10**9),
    OptionSpec(
        "guarantee_fund",
        OptionKind.INT,
        500,
        "fund the casino sets aside to pay when a banker cannot",
        "fonds mis de côté par le casino quand un banquier ne peut pas payer",
        min=0,
        max=10**12,
        cap="max_guarantee_fund",
    ),
    OptionSpec(
        "rounds",
        OptionKind.INT,
        None,
        "rounds before the game ends (none: no limit)",
        "manches avant la fin de la partie (none : sans limite)",
        min=1,
        max=10**6,
        none=True,
    ),
)


@dataclass(frozen=True, slots=True)
class SeptEtDemiOptions(GameOptions):
    """Per-table options of Sept et demi (RULES.md section 4), typed, with their defaults."""

    SPECS = SEPT_ET_DEMI_OPTIONS

    deck: str = "40"  # "40" or "32"
    buy_in: int = 200
    min_bet: int = 1
    guarantee_fund: int = 500
    rounds: int | None = None  # None: no round limit


#: Every ``IllegalAction.code`` this game raises, for the UI's translations.
ILLEGAL_CODES: frozenset[str] = SHARED_CODES | {
    "bad_buy_in",  # JOIN with another amount than the buy-in (params: expected)
    "round_in_progress",  # LEAVE during a round without a bet in play
    "banker_cannot_bet",
    "choice_pending",  # show or swap the new card first
    "no_choice_pending",
    "deck_empty",  # HIT on an empty 32-card deck
}

# A seat's part in the round (SAT_OUT is also the event's kind).
IDLE = "idle"  # not in this round (the banker, between games)
DEALT = "dealt"  # has a card, has not bet yet
IN = "in"  # bet placed, turn not over
STOOD = "stood"  # turn over, still in
BUST = "bust"  # went over 7½, bet lost

_VALUES: dict[str, dict[str, int]] = {
    "40": {c.code: SEPT40_HALF_POINTS[c.rank] for c in build_deck("sept40")},
    "32": {c.code: SEPT32_HALF_POINTS[c.rank] for c in build_deck("sept32")},
}
_K = ActionKind
# Members read on every move, bound once (an Enum's class attribute goes through its
# metaclass's __getattr__ in Python 3.11: several times a plain attribute's cost).
_LOBBY, _BETTING, _PLAYING, _BANK = Phase.LOBBY, Phase.BETTING, Phase.PLAYING, Phase.BANK
_HIT, _STAND, _SHOW = _K.HIT, _K.STAND, _K.SHOW
_CHOICE = (_K.SHOW, _K.SWAP)
_MOVES = frozenset({_K.HIT, _K.STAND, *_CHOICE})


@dataclass(slots=True)
class SeptSeat(Seat):
    """A seat and its hand: the hidden card, the cards shown, a new card to show or hide."""

    status: str = IDLE
    hidden: str | None = None
    shown: list[str] = field(default_factory=list)
    pending: str | None = None

    def reset(self) -> None:
        """A new round: no cards, no part in it yet."""
        self.status, self.hidden, self.shown, self.pending = IDLE, None, [], None

    def to_dict(self) -> dict[str, Any]:
        """JSON-able form."""
        hand = {"status": self.status, "hidden": self.hidden, "pending": self.pending}
        return {**Seat.to_dict(self), **hand, "shown": list(self.shown)}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Self:
        """Inverse of :meth:`to_dict`."""
        base = (int(d["player"]), int(d["stack"]), int(d["bet"]), int(d["in_pot"]))
        return cls(*base, str(d["status"]), d["hidden"], list(d["shown"]), d["pending"])


def settlement_rule(total: int, bank: int) -> tuple[str, int]:
    """The rule that settles a hand standing on ``total`` against the bank's ``bank``
    (half-points) and what it pays in bets (negative: the player pays)."""
    if bank == SEPT_ET_DEMI:
        return "bank_sept_et_demi", -2
    if total == SEPT_ET_DEMI:
        return "player_sept_et_demi", 2
    if bank > SEPT_ET_DEMI:
        return "bank_bust", 1
    if total > bank:
        return "higher", 1
    return "not_higher", -1


class SeptEtDemi(TableGame[SeptSeat]):
    """The Sept et demi table: see the module docstring for the flow and the choices."""

    GAME: ClassVar[str] = GAME
    Options = SeptEtDemiOptions
    SEAT = SeptSeat
    MIN_PLAYERS = MIN_PLAYERS
    MAX_PLAYERS = MAX_PLAYERS
    FORMAT = 2
    UPGRADES = (sept_et_demi_v1,)
    MOVES: ClassVar[Mapping[Phase, tuple[ActionKind, ...]]] = {
        _PLAYING: (_HIT, _STAND, *_CHOICE),
        _BANK: (_HIT, _STAND),
    }
    VOTE_STOP = True
    KEEP_PLACE = True
    SHOE_PER_ROUND = True
    SPARE = True  # each round's shoe is committed at the previous one (client seeds)
    ILLEGAL_CODES = ILLEGAL_CODES
    options: SeptEtDemiOptions

    def init_state(self) -> None:
        self.banker: int | None = None
        self.game_host: int | None = None  # the host once the game started: it stays
        self.rounds_played = 0
        self.fund = 0
        self.fund_open = False
        self.bank_hidden: str | None = None
        self.bank_shown: list[str] = []
        self.round_order: list[int] = []  # players dealt in, from the banker's left
        self.result: dict[str, Any] | None = None

    # ------------------------------------------------------------------ helpers

    def points(self, codes: Sequence[str]) -> int:
        """Total of card codes in half-points (7½ = 15)."""
        table = _VALUES[self.options.deck]
        return sum(table[c] for c in codes)

    def _ring_after(self, player: int) -> list[int]:
        """Seated players in seat order starting after ``player`` (who may have left)."""
        places = self._places
        i = places.index(player)
        return [p for p in places[i + 1 :] + places[:i] if p in self._seat_of]

    # ------------------------------------------------------------------ hooks: the table

    def deck_spec(self) -> str:
        return DECK_SPECS[self.options.deck]

    def house_commitment(self) -> int:
        """The guarantee fund: the house pays nothing else (the fund pays pro rata)."""
        return self.options.guarantee_fund

    def buy_in(self) -> BuyIn:
        return BuyIn(fixed=self.options.buy_in)

    def bet_range(self, seat: SeptSeat) -> tuple[int, int]:
        return self.options.min_bet, seat.stack // 2

    def refuse_bet(self, seat: SeptSeat) -> Refusal:
        # the banker is not among the bettors: say so, rather than "bets are closed"
        if seat.player == self.banker and self.phase is _BETTING:
            return refuse("banker_cannot_bet")
        return None

    def refuse_join(self, player: int, amount: int | None) -> Refusal:
        if amount is not None and amount != self.options.buy_in:
            return refuse("bad_buy_in", expected=self.options.buy_in)
        return None

    def joined(self, seat: SeptSeat, amount: int | None) -> list[Money]:
        if self.game_host is not None:  # the base hands an empty host's place to a joiner
            self.host = self.game_host
        amount = self.options.buy_in
        return [self.transfer(MoneyKind.BUY_IN, wallet(seat.player), seat, amount, seat.player)]

    def refuse_leave(self, seat: SeptSeat, action: Action) -> Refusal:
        return refuse("round_in_progress") if self.phase in ROUND_PHASES else None

    def after_leave(self, seat: SeptSeat, events: list[Event]) -> None:
        if self.phase is Phase.BETWEEN_ROUNDS:
            self._check_end(events, between=True)

    def pass_host(self, events: list[Event]) -> None:
        if self.phase is _LOBBY:  # once started, any seated player starts instead
            super().pass_host(events)

    def left_data(self, seat: SeptSeat) -> dict[str, Any]:
        return {"banker": seat.player == self.banker}

    def start_game(self, events: list[Event]) -> None:
        self.banker = self.game_host = self.host
        self.fund = self.options.guarantee_fund
        self.fund_open = True
        money: tuple[Money, ...] = ()
        if self.fund:
            money = (self.transfer(MoneyKind.FUND_OPEN, HOUSE, FUND, self.fund, None),)
        data: dict[str, Any] = {"players": self.seated(), "banker": self.banker}
        data.update(fund=self.fund, options=self.options.to_dict())
        events.append(Event("game_started", data=data, money=money))

    def start_round(self, events: list[Event]) -> None:
        assert self.banker is not None
        if self.banker not in self._seat_of:
            self.banker = self._ring_after(self.banker)[0]
        self.begin_round()
        for s in self.seats:
            s.reset()
        self.bank_hidden, self.bank_shown = None, []
        events.append(Event(ROUND_STARTED, data={"round": self.round, "banker": self.banker}))
        self.new_shoe(events)
        self._deal(events)

    def _deal(self, events: list[Event]) -> None:
        """One card face down to each player who can bet, from the banker's left, then one
        to the bank; the bets open in that order."""
        assert self.banker is not None
        min_bet = self.options.min_bet
        self.round_order = []
        for p in self._ring_after(self.banker):
            s = self._seat_of[p]
            if s.stack // 2 >= min_bet:
                self.round_order.append(p)
            else:
                s.status = SAT_OUT
                events.append(Event(SAT_OUT, player=p, data={"reason": "stack_too_small"}))
        for p in self.round_order:
            s = self._seat_of[p]
            s.hidden = card = self.draw(events).code
            s.status = DEALT
            data = {"card": card, "hidden": True, "total": self.points([card])}
            events.append(Event("card", Visibility.PRIVATE, p, data))
        self.bank_hidden = self.draw(events).code
        events.append(Event("deal", data={"players": list(self.round_order), "bank": 1}))
        self.open_bets(list(self.round_order), sequential=True)
        if not self.round_order:
            self.bets_closed(events)

    def on_bet(self, seat: SeptSeat, events: list[Event]) -> None:
        seat.status = IN

    def bets_closed(self, events: list[Event]) -> None:
        """Every bettor answered: those who did not bet sat out; the players' turns."""
        for p in self.round_order:
            s = self._seat_of[p]
            if s.status == DEALT:
                s.status = SAT_OUT
        self.phase = _PLAYING
        self._next_player(events)

    def on_timeout(self, events: list[Event]) -> None:
        if self.phase is _PLAYING:
            s = self._seat_of[self.waiting[0]]
            if s.pending is not None:
                self._show(s, events)
            self._stand(s, events, timeout=True)
        elif self.phase is _BANK:
            self._bank_stand(events, timeout=True)
        else:
            super().on_timeout(events)  # the bettor whose turn it is sits out

    # ------------------------------------------------------------------ hooks: moves

    def refuse_move(self, action: Action, seat: SeptSeat) -> Refusal:
        k, phase = action.kind, self.phase
        if k not in _MOVES:
            return super().refuse_move(action, seat)
        if phase is not _PLAYING and (phase is not _BANK or k in _CHOICE):
            return refuse(WRONG_PHASE)
        if self.to_act != seat.player:
            return refuse(NOT_YOUR_TURN)
        pending = seat.pending
        if k in _CHOICE:
            return refuse("no_choice_pending") if pending is None else None
        if pending is not None:
            return refuse("choice_pending")
        if k is _HIT and self.cards_left == 0:
            return refuse("deck_empty")
        return None

    def play(self, action: Action, seat: SeptSeat, events: list[Event]) -> None:
        k, s = action.kind, seat
        if self.phase is _BANK:
            if k is _HIT:
                self._bank_hit(events)
            else:
                self._bank_stand(events)
        elif k is _HIT:
            self._hit(s, events)
        elif k is _STAND:
            self._stand(s, events)
        elif k is _SHOW:
            self._show(s, events)
        else:
            self._swap(s, events)

    # ------------------------------------------------------------------ players' turns

    def _next_player(self, events: list[Event]) -> None:
        """The turn passes to the next player still in, or to the bank."""
        seat_of = self._seat_of
        p = next((q for q in self.round_order if seat_of[q].status == IN), None)
        if p is None:
            self._enter_bank(events)
            return
        self.wait_for([p])
        events.append(Event(TURN, player=p, data={"player": p}))

    def _hit(self, s: SeptSeat, events: list[Event]) -> None:
        assert s.hidden is not None
        p, card = s.player, self.draw(events).code
        total = self.points([s.hidden, *s.shown, card])
        if total > SEPT_ET_DEMI:
            self._bust(s, card, total, events)
            return
        s.pending = card
        data = {"player": p, "shown": list(s.shown), "hidden": 1, "pending": True}
        events.append(Event("hit", player=p, data=data))
        own = {"card": card, "pending": True, "hidden_card": s.hidden, "total": total}
        events.append(Event("card", Visibility.PRIVATE, p, own))

    def _bust(self, s: SeptSeat, card: str, total: int, events: list[Event]) -> None:
        """Over 7½: the whole hand is shown and the bet goes to the banker at once."""
        assert self.banker is not None and s.hidden is not None
        s.shown = [*s.shown, s.hidden, card]
        s.hidden, s.status = None, BUST
        money = self.lose(s, s.bet, to=self._seat_of[self.banker])
        data = {"player": s.player, "card": card, "cards": list(s.shown), "total": total}
        data.update(total_text=format_half_points(total), bet=s.bet, banker=self.banker)
        events.append(Event("bust", player=s.player, data=data, money=(money,)))
        self._next_player(events)

    def _show(self, s: SeptSeat, events: list[Event]) -> None:
        assert s.pending is not None
        card, s.pending = s.pending, None
        s.shown.append(card)
        self._shown_event("show", s, card, events)

    def _swap(self, s: SeptSeat, events: list[Event]) -> None:
        assert s.pending is not None and s.hidden is not None
        old, s.hidden, s.pending = s.hidden, s.pending, None
        s.shown.append(old)
        self._shown_event("swap", s, old, events)
        own = {"card": s.hidden, "total": self.points([s.hidden, *s.shown])}
        events.append(Event("hidden_card", Visibility.PRIVATE, s.player, own))

    def _shown_event(self, kind: str, s: SeptSeat, card: str, events: list[Event]) -> None:
        data = {"player": s.player, "card": card, "shown": list(s.shown), "hidden": 1}
        data["shown_total"] = self.points(s.shown)
        events.append(Event(kind, player=s.player, data=data))

    def _stand(self, s: SeptSeat, events: list[Event], *, timeout: bool = False) -> None:
        s.status = STOOD
        data: dict[str, Any] = {"player": s.player, "shown": list(s.shown)}
        if timeout:
            data["timeout"] = True
        events.append(Event("stand", player=s.player, data=data))
        self._next_player(events)

    # ------------------------------------------------------------------ the bank

    def _enter_bank(self, events: list[Event]) -> None:
        """The bank's card is turned up; the banker plays when a player still stands."""
        assert self.bank_hidden is not None
        card = self.bank_hidden
        self.bank_shown, self.bank_hidden = [card], None
        data = {"banker": self.banker, "card": card, "total": self.points(self.bank_shown)}
        events.append(Event("bank_reveal", data=data))
        if any(self._seat_of[p].status == STOOD for p in self.round_order):
            self.phase = _BANK
            self.wait_for([self.banker])  # type: ignore[list-item]
        else:
            self._end_round(events)

    def _bank_hit(self, events: list[Event]) -> None:
        card = self.draw(events).code
        self.bank_shown.append(card)
        total = self.points(self.bank_shown)
        data = {"banker": self.banker, "card": card, "cards": list(self.bank_shown), "total": total}
        events.append(Event("bank_hit", data=data))
        if total > SEPT_ET_DEMI:
            events.append(Event("bank_bust", data={"banker": self.banker, "total": total}))
            self._end_round(events)

    def _bank_stand(self, events: list[Event], *, timeout: bool = False) -> None:
        data: dict[str, Any] = {"banker": self.banker, "total": self.points(self.bank_shown)}
        if timeout:
            data["timeout"] = True
        events.append(Event("bank_stand", data=data))
        self._end_round(events)

    # ------------------------------------------------------------------ settlement

    def _end_round(self, events: list[Event]) -> None:
        """Showdown, settlement, summary; the bank passes on; players out of chips leave;
        the game may end."""
        assert self.banker is not None
        banker = self.banker
        bank_total = self.points(self.bank_shown)
        rows = self._showdown(bank_total, events)
        self._collect(rows, bank_total, events)
        fund_paid, shortfall = self._pay(rows, bank_total, events)
        self.last_summary = {
            "round": self.round,
            "banker": banker,
            "bank_cards": list(self.bank_shown),
            "bank_total": bank_total,
            "results": self._results(rows),
            "fund_paid": fund_paid,
            "shortfall": shortfall,
            "fund_left": self.fund,
        }
        results = self.last_summary["results"]
        self.last_summary["banker_net"] = -sum(
            r["net"] if r["outcome"] == "loss" else r["paid_by_bank"] for r in results
        )
        events.append(Event(ROUND_SETTLED, data=self.last_summary))
        self.rounds_played += 1
        self.end_round(events)  # between rounds; the round's deck is revealed
        for s in [s for s in self.seats if s.stack == 0]:
            self.settle_seat(s, "empty_stack", events)
        ring = self._ring_after(banker)
        if ring:
            self.banker = ring[0]
        self._check_end(events, between=False)

    def _showdown(self, bank_total: int, events: list[Event]) -> list[dict[str, Any]]:
        """Every hand still in is turned up and the rule that settles it found."""
        rows: list[dict[str, Any]] = []
        for p in self.round_order:
            s = self._seat_of[p]
            if s.status != STOOD:
                continue
            assert s.hidden is not None
            card, s.hidden = s.hidden, None
            s.shown.append(card)
            total = self.points(s.shown)
            data = {"player": p, "card": card, "cards": list(s.shown), "total": total}
            events.append(Event("showdown", player=p, data=data))
            rule, mult = settlement_rule(total, bank_total)
            rows.append({"player": p, "rule": rule, "mult": mult, "bet": s.bet, "total": total})
        return rows

    def _collect(self, rows: list[dict[str, Any]], bank_total: int, events: list[Event]) -> None:
        """The banker takes the losers' bets first (twice the bet against the bank's 7½)."""
        bank = self._seat_of[self.banker]  # type: ignore[index]
        for row in rows:
            if row["mult"] > 0:
                continue
            s, bet = self._seat_of[row["player"]], row["bet"]
            money = [self.lose(s, bet, to=bank)]
            if row["mult"] == -2:
                money.append(self.transfer(MoneyKind.LOSS, s, bank, bet, s.player))
            lost = bet * -row["mult"]
            row.update(outcome="loss", net=-lost, owed=0, paid_by_bank=0)
            row.update(paid_by_fund=0, shortfall=0)
            self._settle_event(row, bank_total, money, events)

    def _pay(self, rows: list[dict[str, Any]], bank_total: int, events: list[Event]) -> list[int]:
        """The banker pays the winners in seat order as far as the stack goes, the fund
        the rest; [paid by the fund, left unpaid]."""
        bank = self._seat_of[self.banker]  # type: ignore[index]
        winners = [row for row in rows if row["mult"] > 0]
        available = bank.stack
        rests: list[int] = []
        for row in winners:
            owed = row["bet"] * row["mult"]
            paid = min(owed, available)
            available -= paid
            row.update(outcome="win", owed=owed, paid_by_bank=paid)
            rests.append(owed - paid)
        shares, exacts = pro_rata(rests, self.fund)
        for row, rest, share, exact in zip(winners, rests, shares, exacts, strict=True):
            s, by_bank = self._seat_of[row["player"]], row["paid_by_bank"]
            money = [self.refund(s, row["bet"])]
            if by_bank:
                money.append(self.pay(s, by_bank, src=bank))
            if share:
                money.append(self.pay(s, share, exact, src=FUND))
            self.fund -= share
            row.update(paid_by_fund=share, shortfall=rest - share, net=by_bank + share)
            if exact is not None:
                row["exact_fund_share"] = exact
            self._settle_event(row, bank_total, money, events)
        return [sum(shares), sum(rests) - sum(shares)]

    @staticmethod
    def _settle_event(
        row: Mapping[str, Any], bank_total: int, money: list[Money], events: list[Event]
    ) -> None:
        data = {k: v for k, v in row.items() if k != "mult"}
        data["bank_total"] = bank_total
        data["multiplier"] = abs(int(row["mult"]))
        events.append(Event("settle", player=row["player"], data=data, money=tuple(money)))

    def _results(self, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Each player's result in seat order from the banker's left (busts included)."""
        by_player = {row["player"]: row for row in rows}
        out: list[dict[str, Any]] = []
        for p in self.round_order:
            s = self._seat_of[p]
            if p in by_player:
                out.append({k: v for k, v in by_player[p].items() if k != "mult"})
            elif s.status == BUST:
                bust = {"player": p, "rule": "bust", "outcome": "loss", "bet": s.bet}
                cards = list(s.shown)  # shown when it went over: the summary shows it again
                out.append({**bust, "net": -s.bet, "total": self.points(s.shown), "cards": cards})
        return out

    # ------------------------------------------------------------------ the end

    def _check_end(self, events: list[Event], *, between: bool) -> None:
        """After a round (or a leave between rounds): finish when it is due."""
        with_chips = sum(1 for s in self.seats if s.stack > 0)
        limit = self.options.rounds
        if with_chips < MIN_PLAYERS:
            self.finish(events, "last_player" if with_chips else "no_players")
        elif not between and limit is not None and self.rounds_played >= limit:
            self.finish(events, "rounds")
        elif self.stop_voted:
            self.finish(events, "vote")

    def on_finish(self, reason: str, events: list[Event]) -> None:
        """The ranking of the players seated at the end; the fund goes back to the house."""
        place = self._places.index
        ordered = sorted(self.seats, key=lambda s: (-s.stack, place(s.player)))
        ranking: list[dict[str, Any]] = []
        for i, s in enumerate(ordered):
            tie = i and s.stack == ordered[i - 1].stack
            rank = ranking[-1]["rank"] if tie else i + 1
            ranking.append({"rank": rank, "player": s.player, "stack": s.stack})
        money: tuple[Money, ...] = ()
        if self.fund_open and self.fund:
            money = (self.transfer(MoneyKind.FUND_CLOSE, FUND, HOUSE, self.fund, None),)
        self.fund, self.fund_open = 0, False
        self.result = {
            "reason": reason,
            "ranking": ranking,
            "winners": [r["player"] for r in ranking if r["rank"] == 1],
            "rounds_played": self.rounds_played,
        }
        events.append(Event("game_over", data=dict(self.result), money=money))

    # ------------------------------------------------------------------ views

    def status(self, player: int) -> str:
        """A seated player's part in the round (``dealt`` while their bet is awaited)."""
        status = self._seat_of[player].status
        if status == DEALT and player not in self.waiting:  # sat out of the bets just now
            return SAT_OUT
        return status

    def seat_view(self, seat: SeptSeat) -> SeptSeatView:
        s = seat
        p, shown = s.player, s.shown
        shown_total = self.points(shown)
        return SeptSeatView(
            player=p,
            stack=s.stack,
            bet=s.bet,
            banker=p == self.banker and self.phase is not _LOBBY,
            status=self.status(p),
            shown=tuple(shown),
            shown_total=shown_total,
            hidden=0 if s.hidden is None else 1,
            pending=s.pending is not None,
            voted_stop=p in self.votes,
            total=shown_total if s.hidden is None and s.pending is None and shown else None,
        )

    def view(self) -> SeptPart:
        shown = self.bank_shown
        bank = SeptBankView(
            banker=self.banker,
            shown=tuple(shown),
            hidden=0 if self.bank_hidden is None else 1,
            total=self.points(shown) if self.bank_hidden is None and shown else None,
        )
        return SeptPart(
            rounds_played=self.rounds_played,
            rounds_limit=self.options.rounds,
            banker=self.banker,
            fund=FundView(self.fund, self.options.guarantee_fund, self.fund_open),
            bank=bank,
            votes=tuple(sorted(self.votes)),
            votes_needed=len(self.seats) // 2 + 1,
            stop_pending=self.stop_voted and self.phase is not Phase.FINISHED,
            result=None if self.result is None else sept_game_over(self.result),
        )

    def round_summary(self, data: Mapping[str, Any]) -> SeptRound:
        return sept_round(data)

    def private_part(self, player: int) -> SeptYou | None:
        """The player's hidden and new cards and true total (the banker does not see the
        bank's face-down card); the bets they may place when it is their turn."""
        s = self._seat_of.get(player)
        if s is None:
            return None
        cards = [c for c in (s.hidden, s.pending) if c is not None] + s.shown
        betting = self.phase is _BETTING and self.to_act == player
        return SeptYou(
            hidden=s.hidden,
            pending=s.pending,
            total=self.points(cards),
            bet_range=self.bet_limits(player) if betting else None,
        )

    # ------------------------------------------------------------------ snapshots

    def state_dict(self) -> dict[str, Any]:
        return {k: _copy(getattr(self, k)) for k in _STATE}

    def load_state(self, data: Mapping[str, Any]) -> None:
        for k in _STATE:
            setattr(self, k, _copy(data[k]))


#: The game's own snapshot fields (JSON values: ints, strings, lists of them, a dict).
_STATE: tuple[str, ...] = ("banker", "game_host", "rounds_played", "fund", "fund_open")
_STATE += ("bank_hidden", "bank_shown", "round_order", "result")


def _copy(value: Any) -> Any:
    return list(value) if isinstance(value, list) else value
