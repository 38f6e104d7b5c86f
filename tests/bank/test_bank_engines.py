"""Every game's money effects post cleanly: random legal play, every event's money
posted with the table's transaction, then CLOSE empties every escrow of the table."""

from __future__ import annotations

import contextlib
import random
from typing import Any

import pytest

from bot.bank import Bank
from bot.db import Conn, Database
from bot.engine.base import Action, ActionKind, IllegalAction, Phase
from bot.engine.registry import GAMES
from bot.engine.shuffle import seeded_entropy
from tests.bank.ledger import table_escrow
from tests.engine.cases import random_move

GUILD = 1001
HOST, P2, P3 = 1, 2, 3


@pytest.mark.parametrize("name", list(GAMES))
async def test_engine_money_posts_and_close_empties_escrow(
    bank: Bank, db: Database, name: str
) -> None:
    game = GAMES[name].build(HOST, {}, seeded_entropy(f"bank-{name}"))
    for p in (HOST, P2, P3):
        await bank.mint(GUILD, 10_000, user_id=p)
    rng = random.Random(name)
    table = 50
    posted = 0

    async def apply(action: Action, n: int) -> None:
        nonlocal posted
        events = game.apply(action)
        money = [m for e in events for m in e.money]

        async def _tx(conn: Conn) -> Any:
            await bank.post_effects(conn, GUILD, table, None, money, f"{name}:{n}")

        await db.write(_tx)
        posted += len(money)

    for p in (P2, P3):
        with contextlib.suppress(IllegalAction):
            await apply(Action(ActionKind.JOIN, p, amount=100), p)
    for n in range(10, 400):
        who: list[int | None] = [None, HOST, P2, P3]
        rng.shuffle(who)
        for player in who:
            kinds = sorted(game.legal_actions(player) - {ActionKind.CLOSE}, key=lambda k: k.value)
            if kinds:
                break
        else:
            break
        try:
            await apply(random_move(rng, rng.choice(kinds), player), n)
        except IllegalAction:
            continue
    if game.phase is not Phase.FINISHED:
        await apply(Action(ActionKind.CLOSE), 1000)
    escrow: dict[str, Any] = await table_escrow(bank.db, GUILD, table)
    assert all(v == 0 for v in escrow.values()), escrow
    assert (posted > 0) == GAMES[name].money  # Pirate 21 coins are not money
    for p in (HOST, P2, P3):
        await bank.claim(GUILD, p)
    assert await bank.claims(GUILD) == []
