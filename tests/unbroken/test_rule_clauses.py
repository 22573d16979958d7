"""Rule clauses held to the rulebook's text, each test quoting the clause and checking both sides of it."""

from __future__ import annotations

import attrs

from tests.unbroken.helpers import at_battle, texts, with_res


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
