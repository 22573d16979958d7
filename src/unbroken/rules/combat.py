"""The Combat Phase: Ambush, Trickery, Battle (player and monster turns), Rewards, Hunger and the end of a Level.

Rulebook clauses are quoted on each function; the coverage table is ``docs/rules/unbroken.md``.
"""

from __future__ import annotations

from tabletop_core.flow import Pending
from unbroken.actions import (
    DOWNGRADE,
    FIGHT,
    FOCUS,
    INSPIRATION,
    PASS,
    PLAN,
    SKIP,
    TRICK,
    Act,
    Action,
    Attack,
    Craft,
    Eat,
    Use,
)
from unbroken.content.schema import TRIGGERS, Monster, Op
from unbroken.rules.effects import new_combat, run_ops, weapon_down
from unbroken.rules.resources import can_pay, gain, pay
from unbroken.rules.travel import GENERAL, action_abilities, craft, craft_ok, general_action, general_ok, use, use_ok
from unbroken.rules.triggers import statics
from unbroken.state import (
    FOOD,
    LAST_LEVEL,
    LEVEL_TIME,
    MAX_USES,
    RES,
    RESOURCES,
    SE,
    TIME,
    Cont,
    Draw,
    Exec,
    Roll,
    State,
    evolve,
    no_resources,
)

__all__ = [
    "attack_ok",
    "end_of_combat",
    "food_requirement",
    "hunger_actions",
    "monster",
    "turn_actions",
]

MAX_REROLLS = 10
#: "reveal the top 2 cards from the Skill Deck, keeping 1".
SKILL_DRAW = 2


def monster(state: State) -> Monster:
    """The monster on the Monster Tracker (or revealed by scouting)."""
    mid = state.combat.monster if state.combat is not None else state.monster
    return next(m for m in state.pack.monsters if m.id == mid)


def set_tracker(state: State) -> State:
    """Set the Monster Tracker and "Reset the token on your Time Tracker to ... the next Level" (Level 4: remove it)."""
    time = LEVEL_TIME[state.level] if state.level < LAST_LEVEL else 0
    state = state.with_res(TIME, state.res[TIME].set(time))
    return evolve(state, combat=new_combat(state))


def ambush_step(state: State) -> State:
    """Step 1A: reveal the monster if needed, set the trackers, apply the Ambush Effect, go to the Battle Step."""
    if not state.monster:
        return state.push(Roll("monster"))
    state = set_tracker(state).at("combat", "battle")
    ambush = monster(state).ambush
    return run_ops(state, ambush, f"monster:{state.monster}") if ambush else state


def trickery_step(state: State) -> tuple[State, bool]:
    """Step 1B: reveal, set the trackers; a decision waits (``True``) if the Trickery Cost can be paid."""
    if not state.monster:
        return state.push(Roll("monster")), False
    if state.combat is None:
        state = set_tracker(state)
    trick = monster(state).trickery
    if trick is not None and can_pay(state, trick):
        return state, True
    return state.at("combat", "battle"), False


def trickery_actions(state: State) -> list[Action]:
    """Fight, or trick the monster (only when it has a Trickery Cost you can pay)."""
    return [Act(FIGHT), Act(TRICK)]


def apply_trickery(state: State, action: Action) -> State:
    """Trick ("proceed to the Hunger Step. You do not receive any Rewards") or continue to the Battle Step."""
    assert isinstance(action, Act)
    if action.verb == TRICK:
        trick = monster(state).trickery
        assert trick is not None
        return evolve(pay(state, trick), tricked=True).at("combat", "hunger")
    return state.at("combat", "battle")


def start_battle(state: State) -> State:
    """Battle Step: the monster acts first on Hard; the ``battle_start`` Responses fire before the first turn."""
    assert state.combat is not None
    state = evolve(state, combat=evolve(state.combat, started=True))
    first = Cont("monster_turn") if state.options.difficulty == "hard" else Cont("player_turn_start")
    return state.push(first, Cont("fire", TRIGGERS.index("battle_start")))


