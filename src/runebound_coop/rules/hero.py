"""The hero's combat actions: the legal ones in a state, and their resolution.

One combat action: spend damage of one type (values summed); spend agility to flip one of your own other tokens or
recast one of the foe's live tokens; spend a double on one of your symbols; spend surge on an ability (each once
per round); spend charge as unblockable damage (then you cannot block this round); spend one tactics alone as a
copy of a symbol showing on another token in either pool; exert a skill card; or pass.
"""

from __future__ import annotations

from runebound_coop.actions import ATTACK_SYMBOLS, Action, Attack, Copy, Double, Exert, Flip, Pass, Recast, Surge
from runebound_coop.content.roster import Setup
from runebound_coop.content.schema import Ability, Sym
from runebound_coop.limits import MAX_CARDS, MAX_HERO_ABILITIES, MAX_TOKENS
from runebound_coop.rules.enemy import prevent_flip
from runebound_coop.rules.tokens import (
    best_subset,
    deal,
    faces_showing,
    fight_of,
    heal,
    live,
    live_mask,
    showing,
    spend,
    unlink,
    value_of,
    with_fight,
)
from runebound_coop.state import (
    ENEMY,
    HERO,
    Fight,
    RuneboundState,
    card_bit,
    fight_with_charged,
    fight_with_enemy_pool,
    fight_with_enemy_pool_casting,
    fight_with_hero_pool,
    fight_with_passed,
    fight_with_used,
    hero_ability_bit,
    make_link,
    pool_with_removed,
    pool_with_sides,
    pool_with_spent_links,
    token_ref,
)
from tabletop_core.fastcopy import replace

__all__ = ["attack", "hero_actions", "hero_apply", "listed_actions"]

# Symbols read as module constants: an enum member looked up on its class (``Sym.SURGE``) goes through the enum's
# metaclass, about 0.2 us a lookup in Python 3.11.
_AGILITY = Sym.AGILITY
_BLANK = Sym.BLANK
_CHARGE = Sym.CHARGE
_DOUBLE = Sym.DOUBLE
_SKULL = Sym.SKULL
_SURGE = Sym.SURGE
_TACTICS = Sym.TACTICS
_NOT_COPIED = (_SKULL, _DOUBLE)
_FLIP_OR_RECAST = (Flip, Recast)  # a tuple: ``Flip | Recast`` would build a union object at every test
_HERO_BIT = 1 << HERO  # the hero's bit of ``Fight.passed`` and ``Fight.charged``
#: Symbols a double may be spent on ("damage, shield, surge or charge; not a double, not agility").
_DOUBLABLE = frozenset({Sym.PHYSICAL, Sym.MAGIC, Sym.CHARGE, Sym.SHIELD, Sym.SURGE})


def _copyable(setup: Setup, fight: Fight, tactics: int) -> dict[Sym, int]:
    """The highest printed value of each symbol showing on a live token other than the hero's ``tactics``.

    Heroes never copy a skull; nobody copies a double (the tactics is spent, so it cannot use one).
    """
    best: dict[Sym, int] = {}
    for _, _, face in faces_showing(setup, fight, exclude=token_ref(HERO, tactics)):
        if face.symbol not in _NOT_COPIED:
            best[face.symbol] = max(best.get(face.symbol, 0), face.value)
    return best


def _copy_values(setup: Setup, fight: Fight, tactics: int) -> set[tuple[Sym, int]]:
    """Each damage symbol and printed value a tactics may copy as an attack."""
    exclude = token_ref(HERO, tactics)
    return {
        (f.symbol, f.value) for _, _, f in faces_showing(setup, fight, exclude=exclude) if f.symbol in ATTACK_SYMBOLS
    }


# Every action value the list below is made of, made once (actions are immutable values: a shared instance is the
# same action, and building none saves an attrs __init__ per action listed).
_PASS = Pass()
_ATTACKS = {sym: Attack(sym) for sym in ATTACK_SYMBOLS}
_FLIPS = tuple((Flip(t), Flip(t, True)) for t in range(MAX_TOKENS))
_RECASTS = tuple((Recast(t), Recast(t, True)) for t in range(MAX_TOKENS))
_DOUBLES = tuple(Double(t) for t in range(MAX_TOKENS))
_SURGES = tuple((Surge(a), Surge(a, True)) for a in range(MAX_HERO_ABILITIES))


def hero_actions(state: RuneboundState, setup: Setup) -> list[Action]:
    """The hero's legal combat actions, in action id order (``legal_actions`` returns them as they are).

    The id order is the declared one (:data:`runebound_coop.actions.DECISIONS`): by class, then by field, the first
    field most significant. So each action class is listed in turn, and a class whose last field says whether a
    tactics pays (``Flip``, ``Recast``, ``Surge``) lists both forms target by target.
    """
    return list(listed_actions(state, setup))


