"""What a valid Unbroken state is: checked when a state is loaded and at every state of the conformance run.

Each message names the offending value, so a hand-edited or foreign state says what is wrong with it.
"""

from __future__ import annotations

from unbroken.content.loader import get_pack
from unbroken.state import LAST_LEVEL, MAX_USES, N_RESOURCES, SE, State

__all__ = ["validate_state"]

_OUTCOMES = (-1, 0, 1)
_LEVELS = range(1, LAST_LEVEL + 1)


def validate_state(state: State) -> None:
    """Refuse a (deserialized) state that breaks an invariant or names cards its pack lacks.

    Raises:
        ContentError: the game's pack (name and SHA-256) is not one this process was given.
        ValueError: naming the first broken invariant and the value that breaks it.
    """
    _check_pack_file(state)
    if state.pos.round not in _LEVELS:
        raise ValueError(f"Level {state.pos.round} is not 1..4")
    if state.outcome not in _OUTCOMES:
        raise ValueError(f"outcome {state.outcome} is not one of {_OUTCOMES}")
    if len(state.res) != N_RESOURCES:
        raise ValueError(f"{len(state.res)} resource tracks, expected {N_RESOURCES}")
    if not state.weapons or state.weapons[0] != "bare_hands":
        raise ValueError(f"weapons {state.weapons} do not start with Bare Hands")
    if state.amount(SE) < 0:
        raise ValueError(f"Small Effort {state.amount(SE)} is negative")
    if not 0 <= state.uses <= MAX_USES:
        raise ValueError(f"Ability Uses {state.uses} is not 0..{MAX_USES}")
    _check_cards(state)


def _check_pack_file(state: State) -> None:
    """A saved game plays only the pack it names by name and SHA-256 (one given to this process; no file is read)."""
    get_pack(state.options.pack, state.options.pack_sha256)


def _check_weapon_stack(state: State) -> None:
    """The weapon stack is a path of the upgrade tree ("lay the new Weapon Sheet on top of the old sheet"), and no
    weapon has two sheets in play or set aside ("You can never ... have 2 Weapons at the same time")."""
    pack = state.pack
    for below, above in zip(state.weapons, state.weapons[1:], strict=False):
        if all(u.to != above for u in pack.weapon(below).upgrades):
            raise ValueError(f"weapon stack {state.weapons}: {above!r} is not an upgrade of {below!r}")
    sheets = state.weapons + state.aside
    for w in sheets:
        if sheets.count(w) > 1:
            raise ValueError(f"weapon {w!r} has {sheets.count(w)} sheets (stack {state.weapons}, aside {state.aside})")


def _check_cards(state: State) -> None:
    pack = state.pack
    weapons = {w.id for w in pack.weapons}
    for w in state.weapons + state.aside:
        if w not in weapons:
            raise ValueError(f"unknown weapon {w!r}")
    _check_weapon_stack(state)
    skills = {x.id for x in pack.skills}
    for sk in state.skills:
        if sk not in skills:
            raise ValueError(f"unknown skill {sk!r}")
    conditions = {c.id for c in pack.conditions}
    for c in state.conditions + state.next_conditions:
        if c.id not in conditions:
            raise ValueError(f"unknown condition {c.id!r}")
        if c.tokens < 0:
            raise ValueError(f"condition {c.id!r} has {c.tokens} tokens")
    monsters = {m.id for m in pack.monsters}
    for mid in (state.monster, state.combat.monster if state.combat is not None else ""):
        if mid and mid not in monsters:
            raise ValueError(f"unknown monster {mid!r}")
    n_enc, n_skills = len(pack.encounters), len(pack.skills)
    encounters = (*state.encounters.cards(), *state.encounters.discards, *state.revealed)
    for i in encounters:
        if not 0 <= i < n_enc:
            raise ValueError(f"encounter index {i} outside the pack's {n_enc} encounters")
    for i in (*state.skill_deck.cards(), *state.skill_deck.discards, *state.offered):
        if not 0 <= i < n_skills:
            raise ValueError(f"skill index {i} outside the pack's {n_skills} skills")
