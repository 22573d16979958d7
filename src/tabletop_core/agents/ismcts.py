"""Information-set MCTS, generic over ``Game.determinize``.

:class:`ISMCTSAgent` is :class:`~tabletop_core.agents.MCTSAgent` with a fresh determinization at the start of
every iteration, whatever the game declares: single-observer ISMCTS (Cowling, Powley and Whitehouse 2012). It
knows nothing about any game's hidden facts; each game's ``determinize(state, player, rng)`` draws a full state
consistent with what the player has seen, and the search averages over those draws. Actions are scored with
availability counts (an action legal in one determinization may not be in another).

>>> from tabletop_core.testing.kuhn import GAME
>>> from tabletop_core import play, RandomAgent
>>> _, record = play(GAME, [ISMCTSAgent(iterations=40), RandomAgent()], seed=2)
>>> len(record.returns)
2
"""

from __future__ import annotations

from tabletop_core.agents.mcts import MCTSAgent

__all__ = ["ISMCTSAgent"]


class ISMCTSAgent(MCTSAgent):
    """SO-ISMCTS: MCTS over determinizations (every argument as :class:`~tabletop_core.agents.MCTSAgent`)."""

    always_determinize = True
