"""What a player sees (everything: combat is perfect information), its tensor and a text picture of the table."""

from __future__ import annotations

from collections.abc import Sequence

import attrs
import numpy as np

from runebound_coop.actions import (
    ATTACK_SYMBOLS,
    Action,
    Attack,
    Block,
    Choose,
    Copy,
    Double,
    Engage,
    Exert,
    Flip,
    Land,
    Pass,
    Recast,
    Respond,
    Surge,
    Withdraw,
)
from runebound_coop.content.roster import Setup
from runebound_coop.content.schema import Face, Sym
from runebound_coop.limits import MAX_CARDS, MAX_ENEMIES, MAX_FACE_VALUE, MAX_HAND, MAX_HEROES, MAX_PLAYERS, MAX_TOKENS
from runebound_coop.rules.flow import DRIVER, CombatActions, Engagement, Initiative, defeat
from runebound_coop.rules.tokens import faces_of
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
    Pool,
    RuneboundState,
    Side,
    card_bit,
    enemy_ability_bit,
    hero_ability_bit,
    link_double,
    link_target,
    split_ref,
    token_ref,
)
from tabletop_core.spec import CHANCE
from tabletop_core.tensor import TensorLayout

__all__ = [
    "LAYOUT",
    "OBSERVATION_SHAPE",
    "RuneboundView",
    "describe",
    "describe_step",
    "describe_transition",
    "observation_tensor",
    "render",
    "replay",
    "seat_name",
]

_SYMS = tuple(Sym)
#: Per token: its symbol (one-hot), value / 4, initiative mark, live, spent, removed, doubled, being cast.
_TOKEN_FIELDS = (
    *(f"is_{sym.value}" for sym in _SYMS),
    "value",
    "initiative",
    "live",
    "spent",
    "removed",
    "doubled",
    "casting",
)
#: Per hero: present, damage / health, defeated, withdrew, engaged, hand / 10.
_HERO_FIELDS = ("present", "damage", "defeated", "withdrew", "engaged", "hand")
#: Per enemy: present, damage / health, defeated, engaged.
_ENEMY_FIELDS = ("present", "damage", "defeated", "engaged")
#: The fight: whose turn, hero passed, enemy passed, hero charged, enemy charged, round / max_rounds.
_FIGHT_FIELDS = ("turn", "hero_passed", "enemy_passed", "hero_charged", "enemy_charged", "round")
_STEPS = tuple(step for _, step in FLOW.steps())
_USED_BITS = card_bit(MAX_CARDS - 1) + 1
#: The observation tensor as named pieces (OpenSpiel's observers' idea): no offset is counted by hand.
LAYOUT = TensorLayout(
    (
        ("heroes", (MAX_HEROES, len(_HERO_FIELDS))),
        ("enemies", (MAX_ENEMIES, len(_ENEMY_FIELDS))),
        ("hero_tokens", (MAX_TOKENS, len(_TOKEN_FIELDS))),
        ("enemy_tokens", (MAX_TOKENS, len(_TOKEN_FIELDS))),
        ("fight", (len(_FIGHT_FIELDS),)),
        ("used", (_USED_BITS,)),
        ("pending", (len(FRAMES.pending),)),
        ("attack_symbol", (len(ATTACK_SYMBOLS),)),
        ("attack_chosen", (MAX_TOKENS,)),
        ("exert_card", (MAX_CARDS,)),
        ("exert_symbol", (len(ATTACK_SYMBOLS),)),
        ("exert_chosen", (MAX_TOKENS,)),
        ("step", (len(_STEPS),)),
        ("player", (MAX_PLAYERS,)),
    )
)
#: The fixed shape of the observation tensor.
OBSERVATION_SHAPE = LAYOUT.shape


@attrs.frozen
class RuneboundView:
    """Everything ``player`` may know: the whole state (nothing in combat is hidden)."""

    player: int
    state: RuneboundState

    def svg(self, *, width: int = 800) -> str:
        """This view as an SVG picture, ``width`` pixels wide (:func:`runebound_coop.picture.picture`)."""
        from runebound_coop.picture import picture

        return picture(self, width=width)

    def _repr_svg_(self) -> str:
        """The picture, for notebooks (Jupyter shows it inline)."""
        return self.svg()

    def _repr_html_(self) -> str:
        """The picture inside a ``<div>``, for notebooks that prefer HTML."""
        return f'<div class="tabletop-picture">{self.svg()}</div>'


