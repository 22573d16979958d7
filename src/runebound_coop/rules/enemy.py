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
from runebound_coop.content.schema import Ability, Space, Sym
from runebound_coop.rules.choices import apply_choice, candidates, decide
from runebound_coop.rules.tokens import (
    best_printed,
    best_subset,
    bits,
    deal,
    face_of,
    faces_of,
    fight_of,
    heal,
    live,
    live_mask,
    showing,
    spend,
    tactics_block_open,
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
    make_link,
    token_ref,
)
from tabletop_core.fastcopy import replace

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

_PAYERS = (Sym.AGILITY, Sym.TACTICS)


def enemy_act(state: RuneboundState, setup: Setup) -> RuneboundState:
    """One enemy combat action: resolve the first space (top to bottom) that can resolve, else pass."""
    fight = fight_of(state)
    enemy = setup.enemies[fight.enemy]
    face_a, face_b = enemy.masks
    sides = fight.enemy_pool.sides
    alive = live_mask(setup, fight, ENEMY)
    for space in enemy.board.spaces:
        shown = ((face_a[space.symbol] & ~sides) | (face_b[space.symbol] & sides)) & alive
        if not shown:
            continue  # no token in this space
        new = _resolve_space(state, setup, enemy, space, bits(shown))
        if new is not None:
            return new
    return with_fight(state, fight.with_passed(ENEMY))


def _resolve_space(
    state: RuneboundState, setup: Setup, enemy: EnemySetup, space: Space, tokens: list[int]
) -> RuneboundState | None:
    """Resolve ``space``, whose tokens are ``tokens`` (the enemy's live tokens showing its symbol, not empty)."""
    fight = fight_of(state)
    if space.symbol == Sym.AGILITY:
        return _agility(state, setup, enemy, tuple(tokens), space.mode)
    if space.symbol == Sym.DOUBLE:
        return _doubles(state, setup, enemy, tokens, space.priority)
    if space.symbol == Sym.SURGE:
        budget = sum(value_of(setup, fight, ENEMY, i) for i in tokens)
        return _surge(state, setup, enemy, budget, None)
    if space.symbol == Sym.TACTICS:
        return _tactics(state, setup, enemy, tokens[0], space)
    # Skull: "+ symbols add only when there are one or more tokens with that symbol being resolved."
    total = sum(value_of(setup, fight, ENEMY, i) for i in tokens) + space.plus
    return hurt_hero(spend(state, ENEMY, tokens), setup, total)


def _agility(
    state: RuneboundState, setup: Setup, enemy: EnemySetup, sources: tuple[int, ...], mode: str
) -> RuneboundState | None:
    """Agility: the enemy card's agility ability replaces the board's agility space ("Agility Abilities").

    "Resolve all of the tokens in that space": each agility token in it fires the ability once, in one action
    (and the ability then rests for the round, as a surge ability does).
    """
    if enemy.agility >= 0:
        if fight_of(state).has_used(enemy_ability_bit(enemy.agility)):
            return None
        return _fire_agility(state, setup, enemy, sources)
    kind = "recast_foe" if mode == "recast_foe" else "flip_own"
    if not any(candidates(state, setup, kind, s) for s in sources):
        return None
    return resolve_sources(state, setup, kind, sources)


def _fire_agility(
    state: RuneboundState, setup: Setup, enemy: EnemySetup, sources: tuple[int, ...]
) -> RuneboundState | None:
    """Fire the agility ability once for each of ``sources`` that still shows agility and would have an effect
    (stops at a pending choice, which carries the rest); ``None`` if none fired."""
    fired = False
    for k, src in enumerate(sources):
        fight = fight_of(state)
        if src not in live(setup, fight, ENEMY) or face_of(setup, fight, ENEMY, src).symbol != Sym.AGILITY:
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
    state = with_fight(state, fight.with_used(enemy_ability_bit(enemy.agility)))
    return ability_effects(state, setup, ability, source, rest=rest, index=enemy.agility)


