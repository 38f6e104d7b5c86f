"""The sandbox world, and one Black Jack round played by the page's own actors (the same
members the page's "Viewing as" switches between)."""

from __future__ import annotations

from typing import Any

from bot.engine.shuffle import seeded_entropy
from sandbox import BANK_CHANNEL, FORUM_CHANNEL, GUILD_NAME, TABLES_CHANNEL, running_sandbox
from tests.bank_audit import assert_audit_clean


def _service(sandbox: Any) -> Any:
    return sandbox.env.bot.tables


def _table_message(sandbox: Any) -> Any:
    table = _service(sandbox).table_in(sandbox.tables.id)
    return next(m for m in sandbox.tables.history() if m.id == table.message_id)


def _text(message: Any) -> str:
    parts = [message.content or ""]
    for embed in message.embeds:
        parts += [embed.title or "", embed.description or ""]
        parts += [f"{f.name}\n{f.value}" for f in embed.fields]
    return "\n".join(parts)


async def test_world_and_one_black_jack_round(tmp_path):
    async with running_sandbox(
        players=3,
        game="classic",
        port=0,
        db_path=tmp_path / "sandbox.sqlite3",
        clock=False,
        entropy=seeded_entropy("sandbox"),
    ) as sandbox:
        env = sandbox.env
        assert sandbox.url.startswith("http://127.0.0.1:")
        assert sandbox.guild.name == GUILD_NAME
        names = set(sandbox.guild.channels)
        assert {TABLES_CHANNEL, FORUM_CHANNEL, BANK_CHANNEL} <= names
        alice, bob, carol = sandbox.players
        assert [p.name for p in sandbox.players] == ["alice", "bob", "carol"]
        assert sandbox.table_opened and not sandbox.notes

        # the table runs in the channel the page shows, everyone seated with a buy-in
        table = _service(sandbox).table_in(sandbox.tables.id)
        assert table.channel_id == sandbox.tables.id
        assert not sandbox.tables.threads
        assert len(table.game.seats) == 3
        bank = _service(sandbox).bank
        for p in sandbox.players:
            assert 0 < await bank.balance(sandbox.guild.id, p.id) < 1000
        guide = sandbox.tables.history()[0]
        assert "/hand" in guide.content

        # what the page shows (the preview's own projection)
        snapshot = await sandbox.preview.snapshot()
        assert "Black Jack" in str(snapshot)

        # one round, as in the classic e2e test: alice stands on 18, bob hits then
        # stands, carol stands by slash command
        table.game.rig(["TS", "9H", "5C", "TD", "8S", "7H", "6D", "KC", "7D", "5S"])
        before = _text(_table_message(sandbox))
        await alice.member.click(_table_message(sandbox), label="Start")
        assert _text(_table_message(sandbox)) != before
        for p in (alice, bob, carol):
            await p.member.click(_table_message(sandbox), label="Bet 10")
        assert "10♠" in _text(_table_message(sandbox))
        # /hand answers the player viewing, and only they see it
        hand = await bob.member.slash(sandbox.tables, "hand")
        assert hand.ephemeral and hand.response.content
        assert hand.response.id not in {m.id for m in sandbox.tables.history()}
        assert hand.response.id in {m.id for m in sandbox.tables.history(viewer=bob.member)}
        await alice.member.click(_table_message(sandbox), label="Stand")
        await bob.member.click(_table_message(sandbox), label="Hit")
        await bob.member.click(_table_message(sandbox), label="Stand")
        res = await carol.member.slash(sandbox.tables, "stand")
        assert res.ephemeral
        summaries = [m for m in sandbox.tables.history() if "results" in m.content]
        assert summaries, [m.content for m in sandbox.tables.history()]
        await assert_audit_clean(env.bot.db)

        # the page's preview sees the same round
        snapshot = await sandbox.preview.snapshot()
        assert "results" in str(snapshot)
        assert not env.errors  # the sandbox runs with check_errors=False: check here


async def test_clock_fires_turn_timers_and_republishes(tmp_path):
    from sandbox import Clock

    async with running_sandbox(
        players=2,
        port=0,
        db_path=tmp_path / "sandbox.sqlite3",
        clock=False,
        entropy=seeded_entropy("sandbox-clock"),
    ) as sandbox:
        alice, _bob = sandbox.players
        await alice.member.click(_table_message(sandbox), label="Start")
        version = _service(sandbox).table_in(sandbox.tables.id).version
        revision = sandbox.preview._python.revision
        import asyncio

        clock = Clock(sandbox.env, sandbox.preview, asyncio.Lock())
        await clock.step(120)  # nobody bets within the bet timer (60 s): it fires
        assert _service(sandbox).table_in(sandbox.tables.id).version > version
        assert sandbox.preview._python.revision > revision