def observation_tensor(view: RuneboundView) -> np.ndarray:
    """The float32 tensor of a view, filled through :data:`LAYOUT`'s named views."""
    state = view.state
    setup = state.options.setup
    out, v = LAYOUT.new()
    fight = state.fight
    for h, hero in enumerate(setup.heroes):
        v["heroes"][h] = (
            1.0,
            state.hero_damage[h] / hero.health,
            (state.out >> h) & 1,
            (state.withdrawn >> h) & 1,
            fight is not None and fight.hero == h,
            state.hand[h] / MAX_HAND,
        )
    for e, enemy in enumerate(setup.enemies):
        v["enemies"][e] = (
            1.0,
            state.enemy_damage[e] / enemy.health,
            state.enemy_damage[e] >= enemy.health,
            fight is not None and fight.enemy == e,
        )
    if fight is not None:
        _tokens(v["hero_tokens"], setup, fight, HERO)
        _tokens(v["enemy_tokens"], setup, fight, ENEMY)
        v["fight"][:] = (
            fight.turn,
            fight.has_passed(HERO),
            fight.has_passed(ENEMY),
            fight.has_charged(HERO),
            fight.has_charged(ENEMY),
            state.pos.round / state.options.max_rounds,
        )
        for b in range(_USED_BITS):
            v["used"][b] = fight.has_used(b)
    top = state.pending.top
    if top is not None:
        v["pending"][FRAMES.index(type(top))] = 1.0
        if isinstance(top, AttackFrame):
            v["attack_symbol"][ATTACK_SYMBOLS.index(Sym(top.symbol))] = 1.0
            for i in range(MAX_TOKENS):
                v["attack_chosen"][i] = (top.chosen >> i) & 1
        elif isinstance(top, ExertFrame):
            v["exert_card"][top.card] = 1.0
            v["exert_symbol"][ATTACK_SYMBOLS.index(Sym(top.symbol))] = 1.0
            for i in range(MAX_TOKENS):
                v["exert_chosen"][i] = (top.chosen >> i) & 1
    v["step"][_STEPS.index(state.pos.step)] = 1.0
    if 0 <= view.player < MAX_PLAYERS:
        v["player"][view.player] = 1.0
    return out


def _tokens(rows: np.ndarray, setup: Setup, fight: Fight, side: Side) -> None:
    """One row per token of ``side``'s pool (the loader refuses pools larger than the tensor holds)."""
    pool = fight.pool(side)
    for i, pair in enumerate(faces_of(setup, fight, side)):
        row = rows[i]
        casting = token_ref(side, i) in fight.casting
        face = pair[pool.side(i)]
        if not casting:
            row[_SYMS.index(face.symbol)] = 1.0
            row[len(_SYMS)] = face.value / MAX_FACE_VALUE
            row[len(_SYMS) + 1] = face.initiative
        row[len(_SYMS) + 2 :] = (
            pool.is_live(i) and not casting,
            (pool.spent >> i) & 1,
            (pool.removed >> i) & 1,
            pool.doubled(i),
            casting,
        )


def _pool_text(state: RuneboundState, fight: Fight, side: Side) -> str:
    setup = state.options.setup
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
    setup = state.options.setup
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
        lines.append(f"  to act: {_to_act(state, fight)}; passed: {', '.join(passed) or '-'}")
        lines.append(KEY)
        top = state.pending.top
        if isinstance(top, CancelFrame):
            lines.append(f"  pending: {hero.name} may cancel {enemy.abilities[top.ability].name} with 1 tactics")
        elif isinstance(top, BlockFrame):
            lines.append(f"  pending: {hero.name} takes {top.amount} damage: block with a tactics copying a shield?")
        elif isinstance(top, AttackFrame):
            chosen = [i for i in range(MAX_TOKENS) if (top.chosen >> i) & 1]
            lines.append(f"  pending: {hero.name} attacks with {top.symbol}: tokens chosen so far {chosen}")
        elif isinstance(top, ExertFrame):
            chosen = [i for i in range(MAX_TOKENS) if (top.chosen >> i) & 1]
            card = hero.cards[top.card].name
            lines.append(f"  pending: {hero.name} exerts {card}: {top.symbol} tokens to remove chosen so far {chosen}")
        elif top is not None:
            lines.append(f"  pending: the enemy player chooses ({top.kind}) among token refs {list(top.candidates)}")
    elif state.pos.phase == "over":
        lines.append("encounter over")
    if player is not None:
        lines.append(f"(seen by player {player})")
    return "\n".join(lines)


