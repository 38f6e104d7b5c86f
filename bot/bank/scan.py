"""The audit's pass over a range of ledger entries (``bot.bank.proof`` decides the ranges).

A range costs a few queries, each an index range scan: each account's sum, the postings
to another guild's account, the entries whose postings do not balance or that have
none, the issuers' postings (what was minted and burned, and which entries touch an
issuer), and the entries' columns for the ledger digest, a block of ids at a time (the
pass never holds the whole ledger). Python hashes each block once and touches each
account once per range, never a posting; the database does the rest.
"""

from __future__ import annotations

import hashlib
import itertools
import operator
from dataclasses import dataclass
from typing import Any, Final

import orjson

from bot.db.base import Conn

MOD: Final = 1 << 256
BLOCK: Final = 4096  # entry ids per term of the ledger digest (and per query)
GUILD: Final = operator.itemgetter(1)  # an entry row's guild
ENTRY_COLUMNS: Final = "id, guild_id, kind, idem_key, table_id, round_no, actor, reason, created_at"
SUPPLY: Final = ("mint", "burn")
ISSUERS: Final = "SELECT id FROM bank_accounts WHERE kind = 'issuer'"


@dataclass
class Tally:
    """One guild's ledger so far: what a checkpoint records of it."""

    entries: int = 0
    postings: int = 0
    minted: int = 0
    burned: int = 0
    ledger: int = 0  # sum of the entries' hashes
    balances: int = 0  # sum of weight(account) * amount over its accounts' postings

    def row(self) -> tuple[int, int, int, int, str, str]:
        """The checkpoint columns (entries .. balance_digest)."""
        return (
            self.entries,
            self.postings,
            self.minted,
            self.burned,
            f"{self.ledger % MOD:064x}",
            f"{self.balances % MOD:064x}",
        )

    @classmethod
    def of(cls, row: Any) -> Tally:
        """A checkpoint row read back (entries .. balance_digest)."""
        entries, postings, minted, burned, ledger, balances = (row[i] for i in range(6))
        return cls(
            int(entries),
            int(postings),
            int(minted),
            int(burned),
            int(ledger, 16),
            int(balances, 16),
        )


@dataclass
class Account:
    """An account as the audit reads it."""

    guild_id: int
    kind: str
    table_id: int
    user_id: int
    balance: int


def weight(account_id: int) -> int:
    """The account's weight in the balance digest."""
    digest = hashlib.blake2b(b"croupier-account:%d" % account_id, digest_size=32).digest()
    return int.from_bytes(digest, "big")


def piece_hash(guild_id: int, block: int, rows: list[tuple[Any, ...]]) -> int:
    """The digest's term for one guild's entries in one block of ids, as an integer."""
    body = orjson.dumps([guild_id, block, rows])
    return int.from_bytes(hashlib.blake2b(body, digest_size=32).digest(), "big")


