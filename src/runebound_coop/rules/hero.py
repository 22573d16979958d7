"""The hero's combat actions: the legal ones in a state, and their resolution.

One combat action: spend damage of one type (values summed); spend agility to flip one of your own other tokens or
recast one of the foe's live tokens; spend a double on one of your symbols; spend surge on an ability (each once
per round); spend charge as unblockable damage (then you cannot block this round); spend one tactics alone as a
copy of a symbol showing on another token in either pool; exert a skill card; or pass.
"""

from __future__ import annotations

from runebound_coop.actions import ATTACK_SYMBOLS, Action, Attack, Copy, Double, Exert, Flip, Pass, Recast, Surge
from runebound_coop.content.roster import Setup
from runebound_coop.content.schema import AGILITY, BLANK, CHARGE, DOUBLE, SKULL, SURGE, TACTICS, Ability, Sym
from runebound_coop.limits import MAX_CARDS, MAX_FACE_VALUE, MAX_HERO_ABILITIES, MAX_TOKENS, MEMO_LIMIT
from runebound_coop.rules.enemy import prevent_flip
from runebound_coop.rules.tokens import (
    best_subset,
    deal,
    fight_of,
    heal,
    live,
    live_mask,
    showing,
    spend,
    total_value,
    unlink,
    value_of,
    with_fight,
)
from runebound_coop.state import (
    ENEMY,
    HERO,
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

__all__ = ["attack", "exert", "hero_actions", "hero_apply", "listed_actions"]

_NOT_COPIED = (SKULL, DOUBLE)
_FLIP_OR_RECAST = (Flip, Recast)  # a tuple: ``Flip | Recast`` would build a union object at every test
_HERO_BIT = 1 << HERO  # the hero's bit of ``Fight.passed`` and ``Fight.charged``
#: Symbols a double may be spent on ("damage, shield, surge or charge; not a double, not agility").
_DOUBLABLE = frozenset({Sym.PHYSICAL, Sym.MAGIC, Sym.CHARGE, Sym.SHIELD, Sym.SURGE})


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
    pool = fight.hero_pool
    key = (  # the hero's pool by its fields: a tuple of ints hashes at C speed, the pool's own hash is a Python call
        setup.heroes[fight.hero],
        setup.enemies[fight.enemy],
        pool.sides,
        pool.spent,
        pool.removed,
        pool.links,
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
    sides = pool.sides
    used = fight.used
    mine = live(setup, fight, HERO)
    shows = {i: faces[i][(sides >> i) & 1].symbol for i in mine}
    shown = set(shows.values())
    out: list[Action] = [_PASS]
    for sym in ATTACK_SYMBOLS:
        if sym in shown:
            out.append(_ATTACKS[sym])
    agility = tactics = -1
    agility2 = tactics2 = -1  # the second agility and the second tactics: either pays to flip the first
    surges = []
    for i in mine:  # the first two agility tokens, the first two tactics, every surge
        sym = shows[i]
        if sym == AGILITY:
            if agility < 0:
                agility = i
            elif agility2 < 0:
                agility2 = i
        elif sym == TACTICS:
            if tactics < 0:
                tactics = i
            elif tactics2 < 0:
                tactics2 = i
        elif sym == SURGE:
            surges.append(i)
    enemy_live = live(setup, fight, ENEMY)
    best: dict[
        Sym, int
    ] = {}  # what the tactics may copy: the highest printed value of each symbol but a skull or double
    copies: set[tuple[Sym, int]] = set()  # and each damage symbol and printed value, as an attack
    if tactics >= 0:
        # Every live token of both pools but the tactics itself (``faces_showing``), in one pass.
        enemy_faces = setup.enemies[fight.enemy].faces
        enemy_sides = fight.enemy_pool.sides
        shown_faces = [faces[i][(sides >> i) & 1] for i in mine if i != tactics]
        shown_faces += [enemy_faces[i][(enemy_sides >> i) & 1] for i in enemy_live]
        for face in shown_faces:
            sym = face.symbol
            if sym not in _NOT_COPIED:
                value = face.value
                if value > best.get(sym, -1):  # ``max(best.get(sym, 0), value)``, values being >= 0
                    best[sym] = value
                if sym in _ATTACK_ORDER:
                    copies.add((sym, value))
    copy_agility = AGILITY in best
    if agility >= 0 or copy_agility:
        # "Flip one of your own other tokens": any token but the payer. Tokens of one symbol pay alike, so the
        # lowest-index one pays, and the next one when the lowest is the target (every distinct flip is offered).
        for t in mine:
            if agility >= 0 and (t != agility or agility2 >= 0):
                out.append(_FLIPS[t][0])
            if copy_agility and (t != tactics or tactics2 >= 0):
                out.append(_FLIPS[t][1])
        for t in enemy_live:
            if agility >= 0:
                out.append(_RECASTS[t][0])
            if copy_agility:
                out.append(_RECASTS[t][1])
    if DOUBLE in shown:
        out.extend(_DOUBLES[t] for t in mine if shows[t] in _DOUBLABLE and not pool.doubled(t))
    surge = total_value(setup, fight, HERO, surges)
    copied_surge = best.get(SURGE, 0) if tactics >= 0 else -1
    for a, ability in enumerate(hero.abilities):
        if used >> hero_ability_bit(a) & 1:
            continue
        if ability.cost <= surge:
            out.append(_SURGES[a][0])
        if ability.cost <= copied_surge:
            out.append(_SURGES[a][1])
    if copies:
        out.extend(_copy_action(sym, v) for sym, v in sorted(copies, key=_copy_order))
    if state.hand[fight.hero] >= 1:
        for c, card in enumerate(hero.cards):
            if used >> card_bit(c) & 1:
                continue
            if card.remove == 0:
                out.append(_exert_action(c, None))
                continue
            for sym in sorted(card.symbols, key=_ATTACK_ORDER.__getitem__):
                if sum(1 for s in shows.values() if s == sym) >= card.remove:
                    out.append(_exert_action(c, sym))
    return out


# The copies and exerts the list above may hold, made once (a ``Copy`` runs its validators when made).
_ATTACK_ORDER = {sym: k for k, sym in enumerate(ATTACK_SYMBOLS)}
_COPIES = {(sym, v): Copy(sym, v) for sym in ATTACK_SYMBOLS for v in range(1, MAX_FACE_VALUE + 1)}
_EXERTS = {(c, sym): Exert(c, sym) for c in range(MAX_CARDS) for sym in (*ATTACK_SYMBOLS, None)}


def _copy_action(sym: Sym, value: int) -> Copy:
    made = _COPIES.get((sym, value))
    return made if made is not None else Copy(sym, value)


def _exert_action(card: int, sym: Sym | None) -> Exert:
    made = _EXERTS.get((card, sym))
    return made if made is not None else Exert(card, sym)


def _copy_order(copy: tuple[Sym, int]) -> tuple[int, int]:
    """A copy's place in the id order: its symbol's place among the attack symbols, then its value."""
    return _ATTACK_ORDER[copy[0]], copy[1]


def hero_apply(state: RuneboundState, setup: Setup, action: Action) -> RuneboundState:
    """Resolve a legal hero combat action (the turn is handed on by the caller)."""
    fight = fight_of(state)
    if isinstance(action, Pass):
        return with_fight(state, fight_with_passed(fight, fight.passed | _HERO_BIT))
    if isinstance(action, Attack):
        return attack(state, setup, action.symbol, showing(setup, fight, HERO, action.symbol))
    if isinstance(action, Copy):
        state = spend(state, HERO, [showing(setup, fight, HERO, TACTICS)[0]])
        return _damage(state, setup, action.symbol, action.value)
    if isinstance(action, _FLIP_OR_RECAST):
        payers = showing(setup, fight, HERO, TACTICS if action.tactics else AGILITY)
        # The lowest-index payer, or the next one when a flip targets the lowest (a token never flips itself).
        payer = payers[1] if payers[0] == action.target and isinstance(action, Flip) else payers[0]
        state = spend(state, HERO, [payer])
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
        d = showing(setup, fight, HERO, DOUBLE)[0]
        pool = fight.hero_pool
        pool = pool_with_spent_links(pool, pool.spent | (1 << d), (*pool.links, make_link(d, action.target)))
        return with_fight(state, fight_with_hero_pool(fight, pool))
    if isinstance(action, Surge):
        ability = setup.heroes[fight.hero].abilities[action.ability]
        if action.tactics:
            state = spend(state, HERO, [showing(setup, fight, HERO, TACTICS)[0]])
        else:
            surges = [(i, value_of(setup, fight, HERO, i)) for i in showing(setup, fight, HERO, SURGE)]
            state = spend(state, HERO, best_subset(surges, ability.cost))
        f = fight_of(state)
        state = with_fight(state, fight_with_used(f, f.used | 1 << hero_ability_bit(action.ability)))
        return _hero_ability(state, setup, ability)
    if isinstance(action, Exert):
        return exert(state, setup, action)
    raise ValueError(f"not a hero combat action: {action!r}")


def attack(state: RuneboundState, setup: Setup, symbol: Sym, tokens: list[int] | tuple[int, ...]) -> RuneboundState:
    """Spend ``tokens`` (all showing ``symbol``) as one attack: their values summed, doubles counted."""
    fight = fight_of(state)
    total = total_value(setup, fight, HERO, tokens)
    return _damage(spend(state, HERO, tokens), setup, symbol, total)


def _damage(state: RuneboundState, setup: Setup, symbol: Sym, amount: int) -> RuneboundState:
    """Physical and magic damage can be blocked; charge cannot, and its spender cannot block this round."""
    if symbol == CHARGE:
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
            for i in showing(setup, fight, ENEMY, e.symbol or BLANK):
                pool = unlink(pool, i)
                pool = pool_with_removed(pool, pool.removed | (1 << i))
            state = with_fight(state, fight_with_enemy_pool(fight, pool))
    return state


def exert(state: RuneboundState, setup: Setup, action: Exert, chosen: tuple[int, ...] | None = None) -> RuneboundState:
    """Use a card's combat action by exerting (discarding a skill card from hand), once per round per card.

    E.g. Twin Blades: "remove 2 of your tokens showing the same damage symbol" (``chosen``, the hero's pick among
    the tokens showing ``action.symbol``; every one of them when exactly that many show it), deal 3 of it that
    cannot be blocked.

    Removing tokens is not spending them: removing charge tokens does not stop the hero blocking (in the
    rulebook's example Elian removes 2 charge tokens with Twin Blades and later blocks with his shield). A double
    on a removed token returns to its space (:func:`~runebound_coop.rules.tokens.unlink`).
    """
    fight = fight_of(state)
    card = setup.heroes[fight.hero].cards[action.card]
    hand = list(state.hand)
    hand[fight.hero] -= 1
    fight = fight.with_used(card_bit(action.card))
    state = replace(state, hand=tuple(hand), fight=fight)
    if card.remove and action.symbol is not None:
        if chosen is None:
            chosen = tuple(showing(setup, fight, HERO, action.symbol))
        if len(chosen) != card.remove:
            raise ValueError(f"{card.name} removes {card.remove} tokens, not {len(chosen)}: {chosen}")
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
