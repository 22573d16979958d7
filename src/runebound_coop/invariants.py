"""What a valid state is: used when a state is loaded from JSON and by the conformance run.

A state that passes :func:`validate_state` is one every protocol function and a playout can run on: damage within
health and the defeated heroes exactly those whose damage reached it, hands within the option, a known flow
position and a round within ``max_rounds``, a fight exactly during combat (its hero still able to fight, its enemy
the next undefeated one, later enemies untouched), pools and casts within the tokens, every double placed on one
other token of its own pool, the turn and the passes consistent, and at most one pending question that is the
one the rules would ask now (a choice only for an enemy player, with exactly the candidates the rules offer; a
cancel, block or attack only when the hero has the token to answer it).
"""

from __future__ import annotations

from runebound_coop.actions import ATTACK_SYMBOLS
from runebound_coop.content.roster import Setup
from runebound_coop.content.schema import Sym
from runebound_coop.limits import MAX_AMOUNT, MAX_CARDS
from runebound_coop.rules.choices import candidates
from runebound_coop.rules.tokens import faces_of, showing, tactics_block_open
from runebound_coop.state import (
    ENEMY,
    FLOW,
    FRAMES,
    HERO,
    SIDES,
    AttackFrame,
    BlockFrame,
    CancelFrame,
    ChoiceFrame,
    ExertFrame,
    Fight,
    RuneboundState,
    card_bit,
    enemy_ability_bit,
    link_double,
    link_target,
    split_ref,
)

__all__ = ["validate_state"]

#: The kinds of choice an enemy player may be asked (see :func:`runebound_coop.rules.choices.candidates`).
CHOICE_KINDS = ("recast_foe", "flip_own", "relentless", "remove")
#: Bits of ``Fight.used``: hero abilities, enemy abilities, then the hero's cards.
_USED_BITS = 16 + MAX_CARDS


def validate_state(setup: Setup, state: RuneboundState) -> None:
    """Raise ``ValueError`` naming the first broken invariant of ``state`` (whose content is ``setup``)."""
    _check_party(setup, state)
    _check_position(setup, state)
    fight = state.fight
    if fight is None:
        if state.pending:
            raise ValueError("a pending question with no fight")
        return
    _check_fight(setup, state, fight)
    _check_pending(setup, state, fight)


def _check_party(setup: Setup, state: RuneboundState) -> None:
    nh = len(setup.heroes)
    if len(state.hero_damage) != nh or len(state.enemy_damage) != len(setup.enemies):
        raise ValueError("one damage count per hero and per enemy")
    if len(state.hand) != nh or not all(0 <= h <= state.options.hand for h in state.hand):
        raise ValueError(f"hand: one count in 0..{state.options.hand} per hero")
    for d, h in zip(state.hero_damage, setup.heroes, strict=True):
        if not 0 <= d <= h.health:
            raise ValueError(f"{h.name}: damage {d} outside 0..{h.health}")
    for d, e in zip(state.enemy_damage, setup.enemies, strict=True):
        if not 0 <= d <= e.health:
            raise ValueError(f"{e.name}: damage {d} outside 0..{e.health}")
    everyone = (1 << nh) - 1
    if not (0 <= state.out <= everyone and 0 <= state.withdrawn <= everyone) or state.out & state.withdrawn:
        raise ValueError(f"out {state.out:b} and withdrawn {state.withdrawn:b}: disjoint bits of the {nh} heroes")
    for i, (d, hero) in enumerate(zip(state.hero_damage, setup.heroes, strict=True)):
        if bool((state.out >> i) & 1) != (d >= hero.health):
            raise ValueError(f"{hero.name}: out exactly when its damage {d} reaches its health {hero.health}")
    nxt = _next_enemy(setup, state)
    if nxt >= 0 and any(state.enemy_damage[nxt + 1 :]):
        raise ValueError("an enemy after the next undefeated one has damage (enemies are fought in order)")


def _next_enemy(setup: Setup, state: RuneboundState) -> int:
    for e, (d, enemy) in enumerate(zip(state.enemy_damage, setup.enemies, strict=True)):
        if d < enemy.health:
            return e
    return -1


def _available(setup: Setup, state: RuneboundState) -> list[int]:
    gone = state.out | state.withdrawn
    return [h for h in range(len(setup.heroes)) if not (gone >> h) & 1]


