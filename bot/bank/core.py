"""The bank's core: every statement that reads or moves money.

Each public function here takes the open transaction's :class:`~bot.db.Conn` (the
service hands them to ``db.write``/``db.read``, or runs them inside the caller's
transaction). Mutating operations wrap themselves in a SAVEPOINT, so a refused operation
leaves the caller's transaction exactly as it was.

Money only moves through :func:`post_entry`: one journal row, two postings (debit the
source, credit the destination), a conditional ``UPDATE ... WHERE balance >= ?`` for the
debit (no read-then-write) and an idempotency key.
"""

from __future__ import annotations

import uuid
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any, Final

from bot.db.base import Conn, LedgerBatch, Memo
from bot.engine.events import Money, MoneyKind

from .errors import (
    ClaimDecided,
    ClaimNotHeld,
    ClaimRace,
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
    TABLE_LIMITS,
    ClaimLine,
    ClaimReceipt,
    FloatMove,
    GuildInfo,
    HistoryItem,
    HistoryPage,
    PostResult,
    Receipt,
)

NOW: Final = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')"
MAX_KEY_LENGTH: Final = 200

# MoneyKind -> ledger kind: one to one, same spelling.
LEDGER_KIND: Final[dict[MoneyKind, str]] = {kind: kind.value for kind in MoneyKind}


class _Unset:
    """Marker for "leave this setting unchanged"."""


UNSET: Final = _Unset()
SUPPLY_KINDS: Final = ("mint", "burn")  # the two entries that touch the issuer


# --------------------------------------------------------------------------- validation


def check_amount(amount: object, name: str = "amount") -> int:
    """A whole amount in 1..MAX_AMOUNT (bools and floats are refused)."""
    if isinstance(amount, bool) or not isinstance(amount, int):
        raise InvalidAmount(f"{name} must be an integer", amount=repr(amount))
    if amount <= 0 or amount > MAX_AMOUNT:
        raise InvalidAmount(f"{name} must be 1..{MAX_AMOUNT}", amount=amount)
    return amount


def check_optional_amount(amount: object, name: str) -> int:
    """Like :func:`check_amount` but 0 is allowed."""
    if isinstance(amount, int) and not isinstance(amount, bool) and amount == 0:
        return 0
    return check_amount(amount, name)


def check_id(value: object, name: str) -> int:
    """A guild, user or table id: a positive int."""
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise UnknownAccount(f"{name} must be a positive integer", **{name: repr(value)})
    return value


def check_key(key: str | None, kind: str) -> str:
    """The idempotency key, or a fresh random one."""
    if key is None:
        return f"{kind}:{uuid.uuid4().hex}"
    if not isinstance(key, str) or not key or len(key) > MAX_KEY_LENGTH:
        raise Duplicate("idempotency key must be a non-empty string", key=repr(key))
    return key


# ----------------------------------------------------------------------------- accounts


async def _one(c: Conn, sql: str, params: Sequence[object] = ()) -> Any:
    """The one row an aggregate query returns."""
    row = await c.fetchone(sql, params)
    assert row is not None
    return row


async def guild_settings(c: Conn, guild_id: int) -> tuple[int, int | None]:
    """(starting_balance, claim_approval_limit); UnknownAccount if the guild is not set up."""
    row = await c.fetchone(
        "SELECT starting_balance, claim_approval_limit FROM bank_guilds WHERE guild_id = ?",
        (guild_id,),
    )
    if row is None:
        raise UnknownAccount("guild not set up (ensure_guild)", guild_id=guild_id)
    return int(row[0]), None if row[1] is None else int(row[1])


async def find_account(
    c: Conn, guild_id: int, kind: str, table_id: int = 0, user_id: int = 0
) -> int | None:
    """The account's id, or None.

    Accounts are never deleted nor re-keyed, so the connection remembers a committed id
    (a move then posts without looking its accounts up)."""
    key = ("account", guild_id, kind, table_id, user_id)
    known: int | None = c.recall(key)
    if known is not None:
        return known
    row = await c.fetchone(
        "SELECT id FROM bank_accounts"
        " WHERE guild_id = ? AND kind = ? AND table_id = ? AND user_id = ?",
        (guild_id, kind, table_id, user_id),
    )
    if row is None:
        return None
    c.remember(key, int(row[0]))
    return int(row[0])


async def remember_accounts(
    c: Conn, tables: Sequence[tuple[int, int]], most: int = Memo.LIMIT // 2
) -> int:
    """Remember the ids of the accounts the moves of ``tables`` ((guild, table) pairs) post
    to: their seat, pot and fund accounts and their guilds' house and claims, so a table's
    first move after a start looks none of them up (its ids would come from a cold page of
    the index); the number remembered, at most about ``most`` (the memo starts again past
    its limit: the moves' own finds need the room)."""
    found = 0
    chunk = 500  # placeholders per query, far below either database's limit
    ids = [table_id for _guild, table_id in tables]
    guilds = sorted({guild for guild, _table in tables})
    queries = [("table_id IN ({})", ids[i : i + chunk]) for i in range(0, len(ids), chunk)] + [
        ("table_id = 0 AND kind IN ('house', 'claims') AND guild_id IN ({})", guilds[i : i + chunk])
        for i in range(0, len(guilds), chunk)
    ]
    for where, params in queries:
        rows = await c.fetchall(
            "SELECT id, guild_id, kind, table_id, user_id FROM bank_accounts WHERE "
            + where.format(", ".join("?" * len(params))),
            params,
        )
        for id_, guild_id, kind, table_id, user_id in rows:
            c.remember(("account", guild_id, kind, table_id, user_id), int(id_))
        found += len(rows)
        if found >= most:
            break
    return found