def surcharge(state: State) -> list[int]:
    """Extra resources a weapon attack costs ("Some monsters force you to spend additional resources")."""
    extra = no_resources()
    for o in statics(state, "surcharge"):
        extra[RES[o.res]] += o.n
    return extra


def attack_ok(state: State, i: int) -> bool:
    """Whether weapon attack ``i`` can be made: Armor-Breaking only while Armor remains; Wounding only at 0 Armor
    (unless the attack pierces); the cost plus any surcharge must be payable."""
    c = state.combat
    attacks = state.pack.weapon(state.weapon).attacks
    if c is None or i >= len(attacks):
        return False
    a = attacks[i]
    if a.kind == "break" and c.armor <= 0:
        return False
    if a.kind == "wound" and c.armor > 0 and not a.pierce:
        return False
    return can_pay(state, a.cost, surcharge(state))


def attack(state: State, i: int) -> State:
    """Attack with the weapon: pay, then (unless the monster DEFENDs) break Armor or inflict Wounds.

    "DEFEND actions allow monsters to ignore your next attack. This applies to attacks made with Weapons only".
    A Wounding attack fires the ``attack`` Responses, then its Passives (e.g. a Wound cap), then lands.
    """
    a = state.pack.weapon(state.weapon).attacks[i]
    state = pay(state, a.cost, surcharge(state))
    c = state.combat
    assert c is not None
    if c.defend:
        return evolve(state, combat=evolve(c, defend=False))
    if a.kind == "break":
        return run_ops(state, (Op("break_armor", n=a.power),), f"weapon:{state.weapon}")
    state = evolve(state, combat=evolve(c, power=a.power))
    return state.push(Cont("attack_land", int(a.pierce)), Cont("fire", TRIGGERS.index("attack")))


def attack_land(state: State, pierce: bool) -> State:
    """The attack's final Attack Power moves the Health token toward 0."""
    c = state.combat
    assert c is not None
    state = state.pop()
    if c.armor > 0 and not pierce:
        return state
    return evolve(state, combat=evolve(c, health=max(0, c.health - c.power), power=0))


def turn_actions(state: State) -> list[Action]:
    """Player turn: attack with the weapon, take a General or Combat Action, or skip."""
    out: list[Action] = [Act(v) for v in (FOCUS, INSPIRATION, PLAN) if general_ok(state, v)]
    if len(state.weapons) > 1:
        out.append(Act(DOWNGRADE))
    out.append(Act(SKIP))
    ups = state.pack.weapon(state.weapon).upgrades
    out += [Craft(i) for i in range(len(ups)) if craft_ok(state, i, combat=True)]
    out += [Attack(i) for i in range(len(state.pack.weapon(state.weapon).attacks)) if attack_ok(state, i)]
    out += [Use(i) for i, (src, _, a) in enumerate(action_abilities(state)) if use_ok(state, src, a, "combat")]
    return out


def apply_turn(state: State, extra: int, action: Action) -> State:
    """Apply the player's turn choice; the turn then passes to the monster (or back, after an extra turn)."""
    after = state.pop() if extra else state.replace_top(Cont("monster_turn"))
    if isinstance(action, Attack):
        return attack(after, action.i)
    if isinstance(action, Craft):
        return craft(after, action.i, combat=True)
    if isinstance(action, Use):
        return use(after, action.i)
    assert isinstance(action, Act)
    if action.verb in GENERAL:
        return general_action(after, action.verb)
    if action.verb == DOWNGRADE:
        return weapon_down(after, perm=True)
    return after  # SKIP


def extra_attack_actions(state: State) -> list[Action]:
    """An extra attack granted by an effect: any legal weapon attack, or pass."""
    n = len(state.pack.weapon(state.weapon).attacks)
    return [Act(PASS), *(Attack(i) for i in range(n) if attack_ok(state, i))]


def monster_turn(state: State) -> State:
    """Monster turn: the Combat Roll (a chance node), its Responses (e.g. Dodge), then the Combat Action."""
    c = state.combat
    assert c is not None
    state = evolve(state, combat=evolve(c, rerolls=0)).replace_top(Cont("player_turn_start"))
    return state.push(Cont("monster_act"), Cont("fire", TRIGGERS.index("monster_roll")), Roll("combat"))


