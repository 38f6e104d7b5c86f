"""The Casino 21 simulator against figures enumerated exactly over a 52-card deck."""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from functools import cache

import pytest

from bot.engine.sim import main
from bot.engine.sim.casino21 import simulate

# --------------------------------------------------------------------------- exact figures
# A fresh 52-card deck every round. Cards by value: ace (1) .. 9, then the 16 ten-values.
# The seat's cards and the bank's come from the same deck; since each side's draws depend
# on its own cards only, enumerating the seat's whole hand first and then the bank's from
# what is left gives the same chances as the real order of the deal.
FULL: tuple[int, ...] = (4,) * 9 + (16,)
BUST = 22


def valued(v: int, total: int) -> int:
    """A card's value on a hand worth ``total``: an ace is 11 unless that busts (the
    seat's choice in the simulator, and the bank's rule)."""
    return 11 if v == 1 and total + 11 <= 21 else v


def draws(counts: tuple[int, ...]) -> Iterator[tuple[float, int, tuple[int, ...]]]:
    """Each value that can come next: its chance, the value, the counts left."""
    n = sum(counts)
    for i, c in enumerate(counts):
        if c:
            yield c / n, i + 1, (*counts[:i], c - 1, *counts[i + 1 :])


Hand = tuple[float, int, bool, int, tuple[int, ...]]  # chance, total, blackjack, cards, left


def seat_hands(threshold: int) -> list[Hand]:
    """Every final hand of a seat playing ``threshold:T`` from a full deck."""
    out: list[Hand] = []
    for p1, v1, left1 in draws(FULL):
        for p2, v2, left2 in draws(left1):
            first = valued(v1, 1 if v2 == 1 else v2)  # the other ace, unvalued, counts 1
            total = first + valued(v2, first)
            blackjack = {v1, v2} == {1, 10}
            _hit(out, p1 * p2, total, blackjack, 2, left2, threshold)
    return out


def _hit(
    out: list[Hand], p: float, total: int, bj: bool, n: int, left: tuple[int, ...], t: int
) -> None:
    if total > 21 or total >= t or total == 21:  # 21 stands by itself
        out.append((p, min(total, BUST), bj, n, left))
        return
    for q, v, rest in draws(left):
        _hit(out, p * q, total + valued(v, total), bj, n + 1, rest, t)


@cache
def bank_draws(left: tuple[int, ...], total: int) -> dict[int, float]:
    """The bank's final total from ``total``: it draws at 16 or less."""
    if total > 16:
        return {min(total, BUST): 1.0}
    dist: dict[int, float] = {}
    for q, v, rest in draws(left):
        for final, p in bank_draws(rest, total + valued(v, total)).items():
            dist[final] = dist.get(final, 0.0) + q * p
    return dist


@cache
def bank(left: tuple[int, ...]) -> dict[int | str, float]:
    """The bank's outcome from ``left``: "bj" or its final total (22 = bust)."""
    dist: dict[int | str, float] = {}
    for p1, v1, left1 in draws(left):
        first = valued(v1, 0)
        for p2, v2, left2 in draws(left1):
            second = valued(v2, first)
            if first + second == 21:
                dist["bj"] = dist.get("bj", 0.0) + p1 * p2
                continue
            for final, p in bank_draws(left2, first + second).items():
                dist[final] = dist.get(final, 0.0) + p1 * p2 * p
    return dist


def net(total: int, bj: bool, bank_out: int | str, bet: int, bonus: int) -> int:
    """RULES.md section 2, settlement, for one hand."""
    if total == BUST:
        return -bet
    if bank_out == "bj":
        return 0 if bj else -bet
    if bank_out == BUST:
        return bonus
    assert isinstance(bank_out, int)
    if bj or total > bank_out:
        return bet // 2
    return 0 if total == bank_out else -bet


def seat_figures(threshold: int) -> dict[str, float]:
    hands = seat_hands(threshold)
    return {
        "bust": sum(p for p, total, _, _, _ in hands if total == BUST),
        "blackjack": sum(p for p, _, bj, _, _ in hands if bj),
        "cards": sum(p * n for p, _, _, n, _ in hands),
    }


