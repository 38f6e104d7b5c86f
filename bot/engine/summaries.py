"""Typed summaries of a round (its ``round_settled`` data) and of a game's end (its
``game_over`` data), as the views and the renderers read them.

The events and the snapshots keep their mappings (the format of what is stored does not
change); a game reads one of them into these frozen dataclasses with
:meth:`TableGame.round_summary` (cached per summary by :meth:`TableGame.summary_of`) and
the functions below. Defaults stand for keys a summary of an older snapshot may lack.
The values are the engine's own (ints, bools, strings: JSON keeps them), taken as they
are: a Black Jack summary is read in ~30,000 instructions, once a round.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

#: a summary or one of its rows as its event carries it
Row = Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class NetRow:
    """What a player won (or lost, negative) in a round."""

    player: int
    net: int


@dataclass(frozen=True, slots=True)
class RoundSummary:
    """A settled round: its number, and each player's net (``nets``); a game subclasses it."""

    round: int

    @property
    def nets(self) -> tuple[NetRow, ...]:
        """Each player's net for the round, in the summary's order (a game's own)."""
        return ()

    def net_of(self, player: int) -> int | None:
        """``player``'s net for the round (None: not in it)."""
        nets = [r.net for r in self.nets if r.player == player]
        return sum(nets) if nets else None


def net_rows(rows: Iterable[Any]) -> tuple[NetRow, ...]:
    """The rows with a player and a net (a game's results or nets), as :class:`NetRow`."""
    return tuple([NetRow(r["player"], r["net"]) for r in rows if "player" in r and "net" in r])


@dataclass(frozen=True, slots=True)
class NetSummary(RoundSummary):
    """The summary of a game without one of its own: the round and the nets it lists."""

    nets: tuple[NetRow, ...]  # the base's property, stored


def round_summary(data: Row, current: int) -> NetSummary:
    """Any game's summary: the round (``current`` when it does not say) and the nets."""
    rows = data.get("net") or data.get("results") or []
    return NetSummary(int(data.get("round", current)), net_rows(rows))


def _ints(values: Iterable[Any]) -> tuple[int, ...]:
    return tuple([int(v) for v in values])


def _strs(values: Iterable[Any]) -> tuple[str, ...]:
    return tuple([str(v) for v in values])


# ====================================================================== Black Jack


@dataclass(frozen=True, slots=True)
class BlackjackHandResult:
    """A settled Black Jack hand as the summary shows it; ``exact_net`` when the net was
    rounded (blackjack pay, half a surrendered bet)."""

    player: int
    hand: int
    cards: tuple[str, ...]
    total: int
    result: str | None
    net: int
    exact_net: str | None


@dataclass(frozen=True, slots=True)
class BlackjackRound(RoundSummary):
    """A Black Jack round: the dealer's hand, every hand's result, the insurance results."""

    dealer: tuple[str, ...]
    dealer_total: int | None
    dealer_blackjack: bool
    dealer_bust: bool
    hands: tuple[BlackjackHandResult, ...]
    insurance: tuple[NetRow, ...]

    @property
    def nets(self) -> tuple[NetRow, ...]:
        """Each player's hands and insurance, summed (the summary's ``net`` rows)."""
        totals: dict[int, int] = {}
        for hand in self.hands:
            totals[hand.player] = totals.get(hand.player, 0) + hand.net
        for row in self.insurance:
            totals[row.player] = totals.get(row.player, 0) + row.net
        return tuple([NetRow(p, n) for p, n in totals.items()])


def _bj_hand(r: Row) -> BlackjackHandResult:
    get = r.get
    return BlackjackHandResult(
        r["player"],
        get("hand", 0),
        tuple(r["cards"]),
        r["total"],
        get("result") or None,
        get("net", 0),
        get("exact_net"),
    )


def blackjack_round(data: Row) -> BlackjackRound:
    """A Black Jack ``round_settled`` summary, typed."""
    get = data.get
    return BlackjackRound(
        data["round"],
        tuple(get("dealer", ())),
        get("dealer_total"),
        bool(get("dealer_blackjack")),
        bool(get("dealer_bust")),
        tuple([_bj_hand(r) for r in get("hands", ())]),
        net_rows(get("insurance", ())),
    )


# ====================================================================== Casino 21


@dataclass(frozen=True, slots=True)
class CasinoResult:
    """One seat's outcome at Casino 21: its hand, bet, what came back; ``gain_exact`` is
    the gain unrounded."""

    player: int
    bet: int
    outcome: str
    cards: tuple[str, ...]
    values: tuple[int | None, ...]
    total: int
    blackjack: bool
    gain: int
    gain_exact: str | None
    returned: int
    net: int


@dataclass(frozen=True, slots=True)
class CasinoBankResult:
    """The bank's hand at the end of a Casino 21 round."""

    cards: tuple[str, ...]
    values: tuple[int, ...]
    total: int
    bust: bool
    blackjack: bool


