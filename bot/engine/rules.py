"""Per-game option dataclasses with defaults and validation.

Each game keeps its options class in its own module; this module re-exports them so
callers have one place to look. Other games add their re-exports below.
"""

from __future__ import annotations

from .classic import ClassicOptions

__all__ = ["ClassicOptions"]
