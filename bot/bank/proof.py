"""What a bank audit proves, from its last checkpoint on (``bot.bank.audit``; on the
command line ``python -m bot audit``, :mod:`bot.cli.audit`).

Over one guild or all of them, an audit proves:

- every entry it covers has at least two postings summing to zero, posts only to accounts
  of its own guild, touches the issuer once if it is a mint or a burn and never otherwise,
  and has a non-empty idempotency key no other entry shares;
- every daily pay (``bot.bank.daily``) goes from its guild's treasury to one of its
  members, in one transfer of two postings;
- every account's cached balance is what the ledger makes it, and none but the issuer is
  below zero;
- each guild's accounts (issuer excepted) hold what was minted minus burned, the issuer
  the opposite, the claims account the open (pending + held) claims.

A clean audit records a checkpoint (migration 0011): for each guild, the entries and
postings it covered up to the ledger's last entry, what they minted and burned, a digest
of those entries (every column) and a digest of the balances they leave
(``balance_digest``: the sum of weight(account) * balance, the weight a BLAKE2b hash of
the account id, so a balance off by any amount changes it). Digests are sums modulo 2^256
(``bot.bank.scan``): the next audit extends them with the new entries' terms.

The next audit starts from the latest checkpoint of its scope (every guild: the latest
audit of every guild; one guild: the latest row of that guild, whichever audit wrote it).
It proves the entries after it one by one, and every cached balance at once: the guild's
balance digest, recomputed from the cached balances, must be the checkpoint's plus the
new postings'. It costs the new entries plus one pass over the accounts that hold money
or moved, not the history (counting the old entries, to see one removed, took 0.8 s of a
million on PostgreSQL). It catches any cached balance changed, any new entry wrong, the
totals off. It trusts what its checkpoint proved: an old entry or posting changed,
removed or slipped in (the append-only triggers refuse all three; someone with the
database in hand can drop them) is seen only by the full audit.

``full=True`` (and the first audit) proves every entry from the first, every account one
by one, and recomputes on the way the checkpoint the next audit would have started from
(older ones are history no audit reads again; the full audit's own checkpoint replaces
it): a changed checkpoint, or an old entry changed, removed or added (the ledger digest,
the counts, the balance digest), is named there. A digest is not a signature: whoever
can write the database can write a checkpoint to match their changes; recomputing it
from the entries is what the full audit can promise.

On PostgreSQL, processes commit at once: an entry may commit after one with a higher id,
which the audit's snapshot saw. The checkpoint is written under a SHARE lock on the
entries (writers in flight commit first, new ones wait for this short transaction), and
only if the entries up to its last are the ones it proved; else none is recorded this
time (the report says so) and the next audit starts from the previous one.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any, Final

from bot.db.base import Conn, Database

from .models import AuditReport
from .scan import MOD, Account, Scan, Tally

LATE_WINDOW: Final = 10_000  # entry ids below the last one counted again under the lock


@dataclass
class Proof:
    """An audit's result and the checkpoint it may record."""

    report: AuditReport
    guild_id: int | None
    parent_id: int | None  # the checkpoint it started from (None: a full audit)
    after: int  # the last entry of that checkpoint (0: from the first)
    last: int  # the last entry it covered
    proved: int  # entries it proved, after ``after``
    tallies: dict[int, Tally] = field(default_factory=dict)
    tail: tuple[int, int] = (0, 0)  # (from, count): its snapshot's entries in (from, last]


async def _one(c: Conn, sql: str, params: Iterable[object] = ()) -> Any:
    row = await c.fetchone(sql, tuple(params))
    assert row is not None
    return row


async def _accounts(c: Conn, guild_id: int | None, after: int) -> tuple[dict[int, Account], int]:
    """The scope's accounts (from a checkpoint on, those that hold money or moved since:
    an account at zero with no new posting adds nothing to any check) and their number."""
    where, params = ("", ()) if guild_id is None else (" AND guild_id = ?", (guild_id,))
    total = int(
        (await _one(c, f"SELECT COUNT(*) FROM bank_accounts WHERE id > 0{where}", params))[0]
    )
    some = (
        ""
        if not after
        else (
            " AND (balance <> 0 OR id IN (SELECT account_id FROM bank_postings WHERE entry_id > ?))"
        )
    )
    rows = await c.fetchall(
        f"SELECT id, guild_id, kind, table_id, user_id, balance FROM bank_accounts"
        f" WHERE id > 0{where}{some}",
        (*params, after) if after else params,
    )
    found = {
        int(r[0]): Account(int(r[1]), str(r[2]), int(r[3]), int(r[4]), int(r[5])) for r in rows
    }
    return found, total


