"""Enemy choices: the candidates of each choice, the documented evaluation, and the three ways to decide.

"Sometimes, during the resolution of an enemy ability, a choice has to be made. Make the choice in such a way as
to be most detrimental to the hero, as best as you can. If you do not feel like you can be unbiased enough when
making a choice, instead of choosing, deal 2 damage to your hero in place of the effect."

The evaluation (``enemy_choices="evaluate"``): every candidate gets a *detriment score* built from the worth of
token faces (:func:`worth`: damage, skull, shield and surge faces are worth their value, twice with a double on
them; agility, double and tactics 1; blank 0). The candidate with the highest score is chosen; ties go to the
lowest token reference. Scores per kind of choice:

- ``recast_foe`` (recast one of the hero's live tokens): worth now minus the mean worth of its two faces.
- ``flip_own`` (flip one of the enemy's own live tokens): worth of the other face minus worth now; only
  candidates scoring above 0 count (a flip that helps nobody "would have no effect").
- ``relentless`` (recast any spent token): an enemy token scores the mean worth of its faces, a hero token minus
  that mean (recasting it hands the hero a fresh token).
- ``remove`` (remove one of the hero's live tokens showing a symbol): its worth now.

With ``enemy_choices="damage"`` a choice between two or more candidates is replaced by 2 unblockable damage to the
hero (the source token is still spent); with ``"player"`` the enemy player picks (a pending frame).
"""

from __future__ import annotations

from runebound_coop.content.roster import Setup
from runebound_coop.content.schema import Face, Sym
from runebound_coop.rules.tokens import add_damage, faces_of, fight_of, live, spend, symbol_of, unlink, with_fight
from runebound_coop.state import (
    ENEMY,
    HERO,
    SIDES,
    ChoiceFrame,
    Fight,
    RuneboundState,
    TokenRef,
    fight_with_enemy_pool,
    fight_with_enemy_pool_casting,
    fight_with_hero_pool,
    fight_with_hero_pool_casting,
    link_double,
    link_target,
    pool_with_removed,
    pool_with_sides,
    pool_with_spent_links,
    split_ref,
    state_with_pending,
    token_ref,
)

__all__ = ["apply_choice", "candidates", "decide", "score", "worth"]

_WORTH = {
    Sym.PHYSICAL: 1.0,
    Sym.MAGIC: 1.0,
    Sym.CHARGE: 1.0,
    Sym.SKULL: 1.0,
    Sym.SHIELD: 1.0,
    Sym.SURGE: 1.0,
}
_FLAT = {Sym.AGILITY: 1.0, Sym.DOUBLE: 1.0, Sym.TACTICS: 1.0, Sym.BLANK: 0.0}
_RECASTS = ("recast_foe", "relentless")
# Each side's pool replaced in a fight (indexed by side), alone or with the tokens being cast.
_with_pool = (fight_with_hero_pool, fight_with_enemy_pool)
_with_pool_casting = (fight_with_hero_pool_casting, fight_with_enemy_pool_casting)


def worth(face: Face, doubled: bool = False) -> float:
    """The worth of a face to its owner (the evaluation's unit).

    >>> from runebound_coop.content.schema import parse_face
    >>> worth(parse_face("2K")), worth(parse_face("A*")), worth(parse_face("S"), doubled=True)
    (2.0, 1.0, 2.0)
    """
    if face.symbol in _FLAT:
        return _FLAT[face.symbol]
    return _WORTH[face.symbol] * face.value * (2 if doubled else 1)


def _mean(faces: tuple[Face, Face]) -> float:
    return (worth(faces[0]) + worth(faces[1])) / 2


def score(setup: Setup, fight: Fight, kind: str, ref: TokenRef) -> float:
    """The detriment to the hero of choosing token ``ref`` for a choice of ``kind``."""
    side, i = split_ref(ref)
    faces = faces_of(setup, fight, side)[i]
    pool = fight.pool(side)
    now = worth(faces[pool.side(i)], pool.doubled(i))
    if kind == "recast_foe":
        return now - _mean(faces)
    if kind == "flip_own":
        return worth(faces[1 - pool.side(i)]) - now
    if kind == "relentless":
        return _mean(faces) if side == ENEMY else -_mean(faces)
    return now


