"""Shared machinery of the money property tests (``test_money_properties.py``).

A :class:`World` is the real :class:`TableService` on a real temporary SQLite database with
the real :class:`Bank`, driven through random sequences of table commands by four players:
open / join / bet and every other move / leave / kick / top-up / vote-stop / close /
timeout / idle close / ``/bank claim``, mostly legal moves, some illegal ones. After every
step :meth:`World.check` asserts that

1. the bank audit of the guild is clean, and
2. no player holds more than the rules let them have: ``holdings(p) <= allowance(p)``.

``holdings(p)`` is read from the bank: the balance, the open claims (pending and held) and
every seat escrow of ``p`` (open tables, and any money left behind at a closed one). Bets
waiting in a pot are not counted, so the inequality is strict during a round.

``allowance(p)`` is what ``p`` started with plus what settled results paid them, computed
here, never taken from the engine's own figures:

- started with: what was minted to ``p`` (the starting balance; read from the ledger);
- a settled result (a hand or bet whose money is final: a bust, a round's settlement, a
  Sept et demi bust or showdown, a Black Jack insurance) pays what the game's payout table
  says for its outcome and stake (``result_nets``). Only the outcome and the stake are read
  from the event: which hand won is the engine's business, tested elsewhere; what a win,
  a push or a loss pays is checked here;
- a welcome stake (Casino 21) is not a settled result. It is the casino's money lent to a
  seat: it counts while the player sits at the table. When the sitting ends (a leave, a
  kick, a close by anyone, the timers, an empty stack, the table finishing), it counts only
  if the wagering requirement was met (the bank's ``wagered`` counter against the table's
  option); below it the player keeps only their own-money result, ``min(welcome +
  results, 0)``: own funds minus what they lost beyond the welcome stake.

That last point is what catches a close that pays the welcome stake out: the seat is gone,
the allowance falls back to the player's own money, the claim holds the casino's. Sittings
are read after each step from the engine's public view (who is seated) and the service
(which tables are open).

A ``mixed`` world (issue 35) opens tables of every game side by side on a small treasury
(an admin mints more now and then), and checks the house's side as well after every step:

3. no settlement is ever refused: the only money a refusal may lack is a player's (a
   buy-in, a top-up), and a float refuses only bets and welcome stakes;
4. no float is ever negative, and every account is of a known kind;
5. treasury + floats + stakes (seats, pots, funds) + balances + claims = minted - burned.
"""

from __future__ import annotations

import asyncio
import os
import tempfile
from collections.abc import Awaitable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from bot.bank import Bank, BankError, InsufficientFunds
from bot.db import SqliteDatabase, migrate
from bot.engine.base import Action, ActionKind, Event, IllegalAction, InvalidOptions
from bot.engine.shuffle import seeded_entropy
from bot.errors import UserError
from bot.tables import Outcome, Table, TableService
from tests.bank.ledger import seat_stats
from tests.sql import fetchall

K = ActionKind
GUILD = 7
PLAYERS = (11, 12, 13, 14)
MAX_OPEN = 2  # tables open at once in one example
MIXED = "mixed"  # a world of every game at once, on a small treasury
MIXED_OPEN = 3
TREASURIES = (1_500, 300, 5_000, 0)  # a mixed world's treasury at the start
MINTS = (100, 1_000, 5_000)  # what an admin adds to it, now and then

