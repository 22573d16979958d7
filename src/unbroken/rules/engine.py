"""The engine: runs frames and flow steps until a decision, a chance node or the end; lists and applies actions.

The flow position (:data:`unbroken.state.FLOW`) says where play stands when the pending stack is empty; frames on
the stack (effects to run, choices, activated Responses, rolls, draws, continuations) own the next event.
"""

from __future__ import annotations

import attrs

from unbroken.actions import (
    MAX_CHANCE,
    ORIENTEER,
    PASS,
    RESOLVE,
    SCOUT,
    TRICK,
    Act,
    Action,
    Attack,
    Craft,
    Die,
    DrawCard,
    Eat,
    Pick,
    Respond,
    Use,
    action_id,
    decision_from_id,
)
from unbroken.content.schema import TRIGGERS, Op
from unbroken.rules import combat, travel
from unbroken.rules.effects import run_op, run_ops
from unbroken.rules.resources import ambiguous, gain, pay
from unbroken.rules.triggers import abilities_of, available, commute, fire
from unbroken.setup import EASY_RESOURCE
from unbroken.state import (
    TIME,
    Cand,
    Choose,
    Cont,
    Draw,
    Exec,
    Roll,
    State,
    Trig,
    evolve,
)

__all__ = ["advance", "apply", "chance_outcomes", "decisions", "is_chance"]

_LOOP_LIMIT = 100_000
_DIE_OUTCOMES: tuple[tuple[Action, float], ...] = tuple((Die(f), 1 / 6) for f in range(1, 7))
_CARDS = tuple(DrawCard(i) for i in range(MAX_CHANCE))


def is_chance(state: State) -> bool:
    """Whether chance acts next."""
    return state.outcome == 0 and isinstance(state.pending.top, Roll | Draw)


def chance_outcomes(state: State) -> tuple[tuple[Action, float], ...]:
    """The outcomes of the chance node with their exact probabilities."""
    top = state.pending.top
    if isinstance(top, Roll):
        return _DIE_OUTCOMES
    if isinstance(top, Draw):
        pile = state.encounters if top.deck == "enc" else state.skill_deck
        return tuple((_CARDS[c], p) for c, p in pile.draw_outcomes())
    return ()


def chance_legal(state: State, action: object) -> bool:
    """Whether ``action`` is an outcome of the chance node (fast: no outcome list is built)."""
    top = state.pending.top
    if isinstance(top, Roll):
        return isinstance(action, Die)
    if isinstance(top, Draw) and isinstance(action, DrawCard):
        pile = state.encounters if top.deck == "enc" else state.skill_deck
        if not pile.counts:
            return action.index in pile.discards
        return pile.count(action.index) > 0
    return False


def _flow_step(state: State) -> tuple[State, bool]:
    """Advance the flow position with an empty stack; ``True`` when a decision waits there."""
    pos = state.pos
    if pos.phase == "setup":
        state = state.at("travel", "preparation", 1)
        return state.push(Cont("fire", TRIGGERS.index("level_start"))), False
    if pos.phase == "travel":
        if state.amount(TIME) <= 0:
            # "If this causes your Time Tracker to reach or go below 0 ... the monster Ambushes you".
            return state.at("combat", "ambush"), False
        if pos.step == "preparation":
            return state, True
        return state.at("travel", "preparation"), False
    step = pos.step
    if step == "ambush":
        return combat.ambush_step(state), False
    if step == "trickery":
        return combat.trickery_step(state)
    if step == "battle":
        assert state.combat is not None
        if not state.combat.started:
            return combat.start_battle(state), False
        return state.push(Cont("player_turn_start")), False
    if step == "rewards":
        return state.at("combat", "hunger"), False
    # hunger
    if combat.hunger_actions(state) == [Eat(0)]:
        return combat.eat(state, 0), False
    return state, True


def _trig_step(state: State, frame: Trig) -> tuple[State, bool]:
    avail = available(state, frame)
    if frame.stage == 0:
        if not avail:
            return state.replace_top(attrs.evolve(frame, stage=1)), False
        mandatory = [i for i, c in avail if not c.optional]
        if mandatory and (len(avail) == 1 or commute(state, avail)):
            # Orders that cannot change the outcome are not offered: the mandatory ones resolve in card order.
            return _resolve(state, frame, mandatory[0]), False
        return state, True
    if not avail:
        return state.pop(), False
    if len(avail) == 1 or commute(state, avail):
        return _resolve(state, frame, avail[0][0]), False
    return state, True


def _one_at_a_time(state: State, frame: Trig, avail: list[tuple[int, Cand]]) -> bool:
    """Several optional Responses whose order cannot matter: each is offered in card order, use it or pass it
    (which ones are used is the player's choice; the order among them is not a choice)."""
    return frame.stage == 0 and len(avail) > 1 and all(c.optional for _, c in avail) and commute(state, avail)


