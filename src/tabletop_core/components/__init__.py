"""Immutable game components shared by every title: dice, two-sided tokens, piles and bounded tracks."""

from tabletop_core.components.dice import D6, Die
from tabletop_core.components.pile import Pile
from tabletop_core.components.tokens import Cast, TwoSidedToken
from tabletop_core.components.track import Track

__all__ = ["D6", "Cast", "Die", "Pile", "Track", "TwoSidedToken"]
