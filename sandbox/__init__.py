"""``python -m sandbox``: play Croupier in a browser, without Discord.

The real bot (same cogs, same database code, on a sandbox database file) runs against
SimCord's simulated Discord. The sandbox builds a guild "Croupier" with a text channel for
the tables, a forum channel "casino" and a bank channel, adds the players (each with the
guild's starting balance), opens a table of the chosen game in the tables channel itself
(``/table open here:True``: the preview presents one channel, not threads), and serves
SimCord's local browser preview on 127.0.0.1. The page's "Viewing as" menu switches between
the players, who type slash commands and press the table's buttons.

Hidden cards: DMs are closed in the sandbox (the preview cannot show a DM channel next to
the table), so the bot falls back the way it does on Discord for a player with closed DMs:
the acting player sees their new private cards as an ephemeral message, and every player
sees theirs with ``/hand`` or the table's "My cards" button while viewing as that player.

Cards: the bot uploads its card pictures as application emojis at start-up, as on
Discord (``bot/discord/card_emojis.py``); SimCord keeps an emoji's name but not its image, so
the page is handed each picture's PNG (``card_assets``). ``--language fr`` makes every
player choose French (``/language``), so the table and the answers are in French.

Time: SimCord's clock is virtual. A small ticker advances it with the wall clock once a
second, so turn timers fire as on Discord (``--no-clock`` freezes it: timers never fire),
and keeps the page's "now" with it: a deadline reads "in 1 minute", redrawn every few
seconds, in the table's language (``Clock``).
The sandbox runs until Ctrl-C (or "End preview session" in the page's More menu).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import signal
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

DEFAULT_DB = "data/sandbox.sqlite3"
DEFAULT_PORT = 8765
NAMES = ("alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi")
MAX_PLAYERS = len(NAMES)
GUILD_NAME = "Croupier"
TABLES_CHANNEL = "tables"
FORUM_CHANNEL = "casino"
BANK_CHANNEL = "bank"
TICK_SECONDS = 1.0

TOPIC = (
    "Croupier sandbox · switch players with “Viewing as” · your hidden cards: /hand or the "
    "“My cards” button (only the player you view as sees them)"
)

log = logging.getLogger("croupier.sandbox")


@dataclass
class SandboxPlayer:
    """A sandbox player: the user (owns the DM channel) and the guild member (acts)."""

    user: Any
    member: Any

    @property
    def id(self) -> int:
        return int(self.member.id)

    @property
    def name(self) -> str:
        return str(self.user.name)


@dataclass
class Sandbox:
    """The simulated world the sandbox serves."""

    env: Any
    guild: Any
    tables: Any  # the text channel the page presents
    forum: Any
    bank: Any
    players: list[SandboxPlayer]
    game: str
    preview: Any = None
    table_opened: bool = False
    notes: list[str] = field(default_factory=list)  # refusals met while setting up

    @property
    def url(self) -> str:
        """The page's address (its #fragment is the session's key)."""
        assert self.preview is not None, "the preview is not running"
        return str(self.preview.url)

    @property
    def host(self) -> SandboxPlayer:
        return self.players[0]


def reset_database(path: str | Path) -> Path:
    """A fresh sandbox database: the simulated world is new at every start, so old tables
    would point at channels that no longer exist."""
    db = Path(path)
    db.parent.mkdir(parents=True, exist_ok=True)
    for suffix in ("", "-wal", "-shm", "-journal"):
        extra = db.with_name(db.name + suffix)
        if extra.exists():
            extra.unlink()
    return db


def help_text(sandbox: Sandbox, *, table: bool | None = None) -> str:
    """What to do once the page is open (``table``: whether a table is open, default: as
    it is now)."""
    names = ", ".join(p.name for p in sandbox.players)
    lines = [
        f"Players: {names} (pick one in “Viewing as”; {sandbox.host.name} hosts the table).",
    ]
    if sandbox.table_opened if table is None else table:
        lines.append(
            f"A {sandbox.game} table is open in #{TABLES_CHANNEL}; everyone is seated: "
            f"as {sandbox.host.name}, press Start."
        )
    else:
        lines.append(f"Open a table: type /table open game:{sandbox.game} here:True")
    lines += [
        "Play with the table's buttons or slash commands (/bet, /hit, /stand, /table status…).",
        "Hidden cards: DMs are closed here, so view as the player and use /hand or the "
        "“My cards” button; the player who acts also gets their new cards as a message "
        "only they see.",
    ]
    lines += [f"Note: {note}" for note in sandbox.notes]
    return "\n".join(lines)


async def build_world(
    env: Any,
    *,
    players: int = 3,
    game: str = "blackjack",
    open_table: bool = True,
    language: str | None = None,
) -> Sandbox:
    """Guild, channels, players with their starting balance (and ``/language`` choice),
    and (optionally) a table: in the host's language, as on Discord."""
    if not 1 <= players <= MAX_PLAYERS:
        raise ValueError(f"players must be between 1 and {MAX_PLAYERS}")
    guild = env.create_guild(GUILD_NAME)
    tables = guild.create_text_channel(TABLES_CHANNEL, topic=TOPIC)
    forum = guild.create_forum_channel(FORUM_CHANNEL)
    bank = guild.create_text_channel(BANK_CHANNEL, topic="The casino's bank")
    seated = []
    for name in NAMES[:players]:
        user = env.create_user(name)
        seated.append(SandboxPlayer(user, guild.add_member(user)))
    from bot.engine.registry import GAMES

    key = GAMES.key(game)  # "classic" is "blackjack"
    if key is None:
        raise ValueError(f"no game {game!r}: {', '.join(GAMES.names())}")
    sandbox = Sandbox(env, guild, tables, forum, bank, seated, key)
    # DMs closed: private cards fall back to ephemeral messages and /hand (see the docstring).
    env.inject_error(
        "POST",
        "/users/@me/channels",
        status=403,
        code=50007,
        message="Cannot send messages to this user",
        times=None,
    )
    service = env.bot.tables
    await service.ensure_guild(guild.id)
    for player in seated:
        await service.bank.open_account(guild.id, player.id)
        if language:
            await env.bot.prefs.set_locale(player.id, language)
    await post_guide(sandbox, table=open_table)
    if open_table:
        await open_sandbox_table(sandbox)
    return sandbox


