"""Pirate 21 (``pirate21``): players race for gold coins with hidden cards; no house.

Rules: RULES.md section 3 (source seeds/000_c78f1a3258b84c31.txt). Coins are game points,
not money: this engine emits no :class:`~bot.engine.base.Money` effect and has no stacks.

Flow
- LOBBY: the host is seated when the table opens; others JOIN (2-8 players); the host
  STARTs. The dealer (option ``dealer``, default the host) is fixed for the whole game and
  moves last: the seat order is the join order rotated so that the player after the dealer
  starts.
- PLAYING: each round a coin goes into the pot (standard) or every player antes one coin
  (variant "shared"), each player gets two PRIVATE cards, then players HIT (public card) or
  STAND in seat order. A HIT that goes over 21 has exactly the public events of any other
  HIT (the total and the bust are in the PRIVATE ``hand`` event only) and keeps the turn:
  the player ends it by standing (or the timer stands for them), and may even ask again,
  since nobody can tell. The bust is only revealed at the showdown. After the last player
  the showdown is resolved and the next round starts at once (same ``apply`` call), or
  the game ends.
- FINISHED: ``ranking`` lists every player with their coins; equal coins share a rank.

Choices where the rules are silent (documented for the lead and ``/rules``)
- Dealing: one card to each player in seat order, then a second card to each.
- The next round starts automatically right after a showdown (no host action needed).
- Ties at 21 with a short treasure: winners are paid in seat order from the dealer's left,
  each winner in full before the next, until pot and treasure are empty.
- Variant "shared": the treasure (option ``treasure``) is divided equally at the start and
  what cannot be divided goes into the first pot (10 coins, 3 players: 3 each, pot 1);
  ``coins_per_player``, when set, gives each player that many instead (nothing in the
  pot). A treasure smaller than the number of players cannot start. Ties at 21 split the
  pot evenly with no BlackJack bonus; coins in the pot are held by nobody. A player with
  no coin at the start of a round is out, except that when nobody has a coin left (every
  coin sits in a void pot) the players of the last round play again for the pot without
  ante. When exactly one player still has coins, that player collects the pot and the
  game ends: they hold every coin.
- Variant "shared": as soon as the pile gives its last card (in a deal or on a HIT) the
  played cards of the finished rounds are shuffled into a new pile (a PUBLIC ``shuffle``
  event), so it is public before anyone decides to draw from it. Its seed is the spare
  committed when the previous pile was shuffled, so it was fixed before the hidden cards
  of the round were dealt. With no played card yet, players can only stand that round and
  the next deal reshuffles first. A retired pile's seed is revealed only at the next
  showdown (or the end), never while cards it dealt are still hidden.
- Standard game: one pile for the whole game; its seed is revealed when the game ends.
- CLOSE ends the game at once: an unfinished round is abandoned (its pot is left unclaimed,
  its hidden cards are not shown) and the ranking uses the coins held.
- LEAVE is possible in the lobby only (not for the host, who CLOSEs instead).

Provable fairness: every pile follows ``shuffled(build_deck(spec), seed)`` where ``spec``
is the table's deck (``pirate54``, or ``pirate:N/P/F`` for custom counts); a reshuffled pile
keeps only the played cards, in the order they take in that shuffled deck. So
``verify(seed, commitment, spec)`` (``python -m bot verify``) reprints the order of every
pile. The public ``shuffle`` event carries the commitment and the spec (and, in the shared
variant, ``next_commitment``: the spare's); ``seed_revealed`` events carry seed, commitment
and spec. The game's end reveals every seed whose commitment was shown, the spare's too.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Self

from ..base import (
    ROUND_SETTLED,
    Action,
    ActionKind,
    Event,
    IllegalAction,
    Phase,
    Visibility,
    reveal_event,
)
from ..cards import Card, pirate_deck, pirate_spec
from ..hands import bj_total, is_blackjack
from ..legacy import Game
from ..options import OptionError, OptionKind, OptionSpec, check_values
from ..shuffle import Entropy, commitment, secure_entropy, shuffled

GAME = "pirate21"
MIN_PLAYERS = 2
MAX_PLAYERS = 8

#: Stable IllegalAction codes (the UI translates them); values are English fallbacks.
ERRORS: dict[str, str] = {
    "unknown_action": "Pirate 21 has no such action.",
    "not_in_lobby": "The game has already started.",
    "not_playing": "No round is being played.",
    "game_over": "The game is over.",
    "already_seated": "You are already at this table.",
    "not_seated": "You are not at this table.",
    "table_full": "The table is full (8 players).",
    "no_buy_in": "Pirate 21 is played for gold coins: no buy-in.",
    "host_cannot_leave": "The host cannot leave; close the table instead.",
    "not_host": "Only the host can do this.",
    "not_enough_players": "At least 2 players are needed.",
    "treasure_too_small": "The shared treasure cannot give one coin to every player.",
    "dealer_not_seated": "The chosen dealer is not at the table.",
    "deck_too_small": "The deck cannot deal two cards to every player.",
    "not_your_turn": "It is not your turn.",
    "pile_empty": "The pile is empty: you can only stand.",
    "system_only": "Only the table's timer can do this.",
}

#: Why a game ended (``game_over`` event ``reason``).
END_REASONS: tuple[str, ...] = (
    "treasure_empty",  # standard: treasure and pot are empty
    "pile_empty",  # standard: the pile ran out (during the last round)
    "pile_short",  # the pile cannot give two cards to every player
    "one_player_left",  # shared: one player holds every coin
    "closed",  # the table was closed
)

DEFAULT_DECK: dict[str, int] = {"numbers": 36, "pirates": 14, "flags": 4}
_DECK_MAX: dict[str, int] = {"numbers": 360, "pirates": 140, "flags": 40}
DECK_MIN_SIZE = 4
VARIANTS = ("standard", "shared")


def _int_or_none(value: object) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().isascii() and value.strip().isdigit():
        return int(value.strip())
    return None


def _deck_error(code: str, **params: object) -> OptionError:
    return OptionError(code, None, option="deck", **params)


def parse_deck(value: object) -> dict[str, int]:
    """Validate the ``deck`` option: None, ``"pirate54"``, ``"36/14/4"`` (numbers/pirates/
    flags, the form people type), ``"numbers=36,pirates=14,flags=4"`` (missing keys keep
    their default) or a dict with those keys (the stored form). Raises
    :class:`~bot.engine.options.OptionError`."""
    counts = dict(DEFAULT_DECK)
    if value is None:
        return counts
    raw: dict[str, object]
    if isinstance(value, Mapping):
        raw = {str(k): v for k, v in value.items()}
    elif isinstance(value, str):
        text = value.strip().lower()
        if text in ("", "pirate54", "standard", "default"):
            return counts
        if "=" in text:
            raw = {}
            for part in text.split(","):
                key, sep, val = part.partition("=")
                if not sep:
                    raise _deck_error("bad_deck", value=value)
                raw[key.strip()] = val.strip()
        else:
            parts = text.split("/")
            if len(parts) != 3:
                raise _deck_error("bad_deck", value=value)
            raw = dict(zip(("numbers", "pirates", "flags"), parts, strict=True))
    else:
        raise _deck_error("bad_deck", value=repr(value))
    for name, count in raw.items():
        if name not in DEFAULT_DECK:
            raise _deck_error("bad_deck_key", key=name)
        n = _int_or_none(count)
        if n is None or not 0 <= n <= _DECK_MAX[name]:
            raise _deck_error(
                "bad_deck_count", kind=name, value=str(count), min=0, max=_DECK_MAX[name]
            )
        counts[name] = n
    size = sum(counts.values())
    if size < DECK_MIN_SIZE:
        raise _deck_error("deck_too_small", size=size, min=DECK_MIN_SIZE)
    return counts


def deck_text(counts: Mapping[str, int]) -> str:
    """The deck counts as typed: ``36/14/4`` (numbers/pirates/flags)."""
    return "/".join(str(counts[k]) for k in ("numbers", "pirates", "flags"))


_MENTION = re.compile(r"<@!?([0-9]+)>|([0-9]+)", re.ASCII)


def parse_dealer(value: object) -> int:
    """The ``dealer`` option: a player id, as a number, digits or a mention ``<@id>``."""
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return value
    found = _MENTION.fullmatch(value.strip()) if isinstance(value, str) else None
    if found is None:
        raise OptionError("option_bad_value", _DEALER, value=str(value))
    return int(found[1] or found[2])


def build_pirate_deck(counts: Mapping[str, int]) -> list[Card]:
    """The unshuffled deck for these counts: exactly ``pirate54()`` for the default counts,
    else numbers, Pirates and Flags each cycled over their cards in a fixed order."""
    return pirate_deck(counts["numbers"], counts["pirates"], counts["flags"])


@dataclass(frozen=True, slots=True)
class Pirate21Options:
    """Table options with defaults (RULES.md section 3), typed."""

    variant: str = "standard"
    treasure: int = 10
    coins_per_player: int | None = None  # None: the shared treasure is divided
    dealer: int | None = None
    deck: tuple[tuple[str, int], ...] = tuple(DEFAULT_DECK.items())

    @classmethod
    def from_mapping(cls, options: Mapping[str, Any] | None) -> Pirate21Options:
        """Validate typed options (``deck`` as counts or as typed); raises
        :class:`InvalidOptions` on the first problem."""
        values = check_values(OPTIONS, options or {})
        values["deck"] = tuple(parse_deck(values["deck"]).items())
        return cls(**values)

    @property
    def deck_counts(self) -> dict[str, int]:
        """The deck counts as a dict."""
        return dict(self.deck)

    def to_dict(self) -> dict[str, Any]:
        """JSON-able form (what ``/rules`` shows); ``from_mapping`` accepts it back."""
        return {
            "variant": self.variant,
            "treasure": self.treasure,
            "coins_per_player": self.coins_per_player,
            "dealer": self.dealer,
            "deck": self.deck_counts,
        }


_DEFAULTS = Pirate21Options()
_DEALER = OptionSpec(
    "dealer",
    OptionKind.FORM,
    None,
    "the player who deals, fixed for the game (none: the host)",
    "le joueur qui donne, pour toute la partie (none : l'hôte)",
    none=True,
    form=parse_dealer,
    show=lambda pid: f"<@{pid}>",
    examples=("none",),
    allowed_en="a player (a mention or an id)",
    allowed_fr="un joueur (mention ou identifiant)",
)
#: The options of a Pirate 21 table (RULES.md section 3): ``/table open``, ``/rules``.
OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec(
        "variant",
        OptionKind.CHOICE,
        _DEFAULTS.variant,
        "standard, or shared: the treasure is divided among the players",
        "standard, ou shared : le trésor est partagé entre les joueurs",
        choices=VARIANTS,
    ),
    OptionSpec(
        "treasure",
        OptionKind.INT,
        _DEFAULTS.treasure,
        "gold coins in the treasure",
        "pièces d'or du trésor",
        min=1,
        max=1000,
    ),
    OptionSpec(
        "coins_per_player",
        OptionKind.INT,
        _DEFAULTS.coins_per_player,
        "shared variant: coins given to each player instead of dividing the treasure",
        "variante partagée : pièces données à chaque joueur au lieu de diviser le trésor",
        min=1,
        max=1000,
        none=_DEFAULTS.coins_per_player is None,
    ),
    _DEALER,
    OptionSpec(
        "deck",
        OptionKind.FORM,
        DEFAULT_DECK,
        "the cards: numbers/pirates/flags",
        "les cartes : nombres/pirates/drapeaux",
        form=parse_deck,
        show=deck_text,
        examples=("36/14/4", "18/7/2", "72/28/8"),
        allowed_en="numbers/pirates/flags counts, e.g. `36/14/4`",
        allowed_fr="les nombres de cartes nombres/pirates/drapeaux, par ex. `36/14/4`",
    ),
)


def _codes(cards: Sequence[Card]) -> list[str]:
    return [c.code for c in cards]


def _cards(codes: Sequence[str]) -> list[Card]:
    return [Card.parse(c) for c in codes]


def _keep_only(order: list[Card], played: list[Card]) -> list[Card]:
    """The cards of ``played`` in the order they take in ``order`` (a shuffled whole deck);
    cards ``order`` lacks (only a rigged test pile has them) follow in played order."""
    want = Counter(played)
    kept: list[Card] = []
    for card in order:
        if want[card] > 0:
            want[card] -= 1
            kept.append(card)
    for card in played:
        if want[card] > 0:
            want[card] -= 1
            kept.append(card)
    return kept


def _pub(kind: str, about: int | None = None, /, **data: Any) -> Event:
    return Event(kind, Visibility.PUBLIC, about, data)


def _priv(kind: str, to: int, /, **data: Any) -> Event:
    return Event(kind, Visibility.PRIVATE, to, data)


class Pirate21(Game):
    """A Pirate 21 table. ``Pirate21(host, options)``; the host is seated at once."""

    GAME: ClassVar[str] = GAME
    MONEY: ClassVar[bool] = False

    def __init__(
        self,
        host: int,
        options: Mapping[str, Any] | None = None,
        *,
        entropy: Entropy = secure_entropy,
    ) -> None:
        super().__init__(entropy=entropy)
        self.options = Pirate21Options.from_mapping(options)
        self.host = host
        self.players: list[int] = [host]  # join order
        self._phase = Phase.LOBBY
        self.dealer: int | None = None
        self.order: list[int] = []  # seat order from the dealer's left; dealer last
        self.coins: dict[int, int] = {host: 0}
        self.out: set[int] = set()  # shared variant: eliminated players
        self.treasure = 0
        self.pot = 0
        self.round = 0
        self.in_round: list[int] = []  # players dealt in this (or the last) round
        self.hidden: dict[int, list[Card]] = {}
        self.extra: dict[int, list[Card]] = {}
        self.turn = 0  # index into in_round
        self.pile: list[Card] = []  # current pile order (dealt from index pile_pos)
        self.pile_pos = 0
        self.pile_seed: bytes | None = None
        self.pile_source: list[Card] = []
        self.discard: list[Card] = []  # played cards of finished rounds
        self.pending_reveals: list[bytes] = []  # retired seeds, revealed at the showdown
        # shared variant: the next pile's seed, committed before the pile it replaces runs
        # out (a reshuffle mid-round must not draw its seed once hidden cards are known)
        self.spare: bytes | None = None
        self.shuffles = 0
        self.void_rounds = 0
        self.last_result: dict[str, Any] | None = None
        self.end_reason: str | None = None
        self.ranking: list[dict[str, int]] | None = None
        self._rigged: list[Card] | None = None

    # ------------------------------------------------------------------ test hook

    def rig_pile_for_tests(self, codes: Sequence[str]) -> None:
        """TEST HOOK ONLY — never call it at a real table (it defeats the commitment).

        In the lobby: the first pile will be exactly ``codes`` (in dealing order, any
        length). Later: the cards still to be dealt from the current pile become ``codes``.
        """
        cards = _cards(codes)
        if self._phase is Phase.LOBBY:
            self._rigged = cards
        else:
            self.pile = self.pile[: self.pile_pos] + cards

    # ------------------------------------------------------------------ protocol

    @property
    def phase(self) -> Phase:
        return self._phase

    @property
    def to_act(self) -> int | None:
        if self._phase is Phase.PLAYING and self.turn < len(self.in_round):
            return self.in_round[self.turn]
        return None

    def seated(self) -> list[int]:
        """Seated players in seat order (from the dealer's left once the game started)."""
        return list(self.order or self.players)

    @classmethod
    def create(cls, host: int, options: Mapping[str, Any], entropy: Entropy) -> Self:
        """A new table hosted (and dealt, by default) by ``host``, seated at once."""
        return cls(host, options, entropy=entropy)

    @property
    def shared(self) -> bool:
        """True for the "shared treasure" variant."""
        return self.options.variant == "shared"

    @property
    def pile_remaining(self) -> int:
        """Cards left in the current pile."""
        return len(self.pile) - self.pile_pos

    def _can_draw(self) -> bool:
        return self.pile_remaining > 0 or (self.shared and bool(self.discard))

    def legal_actions(self, player: int | None) -> frozenset[ActionKind]:
        kinds: set[ActionKind] = set()
        if player is None or player == self.host:
            kinds.add(ActionKind.CLOSE)
        if self._phase is Phase.LOBBY:
            if player is None:
                pass
            elif player not in self.players:
                if len(self.players) < MAX_PLAYERS:
                    kinds.add(ActionKind.JOIN)
            elif player == self.host:
                if self._start_problem() is None:
                    kinds.add(ActionKind.START)
            else:
                kinds.add(ActionKind.LEAVE)
        elif self._phase is Phase.PLAYING:
            if player is None:
                kinds.add(ActionKind.TIMEOUT)
            elif player == self.to_act:
                kinds.add(ActionKind.STAND)
                if self._can_draw():
                    kinds.add(ActionKind.HIT)
        return frozenset(kinds)

    def apply(self, action: Action) -> list[Event]:
        handler = self._HANDLERS.get(action.kind)
        if handler is None:
            raise IllegalAction("unknown_action", kind=action.kind.value)
        return handler(self, action)

    # ------------------------------------------------------------------ lobby

    def _join(self, action: Action) -> list[Event]:
        p = action.player
        if p is None:
            raise IllegalAction("not_seated")
        if self._phase is not Phase.LOBBY:
            raise IllegalAction("not_in_lobby")
        if p in self.players:
            raise IllegalAction("already_seated")
        if len(self.players) >= MAX_PLAYERS:
            raise IllegalAction("table_full", max=MAX_PLAYERS)
        if action.amount:
            raise IllegalAction("no_buy_in")
        self.players.append(p)
        self.coins[p] = 0
        return [_pub("joined", p, player=p, seats=len(self.players))]

    def _leave(self, action: Action) -> list[Event]:
        p = action.player
        if p is None or p not in self.players:
            raise IllegalAction("not_seated")
        if self._phase is not Phase.LOBBY:
            raise IllegalAction("not_in_lobby")
        if p == self.host:
            raise IllegalAction("host_cannot_leave")
        self.players.remove(p)
        del self.coins[p]
        return [_pub("left", p, player=p, seats=len(self.players))]

    def _start_problem(self) -> IllegalAction | None:
        if len(self.players) < MIN_PLAYERS:
            return IllegalAction("not_enough_players", min=MIN_PLAYERS)
        dealer = self.options.dealer if self.options.dealer is not None else self.host
        if dealer not in self.players:
            return IllegalAction("dealer_not_seated", dealer=dealer)
        size = (
            len(self._rigged)
            if self._rigged is not None
            else sum(self.options.deck_counts.values())
        )
        if size < 2 * len(self.players):
            return IllegalAction("deck_too_small", size=size, players=len(self.players))
        divided = self.shared and self.options.coins_per_player is None
        if divided and self.options.treasure < len(self.players):
            return IllegalAction(
                "treasure_too_small", treasure=self.options.treasure, players=len(self.players)
            )
        return None

    def _share_out(self) -> None:
        """Shared variant: each player's starting coins; what cannot be divided goes into
        the first pot (RULES.md section 3, "shared treasure")."""
        cpp = self.options.coins_per_player
        if cpp is None:
            cpp, self.pot = divmod(self.options.treasure, len(self.players))
        for p in self.players:
            self.coins[p] = cpp

    def _start(self, action: Action) -> list[Event]:
        if self._phase is not Phase.LOBBY:
            raise IllegalAction("not_in_lobby")
        if action.player != self.host:
            raise IllegalAction("not_host")
        problem = self._start_problem()
        if problem is not None:
            raise problem
        dealer = self.options.dealer if self.options.dealer is not None else self.host
        self.dealer = dealer
        d = self.players.index(dealer)
        self.order = self.players[d + 1 :] + self.players[: d + 1]
        if self.shared:
            self._share_out()
        else:
            self.treasure = self.options.treasure
        self._phase = Phase.PLAYING
        events = [
            _pub(
                "game_started",
                None,
                variant=self.options.variant,
                dealer=dealer,
                order=list(self.order),
                treasure=self.treasure,
                pot=self.pot,
                coins={str(p): self.coins[p] for p in self.order},
            )
        ]
        events += self._new_pile(None)
        events += self._start_round()
        return events

    # ------------------------------------------------------------------ piles

    @property
    def spec(self) -> str:
        """The deck spec every pile is shuffled from (``pirate54``, ``pirate:N/P/F``)."""
        counts = self.options.deck_counts
        return pirate_spec(counts["numbers"], counts["pirates"], counts["flags"])

    def _new_pile(self, played: list[Card] | None) -> list[Event]:
        """A new pile: the whole deck in the order of the next seed, or (a reshuffle) only
        the ``played`` cards, in the order they take in that shuffled deck. Either way
        ``verify(seed, commitment, spec)`` reprints the order the pile follows."""
        seed = self.spare if self.spare is not None else self.entropy(self.shuffles)
        self.shuffles += 1
        self.spare = self.entropy(self.shuffles) if self.shared else None  # pile n: entropy(n)
        self.pile_seed = seed
        self.pile_source = build_pirate_deck(self.options.deck_counts)
        order = shuffled(self.pile_source, seed)
        if self._rigged is not None:  # TEST HOOK (see rig_pile_for_tests)
            self.pile, self._rigged = self._rigged, None
        else:
            self.pile = order if played is None else _keep_only(order, played)
        self.pile_pos = 0
        data: dict[str, Any] = {
            "commitment": commitment(seed),
            "size": len(self.pile),
            "number": self.shuffles,
            "spec": self.spec,
        }
        if self.spare is not None:
            data["next_commitment"] = commitment(self.spare)
        return [_pub("shuffle", None, **data)]

    def _draw(self, events: list[Event]) -> Card:
        """Deal one card; in the shared variant an empty pile is replaced first."""
        if self.pile_remaining == 0:
            # shared variant only, with played cards (see _can_draw): the pile ran out when
            # no played card was left to reshuffle (or in a snapshot of older code)
            assert self.shared and self.discard
            self._reshuffle(events)
        card = self.pile[self.pile_pos]
        self.pile_pos += 1
        return card

    def _refill(self, events: list[Event]) -> None:
        """Shared variant: replace a pile that gave its last card at once, so the new pile
        is committed publicly before anyone decides to draw from it."""
        if self.shared and self.pile_remaining == 0 and self.discard:
            self._reshuffle(events)

    def _reshuffle(self, events: list[Event]) -> None:
        """Shuffle the played cards of the finished rounds into a new pile; the retired
        pile's seed waits for the next showdown (cards it dealt may still be hidden)."""
        if self.pile_seed is not None:
            self.pending_reveals.append(self.pile_seed)
        source, self.discard = self.discard, []
        events += self._new_pile(source)

    def _reveal(self, seeds: list[bytes]) -> list[Event]:
        return [reveal_event(s, self.spec) for s in seeds]

    # ------------------------------------------------------------------ rounds

    def _start_round(self) -> list[Event]:
        events: list[Event] = []
        if self.shared:
            holders = [p for p in self.order if p not in self.out and self.coins[p] > 0]
            if len(holders) == 1:
                winner = holders[0]
                if self.pot:
                    events.append(_pub("pot_collected", winner, player=winner, coins=self.pot))
                    self.coins[winner] += self.pot
                    self.pot = 0
                return events + self._finish("one_player_left")
            if holders:
                for p in self.order:
                    if p not in self.out and self.coins[p] == 0:
                        self.out.add(p)
                        events.append(_pub("eliminated", p, player=p))
                active = holders
                ante = True
            else:  # every coin is in the pot: the last round's players replay for it
                active = [p for p in self.order if p in self.in_round]
                ante = False
            available = self.pile_remaining + len(self.discard)
            if available < 2 * len(active):
                return events + self._finish("pile_short")
            self.round += 1
            if ante:
                for p in active:
                    self.coins[p] -= 1
                self.pot += len(active)
            events.append(
                _pub(
                    "round_started",
                    None,
                    round=self.round,
                    pot=self.pot,
                    ante=1 if ante else 0,
                    players=list(active),
                )
            )
        else:
            if self.treasure == 0 and self.pot == 0:
                return self._finish("treasure_empty")
            if self.pile_remaining < 2 * len(self.order):
                return self._finish("pile_empty" if self.pile_remaining == 0 else "pile_short")
            self.round += 1
            added = 1 if self.treasure > 0 else 0
            self.treasure -= added
            self.pot += added
            active = list(self.order)
            events.append(
                _pub(
                    "round_started",
                    None,
                    round=self.round,
                    pot=self.pot,
                    treasure=self.treasure,
                    added=added,
                    players=list(active),
                )
            )
        self.in_round = active
        self.hidden = {p: [] for p in active}
        self.extra = {p: [] for p in active}
        for _ in range(2):
            for p in active:
                self.hidden[p].append(self._draw(events))
        events.append(_pub("deal", None, players=list(active), hidden=2))
        self._refill(events)
        for p in active:
            hand = self.hidden[p]
            events.append(
                _priv(
                    "cards",
                    p,
                    cards=_codes(hand),
                    total=bj_total(hand).value,
                    blackjack=is_blackjack(hand),
                )
            )
        self.turn = 0
        events.append(_pub("turn", active[0], player=active[0]))
        return events

    def _hand(self, p: int) -> list[Card]:
        return self.hidden[p] + self.extra[p]

    def _check_turn(self, action: Action) -> int:
        if self._phase is Phase.FINISHED:
            raise IllegalAction("game_over")
        if self._phase is not Phase.PLAYING:
            raise IllegalAction("not_playing")
        p = self.to_act
        if action.player is None or action.player != p:
            raise IllegalAction("not_your_turn", to_act=p)
        return p

    def _hit(self, action: Action) -> list[Event]:
        p = self._check_turn(action)
        if not self._can_draw():
            raise IllegalAction("pile_empty")
        events: list[Event] = []
        card = self._draw(events)
        self.extra[p].append(card)
        events.append(_pub("hit", p, player=p, card=card.code))
        hand = self._hand(p)
        total = bj_total(hand).value
        events.append(
            _priv(
                "hand",
                p,
                cards=_codes(self.hidden[p]),
                extra=_codes(self.extra[p]),
                total=total,
                bust=total > 21,
            )
        )
        self._refill(events)
        # A bust changes nothing public and keeps the turn (RULES.md section 3 step 3): the
        # player, told privately, stands like anyone else or keeps asking, as at a real
        # table where nobody knows their hidden cards.
        return events

    def _stand(self, action: Action) -> list[Event]:
        p = self._check_turn(action)
        return self._end_turn(p)

    def _timeout(self, action: Action) -> list[Event]:
        if action.player is not None:
            raise IllegalAction("system_only")
        if self._phase is Phase.FINISHED:
            raise IllegalAction("game_over")
        if self._phase is not Phase.PLAYING:
            raise IllegalAction("not_playing")
        p = self.in_round[self.turn]
        return [_pub("timeout", p, player=p), *self._end_turn(p)]

    def _end_turn(self, p: int) -> list[Event]:
        events = [_pub("stand", p, player=p)]
        self.turn += 1
        if self.turn < len(self.in_round):
            nxt = self.in_round[self.turn]
            events.append(_pub("turn", nxt, player=nxt))
            return events
        events += self._showdown()
        events += self._start_round()
        return events

    # ------------------------------------------------------------------ showdown

    def _showdown(self) -> list[Event]:
        hands: list[dict[str, Any]] = []
        for p in self.in_round:
            hand = self._hand(p)
            total = bj_total(hand).value
            hands.append(
                {
                    "player": p,
                    "hidden": _codes(self.hidden[p]),
                    "extra": _codes(self.extra[p]),
                    "total": total,
                    "bust": total > 21,
                    "blackjack": is_blackjack(hand),
                }
            )
        events = [_pub("showdown", None, round=self.round, hands=hands)]
        alive = [h for h in hands if not h["bust"]]
        payouts: list[tuple[int, int]] = []
        winners: list[int] = []
        if not alive:
            outcome = "all_bust"
        else:
            best = max(int(h["total"]) for h in alive)
            top = [h for h in alive if h["total"] == best]
            winners = [int(h["player"]) for h in top]
            if len(top) == 1:
                outcome = "win"
                if not self.shared and top[0]["blackjack"] and self.pot < 2:
                    add = min(2 - self.pot, self.treasure)
                    self.treasure -= add
                    self.pot += add
                payouts = [(winners[0], self.pot)]
                self.pot = 0
            elif best < 21:
                outcome = "tie"
            elif self.shared:
                outcome = "tie21"
                share = self.pot // len(top)
                payouts = [(w, share) for w in winners]
                self.pot -= share * len(top)
            else:
                outcome = "tie21"
                for h in top:  # seat order from the dealer's left
                    due = 2 if h["blackjack"] else 1
                    from_pot = min(due, self.pot)
                    from_treasure = min(due - from_pot, self.treasure)
                    self.pot -= from_pot
                    self.treasure -= from_treasure
                    payouts.append((int(h["player"]), from_pot + from_treasure))
                self.treasure += self.pot
                self.pot = 0
        for p, n in payouts:
            self.coins[p] += n
        void = outcome in ("all_bust", "tie")
        if void:
            self.void_rounds += 1
        result = {
            "round": self.round,
            "outcome": outcome,
            "void": void,
            "winners": winners,
            "payouts": [{"player": p, "coins": n} for p, n in payouts],
            "pot": self.pot,
            "treasure": self.treasure,
            "coins": {str(p): self.coins[p] for p in self.order},
        }
        events.append(_pub(ROUND_SETTLED, None, **result))
        self.last_result = {"hands": hands, **result}
        for p in self.in_round:
            self.discard += self._hand(p)
        self.hidden = {}
        self.extra = {}
        self.turn = len(self.in_round)
        events += self._reveal(self.pending_reveals)
        self.pending_reveals = []
        return events

    # ------------------------------------------------------------------ end

    def _finish(self, reason: str) -> list[Event]:
        self._phase = Phase.FINISHED
        self.end_reason = reason
        self.turn = len(self.in_round)
        seeds = list(self.pending_reveals)
        # the pile in use and the committed spare: every commitment shown gets its seed
        seeds += [s for s in (self.pile_seed, self.spare) if s is not None]
        self.pending_reveals = []
        self.spare = None
        ranking = []
        for p in self.players:
            ahead = sum(1 for q in self.players if self.coins[q] > self.coins[p])
            ranking.append({"player": p, "coins": self.coins[p], "rank": ahead + 1})
        ranking.sort(key=lambda r: (r["rank"], self.players.index(r["player"])))
        self.ranking = ranking
        events = self._reveal(seeds)
        events.append(
            _pub(
                "game_over",
                None,
                reason=reason,
                ranking=ranking,
                winners=[r["player"] for r in ranking if r["rank"] == 1],
                pot=self.pot,
                treasure=self.treasure,
            )
        )
        return events

    def _close(self, action: Action) -> list[Event]:
        if action.player is not None and action.player != self.host:
            raise IllegalAction("not_host")
        if self._phase is Phase.FINISHED:
            return []
        return self._finish("closed")

    _HANDLERS: ClassVar[dict[ActionKind, Callable[[Pirate21, Action], list[Event]]]] = {
        ActionKind.JOIN: _join,
        ActionKind.LEAVE: _leave,
        ActionKind.START: _start,
        ActionKind.HIT: _hit,
        ActionKind.STAND: _stand,
        ActionKind.TIMEOUT: _timeout,
        ActionKind.CLOSE: _close,
    }

    # ------------------------------------------------------------------ views

    def public_view(self) -> dict[str, Any]:
        playing = self._phase is Phase.PLAYING
        seats = []
        for p in self.order or self.players:
            dealt = playing and p in self.hidden
            seats.append(
                {
                    "player": p,
                    "coins": self.coins[p],
                    "out": p in self.out,
                    "dealer": p == self.dealer,
                    "in_round": dealt,
                    "hidden": len(self.hidden[p]) if dealt else 0,
                    "extra": _codes(self.extra[p]) if dealt else [],
                    "done": dealt and self.in_round.index(p) < self.turn,
                }
            )
        return {
            "game": GAME,
            "variant": self.options.variant,
            "phase": self._phase.value,
            "round": self.round,
            "host": self.host,
            "dealer": self.dealer,
            "players": list(self.players),
            "seats": seats,
            "pot": self.pot,
            "treasure": self.treasure,
            "pile": self.pile_remaining,
            "discard": len(self.discard),
            "to_act": self.to_act,
            "commitment": commitment(self.pile_seed) if self.pile_seed is not None else None,
            "next_commitment": commitment(self.spare) if self.spare is not None else None,
            "last_result": json.loads(json.dumps(self.last_result)),
            "end_reason": self.end_reason,
            "ranking": [dict(r) for r in self.ranking] if self.ranking is not None else None,
            "options": self.options.to_dict(),
        }

    def private_view(self, player: int) -> dict[str, Any]:
        view = self.public_view()
        you: dict[str, Any] | None = None
        if self._phase is Phase.PLAYING and player in self.hidden:
            hand = self._hand(player)
            total = bj_total(hand).value
            you = {
                "player": player,
                "cards": _codes(self.hidden[player]),
                "extra": _codes(self.extra[player]),
                "total": total,
                "bust": total > 21,
                "blackjack": is_blackjack(hand),
            }
        view["you"] = you
        return view

    # ------------------------------------------------------------------ snapshots

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": GAME,
            "version": 1,
            "options": self.options.to_dict(),
            "host": self.host,
            "players": list(self.players),
            "phase": self._phase.value,
            "dealer": self.dealer,
            "order": list(self.order),
            "coins": [[p, n] for p, n in self.coins.items()],
            "out": sorted(self.out),
            "treasure": self.treasure,
            "pot": self.pot,
            "round": self.round,
            "in_round": list(self.in_round),
            "hidden": [[p, _codes(c)] for p, c in self.hidden.items()],
            "extra": [[p, _codes(c)] for p, c in self.extra.items()],
            "turn": self.turn,
            "pile": _codes(self.pile),
            "pile_pos": self.pile_pos,
            "pile_seed": self.pile_seed.hex() if self.pile_seed is not None else None,
            "pile_source": _codes(self.pile_source),
            "discard": _codes(self.discard),
            "pending_reveals": [s.hex() for s in self.pending_reveals],
            "spare": self.spare.hex() if self.spare is not None else None,
            "shuffles": self.shuffles,
            "void_rounds": self.void_rounds,
            "last_result": json.loads(json.dumps(self.last_result)),
            "end_reason": self.end_reason,
            "ranking": [dict(r) for r in self.ranking] if self.ranking is not None else None,
            "rigged": _codes(self._rigged) if self._rigged is not None else None,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], *, entropy: Entropy = secure_entropy) -> Self:
        if data.get("game") != GAME:
            raise ValueError(f"not a {GAME} snapshot")
        game = cls(int(data["host"]), data["options"], entropy=entropy)
        game.players = [int(p) for p in data["players"]]
        game._phase = Phase(data["phase"])
        game.dealer = None if data["dealer"] is None else int(data["dealer"])
        game.order = [int(p) for p in data["order"]]
        game.coins = {int(p): int(n) for p, n in data["coins"]}
        game.out = {int(p) for p in data["out"]}
        game.treasure = int(data["treasure"])
        game.pot = int(data["pot"])
        game.round = int(data["round"])
        game.in_round = [int(p) for p in data["in_round"]]
        game.hidden = {int(p): _cards(c) for p, c in data["hidden"]}
        game.extra = {int(p): _cards(c) for p, c in data["extra"]}
        game.turn = int(data["turn"])
        game.pile = _cards(data["pile"])
        game.pile_pos = int(data["pile_pos"])
        seed = data["pile_seed"]
        game.pile_seed = None if seed is None else bytes.fromhex(seed)
        game.pile_source = _cards(data["pile_source"])
        game.discard = _cards(data["discard"])
        game.pending_reveals = [bytes.fromhex(s) for s in data["pending_reveals"]]
        spare = data.get("spare")
        game.spare = None if spare is None else bytes.fromhex(spare)
        game.shuffles = int(data["shuffles"])
        game.void_rounds = int(data["void_rounds"])
        game.last_result = data["last_result"]
        game.end_reason = data["end_reason"]
        game.ranking = data["ranking"]
        rigged = data.get("rigged")
        game._rigged = None if rigged is None else _cards(rigged)
        return game