async def _guilds(c: Conn, guild_id: int | None) -> list[int]:
    if guild_id is not None:
        return [guild_id]
    return [
        int(r[0]) for r in await c.fetchall("SELECT guild_id FROM bank_guilds ORDER BY guild_id")
    ]


CHECKPOINT_SQL: Final = (
    "SELECT a.id, a.last_entry_id, r.guild_id, r.entries, r.postings, r.minted, r.burned,"
    " r.ledger_digest, r.balance_digest FROM bank_audit_guilds r"
    " JOIN bank_audits a ON a.id = r.audit_id"
)


async def _base(c: Conn, guild_id: int | None) -> tuple[int, int, dict[int, Tally]] | None:
    """The checkpoint an incremental audit starts from: the latest of its scope (of every
    guild, or the latest row of this guild, whatever scope recorded it)."""
    if guild_id is None:
        found = await c.fetchone("SELECT MAX(id) FROM bank_audits WHERE guild_id IS NULL")
        if found is None or found[0] is None:
            return None
        rows = await c.fetchall(CHECKPOINT_SQL + " WHERE a.id = ?", (int(found[0]),))
    else:
        rows = await c.fetchall(
            CHECKPOINT_SQL + " WHERE r.guild_id = ? ORDER BY r.audit_id DESC LIMIT 1", (guild_id,)
        )
    if not rows:
        return None
    audit_id, last = int(rows[0][0]), int(rows[0][1])
    return audit_id, last, {int(r[2]): Tally.of([r[i] for i in range(3, 9)]) for r in rows}


async def prove(c: Conn, guild_id: int | None, full: bool) -> Proof:
    """Audit the scope in this snapshot: from its last checkpoint, or everything."""
    last = int((await _one(c, "SELECT COALESCE(MAX(id), 0) FROM bank_entries"))[0])
    base = None if full else await _base(c, guild_id)
    parent_id, after, start = base if base is not None else (None, 0, {})
    full = base is None  # no checkpoint yet: the first audit proves everything
    guilds = await _guilds(c, guild_id)
    accounts, counted = await _accounts(c, guild_id, after)
    scan = Scan(guild_id, accounts)
    scan.tallies = {g: replace(start.get(g, Tally())) for g in guilds}
    problems = scan.problems
    if full:
        await _verify_checkpoint(c, scan, last)
    else:
        await scan.read(c, after, last)
    problems += await _keys(c, guild_id, after)
    problems += await _daily_pays(c, guild_id, after)
    problems += _balances(scan, guilds, full)
    floats, stranded = await _floats(c, guild_id)
    problems += stranded
    totals = await _totals(c, scan, guilds)
    tallies = {g: scan.tallies[g] for g in guilds}
    report = AuditReport(
        guilds=len(guilds),
        accounts=counted,
        entries=sum(t.entries for t in tallies.values()),
        postings=sum(t.postings for t in tallies.values()),
        minted=sum(t.minted for t in tallies.values()),
        burned=sum(t.burned for t in tallies.values()),
        circulating=totals,
        problems=tuple(problems),
        full=full,
        after=after,
        proved=scan.count,
        floats=floats,
    )
    proof = Proof(report, guild_id, parent_id, after, last, scan.count, tallies)
    if c.concurrent:
        first = max(after, last - LATE_WINDOW)
        proof.tail = (first, await _count(c, guild_id, first, last))
    return proof


async def _floats(c: Conn, guild_id: int | None) -> tuple[int, list[str]]:
    """What the tables' floats hold, and a closed table whose float still holds money (its
    close returns all of it to the treasury)."""
    where = "a.kind = 'house' AND a.table_id <> 0" + (
        "" if guild_id is None else " AND a.guild_id = ?"
    )
    gp: tuple[int, ...] = () if guild_id is None else (guild_id,)
    held = await _one(
        c, f"SELECT COALESCE(SUM(a.balance), 0) FROM bank_accounts a WHERE {where}", gp
    )
    problems = [
        f"account {account_id} (float of closed table {table_id}) still holds {amount}"
        for account_id, table_id, amount in await c.fetchall(
            "SELECT a.id, a.table_id, a.balance FROM bank_accounts a"
            f" JOIN tables t ON t.id = a.table_id WHERE {where}"
            " AND t.status = 'closed' AND a.balance <> 0 ORDER BY a.id",
            gp,
        )
    ]
    return int(held[0]), problems


