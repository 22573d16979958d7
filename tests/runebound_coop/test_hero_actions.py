"""Hero combat actions and their restrictions (forced casts: 'a'/'b' per token, hero tokens first)."""

from __future__ import annotations

from pathlib import Path

import pytest

import runebound_coop as rb
from runebound_coop.actions import Attack, Block, Choose, Copy, Double, Flip, Land, Pass, Recast, Respond, Surge
from runebound_coop.content.schema import Sym
from runebound_coop.rules.tokens import fight_of, showing
from runebound_coop.state import ENEMY, HERO, AttackFrame, ExertFrame, RuneboundState
from tabletop_core.errors import IllegalActionError
from tabletop_core.serialize import to_json
from tabletop_core.spec import CHANCE

from .helpers import act, attack_all, forced, land, setup, texts


def test_initiative_more_marks_acts_first() -> None:
    # Corbin shows no mark; the Ogre's Warrior tokens show one (K*): the enemy acts first (doubles a skull).
    state = forced("a b a  a a a a a", heroes=("Corbin",), enemies=("Ogre",))
    assert fight_of(state).enemy_pool.links == (4 * 16 + 0,)
    assert rb.current_player(state) == 0


def test_initiative_tie_goes_to_the_hero() -> None:
    state = forced("a a a  b a b a a", heroes=("Corbin",), enemies=("Ogre",))
    fight = fight_of(state)
    assert fight.enemy_pool.links == () and fight.enemy_pool.spent == 0


def test_attack_with_every_token_of_one_type_sums_their_values() -> None:
    # Corbin: 2P, P*, P = 4 physical; the Ogre's shield blocks 1 at the first opportunity.
    state = forced("a a b  b a b a a", heroes=("Corbin",), enemies=("Ogre",))
    assert texts(state) == ["pass", "attack physical"]
    state = attack_all(state, "physical")
    assert state.enemy_damage == (3,)
    assert fight_of(state).hero_pool.spent == 0b111
    assert fight_of(state).enemy_pool.spent & 1  # the shield token is spent


def test_tactics_spent_as_shield_first_then_shields() -> None:
    # The Sorcerer shows a tactics (M5) and a shield (M3): the tactics copies the shield and blocks 1, then the
    # shield blocks 1: 4 physical deal 2.
    state = forced("a a a a  a a b a b a", heroes=("Corbin",), enemies=("Sorcerer",), assets=(("Short Bow",),))
    state = attack_all(state, "physical")
    assert state.enemy_damage == (2,)
    spent = fight_of(state).enemy_pool.spent
    assert spent & (1 << 4) and spent & (1 << 2)


def test_charge_is_unblockable_and_its_spender_cannot_block() -> None:
    # Elian: C, T, S*; the Ogre shows a shield it cannot use against charge.
    state = forced("a b a  a a b a b", heroes=("Elian",), enemies=("Ogre",))
    state = attack_all(state, "charge")
    assert state.enemy_damage == (1,)
    # The Ogre's skulls (3, +1 on the Warrior board) hit Elian, who spent charge: no shield, no tactics block.
    assert state.hero_damage == (4,)
    fight = fight_of(state)
    assert showing(setup(state), fight, HERO, Sym.SHIELD) == [2]
    assert showing(setup(state), fight, HERO, Sym.TACTICS) == [1]


def test_agility_flips_one_of_your_own_tokens() -> None:
    state = forced("a b a  b a b a a", heroes=("Corbin",), enemies=("Ogre",))
    assert "flip 1" in texts(state) and "flip 2" not in texts(state)
    state = act(state, "flip 1")
    fight = fight_of(state)
    assert fight.hero_pool.side(1) == 0 and fight.hero_pool.spent & 0b100


def test_agility_recasts_an_enemy_token_as_a_chance_node() -> None:
    state = forced("a b a  b a b a a", heroes=("Corbin",), enemies=("Ogre",))
    state = act(state, "recast enemy 1")
    assert rb.current_player(state) == CHANCE
    state = rb.step(state, Land(1))
    # The recast token now shows agility and moved to the agility space: the enemy resolved it (recast a hero
    # token: another chance node) as its combat action.
    fight = fight_of(state)
    assert fight.enemy_pool.spent & 0b10
    assert rb.current_player(state) == CHANCE and fight.casting and fight.casting[0] < 16