def _to_act(state: RuneboundState, fight: Fight) -> str:
    """Who decides next in the fight: the enemy player while one of its choices is pending, else the side whose
    combat action it is."""
    if isinstance(state.pending.top, ChoiceFrame):
        return "the enemy player (a choice)"
    return "hero" if fight.turn == HERO else "enemy"


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
        question = {
            CancelFrame: "cancel?",
            BlockFrame: "block?",
            AttackFrame: "attack tokens",
            ExertFrame: "tokens to remove",
        }.get(type(top), "enemy choice")
        return f"{where}, {question}"
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


# ----- per-seat descriptions ------------------------------------------------------------------------------------


def seat_name(setup: Setup, state: RuneboundState, player: int) -> str:
    """A seat by its role: the hero's name, ``the enemy`` for the enemy player, ``chance`` for the casts."""
    if player == CHANCE:
        return "chance"
    if 0 <= player < len(setup.heroes):
        return setup.heroes[player].name
    return "the enemy"


def replay(before: RuneboundState, action: Action) -> list[tuple[str, RuneboundState]]:
    """The step from ``before`` by ``action`` replayed frame by frame with the driver's own frames and end check,
    each resolution named: ``action`` (the action itself), then ``fight_over``, ``over``, ``engage``,
    ``initiative``, ``round_end``, ``enemy`` or ``turn``. The last state is the one :meth:`Driver.apply` gives
    (tested); the replay exists only to tell the automatic steps apart in words."""
    state = DRIVER.frame(before).apply(before, action)
    steps = [("action", state)]
    for _ in range(DRIVER.limit):
        if DRIVER.is_over(state):
            break
        fired = defeat(state)
        if fired is not None:
            state = fired
            steps.append(("fight_over", state))
            continue
        frame = DRIVER.frame(state)
        nxt = frame.auto(state)
        if nxt is None:
            break
        steps.append((_resolution(frame, state, nxt), nxt))
        state = nxt
    return steps


def _resolution(frame: object, state: RuneboundState, nxt: RuneboundState) -> str:
    if isinstance(frame, Engagement):
        return "over" if nxt.pos.phase == "over" else "engage"
    if isinstance(frame, Initiative):
        return "initiative"
    if isinstance(frame, CombatActions) and state.fight is not None:
        fight = state.fight
        if fight.has_passed(HERO) and fight.has_passed(ENEMY):
            return "round_end"
        if fight.turn == ENEMY and not fight.has_passed(ENEMY):
            return "enemy"
    return "turn"


def describe(
    setup: Setup, before: RuneboundState, action: Action, steps: Sequence[tuple[str, RuneboundState]]
) -> tuple[str, ...]:
    """The transition from ``before`` by ``action`` in words, from ``steps``: the state after the action itself
    (``action``), then each automatic step that followed (:func:`replay`).

    Combat hides nothing, so every seat gets the same lines.
    """
    lines = [_action_line(setup, before, action)]
    prev = before
    for name, state in steps:
        if name == "enemy" and prev.fight is not None:
            lines.append(_enemy_line(setup, prev, state))
            actor: Side | None = ENEMY
        else:
            hero_acts = not isinstance(action, Land | Choose | Block) and action != Respond(False)  # no cost paid
            actor = HERO if name == "action" and hero_acts else None
        # The enemy's own tokens pay in its action, and in the enemy player's answer (the choice's source, and the
        # further agility tokens of the space firing after it).
        enemy_pays = name == "enemy" or (name == "action" and isinstance(before.pending.top, ChoiceFrame))
        if name == "round_end" and prev.fight is not None:
            board = setup.enemies[prev.fight.enemy].board
            if state.hero_damage != prev.hero_damage or state.enemy_damage != prev.enemy_damage:
                lines.append(f"the {board.trait} board's title ability: {board.title.text}")
        lines.extend(_changes(setup, prev, state, actor, enemy_pays=enemy_pays))
        if name == "initiative" and state.fight is not None:
            first = seat_name(setup, state, state.fight.hero) if state.fight.turn == HERO else _enemy(setup, state)
            lines.append(f"{first} takes the first combat action")
        elif name == "round_end" and state.fight is not None and state.pos.round != prev.pos.round:
            lines.append(f"round {state.pos.round}: both combatants recast every token")
        elif name == "engage" and state.fight is not None:
            lines.append(f"{seat_name(setup, state, state.fight.hero)} engages {_enemy(setup, state)}")
        elif name == "over":
            lines.append("the encounter is over")
        prev = state
    return tuple(line for line in lines if line)