#: The most entries the memo of :func:`listed_actions` keeps (it is emptied when full).
MEMO_LIMIT = 1 << 13
# The hero's legal actions by what they are a function of: the two combatants' content (held by the key, compared by
# identity), the hero's pool and the tokens still being cast, the enemy's live tokens and the faces they show, what
# was used this round and whether a card can be exerted. A bounded cache of a pure function, the only global
# mutable state here; a search asks the same lists again and again (about seven in ten).
_LISTED: dict[tuple[object, ...], tuple[Action, ...]] = {}
# The bits of ``Fight.used`` the hero's actions read: its abilities' and its cards' (not the enemy's abilities').
_HERO_BITS = sum(1 << hero_ability_bit(a) for a in range(MAX_HERO_ABILITIES)) | sum(
    1 << card_bit(c) for c in range(MAX_CARDS)
)


def listed_actions(state: RuneboundState, setup: Setup) -> tuple[Action, ...]:
    """:func:`hero_actions` as a tuple, memoized (the same actions in the same order)."""
    fight = fight_of(state)
    alive = live_mask(setup, fight, ENEMY)
    key = (
        setup.heroes[fight.hero],
        setup.enemies[fight.enemy],
        fight.hero_pool,
        fight.casting,
        alive,
        fight.enemy_pool.sides & alive,
        fight.used & _HERO_BITS,
        state.hand[fight.hero] >= 1,
    )
    listed = _LISTED.get(key)
    if listed is None:
        listed = tuple(_hero_actions(state, setup))
        if len(_LISTED) >= MEMO_LIMIT:
            _LISTED.clear()
        _LISTED[key] = listed
    return listed


def _hero_actions(state: RuneboundState, setup: Setup) -> list[Action]:
    fight = fight_of(state)
    hero = setup.heroes[fight.hero]
    faces = hero.faces
    pool = fight.hero_pool
    mine = live(setup, fight, HERO)
    shows = {i: faces[i][pool.side(i)].symbol for i in mine}
    shown = set(shows.values())
    out: list[Action] = [_PASS]
    out.extend(_ATTACKS[sym] for sym in ATTACK_SYMBOLS if sym in shown)
    agility = next((i for i in mine if shows[i] == _AGILITY), -1)
    tactics = next((i for i in mine if shows[i] == _TACTICS), -1)
    best = _copyable(setup, fight, tactics) if tactics >= 0 else {}
    copy_agility = _AGILITY in best
    if agility >= 0 or copy_agility:
        for t in mine:
            if agility >= 0 and t != agility:
                out.append(_FLIPS[t][0])
            if copy_agility and t != tactics:
                out.append(_FLIPS[t][1])
        for t in live(setup, fight, ENEMY):
            if agility >= 0:
                out.append(_RECASTS[t][0])
            if copy_agility:
                out.append(_RECASTS[t][1])
    if _DOUBLE in shown:
        out.extend(_DOUBLES[t] for t in mine if shows[t] in _DOUBLABLE and not pool.doubled(t))
    surge = sum(value_of(setup, fight, HERO, i) for i in mine if shows[i] == _SURGE)
    copied_surge = best.get(_SURGE, 0) if tactics >= 0 else -1
    for a, ability in enumerate(hero.abilities):
        if fight.has_used(hero_ability_bit(a)):
            continue
        if ability.cost <= surge:
            out.append(_SURGES[a][0])
        if ability.cost <= copied_surge:
            out.append(_SURGES[a][1])
    if tactics >= 0:
        out.extend(Copy(sym, v) for sym, v in sorted(_copy_values(setup, fight, tactics), key=_copy_order))
    for c, card in enumerate(hero.cards):
        if state.hand[fight.hero] < 1 or fight.has_used(card_bit(c)):
            continue
        if card.remove == 0:
            out.append(Exert(c, None))
            continue
        for sym in sorted(card.symbols, key=ATTACK_SYMBOLS.index):
            if sum(1 for s in shows.values() if s == sym) >= card.remove:
                out.append(Exert(c, sym))
    return out


def _copy_order(copy: tuple[Sym, int]) -> tuple[int, int]:
    """A copy's place in the id order: its symbol's place among the attack symbols, then its value."""
    return ATTACK_SYMBOLS.index(copy[0]), copy[1]


