"""A history for any state of Unrest from its own logs: what the leak check replays to prove a determinized world
reachable (:meth:`tabletop_core.game.Game.rebuild_history`).

A state keeps what the players remember: the row as laid, the Missions as dealt, every decision as both saw it
(``moves``, a hidden plan's card masked) and the Rebellion's draws in order. Replaying those logs from the
initial state under the rules reaches the state again, with one unknown per hidden plan: its card. Each is
searched for among the card kinds in hand, a branch dropped as soon as the replay disagrees with the state (a
stack, the destroyed cards or this round's plan holds another card, or a card face up that the state has face
down). The replay's every step is the rules' own (``game.is_legal`` and ``game.step``), so a history found is a
proof that the rules reach the state, by the moves both players saw and the draws the state says.

>>> import numpy as np
>>> import unrest
>>> state = unrest.new_game(seed=3)
>>> world = unrest.determinize(state, unrest.EMPIRE, np.random.default_rng(0))
>>> history = rebuild_history(unrest.GAME, world)
>>> replayed = unrest.GAME.initial_state(world.options)
>>> for action in history:
...     replayed = unrest.GAME.step(replayed, action)
>>> replayed == world
True
"""

from __future__ import annotations

from typing import Any

from tabletop_core.spec import CHANCE, TERMINAL
from unrest.actions import DECISIONS, DRAWS, PLAN_HIDDEN, Action, DealMission, Plan, SetDistrict
from unrest.state import CAPITOL, UnrestState

__all__ = ["rebuild_history"]


def _fits(sim: UnrestState, world: UnrestState) -> bool:
    """Whether the replay ``sim`` can still end in ``world``: every stack and the destroyed cards begin as the
    world's do (a card face up in the replay is face up in the world: cards turn up, never down), and this round's
    plan holds the world's cards."""
    for mine, theirs in zip(sim.stacks, world.stacks, strict=True):
        if len(mine) > len(theirs):
            return False
        for a, b in zip(mine, theirs, strict=False):
            if a.card != b.card or a.round != b.round or (a.revealed and not b.revealed) or (a.proved and not b.proved):
                return False
    if len(sim.destroyed) > len(world.destroyed) or any(
        a != b for a, b in zip(sim.destroyed, world.destroyed, strict=False)
    ):
        return False
    if sim.pos.round == world.pos.round and len(sim.plan) <= len(world.plan):
        for p, q in zip(sim.plan, world.plan, strict=False):
            if p is not None and q is not None and p.card != q.card:
                return False
    return True


def _chance(sim: UnrestState, world: UnrestState, draws: int) -> Action:
    """The chance outcome the logs give at ``sim`` (``draws`` cards drawn so far)."""
    step = sim.pos.step
    if step == "districts":
        capitol = sim.options.variant == "capitol"
        laid = [d for i, d in enumerate(world.laid) if not (capitol and i == 2 and d == CAPITOL)]
        return SetDistrict(laid[len(sim.row) - (1 if capitol and len(sim.row) > 2 else 0)])
    if step == "missions":
        return DealMission(world.missions[len(sim.missions)])
    return DRAWS[world.draws[draws]]


def rebuild_history(game: Any, world: UnrestState) -> tuple[Action, ...]:
    """The actions (chance outcomes included) by which the rules lead from ``game.initial_state(world.options)``
    to ``world``, read from ``world``'s logs (see the module docstring).

    Raises:
        ValueError: when no history of the rules gives ``world``'s logs and ends at ``world`` (the state is not
            one the rules reach).
    """
    found = _replay(game, world, game.initial_state(world.options), draws=0, moves=0, taken=[])
    if found is None:
        raise ValueError(
            f"unrest: no history of the rules replays the logs ({len(world.moves)} moves, {len(world.draws)} draws) "
            f"to this state at {game.describe_step(world)}"
        )
    return tuple(found)


def _replay(
    game: Any, world: UnrestState, sim: UnrestState, *, draws: int, moves: int, taken: list[Action]
) -> list[Action] | None:
    """Continue the replay from ``sim`` (``draws`` and ``moves`` of the logs used); the full history, or ``None``."""
    while True:
        player = game.current_player(sim)
        dealt = len(sim.laid) == len(world.laid) and len(sim.missions) == len(world.missions)
        if moves == len(world.moves) and draws == len(world.draws) and dealt:
            return taken if sim == world else None
        if player == TERMINAL:
            return None
        if player == CHANCE:
            try:
                action: Action = _chance(sim, world, draws)
            except IndexError:
                return None
            draws += sim.pos.step not in ("districts", "missions")
        elif moves == len(world.moves):
            return None
        elif world.moves[moves] == PLAN_HIDDEN:
            for kind in sorted(set(sim.hand)):
                plan = Plan(kind, True)
                if not game.is_legal(sim, plan):
                    continue
                after = game.step(sim, plan)
                if _fits(after, world):
                    found = _replay(game, world, after, draws=draws, moves=moves + 1, taken=[*taken, plan])
                    if found is not None:
                        return found
            return None
        else:
            action = DECISIONS[world.moves[moves]]
            moves += 1
        if not game.is_legal(sim, action):
            return None
        sim = game.step(sim, action)
        taken.append(action)
        if not _fits(sim, world):
            return None
