"""The engine's refusals: one exception per kind, and the codes every game shares.

A refusal leaves the game unchanged. ``IllegalAction.code`` is a stable key the UI
translates (``illegal.<code>`` in the catalogs); the same refusal has the same code in
every game. A game adds its own codes for its own moves (``cannot_split``...)."""

from __future__ import annotations

from functools import lru_cache

from .refusal import Fallback, Refusal


class IllegalAction(Refusal):
    """An action the rules do not allow now; ``code`` is a stable key the UI translates."""

    FALLBACKS = (("illegal.generic", {}),)

    def __init__(self, code: str, **params: object) -> None:
        super().__init__(code, f"illegal.{code}", **params)


#: ``refuse(code, **params)``: the refusal a check returns (not raises), built once per code
#: and parameters (a C-level cache, no Python call): ``legal_actions`` probes every
#: candidate kind after every move and most probes are refused. Shared: never raise it
#: (``TableGame.check`` raises a copy).
refuse = lru_cache(maxsize=1024, typed=True)(IllegalAction)


class InvalidOptions(Refusal):
    """Table options out of range; ``code`` and ``params`` describe the first problem."""

    def __init__(self, code: str, **params: object) -> None:
        super().__init__(code, f"options.{code}", **params)
        self.args = (f"{code} {params}" if params else code,)

    @property
    def fallbacks(self) -> tuple[Fallback, ...]:
        """``<option>_out_of_range`` with its bounds said by one sentence, else the code."""
        generic: Fallback = ("options.generic", {})
        code = self.code
        if code.endswith("_out_of_range") and {"min", "max", "value"} <= self.params.keys():
            return (
                ("options.out_of_range", {"option": code.removesuffix("_out_of_range")}),
                generic,
            )
        return (generic,)


# The refusals every game shares (the base raises them).
GAME_OVER = "game_over"  # the game is over / the table is closed
WRONG_PHASE = "wrong_phase"  # not possible at this point of the game
UNKNOWN_ACTION = "unknown_action"  # the game has no such move (params: kind)
SYSTEM_ONLY = "system_only"  # TIMEOUT / CLOSE come from the table service
NOT_SEATED = "not_seated"  # the player has no seat (or no player was given)
ALREADY_SEATED = "already_seated"
TABLE_FULL = "table_full"  # params: max
NOT_HOST = "not_host"  # only the host may do this
NOT_ENOUGH_PLAYERS = "not_enough_players"  # params: min
BAD_AMOUNT = "bad_amount"  # missing, negative or not a whole number (params: amount)
NOT_BETTING = "not_betting"  # the player is not among those who may bet this round
ALREADY_BET = "already_bet"  # one bet per round
BET_OUT_OF_RANGE = "bet_out_of_range"  # params: amount, min, max
INSUFFICIENT_STACK = "insufficient_stack"  # params: needed, stack
NOT_YOUR_TURN = "not_your_turn"
IN_ROUND = "in_round"  # cannot leave while holding a stake in the round
ALREADY_VOTED = "already_voted"

SHARED_CODES: frozenset[str] = frozenset(
    {
        GAME_OVER,
        WRONG_PHASE,
        UNKNOWN_ACTION,
        SYSTEM_ONLY,
        NOT_SEATED,
        ALREADY_SEATED,
        TABLE_FULL,
        NOT_HOST,
        NOT_ENOUGH_PLAYERS,
        BAD_AMOUNT,
        NOT_BETTING,
        ALREADY_BET,
        BET_OUT_OF_RANGE,
        INSUFFICIENT_STACK,
        NOT_YOUR_TURN,
        IN_ROUND,
        ALREADY_VOTED,
    }
)
