"""The enemy, played by its combat board.

"Whenever it is the enemy's turn to take a combat action, resolve the next space on the combat board that
contains a token (from top to bottom), following its instructions. Resolve all of the tokens in that space."
"If you are unable to resolve a symbol ... or the symbol would have no effect ..., then skip that symbol and go to
the next space instead. On your next turn, check to see if the unresolved symbol can now be resolved."
"Once there are no more spaces that can be resolved, the enemy passes."

Each enemy action scans the board from the top, so a skipped space is re-checked on the next action and a token
that was recast or flipped is found in the space of its new symbol ("Moving Tokens").
"""

from __future__ import annotations

from runebound_coop.content.roster import EnemySetup, Setup
from runebound_coop.content.schema import AGILITY, BLANK, DOUBLE, SKULL, SURGE, TACTICS, Ability, Space, Sym
from runebound_coop.rules.choices import apply_choice, candidates, decide
from runebound_coop.rules.tokens import (
    best_printed,
    best_subset,
    bits,
    deal,
    fight_of,
    heal,
    live_mask,
    showing,
    spend,
    tactics_block_open,
    total_value,
    unlink,
    value_of,
    with_fight,
)
from runebound_coop.state import (
    ENEMY,
    HERO,
    BlockFrame,
    CancelFrame,
    ChoiceFrame,
    RuneboundState,
    enemy_ability_bit,
    fight_with_enemy_pool,
    fight_with_enemy_pool_used,
    fight_with_hero_pool,
    fight_with_passed,
    fight_with_used,
    make_link,
    pool_with_removed,
    pool_with_spent,
    pool_with_spent_links,
    state_with_pending,
    token_ref,
)
from runebound_coop.state import Frame as Question
from tabletop_core.flow import Pending

__all__ = [
    "ability_effects",
    "block",
    "choose",
    "enemy_act",
    "has_effect",
    "hurt_hero",
    "prevent_flip",
    "resolve_sources",
    "respond",
    "title_ability",
]

_PAYERS = (AGILITY, TACTICS)
_ENEMY_PASSED = 1 << ENEMY  # the enemy's bit of ``Fight.passed``


def _push(state: RuneboundState, frame: Question) -> RuneboundState:
    """``state`` with ``frame`` pushed on its pending questions."""
    return state_with_pending(state, Pending((*state.pending.frames, frame)))


def _pop(state: RuneboundState) -> RuneboundState:
    """``state`` with its top pending question taken off."""
    return state_with_pending(state, Pending(state.pending.frames[:-1]))


def enemy_act(state: RuneboundState, setup: Setup) -> RuneboundState:
    """One enemy combat action: resolve the first space (top to bottom) that can resolve, else pass."""
    fight = state.fight
    assert fight is not None  # the enemy acts only during a fight
    enemy = setup.enemies[fight.enemy]
    face_a, face_b = enemy.masks
    sides = fight.enemy_pool.sides
    alive = live_mask(setup, fight, ENEMY)
    for space in enemy.board.spaces:
        symbol = space.symbol
        shown = ((face_a[symbol] & ~sides) | (face_b[symbol] & sides)) & alive
        if not shown:
            continue  # no token in this space
        new = _resolve_space(state, setup, enemy, space, bits(shown))
        if new is not None:
            return new
    return with_fight(state, fight_with_passed(fight, fight.passed | _ENEMY_PASSED))


def _resolve_space(
    state: RuneboundState, setup: Setup, enemy: EnemySetup, space: Space, tokens: list[int]
) -> RuneboundState | None:
    """Resolve ``space``, whose tokens are ``tokens`` (the enemy's live tokens showing its symbol, not empty)."""
    symbol = space.symbol
    if symbol == AGILITY:
        return _agility(state, setup, enemy, tuple(tokens), space.mode)
    if symbol == DOUBLE:
        return _doubles(state, setup, enemy, tokens, space.priority)
    fight = state.fight
    assert fight is not None  # the enemy acts only during a fight
    if symbol == SURGE:
        return _surge(state, setup, enemy, total_value(setup, fight, ENEMY, tokens), None)
    if symbol == TACTICS:
        return _tactics(state, setup, enemy, tokens[0], space)
    # Skull: "+ symbols add only when there are one or more tokens with that symbol being resolved."
    total = total_value(setup, fight, ENEMY, tokens) + space.plus
    return hurt_hero(spend(state, ENEMY, tokens), setup, total)