def _words(face: Face) -> str:
    return f"{face.value} {face.symbol.value}" if face.value != 1 else face.symbol.value


def _enemy(setup: Setup, state: RuneboundState) -> str:
    assert state.fight is not None  # only asked during a fight
    return f"the {setup.enemies[state.fight.enemy].name}"


def _name(setup: Setup, state: RuneboundState, side: Side) -> str:
    assert state.fight is not None  # only asked during a fight
    return setup.heroes[state.fight.hero].name if side == HERO else _enemy(setup, state)


def _face(setup: Setup, state: RuneboundState, side: Side, i: int) -> Face:
    assert state.fight is not None  # only asked during a fight
    return faces_of(setup, state.fight, side)[i][state.fight.pool(side).side(i)]


def _action_line(setup: Setup, state: RuneboundState, action: Action) -> str:  # one branch per action kind
    """The action itself, in words, by the seat that takes it."""
    fight = state.fight
    if isinstance(action, Land):
        if fight is None or not fight.casting:
            return f"a token lands on face {'ab'[action.side]}"
        side, i = split_ref(fight.casting[0])
        face = faces_of(setup, fight, side)[i][action.side]
        verb = "casts" if state.pos.step == "cast" else "recasts"
        return f"{_name(setup, state, side)} {verb}: token {i} lands {_words(face)}"
    if isinstance(action, Engage):
        return f"the party sends {setup.heroes[action.hero].name} to engage the next enemy"
    if isinstance(action, Choose) and isinstance(state.pending.top, AttackFrame) and fight is not None:
        shown = _words(_face(setup, state, HERO, action.option))
        return f"{setup.heroes[fight.hero].name} adds token {action.option} ({shown}) to the attack"
    if isinstance(action, Choose) and isinstance(state.pending.top, ExertFrame) and fight is not None:
        shown = _words(_face(setup, state, HERO, action.option))
        card = setup.heroes[fight.hero].cards[state.pending.top.card].name
        return f"{setup.heroes[fight.hero].name} picks token {action.option} ({shown}) for {card} to remove"
    if isinstance(action, Choose):
        top = state.pending.top
        assert isinstance(top, ChoiceFrame) and fight is not None  # Choose is legal only under a choice frame
        side, i = split_ref(top.candidates[action.option])
        whose = "its own" if side == ENEMY else f"{_name(setup, state, HERO)}'s"
        shown = _words(_face(setup, state, side, i))
        return f"the enemy chooses {whose} token {i} ({shown}) for {top.kind.replace('_', ' ')}"
    assert fight is not None  # every other decision is taken in a fight
    hero = setup.heroes[fight.hero]
    by = "tactics" if getattr(action, "tactics", False) else "agility"
    if isinstance(action, Respond):
        top = state.pending.top
        assert isinstance(top, CancelFrame)  # Respond is legal only under a cancel frame
        ability = setup.enemies[fight.enemy].abilities[top.ability].name
        return (
            f"{hero.name} cancels {ability} with 1 tactics" if action.cancel else f"{hero.name} lets {ability} resolve"
        )
    if isinstance(action, Withdraw):
        return f"{hero.name} withdraws from the fight" if action.leave else f"{hero.name} stays for another round"
    if isinstance(action, Block):
        return f"{hero.name} {'spends a tactics as a shield' if action.tactics else 'keeps its tactics'}"
    if isinstance(action, Pass):
        return f"{hero.name} passes"
    if isinstance(action, Attack):
        if isinstance(state.pending.top, AttackFrame):
            return f"{hero.name} strikes with the chosen {action.symbol.value} tokens"
        return f"{hero.name} attacks with {action.symbol.value}"
    if isinstance(action, Copy):
        return f"{hero.name} spends tactics as a copy of {_words(Face(action.symbol, action.value, False))}"
    if isinstance(action, Flip):
        return f"{hero.name} spends {by} to flip token {action.target}"
    if isinstance(action, Recast):
        return f"{hero.name} spends {by} to recast {_enemy(setup, state)}'s token {action.target}"
    if isinstance(action, Double):
        return f"{hero.name} doubles token {action.target} ({_words(_face(setup, state, HERO, action.target))})"
    if isinstance(action, Surge):
        paid = "tactics as surge" if action.tactics else "surge"
        return f"{hero.name} spends {paid} on {hero.abilities[action.ability].name}"
    if isinstance(action, Exert):
        return f"{hero.name} exerts for {hero.cards[action.card].name}"
    return f"{hero.name}: {action!r}"


