"""The Combat Phase: Ambush, Trickery, Battle (player and monster turns), Rewards, Hunger and the end of a Level.

Rulebook clauses are quoted on each function; the coverage table is ``docs/rules/unbroken.md``. The frames of the
phase (its steps, the turns, the Combat Roll, an attack landing) are defined here with the rules they run.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any, ClassVar

import attrs

from tabletop_core.fastcopy import accelerate, replace
from tabletop_core.flow import Automatic, Pending
from unbroken.actions import (
    DOWNGRADE,
    FIGHT,
    PASS,
    SKIP,
    TRICK,
    Act,
    Action,
    Attack,
    Craft,
    Die,
    Eat,
    Use,
)
from unbroken.content.schema import Monster, Op, Weapon
from unbroken.limits import MAX_REROLLS
from unbroken.rules import listing
from unbroken.rules.cards import activates, ignored, static_ops
from unbroken.rules.chance import DieRoll
from unbroken.rules.effects import Exec, combat_after, effort_ways, run_op, run_ops
from unbroken.rules.payment import ACT, ATTACK, EAT, Cost, Decide, one, upto
from unbroken.rules.resources import can_pay, gain, paid
from unbroken.rules.skills import gain_skill
from unbroken.rules.tables import pack_tables, tables
from unbroken.rules.triggers import Fire, Trig, break_armor, fire, push_fire, stages
from unbroken.rules.verbs import MonsterReveal, die, new_combat, restored_weapons, weapon, weapon_down
from unbroken.state import (
    FOOD,
    FRAMES,
    LAST_LEVEL,
    LEVEL_TIME,
    RES,
    RESOURCES,
    SE,
    TIME,
    Combat,
    State,
    no_resources,
)

if TYPE_CHECKING:
    from unbroken.rules.flow import Frame

__all__ = [
    "AmbushStep",
    "AttackLands",
    "BattleStep",
    "CombatRoll",
    "EndOfCombat",
    "ExtraAttack",
    "HungerStep",
    "MonsterAct",
    "MonsterTurn",
    "PlayerTurn",
    "RewardsStep",
    "ToHunger",
    "TrickeryStep",
    "TurnStart",
    "attack_ok",
    "defeated",
    "end_of_combat",
    "food_requirement",
    "hunger_actions",
    "monster",
    "turn_actions",
]

#: "reveal the top 2 cards from the Skill Deck, keeping 1".
SKILL_DRAW = 2


def monster(state: State) -> Monster:
    """The monster on the Monster Tracker (or revealed by scouting)."""
    mid = state.combat.monster if state.combat is not None else state.monster
    return tables(state).monsters[mid]


# ----- revealing the monster, the Ambush and Trickery Steps -----------------------------------------------------


def set_tracker(state: State, **changes: Any) -> State:
    """Set the Monster Tracker and "Reset the token on your Time Tracker to ... the next Level" (Level 4: remove it)
    (``changes`` to fields neither reads, in the same copy)."""
    time = LEVEL_TIME[state.level] if state.level < LAST_LEVEL else 0
    t = state.res[TIME]
    res = state.res_at(TIME, max(t.low, min(t.high, time)))  # ``Track.set``, the shared track where there is one
    return replace(state, res=res, combat=new_combat(state), **changes)


def ambush_step(state: State) -> State:
    """Step 1A: reveal the monster if needed, set the trackers, apply the Ambush Effect, go to the Battle Step.

    "If the monster does not have an Ambush Effect listed — no Ambush can occur!": against such a monster the
    Combat Phase goes on as it does without an Ambush, to the Trickery Step (which sets the trackers), so a
    payable Trickery Cost is still offered.
    """
    if not state.monster:
        return state.push(MonsterReveal())
    ambush = monster(state).ambush
    if ambush is None:
        return state.at("combat", "trickery")
    state = set_tracker(state).at("combat", "battle")
    return run_ops(state, ambush, f"monster:{state.monster}") if ambush else state


@FRAMES.register("unbroken.ambush_step", pending=False)
@attrs.frozen
class AmbushStep(Automatic[State]):
    """Step frame of the Ambush Step (see :func:`ambush_step`)."""

    def resolve(self, state: State) -> State:
        """Reveal, set the trackers, apply the Ambush Effect."""
        return ambush_step(state)


def trickery_actions(state: State) -> list[Action]:
    """Fight, or trick the monster (only when it has a Trickery Cost you can pay)."""
    return [ACT[FIGHT], ACT[TRICK]]


def apply_trickery(state: State, action: Action) -> State:
    """Trick ("proceed to the Hunger Step. You do not receive any Rewards") or continue to the Battle Step."""
    assert isinstance(action, Act)
    if action.verb == TRICK:
        trick = monster(state).trickery
        assert trick is not None
        return state.at("combat", "hunger", res=paid(state, trick), large_first=False, tricked=True)
    return state.at("combat", "battle")


def trickery(state: State, **changes: Any) -> State | None:
    """The Trickery Step's own part: reveal the monster, set the trackers; with no payable Trickery Cost, on to
    the Battle Step, started at once (see :func:`start_battle`). ``None`` when the decision waits.

    ``changes`` (the move to this step, from the Decision Step's fight) go into the first copy; then what the
    driver would resolve between (the step frame again: nothing else is pending at a step's own frame, and the
    end checks fire neither before the battle starts nor at the Health a monster starts with) follows in it.
    """
    if not state.monster:
        return state.push(MonsterReveal(), **changes)
    moved = state.combat is None
    if moved:
        state, changes = set_tracker(state, **changes), {}
    trick = monster(state).trickery
    if trick is not None and can_pay(state, trick) and state.level < LAST_LEVEL:
        return replace(state, **changes) if changes else state if moved else None
    return start_battle(state, pos=state.position("combat", "battle"), **changes)


@FRAMES.register("unbroken.trickery_step", slot=25)
@attrs.frozen
class TrickeryStep(Decide):
    """Step frame of the Trickery Step: reveal, set the trackers; then trick or fight, if the Trickery Cost can
    be paid (otherwise on to the Battle Step)."""

    in_id_order: ClassVar[bool] = True

    def auto(self, state: State) -> State | None:
        """Reveal and set the trackers; no decision without a payable Trickery Cost."""
        return trickery(state)

    def options(self, state: State) -> list[Action]:
        """See :func:`trickery_actions`."""
        return trickery_actions(state)

    def cost(self, state: State, action: Action) -> Cost | None:
        """Tricking pays the Trickery Cost."""
        assert isinstance(action, Act)
        trick = monster(state).trickery if action.verb == TRICK else None
        return (trick, None) if trick is not None else None

    def decide(self, state: State, action: Action) -> State:
        """See :func:`apply_trickery`."""
        return apply_trickery(state, action)


# ----- the Battle Step: turns, attacks, the Combat Roll -------------------------------------------------------------


def start_battle(state: State, **changes: Any) -> State:
    """Battle Step: the monster acts first on Hard; the ``battle_start`` Responses fire before the first turn.

    With no ``battle_start`` Fire frame to stack (see :func:`~unbroken.rules.triggers.push_fire`), the first turn
    is the frame the driver resolves next (the end checks pass a monster with Health left): it begins in this copy.
    ``changes`` to other fields (none that it reads) go in the same copy.
    """
    assert state.combat is not None
    started = replace(state.combat, started=True)
    hard = state.options.difficulty == "hard"
    if started.health > 0 and not activates(state, "battle_start"):
        frames = state.pending.frames
        if hard:  # as ``monster_turn``
            return replace(state, pending=Pending((*frames, *_MONSTER_TURN)), combat=_no_rerolls(started), **changes)
        return TurnStart().begin(state, frames, started, **changes)
    first: MonsterTurn | TurnStart = MonsterTurn() if hard else TurnStart()
    return push_fire(state, "battle_start", first, combat=started, **changes)


@FRAMES.register("unbroken.battle_step", pending=False)
@attrs.frozen
class BattleStep(Automatic[State]):
    """Step frame of the Battle Step: the battle starts, then turns follow."""

    def resolve(self, state: State) -> State:
        """Start the battle, or begin a player turn."""
        assert state.combat is not None
        if not state.combat.started:
            return start_battle(state)
        return state.push(TurnStart())


def defeated(state: State) -> State | None:
    """The end check of the battle: "If the token reaches 0 — you have defeated the monster!"

    The effect list that dealt the blow finishes first (its remaining ops are part of it).
    """
    c = state.combat
    if c is None or not c.started or c.health > 0 or state.pos.step != "battle":
        return None
    if isinstance(state.pending.top, Exec):
        return None
    return victory(state)


def surcharge(state: State) -> list[int]:
    """Extra resources a weapon attack costs ("Some monsters force you to spend additional resources")."""
    extra = no_resources()
    for o in static_ops(state, "surcharge"):
        extra[RES[o.res]] += o.n
    return extra


def attack_cost(state: State, i: int) -> Cost:
    """What weapon attack ``i`` costs, with any surcharge."""
    return weapon(state).attacks[i].cost, surcharge(state)


def attack_ok(state: State, i: int) -> bool:
    """Whether weapon attack ``i`` can be made: Armor-Breaking only while Armor remains; Wounding only at 0 Armor
    (unless the attack pierces); the cost plus any surcharge must be payable."""
    c = state.combat
    attacks = weapon(state).attacks
    if c is None or i >= len(attacks):
        return False
    a = attacks[i]
    if a.kind == "break" and c.armor <= 0:
        return False
    if a.kind == "wound" and c.armor > 0 and not a.pierce:
        return False
    return can_pay(state, a.cost, surcharge(state))


def attack(state: State, i: int, pending: Pending[Frame] | None = None) -> State:
    """Attack with the weapon: pay, then (unless the monster DEFENDs) break Armor or inflict Wounds.

    "DEFEND actions allow monsters to ignore your next attack. This applies to attacks made with Weapons only".
    A Wounding attack fires the ``attack`` Responses, then its Passives (e.g. a Wound cap), then lands.
    ``pending``: the stack the turn leaves (replaced in the payment's copy; nothing before reads it).
    """
    a = weapon(state).attacks[i]
    changes: dict[str, Any] = {"res": paid(state, a.cost, surcharge(state)), "large_first": False}
    c = state.combat
    assert c is not None
    if c.defend:
        return replace(state, combat=replace(c, defend=False), **changes, **_stack(pending))
    under = None if pending is None else pending.frames  # the frames below push onto the turn's stack
    if a.kind == "break":
        # ``run_ops`` of the one op (the game goes on at a decision), in the payment's copy
        return break_armor(state, a.power, under, **changes)
    return push_fire(state, "attack", AttackLands(a.pierce), under=under, combat=replace(c, power=a.power), **changes)


def _stack(pending: Pending[Frame] | None) -> dict[str, Pending[Frame]]:
    """The change of the pending stack to ``pending`` (none when ``None``)."""
    return {} if pending is None else {"pending": pending}


def attack_land(state: State, pierce: bool) -> State:
    """The attack's final Attack Power moves the Health token toward 0."""
    c = state.combat
    assert c is not None
    if not (c.armor > 0 and not pierce):
        c = replace(c, health=max(0, c.health - wound_cap(state, c.power)), power=0)
    under = state.pending.frames[:-1]
    if c.health > 0 and under and type(under[-1]) is MonsterTurn:
        # The monster's turn is what the driver resolves next (the end checks between fire only at 0 Health): it
        # is stacked in this copy (see ``monster_turn``).
        return replace(state, pending=Pending((*under[:-1], *_MONSTER_TURN)), combat=_no_rerolls(c))
    return replace(state, pending=Pending(under), combat=c)


def wound_cap(state: State, power: int) -> int:
    """The Wounds an attack of final power ``power`` inflicts: a cap ("prevents it from suffering more than 4
    Wounds") bounds the final power whatever order the Passives resolved in."""
    return min([power, *(o.n for o in static_ops(state, "cap_wounds"))])


@FRAMES.register("unbroken.attack_lands", slot=18)
@accelerate
@attrs.frozen
class AttackLands(Automatic[State]):
    """Frame: a Wounding attack lands once its Responses and Passives are done (``pierce``: through Armor)."""

    pierce: bool = False

    def resolve(self, state: State) -> State:
        """See :func:`attack_land`."""
        return attack_land(state, self.pierce)


def turn_actions(state: State) -> list[Action]:
    """Player turn: attack with the weapon, take a General or Combat Action, or skip (from the turn's listing
    table)."""
    o, skills, w, level = state.options, state.skills, state.weapons[-1], state.level
    surcharges = static_ops(state, "surcharge")
    last = _last_turn[0]  # one read of one tuple (see ``travel._last_prep``)
    if last[0] is o and last[1] is skills and last[2] == w and last[3] == level and last[4] is surcharges:
        table: tuple[listing.Entry, ...] = last[5]
    else:
        table = _turn_table(o.pack, o.pack_sha256, o.character, skills, w, level, surcharges)
        _last_turn[0] = (o, skills, w, level, surcharges, table)
    return listing.listed(state, table)


#: The options, skills, weapon, Level and surcharges whose turn table was last asked for, and the table, as one
#: tuple stored and read whole (a one-entry memo by identity in front of ``_turn_table``'s; it holds the objects,
#: so their identities are not reused).
_last_turn: list[tuple[Any, ...]] = [(None, None, None, 0, None, ())]


@functools.lru_cache(maxsize=1024)
def _turn_table(  # noqa: PLR0917  # a memo's key: positional arguments make the cheapest lru_cache key
    pack: str,
    digest: str,
    character: str,
    skills: tuple[str, ...],
    weapon_id: str,
    level: int,
    surcharges: tuple[Op, ...],
) -> tuple[listing.Entry, ...]:
    """A player turn's options (see :func:`turn_actions`) as a listing table (a bounded memo of a pure function of
    content): the same options in the same order, each with its gate and cost."""
    out = [listing.entry(act, listing.ALWAYS, need) for act, need in listing.GENERAL_OPTIONS]
    out.append(listing.entry(ACT[DOWNGRADE], listing.DOWNGRADABLE))
    out.append(listing.entry(ACT[SKIP], listing.ALWAYS))
    out += listing.crafts(pack, digest, weapon_id, level, combat=True)
    extra = no_resources()  # ``surcharge``
    for o in surcharges:
        extra[RES[o.res]] += o.n
    for i, a in enumerate(pack_tables(pack, digest).weapons[weapon_id].attacks):
        # ``_attacks``: Armor-Breaking only while Armor remains, Wounding only at 0 Armor unless it pierces
        gate = (
            listing.ARMORED
            if a.kind == "break"
            else listing.UNARMORED
            if a.kind == "wound" and not a.pierce
            else listing.IN_BATTLE
        )
        out.append(listing.entry(one(ATTACK, Attack, i), gate, listing.priced(a.cost, level, extra)))
    out += listing.use_entries(pack, digest, character, skills, phase="combat", level=level)
    return tuple(out)


def _attacks(state: State, w: Weapon) -> list[Action]:
    """The weapon attacks that can be made now."""
    c = state.combat
    if c is None:
        return []
    extra: list[int] | None = None
    out: list[Action] = []
    for i, a in enumerate(w.attacks):
        if a.kind == "break" and c.armor <= 0:
            continue
        if a.kind == "wound" and c.armor > 0 and not a.pierce:
            continue
        if extra is None:
            extra = surcharge(state)
            if not any(extra):  # no surcharge: the cost alone (its need made once, see ``can_pay``)
                extra = []
        if can_pay(state, a.cost, extra):
            out.append(one(ATTACK, Attack, i))
    return out


def apply_turn(state: State, extra: bool, action: Action) -> State:
    """Apply the player's turn choice; the turn then passes to the monster (or back, after an extra turn).

    The turn's frame goes in the copy the choice makes first (nothing the choice reads is on the stack).
    """
    if not extra and isinstance(action, Act) and (action.verb == SKIP or action.verb in listing.GENERAL):
        # Nothing to resolve before the monster's turn (neither changes the battle or ends the game, so the end
        # checks would pass it by): its frames are stacked in this copy instead of a MonsterTurn frame.
        pending, combat = _monster_turn(state)
        if action.verb == SKIP:
            return replace(state, pending=pending, combat=combat)
        return listing.general_action(state, action.verb, pending=pending, combat=combat)
    pending = state.pending.pop() if extra else state.pending.replace_top(MonsterTurn())
    if isinstance(action, Attack):
        return attack(state, action.i, pending)
    if isinstance(action, Use):
        return listing.use(state, action.i, pending=pending)
    if isinstance(action, Act) and action.verb in listing.GENERAL:  # an extra turn's
        return listing.general_action(state, action.verb, pending=pending)
    after = replace(state, pending=pending)
    if isinstance(action, Craft):
        return listing.craft(after, action.i, combat=True)
    assert isinstance(action, Act)
    if action.verb == DOWNGRADE:
        return weapon_down(after, perm=True)
    return after  # SKIP


@FRAMES.register("unbroken.turn_start", slot=15)
@accelerate
@attrs.frozen
class TurnStart(Automatic[State]):
    """Frame: a player turn begins (``extra``: a turn granted by an effect); ``turn_start`` fires first."""

    extra: bool = False

    def resolve(self, state: State) -> State:
        """Clear the skip, put the turn under the ``turn_start`` trigger."""
        return self.begin(state, state.pending.frames[:-1])

    def begin(self, state: State, under: tuple[Frame, ...], c: Combat | None = None, **changes: Any) -> State:
        """:meth:`resolve` with the stack below this frame ``under`` and ``changes`` (to fields the turn's start
        does not read) made in the same copy; ``c``: the battle as it is by then, when not yet the state's (the
        same monster, so the same cards in play)."""
        c = state.combat if c is None else c
        assert c is not None
        combat = replace(c, skip=False) if c.skip else c
        turn = _PLAYER_TURNS[self.extra]  # the shared frame (a value: equal to a new one)
        return push_fire(state, "turn_start", turn, under=under, combat=combat, **changes)


@FRAMES.register("unbroken.player_turn", slot=16)
@accelerate
@attrs.frozen
class PlayerTurn(Decide):
    """Frame: the player's turn (``extra``: a granted turn, after which play returns to where it was)."""

    in_id_order: ClassVar[bool] = True
    extra: bool = False

    def auto(self, state: State) -> State | None:
        """A skipped turn passes."""
        c = state.combat
        assert c is not None
        if c.skip:
            return state.pop() if self.extra else state.replace_top(MonsterTurn())
        return None

    def options(self, state: State) -> list[Action]:
        """See :func:`turn_actions`."""
        return turn_actions(state)

    def cost(self, state: State, action: Action) -> Cost | None:
        """An attack's, a Craft's, a card action's or a General Action's cost."""
        if isinstance(action, Attack):
            return attack_cost(state, action.i)
        if isinstance(action, Craft):
            return listing.craft_cost(state, action.i)
        if isinstance(action, Use):
            return listing.use_cost(state, action.i)
        assert isinstance(action, Act)
        return listing.general_cost(action.verb)

    def decide(self, state: State, action: Action) -> State:
        """See :func:`apply_turn`."""
        return apply_turn(state, self.extra, action)


#: ``PlayerTurn(False)`` and ``PlayerTurn(True)``, made once (indexed by ``extra``).
_PLAYER_TURNS = (PlayerTurn(False), PlayerTurn(True))


def extra_attack_actions(state: State) -> list[Action]:
    """An extra attack granted by an effect: any legal weapon attack, or pass."""
    return [ACT[PASS], *_attacks(state, weapon(state))]


@FRAMES.register("unbroken.extra_attack", slot=17)
@attrs.frozen
class ExtraAttack(Decide):
    """Frame: an extra weapon attack granted by an effect (or pass); with no attack possible it passes."""

    in_id_order: ClassVar[bool] = True

    def auto(self, state: State) -> State | None:
        """Nothing to attack with: it passes."""
        return state.pop() if len(extra_attack_actions(state)) == 1 else None

    def options(self, state: State) -> list[Action]:
        """See :func:`extra_attack_actions`."""
        return extra_attack_actions(state)

    def cost(self, state: State, action: Action) -> Cost | None:
        """The attack's cost."""
        return attack_cost(state, action.i) if isinstance(action, Attack) else None

    def decide(self, state: State, action: Action) -> State:
        """Attack, or pass."""
        state = state.pop()
        return attack(state, action.i) if isinstance(action, Attack) else state


def monster_turn(state: State) -> State:
    """Monster turn: the Combat Roll (a chance node), its Responses (e.g. Dodge), then the Combat Action."""
    pending, combat = _monster_turn(state)
    return replace(state, pending=pending, combat=combat)


def _monster_turn(state: State) -> tuple[Pending[Frame], Combat]:
    """The stack and the battle once the top frame gives way to the monster's turn (see :func:`monster_turn`):
    the roll on top, then its trigger, the Combat Action, the player's next turn; no re-roll counted yet."""
    c = state.combat
    assert c is not None
    return Pending((*state.pending.frames[:-1], *_MONSTER_TURN)), _no_rerolls(c)


def _no_rerolls(c: Combat) -> Combat:
    """The battle with no re-roll of the Combat Roll counted yet."""
    return replace(c, rerolls=0) if c.rerolls else c


@FRAMES.register("unbroken.monster_turn", slot=19)
@accelerate
@attrs.frozen
class MonsterTurn(Automatic[State]):
    """Frame: the monster's turn (see :func:`monster_turn`)."""

    def resolve(self, state: State) -> State:
        """Roll for the monster; then the player's turn."""
        return monster_turn(state)


@FRAMES.register("unbroken.combat_roll", slot=20)
@accelerate
@attrs.frozen
class CombatRoll(DieRoll):
    """Chance frame: the monster's Combat Roll (``reroll``: a re-roll of it)."""

    reroll: bool = False

    def face_up(self, state: State, face: int) -> State:
        """The face selects the row of the Combat Actions table."""
        assert state.combat is not None
        return replace(state, combat=replace(state.combat, roll=face))

    def apply(self, state: State, action: Action) -> State:
        """Pop the roll and set the face, in one copy (see :meth:`face_up`); a
        :class:`~unbroken.rules.triggers.Fire` frame under the roll that would resolve to nothing goes in the same
        copy: it activates nothing (see :func:`~unbroken.rules.triggers.push_fire`: the roll changes no card in
        play), or its Responses and Passives are none of them usable with this face (the frame the driver would
        resolve next pops itself; the end checks between read nothing that differs)."""
        assert isinstance(action, Die) and state.combat is not None
        combat = replace(state.combat, roll=action.face)
        frames = state.pending.frames
        under = frames[-2] if len(frames) > 1 else None
        rest = frames[:-1]
        if isinstance(under, Fire):
            trig = fire(state, under.trigger)
            if trig is None:
                rest = frames[:-2]
            else:
                avail, passives = stages(state, trig, combat)
                if avail and all(c.optional for _, c in avail):
                    # The Fire frame, resolved next, puts its Trig in its place, which waits for the player's
                    # choice (see ``Fire.resolve``, ``Trig.auto``): in the roll's copy.
                    return replace(state, pending=Pending((*frames[:-2], trig)), combat=combat)
                if not avail and not passives:
                    rest = frames[:-2]  # as ``resolves_to_nothing``
        if rest and type(rest[-1]) is MonsterAct:
            # The Combat Action is the frame the driver resolves next (the end checks between read neither the
            # roll nor the stack's top): it is taken with the roll, in the copy it makes (see ``monster_act``).
            return monster_act(state, combat, rest)
        return replace(state, pending=Pending(rest), combat=combat)


def _dup_condition(state: State, ops: tuple[Op, ...]) -> bool:
    for o in ops:
        if o.op != "condition":
            continue
        if o.when == "next" and any(c.id == o.id for c in state.next_conditions):
            return True
        if o.when == "now" and any(c.id == o.id and not (c.tokens and o.n) for c in state.conditions):
            return True
    return False


def monster_act(state: State, rolled: Combat | None = None, frames: tuple[Frame, ...] | None = None) -> State:
    """Apply the Combat Actions row of the roll.

    "If a card in play ... allows you to ignore a specific type of monster Combat Action ... nothing happens";
    "If a monster effect would cause you to gain a Condition you have already gained for the next Level, re-roll
    it. If it would cause you to immediately gain a Condition you already have active — re-roll it or, if you have
    the Condition for a specific number of turns, extend the duration".

    ``rolled`` and ``frames``: the battle and the stack (the :class:`MonsterAct` frame on top) as the Combat Roll
    left them, not yet in ``state`` (see :meth:`CombatRoll.apply`); the act then makes the roll's copy as well.
    """
    if frames is None:
        frames = state.pending.frames
    c = state.combat if rolled is None else rolled
    assert c is not None
    # The frame comes off the stack in the one copy each outcome makes (nothing read here is on the stack, the
    # roll or the re-roll count aside, read from ``c``).
    m = monster(state)
    row = m.table[c.roll - 1]
    if row.kind in ignored(state):
        return replace(state, pending=Pending(frames[:-1]), combat=c)
    if _dup_condition(state, row.effects) and c.rerolls < MAX_REROLLS:
        again = (*frames[:-1], MonsterAct(), CombatRoll(reroll=True))
        return replace(state, pending=Pending(again), combat=replace(c, rerolls=c.rerolls + 1))
    ops, src = row.effects, f"monster:{m.id}"
    if not ops:
        return replace(state, pending=Pending((*frames[:-1], Exec(ops, src))), combat=c)
    ways = effort_ways(state, ops[0]) if len(ops) == 1 else None
    if ways is not None and len(ways) == 1:  # a loss of Effort without a choice, in the one copy
        below = frames[-2] if len(frames) > 1 else None
        if isinstance(below, TurnStart):
            # The loss, then the player's turn begins, in one copy: the TurnStart frame is what the driver would
            # resolve next (a plain loss pushes no frame, ends nothing, and leaves what the end checks read).
            return below.begin(state, frames[:-2], c, res=ways[0])
        return replace(state, res=ways[0], pending=Pending(frames[:-1]), combat=c)
    if ways is not None and not ways and not ops[0].alt:  # Effort that cannot be paid, no alternative: death
        return die(state, combat=c)
    after = combat_after(state, c, ops[0]) if len(ops) == 1 else None
    if after is not None:  # an op on the battle alone, in the one copy
        below = frames[-2] if len(frames) > 1 else None
        if after.health > 0 and isinstance(below, TurnStart):
            # the player's turn begins next: the end checks between fire only at 0 Health (see ``defeated``)
            return below.begin(state, frames[:-2], after)
        return replace(state, pending=Pending(frames[:-1]), combat=after)
    if rolled is not None:
        state = replace(state, pending=Pending(frames), combat=c)  # the roll's copy: the ops read the battle
    # As ``run_ops(state.pop(), ops, src)`` (the game is not over while a frame resolves), the pop in the first
    # op's copy.
    if len(ops) > 1:
        return run_op(state.restack(Exec(ops[1:], src)), ops[0], src)
    return run_op(state, ops[0], src, state.pending.pop())


@FRAMES.register("unbroken.monster_act", slot=21)
@accelerate
@attrs.frozen
class MonsterAct(Automatic[State]):
    """Frame: the monster's Combat Action for the roll (see :func:`monster_act`)."""

    def resolve(self, state: State) -> State:
        """Apply the row (or re-roll a duplicate condition)."""
        return monster_act(state)


#: The monster turn's frames, bottom to top (shared values): the player's next turn, the Combat Action, the roll's
#: trigger, the Combat Roll.
_MONSTER_TURN: tuple[Frame, ...] = (TurnStart(), MonsterAct(), Fire("monster_roll"), CombatRoll())


# ----- Rewards, Hunger, the end of the Combat Phase -----------------------------------------------------------------


def victory(state: State) -> State:
    """The Health token reached 0: the monster is defeated; Rewards (and a skill on Levels 1-3), then Hunger."""
    c = state.combat
    assert c is not None
    m = monster(state)
    back = tuple(Op("gain", res=RESOURCES[r], n=n) for r, n in enumerate(c.stolen) if n)
    # "Check for any Response effects that would be triggered and then proceed to the Rewards Step": Responses
    # already triggered still resolve (first); the turns, attacks and effects of the battle end.
    triggered = [f for f in state.pending.frames if isinstance(f, Trig)]
    # "reset the monster's Armor and Health Values to 0 following a victory" (a piercing blow leaves Armor)
    state = replace(state, pending=Pending(), combat=replace(c, health=0, armor=0)).at("combat", "rewards")
    state = state.push(ToHunger())
    if state.level < LAST_LEVEL:
        state = gain_skill(state, SKILL_DRAW)
    rewards = m.rewards + back
    if rewards:
        state = state.push(Exec(rewards, f"monster:{m.id}"))
    return state.push(*triggered)


@FRAMES.register("unbroken.to_hunger", slot=22)
@attrs.frozen
class ToHunger(Automatic[State]):
    """Frame: the Rewards Step is done; on to the Hunger Step."""

    def resolve(self, state: State) -> State:
        """Go to the Hunger Step."""
        return state.pop().at("combat", "hunger")


@FRAMES.register("unbroken.rewards_step", pending=False)
@attrs.frozen
class RewardsStep(Automatic[State]):
    """Step frame of the Rewards Step with nothing pending: on to the Hunger Step."""

    def resolve(self, state: State) -> State:
        """Go to the Hunger Step."""
        return state.at("combat", "hunger")


def food_requirement(state: State) -> int:
    """ "eat Food equal to the Level of the monster you have just defeated" (plus Food Requirement modifiers)."""
    return max(0, state.level + sum(o.n for o in static_ops(state, "food_req")))


def hunger_actions(state: State) -> list[Action]:
    """Eat 0..min(Food, requirement) Food ("you can decide to eat less Food than the current requirement")."""
    most = min(state.amount(FOOD), food_requirement(state))
    return list(upto(EAT, Eat, most + 1))


def eat(state: State, k: int) -> State:
    """Eat ``k`` Food: +1 Small Effort each; then 1, 2, 3... Small Effort for each Food not eaten."""
    state = gain(state.with_res(FOOD, state.res[FOOD].lose(k)), SE, k)
    missing = food_requirement(state) - k
    cost = missing * (missing + 1) // 2
    if cost:
        # The loss runs as an effect: the player chooses which higher Effort covers a shortfall; none: starvation.
        return state.push(EndOfCombat(), Exec((Op("lose", res="se", n=cost),), "hunger:"))
    return end_of_combat(state)


@FRAMES.register("unbroken.hunger_step", slot=26)
@attrs.frozen
class HungerStep(Decide):
    """Step frame of the Hunger Step: how much Food to eat (no decision when there is no Food to eat)."""

    in_id_order: ClassVar[bool] = True

    def auto(self, state: State) -> State | None:
        """Nothing to eat: the hunger is paid at once."""
        return eat(state, 0) if hunger_actions(state) == [EAT[0]] else None

    def options(self, state: State) -> list[Action]:
        """See :func:`hunger_actions`."""
        return list(hunger_actions(state))

    def decide(self, state: State, action: Action) -> State:
        """Eat."""
        assert isinstance(action, Eat)
        return eat(state, action.n)


def end_of_combat(state: State) -> State:
    """End of Combat Phase: Ability Uses for the next Level, conditions rotate, the monster is discarded.

    "Discard any currently active Conditions ... move any new Conditions ... above your Character Sheet";
    permanent ones (Armored) stay. A temporary downgrade ends. After Level 4 the game is won.
    """
    pack = state.pack
    keep = tuple(c for c in state.conditions if pack.condition(c.id).permanent)
    keep += tuple(c for c in state.next_conditions if all(k.id != c.id for k in keep))
    state = replace(
        state,
        conditions=keep,
        next_conditions=(),
        weapons=restored_weapons(state),
        aside=(),
        monster="",
        combat=None,
        tricked=False,
        uses=min(LAST_LEVEL, state.level + 1),
        reveal_bonus=0,
        committed=False,
    )
    if state.level == LAST_LEVEL:
        return replace(state, outcome=1)
    return push_fire(state.at("travel", "preparation", state.level + 1), "level_start")


@FRAMES.register("unbroken.end_of_combat", slot=23)
@attrs.frozen
class EndOfCombat(Automatic[State]):
    """Frame: the Combat Phase ends once the hunger is paid (see :func:`end_of_combat`)."""

    def resolve(self, state: State) -> State:
        """End the Level (or win the game)."""
        return end_of_combat(state.pop())