async def _count(c: Conn, guild_id: int | None, after: int, upto: int) -> int:
    """The scope's entries with ``after < id <= upto``."""
    sql = "SELECT COUNT(*) FROM bank_entries WHERE id > ? AND id <= ?"
    if guild_id is None:
        return int((await _one(c, sql, (after, upto)))[0])
    return int((await _one(c, sql + " AND guild_id = ?", (after, upto, guild_id)))[0])


async def _verify_checkpoint(c: Conn, scan: Scan, last: int) -> None:
    """Read the whole ledger, recomputing on the way the checkpoint the next incremental
    audit of the scope would start from (older ones are history no audit reads again)."""
    base = await _base(c, scan.guild_id)
    if base is None:
        await scan.read(c, 0, last)
        return
    audit_id, upto, recorded = base
    if upto > last:
        scan.problems.append(f"checkpoint {audit_id} covers entry {upto}, past the last {last}")
        upto = last
    await scan.read(c, 0, upto)
    for g, tally in sorted(recorded.items()):
        proved = scan.tally(g).row()
        if proved != tally.row():
            scan.problems.append(
                f"checkpoint {audit_id} (guild {g}, up to entry {upto}) does not match the"
                f" ledger: entries, postings, minted, burned, digests {tally.row()} != {proved}"
            )
    await scan.read(c, upto, last)


_PAID_BY: Final = (
    "EXISTS (SELECT 1 FROM bank_postings p JOIN bank_accounts a ON a.id = p.account_id"
    " WHERE p.entry_id = e.id AND a.guild_id = e.guild_id AND {})"
)


async def _daily_pays(c: Conn, guild_id: int | None, after: int) -> list[str]:
    """Daily pays (``bot.bank.daily``: reason 'daily pay' or a ``daily:`` key) that are not
    one transfer of two postings from the guild's treasury to one of its members."""
    where = "" if guild_id is None else " AND e.guild_id = ?"
    params = (after, *(() if guild_id is None else (guild_id,)))
    treasury = _PAID_BY.format("p.amount < 0 AND a.kind = 'house' AND a.table_id = 0")
    member = _PAID_BY.format("p.amount > 0 AND a.kind = 'player'")
    sql = (
        "SELECT e.id FROM bank_entries e WHERE e.id > ?"
        + where
        + " AND (e.reason = 'daily pay' OR e.idem_key LIKE 'daily:%')"
        " AND NOT (e.kind = 'transfer' AND e.reason = 'daily pay'"
        " AND (SELECT COUNT(*) FROM bank_postings q WHERE q.entry_id = e.id) = 2"
        f" AND {treasury} AND {member}) ORDER BY e.id"
    )
    return [
        f"entry {entry_id}: a daily pay goes from the guild's treasury to one member"
        for (entry_id,) in await c.fetchall(sql, params)
    ]


async def _keys(c: Conn, guild_id: int | None, after: int) -> list[str]:
    """Empty idempotency keys, and keys two entries share (from a checkpoint on: the new
    entries' keys, each looked up in the keys' index)."""
    where = "" if guild_id is None else " AND e.guild_id = ?"
    params = (after, *(() if guild_id is None else (guild_id,)))
    if not after:  # the whole ledger: one pass over the keys' index
        sql = (
            "SELECT MIN(e.id), e.idem_key FROM bank_entries e WHERE e.id > ?"
            + where
            + " GROUP BY e.idem_key HAVING COUNT(*) > 1 OR e.idem_key = '' ORDER BY MIN(e.id)"
        )
    else:
        sql = (
            "SELECT e.id, e.idem_key FROM bank_entries e WHERE e.id > ?"
            + where
            + " AND (e.idem_key = '' OR EXISTS (SELECT 1 FROM bank_entries o"
            " WHERE o.idem_key = e.idem_key AND o.id <> e.id)) ORDER BY e.id"
        )
    return [
        f"entry {entry_id}: idempotency key {key!r} is empty or used twice"
        for entry_id, key in await c.fetchall(sql, params)
    ]