def test_orc_brigand_spends_surge_to_prevent_a_flip() -> None:
    state = forced("a b a  b a b a a", heroes=("Corbin",), enemies=("Orc Brigand",))
    state = act(state, "flip 1")
    fight = fight_of(state)
    assert fight.hero_pool.side(1) == 1  # not flipped
    assert fight.hero_pool.spent & 0b100  # the agility is spent anyway
    assert fight.enemy_pool.spent & 0b100  # the surge (W3) paid for the prevention


def test_double_on_a_symbol_not_on_doubles_or_agility() -> None:
    # Elder Mok: D, A*, U* (Mend costs 1, Earthen Grip 2).
    state = forced("b a a  b a b a a", heroes=("Elder Mok",), enemies=("Ogre",))
    legal = rb.legal_actions(state)
    assert Double(2) in legal and Double(1) not in legal and Double(0) not in legal
    assert Surge(1) not in legal
    state = rb.step(state, Double(2))
    state = (
        rb.step(state, Pass()) if rb.current_player(state) == 0 and Surge(1) not in rb.legal_actions(state) else state
    )
    assert Surge(1) in rb.legal_actions(state)


def test_surge_ability_once_per_round() -> None:
    # Laurel: U, S, U* = 2 surge; Quick Shot (1) then neither Quick Shot again nor Volley (2).
    state = forced("b a a  b a b a a", heroes=("Laurel of Bloodwood",), enemies=("Ogre",))
    assert {Surge(0), Surge(1)} <= set(rb.legal_actions(state))
    state = rb.step(state, Surge(0))
    assert state.enemy_damage == (0,)  # 1 physical blocked by the Ogre's shield
    assert Surge(0) not in rb.legal_actions(state) and Surge(1) not in rb.legal_actions(state)


def test_tactics_copies_with_its_number_never_a_skull() -> None:
    # Elian: 2P, T, S*; the Sorcerer shows U, D, T, K, K, B*.
    state = forced("b b a  a a a a a a", heroes=("Elian",), enemies=("Sorcerer",))
    legal = rb.legal_actions(state)
    assert Copy(Sym.PHYSICAL, 2) in legal and Copy(Sym.PHYSICAL, 1) not in legal
    assert Surge(0, True) in legal  # a copy of the Sorcerer's surge pays for Riposte
    assert not any(isinstance(a, Copy) and a.symbol == Sym.SKULL for a in legal)
    with pytest.raises(ValueError, match="skull"):
        Copy(Sym.SKULL, 1)  # heroes never copy a skull: the action cannot even be built
    state = rb.step(state, Copy(Sym.PHYSICAL, 2))
    fight = fight_of(state)
    # Tactics is spent alone: the copied 2P token is still live. The copy dealt 2, of which the Sorcerer's own
    # tactics blocked 1 as a copy of Elian's shield (the rulebook example's warning).
    assert fight.hero_pool.is_live(0) and state.enemy_damage == (1,)
    assert not fight.enemy_pool.is_live(2)


def test_tactics_copying_agility_flips_or_recasts() -> None:
    # Tatianna: T, C*, A*; the Sorcerer's M2 shows agility (copied by the tactics).
    state = forced("b a b  a b a a a a", heroes=("Tatianna",), enemies=("Sorcerer",))
    legal = rb.legal_actions(state)
    assert Flip(1, True) in legal and Recast(0, True) in legal and Flip(1) in legal


def test_twin_blades_removes_two_tokens_and_deals_three_unblockable() -> None:
    state = forced("a a a  b a b a a", heroes=("Elian",), enemies=("Ogre",))
    state = act(state, "exert 0 Twin Blades charge")
    assert state.enemy_damage == (3,)  # the Ogre's shield cannot block it
    assert "exert 0 Twin Blades charge" not in texts(state)  # once per round
    assert state.hand == (1,)  # exerting discarded one of the 2 skill cards in hand