# Table options each example may open with (the last ones of casino21 and sept_et_demi
# are beyond the default server limits, so the service must refuse them).
OPTIONS: dict[str, tuple[str, ...]] = {
    "classic": (
        "",
        "decks=1 min_bet=1 max_bet=60",
        "surrender=on dealer_hits_soft_17=on",
        "blackjack_pays=6:5 auto_next=off",
    ),
    "casino21": (
        "",
        "bank_bust_bonus=half",
        "welcome_stake=40 wager_requirement=60",
        "min_bet=10 max_bet=40",
        "wager_requirement=150 auto_next=off",
        "welcome_stake=101",
        "bank_bust_bonus=6",
        "welcome_stake=100 wager_requirement=20",
        "min_bet=5 max_bet=40",
    ),
    "sept_et_demi": (
        "",
        "buy_in=40 guarantee_fund=30",
        "min_bet=2 rounds=3",
        "buy_in=20 auto_next=off",
        "guarantee_fund=501",
    ),
    "pirate21": ("", "treasure=4", "auto_next=off"),
}
GAMES = tuple(OPTIONS)
# a mixed world's tables: stakes whose floats a small treasury can give, some not
MIXED_OPTIONS: dict[str, tuple[str, ...]] = {
    "classic": ("min_bet=1 max_bet=20", "max_bet=50 max_hands=2 auto_next=off", ""),
    "casino21": ("min_bet=2 max_bet=10 welcome_stake=20", "bank_bust_bonus=half max_bet=20"),
    "sept_et_demi": ("buy_in=40 guarantee_fund=100", "buy_in=20 guarantee_fund=30 rounds=3"),
    "pirate21": ("",),
}
# a few examples per game in the default suite (a World is a whole service and database)
QUICK = settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    database=None,
)
# What a random step does, weighted: moves dominate so that rounds get played; what ends
# a table (close, idle, kick, leave) is rarer, and a table short of players gets joined.
STEPS = (
    ("move", 24),
    ("join", 3),
    ("open", 1),
    ("timeout", 3),
    ("top_up", 2),
    ("leave", 1),
    ("kick", 1),
    ("vote_stop", 1),
    ("claim", 1),
    ("illegal", 2),
    ("close", 1),
    ("idle", 1),
)
STEP_CHOICES = tuple(name for name, weight in STEPS for _ in range(weight))
MIXED_CHOICES = (*STEP_CHOICES, "mint")  # an admin adds to a small treasury
# moves chosen among the legal ones (seat changes and money have steps of their own)
NOT_MOVES = frozenset({K.JOIN, K.CLOSE, K.LEAVE, K.TOP_UP, K.VOTE_STOP, K.TIMEOUT})
MOVE_WEIGHTS = {K.SIT_OUT: 1, K.END_TURN: 1, K.START: 2}  # the others: 3
BETS = (1, 2, 5, 10, 20, 50, 100, 300)
REFUSALS = (IllegalAction, InvalidOptions, UserError, BankError)


class MoneyCreated(AssertionError):
    """A player holds more than they started with plus what settled results paid them."""


class SettlementRefused(AssertionError):
    """The house (a float, the treasury, a fund or a pot) could not pay what it owed."""


class HouseMismatch(AssertionError):
    """The casino's accounts do not add up to what was minted minus burned."""


# ------------------------------------------------------------------------- payout tables


def _ratio(text: str) -> tuple[int, int]:
    num, _, den = str(text).partition(":")
    return int(num), int(den)


def casino21_net(outcome: str, bet: int, bonus: int | str) -> int:
    """RULES.md section 2: what a settled Casino 21 bet pays (a loss is negative)."""
    if outcome in ("lose", "bust"):
        return -bet
    if outcome == "push":
        return 0
    if outcome == "bank_bust" and not isinstance(bonus, str):
        return int(bonus)
    return bet // 2  # a win, or the bank busting with bonus "half"


