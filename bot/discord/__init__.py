"""Discord I/O: everything that calls the client or its REST API (table messages, DMs,
the bank channel, timers, permission checks, card-emoji uploads, start-up failures).

``bot.ui`` builds what is sent (text, embeds, views as data) and calls nothing; the
services here send it. Imports are absolute, so ``import discord`` in these modules is
discord.py, never this package (``tests/test_imports.py`` checks it).
"""