def candidates(state: RuneboundState, setup: Setup, kind: str, source: int, symbol: str = "") -> tuple[int, ...]:
    """The token refs a choice of ``kind`` may pick (``source``: the enemy token paying for it, or -1)."""
    fight = fight_of(state)
    if kind == "recast_foe":
        return tuple(live(setup, fight, HERO))
    if kind == "flip_own":
        return tuple(
            token_ref(ENEMY, i)
            for i in live(setup, fight, ENEMY)
            if i != source and score(setup, fight, kind, token_ref(ENEMY, i)) > 0
        )
    if kind == "relentless":
        out = []
        for side in SIDES:
            pool = fight.pool(side)
            # A double stacked on a live token is still in play (on the board), not spent.
            stacked = {link_double(link) for link in pool.links if pool.is_live(link_target(link))}
            for i in range(len(faces_of(setup, fight, side))):
                spent = (pool.spent >> i) & 1 and not (pool.removed >> i) & 1 and i not in stacked
                ref = token_ref(side, i)
                if spent and not (side == ENEMY and i == source) and ref not in fight.casting:
                    out.append(ref)
        return tuple(out)
    if kind == "remove":
        faces = faces_of(setup, fight, HERO)
        pool = fight.hero_pool
        wanted = symbol_of(symbol)
        return tuple(i for i in live(setup, fight, HERO) if faces[i][pool.side(i)].symbol == wanted)
    raise ValueError(f"unknown choice kind {kind!r}")


def apply_choice(state: RuneboundState, setup: Setup, kind: str, source: int, ref: TokenRef) -> RuneboundState:
    """Spend ``source`` (if any) and apply the effect of ``kind`` to token ``ref``."""
    if source >= 0:
        state = spend(state, ENEMY, [source])
    fight = fight_of(state)
    side, i = split_ref(ref)
    pool = fight.hero_pool if side == HERO else fight.enemy_pool
    if kind in _RECASTS:
        # The token leaves its space (a double on a live token returns) and is cast again: a chance node.
        if not ((pool.spent | pool.removed) >> i) & 1:  # ``Pool.is_live``, read in place
            pool = unlink(pool, i)
        # A spent stack stays spent: recasting either of its tokens dissolves it without returning the double.
        links = tuple(link for link in pool.links if i not in (link_double(link), link_target(link)))
        pool = pool_with_spent_links(pool, pool.spent & ~(1 << i), links)
        return with_fight(state, _with_pool_casting[side](fight, pool, (*fight.casting, ref)))
    if kind == "flip_own":
        pool = unlink(pool, i)
        pool = pool_with_sides(pool, pool.sides ^ (1 << i))
        return with_fight(state, _with_pool[side](fight, pool))
    # remove
    pool = unlink(pool, i)
    pool = pool_with_removed(pool, pool.removed | (1 << i))
    return with_fight(state, _with_pool[side](fight, pool))


def decide(  # noqa: PLR0917  # a choice is described by these seven values; a class would only wrap them
    state: RuneboundState,
    setup: Setup,
    kind: str,
    source: int,
    cands: tuple[int, ...],
    rest: tuple[int, ...] = (),
    symbol: str = "",
    ability: int = -1,
) -> RuneboundState:
    """Make (or hand to the enemy player) a choice among ``cands`` (non-empty), per ``enemy_choices``.

    Returns the state after the choice, or with a :class:`ChoiceFrame` pushed in ``player`` mode.
    """
    mode = state.options.enemy_choices
    if len(cands) == 1:
        return apply_choice(state, setup, kind, source, cands[0])
    if mode == "player":
        frame = ChoiceFrame(kind, source, cands, rest, symbol, ability)
        return state_with_pending(state, state.pending.push(frame))
    if mode == "damage":
        if source >= 0:
            state = spend(state, ENEMY, [source])
        return add_damage(state, setup, HERO, 2)
    fight = fight_of(state)
    best = max(cands, key=lambda ref: (score(setup, fight, kind, ref), -ref))
    return apply_choice(state, setup, kind, source, best)
