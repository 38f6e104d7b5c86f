"""The bank audit: ``python -m bot audit [--guild ID] [--full] [--db PATH_OR_URL]``.

What it proves, and how it starts from the last audit's checkpoint, is in
``bot.bank.proof``. ``--full`` proves the whole ledger from its first entry and every
checkpoint with it.
"""

from __future__ import annotations

import argparse
import asyncio
import sys

from bot.bank import AuditReport, audit
from bot.config import load_settings

from . import REFUSED


async def _run(path: str, guild_id: int | None, full: bool) -> AuditReport:
    from bot.db.check import open_checked

    db = await open_checked(path, must_exist=True)
    try:
        return await audit(db, guild_id, full=full)
    finally:
        await db.close()


def main(argv: list[str] | None = None) -> int:
    """CLI entry: print the report; exit 0 when clean, 1 on any difference, 2 on error."""
    parser = argparse.ArgumentParser(
        prog="python -m bot audit", description="Audit the bank ledger."
    )
    parser.add_argument("--guild", type=int, default=None, help="only this guild")
    parser.add_argument(
        "--full",
        action="store_true",
        help="prove every entry from the first, and the last checkpoint (default: from it on)",
    )
    parser.add_argument(
        "--db",
        help="SQLite file or postgresql:// URL (default: $DATABASE_URL, else $DATABASE_PATH)",
    )
    args = parser.parse_args(argv)
    try:
        settings = load_settings()
    except REFUSED as exc:
        print(f"bank audit: {exc}", file=sys.stderr)
        return 2
    path = args.db or settings.database_url
    try:
        report = asyncio.run(_run(path, args.guild, args.full))
    except REFUSED as exc:  # not a database, damaged, newer than this code
        print(f"bank audit: {exc}", file=sys.stderr)
        return 2
    except Exception as exc:  # a missing bank schema, a locked file
        print(f"bank audit: error: {exc}", file=sys.stderr)
        return 2
    print(report.format())
    return 0 if report.ok else 1


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
