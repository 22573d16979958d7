"""The exact odds calculator: closed-form cases, optimality, and a Monte Carlo cross-check."""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

import runebound_coop as rb
from runebound_coop.actions import Action
from runebound_coop.exact import Policy, RoundSolver, Solver, fight_state, solve
from runebound_coop.state import RuneboundState
from tabletop_core import sample_outcome
from tabletop_core.spec import CHANCE


def _last(state: RuneboundState, legal: Sequence[Action]) -> Action:
    """A fixed policy: the legal action with the highest id."""
    return legal[-1]


@pytest.fixture
def toy_pack(tmp_path: Path) -> Path:
    """A hero with one 3-physical/blank token against a harmless 3-health enemy whose tokens are all blank."""
    (tmp_path / "heroes.toml").write_text('[[hero]]\nname = "Toy"\nhealth = 5\ntokens = ["3P/B"]\nsource = "standin"\n')
    (tmp_path / "token_sets.toml").write_text(
        '[[token_set]]\ntrait = "warrior"\nsource = "standin"\ntokens = [{ id = "X", faces = "B/B" }]\n'
    )
    (tmp_path / "enemies.toml").write_text(
        '[[enemy]]\nname = "Dummy"\ntrait = "warrior"\nhealth = 3\nsource = "standin"\n'
    )
    return tmp_path


@pytest.mark.parametrize("rounds", [1, 2, 3, 5])
def test_odds_closed_form_one_token(toy_pack: Path, rounds: int) -> None:
    # The hero wins in the first round whose cast shows 3P: P(win) = 1 - (1/2)^rounds.
    result = rb.odds("Toy", "Dummy", pack=toy_pack, max_rounds=rounds)
    assert math.isclose(result.win, 1 - 0.5**rounds, abs_tol=1e-12)
    assert result.loss == 0.0 and result.damage[0] == pytest.approx(1.0)


def test_odds_distributions_sum_to_one() -> None:
    result = rb.odds("Corbin", "Undead Horde", max_rounds=1)
    assert math.isclose(result.win + result.loss + result.undecided, 1.0, abs_tol=1e-12)
    assert math.isclose(sum(result.damage), 1.0, abs_tol=1e-12)
    assert len(result.damage) == 11 and result.states > 100


def test_optimal_play_is_at_least_any_policy() -> None:
    best = rb.odds("Elian", "Cliff Harpy", max_rounds=1)
    fixed = rb.odds("Elian", "Cliff Harpy", max_rounds=1, policy=_last)
    assert best.win >= fixed.win - 1e-12
    assert best.win > 0.0


def test_regret_summed_along_a_policy_is_exactly_its_shortfall_from_the_optimum() -> None:
    # The performance difference lemma, computed exactly: the expected sum of V*(s) - Q*(s, a) over the decisions a
    # fixed policy meets, chance weighted by its probabilities, is V*(root) - V_policy(root).
    game = rb.GAME
    root = fight_state(game, "Elian", "Cliff Harpy", max_rounds=1)
    solver = Solver(game, root)
    memo: dict[RuneboundState, float] = {}

    def expected_regret(s: RuneboundState) -> float:
        if s in memo:
            return memo[s]
        player = game.current_player(s)
        if game.is_terminal(s):
            out = 0.0
        elif player == CHANCE:
            out = sum(p * expected_regret(game.apply_unchecked(s, a)) for a, p in game.chance_outcomes(s))
        else:
            action = _last(s, game.legal_actions(s))
            out = solver.regret(s, action) + expected_regret(game.apply_unchecked(s, action))
        memo[s] = out
        return out

    best = solver.odds().win
    fixed = solve(game, root, _last).win
    assert best - fixed > 0.01  # the fixed policy is measurably worse, so the identity is not 0 = 0
    assert expected_regret(root) == pytest.approx(best - fixed, abs=1e-12)
    # The optimal action costs nothing, and no action has a negative cost.
    decisions = [s for s in memo if not game.is_terminal(s) and game.current_player(s) >= 0]
    assert decisions and all(solver.regret(s, solver.best_action(s)) == 0.0 for s in decisions)
    assert all(solver.regret(s, a) >= 0.0 for s in decisions for a in game.legal_actions(s))
    with pytest.raises(ValueError, match="optimal hero"):
        Solver(game, root, _last).regret(root, _last(root, game.legal_actions(root)))


def test_odds_from_a_mid_fight_state() -> None:
    state = fight_state(rb.GAME, "Corbin", "Undead Horde", max_rounds=1)
    for side in (0, 0, 1, 1, 1, 1, 1, 1):
        state = rb.step(state, rb.GAME.action_from_id(state, side))
    # Corbin shows 2P, P*, P: attacking deals 4 (the shield blocks 1): exactly 3, a certain win.
    assert solve(rb.GAME, state).win == 1.0


