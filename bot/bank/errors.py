"""Bank errors: each has a stable ``code`` the UI translates, and ``params`` for the message.

They are the engine's :class:`~bot.engine.refusal.Refusal` (the one refusal shape, standard
library only): the bank imports that base, the db and the engine's money types, nothing
else of the bot."""

from __future__ import annotations

from bot.db.base import Conflict
from bot.engine.refusal import Refusal


class BankError(Refusal):
    """A refused bank operation. Nothing was posted. ``bank.error.<code>`` says it."""

    code = "bank_error"  # each kind's own, read from the class too (``ALL_ERRORS``)
    FALLBACKS = (("bank.error.generic", {}),)

    def __init__(self, message: str = "", **params: object) -> None:
        super().__init__(self.code, f"bank.error.{self.code}", **params)
        self.args = (message or self.code,)


class InvalidAmount(BankError):
    """Not a whole positive amount (zero, negative, bool, float, above the maximum)."""

    code = "invalid_amount"


class InsufficientFunds(BankError):
    """The account to debit holds less than the amount."""

    code = "insufficient_funds"


class UnknownAccount(BankError):
    """No such account, guild not set up, or a money endpoint the bank does not know."""

    code = "unknown_account"


class UnknownClaim(BankError):
    """No such claim in this guild."""

    code = "unknown_claim"


class NotYourClaim(BankError):
    """The claim belongs to somebody else."""

    code = "not_your_claim"


class ClaimNotHeld(BankError):
    """Only a claim waiting for approval can be approved."""

    code = "claim_not_held"


class ClaimDecided(ClaimNotHeld):
    """The claim was approved or rejected already (by another admin, maybe at the same
    moment): a second decision changes nothing."""

    code = "claim_decided"


class SelfApproval(BankError):
    """An admin may not approve their own claim."""

    code = "self_approval"


class SelfTransfer(BankError):
    """A transfer to oneself."""

    code = "self_transfer"


class TransferToBot(BankError):
    """A transfer to a bot account."""

    code = "transfer_to_bot"


class Duplicate(BankError):
    """The idempotency key was already used for a different movement."""

    code = "duplicate"


class ClaimRace(Duplicate, Conflict):
    """Another transaction paid these claims between our read and our write (PostgreSQL,
    two processes): the database runs the claim again, and it then finds them paid."""


class InvalidEffect(BankError):
    """A game money effect the bank refuses (bad endpoint pairing, bad table id...)."""

    code = "invalid_effect"


class WelcomeStakeTaken(BankError):
    """The welcome stake is given once per player per table."""

    code = "welcome_stake_taken"


ALL_ERRORS: tuple[type[BankError], ...] = (
    InvalidAmount,
    InsufficientFunds,
    UnknownAccount,
    UnknownClaim,
    NotYourClaim,
    ClaimNotHeld,
    ClaimDecided,
    SelfApproval,
    SelfTransfer,
    TransferToBot,
    Duplicate,
    InvalidEffect,
    WelcomeStakeTaken,
)
