"""The bot boots under SimCord, syncs its commands and answers /about and /ping."""

from __future__ import annotations

from bot.app import create_bot
from bot.db.migrate import latest_level
from tests.sql import execute, fetchone


async def test_boot_sync_and_about(simcord_env, db_path):
    guild = simcord_env.create_guild()
    channel = guild.create_text_channel("general")
    alice = guild.add_member(simcord_env.create_user("alice"))

    assert {"about", "ping"} <= set(alice.available_commands(channel))
    result = await alice.slash(channel, "about")
    assert result.ephemeral
    embed = result.response.embeds[0]
    assert embed.title.startswith("Croupier ")
    assert "Pirate 21" in embed.description and "Sept et demi" in embed.description

    ping = await alice.slash(channel, "ping")
    assert ping.ephemeral and ping.response.content.startswith("Pong!")

    level = await fetchone(simcord_env.bot.db, "PRAGMA user_version")
    assert level[0] == latest_level()


async def test_restart_keeps_database(simcord_env, db_path):
    guild = simcord_env.create_guild()
    channel = guild.create_text_channel("general")
    alice = guild.add_member(simcord_env.create_user("alice"))
    await execute(simcord_env.bot.db, "INSERT INTO bot_meta(key, value) VALUES ('probe', 'kept')")
    await simcord_env.restart_bot(create_bot(database_path=db_path))
    row = await fetchone(simcord_env.bot.db, "SELECT value FROM bot_meta WHERE key = 'probe'")
    assert row[0] == "kept"
    assert (await alice.slash(channel, "ping")).response.content.startswith("Pong!")


async def test_the_real_process_settles_its_heap_once_tables_are_loaded(simcord_env, db_path):
    """``python -m bot`` builds its bot with settle_heap=True: once the cogs (and the open
    tables) are loaded, survivors are frozen out of full GCs (bot/heap.py)."""
    import gc

    before = gc.get_threshold()
    gc.unfreeze()
    try:
        await simcord_env.restart_bot(create_bot(database_path=db_path, settle_heap=True))
        assert gc.get_freeze_count() > 10_000  # discord.py, the cogs, the loaded tables
        assert gc.get_threshold()[2] == 100
        guild = simcord_env.create_guild()
        channel = guild.create_text_channel("general")
        alice = guild.add_member(simcord_env.create_user("alice"))
        assert (await alice.slash(channel, "ping")).response.content.startswith("Pong!")
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)
