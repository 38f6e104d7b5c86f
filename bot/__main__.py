"""``python -m bot``: run the bot (default) or an operator command."""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Callable

from bot.cli import REFUSED
from bot.config import load_settings
from bot.errors import ConfigError


def _run(args: argparse.Namespace) -> int:
    settings = load_settings()
    token = settings.require_token()
    from bot.logs import setup_logging

    setup_logging(  # no private card nor token in the logs (bot/logs.py)
        settings.log_level, http_bodies=settings.log_http_bodies, secrets=[token]
    )
    from bot.db import is_postgres, sqlite_path
    from bot.db.check import open_checked

    url = settings.database_url

    async def preflight() -> None:  # before any connection to Discord
        db = await open_checked(url)
        await db.close()

    asyncio.run(preflight())
    from bot.app import create_bot
    from bot.db.lock import claim

    if not is_postgres(url):
        claim(sqlite_path(url))  # held until the process ends (the bot's own claim shares it)
    from bot.discord.startup import explain

    bot = create_bot(settings, settle_heap=True)
    try:
        bot.run(token, log_handler=None)
    except Exception as exc:
        failure = explain(exc)
        if failure is None:
            raise
        sentence, status = failure
        print(sentence, file=sys.stderr)
        return status
    return 0


def _url(args: argparse.Namespace) -> str:
    """``--db``, else DATABASE_URL (or DATABASE_PATH)."""
    return str(args.db) if args.db else load_settings().database_url


def _migrate(args: argparse.Namespace) -> int:
    from bot.db import migrate
    from bot.db.check import open_checked

    url = _url(args)

    async def go() -> list[str]:
        db = await open_checked(url)
        try:
            return await migrate(db)
        finally:
            await db.close()

    applied = asyncio.run(go())
    shown = _shown(url)
    print(f"{shown}: applied {', '.join(applied)}" if applied else f"{shown}: already up to date")
    return 0


def _shown(url: str) -> str:
    from bot.db import is_postgres

    if is_postgres(url):
        from bot.db.postgres import redact

        return redact(url)
    return url


def _backup(args: argparse.Namespace) -> int:
    from bot.db import is_postgres
    from bot.db.check import open_checked

    url = _url(args)
    if is_postgres(url):
        raise ConfigError(
            "backups of a PostgreSQL database are PostgreSQL's job: use pg_dump or base "
            "backups (pg_basebackup)."
        )

    async def go() -> None:
        db = await open_checked(url, must_exist=True, allow_newer=True)
        try:
            await db.backup(args.path)
        finally:
            await db.close()

    asyncio.run(go())
    print(f"backed up {url} to {args.path}")
    return 0


def _delegate(module: str) -> Callable[[list[str]], int]:
    """A subcommand implemented by ``module.main(argv)``, imported only when used."""

    def run(argv: list[str]) -> int:
        import importlib

        main_fn: Callable[[list[str]], int] = importlib.import_module(module).main
        return main_fn(argv)

    return run


# Subcommands that parse their own arguments.
DELEGATED: dict[str, Callable[[list[str]], int]] = {
    "simulate": _delegate("bot.engine.sim"),
    "audit": _delegate("bot.cli.audit"),
    "verify": _delegate("bot.engine.verify"),
    "rules-doc": _delegate("bot.engine.rules_doc"),
    "import-sqlite": _delegate("bot.cli.import_sqlite"),
}


def main(argv: list[str] | None = None) -> int:
    """Entry point of ``python -m bot`` and of the ``croupier`` script."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] in DELEGATED:
        return DELEGATED[argv[0]](argv[1:])
    parser = argparse.ArgumentParser(prog="croupier", description="Croupier, the card-table bot.")
    sub = parser.add_subparsers(dest="command")
    sub.add_parser("run", help="run the bot (default)")
    where = "SQLite file or postgresql:// URL (default: DATABASE_URL, else DATABASE_PATH)"
    p = sub.add_parser("migrate", help="apply pending database migrations")
    p.add_argument("--db", help=where)
    p = sub.add_parser("backup", help="online copy of an SQLite database")
    p.add_argument("path")
    p.add_argument("--db", help="SQLite file (default: DATABASE_URL, else DATABASE_PATH)")
    for name in DELEGATED:
        sub.add_parser(name, help=f"see `{name} --help`", add_help=False)
    args = parser.parse_args(argv)
    handlers = {None: _run, "run": _run, "migrate": _migrate, "backup": _backup}
    try:
        return handlers[args.command](args)
    except REFUSED as exc:
        print(exc, file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
