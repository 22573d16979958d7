"""Game metadata declared as data, with OpenSpiel's field names."""

from __future__ import annotations

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

    def __attrs_post_init__(self) -> None:
        if not 1 <= self.min_num_players <= self.max_num_players:
            raise ValueError(f"{self.short_name}: bad player counts {self.min_num_players}..{self.max_num_players}")
        if self.min_utility > self.max_utility:
            raise ValueError(f"{self.short_name}: min_utility > max_utility")
        if self.num_distinct_actions < 1 or self.max_game_length < 1:
            raise ValueError(f"{self.short_name}: action space and game length must be positive")
