"""The round results a settling move writes, and the rankings read from them, on both
databases: the ISO week's limit (UTC), the minimum rounds of a win rate."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.bank import Bank
from bot.engine.base import Action, ActionKind, Phase
from bot.engine.shuffle import seeded_entropy
from bot.stats.service import StatsService, week_start
from bot.tables import TableService
from tests.bank_audit import assert_audit_clean

GUILD = 1
HOST, BOB = 101, 102
MONDAY = datetime(2026, 11, 23, tzinfo=UTC).timestamp()  # ISO week 48
DAY = 86_400.0


async def play(svc: TableService, table_id: int, cards: list[str], bets: dict[int, int]) -> None:
    """One Black Jack round with rigged cards, every hand standing."""
    table = svc.get(table_id)
    assert table is not None and table.game.phase is Phase.BETTING
    table.game.rig(cards)
    for player, amount in bets.items():
        await svc.act(table_id, player, Action(ActionKind.BET, player, amount=amount))
    while table.game.phase is not Phase.BETTING:
        player = next(p for p in bets if table.game.legal_actions(p))
        await svc.act(table_id, player, Action(ActionKind.STAND, player))


async def test_results_rows_and_the_week_limit(db):
    clock = [MONDAY + 6 * DAY + 23 * 3600]  # Sunday 23:00 UTC, week 48
    svc = TableService(db, Bank(db), clock=lambda: clock[0], entropy=seeded_entropy("stats"))
    settings, options = svc.parse("blackjack", "", locale="en", name="t")
    opened = await svc.open_table(
        guild_id=GUILD,
        channel_id=500,
        parent_id=None,
        game_key="blackjack",
        host_id=HOST,
        settings=settings,
        options=options,
    )
    table_id = opened.table.id
    await svc.join(table_id, BOB, 100)
    await svc.act(table_id, HOST, Action(ActionKind.START, HOST))
    # host A♠ K♥ Black Jack (+15 on 10), bob 10♥ Q♠ 20 against the dealer's 20: a push
    await play(svc, table_id, ["AS", "TH", "TD", "KH", "QS", "KC"], {HOST: 10, BOB: 20})
    clock[0] += 2 * 3600  # Monday 01:00 UTC: week 49
    # host 10♠ 9♦ 19 wins 10, bob 9♥ 7♠ 16 loses 20 against 18
    await play(svc, table_id, ["TS", "9H", "TC", "9D", "7S", "8C"], {HOST: 10, BOB: 20})
    rows = await db.read(
        lambda c: c.fetchall(
            "SELECT round_no, user_id, game, staked, net, outcome, is_natural, at"
            " FROM round_results ORDER BY round_no, user_id"
        )
    )
    sunday, monday = MONDAY + 6 * DAY + 23 * 3600, MONDAY + 7 * DAY + 3600
    assert [tuple(r) for r in rows] == [
        (1, HOST, "blackjack", 10, 15, "won", 1, sunday),
        (1, BOB, "blackjack", 20, 0, "push", 0, sunday),
        (2, HOST, "blackjack", 10, 10, "won", 0, monday),
        (2, BOB, "blackjack", 20, -20, "lost", 0, monday),
    ]
    assert week_start(monday) == MONDAY + 7 * DAY
    stats = StatsService(db, clock=lambda: monday, min_rounds=2)
    week = await stats.top(GUILD, None, "week")
    assert [(r.user_id, r.rounds, r.won, r.net) for r in week.by_net] == [
        (HOST, 1, 1, 10),
        (BOB, 1, 0, -20),
    ]
    assert week.by_rate == []  # one round each this week: below the minimum of two
    ever = await stats.top(GUILD, "blackjack", "all")
    assert [(r.user_id, r.net) for r in ever.by_net] == [(HOST, 25), (BOB, -20)]
    assert [(r.user_id, r.win_rate) for r in ever.by_rate] == [(HOST, 1.0), (BOB, 0.0)]
    host = await stats.player(GUILD, HOST)
    total = host.total
    assert (total.rounds, total.won, total.net, total.best, total.naturals) == (2, 2, 25, 15, 1)
    assert (await stats.player(GUILD, HOST, "casino21")).games == []
    # the totals are the sums of the rows (the rows can rebuild them)
    summed = await db.read(
        lambda c: c.fetchall(
            "SELECT user_id, COUNT(*), SUM(net), SUM(staked), SUM(is_natural)"
            " FROM round_results GROUP BY user_id ORDER BY user_id"
        )
    )
    kept = await db.read(
        lambda c: c.fetchall(
            "SELECT user_id, rounds, net, staked, naturals FROM round_totals"
            " WHERE week = 0 AND game = '*' ORDER BY user_id"
        )
    )
    assert [tuple(int(v) for v in r) for r in summed] == [tuple(int(v) for v in r) for r in kept]
    await assert_audit_clean(db)