def resolve_sources(
    state: RuneboundState, setup: Setup, kind: str, sources: tuple[int, ...], symbol: str = ""
) -> RuneboundState:
    """Resolve each source token of a space in turn (each with its own choice); stops at a pending choice."""
    for k, src in enumerate(sources):
        fight = fight_of(state)
        if src not in live(setup, fight, ENEMY) or face_of(setup, fight, ENEMY, src).symbol not in _PAYERS:
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
    for d in doubles:
        fight = fight_of(state)
        faces = faces_of(setup, fight, ENEMY)
        pool = fight.enemy_pool
        target = -1
        for sym in priority:
            if sym == Sym.SURGE and all(fight.has_used(enemy_ability_bit(a)) for a in enemy.surge_order):
                continue  # no surge ability left to trigger this round: doubling a surge would have no effect
            cands = [
                i
                for i in live(setup, fight, ENEMY)
                if i != d and faces[i][pool.side(i)].symbol == sym and not pool.doubled(i)
            ]
            if cands:
                target = max(cands, key=lambda i: (value_of(setup, fight, ENEMY, i), -i))
                break
        if target < 0:
            continue
        pool = replace(pool, spent=pool.spent | (1 << d), links=(*pool.links, make_link(d, target)))
        state = with_fight(state, fight.with_pool(ENEMY, pool))
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
        if e.kind == "remove" and showing(setup, fight, HERO, e.symbol or Sym.BLANK):
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
        if ability.cost > budget or fight.has_used(enemy_ability_bit(a)):
            continue
        if not has_effect(state, setup, ability):
            continue
        if tactics is None:
            tokens = [(i, value_of(setup, fight, ENEMY, i)) for i in showing(setup, fight, ENEMY, Sym.SURGE)]
            paid = spend(state, ENEMY, best_subset(tokens, ability.cost))
        else:
            paid = spend(state, ENEMY, [tactics])
        f = fight_of(paid)
        paid = with_fight(paid, f.with_used(enemy_ability_bit(a)))
        if ability.cancel_by_tactics and showing(setup, f, HERO, Sym.TACTICS):
            return replace(paid, pending=paid.pending.push(CancelFrame(a)))
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
                frame = BlockFrame(e.amount, index, k + 1, source, rest)
                return replace(state, pending=state.pending.push(frame))
            state = deal(state, setup, HERO, e.amount, blockable=not e.unblockable)
        elif e.kind == "heal":
            state = heal(state, ENEMY, e.amount)
        elif e.kind == "remove" and e.amount == 0:
            fight = fight_of(state)
            pool = fight.hero_pool
            for i in showing(setup, fight, HERO, e.symbol or Sym.BLANK):
                pool = unlink(pool, i)
                pool = replace(pool, removed=pool.removed | (1 << i))
            state = with_fight(state, fight.with_pool(HERO, pool))
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
        if sym == Sym.SKULL:
            return hurt_hero(spend(state, ENEMY, [tactics]), setup, best)
        if sym == Sym.SURGE:
            new = _surge(state, setup, enemy, best, tactics)
            if new is not None:
                return new
            continue
        # agility
        if enemy.agility >= 0:
            if not fight.has_used(enemy_ability_bit(enemy.agility)):
                new = _agility_ability(state, setup, enemy, tactics)
                if new is not None:
                    return new
            continue
        mode = next((s.mode for s in enemy.board.spaces if s.symbol == Sym.AGILITY), "recast_foe")
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
    surges = [(i, value_of(setup, fight, ENEMY, i)) for i in showing(setup, fight, ENEMY, Sym.SURGE)]
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
    state = replace(state, pending=state.pending.pop())
    fight = fight_of(state)
    if cancel:
        return spend(state, HERO, [showing(setup, fight, HERO, Sym.TACTICS)[0]])
    return ability_effects(state, setup, setup.enemies[fight.enemy].abilities[frame.ability], -1, index=frame.ability)


def choose(state: RuneboundState, setup: Setup, option: int) -> RuneboundState:
    """The enemy player answers a :class:`ChoiceFrame` with candidate ``option``; the space's further sources
    then resolve."""
    frame = state.pending.top
    assert isinstance(frame, ChoiceFrame)  # Choose is legal only under a choice frame
    state = replace(state, pending=state.pending.pop())
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
        return replace(state, pending=state.pending.push(BlockFrame(amount, round_end=round_end)))
    return deal(state, setup, HERO, amount)


def block(state: RuneboundState, setup: Setup, tactics: bool) -> RuneboundState:
    """The hero answers a :class:`BlockFrame`: the damage lands, blocked by a tactics copying a shield (``tactics``)
    and then the shields; the enemy's ability goes on (the end of the round is the caller's business)."""
    frame = state.pending.top
    assert isinstance(frame, BlockFrame)  # Block is legal only under a block frame
    state = deal(replace(state, pending=state.pending.pop()), setup, HERO, frame.amount, tactics=tactics)
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
