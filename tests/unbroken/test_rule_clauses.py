"""Rule clauses held to the rulebook's text, each test quoting the clause and checking both sides of it."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import attrs
import numpy as np
import pytest

from tabletop_core.components import Pile
from tabletop_core.errors import ContentError, StateFormatError
from tabletop_core.serialize import from_json, to_json
from tests.playouts import random_playout
from tests.unbroken.helpers import GAME, at_battle, at_prep, cond, do, draw, fresh, roll, texts, with_res
from unbroken.actions import NUM_ACTIONS, Action, Pick
from unbroken.bots import HeuristicAgent
from unbroken.content.loader import default_pack, load_pack
from unbroken.content.schema import Op
from unbroken.glossary import monster_text, step_rules
from unbroken.invariants import validate_state
from unbroken.rules import effects, flow
from unbroken.rules.combat import monster
from unbroken.rules.travel import DrawEncounters, ExploreMode
from unbroken.state import CUNNING, FLOW, LE, LEVEL_TIME, ME, SE, TIME, State


def test_armor_breaking_actions_and_attacks_are_offered_only_while_armor_remains() -> None:
    # "You may only choose to perform an Armor-Breaking attack if the monster still has at least 1 Armor left."
    s = with_res(at_battle("stone_golem", 3, skills=("crowbar",)), metal=2, se=5)
    assert s.combat is not None and s.combat.armor == 1
    armored = texts(s)
    assert "use crowbar" in armored and "attack shove" in armored  # Crowbar and the weapon's break, at 1 Armor
    bare = attrs.evolve(s, combat=attrs.evolve(s.combat, armor=0))
    unarmored = texts(bare)
    assert "use crowbar" not in unarmored and "attack shove" not in unarmored  # neither at 0 Armor
    assert "attack punch" in unarmored  # the Wounding attack instead


def test_level_four_sheets_list_no_trickery_cost_and_a_pack_giving_one_is_refused(tmp_path: Path) -> None:
    # "You defeat the final monster in Level 4 and do not die of starvation — you win!": the final monster cannot
    # be tricked, so no Level 4 sheet lists a Trickery Cost, and no text says it can be.
    pack = default_pack()
    assert all(m.trickery is None for m in pack.monsters if m.level == 4)
    assert any(m.trickery is not None for m in pack.monsters if m.level == 3)  # Levels 1-3 may still list one
    ogre = next(m for m in pack.monsters if m.id == "ogre")
    assert "Cannot be tricked." in monster_text(ogre) and "Trickery: pay" not in monster_text(ogre)
    hunger = step_rules(attrs.evolve(at_prep(4), pos=FLOW.at("combat", "hunger", 4)))
    assert "tricked" not in hunger.replace("cannot be tricked", "") and "defeated" in hunger
    path = tmp_path / "pack.toml"
    path.write_text(
        'extends = "default"\n'
        '[[monster]]\nid = "ogre"\nname = "Ogre"\nlevel = 4\nnumber = 2\narmor = 2\nhealth = 12\nsource = "public"\n'
        'trickery = [{ op = "spend", res = "cunning", n = 5 }]\nrewards = [{ op = "gain", res = "food", n = 1 }]\n'
        "table = [" + ", ".join(['{ kind = "defend", effects = [{ op = "defend" }] }'] * 6) + "]\n",
        encoding="utf-8",
    )
    with pytest.raises(ContentError) as info:
        load_pack(path)
    assert (info.value.file, info.value.entry, info.value.field) == (str(path), "ogre", "trickery")
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace('trickery = [{ op = "spend", res = "cunning", n = 5 }]\n', ""), encoding="utf-8")
    assert next(m for m in load_pack(path).monsters if m.id == "ogre").trickery is None  # the same sheet, no cost


def test_the_monster_tracker_stays_at_zero_after_a_victory() -> None:
    # "Reminder: On the Monster Tracker, reset the monster's Armor and Health Values to 0 following a victory in the
    # Battle Step." Paranoid ("the monster gains 2 Health", mandatory) and Quick Hands both trigger as the battle
    # starts; the extra turn first kills the Ghoul, and the Paranoid Response still resolves after the kill.
    s = at_battle("ghoul", 2, advance=False, conditions=cond("paranoid"), skills=("quick_hands",))
    s = with_res(s, se=6)
    assert s.combat is not None
    s = flow.run(attrs.evolve(s, combat=attrs.evolve(s.combat, health=1)))
    assert texts(s) == ["respond 0 quick hands", "respond 1 paranoid"]
    killed = do(s, "respond 0 quick hands", "attack punch")
    assert killed.pos.step == "rewards" and killed.combat is not None
    assert (killed.combat.armor, killed.combat.health, killed.combat.max_health) == (0, 0, 9)  # no Health added
    # The other side: the same Response before the kill still raises the living monster's Health.
    alive = do(s, "respond 1 paranoid")
    assert alive.combat is not None and (alive.combat.health, alive.combat.max_health) == (3, 11)


def test_a_piercing_killing_blow_leaves_no_armor_on_the_tracker() -> None:
    # "reset the monster's Armor and Health Values to 0 following a victory": Armor a piercing blow went through is
    # reset as well.
    s = with_res(at_battle("stone_golem", 3, advance=False), se=5)
    assert s.combat is not None and s.combat.armor > 0
    s = attrs.evolve(s, combat=attrs.evolve(s.combat, health=1, started=True))
    killed = effects.run_ops(s, (Op("wound", n=1, pierce=True),), "test:")
    killed = flow.run(killed)
    assert killed.pos.step == "rewards" and killed.combat is not None
    assert (killed.combat.armor, killed.combat.health) == (0, 0)


@pytest.mark.parametrize(
    ("level", "face", "monster_id", "cunning"),
    [(1, 3, "giant_spider", 2), (2, 3, "harpy", 3), (3, 3, "gargoyle", 4)],
)
def test_running_out_of_time_against_a_monster_without_an_ambush_keeps_the_trickery_step(
    level: int, face: int, monster_id: str, cunning: int
) -> None:
    # "If the monster does not have an Ambush Effect listed — no Ambush can occur!": Time running out against such
    # a monster leads to the normal Combat sequence, so its Trickery Cost can still be paid.
    s = with_res(at_prep(level), time=0, se=10, cunning=cunning, food=1)
    s = attrs.evolve(s, pos=FLOW.at("combat", "ambush", level))
    s = roll(flow.run(s), face)
    assert s.monster == monster_id and monster(s).ambush is None and s.pos.step == "trickery"
    assert texts(s) == ["fight", "trick"]
    assert s.combat is not None and s.amount(TIME) == LEVEL_TIME[level]  # trackers set, Time reset, as at Trickery
    tricked = do(s, "trick")
    assert tricked.tricked and tricked.pos.step == "hunger" and tricked.amount(CUNNING) == 0
    fought = do(s, "fight")
    assert fought.pos.step == "battle" and fought.amount(SE) == 10 and fought.amount(CUNNING) == cunning


def test_running_out_of_time_against_a_monster_with_an_ambush_goes_straight_to_battle() -> None:
    # "If you were ambushed (e.g., your Time Tracker reached 0), apply the monster's Ambush Effect (if any) and then
    # proceed directly to the Battle Step": the Kobold has an Ambush Effect; its Trickery Cost is never offered.
    s = attrs.evolve(with_res(at_prep(1), time=0, se=10, cunning=2), pos=FLOW.at("combat", "ambush", 1))
    s = roll(flow.run(s), 1)
    assert s.monster == "kobold" and monster(s).ambush is not None
    assert s.pos.step == "battle" and "trick" not in texts(s)
    assert s.amount(SE) < 10 and s.amount(CUNNING) == 2  # the Ambush Effect hit; nothing was paid to trick


def test_orienteer_may_be_taken_a_sixth_time_and_reveals_two_more_cards() -> None:
    # "Orienteer: Spend 1 Small Effort and reveal 2 extra Encounter Cards during the Exploration Step", in a step
    # where "You may take as many General Actions and Travel Actions as you wish": the rulebook sets no limit.
    s = with_res(at_prep(1), se=12)
    s = do(s, *["orienteer"] * 5)
    assert "orienteer" in texts(s) and s.amount(SE) == 7  # a 6th Orienteer is legal
    once_more = do(s, "orienteer", "explore")
    assert once_more.amount(SE) == 6 and once_more.pending.top == DrawEncounters(14)
    assert do(s, "explore").pending.top == DrawEncounters(12)  # the other side: 5 Orienteers reveal 12


def test_an_exploration_revealing_more_than_sixteen_cards_offers_every_pick_within_the_action_ids() -> None:
    # Eight Orienteers reveal 18 cards: "Choose 1 of these cards", any of them, the picks past the 16th with the
    # ids after every recorded one (still below ``num_distinct_actions``).
    s = do(with_res(at_prep(1), se=12), *["orienteer"] * 8, "explore")
    assert s.pending.top == DrawEncounters(18)
    cards = [c.id for c in s.pack.encounters[:18]]
    for card in cards:
        s = draw(s, card)
    legal = GAME.legal_actions(s)
    assert legal == tuple(Pick(i) for i in range(18))
    ids = [GAME.action_id(a) for a in legal]
    assert ids == [*range(16, 32), 100, 101] and max(ids) < NUM_ACTIONS
    assert GAME.legal_action_mask(s).sum() == 18
    assert all(GAME.action_from_id(s, i) == a for i, a in zip(ids, legal, strict=True))
    last = f"pick 17 {s.pack.encounters[17].name}"
    assert texts(s)[-1] == last and GAME.parse_action(s, last) == Pick(17)
    kept = do(s, last)
    assert kept.pending.top == ExploreMode(17) and sorted(kept.encounters.discards) == list(range(17))


def test_orienteer_is_offered_only_while_the_deck_and_its_discards_hold_more_cards_to_reveal() -> None:
    # "If the Encounter Deck ever runs out of cards, take all of the discarded Encounter Cards, and reshuffle them":
    # an Exploration can reveal every card of the deck and its discards, and no more; an Orienteer that could
    # reveal nothing more would only spend its Small Effort, so it is not offered.
    s = with_res(attrs.evolve(at_prep(1), encounters=Pile.of([0, 1, 2], [3, 4])), se=5)
    assert "orienteer" in texts(s)
    s = do(s, "orienteer")  # 4 of the 5 cards
    assert "orienteer" in texts(s)  # a 5th card is left to reveal
    s = do(s, "orienteer")  # every card
    assert "orienteer" not in texts(s) and s.amount(SE) == 3
    assert do(s, "explore").pending.top == DrawEncounters(5)


def test_a_small_effort_shortfall_may_be_split_between_medium_and_large_effort() -> None:
    """ "Each category is a distinct resource and is spent independently. However, you can spend Effort of a higher
    category in place of Effort of a lower category. To do so would be a desperate measure, but might just save your
    life!" With no Small Effort, 2 Medium and 2 Large, the Knife's stab (2 Small Effort) may be paid with 2 Medium,
    2 Large, or 1 of each; against the Ghoul, whose 5 is "Reduce 1 me to 2 se", the split is strictly the best."""
    s = with_res(at_battle("ghoul", 2, character="hunter", weapons=("bare_hands", "knife")), se=0, me=2, le=2)
    s = do(s, "attack stab")
    split = "pick 2 1 medium effort and 1 large effort"
    assert texts(s) == ["pick 0 medium effort first", "pick 1 large effort first", split]
    assert all(GAME.action_id(a) < NUM_ACTIONS for a in GAME.legal_actions(s))
    paid = {text: do(s, text) for text in texts(s)}
    effort = {text: (p.amount(SE), p.amount(ME), p.amount(LE)) for text, p in paid.items()}
    assert list(effort.values()) == [(0, 0, 2), (0, 2, 0), (0, 1, 1)]  # the split charges exactly 1 ME and 1 LE
    assert all(p.combat is not None and p.combat.health == 6 for p in paid.values())  # the same stab each way
    reduced = {text: roll(p, 5) for text, p in paid.items()}  # the Ghoul's Reduce: 1 Medium for 2 Small Effort
    after = [(r.amount(SE), r.amount(ME), r.amount(LE)) for r in reduced.values()]
    assert after == [(0, 0, 0), (2, 1, 0), (2, 0, 1)]  # the split keeps a Large Effort where the others cannot


def test_each_distinct_payment_of_a_shortfall_is_offered_once() -> None:
    # Focus (4 Small Effort) with none: Large Effort may cover 0 to 4 of it, the rest Medium; 5 payments, no two alike.
    s = do(with_res(at_battle("ghoul", 2, character="hunter"), se=0, me=5, le=5), "focus")
    assert len(texts(s)) == 5 and texts(s)[2:] == [
        "pick 2 3 medium effort and 1 large effort",
        "pick 3 2 medium effort and 2 large effort",
        "pick 4 1 medium effort and 3 large effort",
    ]
    results = {(p.amount(SE), p.amount(ME), p.amount(LE)) for p in (do(s, text) for text in texts(s))}
    assert results == {(0, 5 - medium + 1, 5 - (4 - medium)) for medium in range(5)}  # Focus gains 1 Medium
    # The other side: with 1 Medium and 2 Large, Medium first already pays 1 and 1; Large first 0 and 2: no third.
    few = do(
        with_res(at_battle("ghoul", 2, character="hunter", weapons=("bare_hands", "knife")), se=0, me=1, le=2),
        "attack stab",
    )
    assert texts(few) == ["pick 0 medium effort first", "pick 1 large effort first"]
    assert {(p.amount(ME), p.amount(LE)) for p in (do(few, text) for text in texts(few))} == {(0, 1), (1, 0)}


def test_a_saved_level_four_battle_with_time_on_the_tracker_is_refused() -> None:
    # "If this is the final (Level 4) monster, remove the token from the Time Tracker": a Level 4 battle holds no
    # Time (Time it would lose costs Small Effort instead), so a saved one that does was never reached.
    s = at_battle("troll", 4, character="hunter")
    assert s.amount(TIME) == 0
    validate_state(s)
    assert from_json(GAME, to_json(s)) == s
    bad = with_res(s, time=3)
    with pytest.raises(StateFormatError, match="Time 3 on the Time Tracker in the Level 4 Combat Phase"):
        validate_state(bad)
    with pytest.raises(StateFormatError, match="Time 3 on the Time Tracker"):
        from_json(GAME, to_json(bad))
    # The other side: Time in a Level 1-3 battle is the next Level's ("you'll have that much less Time").
    validate_state(with_res(at_battle("ghoul", 2, character="hunter"), time=3))


def test_time_gained_in_a_level_four_combat_phase_is_not_kept() -> None:
    # With the token removed there is no Time to gain: a gain of Time in a Level 4 battle leaves the tracker at 0
    # (so no rule reaches the state refused above); in a Level 1-3 battle it counts for the next Level.
    gain = (Op("gain", res="time", n=2), Op("gain", res="se", n=1))
    final = effects.run_ops(at_battle("troll", 4, character="hunter"), gain, "test:")
    assert (final.amount(TIME), final.amount(SE)) == (0, 14)
    validate_state(final)
    earlier = effects.run_ops(with_res(at_battle("ghoul", 2, character="hunter"), time=3), gain, "test:")
    assert earlier.amount(TIME) == 5


def test_a_saved_game_with_more_ability_uses_than_its_level_is_refused() -> None:
    # "In each Level, you can use your Character's Abilities a number of times equal to the current Level": the
    # Ability Use tracker never holds more than the Level's number.
    bad = attrs.evolve(fresh(), uses=4)
    assert bad.level == 1
    with pytest.raises(StateFormatError, match="Ability Uses 4 on Level 1"):
        validate_state(bad)
    with pytest.raises(StateFormatError, match="Ability Uses 4 on Level 1"):
        from_json(GAME, to_json(bad))
    validate_state(attrs.evolve(fresh(), uses=1))  # the other side: Level 1's one use, and Level 4's four
    validate_state(at_prep(4))
    assert at_prep(4).uses == 4


def test_every_state_of_seeded_random_and_bot_games_still_validates() -> None:
    rng = np.random.default_rng(11)
    seen = level_four_battles = 0

    def check(state: State) -> None:
        nonlocal seen, level_four_battles
        validate_state(state)
        seen += 1
        if state.level == 4 and state.combat is not None:
            level_four_battles += 1
            assert state.amount(TIME) == 0
        assert state.uses <= state.level

    for difficulty in ("easy", "normal", "hard"):
        for _ in range(10):
            for state in random_playout(GAME, GAME.new_game(difficulty=difficulty), rng):
                check(state)
    bot = HeuristicAgent()

    def by_bot(state: State, legal: Sequence[Action]) -> Action:
        action: Action = bot.act(GAME.observe(state, 0), legal, rng)
        return action

    for seed in range(16):
        start = GAME.new_game(seed=seed, difficulty="easy")
        for state in random_playout(GAME, start, rng, choose=by_bot, chance="settle"):
            check(state)
    assert seen > 1000 and level_four_battles > 10, (seen, level_four_battles)
