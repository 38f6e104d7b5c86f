"""A player's last rounds (/stats rounds) read from round_results on both databases:
newest first, at most ten, one game, one guild, a table whose row is gone, the index."""

from __future__ import annotations

import pytest

from bot.db import Conn, Database
from bot.stats.service import StatsService
from bot.stats.store import PlayedRound

GUILD, OTHER_GUILD = 1, 2
ALICE, BOB = 101, 102
T0 = 1_790_000_000.0


async def seed(conn: Conn) -> None:
    """Table 7 (its thread 700) and alice's 12 Black Jack rounds there, one a minute
    (round n: won, lost or push by n % 3), a Casino 21 round at table 8 whose row is gone, bob's
    round, and alice's round on another guild."""
    await conn.execute(
        "INSERT INTO tables (id, guild_id, channel_id, game, host_id, settings, state,"
        " created_at, updated_at) VALUES (7, ?, 700, 'blackjack', ?, '{}', '{}', ?, ?)",
        (GUILD, ALICE, T0, T0),
    )
    rows = []
    for n in range(1, 13):
        outcome, net = [("won", 10), ("lost", -10), ("push", 0)][n % 3]
        rows.append((GUILD, 7, n, ALICE, "blackjack", 10, net, outcome, int(n == 12), T0 + n * 60))
    rows.append((GUILD, 8, 1, ALICE, "casino21", 5, -5, "lost", 0, T0 + 90))
    rows.append((GUILD, 7, 12, BOB, "blackjack", 20, 20, "won", 0, T0 + 12 * 60))
    rows.append((OTHER_GUILD, 9, 1, ALICE, "blackjack", 50, 50, "won", 0, T0 + 99_999))
    await conn.executemany(
        "INSERT INTO round_results (guild_id, table_id, round_no, user_id, game, staked, net,"
        " outcome, is_natural, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        rows,
    )


async def test_last_ten_newest_first_of_this_guild(db: Database) -> None:
    await db.write(seed)
    stats = StatsService(db)
    got = await stats.rounds(GUILD, ALICE)
    assert [(r.game, r.table_id, r.round_no) for r in got] == [
        ("blackjack", 7, n) for n in range(12, 2, -1)
    ]
    assert got[0] == PlayedRound(T0 + 720, "blackjack", 7, 12, 700, 10, 10, "won", True)
    assert got[1] == PlayedRound(T0 + 660, "blackjack", 7, 11, 700, 10, 0, "push", False)
    assert [r.outcome for r in got[2:5]] == ["lost", "won", "push"]
    # the Casino 21 round, older than every Black Jack round but the first: its table's
    # row is gone, so no channel to link
    (casino,) = await stats.rounds(GUILD, ALICE, "casino21")
    assert casino == PlayedRound(T0 + 90, "casino21", 8, 1, None, 5, -5, "lost", False)
    (bob,) = await stats.rounds(GUILD, BOB)
    assert (bob.staked, bob.net, bob.outcome) == (20, 20, "won")
    assert await stats.rounds(GUILD, ALICE, "pirate21") == []
    assert [r.table_id for r in await stats.rounds(OTHER_GUILD, ALICE)] == [9]


async def test_the_query_seeks_the_player_index(db: Database) -> None:
    if db.dialect != "sqlite":
        pytest.skip("PostgreSQL plans from its table statistics: the plan is checked on SQLite")
    await db.write(seed)
    plan = await db.read(
        lambda c: c.fetchall(
            "EXPLAIN QUERY PLAN SELECT r.at FROM round_results r LEFT JOIN tables t"
            " ON t.id = r.table_id WHERE r.guild_id = ? AND r.user_id = ?"
            " ORDER BY r.at DESC, r.table_id DESC, r.round_no DESC LIMIT 10",
            (GUILD, ALICE),
        )
    )
    text = " ".join(str(row[-1]) for row in plan)
    assert "USING INDEX round_results_player (guild_id=? AND user_id=?)" in text
