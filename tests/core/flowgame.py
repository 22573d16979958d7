"""The core's test game on the flow driver, for the tests that import it from here (see tabletop_core.testing)."""

from tabletop_core.testing.flowgame import (
    DRIVER,
    FLOW,
    GAME,
    Choose,
    FlowGame,
    FlowOptions,
    FlowState,
    Pick,
    ResolveOrRest,
    Reveal,
)

__all__ = [
    "DRIVER",
    "FLOW",
    "GAME",
    "Choose",
    "FlowGame",
    "FlowOptions",
    "FlowState",
    "Pick",
    "ResolveOrRest",
    "Reveal",
]