def test_exert_needs_a_card_in_hand_and_works_once_per_round() -> None:
    state = forced("a a a  b a b a a", heroes=("Elian",), enemies=("Ogre",), hand=0)
    assert not any(t.startswith("exert") for t in texts(state))
    state = forced("a a a  b a b a a", heroes=("Elian",), enemies=("Ogre",), cards=(("Field Dressing",),), hand=3)
    assert "exert 0 Field Dressing" in texts(state)
    state = act(state, "exert 0 Field Dressing")
    assert state.hand == (2,) and "exert 0 Field Dressing" not in texts(state)


def test_pass_ends_the_heros_actions_for_the_round() -> None:
    state = forced("a a a  b a b a a", heroes=("Corbin",), enemies=("Ogre",))
    state = rb.step(state, Pass())
    # The enemy acts alone until it passes; the round ends and the next one is cast.
    assert rb.current_player(state) == CHANCE and state.pos.round == 2


def test_illegal_actions_raise_and_leave_the_state() -> None:
    state = forced("a a a  b a b a a", heroes=("Corbin",), enemies=("Ogre",))
    before = to_json(state)
    with pytest.raises(IllegalActionError, match="legal: pass"):
        rb.step(state, Double(0))
    assert to_json(state) == before and "attack physical" in texts(state)


def test_hero_wins_a_fight_by_defeating_the_enemy() -> None:
    state = forced("a a b", heroes=("Corbin",), enemies=("Undead Horde",))
    state = land(state, "b b b b b")
    state = attack_all(state, "physical")
    assert rb.is_terminal(state) and rb.returns(state) == (1.0,)
    assert state.enemy_damage == (3,)
    assert ENEMY == 1


def test_the_heros_tactics_block_is_the_heros_choice() -> None:
    """ "When a player is about to take damage, that player *can* spend one tactics symbol ... as a copy of a
    symbol that would allow him or her to block or prevent that damage"; the automatic order ("the tactics symbol
    is always spent as a shield to block damage first") is written for "an enemy"."""
    # Elian shows 2P, T, S*; the Mirror Imp (two initiative marks) acts first: its tactics copies a skull, 1 damage.
    state = forced("bba aaabab", heroes=("Elian",), enemies=("Mirror Imp",))
    assert rb.current_player(state) == 0 and rb.legal_actions(state) == (Block(False), Block(True))
    kept = rb.step(state, Block(False))  # the shield blocks ("always spent at the first opportunity")
    assert kept.hero_damage == (0,) and not showing(setup(kept), fight_of(kept), HERO, Sym.SHIELD)
    assert Copy(Sym.PHYSICAL, 2) in rb.legal_actions(kept), "the tactics is kept for a later copy of 2 physical"
    spent = rb.step(state, Block(True))  # the tactics copies a shield and blocks the 1; the shield stays
    assert spent.hero_damage == (0,) and showing(setup(spent), fight_of(spent), HERO, Sym.SHIELD)
    assert Copy(Sym.PHYSICAL, 2) not in rb.legal_actions(spent)


def test_no_block_question_when_there_is_one_choice() -> None:
    # The Blast example: once Elian cancels Blast with his tactics, the Sorcerer's tactics copy (1 skull) meets only
    # Elian's shield: no question, the shield blocks; the 2 skulls hit.
    state = forced("a b a  a a a a a a", heroes=("Elian",), enemies=("Sorcerer",))
    state = rb.step(rb.step(state, Pass()), Respond(True))
    assert state.hero_damage == (2,) and state.pending.top is None


