"""The effect language: every op's declaration in one registry (:data:`OPS`), and its interpreter.

Each op is one :class:`OpDef` entry of :data:`OPS`, declared once: the fields a card may give it (the loader
reads them), what it does (``run``), its rule text (``text``, read by the glossary), the footprint cells it touches
(``cells``, ``adds``: read by the triggers to tell when an order of Responses cannot matter), and, where they
apply, the change of the battle alone (``battle``), when it does nothing (``idle``), and where it may appear
(``where``). The interpreter runs one op at a time, pushing frames when a decision or a roll is needed.

The four ops that hand play to frames of the battle or of the triggers (``reroll``, ``extra_attack``,
``extra_turn``, ``break_armor``) name those frames when they run: ``combat.py`` and ``triggers.py`` run effect
lists, so they import this module and not the other way round.

Rulebook clauses implemented here (each op's docstring in ``docs/rules/unbroken.md``): bracketed alternatives
("If a monster effect cannot be applied ... apply the alternative effect (listed in brackets) instead. If there's
no alternative effect, nothing happens."), losing Effort you do not have loses the game, monster gains raise the
current and maximum values while heals stop at the maximum, rolls stay within 1..6, DEFEND does not stack,
conditions now or for the next Level (extending timed ones), cures, and permanent or temporary downgrades.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import TYPE_CHECKING, ClassVar, Literal

import attrs

from tabletop_core.fastcopy import replace
from tabletop_core.flow import Automatic, Pending
from unbroken.actions import Action, Pick
from unbroken.content.schema import Op
from unbroken.rules.cards import static_ops
from unbroken.rules.chance import DieRoll
from unbroken.rules.payment import PICK, Cost, Decide, upto
from unbroken.rules.resources import Res, can_pay, gain, loss_plans, loss_ways, pay, spend_time
from unbroken.rules.skills import gain_skill
from unbroken.rules.tables import tables
from unbroken.rules.verbs import MonsterReveal, amount, die, gained, lay_weapon, weapon, weapon_down
from unbroken.state import FRAMES, LAST_LEVEL, RES, Combat, Cond, State

if TYPE_CHECKING:
    from unbroken.rules.flow import Frame

__all__ = [
    "EFFORT",
    "OPS",
    "RESOURCE_NAMES",
    "Choose",
    "EffectRoll",
    "Exec",
    "OpDef",
    "amount_text",
    "combat_after",
    "effort_ways",
    "op_text",
    "ops_text",
    "run_op",
    "run_ops",
]

EFFORT = frozenset({"se", "me", "le"})
EFFORT_NAMES = ("Small Effort", "Medium Effort", "Large Effort")


@FRAMES.register("unbroken.exec", slot=0)
@attrs.frozen
class Exec(Automatic[State]):
    """Frame: run ``ops`` in order, one at a time (``src`` names the card, e.g. ``condition:paralyzed``)."""

    ops: tuple[Op, ...]
    src: str = ""

    def resolve(self, state: State) -> State:
        """Run the first op; the rest wait on the stack (under whatever the op pushes)."""
        rest = self.ops[1:]
        pending = state.pending.replace_top(Exec(rest, self.src)) if rest else state.pending.pop()
        return run_op(state, self.ops[0], self.src, pending)


@FRAMES.register("unbroken.choose", slot=1)
@attrs.frozen
class Choose(Decide):
    """Frame: a decision among branches of ops (``purpose`` names what is chosen: ``effort``, ``cure``,
    ``weapon``, ``instead``, ``branch``); a branch's ``spend`` ops are its cost."""

    in_id_order: ClassVar[bool] = True
    purpose: str
    branches: tuple[tuple[Op, ...], ...]
    labels: tuple[str, ...]
    src: str = ""

    def options(self, state: State) -> list[Action]:
        """One pick per branch."""
        return list(upto(PICK, Pick, len(self.branches)))

    def label(self, state: State, i: int) -> str:
        """The branch's label."""
        return self.labels[i] if i < len(self.labels) else ""

    def cost(self, state: State, action: Action) -> Cost | None:
        """The branch's ``spend`` ops."""
        assert isinstance(action, Pick)
        return self.branches[action.i], None

    def decide(self, state: State, action: Action) -> State:
        """Run the chosen branch."""
        assert isinstance(action, Pick)
        return run_ops(state.pop(), self.branches[action.i], self.src)