def classic_net(result: str, bet: int, pays: str, reported: int) -> int:
    """RULES.md section 1: what a settled Black Jack hand pays. A result this table does
    not know counts for no more than zero (never as a win it cannot check)."""
    num, den = _ratio(pays)
    table = {
        "win": bet,
        "push": 0,
        "loss": -bet,
        "bust": -bet,
        "blackjack": bet * num // den,
        "surrender": -(bet - bet // 2),
    }
    return table[result] if result in table else min(reported, 0)


SEPT_MULTIPLIERS = {
    "bank_sept_et_demi": -2,
    "not_higher": -1,
    "player_sept_et_demi": 2,
    "bank_bust": 1,
    "higher": 1,
}


def result_nets(game_key: str, options: Any, events: list[Event]) -> list[tuple[int, int]]:
    """(player, net) of every result settled in one committed outcome, from the payout
    tables above and the outcome and stake of each result."""
    out: list[tuple[int, int]] = []
    if game_key == "casino21":
        for e in events:
            if e.kind in ("win", "bank_bust", "push", "lose", "bust") and "outcome" in e.data:
                bet = int(e.data["bet"])
                out.append(
                    (
                        int(e.data["player"]),
                        casino21_net(e.data["outcome"], bet, options.bank_bust_bonus),
                    )
                )
    elif game_key == "classic":
        for e in events:
            if e.kind == "insurance_settled" and e.player is not None:
                stake = int(e.data["stake"])
                out.append((e.player, 2 * stake if e.data["won"] else -stake))
            elif e.kind == "round_settled":
                for h in e.data["hands"]:
                    net = classic_net(h["result"], int(h["bet"]), options.blackjack_pays, h["net"])
                    out.append((int(h["player"]), net))
    elif game_key == "sept_et_demi":
        out += _sept_nets(events)
    return out


def _sept_nets(events: list[Event]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    summary = next((e for e in events if e.kind == "round_settled"), None)
    for e in events:
        d = e.data
        if e.kind == "bust":  # lost to the banker at once
            out += [(int(d["player"]), -int(d["bet"])), (int(d["banker"]), int(d["bet"]))]
        elif e.kind == "settle":
            assert summary is not None, "a settlement without its round summary"
            banker, bet = int(summary.data["banker"]), int(d["bet"])
            mult = SEPT_MULTIPLIERS[d["rule"]]
            if mult < 0:
                out += [(int(d["player"]), mult * bet), (banker, -mult * bet)]
                continue
            shortfall, from_fund = int(d["shortfall"]), int(d["paid_by_fund"])
            assert shortfall >= 0 and from_fund >= 0
            assert shortfall == 0 or int(summary.data["fund_left"]) == 0  # only an empty fund
            got = mult * bet - shortfall
            out += [(int(d["player"]), got), (banker, -(got - from_fund))]
    return out


# ----------------------------------------------------------------------------- the world


def seated(table: Table) -> set[int]:
    """Who the engine says is seated (nobody at a closed table)."""
    if not table.is_open:
        return set()
    return {s.player for s in table.game.public_view().seats}


@dataclass
class Sitting:
    """One player's stay at one table: the welcome stake it brought, its results."""

    welcome: int
    net: int = 0


class World:
    """A table service, its bank and the model of what each player may hold."""

    def __init__(self, game_key: str, path: str, seed: int, treasury: int | None = None) -> None:
        self.game_key = game_key
        self.treasury = treasury  # None: the default; a mixed world starts small
        self.games: dict[int, str] = {}  # table id -> its game (a key of OPTIONS)
        self.path = path
        self.seed = seed  # the shuffles: an example replays exactly (hypothesis needs it)
        self.now = 1_000_000.0
        self.tables: list[Table] = []
        self.committed: list[tuple[Table, list[Event]]] = []
        self.sittings: dict[tuple[int, int], Sitting] = {}
        self.welcomed: set[tuple[int, int]] = set()
        self.settled: dict[int, int] = dict.fromkeys(PLAYERS, 0)  # closed sittings, loose
        self.refused = 0
        self.channels = 0
        self.steps = 0
        self.tight = 0  # checks where every player held exactly their allowance

    async def start(self) -> None:
        self.db = await SqliteDatabase.open(self.path)
        await migrate(self.db)
        self.bank = Bank(self.db)
        self.service = TableService(
            self.db,
            self.bank,
            clock=lambda: self.now,
            entropy=seeded_entropy(f"money-{self.seed}"),
        )
        self.service.observers.append(self._observe)
        if self.treasury is not None:
            await self.service.ensure_guild(GUILD)
            held = await self.bank.balance(GUILD, None)
            if held > self.treasury:
                await self.bank.burn(GUILD, held - self.treasury)

    async def stop(self) -> None:
        await self.db.close()

    def _observe(self, table: Table, outcome: Outcome) -> None:
        self.committed.append((table, list(outcome.events)))

    # ------------------------------------------------------------------ helpers
    def open_tables(self) -> list[Table]:
        return [t for t in self.tables if t.is_open]

    async def attempt(self, call: Awaitable[Any], kind: ActionKind | None = None) -> Any:
        """Run one command (``kind``: the table action it is); a refusal (translated
        error) is fine, anything else is a bug, and so is a refusal for the house's money."""
        try:
            return await call
        except REFUSALS as exc:
            self.refused += 1
            self._house_refused(exc, kind)
            return None

    @staticmethod
    def _house_refused(exc: Exception, kind: ActionKind | None) -> None:
        """Only a player's own money may be short, and a float refuses bets and joins."""
        if isinstance(exc, InsufficientFunds) and exc.params.get("account") != "player":
            raise SettlementRefused(f"{kind}: the house could not pay: {exc.params}")
        code = getattr(exc, "code", "")
        covers = ("house_cannot_cover", "float_cannot_cover", "float_cannot_cover_any")
        if code in covers and kind is not K.BET:
            raise SettlementRefused(f"{kind}: refused for the house's cover ({code})")
        if code == "float_cannot_welcome" and kind is not K.JOIN:
            raise SettlementRefused(f"{kind}: refused for a welcome stake ({code})")

    # ------------------------------------------------------------------ steps
    async def step(self, data: st.DataObject) -> None:
        """One random command."""
        self.steps += 1
        self.now += data.draw(st.sampled_from((1.0, 5.0, 30.0)))
        name = data.draw(st.sampled_from(MIXED_CHOICES if self.game_key == MIXED else STEP_CHOICES))
        tables = self.open_tables()
        if name == "open" or not tables:
            await self.open(data)
            return
        table = data.draw(st.sampled_from(tables))
        player = data.draw(st.sampled_from(PLAYERS))
        host = int(getattr(table.game, "host", None) or table.host_id)
        svc = self.service
        if len(seated(table)) < 2 and data.draw(st.booleans()):
            name = "join"
        elif name in ("close", "idle", "kick", "leave") and data.draw(st.integers(0, 2)):
            name = "move"  # rarer still: tables live long enough to play rounds
        if name == "move":
            await self.move(data, table)
        elif name == "join":
            await self.attempt(svc.join(table.id, player, self.buy_in(data)), K.JOIN)
        elif name == "top_up":
            amount = data.draw(st.sampled_from((1, 5, 20, 100, 300)))
            action = Action(K.TOP_UP, player, amount=amount)
            await self.attempt(svc.act(table.id, player, action), K.TOP_UP)
        elif name == "leave":
            action = Action(K.LEAVE, player, confirm=data.draw(st.booleans()))
            await self.attempt(svc.act(table.id, player, action), K.LEAVE)
        elif name == "kick":
            action = Action(K.LEAVE, player, confirm=True)
            await self.attempt(svc.act(table.id, host, action), K.LEAVE)
        elif name == "vote_stop":
            await self.attempt(svc.act(table.id, player, Action(K.VOTE_STOP, player)), K.VOTE_STOP)
        elif name == "claim":
            await self.attempt(self.bank.claim(GUILD, player))
        elif name == "illegal":
            action = self.any_action(data, player)
            await self.attempt(svc.act(table.id, player, action), action.kind)
        elif name == "close":
            actor = data.draw(st.sampled_from((host, None)))
            await self.attempt(svc.close_table(table.id, actor, "host"), K.CLOSE)
        elif name == "mint":
            await self.bank.mint(GUILD, data.draw(st.sampled_from(MINTS)))
        elif name == "timeout":
            if K.TIMEOUT in table.game.legal_actions(None):
                await svc.fire(table.id, "deadline", table.version)
        elif name == "idle":
            await svc.fire(table.id, "idle", table.version)

    async def open(self, data: st.DataObject) -> None:
        if len(self.open_tables()) >= (MIXED_OPEN if self.game_key == MIXED else MAX_OPEN):
            return
        host = data.draw(st.sampled_from(PLAYERS))
        mixed = self.game_key == MIXED
        game = data.draw(st.sampled_from(tuple(MIXED_OPTIONS))) if mixed else self.game_key
        text = data.draw(st.sampled_from((MIXED_OPTIONS if mixed else OPTIONS)[game]))
        self.channels += 1
        settings, options = TableService.parse(game, text, locale="en", name="p")
        out = await self.attempt(
            self.service.open_table(
                guild_id=GUILD,
                channel_id=1000 + self.channels,
                parent_id=None,
                game_key=game,
                host_id=host,
                settings=settings,
                options=options,
            ),
            K.JOIN,
        )
        if out is not None:
            self.tables.append(out.table)
            self.games[out.table.id] = game

    def buy_in(self, data: st.DataObject) -> int | None:
        return data.draw(st.sampled_from((None, None, None, 30, 200, 5000)))

    async def move(self, data: st.DataObject, table: Table) -> None:
        """A legal move of a random seated player (or of the host, or the system)."""
        game = table.game
        pairs = [
            (actor, kind)
            for actor in sorted(seated(table) | {int(getattr(game, "host", 0) or 0)})
            for kind in sorted(game.legal_actions(actor) - NOT_MOVES, key=lambda k: k.value)
            for _ in range(MOVE_WEIGHTS.get(kind, 3))
        ]
        if not pairs:
            return
        actor, kind = data.draw(st.sampled_from(pairs))
        action = self.with_arguments(data, table, Action(kind, actor))
        await self.attempt(self.service.act(table.id, actor, action), kind)

    def with_arguments(self, data: st.DataObject, table: Table, action: Action) -> Action:
        kind, player = action.kind, action.player
        if kind is K.BET:
            bet_limits = getattr(table.game, "bet_limits", None)
            legal = bet_limits(player) if bet_limits is not None else None
            if legal is not None and data.draw(st.booleans()):
                amount = data.draw(st.integers(legal[0], max(legal[0], legal[1])))
            else:
                amount = data.draw(st.sampled_from(BETS))
            return Action(kind, player, amount=amount)
        if kind is K.DRAW:
            return Action(kind, player, amount=data.draw(st.sampled_from((0, 0, 1, 1, 2, 3))))
        if kind is K.CHOOSE_ACE:
            return Action(kind, player, value=data.draw(st.sampled_from((1, 11))))
        if kind is K.TOP_UP:
            return Action(kind, player, amount=data.draw(st.sampled_from((1, 20, 100))))
        if kind is K.LEAVE:
            return Action(kind, player, confirm=data.draw(st.booleans()))
        return action

    def any_action(self, data: st.DataObject, player: int) -> Action:
        return Action(
            data.draw(st.sampled_from(list(ActionKind))),
            data.draw(st.sampled_from((player, *PLAYERS))),
            data.draw(st.sampled_from((None, -1, 0, 1, 7, 10**6))),
            data.draw(st.sampled_from((None, 1, 11))),
            None,
            data.draw(st.booleans()),
        )

    async def wind_up(self) -> None:
        """Close every table left open, and everyone collects at the bank."""
        for table in self.open_tables():
            await self.service.close_table(table.id, None, "host")
            await self.check()
        floats = await fetchall(
            self.db,
            "SELECT COUNT(*) FROM bank_accounts WHERE guild_id = ? AND kind = 'house'"
            " AND table_id <> 0 AND balance <> 0",
            (GUILD,),
        )
        assert floats[0][0] == 0, "a closed table kept money in its float"
        for p in PLAYERS:
            await self.attempt(self.bank.claim(GUILD, p))
        await self.check()

    # ------------------------------------------------------------------ the property
    async def check(self) -> None:
        """The audit is clean and nobody holds more than their allowance."""
        report = await self.bank.audit(GUILD)
        assert report.ok, report.format()
        await self._house_adds_up()
        self._absorb()
        await self._update_sittings()
        holdings, allowance = await self.holdings(), await self.allowance()
        over = {p: (holdings[p], allowance[p]) for p in PLAYERS if holdings[p] > allowance[p]}
        if over:
            raise MoneyCreated(
                f"step {self.steps}: players hold more than they started with plus what "
                f"settled results paid them (holdings, allowance): {over}"
            )
        self.tight += holdings == allowance

    async def _house_adds_up(self) -> None:
        """Every float at least zero; treasury + floats + stakes + balances + claims =
        minted - burned (the issuer holds the opposite of the last)."""
        rows = await fetchall(
            self.db,
            "SELECT kind, table_id <> 0, MIN(balance), SUM(balance) FROM bank_accounts"
            " WHERE guild_id = ? GROUP BY kind, table_id <> 0",
            (GUILD,),
        )
        held = {
            (str(kind), bool(at_table)): (int(low), int(total))
            for kind, at_table, low, total in rows
        }
        parts = {
            "treasury": [("house", False)],
            "floats": [("house", True)],
            "stakes": [("seat", True), ("pot", True), ("fund", True)],
            "balances": [("player", False)],
            "claims": [("claims", False)],
            "issuer": [("issuer", False)],
        }
        known = {key for keys in parts.values() for key in keys}
        if set(held) - known:
            raise HouseMismatch(f"step {self.steps}: accounts of unknown kinds {set(held) - known}")
        if held.get(("house", True), (0, 0))[0] < 0:
            raise HouseMismatch(f"step {self.steps}: a float is negative: {held}")
        sums = {name: sum(held.get(k, (0, 0))[1] for k in keys) for name, keys in parts.items()}
        (supply,) = await fetchall(
            self.db,
            "SELECT COALESCE(SUM(p.amount), 0) FROM bank_postings p"
            " JOIN bank_entries e ON e.id = p.entry_id JOIN bank_accounts a ON a.id = p.account_id"
            " WHERE e.guild_id = ? AND e.kind IN ('mint', 'burn') AND a.kind <> 'issuer'",
            (GUILD,),
        )
        circulating = sum(v for name, v in sums.items() if name != "issuer")
        if circulating != int(supply[0]) or sums["issuer"] != -int(supply[0]):
            raise HouseMismatch(f"step {self.steps}: {sums} against minted - burned {supply[0]}")
        self.floats_seen = max(getattr(self, "floats_seen", 0), sums["floats"])

    def _absorb(self) -> None:
        for table, events in self.committed:
            options = table.game.options
            game = self.games.get(table.id, self.game_key)
            for player, net in result_nets(game, options, events):
                sitting = self.sittings.get((table.id, player))
                if sitting is None:
                    self.settled[player] += net
                else:
                    sitting.net += net
        self.committed.clear()

    async def _update_sittings(self) -> None:
        for key, sitting in list(self.sittings.items()):
            table_id, player = key
            table = next(t for t in self.tables if t.id == table_id)
            if player in seated(table):
                continue
            del self.sittings[key]
            self.settled[player] += await self._kept(table, player, sitting)
        for table in self.open_tables():
            for player in seated(table) - {p for t, p in self.sittings if t == table.id}:
                welcome = 0
                if (table.id, player) not in self.welcomed:
                    self.welcomed.add((table.id, player))
                    welcome = int(getattr(table.game.options, "welcome_stake", 0))
                self.sittings[(table.id, player)] = Sitting(welcome)

    async def _kept(self, table: Table, player: int, sitting: Sitting) -> int:
        """What a finished sitting leaves the player beyond their own money."""
        total = sitting.welcome + sitting.net
        if not sitting.welcome:
            return total
        wagered = (await seat_stats(self.bank.db, GUILD, table.id, player)).wagered
        if wagered >= int(table.game.options.wager_requirement):
            return total
        return min(total, 0)

    async def holdings(self) -> dict[int, int]:
        out = dict.fromkeys(PLAYERS, 0)
        rows = await fetchall(
            self.db,
            "SELECT user_id, SUM(balance) FROM bank_accounts WHERE guild_id = ?"
            " AND kind IN ('player', 'seat') GROUP BY user_id",
            (GUILD,),
        )
        rows += await fetchall(
            self.db,
            "SELECT user_id, SUM(amount) FROM bank_claims WHERE guild_id = ?"
            " AND status IN ('pending', 'held') GROUP BY user_id",
            (GUILD,),
        )
        for user, amount in rows:
            out[int(user)] += int(amount)
        return out

    async def allowance(self) -> dict[int, int]:
        out = dict(self.settled)
        rows = await fetchall(
            self.db,
            "SELECT a.user_id, SUM(p.amount) FROM bank_postings p"
            " JOIN bank_entries e ON e.id = p.entry_id"
            " JOIN bank_accounts a ON a.id = p.account_id"
            " WHERE e.guild_id = ? AND e.kind = 'mint' AND a.kind = 'player'"
            " GROUP BY a.user_id",
            (GUILD,),
        )
        for user, minted in rows:
            out[int(user)] += int(minted)
        for (_, player), sitting in self.sittings.items():
            out[player] += sitting.welcome + sitting.net
        return out


async def play(game_key: str, data: st.DataObject, steps: int) -> World:
    """One example: up to ``steps`` random commands, each followed by the check, then
    every table closes and everyone claims."""
    with tempfile.TemporaryDirectory() as folder:
        seed = data.draw(st.integers(0, 2**32))
        treasury = data.draw(st.sampled_from(TREASURIES)) if game_key == MIXED else None
        world = World(game_key, os.path.join(folder, "money.sqlite3"), seed, treasury)
        await world.start()
        try:
            for _ in range(data.draw(st.integers(steps // 2, steps))):
                await world.step(data)
                await world.check()
            await world.wind_up()
        finally:
            await world.stop()
    return world


def run(game_key: str, data: st.DataObject, steps: int) -> World:
    """:func:`play` from a synchronous hypothesis test."""
    return asyncio.run(play(game_key, data, steps))


def totals(worlds: Iterable[World]) -> Mapping[str, int]:
    """Counters over examples (to see that the examples did something)."""
    out = {"steps": 0, "refused": 0, "tables": 0, "tight": 0}
    for w in worlds:
        out["steps"] += w.steps
        out["refused"] += w.refused
        out["tables"] += len(w.tables)
        out["tight"] += w.tight
    return out
