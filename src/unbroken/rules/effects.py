"""The effect-language interpreter: one op at a time, pushing frames when a decision or a roll is needed.

Rulebook clauses implemented here (each op's docstring in ``docs/rules/unbroken.md``): bracketed alternatives
("If a monster effect cannot be applied ... apply the alternative effect (listed in brackets) instead. If there's
no alternative effect, nothing happens."), losing Effort you do not have loses the game, monster gains raise the
current and maximum values while heals stop at the maximum, rolls stay within 1..6, DEFEND does not stack,
conditions now or for the next Level (extending timed ones), cures, and permanent or temporary downgrades.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

import attrs

from tabletop_core.fastcopy import replace
from tabletop_core.flow import Automatic, Pending
from unbroken.actions import Action, Pick
from unbroken.content.schema import Op
from unbroken.rules import combat, triggers
from unbroken.rules.chance import DieRoll
from unbroken.rules.payment import PICK, Cost, Decide, upto
from unbroken.rules.resources import Res, can_pay, gain, loss_plans, loss_ways, no_time_tracker, pay, spend_time
from unbroken.rules.skills import gain_skill
from unbroken.rules.tables import tables
from unbroken.state import LAST_LEVEL, RES, TIME, Combat, Cond, State, track_at

if TYPE_CHECKING:
    from unbroken.rules.flow import Frame

__all__ = [
    "EFFORT",
    "Choose",
    "EffectRoll",
    "Exec",
    "break_armor",
    "combat_after",
    "die",
    "effort_ways",
    "gained",
    "new_combat",
    "plain_loss",
    "run_op",
    "run_ops",
    "weapon_down",
]

EFFORT = frozenset({"se", "me", "le"})
EFFORT_NAMES = ("Small Effort", "Medium Effort", "Large Effort")


@attrs.frozen
class Exec(Automatic[State]):
    """Frame: run ``ops`` in order, one at a time (``src`` names the card, e.g. ``condition:paralyzed``)."""

    TAG: ClassVar[str] = "unbroken.exec"
    ops: tuple[Op, ...]
    src: str = ""

    def resolve(self, state: State) -> State:
        """Run the first op; the rest wait on the stack (under whatever the op pushes)."""
        rest = self.ops[1:]
        pending = state.pending.replace_top(Exec(rest, self.src)) if rest else state.pending.pop()
        return run_op(state, self.ops[0], self.src, pending)


@attrs.frozen
class Choose(Decide):
    """Frame: a decision among branches of ops (``purpose`` names what is chosen: ``effort``, ``cure``,
    ``weapon``, ``instead``, ``branch``); a branch's ``spend`` ops are its cost."""

    TAG: ClassVar[str] = "unbroken.choose"
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


@attrs.frozen
class EffectRoll(DieRoll):
    """Chance frame: an effect's roll of the die: at most ``n`` runs ``then``, else ``alt``."""

    TAG: ClassVar[str] = "unbroken.effect_roll"
    n: int
    then: tuple[Op, ...]
    alt: tuple[Op, ...] = ()
    src: str = ""

    def face_up(self, state: State, face: int) -> State:
        """Run the branch the face selects."""
        return run_ops(state, self.then if face <= self.n else self.alt, self.src)


def die(state: State, **changes: Any) -> State:
    """The player could not pay Effort: the game is lost (a finished game keeps no pending frames); ``changes``
    to other fields in the same copy."""
    return replace(state, outcome=-1, pending=Pending(), **changes)


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


def _amount(state: State, op: Op) -> int:
    return op.n * (state.level if op.scale == "level" else 1)


def _gains(state: State, ops: tuple[Op, ...]) -> State:
    """``gain`` ops one after the other (each as :func:`~unbroken.rules.resources.gain`), in one copy."""
    res = gained(state, state.res, ops)
    return replace(state, res=res) if res != state.res else state


def gained(state: State, res: Res, ops: tuple[Op, ...]) -> Res:
    """The tracks ``res`` after the ``gain`` ops one after the other (each as
    :func:`~unbroken.rules.resources.gain`; amounts at the state's Level)."""
    out = list(res)
    for op in ops:
        n = _amount(state, op)
        if n > 0:
            r = RES[op.res]
            if r == TIME and no_time_tracker(state):
                continue
            t = out[r]
            out[r] = track_at(t, r, min(t.high, t.value + n))
    return tuple(out)


