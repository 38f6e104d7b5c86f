"""Casino 21, the forum casino game (``casino21``; RULES.md section 2).

A host opens the table, plays a hand like everyone else and "runs" the bank, whose hand
follows a fixed rule so the engine draws for it. 1-8 players, host included.

Choices where the rules are silent (documented here and in the report):

Money
- Welcome stake: the first JOIN of a player at this table brings ``welcome_stake`` from the
  house (WELCOME_STAKE house->seat); never again at this table, even after a leave and a
  rejoin. Own funds (JOIN ``amount`` > 0: BUY_IN wallet->seat; TOP_UP wallet->seat) may be
  added only once the welcome stake is spent, i.e. while the stack is below ``min_bet``
  (``top_up_too_early``); a JOIN bringing a welcome stake takes no own funds
  (``buy_in_with_welcome``). A sitting without a welcome stake (a rejoin, or
  ``welcome_stake`` = 0) has none to spend: own funds are welcome at any time. A JOIN that
  would bring nothing (no welcome stake left, amount 0) is refused (``empty_stack``).
- Wagering requirement: the total of the bets a player placed at this table.
- Forfeit on an early leave (only at the sitting where the welcome stake was received, and
  only while the total bet is below ``wager_requirement``): the welcome stake is spent
  first (source: "Ses 100 flouz offerts épuisés, il peut en dépenser sur ses fonds
  propres"), and winnings made with it are not the player's yet. So the player keeps
  ``keep = min(stack, own)`` where ``own`` is the own funds brought at this sitting (JOIN
  amount + TOP_UPs); ``forfeit = stack - keep`` goes back to the house (FORFEIT
  seat->house), ``keep`` becomes a claim (CASH_OUT seat->claim). When ``forfeit`` > 0 a
  LEAVE without ``confirm=True`` raises ``IllegalAction("forfeit_needs_confirmation",
  forfeit=..., keep=...)`` and changes nothing.
- A player with a live bet (placed this round, not yet settled) cannot leave
  (``leave_during_round``); they can leave once the round is settled or after busting.
- A stack that reaches 0 (a lost bet) does not lose the seat at once: the player is told
  privately (PRIVATE ``stack_empty``) that they may add own funds before the next round's
  bets close. When the bets close (the end of the first turn) a seat still at 0 is emptied
  (event ``left`` with reason ``empty_stack`` and a CASH_OUT of 0).
- CLOSE (by the host, or the system: an idle table, a table whose thread is gone) refunds
  the bets of an unfinished round (REFUND pot->seat), then empties every seat on exactly
  the terms of a leave (``_settle_seat``, shared with LEAVE, a kick and an empty stack): a
  player below the wagering requirement forfeits the welcome stake and its winnings, as the
  rules say; no confirmation is asked (the player did not choose to close).
- When the host leaves, the host role passes to the next seated player in seat order; when
  the last player leaves, the table is finished.

Cards and turns
- A new deck (``decks`` x 52 cards) is shuffled for every round (START by the host), its
  commitment published in a PUBLIC ``shuffle`` event before the first card, its seed
  revealed (``seed_revealed``) when the round ends.
- First turn (Phase.BETTING, Deadline.BET): a player's two public cards are dealt right
  after their bet (forum style). A player may also SIT_OUT. The turn ends when the host
  sends END_TURN, at TIMEOUT, or by itself once every seated player has bet or sat out and
  no ace choice is pending. Players who did not bet sit the round out. Then the bank gets
  one public card and one face-down card (a HIDDEN event; never in a public view before the
  bank's turn).
- Following turns (Phase.PLAYING, Deadline.TURN): each player still in sends DRAW with a
  count N (0 = stand, done for the round; at most ``MAX_DRAW`` and the cards left). The N
  cards are dealt at once and shown; each ace among them is then valued by its holder with
  CHOOSE_ACE (1 or 11), first ace first, and the draw is finished only when every ace is
  valued. A hand over 21 busts and loses its bet at once (LOSS pot->house); a hand at
  exactly 21 stands by itself (any further card would bust it). The turn ends by itself
  when every player still in has moved, or by END_TURN (host) or TIMEOUT: players who did
  not move stand, and pending aces take the fallback value.
- Ace fallback (timer, host ending the turn) and the bank's aces: 11 if the hand, counting
  every other still-unvalued ace as 1, stays at 21 or less; else 1.
- Bank turn: the hole card is turned up, the bank draws one card at a time at 16 or less
  and stops at 17 or more. It always plays out (even when every player busted). If the
  deck runs out (possible only with many players and long draws on one deck) the bank
  stands on what it has.

Settlement (each player not busted, bet ``b``)
- Blackjack = the first two cards are an ace valued 11 and a bûche (10, J, Q, K); an ace
  valued 1 never makes a blackjack. It beats any 21 of more cards, both ways; two
  blackjacks are equal (push).
- Bank blackjack: the player loses unless they also have a blackjack (push).
- Bank over 21: the player gets ``b`` back plus ``bank_bust_bonus`` (5 by default, or
  "half": ``b // 2``, exact figure in Money.exact) - a player blackjack included.
- Otherwise a higher total wins ``b`` + ``b // 2`` (a player blackjack against a bank
  17-20 or a multi-card 21 is such a win: RULES say "higher total wins" and set no
  blackjack premium), equal totals push, a lower total loses ``b``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any, Self

from ..base import (
    HOUSE,
    POT,
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
from ..cards import Card, Rank, build_deck
from ..enums import FastEnum
from ..legacy import Game
from ..options import OptionKind, OptionSpec, check_values
from ..shuffle import Entropy, Shoe, secure_entropy, shuffled

MAX_PLAYERS = 8
MAX_DRAW = 10  # most cards one DRAW may ask for
MAX_DECKS = 8

#: Stable IllegalAction codes (the UI translates them); the text is an English fallback.
CASINO21_REASONS: dict[str, str] = {
    "unknown_action": "This action does not exist in Casino 21.",
    "table_finished": "The table is closed.",
    "player_required": "This action needs a player.",
    "system_only": "Only the table's timer can do this.",
    "not_host": "Only the host can do this.",
    "host_not_seated": "The host must be seated to start a round.",
    "not_seated": "You are not seated at this table.",
    "already_seated": "You are already seated at this table.",
    "table_full": "The table is full.",
    "bad_amount": "The amount must be a whole number of at least {min}.",
    "empty_stack": "You would sit down with nothing to play: bring some funds.",
    "top_up_too_early": (
        "You can add your own funds only once the welcome stake is spent: "
        "your stack ({stack}) must be below the minimum bet ({min})."
    ),
    "buy_in_with_welcome": (
        "You receive a welcome stake of {welcome} at this table: sit down without own "
        "funds; you can add them once it is spent."
    ),
    "round_in_progress": "A round is already in progress.",
    "no_turn": "No turn is running.",
    "not_betting": "Bets are only taken during the first turn.",
    "already_bet": "You already bet or sat out this round.",
    "bet_below_min": "The minimum bet is {min}.",
    "bet_above_max": "The maximum bet is {max}.",
    "bet_above_stack": "You only have {stack} at the table.",
    "not_playing": "Cards are drawn during the following turns only.",
    "not_in_round": "You are not in play this round.",
    "already_moved": "You already played this turn.",
    "ace_pending": "Choose the value of your ace first.",
    "draw_too_many": "You can draw at most {max} cards.",
    "no_ace_pending": "You have no ace to value.",
    "bad_ace_value": "An ace is worth 1 or 11.",
    "leave_during_round": "You have a bet in play: wait for the end of the round.",
    "forfeit_needs_confirmation": (
        "You have not bet {requirement} yet: leaving now forfeits {forfeit} "
        "(the welcome stake and its winnings); you keep {keep}. Confirm to leave."
    ),
}


def _illegal(code: str, **params: object) -> IllegalAction:
    assert code in CASINO21_REASONS, code
    return IllegalAction(code, **params)


# --------------------------------------------------------------------------- options


_I = OptionKind.INT
_MONEY_MAX = 1_000_000

#: The options of a Casino 21 table (RULES.md section 2): ``/table open``, ``/rules``.
OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec(
        "welcome_stake",
        _I,
        100,
        "stake the casino gives each player who sits down",
        "mise de bienvenue offerte par le casino à chaque joueur",
        min=0,
        max=_MONEY_MAX,
        cap="max_welcome_stake",
    ),
    OptionSpec(
        "wager_requirement",
        _I,
        100,
        "total to bet before leaving with winnings",
        "total à miser avant de repartir avec ses gains",
        min=0,
        max=_MONEY_MAX,
        open_at_least=("welcome_stake", "wager_below_stake"),
    ),
    OptionSpec(
        "decks",
        _I,
        1,
        "52-card decks, shuffled each round",
        "paquets de 52 cartes, battus à chaque manche",
        min=1,
        max=MAX_DECKS,
    ),
    OptionSpec("min_bet", _I, 1, "smallest bet", "mise minimale", min=1, max=_MONEY_MAX),
    OptionSpec(
        "max_bet",
        _I,
        100,
        "largest bet",
        "mise maximale",
        min=1,
        max=_MONEY_MAX,
        at_least=("min_bet", 1),
    ),
    OptionSpec(
        "bank_bust_bonus",
        _I,
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
        _I,
        MAX_PLAYERS,
        "players at the table, host included",
        "joueurs à la table, hôte compris",
        min=1,
        max=MAX_PLAYERS,
    ),
)


@dataclass(frozen=True, slots=True)
class Casino21Options:
    """Per-table settings (RULES.md section 2), typed, with their defaults."""

    welcome_stake: int = 100
    wager_requirement: int = 100
    decks: int = 1
    min_bet: int = 1
    max_bet: int = 100
    bank_bust_bonus: int | str = 5  # a fixed amount, or "half" (half the bet)
    max_players: int = MAX_PLAYERS

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any] | None) -> Casino21Options:
        """Validate typed options; raise :class:`InvalidOptions` on the first problem."""
        return cls(**check_values(OPTIONS, data or {}))

    def to_dict(self) -> dict[str, Any]:
        """JSON-able form (every option, for ``/rules``)."""
        return {f.name: getattr(self, f.name) for f in fields(self)}


# --------------------------------------------------------------------------- state


class Status(FastEnum):
    """Where a seated player stands in the current round."""

    IDLE = "idle"  # first turn: has not bet or sat out yet
    OUT = "out"  # not in this round (sat out, joined late, between rounds)
    PLAYING = "playing"  # in play, may draw in the following turns
    STOOD = "stood"  # done drawing, waits for the bank
    BUST = "bust"  # over 21, bet lost


#: Statuses of a seat holding this round's bet (during the following turns).
_BET_PLACED = frozenset({Status.PLAYING, Status.STOOD, Status.BUST})


@dataclass(slots=True)
class _Seat:
    player: int
    stack: int
    welcome: int  # welcome stake received at this sitting (0 after a rejoin)
    own: int  # own funds brought at this sitting (JOIN amount + TOP_UPs)
    status: Status = Status.OUT
    bet: int = 0  # this round's bet (shown; stays after settlement)
    in_pot: int = 0  # the part of the pot that is this player's live bet
    cards: list[Card] = field(default_factory=list)
    values: list[int | None] = field(default_factory=list)  # None: ace not valued yet
    moved: bool = False  # following turns: has drawn (or stood) this turn

    @property
    def pending(self) -> bool:
        return None in self.values

    @property
    def known_total(self) -> int:
        return sum(v for v in self.values if v is not None)

    @property
    def blackjack(self) -> bool:
        return _is_blackjack(self.cards, self.values)

    def to_dict(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "stack": self.stack,
            "welcome": self.welcome,
            "own": self.own,
            "status": self.status.value,
            "bet": self.bet,
            "in_pot": self.in_pot,
            "cards": [c.code for c in self.cards],
            "values": list(self.values),
            "moved": self.moved,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> _Seat:
        return cls(
            player=int(data["player"]),
            stack=int(data["stack"]),
            welcome=int(data["welcome"]),
            own=int(data["own"]),
            status=Status(data["status"]),
            bet=int(data["bet"]),
            in_pot=int(data["in_pot"]),
            cards=[Card.parse(c) for c in data["cards"]],
            values=[None if v is None else int(v) for v in data["values"]],
            moved=bool(data["moved"]),
        )


def card_value(card: Card) -> int | None:
    """Value of a non-ace card; None for an ace (its holder chooses)."""
    return None if card.rank is Rank.ACE else card.rank.pip


def _is_blackjack(cards: Sequence[Card], values: Sequence[int | None]) -> bool:
    """An ace valued 11 and a bûche as the first two cards."""
    if len(cards) < 2:
        return False
    pair = list(zip(cards[:2], values[:2], strict=True))
    return any(c.rank is Rank.ACE and v == 11 for c, v in pair) and any(
        c.rank.pip == 10 for c, _ in pair
    )


def fallback_ace(values: Sequence[int | None]) -> int:
    """Value for the first unvalued ace: 11 unless that takes the hand over 21."""
    total = sum(1 if v is None else v for v in values)
    return 11 if total + 10 <= 21 else 1


def _half(amount: int) -> tuple[int, str]:
    """Half of ``amount`` rounded down, and the exact figure."""
    return amount // 2, f"{amount // 2}.5" if amount % 2 else str(amount // 2)


# --------------------------------------------------------------------------- game


class Casino21(Game):
    """The Casino 21 table: see the module docstring for every rule and choice."""

    GAME = "casino21"

    def __init__(
        self,
        host: int,
        options: Mapping[str, Any] | Casino21Options | None = None,
        *,
        entropy: Entropy = secure_entropy,
    ) -> None:
        super().__init__(entropy=entropy)
        self.options = (
            options
            if isinstance(options, Casino21Options)
            else Casino21Options.from_mapping(options)
        )
        self.host = host
        self._phase = Phase.LOBBY
        self.seats: list[_Seat] = []
        self.welcomed: set[int] = set()  # players who got the welcome stake here
        self.wagered: dict[int, int] = {}  # total bet at this table per player
        self.ever_seated = False
        self.round = 0
        self.turn = 0  # 1 = the first turn (bets), 2.. = the following turns
        self.shuffles = 0  # entropy counter
        self.shoe: Shoe | None = None
        self.rig: list[Card] | None = None  # TEST HOOK: this round's forced first cards
        self.rig_next: list[Card] | None = None  # TEST HOOK: for the next START
        self._order: list[Card] | None = None  # rigged order (derived from shoe + rig)
        self.seed_revealed = True
        self.bank_cards: list[Card] = []
        self.bank_values: list[int] = []
        self.bank_revealed = False
        self.results: list[dict[str, Any]] = []  # this round's per-player results

    # ----------------------------------------------------------------- test hook

    def rig_next_round(self, codes: str | Sequence[str]) -> None:
        """TEST HOOK - never use on a real table. The next round's deck starts with these
        cards in this order (then the rest of the normally shuffled deck, minus them).
        The commitment still covers the seed only, so a rigged round is not verifiable."""
        if isinstance(codes, str):
            codes = codes.split()
        cards = [Card.parse(c) for c in codes]
        full = build_deck(self._spec)
        for card in cards:
            full.remove(card)  # ValueError when the deck has no such card left
        self.rig_next = cards

    # ----------------------------------------------------------------- protocol

    @property
    def _spec(self) -> str:
        return f"std52*{self.options.decks}" if self.options.decks > 1 else "std52"

    @property
    def phase(self) -> Phase:
        return self._phase

    def _seat(self, player: int | None) -> _Seat | None:
        for s in self.seats:
            if s.player == player:
                return s
        return None

    @property
    def to_act(self) -> int | None:
        pending = [s.player for s in self.seats if s.pending]
        if pending:
            return pending[0] if len(pending) == 1 else None
        if self._phase is Phase.BETTING:
            able = [s.player for s in self.seats if s.status is Status.IDLE]
        elif self._phase is Phase.PLAYING:
            able = [s.player for s in self.seats if s.status is Status.PLAYING and not s.moved]
        else:
            return None
        return able[0] if len(able) == 1 else None

    def turn_key(self) -> str:
        """Every player moves in the same turn: the deadline runs per turn."""
        return f"turn{self.turn}"

    def seated(self) -> list[int]:
        """Seated players in seat order."""
        return [s.player for s in self.seats]

    def buy_in(self) -> BuyIn:
        """A welcome stake at this table: nothing from the wallet unless asked."""
        return BuyIn(minimum=self.options.min_bet, welcome=self.options.welcome_stake > 0)

    @classmethod
    def create(cls, host: int, options: Mapping[str, Any], entropy: Entropy) -> Self:
        """A new table hosted by ``host``."""
        return cls(host, options, entropy=entropy)

    @property
    def cards_left(self) -> int:
        return self.shoe.remaining if self.shoe is not None else 0

    @property
    def pot(self) -> int:
        return sum(s.in_pot for s in self.seats)

    def legal_actions(self, player: int | None) -> frozenset[ActionKind]:
        if self._phase is Phase.FINISHED:
            return frozenset()
        in_round = self._phase in (Phase.BETTING, Phase.PLAYING)
        if player is None:
            kinds = {ActionKind.CLOSE}
            if in_round:
                kinds.add(ActionKind.TIMEOUT)
            return frozenset(kinds)
        out: set[ActionKind] = set()
        s = self._seat(player)
        if player == self.host:
            out.add(ActionKind.CLOSE)
            if in_round:
                out.add(ActionKind.END_TURN)
            elif s is not None:
                out.add(ActionKind.START)
        if s is None:
            if len(self.seats) < self.options.max_players:
                out.add(ActionKind.JOIN)
            return frozenset(out)
        if self._may_top_up(s):
            out.add(ActionKind.TOP_UP)
        if s.in_pot == 0:
            out.add(ActionKind.LEAVE)
        if s.pending:
            out.add(ActionKind.CHOOSE_ACE)
        elif self._phase is Phase.BETTING and s.status is Status.IDLE:
            if s.stack >= self.options.min_bet:
                out.add(ActionKind.BET)
            out.add(ActionKind.SIT_OUT)
        elif self._phase is Phase.PLAYING and s.status is Status.PLAYING and not s.moved:
            out.add(ActionKind.DRAW)
        return frozenset(out)

    def _may_top_up(self, s: _Seat) -> bool:
        """Own funds only once this sitting's welcome stake is spent (RULES.md section 2)."""
        return s.welcome == 0 or s.stack < self.options.min_bet

    def leave_terms(self, player: int) -> tuple[int, int]:
        """(forfeit, keep) if ``player`` left now (raises when not seated)."""
        s = self._seat(player)
        if s is None:
            raise _illegal("not_seated")
        return self._leave_terms(s)

    def _leave_terms(self, s: _Seat) -> tuple[int, int]:
        early = self.wagered.get(s.player, 0) < self.options.wager_requirement
        if s.welcome > 0 and early:
            keep = min(s.stack, s.own)
            return s.stack - keep, keep
        return 0, s.stack

    def max_draw(self) -> int:
        """The most cards one DRAW may ask for now."""
        return min(MAX_DRAW, self.cards_left)

    # ----------------------------------------------------------------- apply

    def apply(self, action: Action) -> list[Event]:
        handler = self._handlers().get(action.kind)
        if handler is None:
            raise _illegal("unknown_action", kind=action.kind.value)
        if self._phase is Phase.FINISHED:
            raise _illegal("table_finished")
        events = handler(action)
        self._advance(events)
        return events

    def _handlers(self) -> dict[ActionKind, Callable[[Action], list[Event]]]:
        return {
            ActionKind.JOIN: self._join,
            ActionKind.LEAVE: self._leave,
            ActionKind.TOP_UP: self._top_up,
            ActionKind.START: self._start,
            ActionKind.BET: self._bet,
            ActionKind.SIT_OUT: self._sit_out,
            ActionKind.CHOOSE_ACE: self._choose_ace,
            ActionKind.DRAW: self._draw,
            ActionKind.END_TURN: self._end_turn_action,
            ActionKind.TIMEOUT: self._timeout,
            ActionKind.CLOSE: self._close,
        }

    def _need_seat(self, action: Action) -> _Seat:
        if action.player is None:
            raise _illegal("player_required")
        s = self._seat(action.player)
        if s is None:
            raise _illegal("not_seated")
        return s

    def _need_host(self, action: Action) -> None:
        if action.player is None:
            raise _illegal("player_required")
        if action.player != self.host:
            raise _illegal("not_host")

    # --- seats and money

    def _join(self, action: Action) -> list[Event]:
        player = action.player
        if player is None:
            raise _illegal("player_required")
        if self._seat(player) is not None:
            raise _illegal("already_seated")
        if len(self.seats) >= self.options.max_players:
            raise _illegal("table_full", max=self.options.max_players)
        amount = 0 if action.amount is None else action.amount
        if not isinstance(amount, int) or isinstance(amount, bool) or amount < 0:
            raise _illegal("bad_amount", min=0)
        welcome = 0 if player in self.welcomed else self.options.welcome_stake
        if welcome + amount == 0:
            raise _illegal("empty_stack")
        if welcome and amount:
            raise _illegal("buy_in_with_welcome", welcome=welcome)
        status = Status.IDLE if self._phase is Phase.BETTING else Status.OUT
        s = _Seat(player, welcome + amount, welcome, amount, status)
        self.seats.append(s)
        self.welcomed.add(player)
        self.wagered.setdefault(player, 0)
        self.ever_seated = True
        money: list[Money] = []
        if welcome:
            money.append(Money(MoneyKind.WELCOME_STAKE, HOUSE, seat(player), welcome, player))
        if amount:
            money.append(Money(MoneyKind.BUY_IN, wallet(player), seat(player), amount, player))
        return [
            Event(
                "joined",
                Visibility.PUBLIC,
                player,
                {
                    "seat": len(self.seats) - 1,
                    "welcome_stake": welcome,
                    "own": amount,
                    "stack": s.stack,
                    "wager_requirement": self.options.wager_requirement,
                    "wagered": self.wagered[player],
                },
                tuple(money),
            )
        ]

    def _top_up(self, action: Action) -> list[Event]:
        s = self._need_seat(action)
        amount = action.amount
        if not isinstance(amount, int) or isinstance(amount, bool) or amount < 1:
            raise _illegal("bad_amount", min=1)
        if not self._may_top_up(s):
            raise _illegal("top_up_too_early", stack=s.stack, min=self.options.min_bet)
        s.stack += amount
        s.own += amount
        return [
            Event(
                "top_up",
                Visibility.PUBLIC,
                s.player,
                {"amount": amount, "stack": s.stack},
                (Money(MoneyKind.TOP_UP, wallet(s.player), seat(s.player), amount, s.player),),
            )
        ]

    def _leave(self, action: Action) -> list[Event]:
        s = self._need_seat(action)
        if s.in_pot > 0:
            raise _illegal("leave_during_round")
        forfeit, keep = self._leave_terms(s)
        if forfeit > 0 and not action.confirm:
            raise _illegal(
                "forfeit_needs_confirmation",
                forfeit=forfeit,
                keep=keep,
                requirement=self.options.wager_requirement,
                wagered=self.wagered.get(s.player, 0),
            )
        events: list[Event] = []
        self._settle_seat(s, "leave", events)
        return events

    def _settle_seat(self, s: _Seat, reason: str, events: list[Event]) -> None:
        """Empty a seat on the leave terms, whatever empties it (a leave, a kick, a close,
        an empty stack): below the wagering requirement the welcome stake is forfeited."""
        forfeit, keep = self._leave_terms(s)
        money: list[Money] = []
        if forfeit:
            money.append(Money(MoneyKind.FORFEIT, seat(s.player), HOUSE, forfeit, s.player))
        money.append(Money(MoneyKind.CASH_OUT, seat(s.player), claim(s.player), keep, s.player))
        self.seats.remove(s)
        events.append(
            Event(
                "left",
                Visibility.PUBLIC,
                s.player,
                {
                    "reason": reason,
                    "keep": keep,
                    "forfeit": forfeit,
                    "wagered": self.wagered.get(s.player, 0),
                },
                tuple(money),
            )
        )
        if s.player == self.host and self.seats and reason != "close":
            self.host = self.seats[0].player
            events.append(
                Event("host_changed", Visibility.PUBLIC, self.host, {"previous": s.player})
            )

    # --- rounds

    def _start(self, action: Action) -> list[Event]:
        self._need_host(action)
        if self._phase not in (Phase.LOBBY, Phase.BETWEEN_ROUNDS):
            raise _illegal("round_in_progress")
        if self._seat(self.host) is None:
            raise _illegal("host_not_seated")
        self.round += 1
        self.turn = 1
        self.shoe = Shoe(self._spec, self.entropy(self.shuffles))
        self.shuffles += 1
        self.rig, self.rig_next = self.rig_next, None
        self._order = self._rigged_order()
        self.seed_revealed = False
        self.bank_cards, self.bank_values, self.bank_revealed = [], [], False
        self.results = []
        for s in self.seats:
            s.status, s.bet, s.in_pot, s.cards, s.values, s.moved = (
                Status.IDLE,
                0,
                0,
                [],
                [],
                False,
            )
        self._phase = Phase.BETTING
        return [
            Event(
                "round_started",
                Visibility.PUBLIC,
                None,
                {"round": self.round, "players": [s.player for s in self.seats]},
            ),
            Event(
                "shuffle",
                Visibility.PUBLIC,
                None,
                {
                    "round": self.round,
                    "commitment": self.shoe.commitment,
                    "spec": self.shoe.spec,
                    "cards": self.shoe.size,
                },
            ),
        ]

    def _rigged_order(self) -> list[Card] | None:
        if self.rig is None or self.shoe is None:
            return None
        rest = shuffled(build_deck(self.shoe.spec), self.shoe.seed)
        for card in self.rig:
            rest.remove(card)
        return list(self.rig) + rest

    def _deal(self) -> Card:
        assert self.shoe is not None
        if self._order is None:
            return self.shoe.draw()
        card = self._order[self.shoe.pos]
        self.shoe.pos += 1
        return card

    def _bet(self, action: Action) -> list[Event]:
        s = self._need_seat(action)
        if self._phase is Phase.PLAYING and s.status in _BET_PLACED:
            raise _illegal("already_bet")  # one bet per round, in every game
        if self._phase is not Phase.BETTING:
            raise _illegal("not_betting")
        if s.status is not Status.IDLE:
            raise _illegal("already_bet")
        amount = action.amount
        if not isinstance(amount, int) or isinstance(amount, bool):
            raise _illegal("bad_amount", min=self.options.min_bet)
        if amount < self.options.min_bet:
            raise _illegal("bet_below_min", min=self.options.min_bet)
        if amount > self.options.max_bet:
            raise _illegal("bet_above_max", max=self.options.max_bet)
        if amount > s.stack:
            raise _illegal("bet_above_stack", stack=s.stack)
        s.stack -= amount
        s.bet = s.in_pot = amount
        s.status = Status.PLAYING
        self.wagered[s.player] = self.wagered.get(s.player, 0) + amount
        events = [
            Event(
                "bet",
                Visibility.PUBLIC,
                s.player,
                {
                    "amount": amount,
                    "stack": s.stack,
                    "wagered": self.wagered[s.player],
                },
                (Money(MoneyKind.BET, seat(s.player), POT, amount, s.player),),
            )
        ]
        self._give(s, 2, "dealt", events)
        return events

    def _give(self, s: _Seat, n: int, kind: str, events: list[Event]) -> None:
        """Deal ``n`` public cards to ``s`` at once, then ask for aces or finish."""
        cards = [self._deal() for _ in range(n)]
        s.cards.extend(cards)
        s.values.extend(card_value(c) for c in cards)
        events.append(
            Event(
                kind,
                Visibility.PUBLIC,
                s.player,
                {
                    "cards": [c.code for c in cards],
                    "hand": [c.code for c in s.cards],
                },
            )
        )
        self._after_cards(s, events)

    def _after_cards(self, s: _Seat, events: list[Event]) -> None:
        if s.pending:
            index = s.values.index(None)
            events.append(
                Event(
                    "ace_pending",
                    Visibility.PUBLIC,
                    s.player,
                    {
                        "index": index,
                        "card": s.cards[index].code,
                        "fallback": fallback_ace(s.values),
                    },
                )
            )
            return
        total = s.known_total
        if self._phase is Phase.PLAYING:
            s.moved = True
        if total > 21:
            self._lose(s, "bust", events)
        elif total == 21:
            s.status = Status.STOOD
            events.append(
                Event(
                    "stood",
                    Visibility.PUBLIC,
                    s.player,
                    {"total": 21, "auto": "21", "blackjack": s.blackjack},
                )
            )

    def _lose(self, s: _Seat, outcome: str, events: list[Event]) -> None:
        amount = s.in_pot
        s.in_pot = 0
        if outcome == "bust":
            s.status = Status.BUST
        result = self._result(s, outcome, 0, "0", 0)
        result["net"] = -amount
        events.append(
            Event(
                outcome,
                Visibility.PUBLIC,
                s.player,
                result,
                (Money(MoneyKind.LOSS, POT, HOUSE, amount, s.player),),
            )
        )
        if s.stack == 0:  # told privately: own funds before the next bets close keep the seat
            events.append(
                Event(
                    "stack_empty",
                    Visibility.PRIVATE,
                    s.player,
                    {"round": self.round, "min_bet": self.options.min_bet},
                )
            )

    def _result(self, s: _Seat, outcome: str, gain: int, exact: str, back: int) -> dict[str, Any]:
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

    def _sit_out(self, action: Action) -> list[Event]:
        s = self._need_seat(action)
        if self._phase is not Phase.BETTING:
            raise _illegal("not_betting")
        if s.status is not Status.IDLE:
            raise _illegal("already_bet")
        s.status = Status.OUT
        return [Event("sat_out", Visibility.PUBLIC, s.player, {"auto": False})]

    def _choose_ace(self, action: Action) -> list[Event]:
        s = self._need_seat(action)
        if not s.pending:
            raise _illegal("no_ace_pending")
        if action.value not in (1, 11) or isinstance(action.value, bool):
            raise _illegal("bad_ace_value")
        events: list[Event] = []
        self._set_ace(s, action.value, False, events)
        return events

    def _set_ace(self, s: _Seat, value: int, auto: bool, events: list[Event]) -> None:
        index = s.values.index(None)
        s.values[index] = value
        events.append(
            Event(
                "ace_chosen",
                Visibility.PUBLIC,
                s.player,
                {
                    "index": index,
                    "card": s.cards[index].code,
                    "value": value,
                    "auto": auto,
                },
            )
        )
        self._after_cards(s, events)

    def _draw(self, action: Action) -> list[Event]:
        s = self._need_seat(action)
        if self._phase is not Phase.PLAYING:
            raise _illegal("not_playing")
        if s.status is not Status.PLAYING:
            raise _illegal("not_in_round")
        if s.pending:
            raise _illegal("ace_pending")
        if s.moved:
            raise _illegal("already_moved")
        n = action.amount
        if not isinstance(n, int) or isinstance(n, bool) or n < 0:
            raise _illegal("bad_amount", min=0)
        if n > self.max_draw():
            raise _illegal("draw_too_many", max=self.max_draw())
        events: list[Event] = []
        if n == 0:
            s.status = Status.STOOD
            s.moved = True
            events.append(
                Event("stood", Visibility.PUBLIC, s.player, {"total": s.known_total, "auto": None})
            )
        else:
            self._give(s, n, "drew", events)
        return events

    def _end_turn_action(self, action: Action) -> list[Event]:
        self._need_host(action)
        if self._phase not in (Phase.BETTING, Phase.PLAYING):
            raise _illegal("no_turn")
        events: list[Event] = []
        self._end_turn("host", events)
        return events

    def _timeout(self, action: Action) -> list[Event]:
        if action.player is not None:
            raise _illegal("system_only")
        if self._phase not in (Phase.BETTING, Phase.PLAYING):
            raise _illegal("no_turn")
        events: list[Event] = []
        self._end_turn("timeout", events)
        return events

    def _end_turn(self, by: str, events: list[Event]) -> None:
        for s in list(self.seats):
            while s.pending:
                self._set_ace(s, fallback_ace(s.values), True, events)
        if self._phase is Phase.BETTING:
            self._close_bets(by, events)
            events.append(
                Event(
                    "turn_ended",
                    Visibility.PUBLIC,
                    None,
                    {"round": self.round, "turn": self.turn, "by": by},
                )
            )
            in_round = any(s.bet for s in self.seats if s.status is not Status.OUT)
            if not in_round and not self.results:
                events.append(Event("round_void", Visibility.PUBLIC, None, {"round": self.round}))
                self._finish_round(events)
                return
            self._deal_bank(events)
            self._phase = Phase.PLAYING
        else:
            for s in self.seats:
                if s.status is Status.PLAYING and not s.moved:
                    s.status = Status.STOOD
                    s.moved = True
                    events.append(
                        Event(
                            "stood",
                            Visibility.PUBLIC,
                            s.player,
                            {"total": s.known_total, "auto": by},
                        )
                    )
            events.append(
                Event(
                    "turn_ended",
                    Visibility.PUBLIC,
                    None,
                    {"round": self.round, "turn": self.turn, "by": by},
                )
            )
        active = [s for s in self.seats if s.status is Status.PLAYING]
        if active:
            self.turn += 1
            for s in active:
                s.moved = False
            events.append(
                Event(
                    "turn_started",
                    Visibility.PUBLIC,
                    None,
                    {
                        "round": self.round,
                        "turn": self.turn,
                        "players": [s.player for s in active],
                        "max_draw": self.max_draw(),
                    },
                )
            )
            return
        self._bank_turn(events)

    def _close_bets(self, by: str, events: list[Event]) -> None:
        """The first turn ends: who has not bet sits out, a stack still at 0 leaves."""
        for s in self.seats:
            if s.status is Status.IDLE:
                s.status = Status.OUT
                events.append(Event("sat_out", Visibility.PUBLIC, s.player, {"auto": by}))
        for s in list(self.seats):
            if s.stack == 0 and s.in_pot == 0:
                self._settle_seat(s, "empty_stack", events)

    # --- the bank

    def _bank_value(self, card: Card) -> int:
        value = card_value(card)
        if value is not None:
            return value
        return 11 if sum(self.bank_values) + 11 <= 21 else 1

    def _bank_take(self) -> tuple[Card, int] | None:
        if self.cards_left == 0:
            return None
        card = self._deal()
        value = self._bank_value(card)
        self.bank_cards.append(card)
        self.bank_values.append(value)
        return card, value

    @property
    def bank_total(self) -> int:
        return sum(self.bank_values)

    @property
    def bank_blackjack(self) -> bool:
        return _is_blackjack(self.bank_cards, list(self.bank_values))

    def _deal_bank(self, events: list[Event]) -> None:
        up = self._bank_take()
        hole = self._bank_take()
        assert up is not None and hole is not None  # 8 players x 2 + 2 <= 52
        events.append(
            Event(
                "bank_dealt",
                Visibility.PUBLIC,
                None,
                {"card": up[0].code, "value": up[1], "hidden": 1},
            )
        )
        events.append(
            Event("bank_hole", Visibility.HIDDEN, None, {"card": hole[0].code, "value": hole[1]})
        )

    def _bank_turn(self, events: list[Event]) -> None:
        self.bank_revealed = True
        events.append(
            Event(
                "bank_reveal",
                Visibility.PUBLIC,
                None,
                {
                    "card": self.bank_cards[1].code,
                    "value": self.bank_values[1],
                    "cards": [c.code for c in self.bank_cards],
                    "total": self.bank_total,
                    "blackjack": self.bank_blackjack,
                },
            )
        )
        while self.bank_total <= 16:
            taken = self._bank_take()
            if taken is None:
                events.append(
                    Event("deck_empty", Visibility.PUBLIC, None, {"total": self.bank_total})
                )
                break
            events.append(
                Event(
                    "bank_draw",
                    Visibility.PUBLIC,
                    None,
                    {
                        "card": taken[0].code,
                        "value": taken[1],
                        "total": self.bank_total,
                    },
                )
            )
        total = self.bank_total
        events.append(
            Event(
                "bank_done",
                Visibility.PUBLIC,
                None,
                {"total": total, "bust": total > 21, "blackjack": self.bank_blackjack},
            )
        )
        self._settle(events)

    def _settle(self, events: list[Event]) -> None:
        bank_total, bank_bj = self.bank_total, self.bank_blackjack
        for s in self.seats:
            if s.in_pot == 0:
                continue
            outcome = settle_outcome(s.known_total, s.blackjack, bank_total, bank_bj)
            bet = s.in_pot
            if outcome == "lose":
                self._lose(s, "lose", events)
                continue
            s.in_pot = 0
            money: list[Money] = []
            if outcome == "push":
                gain, exact = 0, "0"
                money.append(Money(MoneyKind.REFUND, POT, seat(s.player), bet, s.player))
            else:
                bonus = self.options.bank_bust_bonus
                if outcome == "bank_bust" and isinstance(bonus, int):
                    gain, exact = bonus, str(bonus)
                else:
                    gain, exact = _half(bet)
                money.append(Money(MoneyKind.PAYOUT, POT, seat(s.player), bet, s.player))
                if gain or exact != "0":
                    money.append(
                        Money(MoneyKind.PAYOUT, HOUSE, seat(s.player), gain, s.player, exact)
                    )
            s.stack += bet + gain
            result = self._result(s, outcome, gain, exact, bet + gain)
            events.append(Event(outcome, Visibility.PUBLIC, s.player, result, tuple(money)))
        events.append(
            Event(
                "round_settled",
                Visibility.PUBLIC,
                None,
                {
                    "round": self.round,
                    "bank": {
                        "cards": [c.code for c in self.bank_cards],
                        "values": list(self.bank_values),
                        "total": bank_total,
                        "bust": bank_total > 21,
                        "blackjack": bank_bj,
                    },
                    "results": list(self.results),
                    "house_net": -sum(int(r["net"]) for r in self.results),
                },
            )
        )
        self._finish_round(events)

    def _finish_round(self, events: list[Event]) -> None:
        self._reveal_seed(events)
        self._phase = Phase.BETWEEN_ROUNDS

    def _reveal_seed(self, events: list[Event]) -> None:
        if self.shoe is None or self.seed_revealed:
            return
        self.seed_revealed = True
        events.append(reveal_event(self.shoe.seed, self.shoe.spec))

    # --- closing and the automatic steps

    def _close(self, action: Action) -> list[Event]:
        if action.player is not None and action.player != self.host:
            raise _illegal("not_host")
        events: list[Event] = []
        if self._phase in (Phase.BETTING, Phase.PLAYING):
            refunds: list[dict[str, Any]] = []
            for s in self.seats:
                if s.in_pot:
                    amount, s.in_pot = s.in_pot, 0
                    s.stack += amount
                    refunds.append({"player": s.player, "amount": amount})
                    events.append(
                        Event(
                            "refund",
                            Visibility.PUBLIC,
                            s.player,
                            {"amount": amount},
                            (Money(MoneyKind.REFUND, POT, seat(s.player), amount, s.player),),
                        )
                    )
            events.append(
                Event(
                    "round_cancelled",
                    Visibility.PUBLIC,
                    None,
                    {"round": self.round, "refunds": refunds},
                )
            )
        self._reveal_seed(events)
        for s in list(self.seats):
            self._settle_seat(s, "close", events)
        self._phase = Phase.FINISHED
        events.append(
            Event(
                "table_closed",
                Visibility.PUBLIC,
                None,
                {"by": "host" if action.player is not None else "system"},
            )
        )
        return events

    def _advance(self, events: list[Event]) -> None:
        while self._phase is not Phase.FINISHED:
            if not self.seats and self.ever_seated:
                self._reveal_seed(events)
                self._phase = Phase.FINISHED
                events.append(Event("table_closed", Visibility.PUBLIC, None, {"by": "empty"}))
                return
            if any(s.pending for s in self.seats):
                return
            if self._phase is Phase.BETTING and all(
                s.status is not Status.IDLE for s in self.seats
            ):
                self._end_turn("auto", events)
                continue
            if self._phase is Phase.PLAYING and all(
                s.moved for s in self.seats if s.status is Status.PLAYING
            ):
                self._end_turn("auto", events)
                continue
            return

    # ----------------------------------------------------------------- views

    def _seat_view(self, s: _Seat) -> dict[str, Any]:
        forfeit, keep = self._leave_terms(s)
        return {
            "player": s.player,
            "stack": s.stack,
            "bet": s.bet,
            "in_pot": s.in_pot,
            "status": s.status.value,
            "cards": [c.code for c in s.cards],
            "values": list(s.values),
            "total": s.known_total,
            "pending_ace": s.pending,
            "moved": s.moved,
            "blackjack": s.blackjack,
            "welcome": s.welcome,
            "own": s.own,
            "wagered": self.wagered.get(s.player, 0),
            "wager_left": max(0, self.options.wager_requirement - self.wagered.get(s.player, 0)),
            "leave_forfeit": forfeit,
            "leave_keep": keep,
        }

    def public_view(self) -> dict[str, Any]:
        if self.bank_revealed:
            bank_cards: list[str | None] = [c.code for c in self.bank_cards]
            bank_values: list[int | None] = list(self.bank_values)
        else:
            bank_cards = [c.code for c in self.bank_cards[:1]] + [None] * len(self.bank_cards[1:])
            bank_values = list(self.bank_values[:1]) + [None] * len(self.bank_values[1:])
        return {
            "game": self.GAME,
            "phase": self._phase.value,
            "host": self.host,
            "round": self.round,
            "turn": self.turn,
            "options": self.options.to_dict(),
            "deadline": None if self.deadline is None else self.deadline.kind.value,
            "to_act": self.to_act,
            "commitment": None if self.shoe is None else self.shoe.commitment,
            "cards_left": self.cards_left,
            "max_draw": self.max_draw(),
            "pot": self.pot,
            "seats": [self._seat_view(s) for s in self.seats],
            "bank": {
                "cards": bank_cards,
                "values": bank_values,
                "total": sum(v for v in bank_values if v is not None),
                "revealed": self.bank_revealed,
                "blackjack": self.bank_blackjack if self.bank_revealed else None,
            },
            "results": list(self.results),
        }

    def private_view(self, player: int) -> dict[str, Any]:
        view = self.public_view()
        view["you"] = player
        view["legal_actions"] = sorted(k.value for k in self.legal_actions(player))
        return view

    # ----------------------------------------------------------------- snapshots

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.GAME,
            "options": self.options.to_dict(),
            "host": self.host,
            "phase": self._phase.value,
            "seats": [s.to_dict() for s in self.seats],
            "welcomed": sorted(self.welcomed),
            "wagered": {str(k): v for k, v in self.wagered.items()},
            "ever_seated": self.ever_seated,
            "round": self.round,
            "turn": self.turn,
            "shuffles": self.shuffles,
            "shoe": None if self.shoe is None else self.shoe.to_dict(),
            "rig": None if self.rig is None else [c.code for c in self.rig],
            "rig_next": None if self.rig_next is None else [c.code for c in self.rig_next],
            "seed_revealed": self.seed_revealed,
            "bank_cards": [c.code for c in self.bank_cards],
            "bank_values": list(self.bank_values),
            "bank_revealed": self.bank_revealed,
            "results": [dict(r) for r in self.results],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], *, entropy: Entropy = secure_entropy) -> Self:
        game = cls(
            int(data["host"]), Casino21Options.from_mapping(data["options"]), entropy=entropy
        )
        game._phase = Phase(data["phase"])
        game.seats = [_Seat.from_dict(s) for s in data["seats"]]
        game.welcomed = {int(p) for p in data["welcomed"]}
        game.wagered = {int(k): int(v) for k, v in data["wagered"].items()}
        game.ever_seated = bool(data["ever_seated"])
        game.round = int(data["round"])
        game.turn = int(data["turn"])
        game.shuffles = int(data["shuffles"])
        game.shoe = None if data["shoe"] is None else Shoe.from_dict(dict(data["shoe"]))
        game.rig = None if data["rig"] is None else [Card.parse(c) for c in data["rig"]]
        game.rig_next = (
            None if data["rig_next"] is None else [Card.parse(c) for c in data["rig_next"]]
        )
        game._order = game._rigged_order()
        game.seed_revealed = bool(data["seed_revealed"])
        game.bank_cards = [Card.parse(c) for c in data["bank_cards"]]
        game.bank_values = [int(v) for v in data["bank_values"]]
        game.bank_revealed = bool(data["bank_revealed"])
        game.results = [dict(r) for r in data["results"]]
        return game


def settle_outcome(total: int, blackjack: bool, bank_total: int, bank_blackjack: bool) -> str:
    """Outcome of a hand that did not bust: 'win', 'bank_bust', 'push' or 'lose'."""
    if bank_blackjack:
        return "push" if blackjack else "lose"
    if bank_total > 21:
        return "bank_bust"
    if blackjack or total > bank_total:
        return "win"
    return "push" if total == bank_total else "lose"
