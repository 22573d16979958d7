"""Moved to :mod:`tabletop_core.outcomes`; this name stays through the 0.x series and warns on import."""

import warnings

from tabletop_core.outcomes import Outcome, competitive, judged, seat_outcomes, win_rule, won

warnings.warn("tabletop_core.simulation.outcomes moved to tabletop_core.outcomes", DeprecationWarning, stacklevel=2)

__all__ = ["Outcome", "competitive", "judged", "seat_outcomes", "win_rule", "won"]
