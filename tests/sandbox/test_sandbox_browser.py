"""The sandbox in a real browser: Debian's Chromium, headless, driven by Playwright.

Opens the page, runs a slash command through the page's composer, presses the table's
buttons as three players (switching "Viewing as"), sees the table message change and the
cards drawn as the bot's card pictures.
Skipped when /usr/bin/chromium is absent (CI installs it; no browser download here).
Set SANDBOX_SCREENSHOT=path.png to keep a screenshot of the page."""

from __future__ import annotations

import os
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

from bot.engine.shuffle import seeded_entropy
from sandbox import running_sandbox

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="/usr/bin/chromium is not installed")


@asynccontextmanager
async def sandbox_page(tmp_path: Path, seed: str) -> AsyncIterator[tuple[Any, Any]]:
    """A 3-player Black Jack sandbox (shuffled from ``seed``) and a headless Chromium page
    on it: (sandbox, page)."""
    playwright_api = pytest.importorskip("playwright.async_api")
    async with (
        running_sandbox(
            players=3,
            game="classic",
            port=0,
            db_path=tmp_path / "sandbox.sqlite3",
            entropy=seeded_entropy(seed),
        ) as sandbox,
        playwright_api.async_playwright() as pw,
    ):
        browser = await pw.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            page = await browser.new_page(viewport={"width": 1300, "height": 900})
            page.set_default_timeout(15_000)
            await page.goto(sandbox.url)
            yield sandbox, page
        finally:
            await browser.close()


async def test_play_in_the_browser(tmp_path):
    expect = pytest.importorskip("playwright.async_api").expect
    async with sandbox_page(tmp_path, "sandbox-browser") as (sandbox, page):
        timeline = page.locator("#channel-message-list")
        await expect(timeline).to_contain_text("Black Jack — Sandbox")
        await expect(timeline).to_contain_text("Waiting for players")
        await expect(page.locator("#channel-topic")).to_contain_text("/hand")

        # a slash command typed in the composer, as alice (the host)
        box = page.locator("#channel-composer-input")
        await box.click()
        await box.type("/table start")
        await page.get_by_text("Start the game or the next round").click()
        await page.locator("#send-message").click()
        await expect(page.get_by_role("button", name="Bet 10")).to_be_visible()
        await expect(timeline).not_to_contain_text("Waiting for players")

        # a table button: alice bets, and the table message shows it
        await page.get_by_role("button", name="Bet 10").click()
        await expect(timeline).to_contain_text("stack 190 · bet 10")

        # switch to bob in "Viewing as" and bet as bob
        await page.locator("#viewer-picker").select_option(label="bob")
        await expect(page.locator("#viewer-picker")).to_have_value(str(sandbox.players[1].id))
        await page.get_by_role("button", name="Bet 10").click()
        two_bets = re.compile(r"stack 190 · bet 10[\s\S]*stack 190 · bet 10")
        await expect(timeline).to_contain_text(two_bets)

        # the cards are the bot's pictures, loaded as images (not broken, not text)
        await page.locator("#viewer-picker").select_option(label="carol")
        await expect(page.locator("#viewer-picker")).to_have_value(str(sandbox.players[2].id))
        await page.get_by_role("button", name="Bet 10").click()  # the last bet: a deal
        pictures = timeline.locator("img.custom-emoji")
        await expect(pictures.first).to_be_visible()
        await page.wait_for_function(  # each picture fetched and decoded
            "() => [...document.querySelectorAll('#channel-message-list img.custom-emoji')]"
            ".every(e => e.complete && e.naturalWidth > 0)"
        )
        loaded = await pictures.evaluate_all("els => els.map(e => e.naturalWidth)")
        assert len(loaded) >= 5 and set(loaded) == {128}, loaded

        service = sandbox.env.bot.tables
        view = service.table_in(sandbox.tables.id).game.public_view()
        bets = {s.player: s.bet for s in view.seats}
        assert set(bets.values()) == {10}
        shot = os.environ.get("SANDBOX_SCREENSHOT") or str(tmp_path / "sandbox.png")
        await page.screenshot(path=shot)


async def test_switching_players_quickly_never_leaves_the_page_stuck(tmp_path):
    """Twenty "Viewing as" switches in a row while the bet timer's countdown is redrawn by
    the clock: the page ends on the last player chosen and plays as them."""
    expect = pytest.importorskip("playwright.async_api").expect
    async with sandbox_page(tmp_path, "sandbox-switch") as (sandbox, page):
        await page.get_by_role("button", name="Start").click()
        await expect(page.get_by_role("button", name="Bet 10")).to_be_visible()
        picker = page.locator("#viewer-picker")
        ids = [str(p.id) for p in sandbox.players]
        for i in range(20):  # alice, bob, carol, ... ends on bob
            await picker.select_option(value=ids[i % 3])
        await expect(picker).to_have_value(ids[1])
        await expect(picker).to_be_enabled()
        await page.get_by_role("button", name="Bet 10").click()
        timeline = page.locator("#channel-message-list")
        await expect(timeline).to_contain_text("stack 190 · bet 10")
        table = sandbox.env.bot.tables.table_in(sandbox.tables.id)
        assert table.game.bets == {sandbox.players[1].id: 10}  # bob's bet, as viewed