def hero_apply(state: RuneboundState, setup: Setup, action: Action) -> RuneboundState:
    """Resolve a legal hero combat action (the turn is handed on by the caller)."""
    fight = fight_of(state)
    if isinstance(action, Pass):
        return with_fight(state, fight_with_passed(fight, fight.passed | _HERO_BIT))
    if isinstance(action, Attack):
        return attack(state, setup, action.symbol, showing(setup, fight, HERO, action.symbol))
    if isinstance(action, Copy):
        state = spend(state, HERO, [showing(setup, fight, HERO, _TACTICS)[0]])
        return _damage(state, setup, action.symbol, action.value)
    if isinstance(action, _FLIP_OR_RECAST):
        payer = _TACTICS if action.tactics else _AGILITY
        state = spend(state, HERO, [showing(setup, fight, HERO, payer)[0]])
        if isinstance(action, Recast):
            f = fight_of(state)
            pool = unlink(f.enemy_pool, action.target)
            casting = (*f.casting, token_ref(ENEMY, action.target))
            return with_fight(state, fight_with_enemy_pool_casting(f, pool, casting))
        prevented = prevent_flip(state, setup)
        if prevented is not None:
            return prevented
        f = fight_of(state)
        pool = unlink(f.hero_pool, action.target)
        pool = pool_with_sides(pool, pool.sides ^ (1 << action.target))
        return with_fight(state, fight_with_hero_pool(f, pool))
    if isinstance(action, Double):
        d = showing(setup, fight, HERO, _DOUBLE)[0]
        pool = fight.hero_pool
        pool = pool_with_spent_links(pool, pool.spent | (1 << d), (*pool.links, make_link(d, action.target)))
        return with_fight(state, fight_with_hero_pool(fight, pool))
    if isinstance(action, Surge):
        ability = setup.heroes[fight.hero].abilities[action.ability]
        if action.tactics:
            state = spend(state, HERO, [showing(setup, fight, HERO, _TACTICS)[0]])
        else:
            surges = [(i, value_of(setup, fight, HERO, i)) for i in showing(setup, fight, HERO, _SURGE)]
            state = spend(state, HERO, best_subset(surges, ability.cost))
        f = fight_of(state)
        state = with_fight(state, fight_with_used(f, f.used | 1 << hero_ability_bit(action.ability)))
        return _hero_ability(state, setup, ability)
    if isinstance(action, Exert):
        return _exert(state, setup, action)
    raise ValueError(f"not a hero combat action: {action!r}")


def attack(state: RuneboundState, setup: Setup, symbol: Sym, tokens: list[int] | tuple[int, ...]) -> RuneboundState:
    """Spend ``tokens`` (all showing ``symbol``) as one attack: their values summed, doubles counted."""
    fight = fight_of(state)
    total = sum(value_of(setup, fight, HERO, i) for i in tokens)
    return _damage(spend(state, HERO, tokens), setup, symbol, total)


def _damage(state: RuneboundState, setup: Setup, symbol: Sym, amount: int) -> RuneboundState:
    """Physical and magic damage can be blocked; charge cannot, and its spender cannot block this round."""
    if symbol == _CHARGE:
        f = fight_of(state)
        state = with_fight(state, fight_with_charged(f, f.charged | _HERO_BIT))
        return deal(state, setup, ENEMY, amount, blockable=False)
    return deal(state, setup, ENEMY, amount)


def _hero_ability(state: RuneboundState, setup: Setup, ability: Ability) -> RuneboundState:
    for e in ability.effects:
        if e.kind == "deal":
            state = deal(state, setup, ENEMY, e.amount, blockable=not e.unblockable)
        elif e.kind == "heal":
            state = heal(state, HERO, e.amount)
        elif e.kind == "remove":
            fight = fight_of(state)
            pool = fight.enemy_pool
            for i in showing(setup, fight, ENEMY, e.symbol or _BLANK):
                pool = unlink(pool, i)
                pool = pool_with_removed(pool, pool.removed | (1 << i))
            state = with_fight(state, fight_with_enemy_pool(fight, pool))
    return state


def _exert(state: RuneboundState, setup: Setup, action: Exert) -> RuneboundState:
    """Use a card's combat action by exerting (discarding a skill card from hand), once per round per card.

    E.g. Twin Blades: remove 2 tokens showing the same damage symbol, deal 3 of it that cannot be blocked.

    Removing tokens is not spending them: removing charge tokens does not stop the hero blocking (in the
    rulebook's example Elian removes 2 charge tokens with Twin Blades and later blocks with his shield).
    """
    fight = fight_of(state)
    card = setup.heroes[fight.hero].cards[action.card]
    hand = list(state.hand)
    hand[fight.hero] -= 1
    fight = fight.with_used(card_bit(action.card))
    state = replace(state, hand=tuple(hand), fight=fight)
    if card.remove and action.symbol is not None:
        tokens = showing(setup, fight, HERO, action.symbol)
        chosen = sorted(tokens, key=lambda i: (value_of(setup, fight, HERO, i), i))[: card.remove]
        pool = fight.hero_pool
        for i in chosen:
            pool = unlink(pool, i)
            pool = replace(pool, removed=pool.removed | (1 << i))
        state = with_fight(state, fight.with_pool(HERO, pool))
    if card.deal:
        state = deal(state, setup, ENEMY, card.deal, blockable=not card.unblockable)
    if card.heal:
        state = heal(state, HERO, card.heal)
    return state
