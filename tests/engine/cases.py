"""What each game of the registry brings to the tests run on every game (``test_legal.py``,
``test_every_game.py``, ``test_seats.py``): how it seats players, how its moves are picked
in random play, the options varied from game to game, the refusal codes it must list and
the options it refuses. Only data and small functions per game: the checks are written
once. A game added to ``GAMES`` fails ``test_every_game_has_its_case`` until it has its
entry in ``CASES``."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from bot.engine.base import Action, ActionKind, Event, Phase
from bot.engine.phases import ROUND_PHASES
from bot.engine.registry import AnyGame

K = ActionKind

#: A move picked by a random play: the action and whether the game must accept it (a
#: move whose parameters are drawn at random may be refused), or None when play stops.
Move = tuple[Action, bool] | None


def by_value(kinds: Iterable[ActionKind]) -> list[ActionKind]:
    """Kinds in a fixed order (a frozenset's order follows the members' ids)."""
    return sorted(kinds, key=lambda k: k.value)


@dataclass(frozen=True)
class LegalRun:
    """Random play during which ``legal_actions`` must equal probing every kind."""

    seed: int  # of the random.Random picking options and moves
    games: int  # games played, each from seeded_entropy(f"legal{n}")
    steps: int  # moves at most per game
    people: tuple[int | None, ...]  # who is asked for their legal actions at every step
    min_checked: int  # comparisons made at least, over every game
    options: Callable[[random.Random, int], dict[str, Any]]  # game n's options
    seat: Callable[[AnyGame, int], None]  # players sat down in game n before play
    move: Callable[[random.Random, AnyGame], Move]
    # the action probed for a kind (default: the game's own ``probe``)
    build: Callable[[AnyGame, ActionKind, int | None], Action] | None = None
    plays_out: bool = False  # every game ends (FINISHED) within its steps
    kinds_seen: frozenset[ActionKind] = frozenset()  # legal at least once, somewhere


def cards_of(event: Event) -> list[str]:
    """The card codes an event shows (a shuffle's unshuffled source aside)."""
    if event.kind == "shuffle":
        return []
    one, many = event.data.get("card"), event.data.get("cards")
    return ([one] if isinstance(one, str) else []) + (list(many) if isinstance(many, list) else [])


def shown_in_order(events: Iterable[Event]) -> list[str]:
    """Every card the events show, in the order they first show it (a game dealing one
    card at a time, in the shoe's order)."""
    out: list[str] = []
    for e in events:
        out += [code for code in cards_of(e) if code not in out]
    return out


def timeouts(g: AnyGame, *phases: Phase) -> list[Event]:
    """The timer runs out while the game is in one of ``phases``."""
    events: list[Event] = []
    for _ in range(50):
        if g.phase not in phases:
            return events
        events += g.apply(Action(K.TIMEOUT))
    raise AssertionError(f"the timer never ended {g.phase}")


@dataclass(frozen=True)
class FairRound:
    """An unrigged round from a new table (its host starts it), then the table closed."""

    seat: tuple[Action, ...]  # who sits down first
    play: Callable[[AnyGame], list[Event]]  # the round after START: the events
    order: tuple[str, ...]  # event kinds that come in this order
    cards: int  # cards dealt at least
    spec: str  # the shoe's spec, as ``verify`` takes it
    options: dict[str, Any] = field(default_factory=dict)
    # the cards dealt, in the shoe's order
    dealt: Callable[[list[Event]], list[str]] = shown_in_order


@dataclass(frozen=True)
class GameCase:
    """One game's data for the tests every game runs."""

    legal: LegalRun
    fair: FairRound
    codes: frozenset[str]  # refusal codes its ILLEGAL_CODES must hold
    defaults: dict[str, Any]  # its options' defaults, as stored
    # (options, code, option named): options the game refuses, and how
    bad_options: tuple[tuple[dict[str, Any], str, str], ...] = field(default=())


def join(game: AnyGame, players: Iterable[int], amount: int | None = None) -> None:
    """Seat ``players`` in order, each bringing ``amount``."""
    for p in players:
        game.apply(Action(K.JOIN, p, amount=amount))


def random_move(rng: random.Random, kind: ActionKind, player: int | None) -> Action:
    """An action of ``kind`` by ``player`` with parameters every game may take (a leave
    confirmed, an ace's value, a draw's count, a bet or a buy-in)."""
    amount: int | None = None
    value: int | None = None
    if kind in (K.JOIN, K.TOP_UP):
        amount = rng.choice((0, 20, 50, 200))
    elif kind == K.BET:
        amount = rng.randint(1, 20)
    elif kind == K.DRAW:
        amount = rng.randint(0, 2)
    elif kind == K.CHOOSE_ACE:
        value = rng.choice((1, 11))
    return Action(kind, player, amount=amount, value=value, confirm=True)


# ---------------------------------------------------------------------------- Black Jack


def _blackjack_move(rng: random.Random, g: AnyGame) -> Move:
    moves = [
        (p, k)
        for p in (1, 2, 3)
        for k in by_value(g.legal_actions(p))
        if k not in (K.LEAVE, K.JOIN)
    ]
    if not moves:
        return (Action(K.TIMEOUT), True) if K.TIMEOUT in g.legal_actions(None) else None
    p, k = rng.choice(moves)
    amount = rng.randint(1, 5) if k in (K.BET, K.TOP_UP) else None
    return Action(k, p, amount=amount), False


def _bets(*bets: tuple[int, int]) -> Callable[[AnyGame], list[Event]]:
    """A round: these (player, amount) bets, then the timer ends every turn."""

    def play(g: AnyGame) -> list[Event]:
        events = [e for p, amount in bets for e in g.apply(Action(K.BET, p, amount=amount))]
        return events + timeouts(g, *ROUND_PHASES)

    return play


BLACKJACK = GameCase(
    fair=FairRound(
        seat=(Action(K.JOIN, 1, amount=1000),),
        play=_bets((1, 10)),
        order=("shuffle", "round_started", "card", "hole_card", "hole_revealed"),
        cards=4,
        spec="std52*1",
        options={"decks": 1},  # a card's code names one card
    ),
    legal=LegalRun(
        seed=7,
        games=30,
        steps=120,
        people=(None, 1, 2, 3, 99),
        min_checked=5000,
        options=lambda rng, n: {"decks": 1, "min_bet": 1, "max_bet": 20, "surrender": True},
        seat=lambda g, n: join(g, (1, 2, 3), 50),
        move=_blackjack_move,
        kinds_seen=frozenset(
            {K.JOIN, K.LEAVE, K.TOP_UP, K.START, K.BET, K.SIT_OUT, K.INSURANCE, K.NO_INSURANCE}
            | {K.HIT, K.STAND, K.DOUBLE, K.SPLIT, K.SURRENDER, K.TIMEOUT, K.CLOSE}
        ),
    ),
    codes=frozenset(
        {
            "not_your_turn",
            "wrong_phase",
            "bet_out_of_range",
            "cannot_split",
            "cannot_double",
            "no_insurance_offered",
            "insufficient_stack",
            "not_seated",
            "table_full",
        }
    ),
    defaults={
        "decks": 6,
        "penetration": 0.75,
        "min_bet": 10,
        "max_bet": 500,
        "max_hands": 4,
        "split_aces_one_card": True,
        "double": True,
        "surrender": False,
        "dealer_peeks": True,
        "dealer_hits_soft_17": False,
        "blackjack_pays": "3:2",
    },
    bad_options=(
        ({"decks": 0}, "out_of_range", "decks"),
        ({"decks": 9}, "out_of_range", "decks"),
        ({"decks": 2.0}, "option_bad_value", "decks"),
        ({"penetration": 0.4}, "out_of_range", "penetration"),
        ({"penetration": 0.95}, "out_of_range", "penetration"),
        ({"min_bet": 0}, "out_of_range", "min_bet"),
        ({"min_bet": 50, "max_bet": 20}, "option_below_other", "max_bet"),
        ({"max_hands": 1}, "out_of_range", "max_hands"),
        ({"max_hands": 5}, "out_of_range", "max_hands"),
        ({"blackjack_pays": "2:1"}, "option_bad_value", "blackjack_pays"),
        ({"double": "yes"}, "option_bad_value", "double"),
        ({"colour": "red"}, "unknown_option", "colour"),
    ),
)


# ---------------------------------------------------------------------------- Casino 21

CASINO21_PEOPLE = (None, 1, 2, 3, 4, 99)


def _casino21_probe(g: AnyGame, kind: ActionKind, player: int | None) -> Action:
    """The probe's amount, an ace worth 1, a leave that forfeits confirmed."""
    amount = g.probe(kind, player).amount
    return Action(kind, player, amount=amount, value=1, confirm=True)


def _casino21_move(rng: random.Random, g: AnyGame) -> Move:
    """A legal kind for a random player (the timer sometimes), with random parameters."""
    kinds = {p: by_value(g.legal_actions(p)) for p in CASINO21_PEOPLE}
    moves = [(p, k) for p in CASINO21_PEOPLE for k in kinds[p] if k is not K.CLOSE]
    if not moves:
        return None
    p, k = rng.choice(moves)
    amount = {
        K.BET: rng.randint(1, 30),
        K.DRAW: rng.choice((0, 0, 1, 2, 3)),
        K.TOP_UP: rng.randint(1, 40),
        K.JOIN: rng.choice((0, 0, 10)),
    }.get(k)
    action = Action(k, p, amount=amount, value=rng.choice((1, 11)), confirm=rng.random() < 0.3)
    return action, False


def _casino21_seat(g: AnyGame, n: int) -> None:
    """Own funds only without a welcome stake."""
    join(g, (1, 2, 3), 0 if g.options.to_dict()["welcome_stake"] else 50)


CASINO21 = GameCase(
    fair=FairRound(
        seat=(Action(K.JOIN, 1),),
        play=_bets((1, 10)),
        order=("shuffle", "dealt", "bank_hole", "bank_reveal", "seed_revealed"),
        cards=4,
        spec="std52",
    ),
    legal=LegalRun(
        seed=21,
        games=30,
        steps=150,
        people=CASINO21_PEOPLE,
        min_checked=10000,
        options=lambda rng, n: {
            "welcome_stake": rng.choice((0, 20, 100)),
            "wager_requirement": 30,
        },
        seat=_casino21_seat,
        move=_casino21_move,
        build=_casino21_probe,
        kinds_seen=frozenset(
            {K.JOIN, K.LEAVE, K.TOP_UP, K.START, K.BET, K.SIT_OUT, K.DRAW, K.CHOOSE_ACE}
            | {K.END_TURN, K.TIMEOUT, K.CLOSE}
        ),
    ),
    codes=frozenset(
        {
            "wrong_phase",
            "bet_out_of_range",
            "insufficient_stack",
            "not_seated",
            "table_full",
            "forfeit_needs_confirmation",
            "top_up_too_early",
            "ace_pending",
        }
    ),
    defaults={
        "welcome_stake": 100,
        "wager_requirement": 100,
        "decks": 1,
        "min_bet": 10,
        "max_bet": 100,
        "bank_bust_bonus": 5,
        "max_players": 8,
    },
    bad_options=(
        ({"decks": 0}, "out_of_range", "decks"),
        ({"decks": 9}, "out_of_range", "decks"),
        ({"decks": True}, "option_bad_value", "decks"),
        ({"min_bet": 0}, "out_of_range", "min_bet"),
        ({"min_bet": 10, "max_bet": 5}, "option_below_other", "max_bet"),
        ({"welcome_stake": -1}, "out_of_range", "welcome_stake"),
        ({"wager_requirement": "100"}, "option_bad_value", "wager_requirement"),
        ({"bank_bust_bonus": "double"}, "option_bad_value", "bank_bust_bonus"),
        ({"bank_bust_bonus": -5}, "out_of_range", "bank_bust_bonus"),
        ({"max_players": 9}, "out_of_range", "max_players"),
        ({"colour": "red"}, "unknown_option", "colour"),
    ),
)


# ---------------------------------------------------------------------------- Pirate 21


def _pirate21_seat(g: AnyGame, n: int) -> None:
    """Two to four players; with three or more, one leaves the lobby."""
    join(g, (2, 3, 4)[: 1 + n % 3])
    if len(g.seated()) > 2:
        g.apply(Action(K.LEAVE, 2))


def _pirate21_move(rng: random.Random, g: AnyGame) -> Move:
    """The host starts, the player to act picks any legal move, the timer sometimes."""
    if g.phase is Phase.FINISHED:
        return None
    if g.phase is Phase.LOBBY:
        return Action(K.START, 1), True
    if rng.random() < 0.1:
        return Action(K.TIMEOUT), True
    p = g.to_act
    return Action(rng.choice(sorted(g.legal_actions(p), key=str)), p), True


def _pirate21_bad(options: dict[str, Any], code: str) -> tuple[dict[str, Any], str, str]:
    """A refused option names the (only) option given."""
    return options, code, next(iter(options))


def _pirate21_dealt(events: list[Event]) -> list[str]:
    """Each player's first card in seat order, then each one's second."""
    hands = [e.data["cards"] for e in events if e.kind == "cards"]
    return [h[0] for h in hands] + [h[1] for h in hands]


PIRATE21 = GameCase(
    fair=FairRound(
        seat=(Action(K.JOIN, 2),),
        play=lambda g: [],  # the pile serves the whole game: its seed is revealed at the end
        order=("shuffle", "cards"),
        cards=4,
        spec="pirate54",
        dealt=_pirate21_dealt,
    ),
    legal=LegalRun(
        seed=21,
        games=24,
        steps=200,
        people=(None, 1, 2, 3, 4, 99),
        min_checked=3000,
        options=lambda rng, n: {
            "variant": ("standard", "shared")[n % 2],
            "treasure": 6,
            "deck": "6/3/1",
        },
        seat=_pirate21_seat,
        move=_pirate21_move,
        plays_out=True,
        kinds_seen=frozenset({K.JOIN, K.LEAVE, K.START, K.HIT, K.STAND, K.TIMEOUT, K.CLOSE}),
    ),
    codes=frozenset({"not_your_turn", "pile_empty", "not_host", "table_full"}),
    defaults={
        "variant": "standard",
        "treasure": 10,
        "coins_per_player": None,
        "dealer": None,
        "deck": {"numbers": 36, "pirates": 14, "flags": 4},
    },
    bad_options=tuple(
        _pirate21_bad(options, code)
        for options, code in (
            ({"variant": "pirate"}, "option_bad_value"),
            ({"treasure": 0}, "out_of_range"),
            ({"treasure": True}, "option_bad_value"),
            ({"treasure": "10"}, "option_bad_value"),  # typed values only: text is parsed
            ({"treasure": 1001}, "out_of_range"),
            ({"coins_per_player": 0}, "out_of_range"),
            ({"coins_per_player": 1001}, "out_of_range"),
            ({"coins_per_player": "x"}, "option_bad_value"),
            ({"coins_per_player": False}, "option_bad_value"),
            ({"dealer": "bob"}, "option_bad_value"),
            ({"dealer": -3}, "option_bad_value"),
            ({"colour": "red"}, "unknown_option"),
            ({"deck": "36/14"}, "bad_deck"),
            ({"deck": "numbers:36"}, "bad_deck"),
            ({"deck": 54}, "bad_deck"),
            ({"deck": {"jokers": 2}}, "bad_deck_key"),
            ({"deck": {"numbers": -1}}, "bad_deck_count"),
            ({"deck": "36/x/4"}, "bad_deck_count"),
            ({"deck": "36/١٤/4"}, "bad_deck_count"),  # ASCII digits only
            ({"deck": {"numbers": 361}}, "bad_deck_count"),
            ({"deck": "1/1/1"}, "deck_too_small"),
        )
    ),
)


# ---------------------------------------------------------------------------- Sept et demi

SEPT_PEOPLE = (None, 1, 2, 3, 4, 5)
SEPT_RARE = {K.CLOSE: 0.02, K.LEAVE: 0.1, K.VOTE_STOP: 0.2}  # what ends a game


def _sept_move(rng: random.Random, g: AnyGame) -> Move:
    """Any legal move of anyone, the ones that end a game rarely."""
    moves = [(p, k) for p in SEPT_PEOPLE for k in by_value(g.legal_actions(p))]
    moves = [m for m in moves if rng.random() < SEPT_RARE.get(m[1], 1)]
    if not moves:
        return None
    p, k = rng.choice(moves)
    amount = rng.randint(2, 3) if k is K.BET else None
    return Action(k, p, amount=amount), False


SEPT_ET_DEMI = GameCase(
    fair=FairRound(
        seat=tuple(Action(K.JOIN, p) for p in (1, 2, 3)),
        play=lambda g: timeouts(g, Phase.BETTING),  # each bettor's window expires in turn
        order=("shuffle", "card", "deal", "bank_reveal", "seed_revealed"),
        cards=3,
        spec="sept40",
    ),
    legal=LegalRun(
        seed=11,
        games=40,
        steps=150,
        people=SEPT_PEOPLE,
        min_checked=5000,
        options=lambda rng, n: {
            "deck": "32" if n % 2 else "40",
            "buy_in": 12 if n % 3 else 200,  # small stacks: players out, games over
            "min_bet": 2,
        },
        seat=lambda g, n: join(g, (1, 2, 3, 4)),
        move=_sept_move,
        kinds_seen=frozenset(
            {K.JOIN, K.LEAVE, K.START, K.BET, K.SIT_OUT, K.HIT, K.STAND, K.SHOW}
            | {K.SWAP, K.VOTE_STOP, K.TIMEOUT, K.CLOSE}
        ),
    ),
    codes=frozenset(
        {
            "not_seated",
            "already_seated",
            "bad_buy_in",
            "not_enough_players",
            "table_full",
            "not_host",
            "wrong_phase",
            "unknown_action",
            "banker_cannot_bet",
            "not_your_turn",
            "bet_out_of_range",
            "round_in_progress",
            "system_only",
        }
    ),
    defaults={"deck": "40", "buy_in": 200, "min_bet": 1, "guarantee_fund": 500, "rounds": None},
    bad_options=(
        ({"deck": "52"}, "option_bad_value", "deck"),
        ({"deck": 32}, "option_bad_value", "deck"),  # typed: the choice is a string
        ({"buy_in": 1}, "out_of_range", "buy_in"),
        ({"buy_in": "200"}, "option_bad_value", "buy_in"),
        ({"min_bet": 0}, "out_of_range", "min_bet"),
        ({"min_bet": 150}, "option_below_other", "buy_in"),
        ({"guarantee_fund": -1}, "out_of_range", "guarantee_fund"),
        ({"rounds": 0}, "out_of_range", "rounds"),
        ({"rounds": True}, "option_bad_value", "rounds"),
        ({"colour": "red"}, "unknown_option", "colour"),
    ),
)

CASES: dict[str, GameCase] = {
    "blackjack": BLACKJACK,
    "casino21": CASINO21,
    "pirate21": PIRATE21,
    "sept_et_demi": SEPT_ET_DEMI,
}
