"""The GC settings the bot applies once its tables are loaded."""

from __future__ import annotations

import gc

from bot.heap import FULL_COLLECTION_EVERY, settle_after_startup


def test_settle_after_startup_freezes_survivors_and_spaces_full_collections():
    before = gc.get_threshold()
    kept = [[n] for n in range(1000)]  # long-lived containers, like loaded tables
    try:
        settle_after_startup()
        assert gc.get_freeze_count() >= len(kept)
        assert gc.get_threshold() == (before[0], before[1], FULL_COLLECTION_EVERY)
        # frozen objects are out of the collector's sight, not out of reach
        assert kept[999] == [999]
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)