def player_ev(threshold: int, bet: int = 10, bonus: int = 5) -> float:
    ev = 0.0
    for p, total, bj, _, left in seat_hands(threshold):
        ev += p * sum(q * net(total, bj, out, bet, bonus) for out, q in bank(left).items())
    return ev / bet


def se(p: float, n: int) -> float:
    return math.sqrt(p * (1 - p) / n)


def close(estimate: float, exact: float, stderr: float, k: float = 4) -> bool:
    return abs(estimate - exact) <= k * stderr


# --------------------------------------------------------------------------- tests


def test_rates_match_the_enumeration() -> None:
    """The bank's figures do not depend on the seats (each seat stops on its own cards):
    two seats give twice the hands for the seat's figures."""
    n = 3000
    out = simulate(rounds=n, seed="exact", threshold=17, players=2)
    hands = out["hands"]
    assert hands == 2 * n
    full = bank(FULL)
    assert close(out["bank_bust_rate"], full[BUST], se(full[BUST], n))
    assert close(out["bank_blackjack_rate"], full["bj"], se(full["bj"], n))
    seat = seat_figures(17)
    assert close(out["player_bust_rate"], seat["bust"], se(seat["bust"], hands))
    assert close(out["blackjack_rate"], seat["blackjack"], se(seat["blackjack"], hands))
    # a hand holds 2 to 8 cards: a standard deviation below 1.5
    assert close(out["cards_per_player_hand"], seat["cards"], 1.5 / math.sqrt(hands))
    assert out["outcomes"]["bust"] == out["player_bust_rate"]


def test_ev_of_never_drawing_matches_the_enumeration() -> None:
    out = simulate(rounds=4000, seed="exact", threshold=0)
    exact = player_ev(0)
    assert -0.37 < exact < -0.35
    assert out["cards_per_player_hand"] == 2
    assert close(out["player_ev"], exact, out["player_ev_stderr"])


@pytest.mark.slow
def test_ev_of_threshold_17_matches_the_enumeration() -> None:
    out = simulate(rounds=200_000, seed="ev", threshold=17)
    assert out["player_ev_stderr"] < 0.002
    assert close(out["player_ev"], player_ev(17), out["player_ev_stderr"])
    full = bank(FULL)
    assert close(out["bank_bust_rate"], full[BUST], se(full[BUST], 200_000))


def test_bank_bust_bonus_and_bet_reach_the_engine() -> None:
    """With a bet of 20 a fixed bonus of 5 pays less than "half" (10) on a bank bust."""
    fixed = simulate(rounds=300, seed="b", bet=20, options={"bank_bust_bonus": 5})
    half = simulate(rounds=300, seed="b", bet=20, options={"bank_bust_bonus": "half"})
    busts = round(fixed["bank_bust_rate"] * 300)
    paid = fixed["outcomes"]["bank_bust"] * fixed["hands"]
    assert busts > 50 and half["options"]["bank_bust_bonus"] == "half"
    assert math.isclose((half["player_ev"] - fixed["player_ev"]) * 20 * 300, 5 * paid)


def test_cli(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["casino21", "--rounds", "200", "--strategy", "threshold:15", "--players", "3"]
    assert main([*argv, "--decks", "2", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    for key in ("player_ev", "player_ev_stderr", "bank_bust_rate", "blackjack_rate"):
        assert 0 <= abs(out[key]) < 1, key
    assert out["rounds_per_second"] > 0 and out["strategy"] == "threshold:15"
    assert out["hands"] == 600 and out["options"]["decks"] == 2
    assert main(argv) == 0
    assert "bank busts" in capsys.readouterr().out
    for bad in (["--players", "9"], ["--strategy", "stand-at:3"], ["--decks", "9"]):
        with pytest.raises(SystemExit):
            main(["casino21", "--rounds", "10", *bad])
