"""Unrest rebuilds a history for every world its determinizer samples, so the leak check proves each world reachable
and compares the Empire's view along the whole game, every round (not only the prefix a blind search reaches)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs
import numpy as np
import pytest

import unrest
from tabletop_core.agents import RandomAgent
from tabletop_core.conformance import check_game
from tabletop_core.leakcheck import REACHABLE, LeakBudget, LeakCheck, LeakError
from tabletop_core.records import playout
from tests.unrest.helpers import game_states
from unrest.state import EMPIRE, REBELLION, UnrestState
from unrest.worlds import rebuild_history

GAME = unrest.GAME


def _replayed(history: tuple[Any, ...], options: Any) -> UnrestState:
    state = GAME.initial_state(options)
    for action in history:
        state = GAME.step(state, action)  # checks every action is legal
    return state


@pytest.mark.parametrize("variant", ["standard", "capitol"])
@pytest.mark.parametrize("bots", [False, True], ids=["random", "bots"])
def test_every_world_the_empire_samples_replays_from_its_rebuilt_history(variant: str, bots: bool) -> None:
    rng = np.random.default_rng(19)
    rounds = set()
    for seed in range(6):
        states = game_states(seed, variant=variant, bots=bots)
        for state in [*states[::6], states[-1]]:
            world = GAME.determinize(state, EMPIRE, rng)
            assert _replayed(rebuild_history(GAME, world), world.options) == world
            rounds.add(state.round)
    assert max(rounds) >= 6  # the late rounds too


def test_the_truth_replays_from_its_own_history_for_the_rebellion() -> None:
    final = game_states(4)[-1]
    assert (
        _replayed(GAME.rebuild_history(GAME.determinize(final, REBELLION, np.random.default_rng(0)), 0), final.options)
        == final
    )


def test_a_state_the_rules_cannot_reach_has_no_history() -> None:
    final = game_states(3)[-1]
    for broken in (
        attrs.evolve(final, draws=final.draws[::-1]),
        attrs.evolve(final, moves=final.moves[:-1]),
        attrs.evolve(final, laid=final.laid[::-1]),
    ):
        with pytest.raises(ValueError, match="no history"):
            rebuild_history(GAME, broken)


def _check(options: Mapping[str, Any], games: int, budget: LeakBudget) -> tuple[LeakCheck, int]:
    """The leak checks alone on ``games`` random playouts; the check and the latest round it sampled."""
    check = LeakCheck(GAME, budget)
    latest = 0
    for seed in range(games):
        state = GAME.initial_state(GAME.make_options(**options))
        trail, actions = [state], []
        for step in playout(GAME, [RandomAgent(), RandomAgent()], state, seed=seed):
            trail.append(step.after)
            actions.append(step.action)
        check.playout(trail, actions, seed)
        latest = max(latest, trail[-1].round)
    return check, latest


@pytest.mark.parametrize(
    "options", [{"variant": "standard"}, {"variant": "capitol"}, {"variant": "capitol", "research": True}], ids=str
)
def test_the_leak_check_proves_every_sampled_world_reachable_through_every_round(options: Mapping[str, Any]) -> None:
    budget = LeakBudget(playouts=3, states=4, adapter_playouts=0, prove=True)
    check, latest = _check(options, 3, budget)
    # 3 playouts x 4 states x 2 seats x 2 worlds (determinize; Unrest offers no redeal), every one proven.
    assert check.unproven == 0 and check.proven == 3 * 4 * 2 * 2
    assert latest >= (1 if options.get("research") else 5)


def test_check_game_proves_unrest_reachability_by_default_budget_and_fails_an_unreachable_world() -> None:
    check_game(GAME, games=3, seed=0, leaks=LeakBudget(prove=True))

    class Scrambled(unrest.Unrest):
        """A determinizer that reverses the Empire's world's draws: the Empire reads the same, the rules disagree."""

        def determinize(self, state: UnrestState, player: int, rng: np.random.Generator) -> UnrestState:
            world = super().determinize(state, player, rng)
            return attrs.evolve(world, draws=world.draws[::-1]) if player == EMPIRE and world.round >= 2 else world

        def validate_state(self, state: UnrestState) -> None:
            """Skipped here, so that the replay (not the invariants) meets the scrambled draws."""

    with pytest.raises(LeakError) as caught:
        check_game(Scrambled(), games=3, seed=0, leaks=LeakBudget(adapter_playouts=0))
    assert caught.value.check == REACHABLE and caught.value.seat == EMPIRE and "rebuild_history" in str(caught.value)
