"""Sept et demi (RULES.md section 4): one hidden card, a rotating bank, a guarantee fund.

Flow of a round (phases): BETTING -> PLAYING -> BANK -> (showdown and settlement, instant)
-> BETWEEN_ROUNDS (or FINISHED). The host starts the game from LOBBY; between rounds the
host (or, when the host has left, any seated player) starts the next round.

Choices where RULES.md is silent (also listed in the report):

- JOIN takes exactly ``buy_in`` (``amount`` None means ``buy_in``); joining is allowed in
  LOBBY and BETWEEN_ROUNDS only, up to 8 seated players. A player who left may sit down
  again between rounds and keeps their old place in the seat order.
- The cards are dealt (one to each player in seat order from the banker's left, then one
  to the bank) to every seated player but the banker whose stack allows the minimum bet
  (``stack // 2 >= min_bet``); the others sit the round out.
- HIT draws a card that arrives privately. If the hand (hidden card + shown cards + new
  card) goes over 7½ the player busts at once: the whole hand is shown and the bet goes to
  the banker's seat, no SHOW/SWAP needed. Otherwise the player must SHOW or SWAP before
  anything else.
- TIMEOUT while a SHOW/SWAP choice is pending = SHOW and then stand (one expired timer ends
  the turn). TIMEOUT otherwise in PLAYING or BANK = stand; in BETTING the current bettor
  sits the round out and the next bettor gets a window of their own (bets are in turn).
- The 32-card deck can run out (the 40-card one cannot: 8 hands of at most 29 half-points
  is less than the deck's 236). HIT is then not legal and the hand must stand.
- When no player is still in when the players' turns end (all busted or sat out), the
  bank's card is turned up and the round ends without a bank turn.
- Settlement: losers are collected first (their events come first so the banker's seat
  never goes negative), then winners in seat order from the banker's left are paid by the
  banker as far as the stack goes, the fund pays the rest; when the fund cannot pay every
  rest, the fund is shared pro rata of the rests (rounded down) and the remainder units go
  one each to the unpaid winners in seat order from the banker's left. The shortfall per
  player and in total is in the ``settle`` events and the ``round_settled`` summary.
- VOTE_STOP: a vote stays until the game ends (a player who leaves loses theirs). When
  strictly more than half the seated players have voted, the game ends at once between
  rounds, or after the current round otherwise.
- LEAVE is only allowed between rounds and in the lobby (it cashes the stack out). CLOSE
  (system or host) refunds the bets still in the pot (a bust already paid to the banker
  stays paid), cashes every stack out and closes the fund.
- A seated player whose stack reaches 0 after a round leaves the table (``player_out``).
  The game ends when fewer than two seated players have chips, when the ``rounds`` limit
  is reached, or by vote. The ranking orders the players seated at the end by stack; ties
  share a rank (1, 1, 3).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields
from fractions import Fraction
from typing import Any, ClassVar, Self

from ..base import (
    FUND,
    HOUSE,
    POT,
    ROUND_SETTLED,
    Action,
    ActionKind,
    BuyIn,
    Event,
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
from ..cards import Card, build_deck
from ..hands import SEPT32_HALF_POINTS, SEPT40_HALF_POINTS, SEPT_ET_DEMI, format_half_points
from ..legacy import Game
from ..options import OptionKind, OptionSpec, check_values
from ..shuffle import Entropy, Shoe, secure_entropy

GAME = "sept_et_demi"
MIN_PLAYERS = 2
MAX_PLAYERS = 8
DECK_SPECS: dict[str, str] = {"40": "sept40", "32": "sept32"}

#: Stable IllegalAction codes (the UI translates them); English text for logs and tests.
ERROR_CODES: dict[str, str] = {
    "game_over": "the game is over",
    "unknown_action": "this game does not know that action",
    "no_player": "this action needs a player",
    "system_only": "only the system may do this",
    "not_seated": "you are not seated at this table",
    "already_seated": "you are already seated",
    "table_full": "the table is full",
    "bad_buy_in": "the buy-in must be exactly the table's buy-in",
    "not_host": "only the host may do this",
    "host_not_seated": "the host must be seated to start",
    "not_enough_players": "at least two seated players are needed",
    "wrong_phase": "not possible at this point of the game",
    "round_in_progress": "not possible during a round",
    "not_your_turn": "it is not your turn",
    "banker_cannot_bet": "the banker does not bet",
    "bad_amount": "the amount must be a whole number",
    "bet_too_small": "the bet is below the minimum",
    "bet_too_large": "a bet is at most half of your stack",
    "already_bet": "you already bet this round",
    "choice_pending": "show or swap your new card first",
    "no_choice_pending": "there is no new card to show or swap",
    "deck_empty": "the deck is empty",
    "already_voted": "you have already voted to stop",
    "no_timer": "no timer runs now",
}

#: The same codes as a set (the classic engine's name for it).
ILLEGAL_CODES: frozenset[str] = frozenset(ERROR_CODES)

# Round statuses of a player.
IDLE = "idle"  # not in this round (banker, not dealt, between games)
DEALT = "dealt"  # has a card, has not bet yet
SAT_OUT = "sat_out"  # did not bet (chose, timed out or stack too small)
IN = "in"  # bet placed, turn not over
STOOD = "stood"  # turn over, still in
BUST = "bust"  # went over 7½, bet lost

_VALUES: dict[str, dict[str, int]] = {
    "40": {c.code: SEPT40_HALF_POINTS[c.rank] for c in build_deck("sept40")},
    "32": {c.code: SEPT32_HALF_POINTS[c.rank] for c in build_deck("sept32")},
}


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


_I = OptionKind.INT

#: The options of a Sept et demi table (RULES.md section 4): ``/table open``, ``/rules``.
OPTIONS: tuple[OptionSpec, ...] = (
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
        _I,
        200,
        "chips each player brings, at least twice min_bet",
        "jetons apportés par chaque joueur, au moins deux fois min_bet",
        min=2,
        max=10**12,
        at_least=("min_bet", 2),
    ),
    OptionSpec("min_bet", _I, 1, "smallest bet", "mise minimale", min=1, max=10**9),
    OptionSpec(
        "guarantee_fund",
        _I,
        500,
        "fund the casino sets aside to pay when a banker cannot",
        "fonds mis de côté par le casino quand un banquier ne peut pas payer",
        min=0,
        max=10**12,
        cap="max_guarantee_fund",
    ),
    OptionSpec(
        "rounds",
        _I,
        None,
        "rounds before the game ends (none: no limit)",
        "manches avant la fin de la partie (none : sans limite)",
        min=1,
        max=10**6,
        none=True,
    ),
)


@dataclass(frozen=True, slots=True)
class SeptEtDemiOptions:
    """Per-table options of Sept et demi (RULES.md section 4), typed, with their defaults."""

    deck: str = "40"  # "40" or "32"
    buy_in: int = 200
    min_bet: int = 1
    guarantee_fund: int = 500
    rounds: int | None = None  # None: no round limit

    def validate(self) -> Self:
        """Raise :class:`InvalidOptions` for the first problem; return self."""
        check_values(OPTIONS, self.to_dict())
        return self

    def to_dict(self) -> dict[str, Any]:
        """JSON-able form."""
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> SeptEtDemiOptions:
        """Build and validate typed options; unknown names raise ``unknown_option``."""
        return cls(**check_values(OPTIONS, data))


#: Default table options as a dict (for ``/rules``).
DEFAULT_OPTIONS: dict[str, Any] = SeptEtDemiOptions().to_dict()


def validate_options(
    options: SeptEtDemiOptions | Mapping[str, Any] | None,
) -> SeptEtDemiOptions:
    """The validated options (defaults filled in) or :class:`InvalidOptions`."""
    if options is None:
        return SeptEtDemiOptions()
    if isinstance(options, SeptEtDemiOptions):
        return options.validate()
    return SeptEtDemiOptions.from_dict(options)


@dataclass(slots=True)
class _Player:
    """A player's seat and round state (mutable, internal)."""

    id: int
    stack: int
    seated: bool = True
    status: str = IDLE
    bet: int = 0
    hidden: str | None = None
    shown: list[str] = field(default_factory=list)
    pending: str | None = None

    def reset_round(self) -> None:
        self.status = IDLE
        self.bet = 0
        self.hidden = None
        self.shown = []
        self.pending = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "stack": self.stack,
            "seated": self.seated,
            "status": self.status,
            "bet": self.bet,
            "hidden": self.hidden,
            "shown": list(self.shown),
            "pending": self.pending,
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> _Player:
        return cls(
            int(d["id"]),
            int(d["stack"]),
            bool(d["seated"]),
            str(d["status"]),
            int(d["bet"]),
            d["hidden"],
            list(d["shown"]),
            d["pending"],
        )


