"""The casino bank: accounts, an append-only double-entry ledger, escrows and claims.

The only code that moves money. ``Bank(db)`` is the async service; ``bot.bank.core`` holds
the synchronous SQL it runs; ``bot.bank.audit`` recomputes everything from the ledger.
"""

from .audit import audit
from .errors import (
    BankError,
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
    GuildInfo,
    HistoryItem,
    HistoryPage,
    LeaveResult,
    PostResult,
    Receipt,
    SeatStats,
)
from .service import Bank

__all__ = [
    "MAX_AMOUNT",
    "AuditReport",
    "Bank",
    "BankError",
    "ClaimLine",
    "ClaimNotHeld",
    "ClaimReceipt",
    "Duplicate",
    "GuildInfo",
    "HistoryItem",
    "HistoryPage",
    "InsufficientFunds",
    "InvalidAmount",
    "InvalidEffect",
    "LeaveResult",
    "NotYourClaim",
    "PostResult",
    "Receipt",
    "SeatStats",
    "SelfApproval",
    "SelfTransfer",
    "TransferToBot",
    "UnknownAccount",
    "UnknownClaim",
    "WelcomeStakeTaken",
    "audit",
]
