"""The conformance suite passes on the core's games and catches planted defects."""

from __future__ import annotations

from typing import ClassVar

import attrs
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop_core.conformance import ConformanceError, check_game
from tabletop_core.testing.kuhn import Deal, Kuhn, KuhnOptions, KuhnState, KuhnView, Move
from tests.core.flowgame import GAME as FLOW_GAME


def test_kuhn_passes_the_conformance_suite() -> None:
    report = check_game(Kuhn(), games=300, seed=0)
    assert report.games == 300 and report.terminal == 300
    assert report.chance_nodes == 600 and report.decisions >= 600


class MutatingStep(Kuhn):
    """Writes the move into the input state instead of a copy."""

    def _apply(self, state: KuhnState, action: Move | Deal) -> KuhnState:
        if isinstance(action, Move):
            object.__setattr__(state, "history", (*state.history, action.bet))
            return state
        return super()._apply(state, action)


class LeakingObserve(Kuhn):
    """Shows each player the opponent's card too."""

    def observe(self, state: KuhnState, player: int) -> KuhnView:
        return KuhnView(player, state.hands[1 - player] if len(state.hands) == 2 else None, state.history)


class UnsortedActions(Kuhn):
    """Lists bet before pass."""

    def legal_actions(self, state: KuhnState) -> tuple[Move | Deal, ...]:
        return tuple(reversed(super().legal_actions(state)))


class WrongProbability(Kuhn):
    """Deals each remaining card with probability 1/3 even when only two remain."""

    def chance_outcomes(self, state: KuhnState) -> tuple[tuple[Move | Deal, float], ...]:
        return tuple((a, 1 / 3) for a, _ in super().chance_outcomes(state))


class ReturnsOutOfBounds(Kuhn):
    """Doubles every payoff past the spec's bounds."""

    def returns(self, state: KuhnState) -> tuple[float, ...]:
        return tuple(2 * r for r in super().returns(state))


class LegalIllegal(Kuhn):
    """Accepts any move (no legality check): stepping an illegal action must raise."""

    def is_legal(self, state: KuhnState, action: Move | Deal) -> bool:
        return True


class WrongTensorShape(Kuhn):
    """Returns a tensor one element short."""

    def observation_tensor(self, state: KuhnState, player: int) -> np.ndarray:
        return super().observation_tensor(state, player)[:-1]


class BadStringCodec(Kuhn):
    """Writes every move the same way, so strings do not round-trip."""

    def action_to_str(self, state: KuhnState, action: Move | Deal) -> str:
        return "move" if isinstance(action, Move) else super().action_to_str(state, action)


@attrs.frozen
class LossyState(KuhnState):
    """Counts moves in a field that JSON never restores (``init=False``)."""

    TAG: ClassVar[str] = "kuhn.lossy"
    moves: int = attrs.field(init=False, default=0)


class LostInJson(Kuhn):
    """Keeps state in a field the JSON round trip drops."""

    state_type = LossyState

    def initial_state(self, options: KuhnOptions) -> KuhnState:
        base = super().initial_state(options)
        return LossyState(base.options, base.deck, base.hands, base.history)

    def _apply(self, state: KuhnState, action: Move | Deal) -> KuhnState:
        out = super()._apply(state, action)
        if isinstance(action, Move):
            object.__setattr__(out, "moves", len(out.history))
        return out


class BrokenInvariant(Kuhn):
    """Its own validate_state rejects states its rules reach (a bet after a pass)."""

    def validate_state(self, state: KuhnState) -> None:
        if state.history[:2] == (0, 1):
            raise ValueError("a bet after a pass")


class ForgetfulInformation(Kuhn):
    """Its information state forgets the bets (only the player and its card): player 0 decides twice in it."""

    def information_state(self, state: KuhnState, player: int) -> KuhnView:
        view: KuhnView = super().information_state(state, player)
        return attrs.evolve(view, history=())


class LeakingInformation(Kuhn):
    """Its information state holds the opponent's card (the observation does not)."""

    def information_state(self, state: KuhnState, player: int) -> tuple[KuhnView, int | None]:
        other = state.hands[1 - player] if len(state.hands) == 2 else None
        return (super().information_state(state, player), other)


class WrongInformationTensorShape(Kuhn):
    """Returns an information state tensor one element short (its observation tensor is right)."""

    def information_state_tensor(self, state: KuhnState, player: int) -> np.ndarray:
        return super().information_state_tensor(state, player)[:-1]


@pytest.mark.parametrize(
    ("game", "check"),
    [
        (ForgetfulInformation(), "information state is perfect recall"),
        (LeakingInformation(), "determinize keeps the information state"),
        (WrongInformationTensorShape(), "information state tensor shape and dtype"),
        (MutatingStep(), "step never mutates"),
        (LeakingObserve(), "determinize keeps the view"),
        (UnsortedActions(), "legal actions sorted by id"),
        (WrongProbability(), "chance probabilities sum to 1"),
        (ReturnsOutOfBounds(), "returns within the spec's bounds"),
        (LegalIllegal(), "is_legal rejects"),
        (WrongTensorShape(), "observation tensor shape and dtype"),
        (BadStringCodec(), "action strings unique"),
        (LostInJson(), "JSON round trip gives an equal state"),
        (BrokenInvariant(), "validate_state holds at every reachable state"),
    ],
)
def test_planted_defect_is_caught_with_seed_step_and_check(game: Kuhn, check: str) -> None:
    with pytest.raises(ConformanceError) as info:
        check_game(game, games=30, seed=11)
    err = info.value
    assert err.check == check
    assert err.seed >= 11 and err.step >= 0
    assert f"seed {err.seed}, step {err.step}" in str(err) and check in str(err)


def test_conformance_error_is_an_assertion_error() -> None:
    assert issubclass(ConformanceError, AssertionError)


class Drifting(Kuhn):
    """Reads a counter outside the state, so the same actions give other states on replay."""

    def __init__(self) -> None:
        self.calls = 0

    def _apply(self, state: KuhnState, action: Move | Deal) -> KuhnState:
        self.calls += 1
        if isinstance(action, Move) and self.calls % 2 == 0:
            return attrs.evolve(state, history=(*state.history, 1 - action.bet))
        return super()._apply(state, action)


def test_a_game_that_cannot_be_replayed_is_caught() -> None:
    with pytest.raises(ConformanceError) as info:
        check_game(Drifting(), games=30, seed=0, deep_every=10**6)
    assert info.value.check == "replaying the record reproduces the game"


# Derandomized: the leak check's frequency test is a chi-square test at alpha 0.001 on each determinization, so
# about one seed in 200 draws a fair determinizer's worlds unevenly enough to fail it (seeds 181210 and 930847394
# do, on every tree since the check exists). Random seeds made this test fail about one run in six; the same 40
# seeds every run keep it a regression test.
@settings(max_examples=40, derandomize=True)
@given(st.integers(0, 2**32 - 1))
def test_playouts_from_hypothesis_chosen_seeds_conform(seed: int) -> None:
    check_game(Kuhn(), games=1, seed=seed)
    check_game(FLOW_GAME, games=1, seed=seed)


def test_a_user_invariant_runs_at_every_state() -> None:
    seen: list[int] = []

    def no_three_bets(state: KuhnState) -> None:
        seen.append(len(state.history))
        if state.history.count(1) >= 2:
            raise AssertionError("two bets")

    with pytest.raises(ConformanceError) as info:
        check_game(Kuhn(), games=50, invariant=no_three_bets)
    assert info.value.check == "game invariant" and "two bets" in info.value.detail and seen
