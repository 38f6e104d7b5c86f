"""``python -m bot``: run the bot (default) or an operator command."""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
from collections.abc import Callable

from bot.config import ConfigError, load_settings


def _run(args: argparse.Namespace) -> int:
    settings = load_settings()
    try:
        token = settings.require_token()
    except ConfigError as exc:
        print(exc, file=sys.stderr)
        return 2
    logging.basicConfig(
        level=settings.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    from bot.app import create_bot

    bot = create_bot(settings, settle_heap=True)
    bot.run(token, log_handler=None)
    return 0


def _migrate(args: argparse.Namespace) -> int:
    from bot.db import Database, migrate

    path = args.db or load_settings().database_path

    async def go() -> list[str]:
        db = await Database.open(path)
        try:
            return await migrate(db)
        finally:
            await db.close()

    applied = asyncio.run(go())
    print(f"{path}: applied {', '.join(applied)}" if applied else f"{path}: already up to date")
    return 0


def _backup(args: argparse.Namespace) -> int:
    from bot.db import Database

    path = args.db or load_settings().database_path

    async def go() -> None:
        db = await Database.open(path)
        try:
            await db.backup(args.path)
        finally:
            await db.close()

    asyncio.run(go())
    print(f"backed up {path} to {args.path}")
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
    "simulate": _delegate("bot.engine.simulate"),
    "audit": _delegate("bot.bank.audit"),
    "verify": _delegate("bot.engine.verify"),
    "bench": _delegate("bot.bench"),
    "sandbox": _delegate("bot.sandbox"),
}


def main(argv: list[str] | None = None) -> int:
    """Entry point of ``python -m bot`` and of the ``croupier`` script."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] in DELEGATED:
        return DELEGATED[argv[0]](argv[1:])
    parser = argparse.ArgumentParser(prog="croupier", description="Croupier, the card-table bot.")
    sub = parser.add_subparsers(dest="command")
    sub.add_parser("run", help="run the bot (default)")
    p = sub.add_parser("migrate", help="apply pending database migrations")
    p.add_argument("--db", help="database file (default: DATABASE_PATH)")
    p = sub.add_parser("backup", help="online copy of the database")
    p.add_argument("path")
    p.add_argument("--db", help="database file (default: DATABASE_PATH)")
    for name in DELEGATED:
        sub.add_parser(name, help=f"see `{name} --help`", add_help=False)
    args = parser.parse_args(argv)
    handlers = {None: _run, "run": _run, "migrate": _migrate, "backup": _backup}
    try:
        return handlers[args.command](args)
    except ConfigError as exc:
        print(exc, file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
