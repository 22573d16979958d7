"""Enemy choices: the documented evaluation, the 2-damage alternative and the enemy as a player."""

from __future__ import annotations

import numpy as np

import runebound_coop as rb
from runebound_coop.actions import Choose, Pass
from runebound_coop.rules.choices import candidates, score
from runebound_coop.rules.enemy import enemy_act
from runebound_coop.rules.hero import hero_apply
from runebound_coop.rules.tokens import fight_of
from runebound_coop.state import ChoiceFrame, RuneboundState
from tests.playouts import final_state, last

from .helpers import forced, setup


def _horde_after_skulls(mode: str) -> RuneboundState:
    state = forced("a a a  a b a a a", heroes=("Corbin",), enemies=("Undead Horde",), enemy_choices=mode)
    s = setup(state)
    state = hero_apply(state, s, Pass())
    for _ in range(2):
        state = enemy_act(state, s)
    return state


def test_relentless_candidates_and_scores() -> None:
    state = _horde_after_skulls("evaluate")
    s = setup(state)
    fight = fight_of(state)
    cands = candidates(state, s, "relentless", 1)
    assert cands == (16, 18, 19, 20)  # the four spent Horde tokens (the hero's are live)
    scores = [score(s, fight, "relentless", c) for c in cands]
    assert scores == [1.0, 1.0, 0.5, 0.5]  # K/S and K*/U are worth most: the lowest of them is recast


def test_enemy_choices_evaluate_picks_the_most_detrimental() -> None:
    state = enemy_act(_horde_after_skulls("evaluate"), setup(_horde_after_skulls("evaluate")))
    assert fight_of(state).casting == (16,)


def test_enemy_choices_damage_deals_two_instead_of_choosing() -> None:
    state = _horde_after_skulls("damage")
    assert state.hero_damage == (5,)
    state = enemy_act(state, setup(state))
    assert state.hero_damage == (7,) and fight_of(state).casting == ()
    assert not fight_of(state).enemy_pool.is_live(1)  # the agility is spent


def test_enemy_choices_player_decides() -> None:
    state = _horde_after_skulls("player")
    state = enemy_act(state, setup(state))
    frame = state.pending.top
    assert isinstance(frame, ChoiceFrame) and frame.kind == "relentless"
    assert rb.current_player(state) == 1 and rb.GAME.num_players(state) == 2
    assert rb.legal_actions(state) == tuple(Choose(k) for k in range(4))
    assert rb.action_to_str(state, Choose(2)) == "choose 2 relentless enemy 3 K"
    state = rb.step(state, Choose(2))
    assert fight_of(state).casting == (19,) and not state.pending


def test_recast_foe_evaluation_targets_the_best_hero_token() -> None:
    # Warrior agility space: recast the hero token whose face is worth most above its mean (Corbin's 2P).
    state = forced("a a a  b b b b b", heroes=("Corbin",), enemies=("Ogre",))
    assert fight_of(state).casting == (0,)


def test_player_mode_returns_oppose_the_party() -> None:
    state = rb.new_game(seed=4, heroes=("Corbin",), enemies=("Undead Horde",), enemy_choices="player")
    state = final_state(rb.GAME, state, np.random.default_rng(4), choose=last, chance="settle")
    party, enemy = rb.returns(state)
    assert party == -enemy