async def _create_account(
    c: Conn, guild_id: int, kind: str, table_id: int = 0, user_id: int = 0
) -> int:
    account = await c.insert(
        "INSERT INTO bank_accounts (guild_id, kind, table_id, user_id) VALUES (?, ?, ?, ?)",
        (guild_id, kind, table_id, user_id),
    )
    assert account is not None
    c.remember(("account", guild_id, kind, table_id, user_id), account)
    return account


async def escrow_account(c: Conn, guild_id: int, kind: str, table_id: int, user_id: int = 0) -> int:
    """A seat, pot or fund account, created on first use."""
    found = await find_account(c, guild_id, kind, table_id, user_id)
    return (
        found if found is not None else await _create_account(c, guild_id, kind, table_id, user_id)
    )


async def system_account(c: Conn, guild_id: int, kind: str) -> int:
    """The guild's issuer, house or claims account (made by ensure_guild)."""
    found = await find_account(c, guild_id, kind)
    if found is None:
        raise UnknownAccount("guild not set up (ensure_guild)", guild_id=guild_id)
    return found


async def player_account(c: Conn, guild_id: int, user_id: int, *, create: bool = True) -> int:
    """The player's account; opening it mints the guild's starting balance, if any."""
    found = await find_account(c, guild_id, "player", 0, user_id)
    if found is not None:
        return found
    if not create:
        raise UnknownAccount("no bank account", guild_id=guild_id, user_id=user_id)
    starting, _ = await guild_settings(c, guild_id)
    account = await _create_account(c, guild_id, "player", 0, user_id)
    if starting > 0:
        key = f"start:{guild_id}:{user_id}"
        await _issue(c, guild_id, "mint", key, account, starting, reason="starting balance")
    return account


async def account_balance(c: Conn, account_id: int) -> int:
    """The cached balance."""
    row = await c.fetchone("SELECT balance FROM bank_accounts WHERE id = ?", (account_id,))
    if row is None:
        raise UnknownAccount("no such account", account_id=account_id)
    return int(row[0])


async def _describe(c: Conn, account_id: int) -> dict[str, object]:
    row = await c.fetchone(
        "SELECT kind, table_id, user_id, balance FROM bank_accounts WHERE id = ?", (account_id,)
    )
    if row is None:
        return {"account_id": account_id}
    return {"account": row[0], "table_id": row[1], "user_id": row[2], "available": row[3]}


# ------------------------------------------------------------------------------ posting


async def post_entry(
    c: Conn,
    guild_id: int,
    kind: str,
    key: str,
    src: int,
    dst: int,
    amount: int,
    *,
    table_id: int | None = None,
    round_no: int | None = None,
    actor: int | None = None,
    reason: str | None = None,
    issuer_debit: bool = False,
) -> tuple[int, bool]:
    """Move ``amount`` from account ``src`` to account ``dst`` as one balanced entry.

    Returns (entry id, replayed). A key already posted with the same movement is a replay
    (nothing moves); with a different movement it is :class:`Duplicate`.
    """
    entry_id = await c.insert(
        "INSERT INTO bank_entries (guild_id, kind, idem_key, table_id, round_no, actor, reason)"
        " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (idem_key) DO NOTHING",
        (guild_id, kind, key, table_id, round_no, actor, reason),
    )
    if entry_id is None:
        return await _replay(c, guild_id, kind, key, src, dst, amount), True
    if issuer_debit:  # the issuer is the one account that goes below zero
        await c.execute(
            "UPDATE bank_accounts SET balance = balance - ? WHERE id = ?", (amount, src)
        )
    elif (
        await c.execute(
            "UPDATE bank_accounts SET balance = balance - ? WHERE id = ? AND balance >= ?",
            (amount, src, amount),
        )
        != 1
    ):
        raise InsufficientFunds("insufficient funds", amount=amount, **await _describe(c, src))
    await c.execute("UPDATE bank_accounts SET balance = balance + ? WHERE id = ?", (amount, dst))
    await c.executemany(
        "INSERT INTO bank_postings (entry_id, account_id, amount) VALUES (?, ?, ?)",
        ((entry_id, src, -amount), (entry_id, dst, amount)),
    )
    return entry_id, False


async def _replay(
    c: Conn, guild_id: int, kind: str, key: str, src: int, dst: int, amount: int
) -> int:
    row = await c.fetchone("SELECT id, guild_id, kind FROM bank_entries WHERE idem_key = ?", (key,))
    assert row is not None
    postings = [
        (int(r[0]), int(r[1]))
        for r in await c.fetchall(
            "SELECT account_id, amount FROM bank_postings WHERE entry_id = ? ORDER BY id",
            (row[0],),
        )
    ]
    if (int(row[1]), row[2], postings) != (guild_id, kind, [(src, -amount), (dst, amount)]):
        raise Duplicate("idempotency key already used for another movement", key=key)
    return int(row[0])


