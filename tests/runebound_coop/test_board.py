"""The combat boards drive the enemy: spaces top to bottom, skips and re-checks, surges, doubles, + symbols,
moving tokens, agility abilities, optional abilities and the title abilities."""

from __future__ import annotations

import runebound_coop as rb
from runebound_coop.actions import Block, Pass, Respond
from runebound_coop.content.schema import Sym
from runebound_coop.rules.enemy import enemy_act
from runebound_coop.rules.hero import hero_apply
from runebound_coop.rules.tokens import fight_of, showing
from runebound_coop.state import ENEMY, CancelFrame
from tabletop_core.fastcopy import replace
from tabletop_core.spec import CHANCE

from .helpers import act, attack_all, forced, land, setup


def test_skip_a_space_that_cannot_resolve_and_recheck_it_next_action() -> None:
    # Savage board: double (skull), skull, agility (flip own), tactics, surge. No skull shows: both doubles are
    # skipped; the agility flips S1 (blank -> 2 skull); on the next action the double space resolves on it.
    state = forced("a b a  b b b a a a", heroes=("Corbin",), enemies=("Thornback Boar",))
    s = setup(state)
    state = hero_apply(state, s, Pass())
    state = enemy_act(state, s)
    fight = fight_of(state)
    assert fight.enemy_pool.side(0) == 0 and fight.enemy_pool.links == ()
    state = enemy_act(state, s)
    assert fight_of(state).enemy_pool.links == (1 * 16 + 0,)


def test_plus_symbol_added_only_with_tokens_of_that_symbol() -> None:
    # Warrior skull space "+1 skull": three 1-skull tokens deal 4 (Elian spent charge so he cannot block).
    state = forced("a b a  a a b a b", heroes=("Elian",), enemies=("Ogre",))
    state = attack_all(state, "charge")
    assert state.hero_damage == (4,)
    # One skull deals 1 + 1 = 2 (the Ogre has more initiative marks and acts first).
    state = forced("a a a  b a b b b", heroes=("Corbin",), enemies=("Ogre",))
    assert state.hero_damage == (2,)
    # No skull in the pool: the +1 is ignored and the round ends with no damage (the agility recast lands a).
    state = forced("a a a  b b b b b", heroes=("Corbin",), enemies=("Ogre",))
    state = land(state, "a")
    state = rb.step(state, Pass())
    assert state.hero_damage == (0,) and state.pos.round == 2


def test_surge_falls_back_when_the_most_expensive_ability_has_no_effect() -> None:
    # Dreadbringer, 2 surge: Regenerate (2) would heal nothing, so Claw (1) removes Corbin's shield.
    state = forced("a b a  b a b b b b", heroes=("Corbin",), enemies=("Dreadbringer",), act=2)
    fight = fight_of(state)
    assert fight.hero_pool.removed == 0b010
    assert len(showing(setup(state), fight, ENEMY, Sym.SURGE)) == 1  # only as much surge as it took


def test_surge_stacks_to_trigger_the_most_expensive_ability() -> None:
    # Act II Warrior set, no skull: the double stacks on a surge (priority skull, surge, shield): 3 surge in all
    # trigger Breathe Fire (3): 5 skull. The Dreadbringer acts first (2 marks) and recasts a Corbin token.
    state = forced("a a a  b b b b a b", heroes=("Corbin",), enemies=("Dreadbringer",), act=2)
    state = land(state, "a")
    state = rb.step(state, Pass())
    assert state.hero_damage == (5,)


def test_equal_costs_resolve_bottom_to_top() -> None:
    # Masked Duelist: Feint (1, 1 skull) above Lunge (1, 2 skull): one surge triggers Lunge.
    state = forced("a a a  b b b b a a", heroes=("Corbin",), enemies=("Masked Duelist",))
    s = setup(state)
    state = hero_apply(state, s, Pass())
    state = enemy_act(state, s)
    assert fight_of(state).used == 1 << (8 + 1) and state.hero_damage == (2,)


def test_double_returns_to_its_space_when_the_token_under_it_moves() -> None:
    # Mystic: the double stacks on the surge; Elian recasts the surge token: the double returns (unspent).
    state = forced("a a b  a a b a a b", heroes=("Elian",), enemies=("Sorcerer",))
    state = attack_all(state, "charge")
    assert fight_of(state).enemy_pool.links == (1 * 16 + 0,)
    state = act(state, "recast enemy 0")
    fight = fight_of(state)
    assert fight.enemy_pool.links == () and fight.enemy_pool.is_live(1)
    assert rb.current_player(state) == CHANCE


def test_agility_ability_replaces_the_agility_space_relentless() -> None:
    # Undead Horde: Relentless has nothing spent to recast at first (skipped); the double stacks on a skull and
    # the skulls hit (2 + 1 + 1, +1); then Relentless recasts its own spent skull (most detrimental to the hero).
    state = forced("a a a  a b a a a", heroes=("Corbin",), enemies=("Undead Horde",))
    s = setup(state)
    state = hero_apply(state, s, Pass())
    for _ in range(2):
        state = enemy_act(state, s)
    assert state.hero_damage == (5,)
    state = enemy_act(state, s)
    fight = fight_of(state)
    assert fight.casting == (16,)
    assert (fight.used >> 8) & 1