@FRAMES.register("unbroken.effect_roll", slot=2)
@attrs.frozen
class EffectRoll(DieRoll):
    """Chance frame: an effect's roll of the die: at most ``n`` runs ``then``, else ``alt``."""

    n: int
    then: tuple[Op, ...]
    alt: tuple[Op, ...] = ()
    src: str = ""

    def face_up(self, state: State, face: int) -> State:
        """Run the branch the face selects."""
        return run_ops(state, self.then if face <= self.n else self.alt, self.src)


def run_ops(state: State, ops: tuple[Op, ...], src: str) -> State:
    """Run ``ops`` one by one, as the last thing a frame does: the first now, the rest in an :class:`Exec` frame.

    The same as pushing ``Exec(ops, src)`` for the engine to run next: while the game goes on, an ``Exec`` on top
    is what the driver resolves next (the monster's defeat waits for the effect list), so the first op can run
    now, sparing the frame's push and pop; a finished game keeps the frame unrun, as before.
    """
    if not ops:
        return state
    if state.outcome != 0:
        return state.push(Exec(ops, src))
    if ops[0].op == "gain":
        # Leading gains at once, in one copy: a gain pushes no frame and cannot end the game, so between them the
        # driver would only resolve the ``Exec`` frame holding the rest.
        k = 1
        while k < len(ops) and ops[k].op == "gain":
            k += 1
        state = _gains(state, ops[:k])
        ops = ops[k:]
        if not ops:
            return state
    rest = ops[1:]
    return run_op(state.push(Exec(rest, src)) if rest else state, ops[0], src)


def _gains(state: State, ops: tuple[Op, ...]) -> State:
    """``gain`` ops one after the other (each as :func:`~unbroken.rules.resources.gain`), in one copy."""
    res = gained(state, state.res, ops)
    return replace(state, res=res) if res != state.res else state


def _lose(state: State, op: Op, src: str, pending: Pending[Frame] | None = None) -> State:
    """Lose a resource; if it cannot be applied, the bracketed alternative (Effort with none: death).

    ``pending``: the stack to run on (the calling frame's change of it; see :func:`run_op`).
    """
    r, n = RES[op.res], amount(state, op)
    if op.res in EFFORT:
        ways = loss_ways(state, r, n)
        if len(ways) == 1:  # no choice: the loss and the stack's change in one copy
            return replace(state, res=ways[0]) if pending is None else replace(state, res=ways[0], pending=pending)
        if not ways and not op.alt:  # death: the stack goes with the game (see ``die``), its change with it
            return die(state)
    if pending is not None:
        state = replace(state, pending=pending)
    if op.res == "time":
        return _time(state, n, src)
    if op.res in EFFORT:
        plans = loss_plans(state, r, n)
        if not plans:
            return run_ops(state, op.alt, src) if op.alt else die(state)
        # "you can spend Effort of a higher category in place of Effort of a lower category": the player chooses
        # which category covers the shortfall when the choice makes a difference.
        branches = tuple(
            tuple(Op("lose", res=cat, n=k) for cat, k in zip(("se", "me", "le"), plan, strict=True) if k)
            for plan in plans
        )
        labels = tuple(
            "lose " + ", ".join(f"{k} {name}" for name, k in zip(EFFORT_NAMES, plan, strict=True) if k)
            for plan in plans
        )
        return state.push(Choose("effort", branches, labels, src))
    if state.amount(r) >= n:
        return state.with_res(r, state.res[r].lose(n))
    return run_ops(state, op.alt, src)


def effort_ways(state: State, op: Op) -> list[Res] | None:
    """The tracks after each distinct way of paying the op when it is a loss of Effort (see
    :func:`~unbroken.rules.resources.loss_ways`: none when it cannot be paid), else ``None``."""
    if op.op != "lose" or op.res not in EFFORT:
        return None
    return loss_ways(state, RES[op.res], amount(state, op))


