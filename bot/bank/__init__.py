"""The casino bank: accounts, an append-only double-entry ledger, escrows and claims.

The only code that moves money. ``Bank(db)`` is the service, the tables included: they
post their moves' money with ``Bank.post_effects`` inside their own transaction.
``bot.bank.core`` holds the SQL it runs (functions of a :class:`~bot.db.Conn`);
``bot.bank.audit`` (``bot.bank.proof.run``) proves the ledger, from its last checkpoint on;
``python -m bot audit`` (``bot.cli.audit``) runs it from the command line.

Model (schema: bot/db/migrations/0002_bank.sql)
- Accounts per guild: ``issuer`` (the other side of every mint/burn; its balance is
  -(minted - burned), the only account allowed below zero), ``house`` (the treasury),
  ``claims`` (escrow of cash-outs not yet collected), ``player`` per user, and per table
  ``seat`` per user, ``pot`` and ``fund``. Cached balances carry ``CHECK (balance >= 0)``.
- Money comes into existence only by minting. ``ensure_guild(guild, treasury_initial=
  1_000_000)`` mints the treasury once (a ``mint`` entry keyed ``treasury:<guild>``).
  Players start at 0 unless the guild's ``starting_balance`` is set: it is minted to each
  new player account when it opens (``start:<guild>:<user>``). Admins can ``mint`` and
  ``burn`` (``change_supply``: the one path that touches the issuer). The table welcome
  stake comes from the treasury (WELCOME_STAKE house -> seat), given once per player per
  table.
- Every movement is one entry (kind = the MoneyKind value for game effects, or mint, burn,
  transfer, claim_paid; admin_adjust in older ledgers) with two postings (-amount from the
  source, +amount to the destination), a unique idempotency key, table/round, actor and
  reason. Entries and postings are append-only (triggers). Debits are conditional UPDATEs.
- Claims: CASH_OUT seat:<p> -> claim:<p> moves the stack to the guild's claims account and
  opens a claim row: ``pending``, or ``held`` when above the guild's
  ``claim_approval_limit``. ``claim`` pays every pending claim of the user in one
  ``claim_paid`` entry, exactly once; ``approve_claim`` (an admin other than the claimant)
  pays a held claim at once; ``reject_claim`` (an admin, with a reason) sends a held
  claim's money back to the treasury (an ``admin_adjust`` entry claims -> house) and
  closes it as ``rejected`` (migration 0008). A decision locks the held row first, so of
  two at the same moment (two admins, two processes) the second finds it decided
  (``ClaimDecided``) and changes nothing.
"""

from .errors import (
    BankError,
    ClaimDecided,
    ClaimNotHeld,
    Duplicate,
    InsufficientFunds,
    InvalidAmount,
    InvalidEffect,
    NotYourClaim,
    SelfApproval,
    SelfTransfer,
    TransferToBot,
    UnknownAccount,
    UnknownClaim,
    WelcomeStakeTaken,
)
from .models import (
    MAX_AMOUNT,
    AuditReport,
    ClaimLine,
    ClaimReceipt,
    FloatMove,
    GuildInfo,
    HistoryItem,
    HistoryPage,
    PostResult,
    Receipt,
)
from .proof import run as audit  # one consistent snapshot, its checkpoint when clean
from .service import Bank

__all__ = [
    "MAX_AMOUNT",
    "AuditReport",
    "Bank",
    "BankError",
    "ClaimDecided",
    "ClaimLine",
    "ClaimNotHeld",
    "ClaimReceipt",
    "Duplicate",
    "FloatMove",
    "GuildInfo",
    "HistoryItem",
    "HistoryPage",
    "InsufficientFunds",
    "InvalidAmount",
    "InvalidEffect",
    "NotYourClaim",
    "PostResult",
    "Receipt",
    "SelfApproval",
    "SelfTransfer",
    "TransferToBot",
    "UnknownAccount",
    "UnknownClaim",
    "WelcomeStakeTaken",
    "audit",
]
