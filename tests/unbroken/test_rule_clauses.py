"""Rule clauses held to the rulebook's text, each test quoting the clause and checking both sides of it."""

from __future__ import annotations

from pathlib import Path

import attrs
import pytest

from tabletop_core.errors import ContentError
from tests.unbroken.helpers import at_battle, at_prep, cond, do, roll, texts, with_res
from unbroken.content.loader import default_pack, load_pack
from unbroken.content.schema import Op
from unbroken.glossary import monster_text, step_rules
from unbroken.rules import effects, flow
from unbroken.rules.combat import monster
from unbroken.state import CUNNING, FLOW, LEVEL_TIME, SE, TIME


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
