"""The hidden-information checks pass on the core's games and catch each planted leak by name."""

from __future__ import annotations

import attrs
import numpy as np
import pytest
from scipy.stats import chi2

from tabletop_core.agents import RandomAgent
from tabletop_core.components import Pile
from tabletop_core.conformance import ConformanceError, check_game
from tabletop_core.fastcopy import replace
from tabletop_core.leakcheck import (
    FREQUENCIES,
    LEAK,
    REACHABLE,
    TRUTH,
    LeakBudget,
    LeakCheck,
    LeakError,
    chi_square_p,
)
from tabletop_core.records import playout
from tabletop_core.tensor import TensorLayout
from tabletop_core.testing.kuhn import CARDS, DRIVER, OBSERVATION, Deal, Kuhn, KuhnOptions, KuhnState, Move
from tests.core.flowgame import GAME as FLOW_GAME


def _leak_checks(game: Kuhn, games: int, seed: int) -> None:
    """The leak checks alone on ``games`` random playouts (``check_game`` runs its other checks first)."""
    check = LeakCheck(game, LeakBudget(playouts=games))
    for g in range(games):
        state = game.initial_state(KuhnOptions())
        trail, actions = [state], []
        for step in playout(game, [RandomAgent(), RandomAgent()], state, seed=seed + g):
            trail.append(step.after)
            actions.append(step.action)
        check.playout(trail, actions, seed + g)


def _other(state: KuhnState, player: int) -> int | None:
    return state.hands[1 - player] if len(state.hands) == 2 else None


class LegalActionsLeak(Kuhn):
    """The player to act may only pass while the opponent holds the King."""

    def legal_actions(self, state: KuhnState) -> tuple[Move | Deal, ...]:
        legal = super().legal_actions(state)
        player = self.current_player(state)
        if player >= 0 and _other(state, player) == 2:
            return legal[:1]
        return legal

    def is_legal(self, state: KuhnState, action: Move | Deal) -> bool:
        return action in self.legal_actions(state)


class RenderLeak(Kuhn):
    """The seat's picture of the table names the opponent's card."""

    def render(self, state: KuhnState, player: int | None = None) -> str:
        text = super().render(state, player)
        other = _other(state, player) if player is not None else None
        return text if other is None else f"{text}; opponent {CARDS[other]}"


INFO = TensorLayout((*OBSERVATION.pieces, ("hint", (1,))))


class InformationTensorLeak(Kuhn):
    """The information-state tensor has one more piece: whether the opponent holds the King."""

    spec = attrs.evolve(Kuhn.spec, information_state_shape=INFO.shape)
    information_state_layout = INFO

    def information_state_tensor(self, state: KuhnState, player: int) -> np.ndarray:
        tensor, pieces = INFO.new()
        tensor[: OBSERVATION.size] = self.observation_tensor(state, player)
        pieces["hint"][0] = float(_other(state, player) == 2)
        return tensor


class DescribeLeak(Kuhn):
    """Tells every seat which card chance deals."""

    def describe(
        self, before: KuhnState, action: Move | Deal, after: KuhnState, player: int | None = None
    ) -> tuple[str, ...]:
        if isinstance(action, Deal):
            return (f"chance deals {CARDS[action.card]}",)
        return super().describe(before, action, after, player)


class PublicDescribeLeak(Kuhn):
    """Tells a spectator which card chance deals, though each seat is told only its own."""

    def describe_public(self, before: KuhnState, action: Move | Deal, after: KuhnState) -> tuple[str, ...]:
        if isinstance(action, Deal):
            return (f"chance deals {CARDS[action.card]}",)
        return super().describe_public(before, action, after)


class RefusalLeak(Kuhn):
    """Its refusal messages list the legal actions at every node: at the deal, the cards left in the deck."""

    def public_legal_actions(self, state: KuhnState) -> tuple[Move | Deal, ...]:
        return self.legal_actions(state)


class KeepsTheTruth(Kuhn):
    """Its determinizer returns the true state every time."""

    def determinize(self, state: KuhnState, player: int, rng: np.random.Generator) -> KuhnState:
        return state