async def test_without_a_table_the_help_says_how_to_open_one(tmp_path):
    from sandbox import help_text

    async with running_sandbox(
        players=1,
        game="sept_et_demi",
        port=0,
        db_path=tmp_path / "s.sqlite3",
        open_table=False,
        clock=False,
    ) as sandbox:
        assert _service(sandbox).table_in(sandbox.tables.id) is None
        text = help_text(sandbox)
        assert "/table open game:sept_et_demi here:True" in text
        res = await sandbox.host.member.slash(
            sandbox.tables, "table open", game="sept_et_demi", here=True
        )
        assert res.ephemeral
        assert _service(sandbox).table_in(sandbox.tables.id) is not None


def _emoji_tokens(value: Any) -> list[dict[str, Any]]:
    """The custom emojis of the preview's projection (what the page draws as images)."""
    if isinstance(value, dict):
        if value.get("custom") is True and "asset_id" in value:
            return [value]
        return [e for item in value.values() for e in _emoji_tokens(item)]
    if isinstance(value, list):
        return [e for item in value for e in _emoji_tokens(item)]
    return []


async def test_the_page_draws_the_card_pictures_in_french(tmp_path):
    """--language fr: the players' choice, so the table is French; its cards are the
    bot's card emojis, and the page has each one's PNG (SimCord keeps no emoji image)."""
    from bot.i18n import t
    from sandbox import card_assets

    async with running_sandbox(
        players=2,
        game="classic",
        port=0,
        db_path=tmp_path / "sandbox.sqlite3",
        clock=False,
        entropy=seeded_entropy("sandbox"),
        language="fr",
    ) as sandbox:
        alice, bob = sandbox.players
        prefs = sandbox.env.bot.prefs
        assert await prefs.locale(bob.id) == "fr"
        assert t("phase.lobby", "fr") in _text(_table_message(sandbox))
        await alice.member.click(_table_message(sandbox), label=t("move.start", "fr"))
        for p in (alice, bob):
            await p.member.click(_table_message(sandbox), label=t("move.bet_n", "fr", amount=10))
        markup = sandbox.env.bot.card_emojis.markup
        assets = card_assets(sandbox.env.bot)
        assert len(assets) == len(markup) == 55
        await sandbox.preview.refresh()
        tokens = _emoji_tokens(await sandbox.preview.snapshot())
        names = {e["name"] for e in tokens}
        assert len(tokens) >= 5 and f":{next(iter(names))}:" in "".join(markup.values())
        assert all(e["available"] and e["asset_id"] for e in tokens), tokens


async def _page_seconds_to_deadline(sandbox: Any) -> float:
    """Seconds from the page's own "now" (what it counts a relative time from) to the
    table's deadline, as the page would write "ends in ..."."""
    from datetime import datetime

    snapshot = await sandbox.preview.snapshot()
    now = datetime.fromisoformat(snapshot["profile"]["presentationTime"]).timestamp()
    return _service(sandbox).table_in(sandbox.tables.id).deadline_due - now


async def test_a_60_second_timer_reads_60_seconds_after_an_idle_while(tmp_path):
    import asyncio

    from sandbox import Clock

    async with running_sandbox(
        players=2, port=0, db_path=tmp_path / "s.sqlite3", clock=False
    ) as sandbox:
        clock = Clock(sandbox.env, sandbox.preview, asyncio.Lock())
        for _ in range(300):  # five idle minutes in the lobby: nothing changes
            await clock.step(1)
        await sandbox.host.member.click(_table_message(sandbox), label="Start")
        assert 55 <= await _page_seconds_to_deadline(sandbox) <= 60  # not "in 6 minutes"
        refreshed = sandbox.preview._python.revision
        for _ in range(10):  # the countdown is redrawn while it runs
            await clock.step(1)
        assert sandbox.preview._python.revision > refreshed
        assert 45 <= await _page_seconds_to_deadline(sandbox) <= 50


async def test_the_page_dates_the_table_in_its_language(tmp_path):
    import asyncio

    from sandbox import Clock

    async with running_sandbox(
        players=1, port=0, db_path=tmp_path / "s.sqlite3", clock=False, open_table=False
    ) as sandbox:
        clock = Clock(sandbox.env, sandbox.preview, asyncio.Lock())
        await clock.step(1)
        assert sandbox.preview.locale == "en-US"
        host = sandbox.host.member
        await host.slash(sandbox.tables, "language", language="fr")
        await host.slash(sandbox.tables, "table open", game="blackjack", here=True)
        await clock.step(1)
        snapshot = await sandbox.preview.snapshot()
        assert snapshot["profile"]["locale"] == "fr"  # "dans 1 minute", as the table's words
