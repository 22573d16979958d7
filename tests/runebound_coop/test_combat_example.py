"""The rulebook's combat example (Eliam/Elian vs the Sorcerer on the Mystic board), action by action.

The casts are forced to the example's faces: Elian shows charge, charge and a shield (with the initiative mark);
the Sorcerer shows surge, double, tactics, skull, skull and a blank (with the initiative mark).
"""

from __future__ import annotations

import attrs

import runebound_coop as rb
from runebound_coop.actions import Exert, Pass
from runebound_coop.content.schema import Sym
from runebound_coop.rules.enemy import enemy_act
from runebound_coop.rules.flow import initiative
from runebound_coop.rules.hero import hero_apply
from runebound_coop.rules.tokens import fight_of, showing, value_of
from runebound_coop.state import ENEMY, HERO

from .helpers import forced, setup, texts

EXAMPLE = "aaa aaaaaa"


def _start() -> rb.RuneboundState:
    return forced(EXAMPLE, heroes=("Elian",), enemies=("Sorcerer",))


def test_combat_example_setup_and_initiative_tie_goes_to_hero() -> None:
    state = _start()
    s = setup(state)
    fight = fight_of(state)
    assert [str(f[0]) for f in s.heroes[0].faces] == ["C", "C", "S*"]
    assert [str(f[0]) for f in s.enemies[0].faces] == ["U", "D", "T", "K", "K", "B*"]
    assert initiative(s, fight) == HERO
    assert rb.current_player(state) == 0 and fight.turn == HERO


def test_combat_example_action_by_action() -> None:
    state = _start()
    s = setup(state)
    # Action 1: Elian exerts Twin Blades, removing his 2 charge tokens to deal 3 unblockable damage (attacking with
    # the charge directly would deal only 2).
    assert {"attack charge", "exert 0 Twin Blades charge"} <= set(texts(state))
    alone = hero_apply(state, s, Exert(0, Sym.CHARGE))
    assert alone.enemy_damage == (3,) and alone.hero_damage == (0,)
    assert fight_of(alone).hero_pool.removed == 0b011 and fight_of(alone).charged == 0  # removing is not spending
    # Action 2, played by the game itself right after action 1: no agility, so the double space: the double
    # stacks on the surge, now worth 2 surge. Nothing else happens: the tactics and both skulls wait.
    state = rb.step(state, rb.parse_action(state, "exert 0 Twin Blades charge"))
    fight = fight_of(state)
    assert fight.enemy_pool.links == (1 * 16 + 0,)
    assert value_of(s, fight, ENEMY, 0) == 2
    assert state.enemy_damage == (3,) and state.hero_damage == (0,)
    assert len(showing(s, fight, ENEMY, Sym.TACTICS)) == 1 and len(showing(s, fight, ENEMY, Sym.SKULL)) == 2
    # Action 3: Elian has only his shield remaining, so he must pass.
    assert rb.current_player(state) == 0 and fight.turn == HERO
    assert [type(a) for a in rb.legal_actions(state)] == [Pass]
    # The game then plays the Sorcerer's actions 4 to 6 in one step; replay them one by one from the same state.
    after = rb.step(state, Pass())
    state = hero_apply(state, s, Pass())
    state = attrs.evolve(state, fight=attrs.evolve(fight_of(state), turn=ENEMY))
    # Action 4: the stacked surge triggers Blast (3 skull); the shield blocks 1, Elian takes 2.
    state = enemy_act(state, s)
    fight = fight_of(state)
    assert state.hero_damage == (2,)
    assert not showing(s, fight, HERO, Sym.SHIELD) and not showing(s, fight, ENEMY, Sym.SURGE)
    assert len(showing(s, fight, ENEMY, Sym.TACTICS)) == 1 and len(showing(s, fight, ENEMY, Sym.SKULL)) == 2
    # Action 5: the tactics copies the highest skull: 1 damage.
    state = enemy_act(state, s)
    assert state.hero_damage == (3,)
    assert not showing(s, fight_of(state), ENEMY, Sym.TACTICS)
    assert len(showing(s, fight_of(state), ENEMY, Sym.SKULL)) == 2
    # Action 6: the skull space: both skulls, 2 damage.
    state = enemy_act(state, s)
    assert state.hero_damage == (5,) and not showing(s, fight_of(state), ENEMY, Sym.SKULL)
    # Nothing left to resolve: the enemy passes and the round is over, as in the game's own step.
    state = enemy_act(state, s)
    assert fight_of(state).passed == 0b11
    assert after.hero_damage == state.hero_damage and after.enemy_damage == state.enemy_damage
    assert after.pos.round == 2


def test_combat_example_through_the_public_api() -> None:
    state = _start()
    state = rb.step(state, rb.parse_action(state, "exert 0 Twin Blades charge"))
    assert texts(state) == ["pass"]
    state = rb.step(state, Pass())
    # The round ends (no surge left, so the Mystic title ability does nothing) and a new round is cast.
    assert state.hero_damage == (5,) and state.enemy_damage == (3,)
    assert state.pos.round == 2 and rb.current_player(state) == rb.GAME.current_player(state) == -1