@dataclass(frozen=True, slots=True)
class CasinoRound(RoundSummary):
    """A Casino 21 round: the bank's hand, each seat's result, the house's net."""

    bank: CasinoBankResult
    results: tuple[CasinoResult, ...]
    house_net: int

    @property
    def nets(self) -> tuple[NetRow, ...]:
        """Each seat's net."""
        return tuple([NetRow(r.player, r.net) for r in self.results])


def casino_result(r: Row) -> CasinoResult:
    """One Casino 21 result row (an outcome event's data), typed."""
    values = r.get("values", [])
    return CasinoResult(
        player=int(r["player"]),
        bet=int(r.get("bet", 0)),
        outcome=str(r["outcome"]),
        cards=_strs(r.get("cards", [])),
        values=tuple([None if v is None else int(v) for v in values]),
        total=int(r.get("total", 0)),
        blackjack=bool(r.get("blackjack")),
        gain=int(r.get("gain", 0)),
        gain_exact=r.get("gain_exact"),
        returned=int(r.get("returned", 0)),
        net=int(r["net"]),
    )


def casino_round(data: Row) -> CasinoRound:
    """A Casino 21 ``round_settled`` summary, typed."""
    bank = data.get("bank") or {}
    results = tuple([casino_result(r) for r in data.get("results", [])])
    return CasinoRound(
        round=int(data["round"]),
        bank=CasinoBankResult(
            cards=_strs(bank.get("cards") or []),
            values=_ints(bank.get("values") or []),
            total=int(bank.get("total") or 0),
            bust=bool(bank.get("bust")),
            blackjack=bool(bank.get("blackjack")),
        ),
        results=results,
        house_net=int(data.get("house_net", 0)),
    )


# ====================================================================== Pirate 21


@dataclass(frozen=True, slots=True)
class PirateHand:
    """A hand turned up at a Pirate 21 showdown."""

    player: int
    hidden: tuple[str, ...]
    extra: tuple[str, ...]
    total: int
    bust: bool
    blackjack: bool


@dataclass(frozen=True, slots=True)
class PiratePayout:
    """Coins a player took from the pot."""

    player: int
    coins: int


@dataclass(frozen=True, slots=True)
class PirateRound(RoundSummary):
    """A Pirate 21 round: the outcome, who won what, the pot, treasure and everyone's
    coins (player, coins) in seat order; the showdown's hands in the view's last round
    only (the event does not repeat them)."""

    outcome: str | None
    void: bool
    winners: tuple[int, ...]
    payouts: tuple[PiratePayout, ...]
    pot: int
    treasure: int
    coins: tuple[tuple[int, int], ...]
    hands: tuple[PirateHand, ...]


@dataclass(frozen=True, slots=True)
class PirateRank:
    """A player's place in the final Pirate 21 ranking."""

    player: int
    coins: int
    rank: int


@dataclass(frozen=True, slots=True)
class PirateGameOver:
    """The end of a Pirate 21 game (its ``game_over`` data)."""

    reason: str | None
    ranking: tuple[PirateRank, ...]
    winners: tuple[int, ...]
    pot: int
    treasure: int


def _pirate_hand(h: Row) -> PirateHand:
    return PirateHand(
        player=int(h["player"]),
        hidden=_strs(h.get("hidden", [])),
        extra=_strs(h.get("extra", [])),
        total=int(h["total"]),
        bust=bool(h.get("bust")),
        blackjack=bool(h.get("blackjack")),
    )


def pirate_round(data: Row) -> PirateRound:
    """A Pirate 21 ``round_settled`` summary (or the view's last round), typed."""
    payouts = [p for p in data.get("payouts", []) if isinstance(p, Mapping)]
    coins = data.get("coins") or {}
    return PirateRound(
        round=int(data.get("round", 0)),
        outcome=data.get("outcome"),
        void=bool(data.get("void")),
        winners=_ints(data.get("winners", [])),
        payouts=tuple([PiratePayout(int(p["player"]), int(p["coins"])) for p in payouts]),
        pot=int(data.get("pot", 0)),
        treasure=int(data.get("treasure", 0)),
        coins=tuple([(int(p), int(n)) for p, n in coins.items()]),
        hands=tuple([_pirate_hand(h) for h in data.get("hands", [])]),
    )


def pirate_ranking(rows: Iterable[Row]) -> tuple[PirateRank, ...]:
    """A Pirate 21 ranking, typed."""
    return tuple([PirateRank(int(r["player"]), int(r["coins"]), int(r["rank"])) for r in rows])


def pirate_game_over(data: Row) -> PirateGameOver:
    """A Pirate 21 ``game_over`` event's data, typed."""
    return PirateGameOver(
        reason=data.get("reason"),
        ranking=pirate_ranking(data.get("ranking") or []),
        winners=_ints(data.get("winners", [])),
        pot=int(data.get("pot", 0)),
        treasure=int(data.get("treasure", 0)),
    )


