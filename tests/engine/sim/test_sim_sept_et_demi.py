"""The Sept et demi simulator against figures enumerated exactly over the whole deck."""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from fractions import Fraction
from functools import cache

import pytest

from bot.engine.sim import main
from bot.engine.sim.sept_et_demi import simulate

# --------------------------------------------------------------------------- exact figures
# Card values in half-points (7½ = 15), from RULES.md section 4, as (value, cards) pairs.
DECKS: dict[str, tuple[tuple[int, int], ...]] = {
    # ace to 7 at face value, J Q K worth ½
    "40": ((1, 12), (2, 4), (4, 4), (6, 4), (8, 4), (10, 4), (12, 4), (14, 4)),
    # 10 9 8 7 worth ½, J 2, Q 3, K 4, ace 7
    "32": ((1, 16), (4, 4), (6, 4), (8, 4), (14, 4)),
}
SEVEN_AND_HALF = 15
BUST = 16

Counts = tuple[int, ...]


def draws(deck: str, left: Counts) -> Iterator[tuple[Fraction, int, Counts]]:
    """Each value that can come next: its chance, the value, the counts left."""
    n = sum(left)
    for i, c in enumerate(left):
        if c:
            yield Fraction(c, n), DECKS[deck][i][0], (*left[:i], c - 1, *left[i + 1 :])


Hand = tuple[Fraction, int, int, Counts]  # chance, total (16 = bust), cards, counts left


@cache
def punter_hands(deck: str, stand_at: int) -> list[Hand]:
    """Every final hand of a punter drawing while below ``stand_at`` half-points. The
    punter's cards and the bank's come from one deck; each side draws on its own cards
    only, so the punter's whole hand then the bank's gives the chances of the real deal."""
    out: list[Hand] = []

    def play(p: Fraction, total: int, cards: int, left: Counts) -> None:
        if total > SEVEN_AND_HALF or total >= stand_at or not any(left):
            out.append((p, min(total, BUST), cards, left))
            return
        for q, v, rest in draws(deck, left):
            play(p * q, total + v, cards + 1, rest)

    full = tuple(c for _, c in DECKS[deck])
    for p, v, left in draws(deck, full):
        play(p, v, 1, left)
    return out


@cache
def bank(deck: str, left: Counts, bank_at: int, total: int = 0) -> dict[int, Fraction]:
    """The bank's final total (16 = bust): its card turned up, then draws below
    ``bank_at``."""
    if total > SEVEN_AND_HALF or (total and total >= bank_at) or not any(left):
        return {min(total, BUST): Fraction(1)}
    dist: dict[int, Fraction] = {}
    for q, v, rest in draws(deck, left):
        for final, p in bank(deck, rest, bank_at, total + v).items():
            dist[final] = dist.get(final, Fraction(0)) + q * p
    return dist


def multiple(punter: int, bank_total: int) -> int:
    """What the punter wins, in bets (RULES.md section 4, settlement, the first rule)."""
    if punter == BUST:
        return -1
    if bank_total == SEVEN_AND_HALF:
        return -2
    if punter == SEVEN_AND_HALF:
        return 2
    if bank_total == BUST or punter > bank_total:
        return 1
    return -1


def figures(deck: str, stand_at: int, bank_at: int) -> dict[str, Fraction]:
    hands = punter_hands(deck, stand_at)
    ev = Fraction(0)
    for p, total, _, left in hands:
        ev += p * sum(
            (q * multiple(total, b) for b, q in bank(deck, left, bank_at).items()), Fraction(0)
        )
    stood = [(p, left) for p, total, _, left in hands if total != BUST]
    played = sum((p for p, _ in stood), Fraction(0))  # the bank plays: the punter stood
    bank_bust = sum((p * bank(deck, left, bank_at)[BUST] for p, left in stood), Fraction(0))
    bank_seven = sum(
        (p * bank(deck, left, bank_at).get(SEVEN_AND_HALF, Fraction(0)) for p, left in stood),
        Fraction(0),
    )
    return {
        "bank_bust": bank_bust / played,
        "bank_seven": bank_seven / played,
        "ev": ev,
        "bust": sum((p for p, t, _, _ in hands if t == BUST), Fraction(0)),
        "seven": sum((p for p, t, _, _ in hands if t == SEVEN_AND_HALF), Fraction(0)),
        "natural": sum((p for p, t, n, _ in hands if t == SEVEN_AND_HALF and n == 2), Fraction(0)),
        "cards": sum((p * n for p, _, n, _ in hands), Fraction(0)),
    }