def _time(state: State, n: int, src: str = "") -> State:
    if n > 0 and state.pos.phase == "combat" and state.level == LAST_LEVEL:
        # "When you need to lose or spend Time during a Level 4 Combat Phase — lose an equal amount of Small Effort"
        return _lose(state, Op("lose", res="se", n=n), src)
    out = spend_time(state, n, combat=state.pos.phase == "combat")
    return die(state) if out is None else out


def _condition(state: State, op: Op) -> State:
    if op.when == "next":
        if any(c.id == op.id for c in state.next_conditions):
            return state
        return replace(state, next_conditions=(*state.next_conditions, Cond(op.id, op.n)))
    for i, c in enumerate(state.conditions):
        if c.id == op.id:
            if op.n and c.tokens:
                conds = list(state.conditions)
                conds[i] = Cond(c.id, c.tokens + op.n)
                return replace(state, conditions=tuple(conds))
            return state
    return replace(state, conditions=(*state.conditions, Cond(op.id, op.n)))


def _cure(state: State, op: Op, src: str) -> State:
    if op.id:
        return replace(state, conditions=tuple(c for c in state.conditions if c.id != op.id))
    ids = [c.id for c in state.conditions]
    if len(ids) <= 1:
        return replace(state, conditions=())
    conditions = tables(state).conditions
    names = tuple(conditions[c].name for c in ids)
    return state.push(Choose("cure", tuple((Op("cure", id=c),) for c in ids), names, src))


def _weapon_up(state: State, op: Op, src: str) -> State:
    if op.id:
        return lay_weapon(state, op.id) if op.id != state.weapon else state
    weapons = tables(state).weapons
    ups = weapons[state.weapon].upgrades
    if not ups:
        return state
    if len(ups) == 1:
        return lay_weapon(state, ups[0].to)
    names = tuple(weapons[u.to].name for u in ups)
    return state.push(Choose("weapon", tuple((Op("weapon_up", id=u.to),) for u in ups), names, src))


def _roll(state: State, op: Op, src: str) -> State:
    if op.id:
        subs = [s.then for s in static_ops(state, "instead") if s.id == op.id and can_pay(state, s.then)]
        if subs:
            plain = attrs.evolve(op, id="")
            labels = ("roll", *(" + ".join(f"spend {o.n} {o.res}" for o in s) for s in subs))
            return state.push(Choose("instead", ((plain,), *subs), labels, src))
    return state.push(EffectRoll(op.n, op.then, op.alt, src))


def _choose(state: State, op: Op, src: str) -> State:
    branches = [b for b in op.options if can_pay(state, b)]
    if not branches:
        return state
    if len(branches) == 1:
        return run_ops(state, branches[0], src)
    labels = tuple(", ".join(f"{o.op} {o.n} {o.res}".strip() if o.res else o.op for o in b) for b in branches)
    return state.push(Choose("branch", tuple(branches), labels, src))


# ----- each op's run, text and footprint ----------------------------------------------------------------------------

#: What each resource abbreviation of the render and the rule texts means.
RESOURCE_NAMES = {
    "se": "Small Effort",
    "me": "Medium Effort",
    "le": "Large Effort",
    "cunning": "Cunning",
    "food": "Food",
    "wood": "Wood",
    "metal": "Metal",
    "treasure": "Treasure",
    "time": "Time",
    "armor": "Armor",
    "health": "Health",
}


def amount_text(op: Op) -> str:
    """The op's amount in words: "2 Small Effort", "1 Food times the Level"."""
    return f"{op.n} {RESOURCE_NAMES.get(op.res, op.res)}" + (" times the Level" if op.scale == "level" else "")


def _else(op: Op) -> str:
    return f" (if you cannot: {ops_text(op.alt)})" if op.alt else ""


def op_text(op: Op) -> str:
    """One effect of the effect language in words (its entry's ``text``; an op no entry declares: its name)."""
    d = OPS.get(op.op)
    return op.op.replace("_", " ") if d is None else d.text(op)