async def _issue(
    c: Conn,
    guild_id: int,
    kind: str,
    key: str,
    account: int,
    amount: int,
    *,
    actor: int | None = None,
    reason: str | None = None,
) -> tuple[int, bool]:
    """One mint (issuer -> ``account``) or burn (``account`` -> issuer) entry: the only
    code that changes how much money exists."""
    issuer = await system_account(c, guild_id, "issuer")
    src, dst = (issuer, account) if kind == "mint" else (account, issuer)
    return await post_entry(
        c,
        guild_id,
        kind,
        key,
        src,
        dst,
        amount,
        actor=actor,
        reason=reason,
        issuer_debit=kind == "mint",
    )


# --------------------------------------------------------------------------- game effects

_TABLE_ENDPOINTS: Final = frozenset({"seat", "pot", "fund"})


def parse_endpoint(endpoint: object) -> tuple[str, int]:
    """``'seat:42'`` -> ('seat', 42); ``'pot'`` -> ('pot', 0). UnknownAccount otherwise."""
    if isinstance(endpoint, str):
        if endpoint in ("pot", "house", "fund"):
            return endpoint, 0
        head, sep, tail = endpoint.partition(":")
        if (
            sep
            and head in ("wallet", "seat", "claim")
            and tail.isascii()
            and tail.isdigit()
            and len(tail) <= 20
            and int(tail) > 0
        ):
            return head, int(tail)
    raise UnknownAccount("unknown money endpoint", endpoint=repr(endpoint))


# (kind) -> (allowed source types, allowed destination types); None = any table/house one.
_SHAPES: Final[dict[MoneyKind, tuple[frozenset[str] | None, frozenset[str] | None]]] = {
    MoneyKind.BUY_IN: (frozenset({"wallet"}), frozenset({"seat"})),
    MoneyKind.TOP_UP: (frozenset({"wallet"}), frozenset({"seat"})),
    MoneyKind.WELCOME_STAKE: (frozenset({"house"}), frozenset({"seat"})),
    MoneyKind.BET: (frozenset({"seat"}), frozenset({"pot"})),
    MoneyKind.FORFEIT: (frozenset({"seat"}), frozenset({"house"})),
    MoneyKind.FUND_OPEN: (frozenset({"house"}), frozenset({"fund"})),
    MoneyKind.FUND_CLOSE: (frozenset({"fund"}), frozenset({"house"})),
    MoneyKind.CASH_OUT: (frozenset({"seat"}), frozenset({"claim"})),
    MoneyKind.PAYOUT: (None, frozenset({"seat"})),
    MoneyKind.REFUND: (frozenset({"pot", "seat"}), frozenset({"seat"})),
    MoneyKind.LOSS: (None, None),
}
_GAME_SIDE: Final = frozenset({"seat", "pot", "fund", "house"})


def _check_shape(m: Money, src: tuple[str, int], dst: tuple[str, int]) -> None:
    sources, targets = _SHAPES[m.kind]
    if not (src[0] in sources if sources is not None else src[0] in _GAME_SIDE) or not (
        dst[0] in targets if targets is not None else dst[0] in _GAME_SIDE
    ):
        raise InvalidEffect(
            "money effect between the wrong accounts", kind=m.kind.value, src=m.src, dst=m.dst
        )
    if src == dst:
        raise InvalidEffect("money effect from an account to itself", src=m.src)
    # money leaves a wallet only for its owner's seat, and a claim is its owner's stack
    if (src[0] == "wallet" or dst[0] == "claim") and src[1] != dst[1]:
        raise InvalidEffect("wallet/claim money must stay with its player", src=m.src, dst=m.dst)


async def _seat_counters(
    c: Conn,
    guild_id: int,
    table_id: int,
    user_id: int,
    *,
    welcome: int = 0,
    own: int = 0,
    wagered: int = 0,
    forfeited: int = 0,
    cashed_out: int = 0,
) -> None:
    await c.execute(
        "INSERT INTO bank_seats (guild_id, table_id, user_id, welcome_received, own_funds,"
        " wagered, forfeited, cashed_out) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
        " ON CONFLICT (guild_id, table_id, user_id) DO UPDATE SET"
        " welcome_received = bank_seats.welcome_received + excluded.welcome_received,"
        " own_funds = bank_seats.own_funds + excluded.own_funds,"
        " wagered = bank_seats.wagered + excluded.wagered,"
        " forfeited = bank_seats.forfeited + excluded.forfeited,"
        " cashed_out = bank_seats.cashed_out + excluded.cashed_out",
        (guild_id, table_id, user_id, welcome, own, wagered, forfeited, cashed_out),
    )


