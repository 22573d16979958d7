"""The rulebook's Setup for a co-op or solo encounter.

"Cooperative or solo game only: Place the combat boards and their corresponding enemy token sets within easy reach
of all players": each enemy of the encounter brings its trait's token set and combat board
(:mod:`runebound_coop.content.roster` resolves the names). Every hero starts undamaged with a full hand of skill
cards; the first fight starts at once when one hero is left to send (its first cast is a chance node), otherwise
the party chooses who engages.
"""

from __future__ import annotations

from runebound_coop.content.roster import Setup, build_setup
from runebound_coop.rules.flow import DRIVER
from runebound_coop.state import FLOW, RuneboundOptions, RuneboundState
from tabletop_core.flow import Pending

__all__ = ["check_options", "initial_state"]


def check_options(options: RuneboundOptions) -> Setup:
    """Resolve every hero, enemy, asset and card name of ``options`` against its content pack.

    Raises:
        ValueError: an unknown name, or a hero with more tokens than a pool holds (``ContentError`` for a bad
            custom pack).
    """
    return build_setup(options)


def initial_state(options: RuneboundOptions) -> RuneboundState:
    """No damage, full hands; the first fight starts at once with one hero (its first cast is a chance node).

    Raises:
        ValueError: ``options`` name content the pack does not hold.
    """
    setup = options.setup
    state = RuneboundState(
        options,
        FLOW.start(),
        Pending(),
        (0,) * len(setup.heroes),
        (0,) * len(setup.enemies),
        hand=(options.hand,) * len(setup.heroes),
    )
    return DRIVER.run(state)