def _enemy_line(setup: Setup, before: RuneboundState, after: RuneboundState) -> str:
    """Which space of its board the enemy resolved, or that it passed."""
    fight, new = before.fight, after.fight
    assert fight is not None  # the enemy acts only in a fight
    name = _enemy(setup, before)
    if new is not None and new.has_passed(ENEMY) and not fight.has_passed(ENEMY):
        return f"{name} passes: no space of its board can resolve"
    pool = fight.enemy_pool
    spent = new.enemy_pool.spent & ~pool.spent if new is not None else 0
    symbols = sorted({faces_of(setup, fight, ENEMY)[i][pool.side(i)].symbol.value for i in _bits(spent)})
    return f"{name} resolves its {' and '.join(symbols) or 'board'} space" if symbols else f"{name} acts"


def _changes(
    setup: Setup, before: RuneboundState, after: RuneboundState, actor: Side | None, *, enemy_pays: bool = False
) -> list[str]:
    """What changed on the table, in words: tokens spent, blocked with, doubled, flipped, removed or recast, abilities
    triggered, cards exerted, damage and healing, defeats. With ``enemy_pays`` (the enemy's action or its player's
    answer) each agility token that fired the enemy's agility ability is named with its trigger."""
    lines: list[str] = []
    fight, new = before.fight, after.fight
    if fight is not None and new is not None and (new.hero, new.enemy) == (fight.hero, fight.enemy):
        enemy = setup.enemies[fight.enemy]
        payers = _agility_payers(setup, before, after) if enemy_pays else []
        if payers:
            ability = enemy.abilities[enemy.agility]
            for i in payers:
                lines.append(f"{_enemy(setup, before)} spends token {i} (agility) on {ability.name}: {ability.text}")
        if after.pos.round == before.pos.round or after.pos.step != "cast":
            for side in SIDES if actor != ENEMY else SIDES[::-1]:  # the actor's own tokens first
                lines.extend(_pool_changes(setup, before, after, side, actor, paid=payers if side == ENEMY else ()))
        for a, ability in enumerate(enemy.abilities):
            if a == enemy.agility and payers:
                continue  # named with each token that fired it, above
            if new.has_used(enemy_ability_bit(a)) and not fight.has_used(enemy_ability_bit(a)):
                lines.append(f"{_enemy(setup, before)} triggers {ability.name}: {ability.text}".rstrip(": "))
        hero = setup.heroes[fight.hero]
        for a, ability in enumerate(hero.abilities):
            if new.has_used(hero_ability_bit(a)) and not fight.has_used(hero_ability_bit(a)):
                lines.append(f"{hero.name} triggers {ability.name}: {ability.text}".rstrip(": "))
        for c, card in enumerate(hero.cards):
            if new.has_used(card_bit(c)) and not fight.has_used(card_bit(c)):
                lines.append(f"{hero.name} uses {card.name}: {card.text}".rstrip(": "))
        top = after.pending.top
        if top is not None and top is not before.pending.top:
            if isinstance(top, CancelFrame):
                lines.append(f"{hero.name} may cancel {enemy.abilities[top.ability].name} with 1 tactics")
            elif isinstance(top, BlockFrame):
                lines.append(f"{hero.name} is about to take {top.amount} damage and may block with a tactics")
            elif isinstance(top, AttackFrame):
                if before.pending.top is None:
                    lines.append(f"{hero.name} picks which {top.symbol} tokens the attack spends")
            elif isinstance(top, ExertFrame):
                if before.pending.top is None:
                    card = hero.cards[top.card]
                    lines.append(f"{hero.name} picks which {card.remove} {top.symbol} tokens {card.name} removes")
            else:
                paid = f" (paid by its token {top.source})" if top.source >= 0 else ""
                lines.append(f"the enemy player chooses a token for {top.kind.replace('_', ' ')}{paid}")
    lines.extend(describe_transition(setup, before, after))
    return lines


