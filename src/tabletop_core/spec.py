"""Game metadata declared as data, with OpenSpiel's field names."""

from __future__ import annotations

import math
from enum import StrEnum

import attrs

__all__ = ["CHANCE", "TERMINAL", "ChanceMode", "GameSpec", "Information", "Utility"]

#: ``current_player`` of a chance node (OpenSpiel's ``kChancePlayerId``).
CHANCE = -1
#: ``current_player`` of a finished game (OpenSpiel's ``kTerminalPlayerId``).
TERMINAL = -4


class ChanceMode(StrEnum):
    """How chance enters the game (OpenSpiel's ``ChanceMode``)."""

    DETERMINISTIC = "deterministic"
    EXPLICIT_STOCHASTIC = "explicit_stochastic"


class Information(StrEnum):
    """What the players know (OpenSpiel's ``Information``)."""

    PERFECT = "perfect_information"
    IMPERFECT = "imperfect_information"


class Utility(StrEnum):
    """How the returns of the players relate (OpenSpiel's ``Utility``)."""

    ZERO_SUM = "zero_sum"
    CONSTANT_SUM = "constant_sum"
    IDENTICAL = "identical"
    GENERAL_SUM = "general_sum"


@attrs.frozen
class GameSpec:
    """Static facts about a game, fixed for all option values.

    ``num_distinct_actions`` bounds the decision action ids; ``max_chance_outcomes`` bounds the chance outcome
    ids (the two id spaces are separate, as in OpenSpiel). ``observation_shape`` is the fixed shape of
    ``observation_tensor``. ``max_game_length`` counts decisions and chance outcomes together.

    ``provides_information_state`` says the game offers a perfect-recall information state
    (``Game.information_state`` and ``Game.information_state_tensor``): everything a player has seen and done so
    far, so that two histories a player can tell apart never give that player the same information state. Its
    tensor has the fixed shape ``information_state_shape``; left ``None``, it is ``observation_shape`` (a game
    whose observation already is perfect recall, such as Kuhn poker's, needs nothing more).

    ``tensor_bounds`` declares ``(low, high)``, finite bounds that every value of every tensor the game makes
    (observation, information state, :meth:`Game.state_tensor`) lies within; the Gymnasium and PettingZoo adapters
    make their ``Box`` spaces from it. ``None`` (the default) declares nothing, and those spaces stay unbounded.

    ``zero_is_tie`` matters only to a game judged seat by seat whose returns run from negative to positive
    (:mod:`tabletop_core.outcomes`): ``True`` (the default) makes a return of exactly 0 a tie (a fight
    left undecided); ``False`` makes every return above ``min_utility`` a win (a game that scores a loss at its
    minimum and a win by its points, a win of no points included).
    """

    short_name: str
    long_name: str
    min_num_players: int
    max_num_players: int
    chance_mode: ChanceMode
    information: Information
    utility: Utility
    min_utility: float
    max_utility: float
    num_distinct_actions: int
    max_chance_outcomes: int
    max_game_length: int
    observation_shape: tuple[int, ...]
    utility_sum: float | None = None
    provides_information_state: bool = False
    information_state_shape: tuple[int, ...] | None = None
    tensor_bounds: tuple[float, float] | None = None
    zero_is_tie: bool = True

    def __attrs_post_init__(self) -> None:
        if not 1 <= self.min_num_players <= self.max_num_players:
            raise ValueError(f"{self.short_name}: bad player counts {self.min_num_players}..{self.max_num_players}")
        if self.min_utility > self.max_utility:
            raise ValueError(f"{self.short_name}: min_utility > max_utility")
        if self.information_state_shape is not None and not self.provides_information_state:
            raise ValueError(f"{self.short_name}: information_state_shape without provides_information_state")
        if self.num_distinct_actions < 1 or self.max_game_length < 1:
            raise ValueError(f"{self.short_name}: action space and game length must be positive")
        if self.tensor_bounds is not None:
            low, high = self.tensor_bounds
            if not -math.inf < low <= high < math.inf:
                raise ValueError(
                    f"{self.short_name}: tensor_bounds must be finite with low <= high, not {self.tensor_bounds}"
                )

    @property
    def information_state_tensor_shape(self) -> tuple[int, ...]:
        """The shape of ``Game.information_state_tensor``: ``information_state_shape``, else the observation's."""
        return self.observation_shape if self.information_state_shape is None else self.information_state_shape
