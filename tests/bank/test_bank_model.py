"""Property: random sequences of bank operations match a simple model and audit clean."""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.bank import Bank, BankError
from bot.db import SqliteDatabase, migrate
from bot.engine.base import HOUSE, POT, Money, MoneyKind, seat
from tests.bank.ledger import leave_seat, seat_stats, sit_down
from tests.bank_audit import assert_audit_clean

GUILD = 1001
USERS = (1, 2, 3)
TABLES = (1, 2)
TREASURY = 10_000

amounts = st.integers(min_value=1, max_value=400)
ops = st.lists(
    st.one_of(
        st.tuples(st.just("mint"), st.sampled_from(USERS), amounts),
        st.tuples(st.just("transfer"), st.sampled_from(USERS), st.sampled_from(USERS), amounts),
        st.tuples(st.just("sit"), st.sampled_from(TABLES), st.sampled_from(USERS), amounts),
        st.tuples(
            st.just("hand"),
            st.sampled_from(TABLES),
            st.sampled_from(USERS),
            amounts,
            st.sampled_from(("win", "lose", "push")),
        ),
        st.tuples(st.just("leave"), st.sampled_from(TABLES), st.sampled_from(USERS)),
        st.tuples(st.just("claim"), st.sampled_from(USERS)),
    ),
    max_size=25,
)


async def _play(path: Path, script: list[tuple[Any, ...]]) -> None:
    db = await SqliteDatabase.open(path)
    await migrate(db)
    bank = Bank(db)
    await bank.ensure_guild(GUILD, treasury_initial=TREASURY)
    wallet = dict.fromkeys(USERS, 0)
    seats: dict[tuple[int, int], int] = {}
    owed = dict.fromkeys(USERS, 0)
    house = TREASURY
    try:
        for n, op in enumerate(script):
            kind = op[0]
            try:
                if kind == "mint":
                    _, u, a = op
                    await bank.mint(GUILD, a, user_id=u)
                    wallet[u] += a
                elif kind == "transfer":
                    _, u, v, a = op
                    await bank.transfer(GUILD, u, v, a)
                    wallet[u] -= a
                    wallet[v] += a
                elif kind == "sit":
                    _, t, u, a = op
                    await sit_down(bank, GUILD, t, u, buy_in=a)
                    wallet[u] -= a
                    seats[t, u] = seats.get((t, u), 0) + a
                elif kind == "hand":
                    _, t, u, a, result = op
                    effects = [Money(MoneyKind.BET, seat(u), POT, a)]
                    if result == "win":
                        effects += [
                            Money(MoneyKind.PAYOUT, POT, seat(u), a),
                            Money(MoneyKind.PAYOUT, HOUSE, seat(u), a),
                        ]
                    elif result == "lose":
                        effects.append(Money(MoneyKind.LOSS, POT, HOUSE, a))
                    else:
                        effects.append(Money(MoneyKind.REFUND, POT, seat(u), a))
                    await db.write(bank.post_effects, GUILD, t, n, effects, f"h{n}")
                    delta = {"win": a, "lose": -a, "push": 0}[result]
                    seats[t, u] += delta
                    house -= delta
                elif kind == "leave":
                    _, t, u = op
                    await leave_seat(bank, GUILD, t, u)
                    owed[u] += seats.pop((t, u), 0)
                else:
                    _, u = op
                    await bank.claim(GUILD, u)
                    wallet[u] += owed[u]
                    owed[u] = 0
            except BankError as exc:
                assert exc.code in ("insufficient_funds", "self_transfer", "unknown_account")
        for u in USERS:
            assert await bank.balance(GUILD, u) == wallet[u]
            assert sum(c.amount for c in await bank.claims(GUILD, u)) == owed[u]
        for (t, u), stack in seats.items():
            assert (await seat_stats(bank.db, GUILD, t, u)).stack == stack
        assert await bank.balance(GUILD, None) == house
        await assert_audit_clean(db)
        # a refused operation rolled back, so the model skipped it too: totals agree
        total = house + sum(wallet.values()) + sum(seats.values()) + sum(owed.values())
        assert total == (await assert_audit_clean(db)).circulating
    finally:
        await db.close()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ops)
def test_random_operations_match_model(script: list[tuple[Any, ...]]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        asyncio.run(_play(Path(tmp) / "model.sqlite3", script))
