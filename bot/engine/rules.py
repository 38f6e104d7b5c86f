"""Per-game option dataclasses with defaults and validation.

Each game keeps its options class in its own module; this module re-exports them so
callers have one place to look.
"""

from __future__ import annotations

from .casino21 import Casino21Options
from .classic import ClassicOptions
from .pirate21 import Pirate21Options
from .sept_et_demi import SeptEtDemiOptions

__all__ = ["Casino21Options", "ClassicOptions", "Pirate21Options", "SeptEtDemiOptions"]