def test_optional_enemy_ability_always_triggers_orc_brigand() -> None:
    state = forced("a b a  b a b a a", heroes=("Corbin",), enemies=("Orc Brigand",))
    state = act(state, "flip 1")
    assert fight_of(state).hero_pool.side(1) == 1


def test_blast_may_be_cancelled_with_one_tactics() -> None:
    state = forced("a b a  a a a a a a", heroes=("Elian",), enemies=("Sorcerer",))
    state = rb.step(state, Pass())
    assert isinstance(state.pending.top, CancelFrame) and rb.current_player(state) == 0
    assert rb.legal_actions(state) == (Respond(False), Respond(True))
    # Cancelled: the tactics copy of a skull is blocked by the shield, the 2 skulls hit: 2.
    assert rb.step(state, Respond(True)).hero_damage == (2,)
    # Allowed: Blast 3; Elian chooses to spend the tactics as a shield (the hero's choice): tactics-as-shield 1 and
    # shield 1 block 2: 1; the tactics copy 1; the skulls 2: 4.
    allowed = rb.step(state, Respond(False))
    assert rb.legal_actions(allowed) == (Block(False), Block(True))
    assert rb.step(allowed, Block(True)).hero_damage == (4,)


def test_mystic_title_ability_surge_left_deals_one_skull() -> None:
    # Storm Oracle: 1 surge and no ability it can use (Static Veil has no magic to remove, Thunderclap costs 2):
    # the surge stays; the agility recasts Corbin's 2P (lands a), the 2 skulls hit, and the title deals 1.
    state = forced("a a a  a b b a a a", heroes=("Corbin",), enemies=("Storm Oracle",))
    state = rb.step(state, Pass())
    state = land(state, "a")
    assert state.hero_damage == (3,) and state.pos.round == 2


def test_warrior_title_ability_heals_with_a_shield_left() -> None:
    # Elian's 2 charge hit the Ogre (its shield cannot block); the shield is still there at the end: heal 1.
    state = forced("a a a  b a b a a", heroes=("Elian",), enemies=("Ogre",))
    state = attack_all(state, "charge")
    assert state.enemy_damage == (2,)
    state = rb.step(state, Pass())
    assert state.enemy_damage == (1,) and state.pos.round == 2


def test_every_token_in_a_space_resolves_in_one_action() -> None:
    # Trickster board, two agility tokens: one enemy action recasts two different hero tokens (the two that lose
    # the most by the evaluation: Corbin's 2P, then the lowest of the ties).
    state = forced("a a a  a b a b b a", heroes=("Corbin",), enemies=("Masked Duelist",))
    s = setup(state)
    state = hero_apply(state, s, Pass())
    state = enemy_act(state, s)
    fight = fight_of(state)
    assert fight.casting == (0, 1)
    assert not fight.enemy_pool.is_live(0) and not fight.enemy_pool.is_live(4)


def test_double_skips_surge_once_no_surge_ability_is_left() -> None:
    # Mystic double priority: surge, then skull. With Blast already triggered this round, doubling the surge would
    # have no effect: the double goes to a skull instead.
    state = forced("a a a  a a a a a a", heroes=("Elian",), enemies=("Sorcerer",))
    s = setup(state)
    state = replace(state, fight=replace(fight_of(state), used=1 << 8))
    state = enemy_act(hero_apply(state, s, Pass()), s)
    assert fight_of(state).enemy_pool.links == (1 * 16 + 3,)


def test_every_agility_token_in_the_space_fires_the_agility_ability() -> None:
    """ "Resolve all of the tokens in that space." The Mirror Imp shows two agility tokens (0: A*, 4: A): in one
    action each fires Echo ("Recast any spent token"), not only the first."""
    state = forced("aaa abaaba", heroes=("Corbin",), enemies=("Mirror Imp",))
    state = attack_all(state, "physical")  # Corbin spends 2P and P*; then the Imp acts once
    fight = fight_of(state)
    assert state.enemy_damage == (3,) and rb.current_player(state) == CHANCE
    assert not fight.enemy_pool.is_live(4), "the second agility token fired too"
    # Two recasts pending: Echo paid by token 0 recast Corbin's spent P*, Echo paid by token 4 the spent token 0.
    assert fight.casting == (1, 16)


def test_a_token_moved_into_a_resolved_space_resolves_again() -> None:
    """ "Whenever it is the enemy's turn to take a combat action, resolve the next space on the combat board that
    contains a token (from top to bottom)" and "If a token is recast or flipped to a different symbol, move it to
    the corresponding space": every action looks for the first space holding a token, so a space can resolve again
    in the same round (never twice in one action). Savage board: double, skull,
    agility (flip own), tactics, surge."""
    state = forced("aaa aabaaa", heroes=("Lord Hawthorne",), enemies=("Thornback Boar",))
    state = rb.step(state, Pass())
    # Double on the 2 skull; skull space: 4 + 1 = 5; agility flips the shield (token 5) to 2 skull; skull space: 2.
    assert state.hero_damage == (7,) and state.pos.round == 2