class Scan:
    """Ranges of entries, in order, added to the guilds' tallies and the accounts' sums."""

    def __init__(self, guild_id: int | None, accounts: dict[int, Account]) -> None:
        self.guild_id = guild_id
        self.accounts = accounts
        self.tallies: dict[int, Tally] = {}
        self.sums: dict[int, int] = {}  # account -> the amounts of the ranges read
        self.weights: dict[int, int] = {}
        self.problems: list[str] = []
        self.count = 0  # entries read

    def tally(self, guild_id: int) -> Tally:
        """The guild's tally (a new one the first time)."""
        found = self.tallies.get(guild_id)
        if found is None:
            found = self.tallies[guild_id] = Tally()
        return found

    def weight(self, account_id: int) -> int:
        """The account's weight, computed once."""
        w = self.weights.get(account_id)
        if w is None:
            w = self.weights[account_id] = weight(account_id)
        return w

    def _where(self, column: str) -> tuple[str, tuple[int, ...]]:
        if self.guild_id is None:
            return "", ()
        return f" AND {column} = ?", (self.guild_id,)

    async def read(self, c: Conn, after: int, upto: int) -> None:
        """Add the entries with ``after < id <= upto`` (of the scope's guild)."""
        if upto <= after:
            return
        before = self.count
        supply = await self._entries(c, after, upto)
        await self._sums(c, after, upto)
        await self._issuers(c, after, upto, supply)
        self.problems += await self._unbalanced(c, after, upto, self.count - before)

    async def _entries(self, c: Conn, after: int, upto: int) -> dict[tuple[int, str], int]:
        """Count the entries, add them to the ledger digest; their mints and burns counted.

        The digest is a sum of one term per guild and block of ``BLOCK`` ids: the hash of
        the guild's entries in that block. A range that starts inside a block takes that
        block's term as it stood (its entries up to ``after``, read again) out, and puts
        the term of the block as it stands now in: any split gives the same sum."""
        where, gp = self._where("guild_id")
        for block in range(after // BLOCK, (upto - 1) // BLOCK + 1):
            lo, hi = block * BLOCK, min((block + 1) * BLOCK, upto)
            rows = await c.fetchall(
                f"SELECT {ENTRY_COLUMNS} FROM bank_entries WHERE id > ? AND id <= ?{where}"
                " ORDER BY guild_id, id",
                (lo, hi, *gp),
            )
            for g, group in itertools.groupby(map(tuple, rows), key=GUILD):
                entries = list(group)
                tally = self.tally(int(g))
                tally.ledger += piece_hash(g, block, entries)
                if lo < after:
                    kept = [e for e in entries if e[0] <= after]
                    tally.ledger -= piece_hash(g, block, kept) if kept else 0
                    entries = entries[len(kept) :]
                tally.entries += len(entries)
                self.count += len(entries)
        return {
            (int(g), str(kind)): int(n)
            for g, kind, n in await c.fetchall(
                "SELECT guild_id, kind, COUNT(*) FROM bank_entries WHERE id > ? AND id <= ?"
                f" AND kind IN ('mint', 'burn'){where} GROUP BY guild_id, kind",
                (after, upto, *gp),
            )
        }

    async def _sums(self, c: Conn, after: int, upto: int) -> None:
        """Each account's postings: its sum, its balance digest, and whether they all come
        from entries of the account's guild (one pass; the strays are named after)."""
        where, gp = self._where("e.guild_id")
        stray = False
        for account_id, count, amount, low, high in await c.fetchall(
            "SELECT p.account_id, COUNT(*), SUM(p.amount), MIN(e.guild_id), MAX(e.guild_id)"
            " FROM bank_postings p JOIN bank_entries e ON e.id = p.entry_id"
            f" WHERE p.entry_id > ? AND p.entry_id <= ?{where} GROUP BY p.account_id",
            (after, upto, *gp),
        ):
            a, amount = int(account_id), int(amount)
            self.sums[a] = self.sums.get(a, 0) + amount
            owner = self.accounts.get(a)
            if owner is None or not owner.guild_id == int(low) == int(high):
                stray = True
            if owner is not None:
                tally = self.tally(owner.guild_id)
                tally.postings += int(count)
                tally.balances += self.weight(a) * amount
        if stray:
            self.problems += await self._strays(c, after, upto)

    async def _strays(self, c: Conn, after: int, upto: int) -> list[str]:
        where, gp = self._where("e.guild_id")
        return [
            f"entry {entry_id} posts to account {account_id} of another guild"
            for entry_id, account_id in await c.fetchall(
                "SELECT e.id, a.id FROM bank_postings p JOIN bank_entries e ON e.id = p.entry_id"
                " JOIN bank_accounts a ON a.id = p.account_id"
                f" WHERE p.entry_id > ? AND p.entry_id <= ?{where} AND a.guild_id <> e.guild_id"
                " ORDER BY e.id, a.id",
                (after, upto, *gp),
            )
        ]

    async def _issuers(
        self, c: Conn, after: int, upto: int, supply: dict[tuple[int, str], int]
    ) -> None:
        """What was minted and burned (the issuer's side), and the entries that touch an
        issuer other than once by a mint or burn, or a mint or burn that does not."""
        where, gp = self._where("e.guild_id")
        touched: dict[tuple[int, str], int] = {}
        bad = False
        for _, g, kind, count, amount in await c.fetchall(
            "SELECT e.id, e.guild_id, e.kind, COUNT(*), SUM(p.amount)"
            " FROM bank_postings p JOIN bank_entries e ON e.id = p.entry_id"
            f" WHERE p.account_id IN ({ISSUERS}) AND p.entry_id > ? AND p.entry_id <= ?{where}"
            " GROUP BY e.id, e.guild_id, e.kind",
            (after, upto, *gp),
        ):
            g, kind, amount = int(g), str(kind), int(amount)
            if kind not in SUPPLY or int(count) != 1:
                bad = True
                continue
            touched[g, kind] = touched.get((g, kind), 0) + 1
            if kind == "mint":
                self.tally(g).minted -= amount
            else:
                self.tally(g).burned += amount
        if bad or touched != supply:
            self.problems += await self._issuer_problems(c, after, upto)

    async def _issuer_problems(self, c: Conn, after: int, upto: int) -> list[str]:
        where, gp = self._where("e.guild_id")
        return [
            f"entry {entry_id} ({kind}): a mint/burn touches the issuer once, nothing else does"
            for entry_id, kind in await c.fetchall(
                "SELECT e.id, e.kind FROM bank_entries e"
                " LEFT JOIN bank_postings p ON p.entry_id = e.id"
                f" AND p.account_id IN ({ISSUERS}) WHERE e.id > ? AND e.id <= ?{where}"
                " GROUP BY e.id, e.kind HAVING COUNT(p.id)"
                " <> CASE WHEN e.kind IN ('mint', 'burn') THEN 1 ELSE 0 END ORDER BY e.id",
                (after, upto, *gp),
            )
        ]

    async def _unbalanced(self, c: Conn, after: int, upto: int, entries: int) -> list[str]:
        """Entries with fewer than two postings, or postings that do not sum to zero
        (``entries``: how many the range holds; fewer have postings: some have none)."""
        where, gp = self._where("e.guild_id")
        rows = await c.fetchall(
            "SELECT e.id, e.idem_key, q.net, q.n FROM (SELECT entry_id, SUM(amount) AS net,"
            " COUNT(*) AS n FROM bank_postings WHERE entry_id > ? AND entry_id <= ?"
            " GROUP BY entry_id HAVING COUNT(*) < 2 OR SUM(amount) <> 0) AS q"
            f" JOIN bank_entries e ON e.id = q.entry_id WHERE e.id > 0{where}",
            (after, upto, *gp),
        )
        posted = await c.fetchone(
            "SELECT COUNT(DISTINCT p.entry_id) FROM bank_postings p"
            + ("" if not gp else " JOIN bank_entries e ON e.id = p.entry_id")
            + f" WHERE p.entry_id > ? AND p.entry_id <= ?{where}",
            (after, upto, *gp),
        )
        if posted is None or int(posted[0]) != entries:
            rows += await c.fetchall(
                "SELECT e.id, e.idem_key, 0, 0 FROM bank_entries e"
                f" WHERE e.id > ? AND e.id <= ?{where} AND NOT EXISTS"
                " (SELECT 1 FROM bank_postings p WHERE p.entry_id = e.id)",
                (after, upto, *gp),
            )
        return [
            f"entry {entry_id} ({key}) unbalanced: {count} postings sum to {net}"
            for entry_id, key, net, count in sorted(rows, key=lambda r: int(r[0]))
        ]