def test_the_hero_chooses_which_tokens_of_the_type_an_attack_spends(tmp_path: Path) -> None:
    """ "One action: spend damage symbols of ONE type (physical or magic, values summed)": nothing says all of
    them, and a split deals more against a shield worth 2. Corbin shows 2P, P*, P."""
    (tmp_path / "token_sets.toml").write_text(
        '[[token_set]]\ntrait = "warrior"\nsource = "standin"\n'
        'tokens = [{ id = "X", faces = "2S/2S" }, { id = "Y", faces = "B/B" }]\n'
    )
    (tmp_path / "enemies.toml").write_text(
        '[[enemy]]\nname = "Wall"\ntrait = "warrior"\nhealth = 9\nsource = "standin"\n'
    )
    state = forced("aab aa", heroes=("Corbin",), enemies=("Wall",), pack=tmp_path)
    picking = rb.step(state, Attack(Sym.PHYSICAL))
    assert rb.legal_actions(picking) == (Choose(0), Choose(1), Choose(2)), "which tokens, one at a time"
    assert texts(picking) == ["add token 0 2P", "add token 1 P*", "add token 2 P"]
    # All at once: 4 against the 2-shield deals 2 (the attack strikes by itself once every token is chosen).
    everything = rb.step(rb.step(rb.step(picking, Choose(0)), Choose(1)), Choose(2))
    assert everything.enemy_damage == (2,) and everything.pending.top is None
    # 1P first (the shield takes it), then 2P + P*: 3.
    first = rb.step(picking, Choose(2))
    assert (
        rb.legal_actions(first) == (Attack(Sym.PHYSICAL), Choose(0), Choose(1)) and texts(first)[0] == "strike physical"
    )
    first = rb.step(first, Attack(Sym.PHYSICAL))
    assert first.enemy_damage == (0,) and rb.current_player(first) == 0
    rest = rb.step(rb.step(rb.step(first, Attack(Sym.PHYSICAL)), Choose(0)), Choose(1))
    assert rest.enemy_damage == (3,)


def test_a_single_token_attack_asks_nothing() -> None:
    # Elian shows 2P, T, S*: one physical token, so the attack strikes at once (no choice to ask).
    state = forced("bba aaaaaa", heroes=("Elian",), enemies=("Sorcerer",))
    after = rb.step(state, Attack(Sym.PHYSICAL))
    assert not isinstance(after.pending.top, AttackFrame)
    assert not fight_of(after).hero_pool.is_live(0) and after.enemy_damage[0] > 0


def test_agility_flips_the_lowest_index_agility_token_paid_by_another_agility() -> None:
    """ "Agility: spend to flip one of your own other tokens": the lowest-index agility token is a target like any
    other, paid by a second agility. Lissa shows 2P, A, A* (tokens 1 and 2 both agility)."""
    state = forced("aba babaa", heroes=("Lissa",), enemies=("Ogre",))
    assert {"flip 0", "flip 1", "flip 2"} <= set(texts(state))
    flipped = act(state, "flip 1")  # token 2 (A*) pays; token 1 turns to M*
    pool = fight_of(flipped).hero_pool
    assert pool.side(1) == 0 and pool.is_live(1) and not pool.is_live(2)
    assert showing(setup(flipped), fight_of(flipped), HERO, Sym.MAGIC) == [1]
    flipped = act(state, "flip 2")  # token 1 (A) pays; token 2 turns to U*
    pool = fight_of(flipped).hero_pool
    assert pool.side(2) == 1 and pool.is_live(2) and not pool.is_live(1)
    # Laurel with the Clawed Glove shows 2P, P*, A, A (the glove is token 3): token 2 flips to U*, the glove pays.
    state = forced("abbb babaa", heroes=("Laurel of Bloodwood",), enemies=("Ogre",), assets=(("Clawed Glove",),))
    flipped = act(state, "flip 2")
    pool = fight_of(flipped).hero_pool
    assert pool.side(2) == 0 and pool.is_live(2) and not pool.is_live(3)
    assert showing(setup(flipped), fight_of(flipped), HERO, Sym.SURGE) == [2]


def test_a_lone_agility_token_never_flips_itself() -> None:
    """The other side of "one of your own other tokens": with one agility token (Lissa: 2P, A, U*) the agility
    cannot flip itself; a flip of any other token is still offered."""
    state = forced("abb babaa", heroes=("Lissa",), enemies=("Ogre",))
    legal = rb.legal_actions(state)
    assert Flip(1) not in legal and Flip(0) in legal and Flip(2) in legal
    assert not rb.is_legal(state, Flip(1))


