"""TableService: the path of one move, from an action to a committed log row.

Under the table's lock the game applies the action in memory; then one database transaction
stores the action log row (with the interaction id), the money postings and, at a snapshot
point, the new snapshot and version (see below); the timers are re-armed in memory (at
start-up they are derived from the rows). If anything in that transaction fails, the game
is restored from the last committed snapshot and log, so memory and database never
disagree.

Several processes on one database (PostgreSQL): a process serves the tables of its shards'
guilds (``owns``), but during a takeover (a rolling restart, a new shard count) two may
hold a copy of the same table. Every move logs one ``table_actions`` row per version, under
a UNIQUE (table, version) index, and a snapshot write is ``UPDATE ... WHERE version = ?``: a
copy that another process moved on is refused (:class:`StaleTable`), reloaded from the
database, and the player's action is tried once more on the fresh table (a timer of the
stale copy is dropped: the fresh table has its own). Chosen over an advisory lock per
guild: the check is the row write the move does anyway (no extra round trip, no connection
held per guild, no lock left behind by a hung process), and it works the same on SQLite.

The log and the snapshots: the ``tables`` row holds a snapshot (state, version, updated_at)
written only at snapshot points: the table's opening, a close, a settled round, a move that
drew a fresh seed (a new shoe: a replay cannot draw it again), and every
:data:`SNAPSHOT_EVERY` versions. Any other move writes only its action row (with its postings
and the house's cover). Loading a table (start-up, a stale copy, a failed transaction)
replays the logged actions after the snapshot through the live move's code, each at its
logged time, so the table comes back exactly as it was.

The pieces: the SQL in :mod:`bot.tables.store` (a move is one :class:`~.store.MoveRecord`),
the load and replay in :mod:`bot.tables.replay`, the timer heap in :mod:`bot.tables.timers`,
the house's cover in :mod:`bot.tables.cover`; here the path of a move, open, join, close.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import OrderedDict
from collections.abc import Callable, Iterable
from typing import Any

import orjson

from bot.bank import Bank, FloatMove
from bot.bank.core import escrow_account, float_balance, system_account
from bot.db import Conn, Database, IntegrityError, Row
from bot.engine.base import HOUSE, Action, ActionKind, Event, InvalidOptions
from bot.engine.options import parse_text
from bot.engine.shuffle import Entropy, secure_entropy
from bot.stats.results import settled_statements

from . import cover, history, replay, store
from .client_seeds import ClientSeeds
from .errors import StaleAction, StaleTable, TableError
from .floats import FloatTerms, float_terms
from .games import GAMES, AnyGame, GameSpec, all_options
from .invites import Invites
from .limits import check_limits
from .models import Outcome, Table, TableSettings
from .store import MoveRecord
from .timers import Timers

log = logging.getLogger(__name__)

DEFAULT_STARTING_BALANCE = 1000
RECENT_INTERACTIONS = 4096  # interaction ids remembered in memory (replays are seconds apart)
DISCORD_EPOCH_MS = 1420070400000  # a snowflake's timestamp counts from here
CLOCK_SKEW_MS = 60_000  # margin between Discord's clock and ours
# A move writes its snapshot to the tables row at least every this many versions (besides
# the rounds' ends, closes and new shoes): a load replays at most this many logged actions.
SNAPSHOT_EVERY = 16


class TableService:
    """Open, join, act and close tables; the database is the truth, memory a cache."""

    def __init__(
        self,
        db: Database,
        bank: Bank,
        *,
        clock: Callable[[], float],
        entropy: Entropy = secure_entropy,
        starting_balance: int = DEFAULT_STARTING_BALANCE,
        shards: tuple[int, tuple[int, ...]] | None = None,
        seeds: ClientSeeds | None = None,
    ) -> None:
        self.db = db
        self.seeds = seeds  # players' client seeds, mixed into each new shoe (None: none)
        # (shard count, shard ids) this process serves; None: every guild
        self.shards = shards
        self.bank = bank
        self.clock = clock
        self.entropy = entropy
        # seeds drawn through self._entropy (every game's source): a move that draws one
        # (a new shoe) is a snapshot point, since a replay cannot draw the same seed again
        self._draws = 0
        self._counted: Entropy = self._entropy  # one bound method for every game
        self.starting_balance = starting_balance
        self._tables: dict[int, Table] = {}
        # read at start-up, built at first use (see load): (row, actions logged after it)
        self._pending: dict[int, tuple[Row, list[Row]]] = {}
        self._by_channel: dict[int, int] = {}
        self._locks: dict[int, asyncio.Lock] = {}
        self.timers = Timers(self._tables)  # the open tables' idle and deadline entries
        # called when a table's timers were armed outside a move (a table built at its
        # first use after a start): the app makes the timer loop look again
        self.wake: Callable[[], None] = lambda: None
        self._guilds_ready: set[int] = set()
        # Interactions applied by this process, newest last: a replay is answered from
        # memory; interactions older than the process are looked up in table_actions, and
        # the UNIQUE interaction_id constraint stays the last word (no SELECT per move).
        self._recent: OrderedDict[int, None] = OrderedDict()
        self._started_ms = int(clock() * 1000)
        # called with (table, outcome) after each commit (tests watch every state with it)
        self.observers: list[Callable[[Table, Outcome], None]] = []
        # called with a table reloaded because another process wrote it (its message may
        # show this process's stale copy: the app has the publisher re-render it)
        self.reloaded: list[Callable[[Table], None]] = []
        self.invites = Invites(db)  # who may sit at a private table
        # the UI's round summaries, stored with each settled round (bot.tables.history)
        self.summarize: history.Summarize | None = None

    # ------------------------------------------------------------------ loading

    async def load(self) -> int:
        """Read every open table (at start-up): its row and the actions logged after its
        snapshot (a crash leaves some). Each is built, replayed and its timers armed (the
        idle timeout counts from its last move, the deadline is the one that move left) at
        its first use or in :meth:`build_pending` after READY, whichever comes first: READY
        waits for one query, not for 10,000 snapshots parsed (~0.7 s) and the deals a crash
        left to replay (~1 s of shuffles). The number of open tables."""
        rows, actions = await self.db.read(store.open_rows, self.shards)
        logged: dict[int, list[Row]] = {}
        for action in actions:
            logged.setdefault(action[0], []).append(action)
        self.timers.clear()
        for row in rows:
            self._tables.pop(row["id"], None)
            self._pending[row["id"]] = (row, logged.get(row["id"], []))
            self._by_channel[row["channel_id"]] = row["id"]  # its channel finds it
        return len(self._tables) + len(self._pending)

    async def load_open_tables(self) -> list[Table]:
        """:meth:`load`, then every table built: the open tables."""
        await self.load()
        return self.open_tables()

    def _loaded(self, table: Table) -> None:
        """A table built whole: in memory, its timers armed."""
        self._remember(table)
        self.timers.arm(table, table.moved_at + table.settings.idle_timer)

    def _ready(self, table_id: int) -> Table | None:
        """The table in memory, built first if :meth:`load` left it pending (a broken log
        raises, at each use, as it did at start-up before)."""
        if table_id in self._pending:
            row, logged = self._pending[table_id]
            table = self._load(row, logged)
            del self._pending[table_id]
            self._loaded(table)
            self.wake()
        return self._tables.get(table_id)

    async def build_pending(self, batch: int = 10) -> int:
        """After a start: build the tables :meth:`load` left pending, a few at a time
        between other work (~1 ms slices: moves go first); the number built."""
        done = 0
        for table_id in list(self._pending):
            if self._build(table_id):
                done += 1
                if done % batch == 0:
                    await asyncio.sleep(0)
        return done

    def _build(self, table_id: int) -> bool:
        """Build a pending table; False (logged) if its log is broken: its own uses raise
        it again, the other tables go on."""
        try:
            self._ready(table_id)
        except Exception:
            log.exception("could not load table %s", table_id)
            return False
        return True

    async def committed(self, table_id: int) -> Table | None:
        """The table as committed in the database (its snapshot and the logged actions
        after it, replayed; ``moved_at``: its last move's time), not kept in memory; None
        if it has no snapshot yet."""
        row, actions = await self.db.read(store.row_of, table_id)
        if row is None or row["state"] == "{}":
            return None
        return self._load(row, actions)

    def _entropy(self, n: int) -> bytes:
        """The games' seed source: the service's entropy, counted."""
        self._draws += 1
        return self.entropy(n)

    def _load(self, row: Row, actions: Iterable[Row]) -> Table:
        """A table from its row and its logged actions after the snapshot (``moved_at``:
        when it last moved, the idle timer counts from there)."""
        table = replay.table_from_row(row, self._counted)
        table.moved_at = self._replay(table, actions, row["updated_at"])
        return table

    async def save_snapshots(self) -> int:
        """At a clean stop: write the snapshot of every table with moves logged after its
        row's, in one transaction, so the next start replays nothing (a crash leaves the
        log, replayed then); the number of tables written. The state at a version is the
        same in every process (the log decides it), so a stale copy's write is harmless:
        ``WHERE version = ?`` only ever moves a row forward, never past the log."""
        dirty = [t for t in self._tables.values() if t.version > t.snapshot_version]
        async with contextlib.AsyncExitStack() as held:
            for table in dirty:
                await held.enter_async_context(self.lock(table.id))  # no move half-applied
            dirty = [t for t in dirty if t.is_open]  # (closed meanwhile: written by its close)
            rows = [
                (t.snapshot_json(), t.version, t.moved_at, t.id, t.snapshot_version) for t in dirty
            ]
            if rows:
                await self.db.write(store.save_rows, rows)
            for table in dirty:
                table.snapshot_version = table.version
        return len(rows)

    def _replay(self, table: Table, actions: Iterable[Row], last_at: float) -> float:
        """Apply the logged actions after the snapshot (:func:`.replay.replay`, the seeds
        this service's entropy drew counted); the last one's time."""
        return replay.replay(table, actions, last_at, lambda: self._draws)

    async def warm_up(self, batch: int = 5) -> int:
        """After a start: build the pending tables, then compute now what each loaded
        table would compute at its first move, so that first move is no slower than any
        other; returns the tables warmed."""
        await self.build_pending()
        try:  # the accounts its first postings use: one query, not one per table
            await self.bank.remember_accounts([(t.guild_id, t.id) for t in self.open_tables()])
        except Exception:  # the moves look them up themselves: never break the start
            log.exception("could not remember the open tables' accounts")
        warmed = 0
        for table in list(self._tables.values()):
            shoe = getattr(table.game, "shoe", None)
            if table.is_open and shoe is not None:
                # a loaded shoe shuffles at its first draw (start-up stays fast): here,
                # between other work, instead of inside a player's deal
                try:
                    shoe.order  # noqa: B018
                except Exception:  # the deal would meet it again; never break the start
                    log.exception("could not warm table %s up", table.id)
                    continue
                warmed += 1
                if warmed % batch == 0:
                    await asyncio.sleep(0)  # ~1 ms slices: moves and READY go first
        return warmed

    def _remember(self, table: Table) -> None:
        self._tables[table.id] = table
        if table.is_open:
            self._by_channel[table.channel_id] = table.id

    def _forget(self, table: Table, *, keep_lock: bool = False) -> None:
        self._tables.pop(table.id, None)
        if self._by_channel.get(table.channel_id) == table.id:
            del self._by_channel[table.channel_id]
        if not keep_lock:
            self._locks.pop(table.id, None)

    async def _reload(self, table: Table) -> Table | None:
        """Another process moved this table on: replace our copy with the committed row
        (under the table's lock, which stays), or forget it if it is closed."""
        row, actions = await self.db.read(store.row_of, table.id)
        self._forget(table, keep_lock=True)
        log.warning("table %s was written by another process: reloaded", table.id)
        if row is None or row["status"] != "open":
            self._locks.pop(table.id, None)
            return None
        fresh = self._load(row, actions)
        self._loaded(fresh)
        for callback in self.reloaded:
            callback(fresh)
        return fresh

    def open_tables(self) -> list[Table]:
        """The open tables, each built (one whose log is broken is left out, and logged)."""
        for table_id in list(self._pending):
            self._build(table_id)
        return list(self._tables.values())

    def in_guild(self, guild_id: int) -> list[Table]:
        """The open tables of a guild (only its tables are built, if a start left them
        pending: the lobby never builds every server's)."""
        for table_id, (row, _) in list(self._pending.items()):
            if row["guild_id"] == guild_id:
                self._build(table_id)
        return [t for t in self._tables.values() if t.guild_id == guild_id and t.is_open]

    def hosted_by(self, guild_id: int, user_id: int) -> list[Table]:
        """The open tables of a guild that ``user_id`` opened or now hosts, oldest first
        (only that guild's tables are built, if a start left them pending)."""
        for table_id, (row, _) in list(self._pending.items()):
            if row["guild_id"] == guild_id:
                self._build(table_id)
        mine = [
            table
            for table in self._tables.values()
            if table.guild_id == guild_id
            and table.is_open
            and user_id in (table.host_id, table.game.host)
        ]
        return sorted(mine, key=lambda table: table.id)

    def table_in(self, channel_id: int) -> Table | None:
        """The open table living in this channel or thread, if any."""
        table_id = self._by_channel.get(channel_id)
        return None if table_id is None else self._ready(table_id)

    def get(self, table_id: int) -> Table:
        """An open table by id."""
        table = self._ready(table_id)
        if table is None:
            raise TableError("unknown_table")
        return table

    def lock(self, table_id: int) -> asyncio.Lock:
        """The lock every change of this table runs under."""
        return self._locks.setdefault(table_id, asyncio.Lock())

    # ------------------------------------------------------------------ options

    @staticmethod
    def parse(
        game_key: str, text: str | None, *, locale: str, name: str
    ) -> tuple[TableSettings, dict[str, Any]]:
        """Parse and validate ``key=value`` options for a game: (table settings, typed
        engine options). Refusals are :class:`~bot.engine.options.OptionError`."""
        spec = GAMES.get(game_key)
        if spec is None:
            raise InvalidOptions("unknown_game", game=game_key, choices=sorted(GAMES))
        values = parse_text(text, all_options(spec))
        settings_values = {k: v for k, v in values.items() if k in TableSettings.NAMES}
        options = {k: v for k, v in values.items() if k not in TableSettings.NAMES}
        settings = TableSettings(locale=locale, name=name, **settings_values).validate()
        spec.build(0, options, secure_entropy)  # cross-option checks (max_bet >= min_bet...)
        return settings, options

    # ------------------------------------------------------------------ open

    async def open_table(
        self,
        *,
        guild_id: int,
        channel_id: int,
        parent_id: int | None,
        game_key: str,
        host_id: int,
        settings: TableSettings,
        options: dict[str, Any],
        buy_in: int | None = None,
        message_id: int | None = None,
    ) -> Outcome:
        """Create a table in ``channel_id`` and seat its host, in one transaction
        (``message_id``: its message, posted first, so a table never lacks one)."""
        if channel_id in self._by_channel:
            raise TableError("table_exists")
        spec = GAMES[game_key]
        game_key = spec.key  # "classic" opens a "blackjack" table
        game = spec.build(host_id, options, self._counted)
        await self._check_limits(guild_id, spec, game)
        now = self.clock()

        table = Table(
            0, guild_id, channel_id, parent_id, message_id, game_key, host_id, settings, game, 0
        )

        async def create(conn: Conn) -> tuple[list[Event], list[FloatMove]]:
            table.id = await store.insert_table(conn, table, now)
            table.has_float = True
            floats = await self._draw_float(conn, table)
            events: list[Event] = []
            if spec.host_plays and host_id not in game.seated():
                amount = await self._buy_in_amount(conn, table, host_id, buy_in)
                events = game.apply(Action(ActionKind.JOIN, host_id, amount=amount))
            table.last_acted[host_id] = 1  # stored with the snapshot, as a move's is
            join = Action(ActionKind.JOIN, host_id)
            await self._store(conn, table, events, host_id, None, join, new_version=1, now=now)
            return events, floats

        try:
            events, floats = await self.db.write(create)
        except IntegrityError as exc:  # another process opened one here meanwhile
            if "channel" not in str(exc):
                raise
            raise TableError("table_exists") from None
        table.version = 1
        self._remember(table)
        outcome = Outcome(table, events, floats=floats)
        self._notify(table, outcome)
        return outcome

    async def _draw_float(self, conn: Conn, table: Table) -> list[FloatMove]:
        """The new table's float, drawn whole from the treasury (``float_short``, naming
        what the casino lacks, when it cannot be)."""
        terms = float_terms(table.game)
        if not terms.target:
            return []
        key = f"float:{table.id}:open"
        fill = await self.bank.fill_float(
            conn, table.guild_id, table.id, terms.target, terms.target, key
        )
        assert fill is not None  # a new float holds nothing
        if fill.lacking:
            option = "guarantee_fund" if table.game_key == "sept_et_demi" else "max_bet"
            raise TableError(
                "float_short",
                lacking=fill.lacking,
                needed=terms.target,
                treasury=fill.treasury,
                option=option,
            )
        return [fill]

    async def _check_limits(self, guild_id: int, spec: GameSpec, game: AnyGame) -> None:
        """Refuse options above the guild's limits (the guild is set up first, in a
        transaction of its own: a refused table must not roll back a guild this process
        then believes is set up)."""
        await self.ensure_guild(guild_id)
        info = await self.bank.guild(guild_id)
        check_limits(spec.options, game.options.to_dict(), info)

    async def _ensure_guild(self, conn: Conn | None, guild_id: int) -> None:
        if guild_id not in self._guilds_ready:
            await self.bank.ensure_guild(
                guild_id, starting_balance=self.starting_balance, conn=conn
            )
            self._guilds_ready.add(guild_id)

    async def ensure_guild(self, guild_id: int) -> None:
        """Set the guild's bank up (treasury, starting balance) if it is new."""
        await self._ensure_guild(None, guild_id)

    async def set_message(self, table: Table, message_id: int) -> None:
        """Remember the public table message."""
        await self.db.write(store.set_message, table.id, message_id)
        table.message_id = message_id

    async def _buy_in_amount(
        self, conn: Conn | None, table: Table, user_id: int, asked: int | None
    ) -> int:
        """What a player brings to the table (``conn``: inside the caller's transaction)."""
        spec = GAMES[table.game_key]
        if not spec.money:
            return 0
        terms = table.game.buy_in()
        if terms.fixed is not None:
            if asked is not None and asked != terms.fixed:
                raise TableError("buy_in_fixed", amount=terms.fixed)
            return terms.fixed
        if asked is not None:
            return asked
        if terms.welcome:
            return 0
        await self._ensure_guild(conn, table.guild_id)
        # read only: a refused join must not open an account (and mint its starting balance)
        balance = await self.bank.spendable(table.guild_id, user_id, conn=conn)
        min_bet = terms.minimum
        # at least one minimum bet: a table opened with min_bet above the default buy-in
        # (or with no welcome stake) seats its host rather than refusing to open
        amount = min(balance, max(spec.default_buy_in, min_bet))
        if amount < min_bet:
            raise TableError("balance_too_low", balance=balance, needed=min_bet)
        return amount

    # ------------------------------------------------------------------ act

    async def join(
        self, table_id: int, user_id: int, buy_in: int | None, interaction_id: int | None = None
    ) -> Outcome:
        """Sit a player down (buy-in from the balance, or the game's welcome stake)."""
        async with self.lock(table_id):
            table = self._open(table_id)
            if not await self.invites.may_join(table, user_id):
                raise TableError("private_not_invited")
            amount = await self._buy_in_amount(None, table, user_id, buy_in)
            return await self._act_locked(
                table,
                user_id,
                Action(ActionKind.JOIN, user_id, amount=amount),
                interaction_id,
                None,
            )

    async def act(
        self,
        table_id: int,
        user_id: int | None,
        action: Action,
        *,
        interaction_id: int | None = None,
        seen_version: int | None = None,
    ) -> Outcome:
        """Apply one action under the table's lock and commit it with its postings."""
        async with self.lock(table_id):
            table = self._open(table_id)
            return await self._act_locked(table, user_id, action, interaction_id, seen_version)

    def _open(self, table_id: int) -> Table:
        table = self.get(table_id)
        if not table.is_open:
            raise TableError("closed")
        return table

    async def _act_locked(
        self,
        table: Table,
        user_id: int | None,
        action: Action,
        interaction_id: int | None,
        seen_version: int | None,
        *,
        retry: bool = True,
    ) -> Outcome:
        try:
            return await self._apply_and_commit(
                table, user_id, action, interaction_id, seen_version
            )
        except StaleTable:
            fresh = await self._reload(table)
            if fresh is None:
                raise TableError("closed") from None
            if not retry:
                raise
            # the player acted on what the table message showed: try it on the fresh copy
            return await self._act_locked(
                fresh, user_id, action, interaction_id, seen_version, retry=False
            )

    async def _apply_and_commit(
        self,
        table: Table,
        user_id: int | None,
        action: Action,
        interaction_id: int | None,
        seen_version: int | None,
    ) -> Outcome:
        if interaction_id is not None and await self._seen(interaction_id):
            return Outcome(table, [], replayed=True)
        if (
            seen_version is not None
            and user_id is not None
            and seen_version < table.last_acted.get(user_id, -1)
        ):
            raise StaleAction()
        if seen_version is not None and seen_version < table.round_version:
            raise TableError("round_over")  # a button of a round already settled
        house_needed = cover.house_needed(table, action, user_id)  # before any card
        await self._client_seeds(table, action, user_id)
        draws, shuffles = self._draws, table.game.shuffles
        events = table.game.apply(action)  # IllegalAction: nothing changed
        outcome = Outcome(table, list(events))
        try:
            house_needed += cover.welcome_needed(table, action, outcome.events)
            replay.follow_up(table, outcome)  # the same code replays it from the log
            # a new shoe (its seed, its client seeds): the log cannot redraw it
            drew = self._draws != draws or table.game.shuffles != shuffles
            await self._commit(table, outcome, user_id, interaction_id, action, house_needed, drew)
        except TableError as exc:
            await self._restore(table)
            raise cover.explained(table, action, user_id, exc) from None
        except IntegrityError as exc:
            await self._restore(table)
            if interaction_id is None or "interaction_id" not in str(exc):
                raise
            self._note_interaction(interaction_id)
            return Outcome(table, [], replayed=True)  # seen before (a restart in between)
        except StaleTable:
            raise  # the caller reloads the table: restoring this copy is pointless
        except BaseException:
            await self._restore(table)
            raise
        if interaction_id is not None:
            self._note_interaction(interaction_id)
        return outcome

    async def _client_seeds(self, table: Table, action: Action, user_id: int | None) -> None:
        """Give the game the client seeds of its seated players (and of a player sitting
        down), read again from the database when a player sits down or a round starts."""
        if self.seeds is None:
            return
        players = set(table.game.seated())
        if action.kind is ActionKind.JOIN and user_id is not None:
            players.add(user_id)
        refresh = action.kind in (ActionKind.JOIN, ActionKind.START)
        table.game.client_seeds = await self.seeds.of_players(players, refresh=refresh)

    async def _restore(self, table: Table) -> None:
        """Put the table back to its last committed move: the row's snapshot and the logged
        actions after it, replayed (a table does not keep a copy of its snapshot in memory,
        1-1.5 KiB per table)."""
        fresh = await self.committed(table.id)
        if fresh is not None:
            for name in replay.LOADED:
                setattr(table, name, getattr(fresh, name))

    def _note_interaction(self, interaction_id: int) -> None:
        self._recent[interaction_id] = None
        if len(self._recent) > RECENT_INTERACTIONS:
            self._recent.popitem(last=False)

    async def _seen(self, interaction_id: int) -> bool:
        if interaction_id in self._recent:
            return True
        if (interaction_id >> 22) + DISCORD_EPOCH_MS >= self._started_ms - CLOCK_SKEW_MS:
            return False  # created after this process started: it would be in memory
        return await self.db.read(store.acted, interaction_id)

    async def _commit(
        self,
        table: Table,
        outcome: Outcome,
        user_id: int | None,
        interaction_id: int | None,
        action: Action,
        house_needed: int = 0,
        drew: bool = False,
    ) -> None:
        """Store a move; a snapshot point (see :meth:`_store`) when it drew a seed, settled
        a round or closed the table."""
        new_version = table.version + 1
        now = self.clock()
        outcome.floats = await self._store(
            None,
            table,
            outcome.events,
            user_id,
            interaction_id,
            action,
            new_version=new_version,
            now=now,
            closing=outcome.closed,
            house_needed=house_needed,
            snapshot=drew or outcome.round_settled,  # a close always is one
        )
        table.version = new_version
        if outcome.closed:
            table.status = "closed"
            self._forget(table)
        self._notify(table, outcome)

    def _notify(self, table: Table, outcome: Outcome) -> None:
        """Tell the observers about a committed outcome (their errors are only logged)."""
        for observer in self.observers:
            try:
                observer(table, outcome)
            except Exception:
                log.exception("table observer failed")

    async def _store(
        self,
        conn: Conn | None,
        table: Table,
        events: Iterable[Event],
        user_id: int | None,
        interaction_id: int | None,
        action: Action,
        *,
        new_version: int,
        now: float,
        closing: bool = False,
        house_needed: int = 0,
        snapshot: bool = True,
    ) -> list[FloatMove]:
        """Write the move's :class:`MoveRecord` (inside ``conn``'s transaction, else in one of
        its own) and re-arm the timers; ``house_needed``: what the float must hold first (a
        bet's worst case). ``snapshot``: the caller's snapshot point (opening, a close, a
        settled round, a new shoe); every :data:`SNAPSHOT_EVERY` versions is one too. A move
        that starts a round refills the float, a close returns it: their entries."""
        events = list(events)
        effects = [m for e in events for m in e.money]
        # the deadline fields are part of the snapshot (the timers are derived from it and
        # from the last move's time at start-up): compute them before writing it
        deadline = (table.deadline_key, table.deadline_due)
        floated = table.has_float  # before this move's first round since an upgrade
        extra = self._riders(table, events, now)  # before advance: this round's number
        started = replay.advance(table, user_id, new_version, now, closing)
        refill = float_terms(table.game) if started and not closing else None
        snapshot = snapshot or closing or new_version - table.snapshot_version >= SNAPSHOT_EVERY
        state_json = table.snapshot_json() if snapshot else None
        try:  # one transaction: postings, snapshot, action row
            move = MoveRecord(
                guild_id=table.guild_id,
                table_id=table.id,
                version=new_version,
                user_id=user_id,
                interaction_id=interaction_id,
                action_json=orjson.dumps(action.to_dict()).decode(),
                at=now,
                round_no=table.game.round,  # (advance only reads it)
                money=effects,
                state_json=state_json,
                since=table.snapshot_version,
                closing=closing,
                house_needed=house_needed,
                floated=floated,
                refill=refill,
                extra=extra,
            )
            write = self._write_move  # a move (conn None): in a transaction of its own
            moved = await (self.db.write(write, move) if conn is None else write(conn, move))
        except BaseException:
            table.deadline_key, table.deadline_due = deadline
            table.has_float = floated
            raise
        if snapshot:
            table.snapshot_version = new_version
        table.moved_at = now
        if not closing:
            self.timers.arm(table, now + table.settings.idle_timer)
        return moved

    def _riders(
        self, table: Table, events: list[Event], now: float
    ) -> list[tuple[str, tuple[object, ...]]]:
        """The statements that ride in a move's round trip: a settled round's results (the
        statistics, bot/stats/results.py) and its history (bot/tables/history.py)."""
        chronicle = history.chronicle(table, events, table.round_no, now, self.summarize)
        return [
            *settled_statements(table.guild_id, table.id, table.game_key, events, now),
            *(history.statements(table.id, chronicle) if chronicle else ()),
        ]

    async def _write_move(self, c: Conn, move: MoveRecord) -> list[FloatMove]:
        """One move: the house's cover (``move.house_needed``: what the table's float, or
        the treasury when it has none yet, must hold first, else it is refused), its rows
        and the cover (:func:`.store.write_row`), then its postings through the bank
        (``move.floated``: the house's side is the float), then the float's refill
        (``move.refill``: a round started) or, at a close, its credit. The rows before the
        postings: the action row's UNIQUE (table, version) refuses a stale copy (another
        process moved the table on) before the bank sees postings keyed by a version
        already used, and on PostgreSQL a concurrent writer of the same version waits on
        that index entry, then is refused."""
        guild, table_id, floated, refill = move.guild_id, move.table_id, move.floated, move.refill
        held = None
        if move.house_needed:
            account = (
                await escrow_account(c, guild, "house", table_id)
                if floated
                else await system_account(c, guild, "house")
            )
            held = (account, move.house_needed)
        full = None
        if refill is not None and refill.target and floated:  # one statement more, no trip
            net = sum(
                m.amount if m.dst == HOUSE else -m.amount
                for m in move.money
                if HOUSE in (m.src, m.dst)
            )
            full = (await escrow_account(c, guild, "house", table_id), net, refill.low)
        try:
            enough = await store.write_row(c, move, held, full)
        except TableError as exc:
            if not floated or exc.code != "house_cannot_cover":
                raise
            available = await float_balance(c, guild, table_id)
            raise TableError(
                "float_cannot_cover", needed=move.house_needed, available=available
            ) from None
        if move.money:  # the whole move rolls back if this raises: no savepoint
            await self.bank.post_effects(
                c,
                guild,
                table_id,
                move.round_no,
                move.money,
                move.posting_key,
                move.user_id,
                own_savepoint=False,
                floated=floated,
            )
        return await self._float_moves(
            c, guild, table_id, move.version, None if enough and full else refill, move.closing
        )

    async def _float_moves(
        self,
        c: Conn,
        guild_id: int,
        table_id: int,
        version: int,
        refill: FloatTerms | None,
        closing: bool,
    ) -> list[FloatMove]:
        """A started round's refill of the float, a close's credit (after the move's
        postings: the settlement first)."""
        key = f"float:{table_id}:v{version}"
        moved: FloatMove | None = None
        if refill is not None and refill.target:
            moved = await self.bank.fill_float(
                c, guild_id, table_id, refill.target, refill.low, key
            )
        elif closing:
            moved = await self.bank.credit_float(c, guild_id, table_id, key)
        return [] if moved is None else [moved]

    # ------------------------------------------------------------------ timers

    @property
    def paused(self) -> set[int]:
        """Tables whose timers are held (a locked thread)."""
        return self.timers.paused

    @property
    def timer_entries(self) -> int:
        """Entries in the timer heap, live or superseded (the benches print it)."""
        return len(self.timers)

    def next_due(self) -> float | None:
        """When the next timer is due, if any."""
        return self.timers.next_due()

    def pause(self, table_id: int) -> None:
        """Hold a table's timers (its thread is locked: no player can move there)."""
        self.timers.paused.add(table_id)

    def resume(self, table_id: int) -> None:
        """Start a paused table's timers again, each from now in full (the players could
        not move while it was paused)."""
        self.timers.resume(table_id, self.clock)

    def pop_due(self, now: float) -> list[tuple[int, str, int]]:
        """The timers due at ``now``, each with its table's current version (a paused
        table's are dropped: ``resume`` arms them again)."""
        return self.timers.pop_due(now)

    async def fire(self, table_id: int, kind: str, version: int) -> Outcome | None:
        """Apply a due timer: the game's timeout fallback, or closing an idle table."""
        async with self.lock(table_id):
            table = self._tables.get(table_id)
            if table is None or not table.is_open or table.version != version:
                return None
            if kind == "idle":
                try:
                    return await self._close_locked(table, None, "idle", retry=False)
                except (StaleTable, TableError):  # reloaded: the fresh copy has its own timers
                    return None
            if ActionKind.TIMEOUT not in table.game.legal_actions(None):
                return None
            try:
                return await self._act_locked(
                    table, None, Action(ActionKind.TIMEOUT), None, None, retry=False
                )
            except (StaleTable, TableError):  # reloaded: the fresh copy has its own timers
                return None

    # ------------------------------------------------------------------ close

    async def close_table(self, table_id: int, actor: int | None, reason: str) -> Outcome:
        """Close a table: refund the unfinished round, turn every stack into a claim."""
        async with self.lock(table_id):
            return await self._close_locked(self._open(table_id), actor, reason)

    async def _close_locked(
        self, table: Table, actor: int | None, reason: str, *, retry: bool = True
    ) -> Outcome:
        outcome = Outcome(table, [], closed=True, notes=[reason])
        try:
            replay.try_action(table, outcome, Action(ActionKind.CLOSE))
            await self._commit(table, outcome, actor, None, Action(ActionKind.CLOSE, actor))
        except StaleTable:
            fresh = await self._reload(table)
            if fresh is None:
                raise TableError("closed") from None
            if not retry:
                raise
            return await self._close_locked(fresh, actor, reason, retry=False)
        except BaseException:
            await self._restore(table)
            raise
        return outcome
