"""What a player sees (everything: combat is perfect information), its tensor and a text picture of the table."""

from __future__ import annotations

import attrs
import numpy as np

from runebound_coop.content.roster import Setup, setup_of
from runebound_coop.content.schema import Sym
from runebound_coop.limits import MAX_ENEMIES, MAX_HEROES, MAX_PLAYERS, MAX_TOKENS
from runebound_coop.state import ENEMY, FLOW, HERO, CancelFrame, Fight, RuneboundState, Side, token_ref

__all__ = ["OBSERVATION_SHAPE", "RuneboundView", "describe_step", "describe_transition", "observation_tensor", "render"]

_SYMS = tuple(Sym)
_TOKEN = len(_SYMS) + 7
_HEROES, _ENEMIES, _TOKENS = MAX_HEROES, MAX_ENEMIES, MAX_TOKENS
_STEPS = tuple(step for phase in FLOW.phases for step in phase.steps)
_FLAGS = 1 + 2 + 2 + 1 + 20 + 2 + len(_STEPS) + MAX_PLAYERS
#: The fixed shape of the observation tensor.
OBSERVATION_SHAPE = (_HEROES * 6 + _ENEMIES * 4 + 2 * _TOKENS * _TOKEN + _FLAGS,)


@attrs.frozen
class RuneboundView:
    """Everything ``player`` may know: the whole state (nothing in combat is hidden)."""

    player: int
    state: RuneboundState


def observation_tensor(view: RuneboundView) -> np.ndarray:
    """The float32 tensor of a view (layout: heroes, enemies, hero tokens, enemy tokens, flags)."""
    state = view.state
    setup = setup_of(state.options)
    out = np.zeros(OBSERVATION_SHAPE, dtype=np.float32)
    fight = state.fight
    k = 0
    for h in range(_HEROES):
        if h < len(setup.heroes):
            out[k : k + 6] = (
                1.0,
                state.hero_damage[h] / setup.heroes[h].health,
                (state.out >> h) & 1,
                (state.withdrawn >> h) & 1,
                fight is not None and fight.hero == h,
                state.hand[h] / 10,
            )
        k += 6
    for e in range(_ENEMIES):
        if e < len(setup.enemies):
            health = setup.enemies[e].health
            out[k : k + 4] = (
                1.0,
                state.enemy_damage[e] / health,
                state.enemy_damage[e] >= health,
                fight is not None and fight.enemy == e,
            )
        k += 4
    for side in (HERO, ENEMY):
        if fight is not None:
            _tokens(out, k, state, fight, side)
        k += _TOKENS * _TOKEN
    if fight is not None:
        out[k] = fight.turn
        out[k + 1] = fight.passed & 1
        out[k + 2] = (fight.passed >> 1) & 1
        out[k + 3] = fight.charged & 1
        out[k + 4] = (fight.charged >> 1) & 1
        out[k + 5] = state.pos.round / state.options.max_rounds
        for b in range(20):
            out[k + 6 + b] = (fight.used >> b) & 1
    k += 26
    top = state.pending.top
    if top is not None:
        out[k + (0 if isinstance(top, CancelFrame) else 1)] = 1.0
    k += 2
    out[k + _STEPS.index(state.pos.step)] = 1.0
    k += len(_STEPS)
    if view.player < MAX_PLAYERS:
        out[k + view.player] = 1.0
    return out


def _tokens(out: np.ndarray, k: int, state: RuneboundState, fight: Fight, side: Side) -> None:
    setup = setup_of(state.options)
    faces = setup.heroes[fight.hero].faces if side == HERO else setup.enemies[fight.enemy].faces
    pool = fight.pool(side)
    for i, pair in enumerate(faces[:_TOKENS]):
        base = k + i * _TOKEN
        casting = token_ref(side, i) in fight.casting
        face = pair[pool.side(i)]
        if not casting:
            out[base + _SYMS.index(face.symbol)] = 1.0
            out[base + len(_SYMS)] = face.value / 4
            out[base + len(_SYMS) + 1] = face.initiative
        out[base + len(_SYMS) + 2] = pool.is_live(i) and not casting
        out[base + len(_SYMS) + 3] = (pool.spent >> i) & 1
        out[base + len(_SYMS) + 4] = (pool.removed >> i) & 1
        out[base + len(_SYMS) + 5] = pool.doubled(i)
        out[base + len(_SYMS) + 6] = casting