async def open_sandbox_table(sandbox: Sandbox) -> None:
    """The host opens a table in the tables channel itself; the others sit down."""
    host = sandbox.host
    result = await host.member.slash(
        sandbox.tables, "table open", game=sandbox.game, name="Sandbox", here=True
    )
    service = sandbox.env.bot.tables
    if service.table_in(sandbox.tables.id) is None:
        sandbox.notes.append(f"the table did not open: {_reply_text(result)}")
        return
    sandbox.table_opened = True
    for player in sandbox.players:
        if not _may_join(service, sandbox, player):
            continue  # the host is seated by opening
        result = await player.member.slash(sandbox.tables, "table join")
        if _may_join(service, sandbox, player):
            sandbox.notes.append(f"{player.name} could not sit down: {_reply_text(result)}")


def _may_join(service: Any, sandbox: Sandbox, player: SandboxPlayer) -> bool:
    from bot.engine.base import ActionKind

    table = service.table_in(sandbox.tables.id)
    return table is not None and ActionKind.JOIN in table.game.legal_actions(player.id)


def _reply_text(result: Any) -> str:
    response = getattr(result, "response", None)
    text = getattr(response, "content", None) or ""
    for followup in getattr(result, "followups", None) or []:
        text = text or getattr(followup, "content", "") or ""
    return text or "no reply"


#: the page's words for a table's language (its dates, "in 1 minute" / "dans 1 minute")
PAGE_LOCALES = {"en": "en-US", "fr": "fr"}
REFRESH_SECONDS = 5.0  # a shown countdown ("ends in 40 seconds") is redrawn this often


def page_locale(env: Any, channel_id: int, default: str) -> str:
    """The page's locale: the language of the table open in the channel, else ``default``."""
    table = env.bot.tables.table_in(channel_id)
    return default if table is None else PAGE_LOCALES.get(table.settings.locale, default)