# ====================================================================== Sept et demi


@dataclass(frozen=True, slots=True)
class SeptResult:
    """A player's result in a Sept et demi round: the rule that settled it, the net, who
    paid a win (the banker, the fund pro rata: ``exact_fund_share`` unrounded), what
    stayed unpaid; ``cards``: a bust's hand, shown when it went over."""

    player: int
    rule: str
    outcome: str
    bet: int
    total: int | None
    net: int
    owed: int
    paid_by_bank: int
    paid_by_fund: int
    shortfall: int
    exact_fund_share: str | None
    cards: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class SeptRound(RoundSummary):
    """A Sept et demi round: the banker and the bank's hand, each result, the fund."""

    banker: int | None
    bank_cards: tuple[str, ...]
    bank_total: int
    results: tuple[SeptResult, ...]
    fund_paid: int
    shortfall: int
    fund_left: int
    banker_net: int

    @property
    def nets(self) -> tuple[NetRow, ...]:
        """Each player's net (the banker's is ``banker_net``)."""
        return tuple([NetRow(r.player, r.net) for r in self.results])


@dataclass(frozen=True, slots=True)
class SeptRank:
    """A player's place in the final Sept et demi ranking, with their stack."""

    rank: int
    player: int
    stack: int


@dataclass(frozen=True, slots=True)
class SeptGameOver:
    """The end of a Sept et demi game (its ``game_over`` data)."""

    reason: str
    ranking: tuple[SeptRank, ...]
    winners: tuple[int, ...]
    rounds_played: int


def _sept_result(r: Row) -> SeptResult:
    total = r.get("total")
    return SeptResult(
        player=int(r["player"]),
        rule=str(r["rule"]),
        outcome=str(r.get("outcome", "")),
        bet=int(r.get("bet", 0)),
        total=None if total is None else int(total),
        net=int(r["net"]),
        owed=int(r.get("owed", 0)),
        paid_by_bank=int(r.get("paid_by_bank", 0)),
        paid_by_fund=int(r.get("paid_by_fund", 0)),
        shortfall=int(r.get("shortfall", 0)),
        exact_fund_share=r.get("exact_fund_share") or None,
        cards=_strs(r.get("cards") or []),
    )


def sept_round(data: Row) -> SeptRound:
    """A Sept et demi ``round_settled`` summary, typed."""
    results = tuple([_sept_result(r) for r in data.get("results", [])])
    banker = data.get("banker")
    return SeptRound(
        round=int(data["round"]),
        banker=None if banker is None else int(banker),
        bank_cards=_strs(data.get("bank_cards", [])),
        bank_total=int(data.get("bank_total", 0)),
        results=results,
        fund_paid=int(data.get("fund_paid", 0)),
        shortfall=int(data.get("shortfall", 0)),
        fund_left=int(data.get("fund_left", 0)),
        banker_net=int(data.get("banker_net", 0)),
    )


def sept_game_over(data: Row) -> SeptGameOver:
    """A Sept et demi ``game_over`` event's data (or the game's result), typed."""
    ranking = data.get("ranking", [])
    return SeptGameOver(
        reason=str(data.get("reason", "closed")),
        ranking=tuple(
            [SeptRank(int(r["rank"]), int(r["player"]), int(r["stack"])) for r in ranking]
        ),
        winners=_ints(data.get("winners", [])),
        rounds_played=int(data.get("rounds_played", 0)),
    )


# ====================================================================== every game


@dataclass(frozen=True, slots=True)
class Departure:
    """A seat emptied (a ``left`` event's data): why (leave, close, empty_stack...), the
    stack that waits at the bank (``keep``), the welcome stake given back (``forfeit``)."""

    reason: str | None
    keep: int
    forfeit: int


def departure(data: Row) -> Departure:
    """A ``left`` event's data, typed."""
    reason = data.get("reason")
    keep, forfeit = int(data.get("keep", 0)), int(data.get("forfeit", 0))
    return Departure(None if reason is None else str(reason), keep, forfeit)


@dataclass(frozen=True, slots=True)
class Reveal:
    """A retired deck's seed (a ``seed_revealed`` event's data): with its commitment, deck
    spec, and for a deck mixed with client seeds its shoe number and those (user, seed)."""

    seed: str
    commitment: str
    spec: str
    number: int | None
    clients: tuple[tuple[int, str], ...]


def reveal(data: Row) -> Reveal:
    """A ``seed_revealed`` event's data, typed."""
    number = data.get("number")
    clients = tuple([(int(p), str(s)) for p, s in data.get("clients") or []])
    shoe = None if number is None else int(number)
    return Reveal(str(data["seed"]), str(data["commitment"]), str(data["spec"]), shoe, clients)