def _pool_text(state: RuneboundState, fight: Fight, side: Side) -> str:
    setup = setup_of(state.options)
    faces = setup.heroes[fight.hero].faces if side == HERO else setup.enemies[fight.enemy].faces
    pool = fight.pool(side)
    parts = []
    for i, pair in enumerate(faces):
        if token_ref(side, i) in fight.casting:
            parts.append(f"{i}:?")
            continue
        text = str(pair[pool.side(i)])
        if pool.doubled(i):
            text += "x2"
        if (pool.removed >> i) & 1:
            text = f"({text} removed)"
        elif (pool.spent >> i) & 1:
            text = f"({text})"
        parts.append(f"{i}:{text}")
    return " ".join(parts)


#: The legend printed under a fight: every symbol letter and the pool notation.
KEY = (
    "  key: "
    + ", ".join(f"{sym.letter} {sym.value}" for sym in Sym)
    + "; 2P = value 2, * initiative mark, x2 doubled, (..) spent, (.. removed) removed, ? being cast"
)


def render(state: RuneboundState, player: int | None = None) -> str:
    """A text picture: the party, the encounter and the fight's pools (spent tokens in parentheses), with a key to
    the symbol letters."""
    setup = setup_of(state.options)
    lines = []
    party = ", ".join(
        f"{h.name} {state.hero_damage[i]}/{h.health} (hand {state.hand[i]})"
        + (" (defeated)" if (state.out >> i) & 1 else "")
        + (" (withdrew)" if (state.withdrawn >> i) & 1 else "")
        for i, h in enumerate(setup.heroes)
    )
    foes = ", ".join(f"{e.name} [{e.trait}] {state.enemy_damage[i]}/{e.health}" for i, e in enumerate(setup.enemies))
    lines.append(f"party: {party}")
    lines.append(f"encounter: {foes}")
    fight = state.fight
    if fight is not None:
        hero, enemy = setup.heroes[fight.hero], setup.enemies[fight.enemy]
        lines.append(f"fight: {hero.name} vs {enemy.name}, round {state.pos.round}, step {state.pos.step}")
        lines.append(f"  {hero.name}: {_pool_text(state, fight, HERO)}")
        lines.append(f"  {enemy.name}: {_pool_text(state, fight, ENEMY)}")
        passed = [n for s, n in ((HERO, hero.name), (ENEMY, enemy.name)) if fight.has_passed(s)]
        lines.append(f"  to act: {'hero' if fight.turn == HERO else 'enemy'}; passed: {', '.join(passed) or '-'}")
        lines.append(KEY)
        top = state.pending.top
        if isinstance(top, CancelFrame):
            lines.append(f"  pending: {hero.name} may cancel {enemy.abilities[top.ability].name} with 1 tactics")
        elif top is not None:
            lines.append(f"  pending: the enemy player chooses ({top.kind}) among token refs {list(top.candidates)}")
    elif state.pos.phase == "over":
        lines.append("encounter over")
    if player is not None:
        lines.append(f"(seen by player {player})")
    return "\n".join(lines)


def describe_step(setup: Setup, state: RuneboundState) -> str:
    """Where the encounter stands (the fight, the round and the step or the pending question)."""
    if state.pos.phase == "over":
        return "encounter over"
    fight = state.fight
    if fight is None:
        return "the party chooses who engages the next enemy"
    where = f"{setup.heroes[fight.hero].name} vs {setup.enemies[fight.enemy].name}, round {state.pos.round}"
    top = state.pending.top
    if top is not None:
        return f"{where}, {'cancel?' if isinstance(top, CancelFrame) else 'enemy choice'}"
    return f"{where}, {state.pos.step}"


def describe_transition(setup: Setup, before: RuneboundState, after: RuneboundState) -> tuple[str, ...]:
    """Damage dealt or healed and combatants defeated in one step (the enemy's board acts inside steps)."""
    heroes = [(h.name, h.health) for h in setup.heroes]
    enemies = [(e.name, e.health) for e in setup.enemies]
    return (
        *_damage_lines(heroes, before.hero_damage, after.hero_damage),
        *_damage_lines(enemies, before.enemy_damage, after.enemy_damage),
    )


def _damage_lines(combatants: list[tuple[str, int]], old: tuple[int, ...], new: tuple[int, ...]) -> list[str]:
    lines: list[str] = []
    for (name, health), was, now in zip(combatants, old, new, strict=True):
        if now != was:
            verb = "takes" if now > was else "heals"
            lines.append(f"{name} {verb} {abs(now - was)} damage ({now}/{health})")
            if now >= health > was:
                lines.append(f"{name} is defeated")
    return lines