def _dup_condition(state: State, ops: tuple[Op, ...]) -> bool:
    for o in ops:
        if o.op != "condition":
            continue
        if o.when == "next" and any(c.id == o.id for c in state.next_conditions):
            return True
        if o.when == "now" and any(c.id == o.id and not (c.tokens and o.n) for c in state.conditions):
            return True
    return False


def monster_act(state: State) -> State:
    """Apply the Combat Actions row of the roll.

    "If a card in play ... allows you to ignore a specific type of monster Combat Action ... nothing happens";
    "If a monster effect would cause you to gain a Condition you have already gained for the next Level, re-roll
    it. If it would cause you to immediately gain a Condition you already have active — re-roll it or, if you have
    the Condition for a specific number of turns, extend the duration".
    """
    c = state.combat
    assert c is not None
    state = state.pop()
    m = monster(state)
    row = m.table[c.roll - 1]
    if row.kind in {o.id for o in statics(state, "ignore")}:
        return state
    if _dup_condition(state, row.effects) and c.rerolls < MAX_REROLLS:
        state = evolve(state, combat=evolve(c, rerolls=c.rerolls + 1))
        return state.push(Cont("monster_act"), Roll("reroll"))
    return state.push(Exec(row.effects, f"monster:{m.id}"))


def victory(state: State) -> State:
    """The Health token reached 0: the monster is defeated; Rewards (and a skill on Levels 1-3), then Hunger."""
    c = state.combat
    assert c is not None
    m = monster(state)
    back = tuple(Op("gain", res=RESOURCES[r], n=n) for r, n in enumerate(c.stolen) if n)
    state = evolve(state, pending=Pending(), combat=evolve(c, health=0)).at("combat", "rewards")
    state = state.push(Cont("to_hunger"))
    if state.level < LAST_LEVEL:
        state = state.push(Cont("skill_keep"), Draw("skill", SKILL_DRAW))
    return run_ops(state, m.rewards + back, f"monster:{m.id}")


def food_requirement(state: State) -> int:
    """ "eat Food equal to the Level of the monster you have just defeated" (plus Food Requirement modifiers)."""
    return max(0, state.level + sum(o.n for o in statics(state, "food_req")))


def hunger_actions(state: State) -> list[Action]:
    """Eat 0..min(Food, requirement) Food ("you can decide to eat less Food than the current requirement")."""
    most = min(state.amount(FOOD), food_requirement(state))
    return [Eat(k) for k in range(most + 1)]


def eat(state: State, k: int) -> State:
    """Eat ``k`` Food: +1 Small Effort each; then 1, 2, 3... Small Effort for each Food not eaten."""
    state = gain(state.with_res(FOOD, state.res[FOOD].lose(k)), SE, k)
    missing = food_requirement(state) - k
    cost = missing * (missing + 1) // 2
    if cost:
        # The loss runs as an effect: the player chooses which higher Effort covers a shortfall; none: starvation.
        return state.push(Cont("end_of_combat"), Exec((Op("lose", res="se", n=cost),), "hunger:"))
    return end_of_combat(state)


def end_of_combat(state: State) -> State:
    """End of Combat Phase: Ability Uses for the next Level, conditions rotate, the monster is discarded.

    "Discard any currently active Conditions ... move any new Conditions ... above your Character Sheet";
    permanent ones (Armored) stay. A temporary downgrade ends. After Level 4 the game is won.
    """
    pack = state.pack
    keep = tuple(c for c in state.conditions if pack.condition(c.id).permanent)
    keep += tuple(c for c in state.next_conditions if all(k.id != c.id for k in keep))
    state = evolve(
        state,
        conditions=keep,
        next_conditions=(),
        weapons=state.weapons + state.aside,
        aside=(),
        monster="",
        combat=None,
        tricked=False,
        uses=min(MAX_USES, state.level + 1),
        reveal_bonus=0,
        committed=False,
    )
    if state.level == LAST_LEVEL:
        return evolve(state, outcome=1)
    state = state.at("travel", "preparation", state.level + 1)
    return state.push(Cont("fire", TRIGGERS.index("level_start")))
