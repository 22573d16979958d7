"""The research game (``research=True``, not the published game): its setup is the published one made small and
fixed, and from round 1 on it is played by the published rules, unchanged; its states keep the normal shape."""

from __future__ import annotations

import attrs
import numpy as np
import pytest

import unrest
from tabletop_core.agents import RandomAgent
from tabletop_core.errors import OptionError
from tabletop_core.records import playout
from tabletop_core.spec import CHANCE
from unrest.actions import DealMission, Draw, SetDistrict
from unrest.setup import RESEARCH_DECK, RESEARCH_HAND, RESEARCH_MISSIONS, RESEARCH_TOKENS, deck_for
from unrest.state import CAPITOL, EMPIRE, REBELLION, UnrestOptions, UnrestState
from unrest.view import INFORMATION_STATE_SHAPE, OBSERVATION_SHAPE

GAME = unrest.GAME
OPTIONS = {"variant": "capitol", "research": True}


def _games(n: int, *, bots: bool) -> list[list[UnrestState]]:
    out = []
    for seed in range(n):
        state = GAME.initial_state(GAME.make_options(**OPTIONS))
        agents = GAME.default_agents(state) if bots else [RandomAgent(), RandomAgent()]
        trail = [state]
        for step in playout(GAME, agents, state, seed=seed):
            trail.append(step.after)
        out.append(trail)
    return out


def test_the_research_game_is_an_option_of_the_capitol_variant_only() -> None:
    assert GAME.make_options(**OPTIONS) == UnrestOptions("capitol", research=True)
    assert not GAME.make_options().research  # the published game by default
    with pytest.raises(OptionError, match="Capitol"):
        GAME.make_options(research=True)
    with pytest.raises(OptionError, match="true or false"):
        GAME.make_options(variant="capitol", research="yes")


def test_setup_lays_the_fixed_row_and_missions_and_deals_three_of_the_small_deck() -> None:
    state = GAME.initial_state(GAME.make_options(**OPTIONS))
    assert state.deck == RESEARCH_DECK and sum(RESEARCH_DECK) == 4 and state.tokens == RESEARCH_TOKENS
    while state.pos.step == "districts":
        ((outcome, p),) = GAME.chance_outcomes(state)  # one outcome: no chance in the row
        assert isinstance(outcome, SetDistrict) and p == 1.0
        state = GAME.step(state, outcome)
    assert state.laid == (0, 1, CAPITOL, 3, 4)
    hands = 0
    while state.pos.step == "hand":
        outcomes = GAME.chance_outcomes(state)
        assert all(isinstance(a, Draw) and p == state.deck[a.card] / sum(state.deck) for a, p in outcomes)
        state = GAME.step(state, outcomes[-1][0])
        hands += 1
    assert hands == RESEARCH_HAND
    while state.pos.step == "missions":
        ((outcome, p),) = GAME.chance_outcomes(state)
        assert isinstance(outcome, DealMission) and p == 1.0
        state = GAME.step(state, outcome)
    # Fewer than three cards are left, so round 1 is the Final Encounter: no Area of Interest, the plan first.
    assert state.missions == (0, *RESEARCH_MISSIONS) and sum(state.deck) < 3
    assert (state.round, state.step, state.final, state.aoi) == (1, "plan", True, ())
    GAME.validate_state(state)


@pytest.mark.parametrize("bots", [False, True], ids=["random", "bots"])
def test_every_state_is_valid_has_the_normal_shape_and_follows_the_published_rules(bots: bool) -> None:
    published = UnrestOptions("capitol")
    wins = [0, 0]
    for trail in _games(40, bots=bots):
        final = trail[-1]
        assert GAME.is_terminal(final) and final.round == 1  # one round
        wins[final.winner] += 1
        for state in trail:
            GAME.validate_state(state)
            for p in (REBELLION, EMPIRE):
                assert GAME.observation_tensor(state, p).shape == OBSERVATION_SHAPE
                assert GAME.information_state_tensor(state, p).shape == INFORMATION_STATE_SHAPE
            if state.round == 0 or GAME.is_terminal(state):
                continue
            # From round 1 on the research flag changes nothing: the published Capitol rules give the same
            # legal actions and the same next state.
            same = attrs.evolve(state, options=published)
            assert GAME.legal_actions(same) == GAME.legal_actions(state)
            if GAME.current_player(state) != CHANCE:
                action = GAME.legal_actions(state)[0]
                after = attrs.evolve(GAME.step(state, action), options=published)
                assert GAME.step(same, action) == after
    assert wins[EMPIRE] and (bots or wins[REBELLION])  # both sides win some random games


def test_the_empire_determinizer_deals_only_the_research_deck() -> None:
    rng = np.random.default_rng(5)
    for trail in _games(10, bots=False):
        for state in trail[::3]:
            world = GAME.determinize(state, EMPIRE, rng)
            GAME.validate_state(world)
            counts = list(world.deck)
            for k in world.hand:
                counts[k] += 1
            assert all(c <= n for c, n in zip(counts, deck_for(world.options), strict=True))
