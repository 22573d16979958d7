"""Search bots generic over the game protocol."""

from tabletop_core.bots.mcts import MCTSAgent

__all__ = ["MCTSAgent"]