class TwoKings(Kuhn):
    """Kuhn poker dealt from J, Q, K, K: the opponent's card is not uniform among the kinds left."""

    def initial_state(self, options: KuhnOptions) -> KuhnState:
        return DRIVER.run(KuhnState(options, Pile.of([0, 1, 2, 2])))

    def validate_state(self, state: KuhnState) -> None:
        if sorted([*state.hands, *state.deck.cards()]) != [0, 1, 2, 2]:
            raise ValueError("the cards are not J, Q, K, K")

    def determinize(self, state: KuhnState, player: int, rng: np.random.Generator) -> KuhnState:
        if len(state.hands) < 2:
            return state
        unseen = [state.hands[1 - player], *state.deck.cards()]
        kinds = sorted(set(unseen))
        card = kinds[int(rng.integers(len(kinds)))]
        unseen.remove(card)
        hands = (card, state.hands[1]) if player == 1 else (state.hands[0], card)
        return replace(state, deck=Pile.of(unseen), hands=hands)


class UniformOverKinds(TwoKings):
    """Draws the opponent's card uniformly among the kinds left, not by how many of each are left."""


class WeightedTwoKings(TwoKings):
    """The right determinizer of the two-King deck (each unseen card equally likely)."""

    def determinize(self, state: KuhnState, player: int, rng: np.random.Generator) -> KuhnState:
        return self.redeal(state, player, rng)


class UnreachableWorld(Kuhn):
    """Its determinizer deals the opponent the player's own card (a world no deal reaches)."""

    def determinize(self, state: KuhnState, player: int, rng: np.random.Generator) -> KuhnState:
        if len(state.hands) < 2:
            return state
        return replace(state, hands=(state.hands[player],) * 2)

    def enumerate_information_set(  # type: ignore[override]  # offers no enumeration, as a game may
        self, state: KuhnState, player: int
    ) -> None:
        return None  # the targeted search, not the enumeration, has to find it out


@pytest.mark.parametrize(
    ("game", "check", "field"),
    [
        (LegalActionsLeak(), LEAK, "legal_actions"),
        (RenderLeak(), LEAK, "render"),
        (InformationTensorLeak(), LEAK, "information_state_tensor"),
        (DescribeLeak(), LEAK, "describe"),
        (PublicDescribeLeak(), LEAK, "describe_public"),
        (RefusalLeak(), LEAK, "refusal of step"),
        (KeepsTheTruth(), TRUTH, "determinize"),
        (UniformOverKinds(), FREQUENCIES, "determinize"),
        (UnreachableWorld(), REACHABLE, "determinize"),
    ],
    ids=[
        "legal",
        "render",
        "info-tensor",
        "describe",
        "public-describe",
        "refusal",
        "keeps-truth",
        "uniform",
        "unreachable",
    ],
)
def test_planted_leak_is_caught_by_name(game: Kuhn, check: str, field: str) -> None:
    with pytest.raises(ConformanceError):  # check_game runs the leak checks, or an older check fires first
        check_game(game, games=30, seed=11)
    with pytest.raises(LeakError) as info:
        _leak_checks(game, games=30, seed=11)
    err = info.value
    assert (err.check, err.field) == (check, field), str(err)
    assert isinstance(err, ConformanceError) and err.seed >= 11 and err.seat in (0, 1)
    assert f"seed {err.seed}, step {err.step}" in str(err) and f"seat {err.seat}, {field}" in str(err)


def test_a_tensor_leak_names_the_index_and_the_layout_piece() -> None:
    with pytest.raises(LeakError) as info:
        _leak_checks(InformationTensorLeak(), games=30, seed=11)
    assert f"index {OBSERVATION.size} (piece 'hint')" in info.value.detail


def test_the_right_sampler_of_the_two_king_deck_passes() -> None:
    check_game(WeightedTwoKings(), games=30, seed=11, leaks=LeakBudget(playouts=30, frequency_tests=4))


def test_the_core_games_pass_with_every_playout_checked() -> None:
    check_game(Kuhn(), games=40, seed=0, leaks=LeakBudget(playouts=40, frequency_tests=6))
    check_game(FLOW_GAME, games=5, seed=0, leaks=LeakBudget(playouts=5))