def test_tactics_copying_agility_flips_the_lowest_index_tactics_paid_by_another(tmp_path: Path) -> None:
    """A tactics copying agility flips any of the hero's other tokens, the lowest-index tactics too when a second
    tactics pays; a lone tactics never flips itself."""
    (tmp_path / "heroes.toml").write_text(
        '[[hero]]\nname = "Twin"\nhealth = 5\ntokens = ["T/B", "T/B", "P/B"]\nsource = "standin"\n'
    )
    (tmp_path / "token_sets.toml").write_text(
        '[[token_set]]\ntrait = "warrior"\nsource = "standin"\ntokens = [{ id = "X", faces = "A/A" }]\n'
    )
    (tmp_path / "enemies.toml").write_text(
        '[[enemy]]\nname = "Dancer"\ntrait = "warrior"\nhealth = 9\nsource = "standin"\n'
    )
    state = forced("aaa a", heroes=("Twin",), enemies=("Dancer",), pack=tmp_path)
    legal = rb.legal_actions(state)
    assert {Flip(0, True), Flip(1, True), Flip(2, True)} <= set(legal)
    flipped = rb.step(state, Flip(0, True))  # token 1 pays; token 0 turns blank
    pool = fight_of(flipped).hero_pool
    assert pool.side(0) == 1 and pool.is_live(0) and not pool.is_live(1)
    lone = forced("aba a", heroes=("Twin",), enemies=("Dancer",), pack=tmp_path)  # one tactics: T, B, P
    legal = rb.legal_actions(lone)
    assert Flip(0, True) not in legal and {Flip(1, True), Flip(2, True)} <= set(legal)


def _blademaster(tmp_path: Path) -> RuneboundState:
    """Blademaster (2P, P, P, D, with Twin Blades) against a Dummy that only passes; token 1 doubled."""
    (tmp_path / "heroes.toml").write_text(
        '[[hero]]\nname = "Blademaster"\nhealth = 9\ntokens = ["2P/B", "P/B", "P/B", "D/B"]\n'
        'cards = ["Twin Blades"]\nsource = "standin"\n'
    )
    (tmp_path / "token_sets.toml").write_text(
        '[[token_set]]\ntrait = "warrior"\nsource = "standin"\ntokens = [{ id = "X", faces = "B/B" }]\n'
    )
    (tmp_path / "enemies.toml").write_text(
        '[[enemy]]\nname = "Dummy"\ntrait = "warrior"\nhealth = 20\nsource = "standin"\n'
    )
    state = forced("aaaa a", heroes=("Blademaster",), enemies=("Dummy",), pack=tmp_path)
    return rb.step(state, Double(1))


def _most_damage(state: RuneboundState) -> int:
    """The most damage the hero's further actions of the round deal (the Dummy passes)."""
    if rb.current_player(state) != 0 or state.pos.round != 1:
        return state.enemy_damage[0]
    return max(_most_damage(rb.step(state, a)) for a in rb.legal_actions(state))


def test_twin_blades_the_hero_chooses_which_two_tokens_to_remove(tmp_path: Path) -> None:
    """ "Remove 2 of your tokens showing the same damage symbol": the hero picks which two; every pair is offered
    once, and removing the doubled token (its double returns to be spent again) deals more than the two lowest."""
    state = _blademaster(tmp_path)
    asked = act(state, "exert 0 Twin Blades physical")
    assert isinstance(asked.pending.top, ExertFrame) and asked.enemy_damage == (0,)
    pairs = {}
    for first in rb.legal_actions(asked):
        after_first = rb.step(asked, first)
        for second in rb.legal_actions(after_first):
            done = rb.step(after_first, second)
            assert isinstance(first, Choose) and isinstance(second, Choose)
            pairs[first.option, second.option] = done
    assert set(pairs) == {(0, 1), (0, 2), (1, 2)}  # each pair once, in increasing order
    assert all(s.enemy_damage == (3,) and s.hand == (1,) for s in pairs.values())
    lowest = pairs[0, 2]  # the two lowest values (P and 2P; the doubled P counts 2 as well)
    doubled = pairs[1, 2]  # the doubled P and a P: the double returns to its space
    assert fight_of(doubled).hero_pool.is_live(3)
    assert (_most_damage(lowest), _most_damage(doubled)) == (5, 7)
    assert rb.parse_action(asked, "remove token 1 P") == Choose(1)


def test_twin_blades_with_exactly_two_tokens_asks_nothing() -> None:
    """With exactly 2 tokens showing the symbol there is no choice: both are removed at once."""
    state = forced("a a a  b a b a a", heroes=("Elian",), enemies=("Ogre",))
    state = act(state, "exert 0 Twin Blades charge")
    assert state.pending.top is None and state.enemy_damage == (3,)