def close(estimate: float, exact: Fraction, stderr: float, k: float = 4) -> bool:
    return abs(estimate - float(exact)) <= k * stderr


def se(p: Fraction, n: int) -> float:
    return math.sqrt(float(p) * (1 - float(p)) / n)


def check_rates(out: dict[str, object], exact: dict[str, Fraction]) -> None:
    n = out["hands"]
    assert isinstance(n, int)
    for key, name in (
        ("bust", "player_bust_rate"),
        ("seven", "player_seven_and_half_rate"),
        ("natural", "player_natural_rate"),
    ):
        assert close(out[name], exact[key], se(exact[key], n)), name  # type: ignore[arg-type]
    # a hand holds 1 to 8 cards: a standard deviation below 1
    assert close(out["cards_per_player_hand"], exact["cards"], 1 / math.sqrt(n))  # type: ignore[arg-type]
    assert close(out["player_ev"], exact["ev"], out["player_ev_stderr"])  # type: ignore[arg-type]


# --------------------------------------------------------------------------- tests


def test_forty_cards_three_players_match_the_enumeration() -> None:
    """Three players: the bank turns round and two punters a round; each punter's figures
    are those of one punter alone (the bank draws on its own cards only)."""
    out = simulate(rounds=2000, seed="exact", stand_at=10, bank_at=10, players=3)
    assert out["hands"] == 4000 and out["games"] == 1
    exact = figures("40", 10, 10)
    assert Fraction(0) < exact["natural"] < exact["seven"] < exact["bust"]
    check_rates(out, exact)


def test_thirty_two_cards_match_the_enumeration() -> None:
    out = simulate(rounds=3000, seed="exact", stand_at=11, bank_at=9, options={"deck": "32"})
    exact = figures("32", 11, 9)
    check_rates(out, exact)
    assert out["options"]["deck"] == "32"
    # two players: the bank plays exactly when the one punter stood
    played = round(out["bank_play_rate"] * 3000)
    assert close(out["bank_bust_rate"], exact["bank_bust"], se(exact["bank_bust"], played))
    assert close(
        out["bank_seven_and_half_rate"], exact["bank_seven"], se(exact["bank_seven"], played)
    )


def test_a_natural_needs_two_cards() -> None:
    """A punter standing on any first card (½ or more) holds one card: never a natural."""
    out = simulate(rounds=300, seed="n", stand_at=1, bank_at=10)
    assert out["player_natural_rate"] == 0 and out["cards_per_player_hand"] == 1
    assert out["player_bust_rate"] == 0 and out["player_seven_and_half_rate"] == 0


@pytest.mark.slow
def test_ev_to_a_few_tenths_of_a_percent() -> None:
    out = simulate(rounds=200_000, seed="ev", stand_at=11, bank_at=10, players=2)
    assert out["player_ev_stderr"] < 0.003
    check_rates(out, figures("40", 11, 10))


def test_small_stacks_play_whole_games() -> None:
    """With a buy-in of 20 players are ruined, games end and new ones follow."""
    out = simulate(rounds=600, seed="g", bet=5, players=3, options={"buy_in": 20})
    assert out["games"] > 1 and out["hands"] > 0


def test_cli(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["sept_et_demi", "--rounds", "150", "--deck", "32", "--strategy", "stand-at:5.5"]
    assert main([*argv, "--bank-strategy", "stand-at:4", "--players", "4", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    for key in (
        "player_bust_rate",
        "player_natural_rate",
        "player_seven_and_half_rate",
        "cards_per_player_hand",
        "player_ev",
        "rounds_per_second",
    ):
        assert key in out
    assert out["strategy"] == "stand-at:5.5" and out["bank_strategy"] == "stand-at:4"
    assert out["hands"] == 3 * 150 and out["options"]["deck"] == "32"
    assert main(argv) == 0
    assert "naturals" in capsys.readouterr().out
    for bad in (["--deck", "52"], ["--strategy", "stand-at:5.25"], ["--players", "1"]):
        with pytest.raises(SystemExit):
            main(["sept_et_demi", "--rounds", "10", *bad])
