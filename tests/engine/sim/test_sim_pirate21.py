"""The Pirate 21 simulator against whole games enumerated exactly on small decks."""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from fractions import Fraction
from functools import cache

import pytest

from bot.engine.cards import Rank, build_pirate_deck
from bot.engine.cards import parse_pirate_deck as parse_deck
from bot.engine.sim import main
from bot.engine.sim.pirate21 import simulate

# --------------------------------------------------------------------------- exact figures
# RULES.md section 3, standard game, played out over every order of a small pile. Cards
# are counted by value: a Flag (ace) is 1, numbers their face value, Pirates 10.
VALUES = tuple(range(1, 11))
BUST = 22
Counts = tuple[int, ...]


def pile(deck: str) -> Counts:
    """The cards of the ``deck`` option, counted by value."""
    counts = [0] * 10
    for card in build_pirate_deck(parse_deck(deck)):
        value = 1 if card.rank is Rank.ACE else min(card.rank.pip, 10)
        counts[value - 1] += 1
    return tuple(counts)


def draws(left: Counts) -> Iterator[tuple[Fraction, int, Counts]]:
    n = sum(left)
    for i, c in enumerate(left):
        if c:
            yield Fraction(c, n), VALUES[i], (*left[:i], c - 1, *left[i + 1 :])


def best(cards: tuple[int, ...]) -> int:
    """The best total of 21 or less (a Flag counts 11 when it fits), else 22."""
    hard = sum(cards)
    total = hard + 10 if 1 in cards and hard + 10 <= 21 else hard
    return total if total <= 21 else BUST


Showing = tuple[tuple[int, ...], tuple[bool, ...], Counts]  # totals, blackjacks, pile left


@cache
def deals(left: Counts, seats: int, stand_at: int) -> dict[Showing, Fraction]:
    """Every way a round can be dealt and played, in the real order (two cards to each seat
    in turn, then each seat asks for cards while below ``stand_at`` and the pile lasts),
    by what the showdown sees."""
    out: dict[Showing, Fraction] = {}

    def deal(p: Fraction, hands: list[tuple[int, ...]], k: int, left: Counts) -> None:
        if k == 2 * seats:
            play(p, hands, 0, left)
            return
        for q, v, rest in draws(left):
            hands2 = list(hands)
            hands2[k % seats] += (v,)
            deal(p * q, hands2, k + 1, rest)

    def play(p: Fraction, hands: list[tuple[int, ...]], seat: int, left: Counts) -> None:
        if seat == seats:
            totals = tuple(best(h) for h in hands)
            blackjacks = tuple(len(h) == 2 and best(h) == 21 for h in hands)
            key = (totals, blackjacks, left)
            out[key] = out.get(key, Fraction(0)) + p
        elif best(hands[seat]) < stand_at and any(left):
            for q, v, rest in draws(left):
                hands2 = list(hands)
                hands2[seat] += (v,)
                play(p * q, hands2, seat, rest)
        else:
            play(p, hands, seat + 1, left)

    deal(Fraction(1), [() for _ in range(seats)], 0, left)
    return out


OUTCOMES = ("win", "tie", "tie21", "all_bust")


def showdown(
    totals: tuple[int, ...],
    blackjack: tuple[bool, ...],
    treasure: int,
    pot: int,
    coins: tuple[int, ...],
) -> tuple[int, int, tuple[int, ...], str]:
    """RULES.md section 3, step 4: (treasure, pot, coins, outcome) after the showdown."""
    alive = [t for t in totals if t != BUST]
    if not alive:
        return treasure, pot, coins, "all_bust"
    top = [s for s, t in enumerate(totals) if t == max(alive)]
    new = list(coins)
    if len(top) == 1:
        if blackjack[top[0]] and pot < 2:
            add = min(2 - pot, treasure)
            treasure, pot = treasure - add, pot + add
        new[top[0]] += pot
        return treasure, 0, tuple(new), "win"
    if max(alive) < 21:
        return treasure, pot, coins, "tie"
    for s in top:  # in seat order from the dealer's left
        due = 2 if blackjack[s] else 1
        from_pot = min(due, pot)
        from_treasure = min(due - from_pot, treasure)
        pot, treasure = pot - from_pot, treasure - from_treasure
        new[s] += from_pot + from_treasure
    return treasure + pot, 0, tuple(new), "tie21"


#: Expected rounds, rounds of each outcome (as OUTCOMES), win share of each seat.
Expect = tuple[Fraction, tuple[Fraction, ...], tuple[Fraction, ...]]


@cache
def game(left: Counts, treasure: int, pot: int, coins: tuple[int, ...], stand_at: int) -> Expect:
    """The expected rounds, rounds of each outcome and win share of each seat from here."""
    seats = len(coins)
    if (treasure == 0 and pot == 0) or sum(left) < 2 * seats:
        most = max(coins)
        winners = [s for s in range(seats) if coins[s] == most]
        nobody = (Fraction(0),) * len(OUTCOMES)
        won = tuple(
            Fraction(1, len(winners)) if s in winners else Fraction(0) for s in range(seats)
        )
        return Fraction(0), nobody, won
    if treasure:
        treasure, pot = treasure - 1, pot + 1
    rounds = Fraction(1)
    outcomes = [Fraction(0)] * len(OUTCOMES)
    shares = [Fraction(0)] * seats
    for (totals, blackjacks, rest), p in deals(left, seats, stand_at).items():
        t, pt, c, outcome = showdown(totals, blackjacks, treasure, pot, coins)
        r, o, s = game(rest, t, pt, c, stand_at)
        rounds += p * r
        won = [b + (k == outcome) for b, k in zip(o, OUTCOMES, strict=True)]
        outcomes = [a + p * b for a, b in zip(outcomes, won, strict=True)]
        shares = [a + p * b for a, b in zip(shares, s, strict=True)]
    return rounds, tuple(outcomes), tuple(shares)