def _check_position(setup: Setup, state: RuneboundState) -> None:
    pos = state.pos
    FLOW.at(pos.phase, pos.step, pos.round)
    open_ = _next_enemy(setup, state) >= 0 and bool(_available(setup, state))
    if pos.phase == "combat":
        if not 1 <= pos.round <= state.options.max_rounds:
            raise ValueError(f"round {pos.round} outside 1..{state.options.max_rounds}")
        if state.fight is None:
            raise ValueError("the combat phase needs a fight")
        if not open_:
            raise ValueError("a fight goes on after the encounter was decided")
        return
    if pos.round != 1:
        raise ValueError(f"round {pos.round}: only a fight counts rounds (1 outside combat)")
    if state.fight is not None:
        raise ValueError(f"a fight outside the combat phase (at {pos.phase}/{pos.step})")
    if (pos.phase == "encounter") != open_:
        raise ValueError("the encounter goes on exactly while an enemy is undefeated and a hero can engage")


def _check_pools(setup: Setup, fight: Fight) -> None:
    for side in SIDES:
        faces = faces_of(setup, fight, side)
        n = len(faces)
        pool = fight.pool(side)
        who = "hero" if side == HERO else "enemy"
        if min(pool.sides, pool.spent, pool.removed) < 0 or max(pool.sides, pool.spent, pool.removed) >> n:
            raise ValueError(f"{who} pool: bits beyond the {n} tokens")
        if pool.spent & pool.removed:
            raise ValueError(f"{who} pool: a token both spent and removed")
        targets = [link_target(link) for link in pool.links]
        if len(set(targets)) != len(targets):
            raise ValueError(f"{who} pool: a token doubled twice")
        for link in pool.links:
            d, t = link_double(link), link_target(link)
            if link < 0 or not (d < n and t < n and d != t) or faces[d][pool.side(d)].symbol != Sym.DOUBLE:
                raise ValueError(f"{who} pool: link {link} does not join a double to another token")
            if not (pool.spent >> d) & 1 or (pool.removed >> t) & 1:
                raise ValueError(f"{who} pool: link {link}: the double must be spent, its target not removed")


def _check_ref(setup: Setup, fight: Fight, ref: int, what: str) -> None:
    side, i = split_ref(ref)
    if ref < 0 or not 0 <= i < len(faces_of(setup, fight, side)):
        raise ValueError(f"{what}: bad token ref {ref}")


def _check_enemy_token(setup: Setup, fight: Fight, i: int, what: str, *, none: bool) -> None:
    if not (none and i == -1) and not 0 <= i < len(faces_of(setup, fight, ENEMY)):
        raise ValueError(f"{what}: no enemy token {i}")


def _check_fight(setup: Setup, state: RuneboundState, fight: Fight) -> None:
    if fight.hero not in _available(setup, state):
        raise ValueError(f"fight: hero {fight.hero} is not one that can still fight")
    if fight.enemy != _next_enemy(setup, state):
        raise ValueError(f"fight: enemy {fight.enemy} is not the next undefeated enemy")
    _check_pools(setup, fight)
    for ref in fight.casting:
        _check_ref(setup, fight, ref, "casting")
    if len(set(fight.casting)) != len(fight.casting):
        raise ValueError(f"casting {fight.casting}: a token cast twice at once")
    if fight.turn not in SIDES or not 0 <= fight.passed <= 3 or not 0 <= fight.charged <= 3:
        raise ValueError(f"fight: turn {fight.turn}, passed {fight.passed}, charged {fight.charged} out of range")
    if fight.passed != 3 and fight.has_passed(fight.turn):
        raise ValueError(f"fight: side {fight.turn} is to act but has passed")
    if not 0 <= fight.used < 1 << _USED_BITS:
        raise ValueError(f"fight: used {fight.used} beyond its {_USED_BITS} bits")
    if state.pos.step == "cast" and (fight.passed or fight.charged or fight.used):
        raise ValueError("a round being cast has no passes, charges or uses yet")