class SeptEtDemi(Game):
    """The Sept et demi table: see the module docstring for the flow and the choices."""

    GAME: ClassVar[str] = GAME

    def __init__(
        self,
        options: SeptEtDemiOptions | Mapping[str, Any] | None = None,
        *,
        host: int | None = None,
        entropy: Entropy = secure_entropy,
    ) -> None:
        super().__init__(entropy=entropy)
        self.options: SeptEtDemiOptions = validate_options(options)
        self.host: int | None = host  # None: the first player to JOIN becomes the host
        self._phase = Phase.LOBBY
        self.players: dict[int, _Player] = {}
        self.order: list[int] = []  # seat order (players who left keep their place)
        self.banker: int | None = None
        self.round = 0  # number of the current / last round
        self.rounds_played = 0
        self.pot = 0
        self.fund = 0
        self.fund_open = False
        self.shuffles = 0  # entropy counter
        self.shoe: Shoe | None = None
        self.bank_hidden: str | None = None
        self.bank_shown: list[str] = []
        self.round_order: list[int] = []  # players dealt in, from the banker's left
        self.cursor = 0
        self.votes: set[int] = set()
        self.last_summary: dict[str, Any] | None = None
        self.result: dict[str, Any] | None = None
        # Test hook state (see rig_next_deal); None in real games.
        self._rig_next: list[str] | None = None
        self._shoe_order: list[str] | None = None

    # ----------------------------------------------------------------- test hook

    def rig_next_deal(self, codes: Sequence[str]) -> None:
        """FOR TESTS ONLY: the next round's deck starts with ``codes`` in this order.

        The remaining cards follow in their seeded order. The published commitment then no
        longer describes the order, so a real table must never call this.
        """
        deck = {c.code for c in build_deck(DECK_SPECS[self.options.deck])}
        if len(set(codes)) != len(codes) or not set(codes) <= deck:
            raise ValueError(f"rigged cards must be distinct cards of the deck: {codes!r}")
        self._rig_next = list(codes)

    # ----------------------------------------------------------------- helpers

    @property
    def deck(self) -> str:
        """The deck option: "40" or "32"."""
        return self.options.deck

    def points(self, codes: Sequence[str]) -> int:
        """Total of card codes in half-points (7½ = 15)."""
        table = _VALUES[self.deck]
        return sum(table[c] for c in codes)

    def seated(self) -> list[int]:
        """Seated players in seat order."""
        return [pid for pid in self.order if self.players[pid].seated]

    def _ring_after(self, pid: int) -> list[int]:
        """Seated players in seat order starting after ``pid`` (pid excluded)."""
        i = self.order.index(pid)
        ring = self.order[i + 1 :] + self.order[:i]
        return [q for q in ring if self.players[q].seated]

    def _host_seated(self) -> bool:
        host = self.players.get(self.host) if self.host is not None else None
        return host is not None and host.seated

    def _max_bet(self, p: _Player) -> int:
        return p.stack // 2

    def _votes_needed(self) -> int:
        return len(self.seated()) // 2 + 1

    def _vote_majority(self) -> bool:
        seated = self.seated()
        return bool(seated) and 2 * len(self.votes & set(seated)) > len(seated)

    def _current(self) -> _Player | None:
        if self._phase in (Phase.BETTING, Phase.PLAYING) and self.cursor < len(self.round_order):
            return self.players[self.round_order[self.cursor]]
        return None

    def bet_range(self, player: int) -> tuple[int, int] | None:
        """(min, max) bet ``player`` may place now, or None."""
        if self._phase is not Phase.BETTING or self.to_act != player:
            return None
        return (self.options.min_bet, self._max_bet(self.players[player]))

    # ----------------------------------------------------------------- protocol

    @property
    def phase(self) -> Phase:
        return self._phase

    @property
    def to_act(self) -> int | None:
        cur = self._current()
        if cur is not None:
            return cur.id
        if self._phase is Phase.BANK:
            return self.banker
        return None

    def buy_in(self) -> BuyIn:
        """Every player sits down with exactly ``buy_in``."""
        return BuyIn(fixed=self.options.buy_in)

    @classmethod
    def create(cls, host: int, options: Mapping[str, Any], entropy: Entropy) -> Self:
        """A new table hosted by ``host``."""
        return cls(options, host=host, entropy=entropy)

    def legal_actions(self, player: int | None) -> frozenset[ActionKind]:
        if self._phase is Phase.FINISHED:
            return frozenset()
        out: set[ActionKind] = set()
        if player is None:
            out.add(ActionKind.CLOSE)
            if self.deadline is not None:
                out.add(ActionKind.TIMEOUT)
            return frozenset(out)
        if player == self.host:
            out.add(ActionKind.CLOSE)
        p = self.players.get(player)
        seated = p is not None and p.seated
        between = self._phase in (Phase.LOBBY, Phase.BETWEEN_ROUNDS)
        if between and not seated and len(self.seated()) < MAX_PLAYERS:
            out.add(ActionKind.JOIN)
        if between and seated:
            out.add(ActionKind.LEAVE)
        if self._can_start(player) is None:
            out.add(ActionKind.START)
        if seated and self._phase is not Phase.LOBBY and player not in self.votes:
            out.add(ActionKind.VOTE_STOP)
        if self.to_act == player and p is not None:
            if self._phase is Phase.BETTING:
                out |= {ActionKind.BET, ActionKind.SIT_OUT}
            elif self._phase is Phase.PLAYING:
                if p.pending is not None:
                    out |= {ActionKind.SHOW, ActionKind.SWAP}
                else:
                    out.add(ActionKind.STAND)
                    if self.shoe is not None and self.shoe.remaining > 0:
                        out.add(ActionKind.HIT)
            elif self._phase is Phase.BANK:
                out.add(ActionKind.STAND)
                if self.shoe is not None and self.shoe.remaining > 0:
                    out.add(ActionKind.HIT)
        return frozenset(out)

    def apply(self, action: Action) -> list[Event]:
        if self._phase is Phase.FINISHED:
            raise IllegalAction("game_over")
        handler = {
            ActionKind.JOIN: self._join,
            ActionKind.LEAVE: self._leave,
            ActionKind.START: self._start,
            ActionKind.BET: self._bet,
            ActionKind.SIT_OUT: self._sit_out,
            ActionKind.HIT: self._hit,
            ActionKind.SHOW: self._show,
            ActionKind.SWAP: self._swap,
            ActionKind.STAND: self._stand,
            ActionKind.VOTE_STOP: self._vote_stop,
            ActionKind.TIMEOUT: self._timeout,
            ActionKind.CLOSE: self._close,
        }.get(action.kind)
        if handler is None:
            raise IllegalAction("unknown_action", kind=action.kind.value)
        return handler(action)

    # ----------------------------------------------------------------- seats

    def _need_player(self, action: Action) -> int:
        if action.player is None:
            raise IllegalAction("no_player")
        return action.player

    def _need_seated(self, action: Action) -> _Player:
        pid = self._need_player(action)
        p = self.players.get(pid)
        if p is None or not p.seated:
            raise IllegalAction("not_seated")
        return p

    def _join(self, action: Action) -> list[Event]:
        pid = self._need_player(action)
        if self._phase not in (Phase.LOBBY, Phase.BETWEEN_ROUNDS):
            raise IllegalAction("round_in_progress")
        p = self.players.get(pid)
        if p is not None and p.seated:
            raise IllegalAction("already_seated")
        if len(self.seated()) >= MAX_PLAYERS:
            raise IllegalAction("table_full", max=MAX_PLAYERS)
        buy_in = self.options.buy_in
        amount = buy_in if action.amount is None else action.amount
        if amount != buy_in:
            raise IllegalAction("bad_buy_in", expected=buy_in)
        if self.host is None:
            self.host = pid
        if p is None:
            p = _Player(pid, amount)
            self.players[pid] = p
            self.order.append(pid)
        else:
            p.seated = True
            p.stack = amount
            p.reset_round()
        money = (Money(MoneyKind.BUY_IN, wallet(pid), seat(pid), amount, pid),)
        return [Event("joined", Visibility.PUBLIC, pid, {"player": pid, "stack": amount}, money)]

    def _cash_out(self, p: _Player) -> tuple[Money, ...]:
        amount = p.stack
        p.stack = 0
        p.seated = False
        self.votes.discard(p.id)
        if amount == 0:
            return ()
        return (Money(MoneyKind.CASH_OUT, seat(p.id), claim(p.id), amount, p.id),)

    def _leave(self, action: Action) -> list[Event]:
        p = self._need_seated(action)
        if self._phase not in (Phase.LOBBY, Phase.BETWEEN_ROUNDS):
            raise IllegalAction("round_in_progress")
        stack = p.stack
        money = self._cash_out(p)
        p.reset_round()
        events = [Event("left", Visibility.PUBLIC, p.id, {"player": p.id, "stack": stack}, money)]
        if self._phase is Phase.LOBBY:
            if p.id == self.host:
                rest = self.seated()
                self.host = rest[0] if rest else None
                events.append(Event("host_changed", data={"host": self.host}))
        else:
            events += self._check_end(between=True)
        return events

    # ----------------------------------------------------------------- rounds

    def _can_start(self, pid: int) -> str | None:
        """None when ``pid`` may START now, else the error code."""
        p = self.players.get(pid)
        if self._phase is Phase.LOBBY:
            if pid != self.host:
                return "not_host"
            if p is None or not p.seated:
                return "host_not_seated"
            if len(self.seated()) < MIN_PLAYERS:
                return "not_enough_players"
            return None
        if self._phase is Phase.BETWEEN_ROUNDS:
            if p is None or not p.seated:
                return "not_seated"
            if self._host_seated() and pid != self.host:
                return "not_host"
            return None
        return "wrong_phase"

    def _start(self, action: Action) -> list[Event]:
        pid = self._need_player(action)
        code = self._can_start(pid)
        if code is not None:
            raise IllegalAction(code)
        events: list[Event] = []
        if self._phase is Phase.LOBBY:
            self.banker = self.host
            self.fund = self.options.guarantee_fund
            self.fund_open = True
            money: tuple[Money, ...] = ()
            if self.fund:
                money = (Money(MoneyKind.FUND_OPEN, HOUSE, FUND, self.fund),)
            events.append(
                Event(
                    "game_started",
                    data={
                        "players": self.seated(),
                        "banker": self.banker,
                        "fund": self.fund,
                        "options": self.options.to_dict(),
                    },
                    money=money,
                )
            )
        return events + self._start_round()

    def _start_round(self) -> list[Event]:
        assert self.banker is not None
        if not self.players[self.banker].seated:
            self.banker = self._ring_after(self.banker)[0]
        banker = self.banker
        self.round += 1
        spec = DECK_SPECS[self.deck]
        self.shoe = Shoe(spec, self.entropy(self.shuffles))
        self.shuffles += 1
        self._shoe_order = None
        if self._rig_next is not None:
            rest = [c.code for c in self.shoe.order if c.code not in self._rig_next]
            self._shoe_order = self._rig_next + rest
            self._rig_next = None
            self.shoe.rig([Card.parse(c) for c in self._shoe_order])
        for p in self.players.values():
            p.reset_round()
        self.bank_hidden = None
        self.bank_shown = []
        self.pot = 0
        events = [
            Event("round_started", data={"round": self.round, "banker": banker}),
            Event(
                "shuffle",
                data={
                    "round": self.round,
                    "deck": self.deck,
                    "spec": spec,
                    "commitment": self.shoe.commitment,
                },
            ),
        ]
        min_bet = self.options.min_bet
        self.round_order = []
        for pid in self._ring_after(banker):
            p = self.players[pid]
            if self._max_bet(p) >= min_bet:
                self.round_order.append(pid)
            else:
                p.status = SAT_OUT
                events.append(
                    Event("sit_out", data={"player": pid, "reason": "stack_too_small"}, player=pid)
                )
        for pid in self.round_order:
            p = self.players[pid]
            p.hidden = self.shoe.draw().code
            p.status = DEALT
            events.append(
                Event(
                    "card",
                    Visibility.PRIVATE,
                    pid,
                    {
                        "card": p.hidden,
                        "hidden": True,
                        "total": self.points([p.hidden]),
                    },
                )
            )
        self.bank_hidden = self.shoe.draw().code
        events.append(Event("deal", data={"players": list(self.round_order), "bank": 1}))
        self._phase = Phase.BETTING
        self.cursor = 0
        if not self.round_order:
            events += self._end_betting()
        return events

    def _need_turn(self, action: Action, phase: Phase) -> _Player:
        pid = self._need_player(action)
        if self._phase is not phase:
            raise IllegalAction("wrong_phase")
        p = self.players.get(pid)
        if p is None or not p.seated:
            raise IllegalAction("not_seated")
        if phase is Phase.BETTING and pid == self.banker:
            raise IllegalAction("banker_cannot_bet")
        if self.to_act != pid:
            raise IllegalAction("not_your_turn")
        return p

    def _bet(self, action: Action) -> list[Event]:
        placed = self.players.get(action.player) if action.player is not None else None
        if (
            placed is not None
            and placed.seated
            and placed.status in (IN, STOOD, BUST)
            and self._phase in (Phase.BETTING, Phase.PLAYING, Phase.BANK)
        ):
            raise IllegalAction("already_bet")  # one bet per round, in every game
        p = self._need_turn(action, Phase.BETTING)
        amount = action.amount
        if amount is None or not _is_int(amount):
            raise IllegalAction("bad_amount")
        lo, hi = self.options.min_bet, self._max_bet(p)
        if amount < lo:
            raise IllegalAction("bet_too_small", min=lo, max=hi)
        if amount > hi:
            raise IllegalAction("bet_too_large", min=lo, max=hi)
        p.stack -= amount
        p.bet = amount
        p.status = IN
        self.pot += amount
        money = (Money(MoneyKind.BET, seat(p.id), POT, amount, p.id),)
        events = [Event("bet", Visibility.PUBLIC, p.id, {"player": p.id, "amount": amount}, money)]
        return events + self._next_bettor()

    def _sit_out(self, action: Action) -> list[Event]:
        p = self._need_turn(action, Phase.BETTING)
        p.status = SAT_OUT
        events = [Event("sit_out", player=p.id, data={"player": p.id, "reason": "chose"})]
        return events + self._next_bettor()

    def _next_bettor(self) -> list[Event]:
        self.cursor += 1
        if self.cursor < len(self.round_order):
            return []
        return self._end_betting()

    def _end_betting(self) -> list[Event]:
        self._phase = Phase.PLAYING
        self.cursor = -1
        return self._next_player()

    def _next_player(self) -> list[Event]:
        """Move the turn to the next player still IN, or to the bank."""
        i = self.cursor + 1
        while i < len(self.round_order) and self.players[self.round_order[i]].status != IN:
            i += 1
        self.cursor = i
        if i < len(self.round_order):
            pid = self.round_order[i]
            return [Event("turn", player=pid, data={"player": pid})]
        return self._enter_bank()

    # ----------------------------------------------------------------- players' turns

    def _hit(self, action: Action) -> list[Event]:
        if self._phase is Phase.BANK:
            return self._bank_hit(action)
        p = self._need_turn(action, Phase.PLAYING)
        if p.pending is not None:
            raise IllegalAction("choice_pending")
        assert self.shoe is not None and p.hidden is not None
        if self.shoe.remaining == 0:
            raise IllegalAction("deck_empty")
        card = self.shoe.draw().code
        total = self.points([p.hidden, *p.shown, card])
        if total > SEPT_ET_DEMI:
            cards = [*p.shown, p.hidden, card]
            p.shown = cards
            p.hidden = None
            p.status = BUST
            return [self._bust_event(p, card, total), *self._next_player()]
        p.pending = card
        return [
            Event(
                "hit",
                player=p.id,
                data={
                    "player": p.id,
                    "shown": list(p.shown),
                    "hidden": 1,
                    "pending": True,
                },
            ),
            Event(
                "card",
                Visibility.PRIVATE,
                p.id,
                {
                    "card": card,
                    "pending": True,
                    "hidden_card": p.hidden,
                    "total": total,
                },
            ),
        ]

    def _bust_event(self, p: _Player, card: str, total: int) -> Event:
        assert self.banker is not None
        bet = p.bet
        self.pot -= bet
        self.players[self.banker].stack += bet
        money = (Money(MoneyKind.LOSS, POT, seat(self.banker), bet, p.id),)
        return Event(
            "bust",
            Visibility.PUBLIC,
            p.id,
            {
                "player": p.id,
                "card": card,
                "cards": list(p.shown),
                "total": total,
                "total_text": format_half_points(total),
                "bet": bet,
                "banker": self.banker,
            },
            money,
        )

    def _need_choice(self, action: Action) -> _Player:
        p = self._need_turn(action, Phase.PLAYING)
        if p.pending is None:
            raise IllegalAction("no_choice_pending")
        return p

    def _do_show(self, p: _Player) -> list[Event]:
        assert p.pending is not None
        card = p.pending
        p.shown.append(card)
        p.pending = None
        return [
            Event(
                "show",
                player=p.id,
                data={
                    "player": p.id,
                    "card": card,
                    "shown": list(p.shown),
                    "shown_total": self.points(p.shown),
                    "hidden": 1,
                },
            )
        ]

    def _show(self, action: Action) -> list[Event]:
        return self._do_show(self._need_choice(action))

    def _swap(self, action: Action) -> list[Event]:
        p = self._need_choice(action)
        assert p.pending is not None and p.hidden is not None
        old = p.hidden
        p.shown.append(old)
        p.hidden = p.pending
        p.pending = None
        return [
            Event(
                "swap",
                player=p.id,
                data={
                    "player": p.id,
                    "card": old,
                    "shown": list(p.shown),
                    "shown_total": self.points(p.shown),
                    "hidden": 1,
                },
            ),
            Event(
                "hidden_card",
                Visibility.PRIVATE,
                p.id,
                {
                    "card": p.hidden,
                    "total": self.points([p.hidden, *p.shown]),
                },
            ),
        ]

    def _stand(self, action: Action) -> list[Event]:
        if self._phase is Phase.BANK:
            self._need_turn(action, Phase.BANK)
            return self._bank_stand()
        p = self._need_turn(action, Phase.PLAYING)
        if p.pending is not None:
            raise IllegalAction("choice_pending")
        return self._do_stand(p, timeout=False)

    def _do_stand(self, p: _Player, *, timeout: bool) -> list[Event]:
        p.status = STOOD
        data: dict[str, Any] = {"player": p.id, "shown": list(p.shown)}
        if timeout:
            data["timeout"] = True
        return [Event("stand", player=p.id, data=data), *self._next_player()]

    # ----------------------------------------------------------------- bank

    def _enter_bank(self) -> list[Event]:
        assert self.bank_hidden is not None
        card = self.bank_hidden
        self.bank_shown = [card]
        self.bank_hidden = None
        total = self.points(self.bank_shown)
        events = [
            Event(
                "bank_reveal",
                data={
                    "banker": self.banker,
                    "card": card,
                    "total": total,
                },
            )
        ]
        if any(self.players[pid].status == STOOD for pid in self.round_order):
            self._phase = Phase.BANK
            return events
        return events + self._end_round()

    def _bank_hit(self, action: Action) -> list[Event]:
        self._need_turn(action, Phase.BANK)
        assert self.shoe is not None
        if self.shoe.remaining == 0:
            raise IllegalAction("deck_empty")
        card = self.shoe.draw().code
        self.bank_shown.append(card)
        total = self.points(self.bank_shown)
        events = [
            Event(
                "bank_hit",
                data={
                    "banker": self.banker,
                    "card": card,
                    "cards": list(self.bank_shown),
                    "total": total,
                },
            )
        ]
        if total > SEPT_ET_DEMI:
            events.append(Event("bank_bust", data={"banker": self.banker, "total": total}))
            return events + self._end_round()
        return events

    def _bank_stand(self, *, timeout: bool = False) -> list[Event]:
        data: dict[str, Any] = {"banker": self.banker, "total": self.points(self.bank_shown)}
        if timeout:
            data["timeout"] = True
        return [Event("bank_stand", data=data), *self._end_round()]

    # ----------------------------------------------------------------- settlement

    def _settle(self) -> tuple[list[Event], list[dict[str, Any]], dict[str, int]]:
        """Showdown and settlement of the players still in; returns the events, the
        per-player results and the totals."""
        assert self.banker is not None
        bank = self.players[self.banker]
        bank_total = self.points(self.bank_shown)
        events: list[Event] = []
        rows: list[dict[str, Any]] = []
        for pid in self.round_order:
            p = self.players[pid]
            if p.status != STOOD:
                continue
            assert p.hidden is not None
            card = p.hidden
            p.shown.append(card)
            p.hidden = None
            total = self.points(p.shown)
            events.append(
                Event(
                    "showdown",
                    player=pid,
                    data={
                        "player": pid,
                        "card": card,
                        "cards": list(p.shown),
                        "total": total,
                    },
                )
            )
            if bank_total == SEPT_ET_DEMI:
                rule, mult = "bank_sept_et_demi", -2
            elif total == SEPT_ET_DEMI:
                rule, mult = "player_sept_et_demi", 2
            elif bank_total > SEPT_ET_DEMI:
                rule, mult = "bank_bust", 1
            elif total > bank_total:
                rule, mult = "higher", 1
            else:
                rule, mult = "not_higher", -1
            rows.append({"player": pid, "rule": rule, "mult": mult, "bet": p.bet, "total": total})
        # 1. collect from the losers
        collected = 0
        for row in rows:
            if row["mult"] > 0:
                continue
            pid, bet = row["player"], row["bet"]
            p = self.players[pid]
            money = [Money(MoneyKind.LOSS, POT, seat(self.banker), bet, pid)]
            self.pot -= bet
            lost = bet
            if row["mult"] == -2:
                money.append(Money(MoneyKind.LOSS, seat(pid), seat(self.banker), bet, pid))
                p.stack -= bet
                lost += bet
            bank.stack += lost
            collected += lost
            row.update(
                outcome="loss", net=-lost, owed=0, paid_by_bank=0, paid_by_fund=0, shortfall=0
            )
            events.append(
                Event(
                    "settle", player=pid, data=self._row_data(row, bank_total), money=tuple(money)
                )
            )
        # 2. the banker pays winners in seat order as far as the stack goes
        winners = [row for row in rows if row["mult"] > 0]
        rests: list[int] = []
        for row in winners:
            owed = row["bet"] * row["mult"]
            pay = min(owed, bank.stack)
            bank.stack -= pay
            row.update(outcome="win", owed=owed, paid_by_bank=pay)
            rests.append(owed - pay)
        # 3. the fund pays the rest; pro rata when it cannot
        need = sum(rests)
        if need <= self.fund:
            shares = list(rests)
            exacts: list[str | None] = [None] * len(rests)
        else:
            available = self.fund
            shares = [available * r // need for r in rests]
            exacts = [
                str(Fraction(available * r, need)) if available * r % need else None for r in rests
            ]
            left = available - sum(shares)
            for i, r in enumerate(rests):
                if left == 0:
                    break
                if r > shares[i]:
                    shares[i] += 1
                    left -= 1
        paid_bank = 0
        for row, rest, share, exact in zip(winners, rests, shares, exacts, strict=True):
            pid, bet = row["player"], row["bet"]
            p = self.players[pid]
            money = [Money(MoneyKind.REFUND, POT, seat(pid), bet, pid)]
            self.pot -= bet
            if row["paid_by_bank"]:
                money.append(
                    Money(MoneyKind.PAYOUT, seat(self.banker), seat(pid), row["paid_by_bank"], pid)
                )
            if share:
                money.append(Money(MoneyKind.PAYOUT, FUND, seat(pid), share, pid, exact))
            self.fund -= share
            p.stack += bet + row["paid_by_bank"] + share
            paid_bank += row["paid_by_bank"]
            row.update(paid_by_fund=share, shortfall=rest - share, net=row["paid_by_bank"] + share)
            if exact is not None:
                row["exact_fund_share"] = exact
            events.append(
                Event(
                    "settle", player=pid, data=self._row_data(row, bank_total), money=tuple(money)
                )
            )
        totals = {
            "collected": collected,
            "paid_by_bank": paid_bank,
            "paid_by_fund": sum(shares),
            "shortfall": need - sum(shares),
        }
        return events, rows, totals

    def _row_data(self, row: Mapping[str, Any], bank_total: int) -> dict[str, Any]:
        data = {k: v for k, v in row.items() if k != "mult"}
        data["bank_total"] = bank_total
        data["multiplier"] = abs(int(row["mult"]))
        return data

    def _end_round(self) -> list[Event]:
        assert self.banker is not None and self.shoe is not None
        banker = self.banker
        bank_total = self.points(self.bank_shown)
        events, rows, totals = self._settle()
        results: list[dict[str, Any]] = []
        by_player = {row["player"]: row for row in rows}
        for pid in self.round_order:
            p = self.players[pid]
            if pid in by_player:
                results.append({k: v for k, v in by_player[pid].items() if k != "mult"})
            elif p.status == BUST:
                results.append(
                    {
                        "player": pid,
                        "rule": "bust",
                        "outcome": "loss",
                        "bet": p.bet,
                        "net": -p.bet,
                        "total": self.points(p.shown),
                    }
                )
        bank_net = sum(
            -int(r["net"]) if r["outcome"] == "loss" else -int(r["paid_by_bank"]) for r in results
        )
        self.last_summary = {
            "round": self.round,
            "banker": banker,
            "bank_cards": list(self.bank_shown),
            "bank_total": bank_total,
            "results": results,
            "banker_net": bank_net,
            "fund_paid": totals["paid_by_fund"],
            "shortfall": totals["shortfall"],
            "fund_left": self.fund,
        }
        events.append(Event(ROUND_SETTLED, data=dict(self.last_summary)))
        events.append(reveal_event(self.shoe.seed, self.shoe.spec))
        self.rounds_played += 1
        for pid in self.seated():
            p = self.players[pid]
            if p.stack == 0:
                p.seated = False
                self.votes.discard(pid)
                events.append(
                    Event(
                        "player_out",
                        player=pid,
                        data={
                            "player": pid,
                            "banker": pid == banker,
                        },
                    )
                )
        ring = self._ring_after(banker)
        if ring:
            self.banker = ring[0]
        self._phase = Phase.BETWEEN_ROUNDS
        self.cursor = 0
        return events + self._check_end(between=False)

    # ----------------------------------------------------------------- end

    def _check_end(self, *, between: bool) -> list[Event]:
        """At the end of a round (or after a LEAVE between rounds): finish if due."""
        with_chips = [pid for pid in self.seated() if self.players[pid].stack > 0]
        if len(with_chips) < MIN_PLAYERS:
            return self._finish("last_player" if with_chips else "no_players")
        limit = self.options.rounds
        if not between and limit is not None and self.rounds_played >= limit:
            return self._finish("rounds")
        if self._vote_majority():
            return self._finish("vote")
        return []

    def _finish(self, reason: str) -> list[Event]:
        seated = self.seated()
        stacks = {pid: self.players[pid].stack for pid in seated}
        ranking: list[dict[str, Any]] = []
        ordered = sorted(seated, key=lambda q: (-stacks[q], self.order.index(q)))
        for i, pid in enumerate(ordered):
            rank = i + 1
            if i and stacks[pid] == stacks[ordered[i - 1]]:
                rank = ranking[-1]["rank"]
            ranking.append({"rank": rank, "player": pid, "stack": stacks[pid]})
        money: list[Money] = []
        for pid in seated:
            money += self._cash_out(self.players[pid])
        money += self._close_fund()
        self._phase = Phase.FINISHED
        self.result = {
            "reason": reason,
            "ranking": ranking,
            "winners": [r["player"] for r in ranking if r["rank"] == 1],
            "rounds_played": self.rounds_played,
        }
        return [Event("game_over", data=dict(self.result), money=tuple(money))]

    def _close_fund(self) -> list[Money]:
        if not self.fund_open:
            return []
        self.fund_open = False
        amount, self.fund = self.fund, 0
        return [Money(MoneyKind.FUND_CLOSE, FUND, HOUSE, amount)] if amount else []

    def _vote_stop(self, action: Action) -> list[Event]:
        p = self._need_seated(action)
        if self._phase is Phase.LOBBY:
            raise IllegalAction("wrong_phase")
        if p.id in self.votes:
            raise IllegalAction("already_voted")
        self.votes.add(p.id)
        majority = self._vote_majority()
        events = [
            Event(
                "vote_stop",
                player=p.id,
                data={
                    "player": p.id,
                    "votes": len(self.votes),
                    "needed": self._votes_needed(),
                    "majority": majority,
                    "ends_after_round": majority and self._phase is not Phase.BETWEEN_ROUNDS,
                },
            )
        ]
        if majority and self._phase is Phase.BETWEEN_ROUNDS:
            events += self._finish("vote")
        return events

    def _timeout(self, action: Action) -> list[Event]:
        if action.player is not None:
            raise IllegalAction("system_only")
        if self._phase is Phase.BETTING:
            # Bets are taken in turn: the timer only ever runs for the current bettor, so
            # only they sit out and the next player gets a full bet window of their own.
            events: list[Event] = []
            pid = self.round_order[self.cursor]
            p = self.players[pid]
            if p.status == DEALT:
                p.status = SAT_OUT
                events.append(
                    Event("sit_out", player=pid, data={"player": pid, "reason": "timeout"})
                )
            return events + self._next_bettor()
        if self._phase is Phase.PLAYING:
            cur = self._current()
            assert cur is not None
            events = self._do_show(cur) if cur.pending is not None else []
            return events + self._do_stand(cur, timeout=True)
        if self._phase is Phase.BANK:
            return self._bank_stand(timeout=True)
        raise IllegalAction("no_timer")

    def _close(self, action: Action) -> list[Event]:
        if action.player is not None and action.player != self.host:
            raise IllegalAction("not_host")
        money: list[Money] = []
        events: list[Event] = []
        in_round = self._phase in (Phase.BETTING, Phase.PLAYING, Phase.BANK)
        if in_round:
            for pid in self.round_order:
                p = self.players[pid]
                if p.status in (IN, STOOD) and p.bet:
                    money.append(Money(MoneyKind.REFUND, POT, seat(pid), p.bet, pid))
                    p.stack += p.bet
                    self.pot -= p.bet
                    p.bet = 0
            assert self.shoe is not None
            events.append(reveal_event(self.shoe.seed, self.shoe.spec))
            for p in self.players.values():
                p.reset_round()
            self.bank_hidden = None
            self.bank_shown = []
        events.insert(0, Event("closed", data={"round_refunded": in_round}, money=tuple(money)))
        return events + self._finish("closed")

    # ----------------------------------------------------------------- views

    def _player_view(self, p: _Player) -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": p.id,
            "seat": self.order.index(p.id),
            "seated": p.seated,
            "stack": p.stack,
            "banker": p.id == self.banker and self._phase is not Phase.LOBBY,
            "status": p.status,
            "bet": p.bet,
            "shown": list(p.shown),
            "shown_total": self.points(p.shown),
            "hidden": 1 if p.hidden is not None else 0,
            "pending": p.pending is not None,
            "voted_stop": p.id in self.votes,
        }
        if p.hidden is None and p.pending is None and p.shown:
            out["total"] = self.points(p.shown)
        return out

    def public_view(self) -> dict[str, Any]:
        """Everything public: never a hidden, pending or face-down bank card."""
        shoe = None
        if self.shoe is not None:
            shoe = {
                "deck": self.deck,
                "commitment": self.shoe.commitment,
                "remaining": self.shoe.remaining,
                "size": self.shoe.size,
            }
        bank_view: dict[str, Any] = {
            "banker": self.banker,
            "shown": list(self.bank_shown),
            "hidden": 1 if self.bank_hidden is not None else 0,
        }
        if self.bank_hidden is None and self.bank_shown:
            bank_view["total"] = self.points(self.bank_shown)
        return {
            "game": GAME,
            "phase": self._phase.value,
            "options": self.options.to_dict(),
            "host": self.host,
            "round": self.round,
            "rounds_played": self.rounds_played,
            "rounds_limit": self.options.rounds,
            "banker": self.banker,
            "to_act": self.to_act,
            "deadline": self.deadline.kind.value if self.deadline else None,
            "pot": self.pot,
            "fund": {
                "balance": self.fund,
                "initial": self.options.guarantee_fund,
                "open": self.fund_open,
            },
            "shoe": shoe,
            "players": [self._player_view(self.players[pid]) for pid in self.order],
            "bank": bank_view,
            "votes": sorted(self.votes),
            "votes_needed": self._votes_needed(),
            "stop_pending": self._vote_majority() and self._phase is not Phase.FINISHED,
            "last_round": self.last_summary,
            "result": self.result,
        }

    def private_view(self, player: int) -> dict[str, Any]:
        """The public view plus the player's own hidden (and pending) card and true total.
        The banker does not see the bank's face-down card."""
        view = self.public_view()
        p = self.players.get(player)
        if p is None:
            return view
        cards = [c for c in (p.hidden, p.pending) if c is not None] + p.shown
        you: dict[str, Any] = {
            "player": player,
            "hidden": p.hidden,
            "pending": p.pending,
            "total": self.points(cards),
            "bet_range": list(r) if (r := self.bet_range(player)) else None,
            "legal": sorted(k.value for k in self.legal_actions(player)),
        }
        view["you"] = you
        return view

    # ----------------------------------------------------------------- snapshots

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": GAME,
            "version": 1,
            "options": self.options.to_dict(),
            "host": self.host,
            "phase": self._phase.value,
            "players": [self.players[pid].to_dict() for pid in self.order],
            "banker": self.banker,
            "round": self.round,
            "rounds_played": self.rounds_played,
            "pot": self.pot,
            "fund": self.fund,
            "fund_open": self.fund_open,
            "shuffles": self.shuffles,
            "shoe": self.shoe.to_dict() if self.shoe is not None else None,
            "bank_hidden": self.bank_hidden,
            "bank_shown": list(self.bank_shown),
            "round_order": list(self.round_order),
            "cursor": self.cursor,
            "votes": sorted(self.votes),
            "last_summary": self.last_summary,
            "result": self.result,
            "test_rig_next": self._rig_next,
            "test_shoe_order": self._shoe_order,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], *, entropy: Entropy = secure_entropy) -> Self:
        game = cls(data["options"], host=data["host"], entropy=entropy)
        game._phase = Phase(data["phase"])
        for d in data["players"]:
            p = _Player.from_dict(d)
            game.players[p.id] = p
            game.order.append(p.id)
        game.banker = data["banker"]
        game.round = int(data["round"])
        game.rounds_played = int(data["rounds_played"])
        game.pot = int(data["pot"])
        game.fund = int(data["fund"])
        game.fund_open = bool(data["fund_open"])
        game.shuffles = int(data["shuffles"])
        game.shoe = Shoe.from_dict(data["shoe"]) if data["shoe"] is not None else None
        game.bank_hidden = data["bank_hidden"]
        game.bank_shown = list(data["bank_shown"])
        game.round_order = [int(x) for x in data["round_order"]]
        game.cursor = int(data["cursor"])
        game.votes = {int(x) for x in data["votes"]}
        game.last_summary = data["last_summary"]
        game.result = data["result"]
        game._rig_next = data.get("test_rig_next")
        game._shoe_order = data.get("test_shoe_order")
        if game._shoe_order is not None and game.shoe is not None:
            game.shoe.rig([Card.parse(c) for c in game._shoe_order])
        return game