def _combat(state: State, **kw: Any) -> State:
    assert state.combat is not None
    return replace(state, combat=replace(state.combat, **kw))


def _lose(state: State, op: Op, src: str, pending: Pending[Frame] | None = None) -> State:
    """Lose a resource; if it cannot be applied, the bracketed alternative (Effort with none: death).

    ``pending``: the stack to run on (the calling frame's change of it; see :func:`run_op`).
    """
    r, n = RES[op.res], _amount(state, op)
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


def plain_loss(state: State, op: Op) -> Res | None:
    """The tracks after the op when it is a loss of Effort that leaves no choice and can be paid (it then pushes
    no frame and cannot end the game), else ``None``."""
    ways = effort_ways(state, op)
    return ways[0] if ways is not None and len(ways) == 1 else None


def effort_ways(state: State, op: Op) -> list[Res] | None:
    """The tracks after each distinct way of paying the op when it is a loss of Effort (see
    :func:`~unbroken.rules.resources.loss_ways`: none when it cannot be paid), else ``None``."""
    if op.op != "lose" or op.res not in EFFORT:
        return None
    return loss_ways(state, RES[op.res], _amount(state, op))


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


def lay_weapon(state: State, weapon: str) -> State:
    """Lay ``weapon``'s sheet on top ("When you Craft a new Weapon, lay the new Weapon Sheet on top of the old
    sheet"); a sheet set aside is that same sheet, taken back (there is never a second sheet of one weapon)."""
    return replace(state, weapons=(*state.weapons, weapon), aside=tuple(w for w in state.aside if w != weapon))


def restored_weapons(state: State) -> tuple[str, ...]:
    """The weapon stack once temporary downgrades end: the sheets set aside return in the reverse order they left
    (the last set aside lies just above the current weapon), each only on the weapon it upgrades; a sheet that no
    longer fits (another upgrade was crafted meanwhile) goes back to the Weapon Deck."""
    stack = list(state.weapons)
    for w in reversed(state.aside):
        if w not in stack and any(u.to == w for u in tables(state).weapons[stack[-1]].upgrades):
            stack.append(w)
    return tuple(stack)


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


def weapon_down(state: State, perm: bool) -> State:
    """Downgrade the weapon: the previous one becomes current; Bare Hands is never lost."""
    if len(state.weapons) <= 1:
        return state
    top = state.weapon
    aside = state.aside if perm else (*state.aside, top)
    return replace(state, weapons=state.weapons[:-1], aside=aside)


def _roll(state: State, op: Op, src: str) -> State:
    if op.id:
        subs = [s.then for s in triggers.static_ops(state, "instead") if s.id == op.id and can_pay(state, s.then)]
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