def _check_pending(setup: Setup, state: RuneboundState, fight: Fight) -> None:
    frames = state.pending.frames
    FRAMES.check_stack(frames)  # every frame of a kind the game registers as one that may be pending
    if len(frames) > 1:
        raise ValueError(f"{len(frames)} pending questions (the rules ask one at a time)")
    if not frames:
        return
    frame = frames[0]
    if state.pos.step != "actions":  # a recast chosen earlier may still be casting (two recasts in one ability)
        raise ValueError(f"a pending question {frame!r} outside the combat actions")
    enemy = setup.enemies[fight.enemy]
    abilities = enemy.abilities
    if isinstance(frame, CancelFrame):
        a = frame.ability
        if not 0 <= a < len(abilities) or not abilities[a].cancel_by_tactics:
            raise ValueError(f"{frame!r}: {enemy.name} has no ability {a} the hero may cancel")
        if not fight.has_used(enemy_ability_bit(a)) or not showing(setup, fight, HERO, Sym.TACTICS):
            raise ValueError(f"{frame!r}: the ability was not used or the hero shows no tactics to cancel it")
    elif isinstance(frame, BlockFrame):
        if not 1 <= frame.amount <= MAX_AMOUNT or not tactics_block_open(state, setup, frame.amount):
            raise ValueError(f"{frame!r}: no tactics block is open for {frame.amount} damage")
        if frame.ability < 0:
            if (frame.effect, frame.source, frame.rest) != (0, -1, ()):
                raise ValueError(f"{frame!r}: a blow outside an ability carries no ability to continue")
        else:
            if frame.ability >= len(abilities):
                raise ValueError(f"{frame!r}: {enemy.name} has no ability {frame.ability}")
            effects = abilities[frame.ability].effects
            if not 1 <= frame.effect <= len(effects) or effects[frame.effect - 1].kind != "deal":
                raise ValueError(f"{frame!r}: effect {frame.effect - 1} of the ability is no blow")
        _check_enemy_token(setup, fight, frame.source, f"{frame!r}", none=True)
        for i in frame.rest:
            _check_enemy_token(setup, fight, i, f"{frame!r}", none=False)
    elif isinstance(frame, ChoiceFrame):
        _check_choice(setup, state, fight, frame)
    elif isinstance(frame, AttackFrame):
        if frame.symbol not in {s.value for s in ATTACK_SYMBOLS}:
            raise ValueError(f"{frame!r}: an attack spends one of {[s.value for s in ATTACK_SYMBOLS]}")
        tokens = showing(setup, fight, HERO, Sym(frame.symbol))
        chosen = frame.chosen
        if not tokens or chosen < 0 or any((chosen >> i) & 1 and i not in tokens for i in range(chosen.bit_length())):
            raise ValueError(f"{frame!r}: chosen tokens must be live hero tokens showing {frame.symbol}")
    elif isinstance(frame, ExertFrame):
        _check_exert(setup, state, fight, frame)


def _check_exert(setup: Setup, state: RuneboundState, fight: Fight, frame: ExertFrame) -> None:
    cards = setup.heroes[fight.hero].cards
    if not 0 <= frame.card < len(cards):
        raise ValueError(f"{frame!r}: {setup.heroes[fight.hero].name} has no card {frame.card}")
    card = cards[frame.card]
    if frame.symbol not in {s.value for s in card.symbols}:
        raise ValueError(f"{frame!r}: {card.name} removes tokens showing one of {[s.value for s in card.symbols]}")
    if fight.has_used(card_bit(frame.card)) or state.hand[fight.hero] < 1:
        raise ValueError(f"{frame!r}: {card.name} cannot be exerted (used this round, or no card in hand)")
    tokens = showing(setup, fight, HERO, Sym(frame.symbol))
    chosen = frame.chosen
    picked = [i for i in range(max(chosen, 0).bit_length()) if (chosen >> i) & 1]
    if chosen < 0 or any(i not in tokens for i in picked) or len(picked) >= card.remove:
        raise ValueError(f"{frame!r}: fewer than {card.remove} chosen, each a live token showing {frame.symbol}")
    above = [i for i in tokens if i > max(picked, default=-1)]
    if len(tokens) <= card.remove or len(above) < card.remove - len(picked):
        raise ValueError(f"{frame!r}: no choice of the tokens {card.name} removes is open")


def _check_choice(setup: Setup, state: RuneboundState, fight: Fight, frame: ChoiceFrame) -> None:
    if state.options.enemy_choices != "player":
        raise ValueError(f"{frame!r}: only an enemy player is asked to choose")
    if frame.kind not in CHOICE_KINDS:
        raise ValueError(f"{frame!r}: unknown choice kind {frame.kind!r}")
    if frame.symbol and frame.symbol not in {s.value for s in Sym}:
        raise ValueError(f"{frame!r}: unknown symbol {frame.symbol!r}")
    if frame.kind == "remove" and not frame.symbol:
        raise ValueError(f"{frame!r}: a removal names the symbol it removes")
    _check_enemy_token(setup, fight, frame.source, f"{frame!r}", none=True)
    for i in frame.rest:
        _check_enemy_token(setup, fight, i, f"{frame!r}", none=False)
    if not -1 <= frame.ability < len(setup.enemies[fight.enemy].abilities):
        raise ValueError(f"{frame!r}: no enemy ability {frame.ability}")
    offered = candidates(state, setup, frame.kind, frame.source, frame.symbol)
    if len(frame.candidates) < 2 or frame.candidates != offered:
        raise ValueError(f"{frame!r}: the candidates must be the {offered} the rules offer (two or more)")
