"""A table's float: the house's money on the table, the cage's chip tray.

A house-banked table draws its float from the treasury when it opens (one ``fund_open``
entry, a "fill"), and every payout from the house, every loss to it and every bet's cover
of that table are the float's, never the treasury's: a settlement writes the float and
the players' accounts only. Between rounds (a move that starts a round) a float below one
round's worst case is refilled to its target, and what it holds goes back to the treasury
when the table closes (one ``fund_close`` entry, a "credit"). The float is the bank
account of kind ``house`` with the table's id (the treasury is ``house`` with table 0).

Its size: :data:`FLOAT_ROUNDS` rounds of one seat's worst case at the maximum bet
(``TableGame.round_worst_case``), plus what the house commits once
(``TableGame.house_commitment``: Sept et demi's guarantee fund, the welcome stakes of a
full Casino 21 table). Four rounds: a table of the default
Black Jack options (max_bet 500, four hands) holds 16,000, so the default treasury
(1,000,000) opens about sixty of them; a table whose float runs low refuses the bets it
cannot cover (before any card) until the next round's refill.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.engine.base import TableGame

FLOAT_ROUNDS = 4


@dataclass(frozen=True, slots=True)
class FloatTerms:
    """What a table's float holds when full (``target``) and below what it is refilled
    (``low``)."""

    target: int
    low: int


def float_terms(game: TableGame) -> FloatTerms:  # type: ignore[type-arg]
    """The float a game's options call for."""
    per_round = game.round_worst_case()
    return FloatTerms(FLOAT_ROUNDS * per_round + game.house_commitment(), per_round)


def most_covered(game: TableGame, player: int, available: int, top: int) -> int:  # type: ignore[type-arg]
    """The largest bet of ``player`` up to ``top`` whose worst case, with this round's other
    bets, fits in ``available`` (0 if none): what a bet refused for the float may still be."""
    low, high = 0, top
    bets = dict(game.bets)
    while low < high:  # the exposure grows with the bet
        mid = (low + high + 1) // 2
        if game.house_exposure({**bets, player: mid}) <= available:
            low = mid
        else:
            high = mid - 1
    return low
