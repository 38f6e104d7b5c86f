"""Garbage-collector settings for a long-running bot with thousands of tables in memory."""

from __future__ import annotations

import gc

# Full collections walk every tracked object: with 1,000 tables loaded one took 45-65 ms,
# a pause every open table felt at once. After start-up the long-lived objects (modules,
# discord.py's caches, the loaded tables) are frozen out of the collector's sight, and full
# collections are made ten times rarer: the young generations still collect the short-lived
# cycles (exceptions, tasks) that make up almost all of the bot's garbage.
FULL_COLLECTION_EVERY = 100  # young-generation collections between two full ones (default 10)


def settle_after_startup() -> None:
    """Collect once, freeze what survived, and make full collections rarer."""
    gc.collect()
    gc.freeze()
    young, middle, _old = gc.get_threshold()
    gc.set_threshold(young, middle, FULL_COLLECTION_EVERY)
