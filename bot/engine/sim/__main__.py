"""``python -m bot.engine.sim GAME ...`` (the same as ``python -m bot simulate``)."""

from __future__ import annotations

import sys

from .cli import main

sys.exit(main())
