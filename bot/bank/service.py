"""The bank service: the only code that moves money.

Every method runs in a transaction of its own (``db.write``, or ``db.read`` for the ones
that only read), or inside the caller's: pass the ``conn`` your write function received
and the bank's rows commit or roll back with yours. Each mutating call is a SAVEPOINT
inside the transaction: a refused call (a :class:`BankError`) leaves the caller's
transaction as it was, so the caller may go on or roll back.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine, Sequence
from typing import Any, Concatenate, ParamSpec, TypedDict, TypeVar, Unpack

from bot.db import Conn, Database
from bot.engine.events import Money

from . import core, proof
from .models import (
    DEFAULT_TREASURY,
    AuditReport,
    ClaimLine,
    ClaimReceipt,
    FloatMove,
    GuildInfo,
    HistoryPage,
    PostResult,
    Receipt,
)

P = ParamSpec("P")
T = TypeVar("T")
CoreFn = Callable[Concatenate[Conn, P], Coroutine[Any, Any, T]]


class Supply(TypedDict, total=False):
    """The options of :meth:`Bank.mint` and :meth:`Bank.burn`."""

    user_id: int | None
    actor: int | None
    reason: str | None
    key: str | None
    conn: Conn | None


class Bank:
    """Accounts, ledger, escrow and claims over one :class:`Database`."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def _call(
        self, conn: Conn | None, fn: CoreFn[P, T], *args: P.args, **kwargs: P.kwargs
    ) -> T:
        """``fn`` in the caller's transaction, or in a write transaction of its own."""
        if conn is not None:
            return await fn(conn, *args, **kwargs)
        return await self.db.write(fn, *args, **kwargs)

    async def _read(
        self, conn: Conn | None, fn: CoreFn[P, T], *args: P.args, **kwargs: P.kwargs
    ) -> T:
        """``fn`` in the caller's transaction, or in a read-only snapshot."""
        if conn is not None:
            return await fn(conn, *args, **kwargs)
        return await self.db.read(fn, *args, **kwargs)

    # ------------------------------------------------------------------ guild & accounts

    async def ensure_guild(
        self,
        guild_id: int,
        *,
        treasury_initial: int = DEFAULT_TREASURY,
        starting_balance: int = 0,
        claim_approval_limit: int | None = None,
        conn: Conn | None = None,
    ) -> GuildInfo:
        """Set a guild up once (idempotent): its issuer, treasury and claims accounts, its
        settings, and ``treasury_initial`` minted into the treasury as a mint entry. An
        existing guild is returned unchanged."""
        return await self._call(
            conn,
            core.ensure_guild,
            guild_id,
            treasury_initial,
            starting_balance,
            claim_approval_limit,
        )

    async def configure_guild(
        self,
        guild_id: int,
        *,
        starting_balance: int | None = None,
        claim_approval_limit: int | core._Unset | None = core.UNSET,
        max_welcome_stake: int | None = None,
        max_guarantee_fund: int | None = None,
        max_bank_bust_bonus: int | None = None,
        min_casino21_bet: int | None = None,
        conn: Conn | None = None,
    ) -> GuildInfo:
        """Change a guild's settings; ``claim_approval_limit=None`` removes the limit. The
        ``max_*`` limits and ``min_casino21_bet`` bound the table options that commit the
        casino's money (None: unchanged)."""
        limits = {
            name: value
            for name, value in (
                ("max_welcome_stake", max_welcome_stake),
                ("max_guarantee_fund", max_guarantee_fund),
                ("max_bank_bust_bonus", max_bank_bust_bonus),
                ("min_casino21_bet", min_casino21_bet),
            )
            if value is not None
        }
        return await self._call(
            conn, core.configure_guild, guild_id, starting_balance, claim_approval_limit, limits
        )

    async def guild(self, guild_id: int, *, conn: Conn | None = None) -> GuildInfo:
        """The guild's settings and treasury."""
        return await self._read(conn, core.guild_info, guild_id)

    async def remember_accounts(self, tables: Sequence[tuple[int, int]]) -> int:
        """Remember the account ids the moves of these (guild, table) pairs post to
        (:func:`core.remember_accounts`), from a read snapshot."""
        return await self.db.read(core.remember_accounts, tables)

    async def open_account(self, guild_id: int, user_id: int, *, conn: Conn | None = None) -> int:
        """Open the player's account if needed (minting the guild's starting balance);
        return the balance."""
        return await self._call(conn, core.open_account, guild_id, user_id)

    async def has_account(self, guild_id: int, user_id: int, *, conn: Conn | None = None) -> bool:
        """Whether the player has an account in the guild."""
        return await self._read(conn, core.has_account, guild_id, user_id)

    async def spendable(self, guild_id: int, user_id: int, *, conn: Conn | None = None) -> int:
        """The player's balance, or the starting balance a new account would receive
        (creates nothing: the first posting from the wallet opens the account)."""
        return await self._read(conn, core.spendable, guild_id, user_id)

    async def balance(self, guild_id: int, user_id: int | None, *, conn: Conn | None = None) -> int:
        """A player's balance (0 without an account); the treasury's for ``None``."""
        return await self._read(conn, core.balance, guild_id, user_id)

    # ---------------------------------------------------------------------------- admin

    async def change_supply(
        self,
        kind: str,
        guild_id: int,
        amount: int,
        *,
        user_id: int | None = None,
        actor: int | None = None,
        reason: str | None = None,
        key: str | None = None,
        conn: Conn | None = None,
    ) -> Receipt:
        """Admin: ``"mint"`` creates money into a player's balance, ``"burn"`` destroys
        money from it (the treasury's when user_id is None)."""
        return await self._call(
            conn, core.change_supply, kind, guild_id, amount, user_id, actor, reason, key
        )

    async def mint(self, guild_id: int, amount: int, **options: Unpack[Supply]) -> Receipt:
        """Admin: create money (see :meth:`change_supply`)."""
        return await self.change_supply("mint", guild_id, amount, **options)

    async def burn(self, guild_id: int, amount: int, **options: Unpack[Supply]) -> Receipt:
        """Admin: destroy money (see :meth:`change_supply`)."""
        return await self.change_supply("burn", guild_id, amount, **options)

    # -------------------------------------------------------------------------- players

    async def transfer(
        self,
        guild_id: int,
        sender: int,
        recipient: int,
        amount: int,
        *,
        recipient_is_bot: bool = False,
        reason: str | None = None,
        key: str | None = None,
        conn: Conn | None = None,
    ) -> Receipt:
        """A player gives ``amount`` to another player (refused to oneself or to a bot)."""
        return await self._call(
            conn, core.transfer, guild_id, sender, recipient, amount, recipient_is_bot, reason, key
        )

    async def history(
        self,
        guild_id: int,
        user_id: int | None,
        *,
        limit: int = 20,
        before: int | None = None,
        conn: Conn | None = None,
    ) -> HistoryPage:
        """A player's movements newest first (treasury's for None); page with
        ``before=page.next_before``."""
        return await self._read(conn, core.history, guild_id, user_id, limit, before)

    async def leaderboard(
        self, guild_id: int, *, limit: int = 10, conn: Conn | None = None
    ) -> list[tuple[int, int]]:
        """(user_id, balance) of the richest players."""
        return await self._read(conn, core.leaderboard, guild_id, limit)

    # --------------------------------------------------------------------------- tables

    async def post_effects(
        self,
        conn: Conn,
        guild_id: int,
        table_id: int,
        round_no: int | None,
        effects: Sequence[Money],
        idem_prefix: str,
        actor: int | None = None,
        *,
        own_savepoint: bool = True,
        floated: bool = False,
    ) -> PostResult:
        """Post a game's money effects inside the caller's open transaction ``conn``.

        Each effect becomes one balanced entry of the same kind (MoneyKind value) keyed
        ``f"{idem_prefix}:{index}"``; zero amounts are skipped. Endpoints map to accounts:
        wallet:<p> the player's balance (opened if needed), seat:<p> / pot / fund the table's
        escrows (created on first use), house the treasury, claim:<p> the guild's claims
        escrow plus a claim row (held above the approval limit). Seat counters (welcome
        stake, own funds, wagered) follow. Posting the same prefix again is a no-op
        (``replayed``). On any error nothing of the batch is posted and the caller's
        transaction is otherwise untouched. ``own_savepoint=False`` spares the savepoint's
        two statements to a caller (a table move) whose whole transaction rolls back when
        this raises; its guild must be set up. ``floated``: house is the table's float
        (``bot/tables/floats.py``), not the treasury."""
        return await core.post_effects(
            conn,
            guild_id,
            table_id,
            round_no,
            list(effects),
            idem_prefix,
            actor,
            own_savepoint=own_savepoint,
            floated=floated,
        )

    async def fill_float(
        self, conn: Conn, guild_id: int, table_id: int, target: int, low: int, key: str
    ) -> FloatMove | None:
        """Refill a table's float to ``target`` when below ``low``, inside ``conn``'s
        transaction (see ``core.fill_float``)."""
        return await core.fill_float(conn, guild_id, table_id, target, low, key)

    async def credit_float(
        self, conn: Conn, guild_id: int, table_id: int, key: str
    ) -> FloatMove | None:
        """Return a closing table's float to the treasury, inside ``conn``'s transaction."""
        return await core.credit_float(conn, guild_id, table_id, key)

    async def float_balance(self, guild_id: int, table_id: int, *, conn: Conn | None = None) -> int:
        """What a table's float holds."""
        return await self._read(conn, core.float_balance, guild_id, table_id)

    # --------------------------------------------------------------------------- claims

    async def claims(
        self,
        guild_id: int,
        user_id: int | None = None,
        *,
        statuses: Sequence[str] = ("pending", "held"),
        conn: Conn | None = None,
    ) -> list[ClaimLine]:
        """Open claims of a user (of everybody for None), oldest first."""
        return await self._read(conn, core.claims, guild_id, user_id, tuple(statuses))

    async def claim(
        self,
        guild_id: int,
        user_id: int,
        *,
        claim_ids: Sequence[int] | None = None,
        conn: Conn | None = None,
    ) -> ClaimReceipt:
        """Pay every pending claim of the user (or just ``claim_ids``) into their balance,
        exactly once, in one transaction. Held claims are listed, not paid."""
        ids = None if claim_ids is None else list(claim_ids)
        return await self._call(conn, core.claim, guild_id, user_id, ids)

    async def approve_claim(
        self,
        guild_id: int,
        claim_id: int,
        admin_id: int,
        *,
        conn: Conn | None = None,
    ) -> ClaimReceipt:
        """An admin who is not the claimant approves a held claim; it is paid at once."""
        return await self._call(conn, core.approve_claim, guild_id, claim_id, admin_id)

    async def reject_claim(
        self,
        guild_id: int,
        claim_id: int,
        admin_id: int,
        reason: str,
        *,
        conn: Conn | None = None,
    ) -> ClaimLine:
        """An admin rejects a held claim: its money goes back to the treasury."""
        return await self._call(conn, core.reject_claim, guild_id, claim_id, admin_id, reason)

    # ---------------------------------------------------------------------------- audit

    async def audit(
        self, guild_id: int | None = None, *, full: bool = False, conn: Conn | None = None
    ) -> AuditReport:
        """Prove the ledger from the last checkpoint (``full``: from the first entry) and
        record the new one (see bot.bank.proof); in ``conn``, prove only, recording none."""
        if conn is not None:
            return (await proof.prove(conn, guild_id, full)).report
        return await proof.run(self.db, guild_id, full=full)
