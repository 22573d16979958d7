"""Reading and changing pools: faces showing, values with doubles, spending, blocking, damage and healing.

These are the verbs every rule uses; each returns a new state. ``side`` is ``HERO`` or ``ENEMY``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from itertools import combinations

from runebound_coop.content.roster import EnemySetup, HeroSetup, Setup
from runebound_coop.content.schema import SHIELD, TACTICS, Face, Sym
from runebound_coop.limits import MAX_TOKENS
from runebound_coop.state import (
    ENEMY,
    HERO,
    LINK_BASE,
    SIDES,
    Fight,
    Pool,
    RuneboundState,
    Side,
    TokenRef,
    fight_with_enemy_pool,
    fight_with_hero_pool,
    link_double,
    link_target,
    pool_with_spent,
    pool_with_spent_links,
    split_ref,
    state_with_enemy_damage,
    state_with_fight,
    state_with_hero_damage,
    token_ref,
)

__all__ = [
    "add_damage",
    "best_printed",
    "best_subset",
    "bits",
    "deal",
    "face_of",
    "faces_of",
    "faces_showing",
    "fight_of",
    "heal",
    "live",
    "live_mask",
    "showing",
    "spend",
    "symbol_of",
    "tactics_block_open",
    "total_value",
    "unlink",
    "value_of",
    "with_enemy_pool",
    "with_fight",
    "with_hero_pool",
]


_SYMBOL_OF = {sym.value: sym for sym in Sym}


def symbol_of(text: str) -> Sym:
    """``Sym(text)``, found in a dict (an enum call is a Python-level call); an unknown text raises ``ValueError``
    as ``Sym`` does.

    >>> symbol_of("skull") is Sym.SKULL
    True
    """
    sym = _SYMBOL_OF.get(text)
    return sym if sym is not None else Sym(text)


def fight_of(state: RuneboundState) -> Fight:
    """The fight in progress (the rules call this only during a fight)."""
    assert state.fight is not None  # callers run only while a fight is in progress
    return state.fight


#: The state with its fight replaced (the rules' most frequent copy, written out in :mod:`runebound_coop.state`).
with_fight: Callable[[RuneboundState, Fight | None], RuneboundState] = state_with_fight
#: The fight with the hero's pool replaced.
with_hero_pool: Callable[[Fight, Pool], Fight] = fight_with_hero_pool
#: The fight with the enemy's pool replaced.
with_enemy_pool: Callable[[Fight, Pool], Fight] = fight_with_enemy_pool
_with_spent = pool_with_spent
_with_damage = (state_with_hero_damage, state_with_enemy_damage)
_CHARGED = (1 << HERO, 1 << ENEMY)  # the bit of ``Fight.charged`` of each side


def faces_of(setup: Setup, fight: Fight, side: Side) -> tuple[tuple[Face, Face], ...]:
    """The token faces of ``side`` in ``fight``."""
    return setup.heroes[fight.hero].faces if side == HERO else setup.enemies[fight.enemy].faces


def face_of(setup: Setup, fight: Fight, side: Side, i: int) -> Face:
    """The face token ``i`` of ``side`` shows."""
    return faces_of(setup, fight, side)[i][fight.pool(side).side(i)]


def live_mask(setup: Setup, fight: Fight, side: Side) -> int:
    """Bitmask of ``side``'s tokens still in the pool (cast, unspent, not removed)."""
    if side == HERO:
        pool = fight.hero_pool
        n = len(setup.heroes[fight.hero].faces)
    else:
        pool = fight.enemy_pool
        n = len(setup.enemies[fight.enemy].faces)
    mask = ((1 << n) - 1) & ~(pool.spent | pool.removed)
    return _uncast(fight.casting, side, mask) if fight.casting else mask


def _uncast(casting: tuple[TokenRef, ...], side: Side, mask: int) -> int:
    """``mask`` without ``side``'s tokens still being cast (they are not in the pool yet)."""
    for ref in casting:
        who, i = split_ref(ref)
        if who == side:
            mask &= ~(1 << i)
    return mask


#: The indices of the set bits of every mask of a pool (up to MAX_TOKENS tokens), listed once.
_BITS_OF = tuple(tuple(i for i in range(MAX_TOKENS) if (m >> i) & 1) for m in range(1 << MAX_TOKENS))


def bits(mask: int) -> list[int]:
    """The indices of the set bits of ``mask``, lowest first.

    >>> bits(0b1011)
    [0, 1, 3]
    """
    if 0 <= mask < len(_BITS_OF):
        return list(_BITS_OF[mask])
    out = []
    i = 0
    while mask:
        if mask & 1:
            out.append(i)
        mask >>= 1
        i += 1
    return out


_bits = bits


