"""Every world the Empire's determinizer samples is a state the rules reach: replaying its own logs (the row as
laid, the Missions as dealt, the draws and the moves, with each hidden plan's card searched for) from the start
gives it back exactly. An oracle independent of the determinizer's reasoning."""

from __future__ import annotations

import attrs
import numpy as np
import pytest

import unrest
from tabletop_core.errors import IllegalActionError
from tabletop_core.spec import CHANCE, TERMINAL
from tests.unrest.helpers import game_states
from unrest.actions import DECISIONS, DRAWS, PLAN_HIDDEN, DealMission, Plan, SetDistrict
from unrest.state import EMPIRE, UnrestState

GAME = unrest.GAME


def _agrees_so_far(sim: UnrestState, world: UnrestState) -> bool:
    """Whether the replay so far can still end in ``world``: stacks and destroyed cards are prefixes of the
    world's (a card face down may later be turned up, never the reverse) and the plan holds the same cards."""
    for a, b in zip(sim.stacks, world.stacks, strict=True):
        if len(a) > len(b):
            return False
        for x, y in zip(a, b, strict=False):
            if x.card != y.card or x.round != y.round or (x.revealed and not y.revealed):
                return False
    if len(sim.destroyed) > len(world.destroyed):
        return False
    if any(x != y for x, y in zip(sim.destroyed, world.destroyed, strict=False)):
        return False
    if sim.pos.round == world.pos.round and len(sim.plan) <= len(world.plan):
        for p, q in zip(sim.plan, world.plan, strict=False):
            if p is not None and q is not None and p.card != q.card:
                return False
    return True


def replay_logs(world: UnrestState) -> UnrestState | None:
    """The state the rules reach by replaying ``world``'s logs, if one equals ``world``; else ``None``."""
    options = world.options
    capitol = options.variant == "capitol"
    laid = [d for i, d in enumerate(world.laid) if not (capitol and i == 2)]  # the Capitol is laid by the rules

    def go(s: UnrestState, n_draws: int, n_moves: int) -> UnrestState | None:
        while True:
            player = GAME.current_player(s)
            done = n_moves == len(world.moves) and n_draws == len(world.draws)
            if done and not (player == CHANCE and s.pos.step in ("districts", "missions")):
                return s if s == world else None
            if player == TERMINAL:
                return None
            try:
                if player == CHANCE:
                    if s.pos.step == "districts":
                        k = len(s.row) - (1 if capitol and len(s.row) > 2 else 0)
                        s = GAME.step(s, SetDistrict(laid[k]))
                    elif s.pos.step == "missions":
                        s = GAME.step(s, DealMission(world.missions[len(s.missions)]))
                    else:
                        s = GAME.step(s, DRAWS[world.draws[n_draws]])
                        n_draws += 1
                    continue
                code = world.moves[n_moves]
            except (IndexError, IllegalActionError):
                return None
            if code == PLAN_HIDDEN:
                for kind in sorted(set(s.hand)):
                    plan = Plan(kind, True)
                    if GAME.is_legal(s, plan):
                        after = GAME.step(s, plan)
                        if _agrees_so_far(after, world):
                            found = go(after, n_draws, n_moves + 1)
                            if found is not None:
                                return found
                return None
            action = DECISIONS[code]
            if not GAME.is_legal(s, action):
                return None
            s = GAME.step(s, action)
            n_moves += 1
            if not _agrees_so_far(s, world):
                return None

    return go(GAME.initial_state(options), 0, 0)


def test_the_oracle_replays_the_truth_and_refuses_a_changed_log() -> None:
    final = game_states(3)[-1]
    assert replay_logs(final) == final
    assert replay_logs(attrs.evolve(final, draws=final.draws[::-1])) is None
    assert replay_logs(attrs.evolve(final, moves=final.moves[:-1])) is None


@pytest.mark.parametrize("variant", ["standard", "capitol"])
@pytest.mark.parametrize("bots", [False, True], ids=["random", "bots"])
def test_every_world_the_empire_samples_is_reachable_by_the_rules(variant: str, bots: bool) -> None:
    rng = np.random.default_rng(17)
    checked = 0
    for seed in range(12):
        states = game_states(seed, variant=variant, bots=bots)
        for state in [*states[::4], states[-1]]:
            world = unrest.determinize(state, EMPIRE, rng)
            assert replay_logs(world) == world, (seed, unrest.GAME.describe_step(state))
            checked += 1
    assert checked > 150


def test_the_worlds_after_a_rebellion_win_are_reachable_by_the_rules() -> None:
    # The liberation check stops at the win: the Districts left of the last liberated one met no Mission then.
    rng = np.random.default_rng(23)
    wins = 0
    for seed in range(60):
        final = game_states(seed, random_empire=True)[-1]
        if final.winner != unrest.REBELLION:
            continue
        wins += 1
        for _ in range(25):
            world = unrest.determinize(final, EMPIRE, rng)
            assert replay_logs(world) == world, seed
    assert wins >= 30