def _resolve(state: State, frame: Trig, i: int) -> State:
    """Resolve activated ability ``i``: pay its cost (and an Ability Use for the character's), run its effects."""
    cand = frame.cands[i]
    ability = abilities_of(state, cand.src)[cand.index]
    state = state.replace_top(attrs.evolve(frame, cands=frame.cands[:i] + frame.cands[i + 1 :]))
    state = pay(state, ability.cost)
    if cand.src.startswith("character:"):
        state = evolve(state, uses=state.uses - 1)
    return run_ops(state, ability.effects, cand.src)


def _cont_step(state: State, top: Cont) -> tuple[State, bool]:
    k = top.kind
    if k == "fire":
        frame = fire(state, TRIGGERS[top.n])
        return (state.replace_top(frame) if frame else state.pop()), False
    if k == "explore_pick":
        if len(state.revealed) == 1:
            return travel.pick(state, 0), False
        if not state.revealed:
            return state.pop().at("travel", "preparation"), False
        return state, True
    if k == "explore_commit":
        return travel.committed(state, top.n), False
    if k in ("explore_mode", "pay"):
        return state, True
    if k == "explore_end":
        return travel.explore_end(state, top.n), False
    if k == "skill_keep":
        if len(state.offered) <= 1:
            return _keep(state, 0) if state.offered else state.pop(), False
        return state, True
    if k == "to_hunger":
        return state.pop().at("combat", "hunger"), False
    if k == "end_of_combat":
        return combat.end_of_combat(state.pop()), False
    c = state.combat
    assert c is not None
    if k == "player_turn_start":
        state = evolve(state, combat=evolve(c, skip=False)).replace_top(Cont("player_turn", top.n))
        return state.push(Cont("fire", TRIGGERS.index("turn_start"))), False
    if k == "player_turn":
        if c.skip:
            return (state.pop() if top.n else state.replace_top(Cont("monster_turn"))), False
        return state, True
    if k == "monster_turn":
        return combat.monster_turn(state), False
    if k == "monster_act":
        return combat.monster_act(state), False
    if k == "attack_land":
        return combat.attack_land(state, bool(top.n)), False
    if k == "extra_attack":
        if len(combat.extra_attack_actions(state)) == 1:
            return state.pop(), False
        return state, True
    raise ValueError(f"unknown continuation {k!r}")


def _keep(state: State, i: int) -> State:
    """Keep offered skill ``i``; "putting the other in the corresponding Discard Pile"."""
    pack = state.pack
    kept = state.offered[i]
    pile = state.skill_deck
    for j, s in enumerate(state.offered):
        if j != i:
            pile = pile.discard(s)
    return evolve(state, skill_deck=pile, offered=(), skills=(*state.skills, pack.skills[kept].id)).pop()


def advance(state: State) -> State:
    """Run the rules until a decision, a chance node or the end of the game."""
    for _ in range(_LOOP_LIMIT):
        if state.outcome:
            return evolve(state, pending=type(state.pending)()) if state.pending else state
        c = state.combat
        top = state.pending.top
        if c is not None and c.started and c.health <= 0 and state.pos.step == "battle" and not isinstance(top, Exec):
            # Defeated: the effect list that dealt the blow finishes first (its remaining ops are part of it).
            state = combat.victory(state)
            continue
        if top is None:
            state, wait = _flow_step(state)
        elif isinstance(top, Exec):
            rest = top.ops[1:]
            state = state.replace_top(Exec(rest, top.src)) if rest else state.pop()
            state = run_op(state, top.ops[0], top.src)
            wait = False
        elif isinstance(top, Roll):
            return state
        elif isinstance(top, Draw):
            pile = state.encounters if top.deck == "enc" else state.skill_deck
            if top.n <= 0 or not pile.can_draw:
                state, wait = state.pop(), False
            else:
                return state
        elif isinstance(top, Choose):
            wait = True
        elif isinstance(top, Trig):
            state, wait = _trig_step(state, top)
        else:
            state, wait = _cont_step(state, top)
        if wait:
            return state
    raise RuntimeError("unbroken: the rules did not settle (a loop in the content?)")


def decisions(state: State) -> list[Action]:
    """The legal decisions at a decision node (unsorted)."""
    top = state.pending.top
    if top is None:
        step = state.pos.step
        if step == "preparation":
            return travel.prep_actions(state)
        if step == "trickery":
            return combat.trickery_actions(state)
        return list(combat.hunger_actions(state))
    if isinstance(top, Choose):
        return [Pick(i) for i in range(len(top.options))]
    if isinstance(top, Trig):
        avail = available(state, top)
        if _one_at_a_time(state, top, avail):
            return [Respond(avail[0][0]), Act(PASS)]
        out: list[Action] = [Respond(i) for i, _ in avail]
        if top.stage == 0 and all(c.optional for _, c in avail):
            out.append(Act(PASS))
        return out
    assert isinstance(top, Cont)
    k = top.kind
    if k == "pay":
        return [Pick(0), Pick(1)]
    if k == "explore_pick":
        return [Pick(i) for i in range(len(state.revealed))]
    if k == "explore_mode":
        return travel.mode_actions(state, top.n)
    if k == "skill_keep":
        return [Pick(i) for i in range(len(state.offered))]
    if k == "player_turn":
        return combat.turn_actions(state)
    if k == "extra_attack":
        return combat.extra_attack_actions(state)
    return []