def live(setup: Setup, fight: Fight, side: Side) -> list[int]:
    """Indices of ``side``'s tokens still in the pool (cast, unspent, not removed)."""
    return _bits(live_mask(setup, fight, side))


def faces_showing(setup: Setup, fight: Fight, *, exclude: TokenRef | None = None) -> Iterator[tuple[Side, int, Face]]:
    """Every live token of both pools (hero first, then by index) with the face it shows, but token ``exclude``.

    >>> from runebound_coop import GAME
    >>> state = GAME.new_game(seed=1, heroes=("Corbin",), enemies=("Ogre",))
    >>> [f"{side}:{i}:{face}" for side, i, face in faces_showing(state.options.setup, state.fight)][:2]
    ['0:0:U', '0:1:S']
    """
    for side in SIDES:
        faces = faces_of(setup, fight, side)
        pool = fight.pool(side)
        for i in live(setup, fight, side):
            if exclude is None or token_ref(side, i) != exclude:
                yield side, i, faces[i][pool.side(i)]


def showing(setup: Setup, fight: Fight, side: Side, symbol: Sym) -> list[int]:
    """Indices of ``side``'s live tokens showing ``symbol``."""
    content: HeroSetup | EnemySetup
    if side == HERO:
        content = setup.heroes[fight.hero]
        pool = fight.hero_pool
    else:
        content = setup.enemies[fight.enemy]
        pool = fight.enemy_pool
    a, b = content.masks
    sides = pool.sides
    shown = (a[symbol] & ~sides) | (b[symbol] & sides)
    if not shown:
        return []
    # Live: among the content's tokens, neither spent nor removed, nor being cast (``live_mask``, read in place).
    shown &= ((1 << len(content.faces)) - 1) & ~(pool.spent | pool.removed)
    return _bits(_uncast(fight.casting, side, shown) if fight.casting else shown)


def value_of(setup: Setup, fight: Fight, side: Side, i: int) -> int:
    """The value of token ``i``'s face, twice the printed value when a double sits on it."""
    return total_value(setup, fight, side, (i,))


def total_value(setup: Setup, fight: Fight, side: Side, tokens: list[int] | tuple[int, ...]) -> int:
    """The summed values of ``side``'s tokens ``tokens``: each face's printed value, twice it when a double sits on
    the token."""
    if side == HERO:
        pool = fight.hero_pool
        faces = setup.heroes[fight.hero].faces
    else:
        pool = fight.enemy_pool
        faces = setup.enemies[fight.enemy].faces
    sides = pool.sides
    links = pool.links
    total = 0
    for i in tokens:
        v = faces[i][(sides >> i) & 1].value
        for link in links:  # ``Pool.doubled``, read in place
            if link % LINK_BASE == i:
                v *= 2
                break
        total += v
    return total


def spend(state: RuneboundState, side: Side, indices: list[int] | tuple[int, ...]) -> RuneboundState:
    """Mark ``side``'s tokens ``indices`` spent."""
    fight = state.fight
    assert fight is not None  # callers run only while a fight is in progress
    mask = 0
    for i in indices:
        mask |= 1 << i
    if side == HERO:
        pool = fight.hero_pool
        return with_fight(state, with_hero_pool(fight, _with_spent(pool, pool.spent | mask)))
    pool = fight.enemy_pool
    return with_fight(state, with_enemy_pool(fight, _with_spent(pool, pool.spent | mask)))


def unlink(pool: Pool, i: int) -> Pool:
    """The pool after live token ``i`` moved to another space or left: a double on it returns to its space.

    "If a token on top of a double symbol is removed, the double token returns to its original space."
    """
    links = tuple(link for link in pool.links if link_target(link) != i)
    if len(links) == len(pool.links):
        return pool
    returned = 0
    for link in pool.links:
        if link_target(link) == i:
            returned |= 1 << link_double(link)
    return pool_with_spent_links(pool, pool.spent & ~returned, links)


def best_subset(values: list[tuple[int, int]], need: int) -> tuple[int, ...]:
    """Pick tokens ``(index, value)`` reaching ``need`` with the least overspend, then the fewest tokens.

    Without enough in total, every token is picked. Ties go to the lowest indices.

    >>> best_subset([(0, 2), (1, 1), (2, 1)], 2)
    (0,)
    >>> best_subset([(0, 2), (1, 1)], 1)
    (1,)
    """
    if len(values) == 1:  # one token: it is picked whether or not it reaches the need (the usual case)
        return (values[0][0],)
    total = sum(v for _, v in values)
    if total <= need:
        return tuple(i for i, _ in values)
    best: tuple[int, int, tuple[int, ...]] | None = None
    for k in range(1, len(values) + 1):
        for combo in combinations(values, k):
            s = sum(v for _, v in combo)
            if s >= need:
                key = (s - need, k, tuple(i for i, _ in combo))
                if best is None or key < best:
                    best = key
        if best is not None and best[0] == 0:
            break
    assert best is not None  # total > need, so some subset reaches it
    return best[2]