def ops_text(ops: Sequence[Op]) -> str:
    """A list of effects in words, or "nothing"."""
    return ", ".join(op_text(o) for o in ops) or "nothing"


def _unchanged(state: State, op: Op, src: str) -> State:
    """A static op changes rules while its card is in play, not the state."""
    return state


def _gain(state: State, op: Op, src: str) -> State:
    return gain(state, RES[op.res], amount(state, op))


def _spend(state: State, op: Op, src: str) -> State:
    need = (attrs.evolve(op, n=amount(state, op), scale=""),)
    return pay(state, need) if can_pay(state, need) else _lose(state, attrs.evolve(op, op="lose"), src)


def _run_lose(state: State, op: Op, src: str) -> State:
    return _lose(state, op, src)


def _reduce(state: State, op: Op, src: str) -> State:
    r = RES[op.res]
    if state.amount(r) < op.n:
        return run_ops(state, op.alt, src)
    state = state.with_res(r, state.res[r].lose(op.n))
    return gain(state, RES[op.to], op.m)


def _steal(state: State, op: Op, src: str) -> State:
    r = RES[op.res]
    if state.amount(r) < op.n:
        return run_ops(state, op.alt, src)
    state = state.with_res(r, state.res[r].lose(op.n))
    c = state.combat
    if c is not None:
        stolen = list(c.stolen)
        stolen[r] += op.n
        state = replace(state, combat=replace(c, stolen=tuple(stolen)))
    return state


def _run_time(state: State, op: Op, src: str) -> State:
    return _time(state, op.n, src)


def _on_battle(change: Callable[[State, Combat, Op], Combat]) -> Callable[[State, Op, str], State]:
    """The run of an op that changes the battle alone (see :func:`combat_after`).

    "reset the monster's Armor and Health Values to 0 following a victory": a defeated monster's tracker stays at
    0 (a Response resolved after the kill, e.g. Paranoid's +2 Health, finds no monster to change).
    """

    def run(state: State, op: Op, src: str) -> State:
        """Change the battle, when there is one and its monster still stands."""
        c = state.combat
        if c is None or (c.started and c.health <= 0):
            return state
        after = change(state, c, op)
        return state if after is c else replace(state, combat=after)

    return run


def _wound(state: State, c: Combat, op: Op) -> Combat:
    if c.armor > 0 and not op.pierce:
        return c
    return replace(c, health=max(0, c.health - op.n))


def _power(state: State, c: Combat, op: Op) -> Combat:
    if op.id and tables(state).weapons[state.weapon].tier != op.id:
        return c  # "certain in-game effects will trigger based on which type of Weapon you have equipped"
    return replace(c, power=max(0, c.power + op.n))


def _defend(state: State, c: Combat, op: Op) -> Combat:
    return replace(c, defend=True)


def _skip_turn(state: State, c: Combat, op: Op) -> Combat:
    return replace(c, skip=True)


def _monster_gain(state: State, c: Combat, op: Op) -> Combat:
    if op.res == "armor":
        return replace(c, armor=c.armor + op.n, max_armor=c.max_armor + op.n)
    return replace(c, health=c.health + op.n, max_health=c.max_health + op.n)


def _heal(state: State, c: Combat, op: Op) -> Combat:
    return replace(c, health=min(c.max_health, c.health + op.n))


def _break_armor(state: State, op: Op, src: str) -> State:
    c = state.combat
    if c is None or (c.started and c.health <= 0):  # as :func:`_on_battle`
        return state
    from unbroken.rules.triggers import break_armor  # at run time: the triggers run effect lists

    return break_armor(state, op.n)


def _shift_roll(state: State, op: Op, src: str) -> State:
    c = state.combat
    return state if c is None else replace(state, combat=replace(c, roll=max(1, min(6, c.roll + op.n))))


def _reroll(state: State, op: Op, src: str) -> State:
    if state.combat is None:
        return state
    from unbroken.rules.combat import CombatRoll  # at run time: the battle runs effect lists

    return state.push(CombatRoll(reroll=True))


