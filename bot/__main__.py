"""``python -m bot``: run the bot (default) or an operator command."""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import sys
from collections.abc import Callable

from bot.config import ConfigError, load_settings


def _run(args: argparse.Namespace) -> int:
    settings = load_settings()
    token = settings.require_token()
    shard = getattr(args, "shard", None)
    from bot.logs import setup_logging

    setup_logging(  # no private card nor token in the logs (bot/logs.py)
        settings.log_level, shard=shard, http_bodies=settings.log_http_bodies, secrets=[token]
    )
    from bot.shards import ShardLayout, check_files

    if shard is not None:
        settings = dataclasses.replace(settings, shard_id=shard)
    # before any connection to Discord: files of another layout, an unsplit database
    layout = ShardLayout(settings.shard_id, settings.shard_count)
    asyncio.run(check_files(settings.database_path, layout))
    if shard is None and settings.shard_count > 1:
        from bot.launcher import run_shards

        return run_shards(settings.shard_count)
    from bot.app import create_bot
    from bot.db.lock import claim

    base = settings.database_path
    # held until the process ends (the bot's own claim shares it)
    claim(ShardLayout(settings.shard_id, settings.shard_count).database_path(base))
    bot = create_bot(settings, settle_heap=True)
    bot.run(token, log_handler=None)
    return 0


def _files(args: argparse.Namespace) -> tuple[list[str], list[str]]:
    """The database files (``--db``, else the one file or each shard's) and the users file
    the shards share (none for one file)."""
    if args.db:
        return [args.db], []
    from bot.shards import shard_files

    settings = load_settings()
    files = shard_files(settings.database_path, settings.shard_count, users=True)
    return files[: settings.shard_count], files[settings.shard_count :]


def _migrate(args: argparse.Namespace) -> int:
    from bot.db import migrate, open_database
    from bot.shards import users_schema

    async def go(path: str, users: bool) -> list[str]:
        db = await open_database(path)
        try:
            if users:  # the file the shards share has one table, not the migrations
                await db.write(users_schema)
                return []
            return await migrate(db)
        finally:
            await db.close()

    databases, users = _files(args)
    for path in databases:
        applied = asyncio.run(go(path, False))
        print(f"{path}: applied {', '.join(applied)}" if applied else f"{path}: already up to date")
    for path in users:
        asyncio.run(go(path, True))
        print(f"{path}: users' settings ready")
    return 0


def _backup(args: argparse.Namespace) -> int:
    from pathlib import Path

    from bot.db import open_database

    databases, users = _files(args)
    files = databases + users
    missing = [p for p in files if not Path(p).is_file()]
    if missing:
        raise ConfigError(f"no database at {', '.join(missing)}: nothing was backed up.")
    # several files (a sharded bot): PATH is a folder that gets each one under its own name
    targets = (
        [args.path] if len(files) == 1 else [str(Path(args.path) / Path(p).name) for p in files]
    )

    async def go(path: str, target: str) -> None:
        db = await open_database(path)
        try:
            await db.backup(target)
        finally:
            await db.close()

    for path, target in zip(files, targets, strict=True):
        asyncio.run(go(path, target))
        print(f"backed up {path} to {target}")
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
    "audit": _delegate("bot.bank.audit"),
    "verify": _delegate("bot.engine.verify"),
    "split": _delegate("bot.db.split"),
    "rules-doc": _delegate("bot.engine.rules_doc"),
}


def main(argv: list[str] | None = None) -> int:
    """Entry point of ``python -m bot`` and of the ``croupier`` script."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] in DELEGATED:
        return DELEGATED[argv[0]](argv[1:])
    parser = argparse.ArgumentParser(prog="croupier", description="Croupier, the card-table bot.")
    sub = parser.add_subparsers(dest="command")
    p = sub.add_parser("run", help="run the bot (default)")
    p.add_argument("--shard", type=int, help="run only this shard (started by the launcher)")
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