def add_damage(state: RuneboundState, setup: Setup, side: Side, amount: int) -> RuneboundState:
    """Put ``amount`` damage on the engaged hero or the enemy (never beyond its health)."""
    fight = state.fight
    assert fight is not None  # callers run only while a fight is in progress
    if side == HERO:
        i = fight.hero
        dmg = state.hero_damage
        new = min(setup.heroes[i].health, dmg[i] + amount)
        return _with_damage[0](state, (*dmg[:i], new, *dmg[i + 1 :]))
    i = fight.enemy
    dmg = state.enemy_damage
    new = min(setup.enemies[i].health, dmg[i] + amount)
    return _with_damage[1](state, (*dmg[:i], new, *dmg[i + 1 :]))


def heal(state: RuneboundState, side: Side, amount: int) -> RuneboundState:
    """Remove up to ``amount`` damage from ``side``."""
    fight = state.fight
    assert fight is not None  # callers run only while a fight is in progress
    if side == HERO:
        i = fight.hero
        dmg = state.hero_damage
        return _with_damage[0](state, (*dmg[:i], max(0, dmg[i] - amount), *dmg[i + 1 :]))
    i = fight.enemy
    dmg = state.enemy_damage
    return _with_damage[1](state, (*dmg[:i], max(0, dmg[i] - amount), *dmg[i + 1 :]))


def tactics_block_open(state: RuneboundState, setup: Setup, amount: int, blockable: bool = True) -> bool:
    """Whether the hero, about to take ``amount`` damage, has a choice to make: spend a tactics as a copy of a
    shield, or not ("when a player is about to take damage, that player can spend one tactics symbol ... as a copy
    of a symbol that would allow him or her to block"). Only when the damage can be blocked, the hero has not
    spent charge, a tactics is live and a shield shows on some live token to be copied."""
    fight = state.fight
    assert fight is not None  # callers run only while a fight is in progress
    if amount <= 0 or not blockable or fight.charged & _CHARGED[HERO] or not showing(setup, fight, HERO, TACTICS):
        return False
    return _best_shield_copy(setup, fight) > 0


def deal(
    state: RuneboundState, setup: Setup, to: Side, amount: int, blockable: bool = True, *, tactics: bool = True
) -> RuneboundState:
    """Deal ``amount`` damage to side ``to``, which blocks it if it can.

    "Shield symbols are always spent at the first opportunity in response to taking damage" (both sides). "If an
    enemy casts both a tactics symbol and a shield, the tactics symbol is always spent as a shield to block damage
    first, and then the shield is used": the enemy's tactics blocks by itself. The hero's tactics is the hero's
    choice (:func:`tactics_block_open`), passed as ``tactics``. A tactics blocks as a copy of the highest printed
    shield showing on any other live token (the number is copied, not a double). A side that spent charge this
    round cannot block; unblockable damage (charge, "cannot be blocked") is never blocked.
    """
    fight = state.fight
    assert fight is not None  # callers run only while a fight is in progress
    if amount <= 0:
        return state
    if blockable and not fight.charged & _CHARGED[to]:
        tactics_tokens = showing(setup, fight, to, TACTICS) if tactics else []
        if tactics_tokens:
            shield = _best_shield_copy(setup, fight)
            if shield:
                state = spend(state, to, [tactics_tokens[0]])
                amount = max(0, amount - shield)
                fight = state.fight
                assert fight is not None  # spend keeps the fight
        if amount > 0:
            shields = [(i, value_of(setup, fight, to, i)) for i in showing(setup, fight, to, SHIELD)]
            if shields:
                chosen = best_subset(shields, amount)
                blocked = sum(v for i, v in shields if i in chosen)
                state = spend(state, to, chosen)
                amount = max(0, amount - blocked)
    return add_damage(state, setup, to, amount) if amount > 0 else state


def _best_shield_copy(setup: Setup, fight: Fight) -> int:
    return best_printed(setup, fight, SHIELD)


def best_printed(setup: Setup, fight: Fight, symbol: Sym, exclude: TokenRef | None = None) -> int:
    """The highest printed value of ``symbol`` showing on a live token of either pool but token ``exclude`` (0 if
    none): what a tactics copies. The tokens are found by :func:`showing`'s masks, not face by face."""
    best = 0
    for side in SIDES:
        if side == HERO:
            faces = setup.heroes[fight.hero].faces
            sides = fight.hero_pool.sides
        else:
            faces = setup.enemies[fight.enemy].faces
            sides = fight.enemy_pool.sides
        for i in showing(setup, fight, side, symbol):
            value = faces[i][(sides >> i) & 1].value
            if value > best and (exclude is None or token_ref(side, i) != exclude):
                best = value
    return best