def exact(deck: str, players: int, treasure: int, stand_at: int) -> Expect:
    return game(pile(deck), treasure, 0, (0,) * players, stand_at)


def close(estimate: float, exact: Fraction, stderr: float, k: float = 4) -> bool:
    return abs(estimate - float(exact)) <= k * stderr


def check(out: dict[str, object], figures: Expect, most_rounds: int) -> None:
    rounds, outcomes, shares = figures
    games = out["games"]
    assert isinstance(games, int)
    for seat, share in enumerate(shares):  # a seat's share of a game is 0, 1/k or 1
        won = out["win_share_per_seat"][seat]  # type: ignore[index]
        assert close(won, share, math.sqrt(float(share * (1 - share)) / games)), seat
    # rounds in a game lie between 1 and most_rounds: a standard deviation below half that
    spread = (most_rounds - 1) / 2 / math.sqrt(games)
    assert close(out["rounds_per_game"], rounds, spread)  # type: ignore[arg-type]
    # by round, and up to most_rounds rounds of a game move together
    rounds_played = out["rounds"]
    assert isinstance(rounds_played, int)
    by_outcome = dict(zip(OUTCOMES, outcomes, strict=True))
    void = by_outcome["tie"] + by_outcome["all_bust"]
    for name, count in [*by_outcome.items(), ("void", void)]:
        share = count / rounds
        error = math.sqrt(float(share * (1 - share)) / rounds_played) * most_rounds
        rate = out["void_round_rate"] if name == "void" else out["outcomes"][name]  # type: ignore[index]
        assert close(rate, share, error), name


# --------------------------------------------------------------------------- tests


def test_two_players_match_the_enumeration() -> None:
    """9 cards (2-6, two Pirates, two Flags), treasure 2: one or two rounds a game."""
    figures = exact("5/2/2", 2, 2, 15)
    rounds, outcomes, shares = figures
    assert sum(shares) == 1 and 1 < rounds < 2 and sum(outcomes) == rounds
    assert outcomes[OUTCOMES.index("tie")] > 0 and outcomes[OUTCOMES.index("tie21")] > 0
    out = simulate(
        rounds=4000, seed="exact", stand_at=15, players=2, options={"deck": "5/2/2", "treasure": 2}
    )
    assert out["rounds"] >= 4000
    check(out, figures, most_rounds=2)


def test_three_players_and_the_dealer_last() -> None:
    """7 cards for 3 players: one round, the pile nearly empty when the dealer plays."""
    figures = exact("4/2/1", 3, 1, 17)
    out = simulate(
        rounds=4000, seed="exact", stand_at=17, players=3, options={"deck": "4/2/1", "treasure": 1}
    )
    check(out, figures, most_rounds=1)
    assert out["rounds_per_game"] == 1


@pytest.mark.slow
def test_two_players_on_eleven_cards_to_a_few_tenths_of_a_percent() -> None:
    """11 cards (2-7, three Pirates, two Flags)."""
    figures = exact("6/3/2", 2, 2, 15)
    out = simulate(
        rounds=300_000, seed="big", stand_at=15, players=2, options={"deck": "6/3/2", "treasure": 2}
    )
    check(out, figures, most_rounds=2)


def test_full_games_and_the_shared_variant_run() -> None:
    out = simulate(rounds=300, seed="full", players=4)
    assert out["rounds"] >= 300 and math.isclose(sum(out["win_share_per_seat"]), 1)
    assert 0 < out["void_round_rate"] < 1 and out["rounds_per_game"] > 1
    assert set(out["end_reasons"]) <= {"treasure_empty", "pile_empty", "pile_short"}
    shared = simulate(rounds=300, seed="full", players=3, options={"variant": "shared"})
    assert shared["options"]["variant"] == "shared" and shared["games"] >= 1
    assert set(shared["end_reasons"]) <= {"one_player_left", "pile_short"}


def test_cli(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["pirate21", "--rounds", "100", "--players", "3", "--strategy", "stand-at:16"]
    assert main([*argv, "--treasure", "5", "--deck", "36/14/4", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    for key in ("win_share_per_seat", "void_round_rate", "rounds_per_game", "rounds_per_second"):
        assert key in out
    assert len(out["win_share_per_seat"]) == 3 and out["strategy"] == "stand-at:16"
    assert out["options"]["treasure"] == 5
    assert main(argv) == 0
    assert "win share per seat" in capsys.readouterr().out
    bad_options = (["--variant", "x"], ["--deck", "1/1/1"], ["--treasure", "0"])
    too_small = ["--deck", "2/1/1", "--players", "3"]  # 4 cards cannot deal 2 to 3 players
    for bad in (["--players", "1"], *bad_options, too_small):
        with pytest.raises(SystemExit):
            main(["pirate21", "--rounds", "10", *bad])