def _extra_attack(state: State, op: Op, src: str) -> State:
    c = state.combat
    if c is None or not c.started:
        return state
    from unbroken.rules.combat import ExtraAttack  # at run time: the battle runs effect lists

    return state.push(ExtraAttack())


def _extra_turn(state: State, op: Op, src: str) -> State:
    c = state.combat
    if c is None or not c.started:
        return state
    from unbroken.rules.combat import TurnStart  # at run time: the battle runs effect lists

    return state.push(TurnStart(extra=True))


def _run_condition(state: State, op: Op, src: str) -> State:
    return _condition(state, op)


def _run_weapon_down(state: State, op: Op, src: str) -> State:
    return weapon_down(state, op.perm)


def _tick(state: State, op: Op, src: str) -> State:
    kind, _, cid = src.partition(":")
    if kind != "condition":
        return state
    conds = []
    for cd in state.conditions:
        if cd.id == cid and cd.tokens > 0:
            if cd.tokens > 1:
                conds.append(Cond(cid, cd.tokens - 1))
            continue
        conds.append(cd)
    return replace(state, conditions=tuple(conds))


def _reveal(state: State, op: Op, src: str) -> State:
    return replace(state, reveal_bonus=state.reveal_bonus + op.n)


def _commit(state: State, op: Op, src: str) -> State:
    return replace(state, committed=True)


def _skill(state: State, op: Op, src: str) -> State:
    return gain_skill(state, op.n)


def _scout(state: State, op: Op, src: str) -> State:
    return state.push(MonsterReveal()) if not state.monster else state


def _idle_wound(state: State, op: Op) -> bool:
    c = state.combat
    return not (c is not None and (c.armor <= 0 or op.pierce))


def _idle_break_armor(state: State, op: Op) -> bool:
    c = state.combat
    return not (c is not None and c.armor > 0)


def _idle_cure(state: State, op: Op) -> bool:
    return bool(op.id and all(c.id != op.id for c in state.conditions)) or not state.conditions


def _idle_scout(state: State, op: Op) -> bool:
    return bool(state.monster)


def _idle_weapon_up(state: State, op: Op) -> bool:
    return not weapon(state).upgrades


def _condition_text(op: Op) -> str:
    turns = f" for {op.n} turns" if op.n else ""
    return f"you get the Condition {op.id}{turns} ({'now' if op.when == 'now' else 'from the next Level'})"


def _roll_text(op: Op) -> str:
    other = f", otherwise {ops_text(op.alt)}" if op.alt else ""
    return f"roll the die: on {op.n} or less {ops_text(op.then)}{other}"


@attrs.frozen
class OpDef:
    """One op of the effect language, declared once (see :data:`OPS`).

    Attributes:
        required: the fields a card must give it (besides ``op``).
        optional: the fields a card may give it.
        run: what it does now: ``run(state, op, src)`` (``src`` names the card, ``kind:id``); it may push frames
            that run before the rest of its effect list.
        text: its rule text: ``text(op)``.
        cells: the footprint cells it touches (``res``: the op's resource, Effort as one cell; ``*``: anything, so
            it never commutes with another ability; Time also touches Effort, which pays it on Level 4).
        adds: it only adds to its cells (a capped gain, a raised monster value, a DEFEND, a wound bonus, a new
            condition), so two such ops on one cell give the same result in either order (with a non-negative
            amount).
        battle: for an op that changes the battle alone, that change: ``battle(state, combat, op)`` (see
            :func:`combat_after`); ``None`` otherwise.
        idle: for an op that may do nothing now, whether it would: ``idle(state, op)`` (an action whose effects
            would all do nothing is not offered); ``None``: it always does something.
        positive: a card must give it a positive amount ``n``.
        where: ``effect`` (it happens: every kind of ability but ``static``), ``static`` (it changes rules while
            its card is in play: only in a ``static`` ability) or ``both``.
    """

    required: frozenset[str]
    optional: frozenset[str]
    run: Callable[[State, Op, str], State]
    text: Callable[[Op], str]
    cells: tuple[str, ...] = ("*",)
    adds: bool = False
    battle: Callable[[State, Combat, Op], Combat] | None = None
    idle: Callable[[State, Op], bool] | None = None
    positive: bool = False
    where: Literal["effect", "static", "both"] = "effect"

    @property
    def fields(self) -> tuple[frozenset[str], frozenset[str]]:
        """The required and the optional fields."""
        return self.required, self.optional