def run_op(state: State, op: Op, src: str, pending: Pending[Frame] | None = None) -> State:
    """Apply one op now (it may push frames that run before the rest of its effect list).

    ``pending``: the stack to run it on, the calling frame's change of the stack (its pop, or the rest of its
    list): the same as ``run_op(replace(state, pending=pending), op, src)`` (no op reads the stack but to push
    onto it), with a loss of Effort, the commonest op of a monster's Combat Action, in one copy.
    """
    if op.op == "lose":
        return _lose(state, op, src, pending)
    if pending is not None:
        state = replace(state, pending=pending)
    name, c = op.op, state.combat
    if name == "gain":
        return gain(state, RES[op.res], _amount(state, op))
    if name == "spend":
        need = (attrs.evolve(op, n=_amount(state, op), scale=""),)
        return pay(state, need) if can_pay(state, need) else _lose(state, attrs.evolve(op, op="lose"), src)
    if name == "lose":
        return _lose(state, op, src)
    if name in ("reduce", "steal"):
        r = RES[op.res]
        if state.amount(r) < op.n:
            return run_ops(state, op.alt, src)
        state = state.with_res(r, state.res[r].lose(op.n))
        if name == "reduce":
            return gain(state, RES[op.to], op.m)
        if c is not None:
            stolen = list(c.stolen)
            stolen[r] += op.n
            state = _combat(state, stolen=tuple(stolen))
        return state
    if name == "time":
        return _time(state, op.n, src)
    if name in ("wound", "break_armor", "power", "defend", "monster_gain", "heal", "skip_turn"):
        # "reset the monster's Armor and Health Values to 0 following a victory": a defeated monster's tracker stays
        # at 0 (a Response resolved after the kill, e.g. Paranoid's +2 Health, finds no monster to change)
        return _monster_op(state, op) if c is not None and not (c.started and c.health <= 0) else state
    if name in ("shift_roll", "reroll"):
        if c is None:
            return state
        if name == "reroll":
            return state.push(combat.CombatRoll(reroll=True))
        return _combat(state, roll=max(1, min(6, c.roll + op.n)))
    if name == "condition":
        return _condition(state, op)
    if name == "cure":
        return _cure(state, op, src)
    if name == "weapon_up":
        return _weapon_up(state, op, src)
    if name == "weapon_down":
        return weapon_down(state, op.perm)
    if name == "extra_attack":
        return state.push(combat.ExtraAttack()) if c is not None and c.started else state
    if name == "extra_turn":
        return state.push(combat.TurnStart(extra=True)) if c is not None and c.started else state
    if name == "tick":
        return _tick(state, src)
    if name == "roll":
        return _roll(state, op, src)
    if name == "choose":
        return _choose(state, op, src)
    if name == "reveal":
        return replace(state, reveal_bonus=state.reveal_bonus + op.n)
    if name == "commit":
        return replace(state, committed=True)
    if name == "skill":
        return gain_skill(state, op.n)
    if name == "scout":
        return state.push(combat.MonsterReveal()) if not state.monster else state
    return (
        state  # static ops (ignore, instead, rest_bonus, surcharge, food_req, cap_wounds) change rules, not the state
    )


def _monster_op(state: State, op: Op) -> State:
    c = state.combat
    assert c is not None
    if op.op == "break_armor":
        return break_armor(state, op.n)
    after = combat_after(state, c, op)
    assert after is not None  # every other monster op changes the battle alone
    return state if after is c else replace(state, combat=after)


#: The ops that change the battle alone (see :func:`combat_after`).
_MONSTER_OPS = frozenset(("wound", "power", "defend", "skip_turn", "monster_gain", "heal"))


def combat_after(state: State, c: Combat, op: Op) -> Combat | None:
    """The battle ``c`` after a monster op that changes nothing else (Wounds, Attack Power, a DEFEND, a skipped
    turn, raised or healed monster values; ``c`` itself when it does nothing, as on a defeated monster, see
    :func:`run_op`), ``None`` for any other op."""
    name = op.op
    if c.started and c.health <= 0 and name in _MONSTER_OPS:
        return c
    if name == "wound":
        if c.armor > 0 and not op.pierce:
            return c
        return replace(c, health=max(0, c.health - op.n))
    if name == "power":
        if op.id and tables(state).weapons[state.weapon].tier != op.id:
            return c  # "certain in-game effects will trigger based on which type of Weapon you have equipped"
        return replace(c, power=max(0, c.power + op.n))
    if name == "defend":
        return replace(c, defend=True)
    if name == "skip_turn":
        return replace(c, skip=True)
    if name == "monster_gain":
        if op.res == "armor":
            return replace(c, armor=c.armor + op.n, max_armor=c.max_armor + op.n)
        return replace(c, health=c.health + op.n, max_health=c.max_health + op.n)
    if name == "heal":
        return replace(c, health=min(c.max_health, c.health + op.n))
    return None


def break_armor(state: State, n: int, under: tuple[Frame, ...] | None = None, **changes: Any) -> State:
    """Break up to ``n`` Armor (the ``armor_broken`` trigger fires when some breaks), on the stack ``under``
    (default: the state's) and with ``changes`` to other fields (none that it reads) in the same copy."""
    c = state.combat
    assert c is not None
    broken = min(n, c.armor)
    if broken:
        return triggers.push_fire(
            state, "armor_broken", under=under, combat=replace(c, armor=c.armor - broken), **changes
        )
    if under is not None:
        changes["pending"] = Pending(under)
    return replace(state, **changes) if changes else state


def _tick(state: State, src: str) -> State:
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


def new_combat(state: State) -> Combat:
    """The Monster Tracker set from the revealed monster's sheet."""
    m = tables(state).monsters[state.monster]
    return Combat(m.id, m.armor, m.armor, m.health, m.health)