class Clock:
    """Moves SimCord's virtual clock with the wall clock, one step a second, between the
    page's actions (a SimCord operation must not overlap another). The page draws a
    relative time ("ends in 1 minute") from its presentation time, which SimCord moves only
    at a refresh: the clock keeps it at the virtual now, so an action's page never counts
    from a stale one, redraws a shown countdown every few seconds, and dates the table in
    its own language."""

    def __init__(self, env: Any, preview: Any, lock: asyncio.Lock) -> None:
        self.env = env
        self.preview = preview
        self.lock = lock
        self.since_refresh = 0.0

    async def run(self) -> None:
        loop = asyncio.get_running_loop()
        last = loop.time()
        while True:
            await asyncio.sleep(TICK_SECONDS)
            now = loop.time()
            step, last = now - last, now
            try:
                await self.step(step)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.warning("the sandbox clock could not advance", exc_info=True)

    async def step(self, seconds: float) -> None:
        async with self.lock:
            before = len(self.env.backend.transcript)
            await self.env.advance_time(seconds)
            if self.preview._closed:
                return
            preview = self.preview
            preview.capture_time = datetime.fromisoformat(self.env.backend.now_iso())
            preview.locale = page_locale(self.env, preview.channel.id, preview.locale)
            self.since_refresh += seconds
            changed = len(self.env.backend.transcript) != before  # what the timers did
            if changed or (self.since_refresh >= REFRESH_SECONDS and self.countdown()):
                self.since_refresh = 0.0
                await preview.refresh()

    def countdown(self) -> bool:
        """Whether the table shows a deadline, whose relative time moves as time passes."""
        table = self.env.bot.tables.table_in(self.preview.channel.id)
        return table is not None and table.deadline_due is not None


def card_assets(bot: Any) -> dict[str, tuple[str, bytes]]:
    """The card pictures for the preview page: SimCord keeps an uploaded emoji's name but
    not its image, so the page gets each emoji's PNG under the CDN address it asks for."""
    from simcord.backend.cdn import CDN_BASE

    service = bot.card_emojis
    faces = {face.key: face for face in service.faces}
    return {
        f"{CDN_BASE}/emojis/{emoji_id}.png": (f"{faces[key].name}.png", faces[key].image)
        for key, emoji_id in service.ids.items()
    }


def dress_preview(env: Any) -> None:
    """Two cosmetic touches to SimCord's page, best effort: the bot is called Croupier,
    and user mentions render in embed descriptions and field values as Discord renders
    them (the preview leaves them as ``<@id>``, so nobody could tell the seats apart)."""
    try:
        env.backend.bot_user.name = "Croupier"
    except AttributeError:
        log.debug("could not rename the simulated bot user")
    try:
        from simcord.preview import _markdown

        for name in ("embed_description", "embed_field_value"):
            _markdown._FIELD_POLICIES[name]["mentions"] = True
    except (ImportError, AttributeError, KeyError):
        log.debug("could not turn on mentions in the preview's embeds")


async def post_guide(sandbox: Sandbox, *, table: bool) -> None:
    """A first message in the tables channel, from a webhook: how to play here."""
    guide = sandbox.guild.create_webhook(sandbox.tables, "Sandbox guide")
    text = "**Croupier sandbox**\n" + help_text(sandbox, table=table)
    await guide.send(text, username="Sandbox guide")


def serialize_actions(preview: Any, lock: asyncio.Lock) -> None:
    """Run the page's actions under ``lock`` so the clock never overlaps one."""
    original: Callable[..., Awaitable[Any]] = preview._action

    async def locked(*args: Any, **kwargs: Any) -> Any:
        async with lock:
            return await original(*args, **kwargs)

    preview._action = locked


@contextlib.asynccontextmanager
async def running_sandbox(
    *,
    players: int = 3,
    game: str = "blackjack",
    port: int = DEFAULT_PORT,
    db_path: str | Path = DEFAULT_DB,
    open_table: bool = True,
    clock: bool = True,
    entropy: Any = None,
    language: str | None = None,
) -> AsyncIterator[Sandbox]:
    """The bot on SimCord with the sandbox world and the preview served on loopback."""
    import simcord

    from bot.app import create_bot

    db = reset_database(db_path)
    kwargs: dict[str, Any] = {"database_path": str(db)}
    if entropy is not None:
        kwargs["entropy"] = entropy
    bot = create_bot(**kwargs)
    try:
        async with simcord.run(bot, check_errors=False) as env:
            dress_preview(env)
            sandbox = await build_world(
                env, players=players, game=game, open_table=open_table, language=language
            )
            viewers = [p.member for p in sandbox.players]
            async with env.preview(
                sandbox.tables,
                viewers=viewers,
                layout="channel",
                port=port,
                width=1100,
                height=800,
                locale="fr" if language == "fr" else "en-US",  # the page's own words
                assets=card_assets(env.bot),
            ) as preview:
                sandbox.preview = preview
                lock = asyncio.Lock()
                serialize_actions(preview, lock)
                ticker = asyncio.create_task(Clock(env, preview, lock).run()) if clock else None
                try:
                    yield sandbox
                finally:
                    if ticker is not None:
                        ticker.cancel()
                        with contextlib.suppress(asyncio.CancelledError):
                            await ticker
    finally:
        # SimCord detaches the bot without closing it: close the database ourselves, or
        # its worker thread keeps the process alive after Ctrl-C.
        if bot.has_services:
            await bot.db.close()


