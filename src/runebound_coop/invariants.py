"""What a valid state is: used when a state is loaded from JSON and by the conformance run.

Damage within health, hands within the option, a known flow position, pools and casts within the tokens, and every
double placed on one other token of its own pool.
"""

from __future__ import annotations

from runebound_coop.content.roster import Setup
from runebound_coop.content.schema import Sym
from runebound_coop.rules.tokens import faces_of
from runebound_coop.state import FLOW, HERO, SIDES, RuneboundState, link_double, link_target, split_ref

__all__ = ["validate_state"]


def validate_state(setup: Setup, state: RuneboundState) -> None:
    """Raise ``ValueError`` naming the first broken invariant of ``state`` (whose content is ``setup``)."""
    if len(state.hero_damage) != len(setup.heroes) or len(state.enemy_damage) != len(setup.enemies):
        raise ValueError("one damage count per hero and per enemy")
    if len(state.hand) != len(setup.heroes) or not all(0 <= h <= state.options.hand for h in state.hand):
        raise ValueError(f"hand: one count in 0..{state.options.hand} per hero")
    for d, h in zip(state.hero_damage, setup.heroes, strict=True):
        if not 0 <= d <= h.health:
            raise ValueError(f"{h.name}: damage {d} outside 0..{h.health}")
    for d, e in zip(state.enemy_damage, setup.enemies, strict=True):
        if not 0 <= d <= e.health:
            raise ValueError(f"{e.name}: damage {d} outside 0..{e.health}")
    FLOW.at(state.pos.phase, state.pos.step, state.pos.round)
    fight = state.fight
    if fight is None:
        return
    if not (0 <= fight.hero < len(setup.heroes) and 0 <= fight.enemy < len(setup.enemies)):
        raise ValueError("fight: bad hero or enemy index")
    for side in SIDES:
        faces = faces_of(setup, fight, side)
        n = len(faces)
        pool = fight.pool(side)
        who = "hero" if side == HERO else "enemy"
        if max(pool.sides, pool.spent, pool.removed) >> n:
            raise ValueError(f"{who} pool: bits beyond the {n} tokens")
        if pool.spent & pool.removed:
            raise ValueError(f"{who} pool: a token both spent and removed")
        targets = [link_target(link) for link in pool.links]
        if len(set(targets)) != len(targets):
            raise ValueError(f"{who} pool: a token doubled twice")
        for link in pool.links:
            d, t = link_double(link), link_target(link)
            if not (d < n and t < n and d != t) or faces[d][pool.side(d)].symbol != Sym.DOUBLE:
                raise ValueError(f"{who} pool: link {link} does not join a double to another token")
            if not (pool.spent >> d) & 1 or (pool.removed >> t) & 1:
                raise ValueError(f"{who} pool: link {link}: the double must be spent, its target not removed")
    for ref in fight.casting:
        side, i = split_ref(ref)
        if not 0 <= i < len(faces_of(setup, fight, side)):
            raise ValueError(f"casting: bad token ref {ref}")
