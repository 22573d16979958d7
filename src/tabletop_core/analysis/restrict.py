"""Moved to :mod:`tabletop_core.restrict`; this name stays through the 0.x series and warns on import."""

import warnings

from tabletop_core.restrict import Hook, RestrictedGame, Restriction, find_hook, load_restrictions

warnings.warn("tabletop_core.analysis.restrict moved to tabletop_core.restrict", DeprecationWarning, stacklevel=2)

__all__ = ["Hook", "RestrictedGame", "Restriction", "find_hook", "load_restrictions"]