async def post_effects(
    c: Conn,
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
    """Post a game's money effects (see ``Bank.post_effects``).

    ``own_savepoint=False`` is for a caller whose whole transaction rolls back when this
    raises (a table move): the savepoint that makes the postings atomic by themselves
    would then be two statements for nothing. That caller's guild is set up (its table
    exists), so the guild's settings are read only for a cash-out (the claim limit).
    ``floated``: the effects' house is the table's float (``bot/tables/floats.py``)."""
    check_id(guild_id, "guild_id")
    check_id(table_id, "table_id")
    if not isinstance(idem_prefix, str) or not idem_prefix or len(idem_prefix) > 150:
        raise Duplicate("idem_prefix must be a non-empty string", key=repr(idem_prefix))
    args = (c, guild_id, table_id, round_no, effects, idem_prefix, actor)
    if not own_savepoint:  # a table's guild is set up: its settings are read for a cash-out
        if c.batches:
            batched = await _post_batched(*args, floated=floated)
            if batched is not None:
                return batched
        return await _post_effects(*args, floated=floated)
    async with c.savepoint():
        _, known = await guild_settings(c, guild_id)  # UnknownAccount first for an unknown guild
        return await _post_effects(*args, known, floated=floated)


def _skipped(m: object, index: int) -> bool:
    """True for a zero amount (nothing to post); InvalidEffect for what is not Money."""
    if not isinstance(m, Money) or not isinstance(m.kind, MoneyKind):
        raise InvalidEffect("not a Money effect", index=index)
    return m.amount == 0


async def _claim_of(c: Conn, entry_id: int) -> int | None:
    """The claim a cash-out entry opened."""
    row = await c.fetchone("SELECT id FROM bank_claims WHERE entry_id = ?", (entry_id,))
    return None if row is None else int(row[0])


async def _book(
    c: Conn,
    kind: MoneyKind,
    amount: int,
    players: tuple[int, int],
    guild_id: int,
    table_id: int,
    entry_id: int,
    limit: int | _Unset | None,
) -> int | None:
    """The seat counters of one newly posted effect (``players``: its source's and its
    destination's), and for a cash-out its claim (held above ``limit``): its id."""
    src, dst = players
    if kind is MoneyKind.WELCOME_STAKE:
        row = await c.fetchone(
            "SELECT welcome_received FROM bank_seats"
            " WHERE guild_id = ? AND table_id = ? AND user_id = ?",
            (guild_id, table_id, dst),
        )
        if row is not None and row[0] > 0:
            raise WelcomeStakeTaken(
                "welcome stake already given at this table", table_id=table_id, user_id=dst
            )
        await _seat_counters(c, guild_id, table_id, dst, welcome=amount)
    elif kind in (MoneyKind.BUY_IN, MoneyKind.TOP_UP):
        await _seat_counters(c, guild_id, table_id, dst, own=amount)
    elif kind is MoneyKind.BET:
        await _seat_counters(c, guild_id, table_id, src, wagered=amount)
    elif kind is MoneyKind.FORFEIT:
        await _seat_counters(c, guild_id, table_id, src, forfeited=amount)
    elif kind is MoneyKind.CASH_OUT:
        await _seat_counters(c, guild_id, table_id, src, cashed_out=amount)
        held = isinstance(limit, int) and amount > limit
        return await c.insert(
            "INSERT INTO bank_claims (guild_id, user_id, table_id, amount, status, entry_id)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            (guild_id, src, table_id, amount, "held" if held else "pending", entry_id),
        )
    return None


def _resolver(
    c: Conn,
    guild_id: int,
    table_id: int,
    accounts: dict[tuple[str, int], int],
    floated: bool = False,
) -> Callable[[tuple[str, int]], Awaitable[int]]:
    """An endpoint's account (found or opened), remembered in ``accounts``; ``floated``:
    the house is the table's float, not the treasury."""

    async def resolve(endpoint: tuple[str, int]) -> int:
        found = accounts.get(endpoint)
        if found is None:
            kind, user = endpoint
            if kind == "wallet":
                found = await player_account(c, guild_id, user)
            elif kind in _TABLE_ENDPOINTS:
                found = await escrow_account(c, guild_id, kind, table_id, user)
            elif kind == "house" and floated:
                found = await escrow_account(c, guild_id, "house", table_id)
            else:  # house, claim
                found = await system_account(c, guild_id, "house" if kind == "house" else "claims")
            accounts[endpoint] = found
        return found

    return resolve


_SEAT_COUNTER: Final = {  # kind -> (counter: 0 own funds, 1 wagered, 2 forfeited; its player)
    MoneyKind.BUY_IN: (0, "dst"),
    MoneyKind.TOP_UP: (0, "dst"),
    MoneyKind.BET: (1, "src"),
    MoneyKind.FORFEIT: (2, "src"),
}
_NOT_BATCHED: Final = frozenset({MoneyKind.WELCOME_STAKE, MoneyKind.CASH_OUT})  # read first


async def _post_batched(
    c: Conn,
    guild_id: int,
    table_id: int,
    round_no: int | None,
    effects: Sequence[Money],
    idem_prefix: str,
    actor: int | None,
    *,
    floated: bool = False,
) -> PostResult | None:
    """A move's effects as one :class:`LedgerBatch` (a network database's one round trip):
    the same entries, postings, conditional debits and seat counters as :func:`post_entry`
    one by one. None (nothing written) for the careful path: a welcome stake or a cash-out
    (they read first), no effect, or keys used before (a replay)."""
    accounts: dict[tuple[str, int], int] = {}
    resolve = _resolver(c, guild_id, table_id, accounts, floated)
    entries: list[tuple[str, str, str | None]] = []
    postings: list[tuple[str, int, int]] = []
    balances: dict[int, list[int]] = {}  # account -> [change so far, lowest change so far]
    seats: dict[int, list[int]] = {}
    for index, m in enumerate(effects):
        if _skipped(m, index):
            continue
        if m.kind in _NOT_BATCHED:
            return None
        amount = check_amount(m.amount)
        src, dst = parse_endpoint(m.src), parse_endpoint(m.dst)
        _check_shape(m, src, dst)
        key = f"{idem_prefix}:{index}"
        entries.append((LEDGER_KIND[m.kind], key, None if m.exact is None else f"exact {m.exact}"))
        for account, change in ((await resolve(src), -amount), (await resolve(dst), amount)):
            postings.append((key, account, change))
            running = balances.setdefault(account, [0, 0])
            running[0] += change
            running[1] = min(running[1], running[0])
        counter = _SEAT_COUNTER.get(m.kind)
        if counter is not None:
            user = (src if counter[1] == "src" else dst)[1]
            seats.setdefault(user, [0, 0, 0])[counter[0]] += amount
    if not entries:
        return None
    batch = LedgerBatch(
        guild_id,
        table_id,
        round_no,
        actor,
        entries,
        postings,
        # by account: concurrent moves then tend to lock the rows they share in one order
        # (the plan walks the arrays; a deadlock that still happens is run again)
        [(a, change, -lowest) for a, (change, lowest) in sorted(balances.items())],
        [(user, *counts) for user, counts in seats.items()],  # type: ignore[misc]
    )
    written = await c.post_ledger(batch)
    if written is None:
        return None
    entry_ids, all_changed = written
    if not all_changed:
        await _refuse_short(c, batch)
    return PostResult(tuple(entry_ids), (), False)


async def _refuse_short(c: Conn, batch: LedgerBatch) -> None:
    """InsufficientFunds for the first account of a batch that held too little (the
    caller's transaction rolls back)."""
    for account, _, least in batch.balances:
        held = await account_balance(c, account)
        if held < least:
            raise InsufficientFunds(
                "insufficient funds", amount=least, **await _describe(c, account)
            )
    raise InsufficientFunds("insufficient funds")


async def _post_effects(
    c: Conn,
    guild_id: int,
    table_id: int,
    round_no: int | None,
    effects: Sequence[Money],
    idem_prefix: str,
    actor: int | None,
    limit: int | _Unset | None = UNSET,
    *,
    floated: bool = False,
) -> PostResult:
    """``limit``: the guild's claim approval limit (read for a cash-out when UNSET)."""
    accounts: dict[tuple[str, int], int] = {}
    resolve = _resolver(c, guild_id, table_id, accounts, floated)

    entry_ids: list[int] = []
    claim_ids: list[int] = []
    all_replayed = True
    for index, m in enumerate(effects):
        if _skipped(m, index):
            continue
        amount = check_amount(m.amount)
        src, dst = parse_endpoint(m.src), parse_endpoint(m.dst)
        _check_shape(m, src, dst)
        entry_id, replayed = await post_entry(
            c,
            guild_id,
            LEDGER_KIND[m.kind],
            f"{idem_prefix}:{index}",
            accounts.get(src) or await resolve(src),  # ids start at 1
            accounts.get(dst) or await resolve(dst),
            amount,
            table_id=table_id,
            round_no=round_no,
            actor=actor,
            reason=None if m.exact is None else f"exact {m.exact}",
        )
        entry_ids.append(entry_id)
        if replayed:
            claim_id = await _claim_of(c, entry_id) if m.kind is MoneyKind.CASH_OUT else None
        else:
            all_replayed = False
            if m.kind is MoneyKind.CASH_OUT and isinstance(limit, _Unset):
                limit = (await guild_settings(c, guild_id))[1]
            players = (src[1], dst[1])
            claim_id = await _book(c, m.kind, amount, players, guild_id, table_id, entry_id, limit)
        if claim_id is not None:
            claim_ids.append(claim_id)
    return PostResult(tuple(entry_ids), tuple(claim_ids), bool(entry_ids) and all_replayed)


# ------------------------------------------------------------------------ table floats


async def fill_float(
    c: Conn, guild_id: int, table_id: int, target: int, low: int, key: str
) -> FloatMove | None:
    """Refill the table's float (``bot/tables/floats.py``) to ``target`` from the treasury
    when it holds less than ``low``: one ``fund_open`` entry; None when it needs none. A
    treasury that cannot give it all gives nothing (``lacking``: what it misses) and the
    caller's transaction goes on: a round is not refused for it."""
    account = await escrow_account(c, guild_id, "house", table_id)
    held = await account_balance(c, account)
    if held >= low or held >= target:
        return None
    house = await system_account(c, guild_id, "house")
    treasury = await account_balance(c, house)
    amount = target - held
    if treasury >= amount:
        try:
            async with c.savepoint():  # another process may drain it first (PostgreSQL)
                entry, _ = await post_entry(
                    c, guild_id, "fund_open", key, house, account, amount,
                    table_id=table_id, reason="float fill",
                )  # fmt: skip
        except InsufficientFunds:
            treasury = await account_balance(c, house)
        else:
            return FloatMove("fill", amount, target, treasury - amount, entry_id=entry)
    return FloatMove("fill", 0, held, treasury, lacking=amount - treasury)


async def credit_float(c: Conn, guild_id: int, table_id: int, key: str) -> FloatMove | None:
    """Return all the (closing) table's float to the treasury: one ``fund_close`` entry;
    None when it holds nothing."""
    account = await find_account(c, guild_id, "house", table_id)
    held = 0 if account is None else await account_balance(c, account)
    if account is None or held == 0:
        return None
    house = await system_account(c, guild_id, "house")
    entry, _ = await post_entry(
        c, guild_id, "fund_close", key, account, house, held,
        table_id=table_id, reason="float credit",
    )  # fmt: skip
    return FloatMove("credit", held, 0, await account_balance(c, house), entry_id=entry)


async def float_balance(c: Conn, guild_id: int, table_id: int) -> int:
    """What the table's float holds (0 before it has one)."""
    account = await find_account(c, guild_id, "house", table_id)
    return 0 if account is None else await account_balance(c, account)


# ------------------------------------------------------------------------ guild, accounts


async def ensure_guild(
    c: Conn,
    guild_id: int,
    treasury_initial: int,
    starting_balance: int,
    claim_approval_limit: int | None,
) -> GuildInfo:
    """Set the guild up once: accounts, settings, and the treasury minted as a mint entry.
    An existing guild is left as it is (use configure_guild to change settings)."""
    check_id(guild_id, "guild_id")
    treasury_initial = check_optional_amount(treasury_initial, "treasury_initial")
    starting_balance = check_optional_amount(starting_balance, "starting_balance")
    if claim_approval_limit is not None:
        claim_approval_limit = check_optional_amount(claim_approval_limit, "claim_approval_limit")
    async with c.savepoint():
        created = (
            await c.execute(
                "INSERT INTO bank_guilds (guild_id, starting_balance, claim_approval_limit)"
                " VALUES (?, ?, ?) ON CONFLICT (guild_id) DO NOTHING",
                (guild_id, starting_balance, claim_approval_limit),
            )
            == 1
        )
        if created:
            for kind in ("issuer", "house", "claims"):
                await _create_account(c, guild_id, kind)
            if treasury_initial > 0:
                house = await system_account(c, guild_id, "house")
                key = f"treasury:{guild_id}"
                await _issue(
                    c, guild_id, "mint", key, house, treasury_initial, reason="initial treasury"
                )
        return await guild_info(c, guild_id, created=created)


async def guild_info(c: Conn, guild_id: int, *, created: bool = False) -> GuildInfo:
    """The guild's settings, table limits and treasury balance."""
    starting, limit = await guild_settings(c, guild_id)
    treasury = await account_balance(c, await system_account(c, guild_id, "house"))
    row = await _one(
        c, f"SELECT {', '.join(TABLE_LIMITS)} FROM bank_guilds WHERE guild_id = ?", (guild_id,)
    )
    limits = {name: int(value) for name, value in zip(TABLE_LIMITS, row, strict=True)}
    return GuildInfo(guild_id, starting, limit, treasury, created, **limits)


async def configure_guild(
    c: Conn,
    guild_id: int,
    starting_balance: int | None,
    claim_approval_limit: int | _Unset | None,
    table_limits: Mapping[str, int] | None = None,
) -> GuildInfo:
    """Change settings (None / UNSET leaves one unchanged; a None limit means no limit).
    ``table_limits`` maps names of ``TABLE_LIMITS`` to their new values."""
    async with c.savepoint():
        await guild_settings(c, guild_id)
        for name, value in (table_limits or {}).items():
            if name not in TABLE_LIMITS:
                raise InvalidAmount("unknown table limit", name=name)
            # a floor is at least 1 (a bet of 0 is no bet), a ceiling may be 0
            check = check_amount if name.startswith("min_") else check_optional_amount
            value = check(value, name)
            # the name is one of TABLE_LIMITS (checked above), never user text
            await c.execute(
                f"UPDATE bank_guilds SET {name} = ? WHERE guild_id = ?", (value, guild_id)
            )
        if starting_balance is not None:
            starting_balance = check_optional_amount(starting_balance, "starting_balance")
            await c.execute(
                "UPDATE bank_guilds SET starting_balance = ? WHERE guild_id = ?",
                (starting_balance, guild_id),
            )
        if not isinstance(claim_approval_limit, _Unset):
            if claim_approval_limit is not None:
                claim_approval_limit = check_optional_amount(
                    claim_approval_limit, "claim_approval_limit"
                )
            await c.execute(
                "UPDATE bank_guilds SET claim_approval_limit = ? WHERE guild_id = ?",
                (claim_approval_limit, guild_id),
            )
        return await guild_info(c, guild_id)


async def open_account(c: Conn, guild_id: int, user_id: int) -> int:
    """Open the player's account if needed; return its balance."""
    check_id(guild_id, "guild_id")
    check_id(user_id, "user_id")
    async with c.savepoint():
        return await account_balance(c, await player_account(c, guild_id, user_id))


# --------------------------------------------------------------------- admin and players


async def _subject(c: Conn, guild_id: int, user_id: int | None) -> int:
    if user_id is None:
        await guild_settings(c, guild_id)
        return await system_account(c, guild_id, "house")
    check_id(user_id, "user_id")
    return await player_account(c, guild_id, user_id)


async def change_supply(
    c: Conn,
    kind: str,
    guild_id: int,
    amount: int,
    user_id: int | None,
    actor: int | None,
    reason: str | None,
    key: str | None,
) -> Receipt:
    """Mint (create) money into, or burn (destroy) money from, a player's account, or the
    treasury's when user_id is None."""
    if kind not in SUPPLY_KINDS:
        raise ValueError(f"kind must be one of {SUPPLY_KINDS}, not {kind!r}")
    check_id(guild_id, "guild_id")
    amount = check_amount(amount)
    key = check_key(key, kind)
    async with c.savepoint():
        account = await _subject(c, guild_id, user_id)
        entry, replayed = await _issue(
            c, guild_id, kind, key, account, amount, actor=actor, reason=reason
        )
        return Receipt(entry, key, kind, amount, await account_balance(c, account), replayed)


async def transfer(
    c: Conn,
    guild_id: int,
    sender: int,
    recipient: int,
    amount: int,
    recipient_is_bot: bool,
    reason: str | None,
    key: str | None,
) -> Receipt:
    """A player gives money to another player; ``balance`` is the sender's."""
    check_id(guild_id, "guild_id")
    check_id(sender, "user_id")
    check_id(recipient, "user_id")
    amount = check_amount(amount)
    if sender == recipient:
        raise SelfTransfer("cannot transfer to yourself", user_id=sender)
    if recipient_is_bot:
        raise TransferToBot("cannot transfer to a bot", user_id=recipient)
    key = check_key(key, "transfer")
    async with c.savepoint():
        await guild_settings(c, guild_id)
        src = await player_account(c, guild_id, sender, create=False)
        dst = await player_account(c, guild_id, recipient)
        entry, replayed = await post_entry(
            c, guild_id, "transfer", key, src, dst, amount, actor=sender, reason=reason
        )
        return Receipt(entry, key, "transfer", amount, await account_balance(c, src), replayed)


# ------------------------------------------------------------------------------- claims


def _claim_line(row: Any) -> ClaimLine:
    return ClaimLine(
        int(row[0]),
        int(row[1]),
        None if row[2] is None else int(row[2]),
        int(row[3]),
        str(row[4]),
        str(row[5]),
    )


_CLAIM_COLUMNS: Final = "id, user_id, table_id, amount, status, created_at"


async def claims(
    c: Conn, guild_id: int, user_id: int | None, statuses: Sequence[str]
) -> list[ClaimLine]:
    """Claims of a user (or of everyone) with the given statuses, oldest first."""
    marks = ", ".join("?" * len(statuses))
    sql = f"SELECT {_CLAIM_COLUMNS} FROM bank_claims WHERE guild_id = ? AND status IN ({marks})"
    params: list[object] = [guild_id, *statuses]
    if user_id is not None:
        sql += " AND user_id = ?"
        params.append(user_id)
    return [_claim_line(r) for r in await c.fetchall(sql + " ORDER BY id", params)]


async def _pay_claims(
    c: Conn,
    guild_id: int,
    user_id: int,
    lines: list[ClaimLine],
    approved_by: int | None,
) -> tuple[int, int]:
    """Pay ``lines`` (all the user's) into the balance; return (entry id, new balance)."""
    total = sum(line.amount for line in lines)
    ids = [line.claim_id for line in lines]
    player = await player_account(c, guild_id, user_id)
    # a claim is paid once, so its smallest id names the payment
    entry, replayed = await post_entry(
        c,
        guild_id,
        "claim_paid",
        f"claim_paid:{guild_id}:{min(ids)}",
        await system_account(c, guild_id, "claims"),
        player,
        total,
        actor=approved_by or user_id,
        reason="claims " + ",".join(map(str, ids)),
    )
    marks = ", ".join("?" * len(ids))
    updated = await c.execute(
        f"UPDATE bank_claims SET status = 'paid', paid_entry_id = ?, paid_at = {NOW},"
        f" approved_by = ? WHERE id IN ({marks}) AND status IN ('pending', 'held')",
        (entry, approved_by, *ids),
    )
    if replayed or updated != len(ids):  # only a concurrent payer (PostgreSQL): run again
        raise ClaimRace("claim already paid", claim_ids=ids)
    return entry, await account_balance(c, player)


async def claim(
    c: Conn, guild_id: int, user_id: int, claim_ids: Sequence[int] | None
) -> ClaimReceipt:
    """Pay every payable pending claim of the user (or the listed ones) exactly once."""
    check_id(guild_id, "guild_id")
    check_id(user_id, "user_id")
    async with c.savepoint():
        await guild_settings(c, guild_id)
        if claim_ids is None:
            open_claims = await claims(c, guild_id, user_id, ("pending", "held"))
        else:
            wanted = {check_id(i, "claim_id") for i in claim_ids}
            marks = ", ".join("?" * len(wanted))
            rows = [
                _claim_line(r)
                for r in await c.fetchall(
                    f"SELECT {_CLAIM_COLUMNS} FROM bank_claims"
                    f" WHERE guild_id = ? AND id IN ({marks}) ORDER BY id",
                    (guild_id, *wanted),
                )
            ]
            missing = wanted - {line.claim_id for line in rows}
            if missing:
                raise UnknownClaim("no such claim", claim_id=min(missing))
            for line in rows:
                if line.user_id != user_id:
                    raise NotYourClaim("not your claim", claim_id=line.claim_id)
            open_claims = [line for line in rows if line.status in ("pending", "held")]
        pay = [line for line in open_claims if line.status == "pending"]
        held = tuple(line for line in open_claims if line.status == "held")
        if not pay:
            player = await find_account(c, guild_id, "player", 0, user_id)
            balance = 0 if player is None else await account_balance(c, player)
            return ClaimReceipt(user_id, (), held, 0, balance, None)
        entry, balance = await _pay_claims(c, guild_id, user_id, pay, None)
        paid = tuple(
            ClaimLine(p.claim_id, p.user_id, p.table_id, p.amount, "paid", p.created_at)
            for p in pay
        )
        return ClaimReceipt(user_id, paid, held, sum(p.amount for p in pay), balance, entry)


async def _held_claim(c: Conn, guild_id: int, claim_id: int, admin_id: int) -> ClaimLine:
    """The claim an admin approves or rejects, locked: it must exist and wait for approval."""
    check_id(guild_id, "guild_id")
    check_id(claim_id, "claim_id")
    check_id(admin_id, "user_id")
    # an UPDATE that changes nothing locks the row until this decision commits: on
    # PostgreSQL a decision at the same moment waits for it, then finds the claim decided
    row = await c.fetchone(
        f"UPDATE bank_claims SET status = status WHERE guild_id = ? AND id = ?"
        f" AND status = 'held' RETURNING {_CLAIM_COLUMNS}",
        (guild_id, claim_id),
    )
    if row is not None:
        return _claim_line(row)
    row = await c.fetchone(
        "SELECT status FROM bank_claims WHERE guild_id = ? AND id = ?", (guild_id, claim_id)
    )
    if row is None:
        raise UnknownClaim("no such claim", claim_id=claim_id)
    status = str(row[0])
    if status in ("paid", "rejected"):
        raise ClaimDecided("claim already decided", claim_id=claim_id, status=status)
    raise ClaimNotHeld("claim is not waiting for approval", claim_id=claim_id, status=status)


async def approve_claim(c: Conn, guild_id: int, claim_id: int, admin_id: int) -> ClaimReceipt:
    """An admin (not the claimant) approves a held claim: it is paid at once."""
    async with c.savepoint():
        line = await _held_claim(c, guild_id, claim_id, admin_id)
        if line.user_id == admin_id:
            raise SelfApproval("cannot approve your own claim", claim_id=claim_id)
        entry, balance = await _pay_claims(c, guild_id, line.user_id, [line], admin_id)
        paid = ClaimLine(
            line.claim_id, line.user_id, line.table_id, line.amount, "paid", line.created_at
        )
        return ClaimReceipt(line.user_id, (paid,), (), line.amount, balance, entry)


async def reject_claim(
    c: Conn, guild_id: int, claim_id: int, admin_id: int, reason: str
) -> ClaimLine:
    """An admin rejects a held claim: what waited in the claims account goes back to the
    treasury (one entry), and the claim is closed as rejected, with the reason."""
    async with c.savepoint():
        line = await _held_claim(c, guild_id, claim_id, admin_id)
        entry, _replayed = await post_entry(
            c,
            guild_id,
            "admin_adjust",
            f"claim_rejected:{guild_id}:{claim_id}",
            await system_account(c, guild_id, "claims"),
            await system_account(c, guild_id, "house"),
            line.amount,
            table_id=line.table_id,
            actor=admin_id,
            reason=f"claim {claim_id} rejected: {reason}"[:500],
        )
        updated = await c.execute(
            "UPDATE bank_claims SET status = 'rejected', rejected_entry_id = ?,"
            " approved_by = ?, reject_reason = ? WHERE id = ? AND status = 'held'",
            (entry, admin_id, reason[:500], claim_id),
        )
        if updated != 1:  # cannot happen: _held_claim locked the held row
            raise Duplicate("claim already closed", claim_ids=[claim_id])
        return ClaimLine(
            line.claim_id, line.user_id, line.table_id, line.amount, "rejected", line.created_at
        )


# -------------------------------------------------------------------------------- reads


async def balance(c: Conn, guild_id: int, user_id: int | None) -> int:
    """A player's balance (0 without an account), or the treasury's when user_id is None."""
    if user_id is None:
        return await account_balance(c, await system_account(c, guild_id, "house"))
    account = await find_account(c, guild_id, "player", 0, user_id)
    return 0 if account is None else await account_balance(c, account)


async def has_account(c: Conn, guild_id: int, user_id: int) -> bool:
    """Whether the player has an account in the guild."""
    return await find_account(c, guild_id, "player", 0, user_id) is not None


async def spendable(c: Conn, guild_id: int, user_id: int) -> int:
    """What the player could spend now: the balance, or the starting balance an account
    would open with (read only: nothing is created)."""
    account = await find_account(c, guild_id, "player", 0, user_id)
    if account is not None:
        return await account_balance(c, account)
    return (await guild_settings(c, guild_id))[0]


async def history(
    c: Conn, guild_id: int, user_id: int | None, limit: int, before: int | None
) -> HistoryPage:
    """Movements of a player's balance (the treasury's if user_id is None), newest first."""
    if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= 100:
        raise InvalidAmount("limit must be 1..100", amount=repr(limit))
    kind, user = ("house", 0) if user_id is None else ("player", user_id)
    account = await find_account(c, guild_id, kind, 0, user)
    if account is None:
        return HistoryPage((), None)
    rows = await c.fetchall(
        "SELECT e.id, e.kind, p.amount, e.table_id, e.round_no, e.actor, e.reason, e.created_at"
        " FROM bank_postings p JOIN bank_entries e ON e.id = p.entry_id"
        " WHERE p.account_id = ? AND p.entry_id < ? ORDER BY p.entry_id DESC LIMIT ?",
        (account, before if before is not None else 2**63 - 1, limit),
    )
    items = tuple(HistoryItem(*r) for r in rows)
    return HistoryPage(items, items[-1].entry_id if len(items) == limit else None)


async def leaderboard(c: Conn, guild_id: int, limit: int) -> list[tuple[int, int]]:
    """The richest players: (user_id, balance), highest first."""
    if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= 100:
        raise InvalidAmount("limit must be 1..100", amount=repr(limit))
    return [
        (int(u), int(b))
        for u, b in await c.fetchall(
            "SELECT user_id, balance FROM bank_accounts WHERE guild_id = ? AND kind = 'player'"
            " AND balance > 0 ORDER BY balance DESC, user_id LIMIT ?",
            (guild_id, limit),
        )
    ]
