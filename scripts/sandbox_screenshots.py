"""Screenshots of the sandbox in headless Chromium: each game, in English and in French.

``python scripts/sandbox_screenshots.py [--out docs/screenshots] [--games blackjack ...]``

For each game and language: the sandbox (``sandbox/``, SimCord's browser preview)
with 4 players who chose that language, a round dealt and a few moves played, then a
screenshot of the page as Debian's Chromium (``/usr/bin/chromium``, driven by Playwright)
shows it, viewing as the host: ``<game>-<language>.png``; with ``--closed``, also the
table after a whole round and its close: ``<game>-<language>-closed.png``. The shuffles
are seeded, so the pictures are the same at every run. Needs ``pip install -e '.[dev,sandbox]'`` and
``apt-get install chromium``.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.engine.base import ActionKind, Phase  # noqa: E402
from bot.engine.registry import GAMES  # noqa: E402
from bot.engine.shuffle import seeded_entropy  # noqa: E402
from sandbox import running_sandbox  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"]
VIEWPORT = {"width": 1300, "height": 1000}
# what a player does when it is their move, by preference (button move names)
PLAN = [
    (ActionKind.BET, "bet"),
    (ActionKind.NO_INSURANCE, "no_insurance"),
    (ActionKind.CHOOSE_ACE, "ace"),
    (ActionKind.HIT, "hit"),
    (ActionKind.DRAW, "draw"),
]


def buttons(message: Any) -> dict[str, str]:
    """The table message's move buttons: move name -> custom id (first of each move)."""
    out: dict[str, str] = {}
    for row in message.components:
        for child in getattr(row, "children", []):
            custom_id = getattr(child, "custom_id", None) or ""
            parts = custom_id.split(":")
            if len(parts) >= 4 and parts[0] == "cr":
                out.setdefault(parts[3], custom_id)
    return out


async def play_a_little(sandbox: Any, hits: int = 2) -> None:
    """Start, every bet, then ``hits`` draws: a round mid-way, cards on the table."""
    service = sandbox.env.bot.tables
    table = service.table_in(sandbox.tables.id)
    drawn = 0
    for _ in range(40):
        if table.game.phase in (Phase.BETWEEN_ROUNDS, Phase.FINISHED) or drawn >= hits:
            return
        message = next(m for m in sandbox.tables.history() if m.id == table.message_id)
        ids = buttons(message)
        if "start" in ids and table.game.phase is Phase.LOBBY:
            await sandbox.host.member.click(message, custom_id=ids["start"])
            continue
        for player in sandbox.players:
            legal = table.game.legal_actions(player.id)
            move = next((m for kind, m in PLAN if kind in legal and m in ids), None)
            if move is not None:
                await player.member.click(message, custom_id=ids[move])
                drawn += move in ("hit", "draw")
                break
        else:
            return


async def play_and_close(sandbox: Any) -> None:
    """A whole round (every bet, hits until the round ends), then the host closes the
    table: its final post and the closed table message, with its standings."""
    await play_a_little(sandbox, hits=99)
    table = sandbox.env.bot.tables.table_in(sandbox.tables.id)
    for _ in range(40):  # whoever must still move stands, until the round is settled
        if table.game.phase in (Phase.BETWEEN_ROUNDS, Phase.FINISHED) or (table.round_no or 0) > 1:
            break
        player = next((p for p in sandbox.players if p.id == table.game.to_act), None)
        if player is None:
            break
        await player.member.slash(sandbox.tables, "stand")
    await sandbox.host.member.slash(sandbox.tables, "table close")


async def shoot(game: str, language: str, out: Path, tmp: Path, closed: bool = False) -> Path:
    """One screenshot (``closed``: after a round and the close, ``-closed.png``)."""
    from playwright.async_api import async_playwright

    path = out / f"{game}-{language}{'-closed' if closed else ''}.png"
    async with (
        running_sandbox(
            players=4,
            game=game,
            port=0,
            db_path=tmp / f"{game}-{language}.sqlite3",
            clock=False,
            entropy=seeded_entropy(f"screenshots-{game}"),
            language=language,
        ) as sandbox,
        async_playwright() as pw,
    ):
        await (play_and_close(sandbox) if closed else play_a_little(sandbox))
        await sandbox.preview.refresh()
        browser = await pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            page = await browser.new_page(viewport=VIEWPORT)
            await page.goto(sandbox.url)
            timeline = page.locator("#channel-message-list")
            await timeline.wait_for()
            # not "networkidle": the page polls its state twice a second, so the network is
            # never idle for long (the screenshot of a closed table timed out waiting)
            await page.wait_for_load_state("load")
            await page.wait_for_timeout(500)  # one poll: the page drew the published state
            await page.wait_for_function(  # every card picture in view fetched and decoded
                "() => [...document.querySelectorAll('img.custom-emoji')]"
                ".filter(e => { const r = e.getBoundingClientRect();"
                " return r.bottom > 0 && r.top < window.innerHeight; })"
                ".every(e => e.complete && e.naturalWidth > 0)"
            )
            await page.screenshot(path=str(path))
        finally:
            await browser.close()
    return path


async def main_async(args: argparse.Namespace) -> None:
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        for game in args.games:
            for language in args.languages:
                print(await shoot(game, language, args.out, Path(tmp)))
                if args.closed:
                    print(await shoot(game, language, args.out, Path(tmp), closed=True))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    parser.add_argument("--games", nargs="+", default=list(GAMES), choices=GAMES.names())
    parser.add_argument("--languages", nargs="+", default=["en", "fr"], choices=["en", "fr"])
    parser.add_argument(
        "--closed", action="store_true", help="also each table after a round and its close"
    )
    asyncio.run(main_async(parser.parse_args()))


if __name__ == "__main__":
    main()
