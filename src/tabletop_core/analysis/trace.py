"""One traced game: its length, its branching, its restricted decisions and, on request, its win chances.

:func:`trace_game` plays a game through :func:`~tabletop_core.records.playout` with two generators: the chance
outcomes come from ``chance_seed`` and the agents' choices from ``agent_seed`` (the separate chance stream), so
games with the same chance seed and other players meet the same luck. What it returns is a plain JSON dict (a
worker ships it back as is).

**Rounds** are counted where the game tells them: ``game.round_of(state)`` if the game defines it, else the
round of a flow position ``state.pos.round`` (every game on the core's flow driver); a game with neither reports
none. The count is the number of distinct consecutive round numbers seen at the decisions.

**Win chances** (for drama) are each seat's chance of winning from a state, ties counting half: the game's own
``win_probability(state)`` where it offers exact odds; else, when every seat plays ``random`` and the game tree
below the state is small, the exact value under uniform play (:func:`~tabletop_core.analysis.exact.expected_returns`
of the win indicator); else a Monte Carlo estimate, ``rollouts`` games played out from the state by the same
agents (a search agent is replaced by the game's heuristic bot there, to keep the cost bounded). They are the
chances seen by a spectator who knows the whole state, hidden cards included.

>>> from tabletop_core.agents import RandomAgent
>>> from tabletop_core.testing.kuhn import GAME
>>> t = trace_game(GAME, [RandomAgent(), RandomAgent()], chance_seed=1, agent_seed=2)
>>> t["chance_events"], t["decisions"] == len(t["branching"]), set(t["branching"])
(2, True, {2})
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np

from tabletop_core.agents.specs import parse_agent_spec
from tabletop_core.analysis.exact import expected_returns
from tabletop_core.errors import TabletopError
from tabletop_core.outcomes import seat_outcomes
from tabletop_core.records import playout
from tabletop_core.restrict import RestrictedGame, Restriction
from tabletop_core.spec import CHANCE, TERMINAL

if TYPE_CHECKING:
    from tabletop_core.agent import Agent, SearchAgent
    from tabletop_core.game import Game

__all__ = ["round_of", "trace_game", "win_chances"]

S = TypeVar("S")
A = TypeVar("A")

#: The most states the exact win chances may visit below a state before the estimate falls back to rollouts.
EXACT_STATES = 1_000
_SCORE = {"win": 1.0, "tie": 0.5, "loss": 0.0}


def round_of(game: Game[S, Any, Any], state: S) -> int | None:
    """The round ``state`` is in, where the game tells it (see the module)."""
    own = getattr(game, "round_of", None)
    if callable(own):
        value = own(state)
        return int(value) if value is not None else None
    pos = getattr(state, "pos", None)
    number = getattr(pos, "round", None)
    return number if isinstance(number, int) else None


def _score(game: Game[S, Any, Any], state: S) -> tuple[float, ...]:
    return tuple(_SCORE[o] for o in seat_outcomes(game.spec, game.returns(state)))


def win_chances(
    game: Game[S, Any, Any],
    state: S,
    specs: Sequence[str],
    rng: np.random.Generator,
    *,
    rollouts: int = 8,
    options: Mapping[str, Any] | None = None,
    exact: bool = True,
    allow_import: bool = False,
) -> tuple[tuple[float, ...], str]:
    """Each seat's chance of winning from ``state`` (ties half) and the method used (``exact`` or ``rollouts``).

    Args:
        specs: the agent spec of each seat (what the rollouts play).
        allow_import: let ``specs`` import a class by module path (specs the caller gave, never a file's).
        rng: the generator of the rollouts.
        rollouts: games played out per estimate.
        options: the game's options (to build the rollout agents).
        exact: try the exact value under uniform play (when every seat plays ``random``).
    """
    if game.current_player(state) == TERMINAL:
        return _score(game, state), "exact"
    own = getattr(game, "win_probability", None)
    if callable(own):
        return tuple(float(p) for p in own(state)), "exact"
    if exact and all(s.strip() == "random" for s in specs):
        try:
            return expected_returns(game, state, max_states=EXACT_STATES, value=lambda s: _score(game, s)), "exact"
        except TabletopError:
            pass
    first = game.initial_state(game.make_options(**dict(options or {})))
    parsed = [parse_agent_spec(s, allow_import=allow_import) for s in specs]
    kinds = [p if p.kind not in ("mcts", "ismcts") else parse_agent_spec("heuristic") for p in parsed]
    total = np.zeros(len(specs))
    for _ in range(rollouts):
        agents = [k.build(game, first, seat) for seat, k in enumerate(kinds)]
        end = state
        for step in playout(game, agents, state, rng):
            end = step.after
        if game.current_player(end) != TERMINAL:
            total += 0.5  # a rollout cut by max_game_length: undecided
        else:
            total += np.array(_score(game, end))
    return tuple(float(x) for x in total / rollouts), "rollouts"


def trace_game(
    game: Game[S, A, Any],
    agents: Sequence[Agent | SearchAgent],
    *,
    chance_seed: int,
    agent_seed: int,
    options: Mapping[str, Any] | None = None,
    restriction: Restriction | None = None,
    drama_points: int = 0,
    drama_rollouts: int = 8,
    specs: Sequence[str] | None = None,
    allow_import: bool = False,
) -> dict[str, Any]:
    """Play one game and describe it.

    Args:
        game: the ``Game``.
        agents: one agent per seat.
        chance_seed: seeds the chance outcomes.
        agent_seed: seeds the agents' choices (and determinizations).
        options: game options.
        restriction: an item taken away (its ``forbid`` pattern applies here; its ``options`` are the caller's
            to merge into ``options``).
        drama_points: estimate the win chances at this many decisions spread evenly over the game (0: none).
        drama_rollouts: rollouts per estimate, where no exact odds exist.
        specs: the agents' specs (needed for the win chances).
        allow_import: let ``specs`` import a class by module path (specs the caller gave, never a file's).

    Returns:
        ``returns`` and ``outcomes`` (``None`` for a game stopped at ``max_game_length``), ``actions``,
        ``decisions``, ``choices`` (decisions with more than one legal action), ``chance_events``, ``rounds``,
        ``branching`` (the legal actions at each decision, in order), ``restricted`` (decisions whose choices the
        restriction cut) and, with ``drama_points``, ``drama``: ``{"at": decision indices, "chances": per point
        each seat's win chance, "method": the estimates' methods, "point_methods": each point's}``, the last
        point being the final state.
    """
    # A RestrictedGame is a Game by delegation, not by subclassing: Any lets playout and the agents take it.
    played: Any = RestrictedGame(game, restriction) if restriction is not None and restriction.forbid else game
    state = game.initial_state(game.make_options(**dict(options or {})))
    branching: list[int] = []
    rounds: list[int] = []
    decision_states: list[S] = []
    restricted = chance_events = actions = 0
    final = state
    for step in playout(
        played,
        agents,
        state,
        np.random.default_rng(agent_seed),
        chance_rng=np.random.default_rng(chance_seed),
    ):
        actions += 1
        final = step.after
        if step.player == CHANCE:
            chance_events += 1
            continue
        legal = game.legal_actions(step.before)
        branching.append(len(legal))
        if played is not game and len(played.allowed(step.before, legal)) < len(legal):
            restricted += 1
        number = round_of(game, step.before)
        if number is not None and (not rounds or rounds[-1] != number):
            rounds.append(number)
        if drama_points:
            decision_states.append(step.before)
    done = game.current_player(final) == TERMINAL
    returns = [float(r) for r in game.returns(final)] if done else None
    line: dict[str, Any] = {
        "returns": returns,
        "outcomes": list(seat_outcomes(game.spec, returns)) if returns is not None else None,
        "actions": actions,
        "decisions": len(branching),
        "choices": sum(1 for b in branching if b > 1),
        "chance_events": chance_events,
        "rounds": len(rounds) if rounds else None,
        "branching": branching,
        "restricted": restricted,
    }
    if drama_points:
        if specs is None:
            raise TabletopError("trace_game: win chances need the agents' specs")
        rng = np.random.default_rng([agent_seed, 1])
        count = min(drama_points, len(decision_states))
        picks = sorted({round(x) for x in np.linspace(0, len(decision_states) - 1, count)}) if count else []
        chances, methods, point_methods = [], set(), []
        for i in picks:
            value, method = win_chances(
                game,
                decision_states[i],
                specs,
                rng,
                rollouts=drama_rollouts,
                options=options,
                allow_import=allow_import,
            )
            chances.append(list(value))
            methods.add(method)
            point_methods.append(method)
        end_value, _ = win_chances(
            game, final, specs, rng, rollouts=drama_rollouts, options=options, allow_import=allow_import
        )
        chances.append(list(end_value))
        line["drama"] = {
            "at": [*picks, len(decision_states)],
            "chances": chances,
            "method": sorted(methods),
            "point_methods": [*point_methods, "exact"],
        }
    return line
