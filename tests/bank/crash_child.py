"""Child process for test_bank_crash: posts a scripted burst of table money until killed.

Usage: python crash_child.py DB_PATH_OR_URL RUN SEED. Prints "ready" after its first commit.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import sys

from bot.bank import Bank, BankError
from bot.db import Conn, open_database
from bot.engine.base import HOUSE, POT, Money, MoneyKind, claim, seat, wallet

GUILD = 1001
PLAYERS = list(range(1, 7))
K = MoneyKind


async def game_step(
    conn: Conn,
    bank: Bank,
    table: int,
    state: str,
    rnd: int | None,
    postings: dict[str, list[Money]],
) -> None:
    """The game row in ``state`` and its postings, in the caller's one transaction."""
    await conn.execute(
        "INSERT INTO crash_games (table_id, state) VALUES (?, ?)"
        " ON CONFLICT (table_id) DO UPDATE SET state = excluded.state",
        (table, state),
    )
    for prefix, effects in postings.items():
        await bank.post_effects(conn, GUILD, table, rnd, effects, prefix)


async def burst(path: str, run: int, rng: random.Random) -> None:
    db = await open_database(path)
    bank = Bank(db)
    n = 0
    while True:
        n += 1
        table = run * 100_000 + n
        a, b = rng.sample(PLAYERS, 2)
        buy = {a: rng.randint(1, 50), b: rng.randint(0, 50)}
        joins = [
            m
            for p in (a, b)
            for m in (
                Money(K.BUY_IN, wallet(p), seat(p), buy[p]),
                Money(K.WELCOME_STAKE, HOUSE, seat(p), 100),
            )
        ]
        # the game row and its postings: one commit
        await db.write(game_step, bank, table, "open", None, {f"{table}:join": joins})
        if n == 1:
            print("ready", flush=True)
        stacks = {p: buy[p] + 100 for p in (a, b)}
        for rnd in range(1, rng.randint(2, 5)):
            bets = {p: rng.randint(1, stacks[p]) for p in (a, b) if stacks[p] > 0}
            if not bets:
                break
            effects = [Money(K.BET, seat(p), POT, x) for p, x in bets.items()]
            for p, x in bets.items():
                outcome = rng.choice(("win", "lose", "push"))
                if outcome == "win":
                    effects.append(Money(K.PAYOUT, POT, seat(p), x))
                    effects.append(Money(K.PAYOUT, HOUSE, seat(p), x))
                    stacks[p] += x
                elif outcome == "lose":
                    effects.append(Money(K.LOSS, POT, HOUSE, x))
                    stacks[p] -= x
                else:
                    effects.append(Money(K.REFUND, POT, seat(p), x))
            await db.write(game_step, bank, table, f"r{rnd}", rnd, {f"{table}:r{rnd}": effects})
        leaves = {}
        for p in (a, b):
            forfeit = min(stacks[p], 100) if rng.random() < 0.3 else 0
            leaves[f"{table}:leave:{p}"] = [
                Money(K.FORFEIT, seat(p), HOUSE, forfeit),
                Money(K.CASH_OUT, seat(p), claim(p), stacks[p] - forfeit),
            ]
        await db.write(game_step, bank, table, "closed", None, leaves)
        await bank.claim(GUILD, rng.choice(PLAYERS))
        with contextlib.suppress(BankError):
            await bank.transfer(GUILD, a, b, rng.randint(1, 20), key=f"{table}:gift")


def main() -> None:
    path, run, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    asyncio.run(burst(path, run, random.Random(seed)))


if __name__ == "__main__":
    main()