def _agility(
    state: RuneboundState, setup: Setup, enemy: EnemySetup, sources: tuple[int, ...], mode: str
) -> RuneboundState | None:
    """Agility: the enemy card's agility ability replaces the board's agility space ("Agility Abilities").

    "Resolve all of the tokens in that space": each agility token in it fires the ability once, in one action
    (and the ability then rests for the round, as a surge ability does).
    """
    if enemy.agility >= 0:
        if fight_of(state).used >> enemy_ability_bit(enemy.agility) & 1:
            return None
        return _fire_agility(state, setup, enemy, sources)
    kind = "recast_foe" if mode == "recast_foe" else "flip_own"
    for source in sources:  # a loop, no generator: whether any source has a candidate
        if candidates(state, setup, kind, source):
            return resolve_sources(state, setup, kind, sources)
    return None


def _fire_agility(
    state: RuneboundState, setup: Setup, enemy: EnemySetup, sources: tuple[int, ...]
) -> RuneboundState | None:
    """Fire the agility ability once for each of ``sources`` that still shows agility and would have an effect
    (stops at a pending choice, which carries the rest); ``None`` if none fired."""
    fired = False
    faces = enemy.faces
    for k, src in enumerate(sources):
        fight = fight_of(state)
        if (
            not live_mask(setup, fight, ENEMY) >> src & 1
            or faces[src][fight.enemy_pool.sides >> src & 1].symbol != AGILITY
        ):
            continue  # an earlier firing recast this token: it no longer pays
        new = _agility_ability(state, setup, enemy, src, sources[k + 1 :])
        if new is None:
            continue
        state, fired = new, True
        if state.pending:
            return state
    return state if fired else None


def _agility_ability(
    state: RuneboundState, setup: Setup, enemy: EnemySetup, source: int, rest: tuple[int, ...] = ()
) -> RuneboundState | None:
    """Trigger the agility ability paid by ``source``, or ``None`` if it would do nothing (``rest``: further
    agility tokens of the space, carried by a pending choice)."""
    ability = enemy.abilities[enemy.agility]
    trial = spend(state, ENEMY, [source])
    if not has_effect(trial, setup, ability, source):
        return None
    fight = fight_of(state)
    state = with_fight(state, fight_with_used(fight, fight.used | 1 << enemy_ability_bit(enemy.agility)))
    return ability_effects(state, setup, ability, source, rest=rest, index=enemy.agility)


def resolve_sources(
    state: RuneboundState, setup: Setup, kind: str, sources: tuple[int, ...], symbol: str = ""
) -> RuneboundState:
    """Resolve each source token of a space in turn (each with its own choice); stops at a pending choice."""
    faces = setup.enemies[fight_of(state).enemy].faces
    for k, src in enumerate(sources):
        fight = fight_of(state)
        if (
            not live_mask(setup, fight, ENEMY) >> src & 1
            or faces[src][fight.enemy_pool.sides >> src & 1].symbol not in _PAYERS
        ):
            continue  # an earlier resolution flipped or recast this token: it no longer pays
        cands = candidates(state, setup, kind, src, symbol)
        if not cands:
            continue
        state = decide(state, setup, kind, src, cands, sources[k + 1 :], symbol)
        if state.pending:
            return state
    return state


def _doubles(
    state: RuneboundState, setup: Setup, enemy: EnemySetup, doubles: list[int], priority: tuple[Sym, ...]
) -> RuneboundState | None:
    """Doubles stack on the board's priority symbol (highest value, then lowest token) and move with it."""
    placed = False
    surges = enemy.surge_bits
    for d in doubles:
        fight = fight_of(state)
        pool = fight.enemy_pool
        links = pool.links
        target = -1
        for sym in priority:
            if sym == SURGE and fight.used & surges == surges:
                continue  # no surge ability left to trigger this round: doubling a surge would have no effect
            best = -1
            for i in showing(setup, fight, ENEMY, sym):  # live tokens showing ``sym``, lowest first
                if i == d or (links and pool.doubled(i)):
                    continue
                value = value_of(setup, fight, ENEMY, i)
                if value > best:  # the highest value, then the lowest token
                    best, target = value, i
            if target >= 0:
                break
        if target < 0:
            continue
        pool = pool_with_spent_links(pool, pool.spent | (1 << d), (*links, make_link(d, target)))
        state = with_fight(state, fight_with_enemy_pool(fight, pool))
        placed = True
    return state if placed else None


def has_effect(state: RuneboundState, setup: Setup, ability: Ability, source: int = -1) -> bool:
    """Whether resolving ``ability`` would change anything besides paying for it."""
    fight = fight_of(state)
    for e in ability.effects:
        if e.kind == "deal":
            return True
        if e.kind == "heal" and state.enemy_damage[fight.enemy] > 0:
            return True
        if e.kind == "remove" and showing(setup, fight, HERO, e.symbol or BLANK):
            return True
        if e.kind == "recast_spent" and candidates(state, setup, "relentless", source):
            return True
    return False