def _balances(scan: Scan, guilds: list[int], full: bool) -> list[str]:
    """Cached balances against the ledger: one by one after a full read, else through
    each guild's balance digest (the checkpoint's plus the new entries')."""
    problems: list[str] = []
    held: dict[int, int] = {}
    for account_id, a in sorted(scan.accounts.items()):
        if a.kind != "issuer" and a.balance < 0:
            problems.append(f"account {account_id} ({a.kind}) is negative: {a.balance}")
        computed = scan.sums.get(account_id, 0)
        if full and a.balance != computed:
            problems.append(
                f"account {account_id} ({a.kind} guild={a.guild_id} table={a.table_id}"
                f" user={a.user_id}): cached {a.balance} != ledger {computed}"
            )
        if a.balance and not full:
            held[a.guild_id] = held.get(a.guild_id, 0) + scan.weight(account_id) * a.balance
    problems += [
        f"guild {g}: the cached balances are not the checkpoint's plus the entries after it"
        " (python -m bot audit --full names the accounts)"
        for g in guilds
        if not full and scan.tallies[g].balances % MOD != held.get(g, 0) % MOD
    ]
    return problems


async def _totals(c: Conn, scan: Scan, guilds: list[int]) -> int:
    """What circulates in the scope; each guild's accounts (issuer excepted) must hold
    what it minted minus burned, the issuer the opposite, the claims account the open
    claims (differences go to ``scan.problems``)."""
    held = dict.fromkeys(guilds, 0)
    issuer = dict.fromkeys(guilds, 0)
    escrow = dict.fromkeys(guilds, 0)
    for a in scan.accounts.values():
        if a.kind == "issuer":
            issuer[a.guild_id] = issuer.get(a.guild_id, 0) + a.balance
            continue
        held[a.guild_id] = held.get(a.guild_id, 0) + a.balance
        if a.kind == "claims":
            escrow[a.guild_id] = escrow.get(a.guild_id, 0) + a.balance
    where = "" if scan.guild_id is None else " AND guild_id = ?"
    owed = {
        int(g): int(total)
        for g, total in await c.fetchall(
            "SELECT guild_id, SUM(amount) FROM bank_claims WHERE status IN ('pending', 'held')"
            + where
            + " GROUP BY guild_id",
            () if scan.guild_id is None else (scan.guild_id,),
        )
    }
    for g in guilds:
        tally = scan.tallies[g]
        supply = tally.minted - tally.burned
        if held[g] != supply:
            scan.problems.append(
                f"guild {g}: accounts hold {held[g]} but minted {tally.minted}"
                f" - burned {tally.burned} = {supply}"
            )
        if issuer[g] != -supply:
            scan.problems.append(f"guild {g}: issuer balance {issuer[g]} != {-supply}")
        if escrow[g] != owed.get(g, 0):
            scan.problems.append(
                f"guild {g}: claims account holds {escrow[g]}, open claims {owed.get(g, 0)}"
            )
    return sum(held[g] for g in guilds)


async def record(c: Conn, proof: Proof) -> int | None:
    """Record a clean proof's checkpoint; None when an entry it did not see was committed
    below its last one meanwhile (PostgreSQL: a concurrent writer's earlier id)."""
    if c.concurrent:
        # Writers in flight commit first, new ones wait for this short transaction; then
        # the last ids are counted again. Only the last LATE_WINDOW: a writer in flight
        # that long is not one of the bot's (a move is a few milliseconds); if one ever
        # were, the next audit would find the balances off its checkpoint (an alarm, not
        # a miss) and the full audit would name it.
        await c.execute("LOCK TABLE bank_entries IN SHARE MODE")
        first, seen = proof.tail
        if await _count(c, proof.guild_id, first, proof.last) != seen:
            return None
    audit_id = await c.insert(
        "INSERT INTO bank_audits (guild_id, last_entry_id, parent_id) VALUES (?, ?, ?)",
        (proof.guild_id, proof.last, proof.parent_id),
    )
    assert audit_id is not None
    await c.executemany(
        "INSERT INTO bank_audit_guilds (audit_id, guild_id, entries, postings, minted, burned,"
        " ledger_digest, balance_digest) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        [(audit_id, g, *t.row()) for g, t in sorted(proof.tallies.items())],
    )
    return audit_id


async def run(db: Database, guild_id: int | None = None, *, full: bool = False) -> AuditReport:
    """Prove in one read snapshot, then record the checkpoint of a clean proof."""
    proof = await db.read_long(prove, guild_id, full)
    if not proof.report.ok:
        return proof.report
    checkpoint = await db.write(record, proof)
    return replace(proof.report, checkpoint=checkpoint, unrecorded=checkpoint is None)