def _apply_chance(state: State, action: Action) -> State:
    top = state.pending.top
    if isinstance(top, Draw):
        assert isinstance(action, DrawCard)
        rest = state.pop() if top.n <= 1 else state.replace_top(Draw(top.deck, top.n - 1))
        if top.deck == "enc":
            return evolve(
                rest, encounters=state.encounters.draw(action.index), revealed=(*state.revealed, action.index)
            )
        return evolve(rest, skill_deck=state.skill_deck.draw(action.index), offered=(*state.offered, action.index))
    assert isinstance(top, Roll) and isinstance(action, Die)
    state = state.pop()
    face = action.face
    if top.purpose == "monster":
        return evolve(state, monster=state.pack.monster_for(state.level, face).id)
    if top.purpose in ("combat", "reroll"):
        assert state.combat is not None
        return evolve(state, combat=evolve(state.combat, roll=face))
    if top.purpose == "easy":
        return gain(state, EASY_RESOURCE[face - 1], 1)
    return run_ops(state, top.then if face <= top.n else top.alt, top.src)  # an effect's roll


def apply(state: State, action: Action) -> State:
    """Apply one legal action (decision or chance outcome) and run the rules to the next event.

    When the action's cost leaves the player a real choice of Effort ("you can spend Effort of a higher category
    in place of Effort of a lower category"), a ``pay`` sub-decision comes first: Medium or Large Effort first.
    """
    if is_chance(state):
        return advance(_apply_chance(state, action))
    top = state.pending.top
    if isinstance(top, Cont) and top.kind == "pay":
        assert isinstance(action, Pick)
        state = evolve(state.pop(), large_first=action.i == 1)
        return advance(_decide(state, decision_from_id(top.n)))
    cost = _cost(state, action)
    if cost is not None and ambiguous(state, *cost):
        return state.push(Cont("pay", action_id(action)))
    return advance(_decide(state, action))


def _cost(state: State, action: Action) -> tuple[tuple[Op, ...], list[int] | None] | None:
    """What paying for ``action`` spends (``spend`` ops and extra amounts), if anything."""
    top = state.pending.top
    if isinstance(action, Use):
        return travel.action_abilities(state)[action.i][2].cost, None
    if isinstance(action, Craft):
        in_battle = state.pos.phase == "combat"
        return state.pack.weapon(state.weapon).upgrades[action.i].cost, travel.craft_extra(
            state, action.i, combat=in_battle
        )
    if isinstance(action, Attack):
        return state.pack.weapon(state.weapon).attacks[action.i].cost, combat.surcharge(state)
    if isinstance(action, Respond) and isinstance(top, Trig):
        cand = top.cands[action.i]
        return abilities_of(state, cand.src)[cand.index].cost, None
    if isinstance(action, Pick) and isinstance(top, Choose):
        return top.options[action.i], None
    if not isinstance(action, Act):
        return None
    v = action.verb
    if v in travel.GENERAL:
        return travel.GENERAL[v][0], None
    if v == ORIENTEER:
        return travel.ORIENTEER_COST, None
    if v == SCOUT:
        return travel.SCOUT_COST[state.level], None
    trick = combat.monster(state).trickery if v == TRICK else None
    if trick is not None:
        return trick, None
    if v == RESOLVE and isinstance(top, Cont):
        return state.pack.encounters[top.n].spend, None
    return None


def _decide(state: State, action: Action) -> State:
    """Apply a decision (without running the rules on)."""
    top = state.pending.top
    if top is None:
        step = state.pos.step
        if step == "preparation":
            state = travel.apply_prep(state, action)
        elif step == "trickery":
            state = combat.apply_trickery(state, action)
        else:
            assert isinstance(action, Eat)
            state = combat.eat(state, action.n)
    elif isinstance(top, Choose):
        assert isinstance(action, Pick)
        state = run_ops(state.pop(), top.options[action.i], top.src)
    elif isinstance(top, Trig):
        if isinstance(action, Respond):
            state = _resolve(state, top, action.i)
        else:
            avail = available(state, top)
            if _one_at_a_time(state, top, avail):  # pass: decline the first one offered
                i = avail[0][0]
                state = state.replace_top(attrs.evolve(top, cands=top.cands[:i] + top.cands[i + 1 :]))
            else:  # pass: decline the remaining optional Responses
                state = state.replace_top(attrs.evolve(top, cands=tuple(c for c in top.cands if not c.optional)))
    else:
        assert isinstance(top, Cont)
        state = _apply_cont(state, top, action)
    return state


def _apply_cont(state: State, top: Cont, action: Action) -> State:
    k = top.kind
    if k == "explore_pick":
        assert isinstance(action, Pick)
        return travel.pick(state, action.i)
    if k == "explore_mode":
        return travel.apply_mode(state, top.n, action)
    if k == "skill_keep":
        assert isinstance(action, Pick)
        return _keep(state, action.i)
    if k == "player_turn":
        return combat.apply_turn(state, top.n, action)
    # extra attack
    state = state.pop()
    return combat.attack(state, action.i) if isinstance(action, Attack) else state