def test_odds_rejects_encounters_and_enemy_players() -> None:
    with pytest.raises(ValueError, match="single fight"):
        solve(rb.GAME, rb.new_game(heroes=("Corbin", "Lissa"), enemies=("Ogre",)))
    with pytest.raises(ValueError, match="enemy must decide"):
        rb.odds("Corbin", "Ogre", enemy_choices="player")
    with pytest.raises(ValueError, match="one hero against one enemy only; got heroes="):
        rb.odds("Corbin", "Ogre", heroes=("Corbin", "Lissa"))


def _monte_carlo(policy: Policy, n: int, seed: int) -> tuple[float, list[int]]:
    """The win rate and the hero's damage at the end of each of ``n`` simulated fights."""
    rng = np.random.default_rng(seed)
    wins = 0
    damage = []
    for _ in range(n):
        state = fight_state(rb.GAME, "Corbin", "Undead Horde", max_rounds=1)
        while not rb.is_terminal(state):
            if rb.current_player(state) == CHANCE:
                action = sample_outcome(rb.chance_outcomes(state), rng)
            else:
                action = policy(state, rb.legal_actions(state))
            state = rb.GAME.apply_unchecked(state, action)
        wins += rb.returns(state)[0] > 0
        damage.append(state.hero_damage[0])
    return wins / n, damage


def test_odds_match_monte_carlo_within_confidence_interval() -> None:
    """Exact odds vs 2000 simulated fights (99.9% normal intervals), optimal and fixed policies: the win
    probability, the expected damage taken and each damage value's probability."""
    solver = Solver(rb.GAME, fight_state(rb.GAME, "Corbin", "Undead Horde", max_rounds=1))
    exact = solver.odds()
    fixed = rb.odds("Corbin", "Undead Horde", policy=_last, max_rounds=1)
    n = 2000
    for result, policy, seed in ((exact, lambda s, _legal: solver.best_action(s), 1), (fixed, _last, 2)):
        p = result.win
        estimate, damage = _monte_carlo(policy, n, seed)
        assert abs(estimate - p) <= 3.29 * math.sqrt(p * (1 - p) / n), (estimate, p)
        mean = result.expected_damage
        var = sum((d - mean) ** 2 * q for d, q in enumerate(result.damage))
        assert abs(float(np.mean(damage)) - mean) <= 3.29 * math.sqrt(var / n) + 1e-12, (np.mean(damage), mean)
        assert var > 0.0  # the fight's damage really varies: the check above has teeth
        for d, q in enumerate(result.damage):
            seen = damage.count(d) / n
            assert abs(seen - q) <= 3.29 * math.sqrt(q * (1 - q) / n) + 1e-12, (d, seen, q)


def test_round_solver_matches_plain_expectimax(toy_pack: Path) -> None:
    """The per-round graph gives exactly the memoized expectimax's odds and damage distribution."""
    for state in (
        fight_state(rb.GAME, "Corbin", "Undead Horde", max_rounds=1),
        fight_state(rb.GAME, "Toy", "Dummy", pack=toy_pack, max_rounds=4),
        fight_state(rb.GAME, "Lissa", "Lantern Wisp", max_rounds=1),
    ):
        plain, graph = Solver(rb.GAME, state).odds(), RoundSolver(rb.GAME, state).odds()
        assert graph.win == pytest.approx(plain.win, abs=1e-12)
        assert graph.loss == pytest.approx(plain.loss, abs=1e-12)
        assert graph.damage == pytest.approx(plain.damage, abs=1e-12)


def test_round_solver_starts_at_a_round_start() -> None:
    state = fight_state(rb.GAME, "Corbin", "Undead Horde", max_rounds=1)
    state = rb.step(state, rb.GAME.action_from_id(state, 0))
    with pytest.raises(ValueError, match="first cast of a round"):
        RoundSolver(rb.GAME, state)


@pytest.mark.slow
def test_odds_count_the_flip_of_the_lowest_index_agility_token() -> None:
    """Laurel with the Clawed Glove (two agility faces: token 2 U*/A and the glove P/A) against the Ogre over 2
    rounds: with every flip offered, token 2 flipping to U* paid by the glove included, optimal play wins 0.2577
    (0.2341 when the lowest-index agility token could never be flipped). About 20 s, one million states."""
    result = rb.odds("Laurel of Bloodwood", "Ogre", assets=(("Clawed Glove",),), max_rounds=2)
    assert result.win == pytest.approx(0.257676363, abs=1e-9)
    assert result.loss == pytest.approx(0.094832420, abs=1e-9)