def _agility_payers(setup: Setup, before: RuneboundState, after: RuneboundState) -> list[int]:
    """The enemy's agility tokens that paid for its agility ability between ``before`` and ``after``: live and
    showing agility before, spent after, or being cast again (a later firing in the same space recast the spent
    payer: "Recast any spent token")."""
    fight, new = before.fight, after.fight
    assert fight is not None and new is not None  # compared within one fight
    enemy = setup.enemies[fight.enemy]
    if enemy.agility < 0 or not new.has_used(enemy_ability_bit(enemy.agility)):
        return []
    old_pool, pool = fight.enemy_pool, new.enemy_pool
    out = []
    for i, pair in enumerate(enemy.faces):
        ref = token_ref(ENEMY, i)
        if ref in fight.casting or not old_pool.is_live(i) or pair[old_pool.side(i)].symbol != Sym.AGILITY:
            continue
        if (pool.spent >> i) & 1 or ref in new.casting:
            out.append(i)
    return out


def _pool_changes(  # noqa: PLR0917  # the two states compared, the side, the actor and the payers named elsewhere
    setup: Setup,
    before: RuneboundState,
    after: RuneboundState,
    side: Side,
    actor: Side | None,
    paid: Sequence[int] = (),
) -> list[str]:
    fight, new = before.fight, after.fight
    assert fight is not None and new is not None  # compared within one fight
    old_pool, pool = fight.pool(side), new.pool(side)
    faces = faces_of(setup, fight, side)
    name = _name(setup, before, side)
    lines = []
    spent = [i for i in _bits(pool.spent & ~old_pool.spent) if i not in paid]
    doubles = {link_double(link): link_target(link) for link in pool.links if link not in old_pool.links}
    plain = [i for i in spent if i not in doubles]
    if plain:
        shown = ", ".join(f"token {i} ({_words(faces[i][old_pool.side(i)])})" for i in plain)
        verb = "spends" if side == actor else "blocks with" if _blocks(faces, old_pool, plain) else "spends"
        lines.append(f"{name} {verb} {shown}")
    for d, t in sorted(doubles.items()):
        lines.append(f"{name} doubles token {t} ({_words(faces[t][pool.side(t)])}) with token {d}")
    for i in _bits(pool.removed & ~old_pool.removed):
        lines.append(f"{name}'s token {i} ({_words(faces[i][old_pool.side(i)])}) is removed")
    for i in range(len(faces)):
        ref = token_ref(side, i)
        if ref in new.casting and ref not in fight.casting:
            lines.append(f"{name}'s token {i} is recast")
        elif pool.side(i) != old_pool.side(i) and ref not in fight.casting and ref not in new.casting:
            lines.append(f"{name} flips token {i} to {_words(faces[i][pool.side(i)])}")
    return lines


def _blocks(faces: tuple[tuple[Face, Face], ...], pool: Pool, spent: list[int]) -> bool:
    return all(faces[i][pool.side(i)].symbol in (Sym.SHIELD, Sym.TACTICS) for i in spent)


def _bits(mask: int) -> list[int]:
    return [i for i in range(mask.bit_length()) if (mask >> i) & 1]