async def serve(args: argparse.Namespace) -> int:
    """Start, print the address and the help, and wait for Ctrl-C or the page's end."""
    from simcord import SetupError

    try:
        async with running_sandbox(
            players=args.players,
            game=args.game,
            port=args.port,
            db_path=args.db,
            open_table=not args.no_table,
            clock=not args.no_clock,
            language=args.language,
        ) as sandbox:
            print(f"Croupier sandbox: {args.game} with {args.players} player(s), db {args.db}")
            print(f"Open this address in your browser: {sandbox.url}", flush=True)
            if args.open:
                import webbrowser

                webbrowser.open(sandbox.url)  # best effort: the address is printed above
            print(help_text(sandbox))
            print("Ctrl-C stops the sandbox.", flush=True)
            stop = asyncio.Event()
            loop = asyncio.get_running_loop()
            with contextlib.suppress(NotImplementedError, RuntimeError):
                loop.add_signal_handler(signal.SIGTERM, stop.set)
            ended = asyncio.ensure_future(sandbox.preview.wait_closed())
            stopped = asyncio.ensure_future(stop.wait())
            try:
                await asyncio.wait((ended, stopped), return_when=asyncio.FIRST_COMPLETED)
                by_page = ended.done()
            finally:
                ended.cancel()
                stopped.cancel()
            print("The preview session ended." if by_page else "Sandbox stopped.")
    except SetupError as exc:
        print(f"sandbox: {exc}", file=sys.stderr)
        if "bind" in str(exc):
            print("Try another port, e.g. --port 0 for any free one.", file=sys.stderr)
        return 1
    return 0


def main(argv: list[str]) -> int:
    """``python -m sandbox [--players 3] [--port 8765] [--game blackjack] [--language fr]``."""
    from bot.tables import GAMES

    parser = argparse.ArgumentParser(
        prog="python -m sandbox",
        description="Play Croupier in your browser against a simulated Discord (SimCord).",
    )
    parser.add_argument(
        "--players", type=int, default=3, help=f"number of players, 1-{MAX_PLAYERS} (3)"
    )
    parser.add_argument(
        "--port", type=int, default=DEFAULT_PORT, help=f"loopback port, 0 = any ({DEFAULT_PORT})"
    )
    parser.add_argument(
        "--game", choices=GAMES.names(), default="blackjack", help="the game (blackjack)"
    )
    parser.add_argument(
        "--db", default=DEFAULT_DB, help=f"database file, reset at start ({DEFAULT_DB})"
    )
    parser.add_argument(
        "--language", choices=("en", "fr"), help="every player's /language (the table's too)"
    )
    parser.add_argument("--open", action="store_true", help="open the page in your browser")
    parser.add_argument("--no-table", action="store_true", help="do not pre-open a table")
    parser.add_argument("--no-clock", action="store_true", help="freeze time: timers never fire")
    args = parser.parse_args(argv)
    if not 1 <= args.players <= MAX_PLAYERS:
        parser.error(f"--players must be between 1 and {MAX_PLAYERS}")
    if not 0 <= args.port <= 65535:
        parser.error("--port must be between 0 and 65535")
    import importlib.util

    if any(importlib.util.find_spec(m) is None for m in ("simcord", "aiohttp", "markdown_it")):
        print("The sandbox needs SimCord's preview: pip install -e '.[sandbox]'", file=sys.stderr)
        return 2
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    logging.getLogger("discord").setLevel(logging.ERROR)  # voice and intent notices
    try:
        return asyncio.run(serve(args))
    except KeyboardInterrupt:
        print("\nSandbox stopped.")
        return 0
