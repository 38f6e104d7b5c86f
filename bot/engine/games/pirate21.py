"""Pirate 21 (``pirate21``): players race for gold coins with hidden cards, no house:
docs/RULES.md section 3.

Coins are game points, not money: the stacks hold coins and no Money effect is ever
emitted. The base seats the players, keeps the pile (its commitment, the spare, the reveal
of every seed), times out and closes; this module deals, plays the turns, settles the
showdown and ranks. Where the rules leave it open (besides docs/RULES.md's "What Croupier
settles"):

- The host is seated when the table opens; the dealer (option ``dealer``, default the
  host) moves last for the whole game: the seat order is the join order rotated to start
  after the dealer. LEAVE: in the lobby only, never the host (who closes the table).
- A HIT over 21 has exactly the public events of any other HIT (the bust is in the
  PRIVATE ``hand`` event only) and keeps the turn. The showdown settles the round and the
  next one starts in the same ``apply``, or the game ends (a ranking where equal coins
  share a rank; then the base empties the seats).
- Shared: a player without coins is out, unless nobody has any: the last round's players
  replay for the pot without ante; the last player with coins collects the pot. A retired
  pile's seed is revealed at the next showdown, never while cards it dealt are hidden.
  With no played card yet, players can only stand.
- CLOSE abandons a round (its pot unclaimed, its cards never shown) and ranks the coins.

Fairness: a reshuffled pile keeps the played cards in the order they take in the spare's
shuffled deck, so ``verify(seed, commitment, spec)`` reprints every pile.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Self

from ..actions import Action, ActionKind
from ..base import Refusal, Seat, TableGame
from ..cards import (
    DEFAULT_PIRATE_DECK,
    Card,
    card_codes,
    parse_cards,
    parse_pirate_deck,
    pirate_deck_spec,
    pirate_deck_text,
)
from ..errors import (
    NOT_ENOUGH_PLAYERS,
    NOT_YOUR_TURN,
    SHARED_CODES,
    UNKNOWN_ACTION,
    WRONG_PHASE,
    refuse,
)
from ..events import ROUND_SETTLED, ROUND_STARTED, TURN, Event, private_event, public_event
from ..hands import bj_total, is_blackjack
from ..options import GameOptions, OptionKind, OptionSpec, check_values, player_option
from ..phases import Phase
from ..shuffle import Entropy
from ..summaries import PirateRound, pirate_ranking, pirate_round
from ..upgrades import pirate21_v1
from ..views import PiratePart, PirateSeatView, PirateYou, SeatView

MIN_PLAYERS = 2
MAX_PLAYERS = 8

# --------------------------------------------------------------------------- options

VARIANTS = ("standard", "shared")

#: The options of a Pirate 21 table (RULES.md section 3): ``/table open``, ``/rules``.
PIRATE21_OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec(
        "variant",
        OptionKind.CHOICE,
        "standard",
        "standard, or shared: the treasure is divided among the players",
        "standard, ou shared : le trésor est partagé entre les joueurs",
        choices=VARIANTS,
    ),
    OptionSpec(
        "treasure",
        OptionKind.INT,
        10,
        "gold coins in the treasure",
        "pièces d'or du trésor",
        min=1,
        max=1000,
    ),
    OptionSpec(
        "coins_per_player",
        OptionKind.INT,
        None,
        "shared variant: coins given to each player instead of dividing the treasure",
        "variante partagée : pièces données à chaque joueur au lieu de diviser le trésor",
        min=1,
        max=1000,
        none=True,
    ),
    player_option(
        "dealer",
        "the player who deals, fixed for the game (none: the host)",
        "le joueur qui donne, pour toute la partie (none : l'hôte)",
    ),
    OptionSpec(
        "deck",
        OptionKind.FORM,
        DEFAULT_PIRATE_DECK,
        "the cards: numbers/pirates/flags",
        "les cartes : nombres/pirates/drapeaux",
        form=parse_pirate_deck,
        show=pirate_deck_text,
        examples=("36/14/4", "18/7/2", "72/28/8"),
        allowed_en="numbers/pirates/flags counts, e.g. `36/14/4`",
        allowed_fr="les nombres de cartes nombres/pirates/drapeaux, par ex. `36/14/4`",
    ),
)


@dataclass(frozen=True, slots=True)
class Pirate21Options(GameOptions):
    """Per-table options of Pirate 21 (RULES.md section 3), typed, with their defaults."""

    SPECS = PIRATE21_OPTIONS

    variant: str = "standard"
    treasure: int = 10
    coins_per_player: int | None = None  # None: the shared treasure is divided
    dealer: int | None = None
    deck: tuple[tuple[str, int], ...] = tuple(DEFAULT_PIRATE_DECK.items())

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Pirate21Options:
        """Validate typed options (``deck`` as counts or as typed); raises
        :class:`~bot.engine.errors.InvalidOptions` on the first problem."""
        values = check_values(cls.SPECS, data, ignore=cls.LEGACY)
        values["deck"] = tuple(values["deck"].items())
        return cls(**values)

    @property
    def deck_counts(self) -> dict[str, int]:
        """The deck counts as a dict."""
        return dict(self.deck)

    @property
    def deck_spec(self) -> str:
        """The deck spec ``verify`` takes (``pirate54``, ``pirate:N/P/F``)."""
        return pirate_deck_spec(self.deck_counts)

    def to_dict(self) -> dict[str, Any]:
        """JSON-able form (what ``/rules`` shows); ``from_dict`` accepts it back."""
        return {**GameOptions.to_dict(self), "deck": self.deck_counts}


#: Every ``IllegalAction.code`` this game raises, for the UI's translations.
ILLEGAL_CODES: frozenset[str] = SHARED_CODES | {
    "no_buy_in",  # JOIN with an amount: coins, not money
    "host_cannot_leave",  # the host closes the table instead
    "dealer_not_seated",  # START: the ``dealer`` option names nobody seated
    "deck_too_small",  # START: not two cards for every player
    "treasure_too_small",  # START: a shared treasure with less than a coin each
    "pile_empty",  # HIT with no card left to draw
}

#: Why a game ended (``game_over`` event ``reason``).
END_REASONS: tuple[str, ...] = (
    "treasure_empty",  # standard: treasure and pot are empty
    "pile_empty",  # standard: the pile ran out (during the last round)
    "pile_short",  # the pile cannot give two cards to every player
    "one_player_left",  # shared: one player holds every coin
    "closed",  # the table was closed
)


_codes, _cards, _pub, _priv = card_codes, parse_cards, public_event, private_event
_K = ActionKind
# Members read on every check, bound once (see base.py).
_LOBBY, _PLAYING = Phase.LOBBY, Phase.PLAYING
_HIT, _STAND, _JOIN = _K.HIT, _K.STAND, _K.JOIN


class Pirate21(TableGame[Seat]):
    """A Pirate 21 table; :meth:`create` seats the host at once."""

    GAME: ClassVar[str] = "pirate21"
    Options = Pirate21Options
    MIN_PLAYERS = MIN_PLAYERS
    MAX_PLAYERS = MAX_PLAYERS
    MONEY = False
    FORMAT = 2
    UPGRADES = (pirate21_v1,)
    JOIN_PHASES = frozenset({_LOBBY})
    BETS = False
    MOVES: ClassVar[Mapping[Phase, tuple[ActionKind, ...]]] = {_PLAYING: (_HIT, _STAND)}
    ILLEGAL_CODES = ILLEGAL_CODES
    options: Pirate21Options

    def init_state(self) -> None:
        self.dealer: int | None = None
        self.treasure = 0  # standard game: coins not yet put in play (the pot is ``pot``)
        self.out: set[int] = set()  # shared variant: eliminated players
        self.dealt: list[int] = []  # players dealt in this (or the last) round
        self.hidden: dict[int, list[Card]] = {}
        self.extra: dict[int, list[Card]] = {}
        self.discard: list[Card] = []  # played cards of the finished rounds
        self.void_rounds = 0
        self.end_reason: str | None = None
        self.ranking: list[dict[str, int]] | None = None

    @classmethod
    def create(cls, host: int, options: Mapping[str, Any], entropy: Entropy) -> Self:
        """A new table hosted (and dealt, by default) by ``host``, seated at once."""
        game = cls(options, host=host, entropy=entropy)
        game.apply(Action(_JOIN, host))
        return game

    # ------------------------------------------------------------------ state

    @property
    def shared(self) -> bool:
        """True for the "shared treasure" variant."""
        return self.options.variant == "shared"

    @property
    def coins(self) -> dict[int, int]:
        """Every player's coins: their stacks, and once the game is over the ranking's."""
        if self.ranking is not None:
            return {r["player"]: r["coins"] for r in self.ranking}
        return {s.player: s.stack for s in self.seats}

    @property
    def players(self) -> list[int]:
        """Every player in join order (the host joined first and never leaves; the seat
        order is a rotation of it); once the game is over, in ranking order."""
        if self.ranking is not None:
            return [r["player"] for r in self.ranking]
        seated = self.seated()
        first = seated.index(self.host) if self.host in seated else 0
        return seated[first:] + seated[:first]

    def _hand(self, p: int) -> list[Card]:
        return self.hidden[p] + self.extra[p]

    def _can_draw(self) -> bool:
        return self.cards_left > 0 or (self.shared and bool(self.discard))

    def _dealer_choice(self) -> int | None:
        return self.options.dealer if self.options.dealer is not None else self.host

    # ------------------------------------------------------------------ hooks: the table

    def deck_spec(self) -> str:
        return self.options.deck_spec

    def uses_spare(self) -> bool:
        return self.shared

    def refuse_join(self, player: int, amount: int | None) -> Refusal:
        return refuse("no_buy_in") if amount else None

    def refuse_leave(self, seat: Seat, action: Action) -> Refusal:
        if self.phase is not _LOBBY:
            return refuse(WRONG_PHASE)
        if seat.player == self.host:
            return refuse("host_cannot_leave")
        return None

    def refuse_start(self, player: int | None) -> Refusal:
        n = len(self.seats)
        if n < MIN_PLAYERS:
            return refuse(NOT_ENOUGH_PLAYERS, min=MIN_PLAYERS)
        dealer = self._dealer_choice()
        if self.seat_of(dealer) is None:
            return refuse("dealer_not_seated", dealer=dealer)
        size = self.cards_left or sum(self.options.deck_counts.values())  # a rigged pile's
        if size < 2 * n:
            return refuse("deck_too_small", size=size, players=n)
        treasure = self.options.treasure
        if self.shared and self.options.coins_per_player is None and treasure < n:
            return refuse("treasure_too_small", treasure=treasure, players=n)
        return None

    def start_game(self, events: list[Event]) -> None:
        """The dealer moves last; the coins are handed out; the pile is shuffled."""
        dealer = self._dealer_choice()
        d = self.seated().index(dealer)  # type: ignore[arg-type]  # checked: seated
        self.dealer = dealer
        self.seats = self.seats[d + 1 :] + self.seats[: d + 1]
        if self.shared:
            cpp = self.options.coins_per_player
            if cpp is None:  # divided; what cannot be goes into the first pot
                cpp, self.pot = divmod(self.options.treasure, len(self.seats))
            for s in self.seats:
                s.stack = cpp
        else:
            self.treasure = self.options.treasure
        self.phase = _PLAYING
        coins = {str(s.player): s.stack for s in self.seats}
        data = {"variant": self.options.variant, "dealer": dealer, "order": self.seated()}
        events.append(
            _pub("game_started", None, **data, treasure=self.treasure, pot=self.pot, coins=coins)
        )
        self.new_shoe(events)

    def start_round(self, events: list[Event]) -> None:
        """The next round, dealt, or the end of the game."""
        active = self._shared_round(events) if self.shared else self._standard_round(events)
        if active is not None:
            self._deal(active, events)

    def refill(self, events: list[Event]) -> None:
        """The shared variant's next pile: the played cards of the finished rounds, in the
        order the spare's seed gives the whole deck; the retired pile's seed waits for the
        next showdown (cards it dealt may still be hidden)."""
        assert self.shared and self.discard  # the standard game ends before its pile does
        self.new_shoe(events, reveal_old=False, keep=self.discard)
        self.discard = []

    def _refill_now(self, events: list[Event]) -> None:
        """Shared variant: a pile that gave its last card is replaced at once, so the new
        pile is committed publicly before anyone decides to draw from it."""
        if self.shared and self.discard and not self.cards_left:
            self.refill(events)

    def on_timeout(self, events: list[Event]) -> None:
        p = self.waiting[0]
        events.append(_pub("timeout", p, player=p))
        self._end_turn(p, events)

    def on_finish(self, reason: str, events: list[Event]) -> None:
        """The ranking by coins (equal coins share a rank, join order within it)."""
        self.end_reason = reason
        coins = self.coins
        players = self.players
        ranking = [
            {"player": p, "coins": coins[p], "rank": 1 + sum(coins[q] > coins[p] for q in players)}
            for p in players
        ]
        ranking.sort(key=lambda r: r["rank"])
        self.ranking = ranking
        winners = [r["player"] for r in ranking if r["rank"] == 1]
        data = {"ranking": ranking, "winners": winners, "pot": self.pot}
        events.append(_pub("game_over", None, reason=reason, **data, treasure=self.treasure))

    # ------------------------------------------------------------------ rounds

    def _standard_round(self, events: list[Event]) -> list[int] | None:
        """A coin from the treasure into the pot, while there is one and the pile lasts."""
        left = self.cards_left
        if self.treasure == 0 and self.pot == 0:
            self.finish(events, "treasure_empty")
            return None
        if left < 2 * len(self.seats):
            self.finish(events, "pile_empty" if left == 0 else "pile_short")
            return None
        self.begin_round()
        added = 1 if self.treasure > 0 else 0
        self.treasure -= added
        self.pot += added
        active = self.seated()
        data = {"treasure": self.treasure, "added": added, "players": list(active)}
        events.append(_pub(ROUND_STARTED, None, round=self.round, pot=self.pot, **data))
        return active

    def _shared_round(self, events: list[Event]) -> list[int] | None:
        """Every player with a coin antes one; a player with none is out, unless nobody
        has one: then the last round's players play again for the pot."""
        holders = [s.player for s in self.seats if s.player not in self.out and s.stack > 0]
        if len(holders) == 1:
            self._collect(holders[0], events)
            self.finish(events, "one_player_left")
            return None
        if holders:
            for s in self.seats:
                if s.player not in self.out and s.stack == 0:
                    self.out.add(s.player)
                    events.append(_pub("eliminated", s.player, player=s.player))
            active = holders
        else:  # every coin is in the pot: the last round's players replay for it
            active = [p for p in self.seated() if p in self.dealt]
        if self.cards_left + len(self.discard) < 2 * len(active):
            self.finish(events, "pile_short")
            return None
        self.begin_round()
        ante = 1 if holders else 0
        for p in active:
            self._seat_of[p].stack -= ante
        self.pot += ante * len(active)
        data = {"ante": ante, "players": list(active)}
        events.append(_pub(ROUND_STARTED, None, round=self.round, pot=self.pot, **data))
        return active

    def _collect(self, winner: int, events: list[Event]) -> None:
        """The last player with coins takes the pot."""
        if self.pot:
            events.append(_pub("pot_collected", winner, player=winner, coins=self.pot))
            self._seat_of[winner].stack += self.pot
            self.pot = 0

    def _deal(self, active: list[int], events: list[Event]) -> None:
        """Two hidden cards each, one at a time in seat order; then the first turn."""
        self.dealt = active
        self.hidden = {p: [] for p in active}
        self.extra = {p: [] for p in active}
        for _ in range(2):
            for p in active:
                self.hidden[p].append(self.draw(events))
        events.append(_pub("deal", None, players=list(active), hidden=2))
        self._refill_now(events)
        for p in active:
            hand = self.hidden[p]
            total = bj_total(hand).value
            events.append(
                _priv("cards", p, cards=_codes(hand), total=total, blackjack=is_blackjack(hand))
            )
        self.wait_for(list(active))
        events.append(_pub(TURN, active[0], player=active[0]))

    # ------------------------------------------------------------------ moves

    def refuse_move(self, action: Action, seat: Seat) -> Refusal:
        kind = action.kind
        if kind is not _HIT and kind is not _STAND:
            return refuse(UNKNOWN_ACTION, kind=kind.value)
        if self.phase is not _PLAYING:
            return refuse(WRONG_PHASE)
        if self.to_act != seat.player:
            return refuse(NOT_YOUR_TURN)
        if kind is _HIT and not self._can_draw():
            return refuse("pile_empty")
        return None

    def play(self, action: Action, seat: Seat, events: list[Event]) -> None:
        p = seat.player
        if action.kind is _STAND:
            self._end_turn(p, events)
            return
        card = self.draw(events)
        self.extra[p].append(card)
        events.append(_pub("hit", p, player=p, card=card.code))
        total = bj_total(self._hand(p)).value
        cards, extra = _codes(self.hidden[p]), _codes(self.extra[p])
        events.append(_priv("hand", p, cards=cards, extra=extra, total=total, bust=total > 21))
        self._refill_now(events)
        # A bust changes nothing public and keeps the turn (RULES.md section 3 step 3): the
        # player, told privately, stands like anyone else or keeps asking, as at a real
        # table where nobody knows their hidden cards.

    def _end_turn(self, p: int, events: list[Event]) -> None:
        events.append(_pub("stand", p, player=p))
        self.waiting.pop(0)
        if self.waiting:
            nxt = self.waiting[0]
            events.append(_pub(TURN, nxt, player=nxt))
            return
        self._showdown(events)
        self.start_round(events)

    # ------------------------------------------------------------------ showdown

    def _shown(self, p: int) -> dict[str, Any]:
        """A hand turned up at the showdown."""
        hand = self._hand(p)
        total = bj_total(hand).value
        return {
            "player": p,
            "hidden": _codes(self.hidden[p]),
            "extra": _codes(self.extra[p]),
            "total": total,
            "bust": total > 21,
            "blackjack": is_blackjack(hand),
        }

    def _showdown(self, events: list[Event]) -> None:
        hands = [self._shown(p) for p in self.dealt]
        events.append(_pub("showdown", None, round=self.round, hands=hands))
        outcome, winners, payouts = self._outcome(hands)
        for p, n in payouts:
            self._seat_of[p].stack += n
        void = outcome in ("all_bust", "tie")
        self.void_rounds += void
        result = {
            "round": self.round,
            "outcome": outcome,
            "void": void,
            "winners": winners,
            "payouts": [{"player": p, "coins": n} for p, n in payouts],
            "pot": self.pot,
            "treasure": self.treasure,
            "coins": {str(s.player): s.stack for s in self.seats},
        }
        events.append(_pub(ROUND_SETTLED, None, **result))
        self.last_summary = {"hands": hands, **result}
        for p in self.dealt:
            self.discard += self._hand(p)
        self.hidden, self.extra = {}, {}
        self.reveal_seeds(events)  # piles retired during the round: their cards are shown

    def _outcome(self, hands: list[dict[str, Any]]) -> tuple[str, list[int], list[tuple[int, int]]]:
        """(outcome, the best hands' players, coins paid to each), the pot paid out."""
        alive = [h for h in hands if not h["bust"]]
        if not alive:
            return "all_bust", [], []
        best = max(int(h["total"]) for h in alive)
        top = [h for h in alive if h["total"] == best]
        winners = [int(h["player"]) for h in top]
        if len(top) == 1:
            if not self.shared and top[0]["blackjack"] and self.pot < 2:
                add = min(2 - self.pot, self.treasure)  # a BlackJack takes 2 coins
                self.treasure -= add
                self.pot += add
            won, self.pot = self.pot, 0
            return "win", winners, [(winners[0], won)]
        if best < 21:
            return "tie", winners, []
        if self.shared:  # split evenly; what cannot be divided stays in play
            share = self.pot // len(top)
            self.pot -= share * len(top)
            return "tie21", winners, [(w, share) for w in winners]
        return "tie21", winners, self._pay_ties([(int(h["player"]), h["blackjack"]) for h in top])

    def _pay_ties(self, tied: list[tuple[int, bool]]) -> list[tuple[int, int]]:
        """Standard ties at 21: 1 coin each (2 for a BlackJack), from the pot then the
        treasure, in seat order, while there are coins; the rest of the pot goes back."""
        payouts = []
        for p, blackjack in tied:
            due = 2 if blackjack else 1
            from_pot = min(due, self.pot)
            from_treasure = min(due - from_pot, self.treasure)
            self.pot -= from_pot
            self.treasure -= from_treasure
            payouts.append((p, from_pot + from_treasure))
        self.treasure += self.pot
        self.pot = 0
        return payouts

    # ------------------------------------------------------------------ views

    def seat_view(self, seat: Seat) -> PirateSeatView:
        p = seat.player
        out, dealer = p in self.out, p == self.dealer
        if self.phase is not _PLAYING or p not in self.hidden:
            return PirateSeatView(p, seat.stack, 0, out, dealer, False, 0, (), False)
        hidden, done = len(self.hidden[p]), p not in self.waiting
        extra = tuple(_codes(self.extra[p]))
        return PirateSeatView(p, seat.stack, 0, out, dealer, True, hidden, extra, done)

    def seat_views(self) -> tuple[SeatView, ...]:
        ranking = self.ranking
        if ranking is not None:  # the seats are emptied at the end: the final coins
            return tuple([self._final_seat(r) for r in ranking])
        return tuple([self.seat_view(s) for s in self.seats])

    def view(self) -> PiratePart:
        ranking = self.ranking
        return PiratePart(
            variant=self.options.variant,
            dealer=self.dealer,
            treasure=self.treasure,
            pile=self.cards_left,
            discard=len(self.discard),
            end_reason=self.end_reason,
            ranking=None if ranking is None else pirate_ranking(ranking),
        )

    def round_summary(self, data: Mapping[str, Any]) -> PirateRound:
        return pirate_round(data)

    def _final_seat(self, row: Mapping[str, int]) -> PirateSeatView:
        p = row["player"]
        return PirateSeatView(
            p, row["coins"], 0, p in self.out, p == self.dealer, False, 0, (), False
        )

    def private_part(self, player: int) -> PirateYou | None:
        if self.phase is not _PLAYING or player not in self.hidden:
            return None
        hand = self._hand(player)
        total = bj_total(hand).value
        return PirateYou(
            cards=tuple(_codes(self.hidden[player])),
            extra=tuple(_codes(self.extra[player])),
            total=total,
            bust=total > 21,
            blackjack=is_blackjack(hand),
        )

    # ------------------------------------------------------------------ snapshots

    def state_dict(self) -> dict[str, Any]:
        return {
            "dealer": self.dealer,
            "treasure": self.treasure,
            "out": sorted(self.out),
            "in_round": list(self.dealt),
            "hidden": [[p, _codes(c)] for p, c in self.hidden.items()],
            "extra": [[p, _codes(c)] for p, c in self.extra.items()],
            "discard": _codes(self.discard),
            "void_rounds": self.void_rounds,
            "end_reason": self.end_reason,
            "ranking": None if self.ranking is None else [dict(r) for r in self.ranking],
        }

    def load_state(self, data: Mapping[str, Any]) -> None:
        self.dealer = None if data["dealer"] is None else int(data["dealer"])
        self.treasure = int(data["treasure"])
        self.out = {int(p) for p in data["out"]}
        self.dealt = [int(p) for p in data["in_round"]]
        self.hidden = {int(p): _cards(c) for p, c in data["hidden"]}
        self.extra = {int(p): _cards(c) for p, c in data["extra"]}
        self.discard = _cards(data["discard"])
        self.void_rounds = int(data["void_rounds"])
        self.end_reason = data["end_reason"]
        self.ranking = data["ranking"]
