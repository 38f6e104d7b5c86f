"""What bank calls return: small frozen records, JSON-able through ``dataclasses.asdict``."""

from __future__ import annotations

from dataclasses import dataclass

# Amounts above this are refused: it is the largest integer a JSON number (a double)
# holds exactly, so every amount survives a round trip through JSON and JavaScript.
MAX_AMOUNT = 2**53 - 1

DEFAULT_TREASURY = 1_000_000

# The guild's limits on the table options that commit the casino's money (/bank setup):
# by default the documented defaults of those options (migrations 0006 and 0012). The
# ``min_`` ones are floors (at least 1), the others ceilings.
TABLE_LIMITS = (
    "max_welcome_stake",
    "max_guarantee_fund",
    "max_bank_bust_bonus",
    "min_casino21_bet",
)
DEFAULT_MAX_WELCOME_STAKE = 100
DEFAULT_MAX_GUARANTEE_FUND = 500
DEFAULT_MAX_BANK_BUST_BONUS = 5
DEFAULT_MIN_CASINO21_BET = 10


@dataclass(frozen=True, slots=True)
class GuildInfo:
    """A guild's bank settings, its limits on table options and its treasury."""

    guild_id: int
    starting_balance: int
    claim_approval_limit: int | None
    treasury: int
    created: bool  # True when this call set the guild up
    max_welcome_stake: int = DEFAULT_MAX_WELCOME_STAKE
    max_guarantee_fund: int = DEFAULT_MAX_GUARANTEE_FUND
    max_bank_bust_bonus: int = DEFAULT_MAX_BANK_BUST_BONUS
    min_casino21_bet: int = DEFAULT_MIN_CASINO21_BET


@dataclass(frozen=True, slots=True)
class Receipt:
    """One posted movement. ``balance`` is the subject account's balance after the call
    (the player's for player operations, the treasury's for treasury ones). ``replayed`` is
    True when the idempotency key had already been posted: nothing moved this time."""

    entry_id: int
    key: str
    kind: str
    amount: int
    balance: int
    replayed: bool = False


@dataclass(frozen=True, slots=True)
class FloatMove:
    """A table float's fill (treasury -> float) or credit (float -> treasury), or a fill
    the treasury could not make (``amount`` 0, ``lacking`` > 0): the float holds
    ``balance`` after it, the treasury ``treasury``."""

    kind: str  # "fill" | "credit"
    amount: int
    balance: int
    treasury: int
    lacking: int = 0
    entry_id: int | None = None


@dataclass(frozen=True, slots=True)
class PostResult:
    """The entries posted for a batch of game effects (zero amounts are skipped), and the
    claims its cash-outs opened."""

    entry_ids: tuple[int, ...]
    claim_ids: tuple[int, ...]
    replayed: bool  # every entry already existed: nothing moved this time


@dataclass(frozen=True, slots=True)
class ClaimLine:
    """One claim."""

    claim_id: int
    user_id: int
    table_id: int | None
    amount: int
    status: str  # pending | held | paid
    created_at: str


@dataclass(frozen=True, slots=True)
class ClaimReceipt:
    """What ``claim`` paid (exactly once), what still waits for an admin, the new balance."""

    user_id: int
    paid: tuple[ClaimLine, ...]
    held: tuple[ClaimLine, ...]
    total: int
    balance: int
    entry_id: int | None


@dataclass(frozen=True, slots=True)
class HistoryItem:
    """One movement of a player's balance; ``amount`` is signed (+ in, - out)."""

    entry_id: int
    kind: str
    amount: int
    table_id: int | None
    round_no: int | None
    actor: int | None
    reason: str | None
    created_at: str


@dataclass(frozen=True, slots=True)
class HistoryPage:
    """A page of history, newest first; pass ``next_before`` to get the next page."""

    items: tuple[HistoryItem, ...]
    next_before: int | None


@dataclass(frozen=True, slots=True)
class AuditReport:
    """The audit's result: ``ok`` when every check passed. ``entries``/``postings`` count
    the whole ledger of the scope; ``proved`` the entries this audit read, those after
    entry ``after`` (0 and ``full``: from the first); ``checkpoint`` the one it recorded."""

    guilds: int
    accounts: int
    entries: int
    postings: int
    minted: int
    burned: int
    circulating: int  # sum of every account except the issuers
    problems: tuple[str, ...]
    floats: int = 0  # what the tables' floats hold (part of circulating)
    full: bool = True
    after: int = 0
    proved: int = 0
    checkpoint: int | None = None
    unrecorded: bool = False  # clean, but an earlier entry committed meanwhile (PostgreSQL)

    @property
    def ok(self) -> bool:
        """True when the ledger, the cached balances and the claims all agree."""
        return not self.problems

    def format(self) -> str:
        """A short human report."""
        how = (
            "full" if self.full else f"incremental: {self.proved} entries after entry {self.after}"
        )
        head = (
            f"bank audit: {'OK' if self.ok else 'FAILED'} ({how}) - {self.guilds} guild(s), "
            f"{self.accounts} accounts, {self.entries} entries, {self.postings} postings; "
            f"minted {self.minted}, burned {self.burned}, circulating {self.circulating}"
            f" (tables' floats {self.floats})"
        )
        saved = []
        if self.checkpoint is not None:
            saved = [f"  checkpoint {self.checkpoint} recorded: the next audit starts there"]
        elif self.unrecorded:
            saved = [
                "  no checkpoint recorded: an entry below the last one committed during the"
                " audit; the next audit starts from the previous checkpoint"
            ]
        return "\n".join([head, *saved, *(f"  - {p}" for p in self.problems)])


@dataclass(frozen=True, slots=True)
class DailySettings:
    """A guild's daily pay: ``amount`` (0 = off) every ``hours`` hours."""

    amount: int
    hours: int


@dataclass(frozen=True, slots=True)
class DailyPaid:
    """One daily pay: its entry, the member's balance after it, when the next is due."""

    entry_id: int
    amount: int
    balance: int
    next_at: float