def _surge(
    state: RuneboundState, setup: Setup, enemy: EnemySetup, budget: int, tactics: int | None
) -> RuneboundState | None:
    """Spend surge on the most expensive untriggered ability that would have an effect ("Spending Surges").

    Equal costs resolve from the bottom of the card to the top; each ability once per round. Paid by the surge
    tokens with the least overspend, or by one tactics (``tactics``) copying a surge of value ``budget``.
    """
    fight = fight_of(state)
    for a in enemy.surge_order:
        ability = enemy.abilities[a]
        bit = 1 << enemy_ability_bit(a)
        if ability.cost > budget or fight.used & bit:
            continue
        if not has_effect(state, setup, ability):
            continue
        if tactics is None:
            tokens = [(i, value_of(setup, fight, ENEMY, i)) for i in showing(setup, fight, ENEMY, SURGE)]
            paid_with: list[int] | tuple[int, ...] = best_subset(tokens, ability.cost)
        else:
            paid_with = [tactics]
        mask = 0
        for i in paid_with:
            mask |= 1 << i
        # The surge spent and the ability used, in one copy of the fight (``spend`` then ``Fight.with_used``).
        pool = fight.enemy_pool
        pool = pool_with_spent(pool, pool.spent | mask)
        paid = with_fight(state, fight_with_enemy_pool_used(fight, pool, fight.used | bit))
        if ability.cancel_by_tactics and showing(setup, fight, HERO, TACTICS):
            return _push(paid, CancelFrame(a))
        return ability_effects(paid, setup, ability, -1, index=a)
    return None


def ability_effects(
    state: RuneboundState,
    setup: Setup,
    ability: Ability,
    source: int,
    *,
    rest: tuple[int, ...] = (),
    index: int = -1,
    start: int = 0,
) -> RuneboundState:
    """Resolve the effects of enemy ability ``index`` (``ability``) in order from effect ``start`` (a choice, always
    last, may leave a pending frame; so may the hero's tactics block, which then carries the rest).

    ``source`` is the enemy token that pays for an agility ability (spent here), or -1 if already paid; ``rest``
    the further agility tokens that fire the ability after a pending question.
    """
    if source >= 0 and not any(e.is_choice for e in ability.effects):
        state = spend(state, ENEMY, [source])
        source = -1
    for k, e in enumerate(ability.effects):
        if k < start:
            continue
        if e.kind == "deal":
            if not e.unblockable and tactics_block_open(state, setup, e.amount):
                return _push(state, BlockFrame(e.amount, index, k + 1, source, rest))
            state = deal(state, setup, HERO, e.amount, blockable=not e.unblockable)
        elif e.kind == "heal":
            state = heal(state, ENEMY, e.amount)
        elif e.kind == "remove" and e.amount == 0:
            fight = fight_of(state)
            pool = fight.hero_pool
            for i in showing(setup, fight, HERO, e.symbol or BLANK):
                pool = unlink(pool, i)
                pool = pool_with_removed(pool, pool.removed | (1 << i))
            state = with_fight(state, fight_with_hero_pool(fight, pool))
        elif e.kind in ("remove", "recast_spent"):
            kind = "remove" if e.kind == "remove" else "relentless"
            symbol = e.symbol.value if e.symbol else ""
            cands = candidates(state, setup, kind, source, symbol)
            if cands:
                state = decide(state, setup, kind, source, cands, rest, symbol, index)
            elif source >= 0:
                state = spend(state, ENEMY, [source])
    return state


def _tactics(
    state: RuneboundState, setup: Setup, enemy: EnemySetup, tactics: int, space: Space
) -> RuneboundState | None:
    """One tactics, spent alone as a copy of the board's priority symbol showing on another live token.

    Enemies never copy charge, physical damage or a double (enforced when the board is loaded); the number of
    the copied face is copied (a double on it is not).
    """
    fight = fight_of(state)
    for sym in space.priority:
        best = _best_printed(state, setup, sym, tactics)
        if best == 0:
            continue
        if sym == SKULL:
            return hurt_hero(spend(state, ENEMY, [tactics]), setup, best)
        if sym == SURGE:
            new = _surge(state, setup, enemy, best, tactics)
            if new is not None:
                return new
            continue
        # agility
        if enemy.agility >= 0:
            if not fight.used >> enemy_ability_bit(enemy.agility) & 1:
                new = _agility_ability(state, setup, enemy, tactics)
                if new is not None:
                    return new
            continue
        mode = next((s.mode for s in enemy.board.spaces if s.symbol == AGILITY), "recast_foe")
        kind = "recast_foe" if mode == "recast_foe" else "flip_own"
        if candidates(state, setup, kind, tactics):
            return resolve_sources(state, setup, kind, (tactics,))
    return None


