"""The benchmark's random playout, for tests of any game: the sampled states and the step counts that speed tests
pin come from the same draws as ``benchmarks/run.py``'s loop (a chance outcome by ``sample_outcome``, a decision
by ``legal[int(rng.integers(len(legal)))]``, through the checked ``step``).

Every test that plays a game out step by step goes through these: :func:`random_playout` gives the states,
:func:`random_moves` each step as ``(before, action, after)``. A test that needs another decision rule passes
``choose``, one that draws chance otherwise passes ``chance``, and ``limit`` or ``until`` stops a playout early;
:func:`final_state` is where a playout ends.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any, Literal

import numpy as np

from tabletop_core.chance import sample_outcome
from tabletop_core.spec import CHANCE, TERMINAL

#: A decision rule: the action to take at ``state`` among ``legal``.
Choose = Callable[[Any, Sequence[Any]], Any]


def uniform(rng: np.random.Generator) -> Choose:
    """The benchmark's decision rule: a legal action drawn uniformly by ``rng``."""
    return lambda state, legal: legal[int(rng.integers(len(legal)))]


def first(state: Any, legal: Sequence[Any]) -> Any:
    """A decision rule: the legal action of the lowest id."""
    return legal[0]


def last(state: Any, legal: Sequence[Any]) -> Any:
    """A decision rule: the legal action of the highest id."""
    return legal[-1]


def random_moves(
    game: Any,
    state: Any,
    rng: np.random.Generator,
    *,
    choose: Choose | None = None,
    chance: Literal["odds", "uniform", "settle"] = "odds",
    limit: int | None = None,
    until: Callable[[Any], bool] | None = None,
) -> Iterator[tuple[Any, Any, Any]]:
    """Each step of one game from ``state`` to the end, as ``(before, action, after)``.

    A decision is ``choose(state, legal)`` (by default :func:`uniform` with ``rng``). A chance outcome is drawn by
    its odds with ``sample_outcome`` (``chance="odds"``), or picked by ``choose`` among the outcomes like a decision
    (``"uniform"``); with ``"settle"`` it is picked so too and each step is also given ``rng``
    (``Game.step(..., rng=rng)``), which draws the chance outcomes that follow it. The playout stops at the end, after
    ``limit`` steps, or at the first state where ``until`` holds (that state is the last ``after``, or ``state``).
    """
    pick = choose if choose is not None else uniform(rng)
    steps = 0
    while (player := game.current_player(state)) != TERMINAL:
        if (limit is not None and steps >= limit) or (until is not None and until(state)):
            return
        if player == CHANCE and chance == "odds":
            action = sample_outcome(game.chance_outcomes(state), rng)
        else:
            action = pick(state, game.legal_actions(state))
        after = game.step(state, action, rng=rng) if chance == "settle" else game.step(state, action)
        yield state, action, after
        state = after
        steps += 1


def random_playout(
    game: Any,
    state: Any,
    rng: np.random.Generator,
    *,
    choose: Choose | None = None,
    chance: Literal["odds", "uniform", "settle"] = "odds",
    limit: int | None = None,
    until: Callable[[Any], bool] | None = None,
) -> Iterator[Any]:
    """Every state of one game from ``state``, the last one last (``state`` first): :func:`random_moves`'s
    states."""
    yield state
    for _, _, after in random_moves(game, state, rng, choose=choose, chance=chance, limit=limit, until=until):
        yield after


def final_state(game: Any, state: Any, rng: np.random.Generator, **how: Any) -> Any:
    """The last state of :func:`random_playout` (the end, or where ``limit`` or ``until`` stopped it)."""
    last = state
    for last in random_playout(game, state, rng, **how):  # noqa: B007  # only the last state is kept
        pass
    return last