_R, _N = "res", "n"
_NONE: frozenset[str] = frozenset()


def _f(*names: str) -> frozenset[str]:
    return frozenset(names)


#: The effect language: every op by name, with its fields, run, text and footprint (see :class:`OpDef`).
OPS: Mapping[str, OpDef] = MappingProxyType(
    {
        "gain": OpDef(
            _f(_R, _N),
            _f("scale"),
            _gain,
            lambda o: f"gain {amount_text(o)}{_else(o)}",
            ("res",),
            adds=True,
            positive=True,
        ),
        "spend": OpDef(
            _f(_R, _N), _f("scale"), _spend, lambda o: f"spend {amount_text(o)}{_else(o)}", ("res",), positive=True
        ),
        "lose": OpDef(
            _f(_R, _N),
            _f("alt", "scale"),
            _run_lose,
            lambda o: f"lose {amount_text(o)}{_else(o)}",
            ("res",),
            positive=True,
        ),
        "reduce": OpDef(
            _f(_R, _N, "to", "m"),
            _f("alt"),
            _reduce,
            lambda o: f"lose {amount_text(o)} and gain {o.m} {RESOURCE_NAMES.get(o.to, o.to)}{_else(o)}",
            positive=True,
        ),
        "steal": OpDef(
            _f(_R, _N),
            _f("alt"),
            _steal,
            lambda o: f"the monster steals {amount_text(o)}, returned with its Rewards{_else(o)}",
            positive=True,
        ),
        "time": OpDef(_f(_N), _NONE, _run_time, lambda o: f"lose {o.n} Time", ("time", "effort")),
        "wound": OpDef(
            _f(_N),
            _f("pierce"),
            _on_battle(_wound),
            lambda o: f"inflict {o.n} Wounds" + (" ignoring Armor" if o.pierce else ""),
            ("monster",),
            battle=_wound,
            idle=_idle_wound,
            positive=True,
        ),
        "break_armor": OpDef(
            _f(_N),
            _NONE,
            _break_armor,
            lambda o: f"break {o.n} Armor",
            ("monster",),
            idle=_idle_break_armor,
            positive=True,
        ),
        "power": OpDef(
            _f(_N),
            _f("id"),
            _on_battle(_power),
            lambda o: f"the attack inflicts {o.n} more" + (f" (with a {o.id} weapon)" if o.id else ""),
            ("power",),
            adds=True,
            battle=_power,
        ),
        "cap_wounds": OpDef(
            _f(_N), _NONE, _unchanged, lambda o: f"an attack inflicts at most {o.n} Wounds", ("power",), where="static"
        ),
        "defend": OpDef(
            _NONE,
            _NONE,
            _on_battle(_defend),
            lambda o: "DEFEND: the monster ignores your next weapon attack",
            ("defend",),
            adds=True,
            battle=_defend,
        ),
        "monster_gain": OpDef(
            _f(_R, _N),
            _NONE,
            _on_battle(_monster_gain),
            lambda o: f"the monster gains {amount_text(o)}",
            ("monster",),
            adds=True,
            battle=_monster_gain,
            positive=True,
        ),
        "heal": OpDef(
            _f(_N),
            _NONE,
            _on_battle(_heal),
            lambda o: f"the monster heals {o.n} Health",
            ("monster",),
            battle=_heal,
            positive=True,
        ),
        "condition": OpDef(_f("id", "when"), _f(_N), _run_condition, _condition_text, ("conditions",), adds=True),
        "cure": OpDef(
            _NONE,
            _f("id"),
            _cure,
            lambda o: f"discard the Condition {o.id}" if o.id else "discard one of your active Conditions",
            ("conditions",),
            idle=_idle_cure,
        ),
        "weapon_up": OpDef(
            _NONE,
            _NONE,
            _weapon_up,
            lambda o: "upgrade your weapon for free",
            idle=_idle_weapon_up,
        ),
        "weapon_down": OpDef(
            _NONE,
            _f("perm"),
            _run_weapon_down,
            lambda o: "your weapon drops back one step" + (" for good" if o.perm else ""),
        ),
        "shift_roll": OpDef(_f(_N), _NONE, _shift_roll, lambda o: f"change the monster's roll by {o.n:+d}", ("roll",)),
        "reroll": OpDef(_NONE, _NONE, _reroll, lambda o: "re-roll the monster's Combat Roll"),
        "ignore": OpDef(
            _f("id"),
            _NONE,
            _unchanged,
            lambda o: f"ignore the monster's {o.id.upper()} Combat Actions",
            where="static",
        ),
        "extra_attack": OpDef(_NONE, _NONE, _extra_attack, lambda o: "make another attack"),
        "extra_turn": OpDef(_NONE, _NONE, _extra_turn, lambda o: "take another turn"),
        "skip_turn": OpDef(_NONE, _NONE, _on_battle(_skip_turn), lambda o: "skip your next turn", battle=_skip_turn),
        "tick": OpDef(_NONE, _NONE, _tick, lambda o: "remove a token from the Condition", ("conditions",)),
        "roll": OpDef(_f(_N, "then"), _f("alt", "id"), _roll, _roll_text),
        "instead": OpDef(
            _f("id", "then"),
            _NONE,
            _unchanged,
            lambda o: f"pay {ops_text(o.then)} instead of the {o.id} cost",
            where="static",
        ),
        "choose": OpDef(
            _f("options"),
            _NONE,
            _choose,
            lambda o: "choose one: " + " / ".join(ops_text(b) for b in o.options),
        ),
        "reveal": OpDef(
            _f(_N), _NONE, _reveal, lambda o: f"reveal {o.n:+d} Encounter Cards when you explore", where="both"
        ),
        "commit": OpDef(_NONE, _NONE, _commit, lambda o: "commit to the next encounter"),
        "skill": OpDef(_f(_N), _NONE, _skill, lambda o: f"draw {o.n} Skill cards and keep one"),
        "scout": OpDef(_NONE, _NONE, _scout, lambda o: "reveal this Level's monster", idle=_idle_scout),
        "rest_bonus": OpDef(_f(_N), _NONE, _unchanged, lambda o: f"Rest gives {o.n} more Small Effort", where="static"),
        "surcharge": OpDef(
            _f(_R, _N), _NONE, _unchanged, lambda o: f"weapon attacks cost {amount_text(o)} more", where="static"
        ),
        "food_req": OpDef(
            _f(_N), _NONE, _unchanged, lambda o: f"your Food Requirement changes by {o.n:+d}", where="static"
        ),
    }
)


def run_op(state: State, op: Op, src: str, pending: Pending[Frame] | None = None) -> State:
    """Apply one op now (its entry's ``run``; it may push frames that run before the rest of its effect list).

    ``pending``: the stack to run it on, the calling frame's change of the stack (its pop, or the rest of its
    list): the same as ``run_op(replace(state, pending=pending), op, src)`` (no op reads the stack but to push
    onto it), with a loss of Effort, the commonest op of a monster's Combat Action, in one copy.
    """
    if op.op == "lose":
        return _lose(state, op, src, pending)
    if pending is not None:
        state = replace(state, pending=pending)
    return OPS[op.op].run(state, op, src)


def combat_after(state: State, c: Combat, op: Op) -> Combat | None:
    """The battle ``c`` after an op that changes nothing else (its entry's ``battle``: Wounds, Attack Power, a
    DEFEND, a skipped turn, raised or healed monster values; ``c`` itself when it does nothing, as on a defeated
    monster, see :func:`_on_battle`), ``None`` for any other op."""
    change = OPS[op.op].battle
    if change is None:
        return None
    if c.started and c.health <= 0:
        return c
    return change(state, c, op)