def _best_printed(state: RuneboundState, setup: Setup, sym: Sym, exclude: int) -> int:
    """The highest printed value of ``sym`` showing on a live token other than enemy token ``exclude``."""
    return best_printed(setup, fight_of(state), sym, token_ref(ENEMY, exclude))


def prevent_flip(state: RuneboundState, setup: Setup) -> RuneboundState | None:
    """Orc Brigand's kind: "This enemy may spend 1 surge to prevent its foe from flipping a token."

    Optional enemy abilities always trigger when they can: returns the state with the surge spent (the flip is
    prevented), or ``None`` when the enemy cannot pay.
    """
    fight = fight_of(state)
    cost = setup.enemies[fight.enemy].prevent_flip
    if not cost:
        return None
    surges = [(i, value_of(setup, fight, ENEMY, i)) for i in showing(setup, fight, ENEMY, SURGE)]
    if sum(v for _, v in surges) < cost:
        return None
    return spend(state, ENEMY, best_subset(surges, cost))


def title_ability(state: RuneboundState, setup: Setup) -> RuneboundState:
    """The board's title ability at the end of a round (e.g. Mystic: surge left in the pool deals 1 skull)."""
    fight = fight_of(state)
    title = setup.enemies[fight.enemy].board.title
    if not showing(setup, fight, ENEMY, title.symbol):
        return state
    if title.effect == "deal":
        return hurt_hero(state, setup, title.amount, round_end=True)
    return heal(state, ENEMY, title.amount)


def respond(state: RuneboundState, setup: Setup, cancel: bool) -> RuneboundState:
    """The hero answers a :class:`CancelFrame`: spend 1 tactics to cancel the ability, or let it resolve.

    "Blast: Deal 3 skull. Your foe may spend 1 tactics to cancel this ability."
    """
    frame = state.pending.top
    assert isinstance(frame, CancelFrame)  # Respond is legal only under a cancel frame
    state = _pop(state)
    fight = fight_of(state)
    if cancel:
        return spend(state, HERO, [showing(setup, fight, HERO, TACTICS)[0]])
    return ability_effects(state, setup, setup.enemies[fight.enemy].abilities[frame.ability], -1, index=frame.ability)


def choose(state: RuneboundState, setup: Setup, option: int) -> RuneboundState:
    """The enemy player answers a :class:`ChoiceFrame` with candidate ``option``; the space's further sources
    then resolve."""
    frame = state.pending.top
    assert isinstance(frame, ChoiceFrame)  # Choose is legal only under a choice frame
    state = _pop(state)
    state = apply_choice(state, setup, frame.kind, frame.source, frame.candidates[option])
    if frame.rest and frame.ability >= 0:
        enemy = setup.enemies[fight_of(state).enemy]
        return _fire_agility(state, setup, enemy, frame.rest) or state
    if frame.rest:
        state = resolve_sources(state, setup, frame.kind, frame.rest, frame.symbol)
    return state


def hurt_hero(state: RuneboundState, setup: Setup, amount: int, *, round_end: bool = False) -> RuneboundState:
    """The enemy deals ``amount`` blockable damage to the hero: at once when the hero has no tactics block to
    decide, else a pending :class:`BlockFrame` (``round_end``: the round ends after the answer)."""
    if tactics_block_open(state, setup, amount):
        return _push(state, BlockFrame(amount, round_end=round_end))
    return deal(state, setup, HERO, amount)


def block(state: RuneboundState, setup: Setup, tactics: bool) -> RuneboundState:
    """The hero answers a :class:`BlockFrame`: the damage lands, blocked by a tactics copying a shield (``tactics``)
    and then the shields; the enemy's ability goes on (the end of the round is the caller's business)."""
    frame = state.pending.top
    assert isinstance(frame, BlockFrame)  # Block is legal only under a block frame
    state = deal(_pop(state), setup, HERO, frame.amount, tactics=tactics)
    if frame.ability < 0:
        return state
    enemy = setup.enemies[fight_of(state).enemy]
    ability = enemy.abilities[frame.ability]
    state = ability_effects(
        state, setup, ability, frame.source, rest=frame.rest, index=frame.ability, start=frame.effect
    )
    if frame.rest and not state.pending:
        return _fire_agility(state, setup, enemy, frame.rest) or state
    return state
