"""The bank service: the only code that moves money.

Every mutating method takes an optional ``conn``: pass the connection yielded by
``async with db.transaction() as conn`` to post inside your own transaction (your rows and
the postings commit or roll back together); leave it out and the method opens its own
transaction. Never call a method without ``conn`` while you hold ``db.transaction()``: the
database lock is not re-entrant and it would wait forever.

Each call runs its SQL in one hop to aiosqlite's worker thread (see :func:`run_sync`), as a
SAVEPOINT inside the transaction: a refused call (a :class:`BankError`) leaves the caller's
transaction as it was, so the caller may go on or roll back.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence
from typing import Any, Concatenate, ParamSpec, TypeVar, cast

import aiosqlite

from bot.db import Database
from bot.engine.base import Money

from . import core
from .models import (
    DEFAULT_TREASURY,
    AuditReport,
    ClaimLine,
    ClaimReceipt,
    GuildInfo,
    HistoryPage,
    LeaveResult,
    PostResult,
    Receipt,
    SeatStats,
)

P = ParamSpec("P")
T = TypeVar("T")


async def run_sync(
    conn: aiosqlite.Connection,
    fn: Callable[Concatenate[sqlite3.Connection, P], T],
    *args: P.args,
    **kwargs: P.kwargs,
) -> T:
    """Run ``fn(raw_sqlite3_connection, ...)`` on aiosqlite's worker thread, in one hop.

    aiosqlite sends every statement to its thread and back (tens of microseconds each); the
    bank's operations are a dozen statements, so they run as one synchronous function on
    that thread instead. This uses aiosqlite's internal ``_execute``/``_conn`` (stable since
    0.17; the bank tests fail loudly if that changes)."""
    inner = cast(Any, conn)
    return cast(T, await inner._execute(fn, inner._conn, *args, **kwargs))


class Bank:
    """Accounts, ledger, escrow and claims over one :class:`Database`."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def _call(
        self,
        conn: aiosqlite.Connection | None,
        fn: Callable[Concatenate[sqlite3.Connection, P], T],
        *args: P.args,
        **kwargs: P.kwargs,
    ) -> T:
        if conn is not None:
            return await run_sync(conn, fn, *args, **kwargs)
        async with self.db.transaction() as own:
            return await run_sync(own, fn, *args, **kwargs)

    # ------------------------------------------------------------------ guild & accounts

    async def ensure_guild(
        self,
        guild_id: int,
        *,
        treasury_initial: int = DEFAULT_TREASURY,
        starting_balance: int = 0,
        claim_approval_limit: int | None = None,
        conn: aiosqlite.Connection | None = None,
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
        conn: aiosqlite.Connection | None = None,
    ) -> GuildInfo:
        """Change a guild's settings; ``claim_approval_limit=None`` removes the limit. The
        ``max_*`` limits bound the table options that commit the casino's money (None:
        unchanged)."""
        limits = {
            name: value
            for name, value in (
                ("max_welcome_stake", max_welcome_stake),
                ("max_guarantee_fund", max_guarantee_fund),
                ("max_bank_bust_bonus", max_bank_bust_bonus),
            )
            if value is not None
        }
        return await self._call(
            conn, core.configure_guild, guild_id, starting_balance, claim_approval_limit, limits
        )

    async def guild(self, guild_id: int, *, conn: aiosqlite.Connection | None = None) -> GuildInfo:
        """The guild's settings and treasury."""
        return await self._call(conn, core.guild_info, guild_id)

    async def open_account(
        self, guild_id: int, user_id: int, *, conn: aiosqlite.Connection | None = None
    ) -> int:
        """Open the player's account if needed (minting the guild's starting balance);
        return the balance."""
        return await self._call(conn, core.open_account, guild_id, user_id)

    async def spendable(
        self, guild_id: int, user_id: int, *, conn: aiosqlite.Connection | None = None
    ) -> int:
        """The player's balance, or the starting balance a new account would receive
        (creates nothing: the first posting from the wallet opens the account)."""
        return await self._call(conn, core.spendable, guild_id, user_id)

    async def balance(
        self, guild_id: int, user_id: int | None, *, conn: aiosqlite.Connection | None = None
    ) -> int:
        """A player's balance (0 without an account); the treasury's for ``None``."""
        return await self._call(conn, core.balance, guild_id, user_id)

    # ---------------------------------------------------------------------------- admin

    async def mint(
        self,
        guild_id: int,
        amount: int,
        *,
        user_id: int | None = None,
        actor: int | None = None,
        reason: str | None = None,
        key: str | None = None,
        conn: aiosqlite.Connection | None = None,
    ) -> Receipt:
        """Admin: create money into a player's balance (the treasury when user_id is None)."""
        return await self._call(conn, core.mint, guild_id, amount, user_id, actor, reason, key)

    async def burn(
        self,
        guild_id: int,
        amount: int,
        *,
        user_id: int | None = None,
        actor: int | None = None,
        reason: str | None = None,
        key: str | None = None,
        conn: aiosqlite.Connection | None = None,
    ) -> Receipt:
        """Admin: destroy money from a player's balance (the treasury when user_id is None)."""
        return await self._call(conn, core.burn, guild_id, amount, user_id, actor, reason, key)

    async def admin_adjust(
        self,
        guild_id: int,
        user_id: int,
        delta: int,
        *,
        actor: int | None = None,
        reason: str | None = None,
        key: str | None = None,
        conn: aiosqlite.Connection | None = None,
    ) -> Receipt:
        """Admin: move money treasury -> player (delta > 0) or player -> treasury."""
        return await self._call(
            conn, core.admin_adjust, guild_id, user_id, delta, actor, reason, key
        )

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
        conn: aiosqlite.Connection | None = None,
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
        conn: aiosqlite.Connection | None = None,
    ) -> HistoryPage:
        """A player's movements newest first (treasury's for None); page with
        ``before=page.next_before``."""
        return await self._call(conn, core.history, guild_id, user_id, limit, before)

    async def leaderboard(
        self, guild_id: int, *, limit: int = 10, conn: aiosqlite.Connection | None = None
    ) -> list[tuple[int, int]]:
        """(user_id, balance) of the richest players."""
        return await self._call(conn, core.leaderboard, guild_id, limit)

    # --------------------------------------------------------------------------- tables

    async def post_effects(
        self,
        conn: aiosqlite.Connection,
        guild_id: int,
        table_id: int,
        round_no: int | None,
        effects: Sequence[Money],
        idem_prefix: str,
        actor: int | None = None,
    ) -> PostResult:
        """Post a game's money effects inside the caller's open transaction ``conn``.

        Each effect becomes one balanced entry of the same kind (MoneyKind value) keyed
        ``f"{idem_prefix}:{index}"``; zero amounts are skipped. Endpoints map to accounts:
        wallet:<p> the player's balance (opened if needed), seat:<p> / pot / fund the table's
        escrows (created on first use), house the treasury, claim:<p> the guild's claims
        escrow plus a claim row (held above the approval limit). Seat counters (welcome
        stake, own funds, wagered) follow. Posting the same prefix again is a no-op
        (``replayed``). On any error nothing of the batch is posted and the caller's
        transaction is otherwise untouched."""
        return await run_sync(
            conn, core.post_effects, guild_id, table_id, round_no, list(effects), idem_prefix, actor
        )

    async def sit_down(
        self,
        guild_id: int,
        table_id: int,
        user_id: int,
        *,
        buy_in: int = 0,
        welcome_stake: int = 0,
        key: str | None = None,
        conn: aiosqlite.Connection | None = None,
    ) -> SeatStats:
        """Fill a seat: buy-in from the balance and/or the welcome stake from the house."""
        return await self._call(
            conn, core.sit_down, guild_id, table_id, user_id, buy_in, welcome_stake, key
        )

    async def top_up(
        self,
        guild_id: int,
        table_id: int,
        user_id: int,
        amount: int,
        *,
        key: str | None = None,
        conn: aiosqlite.Connection | None = None,
    ) -> SeatStats:
        """Own funds from the player's balance to their seat."""
        return await self._call(conn, core.top_up, guild_id, table_id, user_id, amount, key)

    async def leave_seat(
        self,
        guild_id: int,
        table_id: int,
        user_id: int,
        *,
        forfeit: int = 0,
        key: str | None = None,
        conn: aiosqlite.Connection | None = None,
    ) -> LeaveResult:
        """Empty a seat: ``forfeit`` back to the house, the rest becomes a claim."""
        return await self._call(conn, core.leave_seat, guild_id, table_id, user_id, forfeit, key)

    async def seat(
        self,
        guild_id: int,
        table_id: int,
        user_id: int,
        *,
        conn: aiosqlite.Connection | None = None,
    ) -> SeatStats:
        """The seat's stack and counters."""
        return await self._call(conn, core.seat_stats, guild_id, table_id, user_id)

    async def table_escrow(
        self, guild_id: int, table_id: int, *, conn: aiosqlite.Connection | None = None
    ) -> dict[str, int]:
        """Escrow balances of a table by engine endpoint (seat:<p>, pot, fund)."""
        return await self._call(conn, core.table_escrow, guild_id, table_id)

    async def open_fund(
        self,
        guild_id: int,
        table_id: int,
        amount: int,
        *,
        key: str | None = None,
        conn: aiosqlite.Connection | None = None,
    ) -> int:
        """Treasury -> the table's guarantee fund; returns the fund balance."""
        return await self._call(conn, core.open_fund, guild_id, table_id, amount, key)

    async def close_fund(
        self,
        guild_id: int,
        table_id: int,
        *,
        key: str | None = None,
        conn: aiosqlite.Connection | None = None,
    ) -> int:
        """What is left of the fund -> treasury; returns that amount."""
        return await self._call(conn, core.close_fund, guild_id, table_id, key)

    # --------------------------------------------------------------------------- claims

    async def claims(
        self,
        guild_id: int,
        user_id: int | None = None,
        *,
        statuses: Sequence[str] = ("pending", "held"),
        conn: aiosqlite.Connection | None = None,
    ) -> list[ClaimLine]:
        """Open claims of a user (of everybody for None), oldest first."""
        return await self._call(conn, core.claims, guild_id, user_id, tuple(statuses))

    async def claim(
        self,
        guild_id: int,
        user_id: int,
        *,
        claim_ids: Sequence[int] | None = None,
        conn: aiosqlite.Connection | None = None,
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
        conn: aiosqlite.Connection | None = None,
    ) -> ClaimReceipt:
        """An admin who is not the claimant approves a held claim; it is paid at once."""
        return await self._call(conn, core.approve_claim, guild_id, claim_id, admin_id)

    # ---------------------------------------------------------------------------- audit

    async def audit(
        self, guild_id: int | None = None, *, conn: aiosqlite.Connection | None = None
    ) -> AuditReport:
        """Recompute every balance from the ledger and compare (see bot.bank.audit)."""
        return await self._call(conn, core.audit, guild_id)