def test_the_frequency_test_has_power_at_the_stated_significance() -> None:
    # 300 worlds split 1/2 : 1/2 where the posterior is 1/3 : 2/3 fail at 0.001; a fair split passes.
    assert chi_square_p([150, 150], [100, 200]) < 1e-3
    assert chi_square_p([104, 196], [100, 200]) > 1e-3


@pytest.mark.parametrize(("stat", "df"), [(0.5, 1), (3.0, 1), (7.8, 3), (20.0, 4), (60.0, 9), (2.0, 12)])
def test_the_hand_written_chi_square_agrees_with_scipy(stat: float, df: int) -> None:
    from tabletop_core.leakcheck import _upper_gamma

    assert _upper_gamma(df / 2, stat / 2) == pytest.approx(float(chi2.sf(stat, df)), rel=1e-9, abs=1e-15)


def test_a_zero_budget_turns_the_checks_off() -> None:
    check_game(RenderLeak(), games=5, seed=11, leaks=LeakBudget(states=0))


class NoEnumeration(Kuhn):
    """Offers no enumeration of an information set, as a game may."""

    def enumerate_information_set(  # type: ignore[override]  # offers no enumeration, as a game may
        self, state: KuhnState, player: int
    ) -> None:
        return None


class RebuildsHistories(NoEnumeration):
    """Rebuilds every world's history: the deal, then the bets."""

    def rebuild_history(self, world: KuhnState, player: int) -> tuple[Deal | Move, ...]:
        return (*(Deal(c) for c in world.hands), *(Move(b) for b in world.history))


class RebuildsTheWrongDeal(RebuildsHistories):
    """Its rebuilt history deals the cards the other way round: the replay ends at another state."""

    def rebuild_history(self, world: KuhnState, player: int) -> tuple[Deal | Move, ...]:
        history = super().rebuild_history(world, player)
        return (*history[:2][::-1], *history[2:]) if len(world.hands) == 2 else history


class RebuildsNothing(RebuildsHistories):
    """Its rebuild refuses every world, as a game does for a state the rules cannot reach."""

    def rebuild_history(self, world: KuhnState, player: int) -> tuple[Deal | Move, ...]:
        raise ValueError("no history reaches it")


def _run(check: LeakCheck, games: int, seed: int = 0) -> LeakCheck:
    """``check`` on ``games`` random playouts of its game."""
    game = check.game
    for g in range(games):
        state = game.initial_state(KuhnOptions())
        trail, actions = [state], []
        for step in playout(game, [RandomAgent(), RandomAgent()], state, seed=seed + g):
            trail.append(step.after)
            actions.append(step.action)
        check.playout(trail, actions, seed + g)
    return check


def test_a_rebuilt_history_proves_every_world_and_stands_for_the_blind_walk() -> None:
    check = LeakCheck(RebuildsHistories(), LeakBudget(playouts=20, prove=True))
    walks: list[int] = []
    check.check_walk = lambda *args: walks.append(1)  # type: ignore[method-assign]  # count the blind walks
    _run(check, 20)
    # 20 playouts x 3 states x 2 seats x 2 worlds from each of the determinizer and the re-deal.
    assert check.proven == 20 * 3 * 2 * 4 and check.unproven == 0 and not walks


@pytest.mark.parametrize("game", [RebuildsTheWrongDeal(), RebuildsNothing()], ids=["wrong-deal", "refused"])
def test_a_rebuilt_history_that_does_not_reach_the_world_is_caught(game: Kuhn) -> None:
    with pytest.raises(LeakError) as info:
        _leak_checks(game, games=10, seed=3)
    assert info.value.check == REACHABLE and info.value.field == "determinize", str(info.value)


def test_without_a_rebuild_the_search_proves_small_worlds_or_leaves_them_unproven() -> None:
    searched = _run(LeakCheck(NoEnumeration(), LeakBudget(playouts=5)), 5)
    assert searched.proven == 5 * 3 * 2 * 4 and searched.unproven == 0
    blind = _run(LeakCheck(NoEnumeration(), LeakBudget(playouts=5, reach_nodes=0)), 5)
    assert blind.proven == 0 and blind.unproven == 5 * 3 * 2 * 4
    with pytest.raises(LeakError, match="not proven"):
        _run(LeakCheck(NoEnumeration(), LeakBudget(reach_nodes=0, prove=True)), 1)
