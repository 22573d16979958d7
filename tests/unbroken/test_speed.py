"""The speed work of ``docs/performance-unbroken.md`` keeps the rules, and its gains stay pinned.

Each shortcut is compared, on states sampled from random games of every difficulty and character, with the long way
it replaces (the frames the driver would run, or the plain definition). The gains are pinned by counts that do not
depend on the machine's load: State copies per random step, and copies made by a new game.
"""

from __future__ import annotations

import attrs
import pytest

from tabletop_core.components import Pile
from tabletop_core.fastcopy import replace
from unbroken import setup
from unbroken.actions import SKIP, Act, DrawCard, Use, action_id
from unbroken.content.schema import TRIGGERS, Op
from unbroken.rules import flow
from unbroken.rules.cards import cards_in_play, is_in_play, statics
from unbroken.rules.chance import CardDraw
from unbroken.rules.combat import MonsterAct, MonsterTurn, PlayerTurn, TurnStart, monster
from unbroken.rules.effects import Exec, run_op, run_ops
from unbroken.rules.listing import GENERAL, _craft_affordable, action_abilities, general_action, use_actions, use_ok
from unbroken.rules.payment import Decide
from unbroken.rules.resources import _plan, affords, ambiguous, can_pay, cost_need, needs
from unbroken.rules.tables import tables
from unbroken.rules.triggers import Fire, available, fire
from unbroken.state import LAST_LEVEL, RES, SE, TIME, State

from . import plain
from .helpers import GAME, random_steps
from .test_fast_paths import resting_states


def _playout_copies(steps: int, monkeypatch: pytest.MonkeyPatch) -> tuple[int, int]:
    """(steps, State copies) of the benchmark's random playout (seed 0) through the checked step."""
    made = [0]
    init = State.__init__

    def counted(self: State, *args: object, **kwargs: object) -> None:
        made[0] += 1
        init(self, *args, **kwargs)  # type: ignore[arg-type]  # the attrs __init__, passed through

    monkeypatch.setattr(State, "__init__", counted)
    done = random_steps(steps)
    return done, made[0]


def test_a_random_step_makes_fewer_state_copies(monkeypatch: pytest.MonkeyPatch) -> None:
    GAME.new_game()  # the starting state of the default options, made once
    steps, copies = _playout_copies(3000, monkeypatch)
    # before these shortcuts: 3.63 copies a step on this playout, a new game's included (about one per frame
    # event); now about 2.1.
    assert copies / steps < 2.3, copies / steps


def test_a_new_game_is_one_shared_starting_state() -> None:
    options = GAME.make_options(difficulty="hard", character="sage")
    state = GAME.new_game(difficulty="hard", character="sage")
    assert GAME.new_game(difficulty="hard", character="sage") is state
    assert state == flow.run(setup.starting_display(options))
    assert GAME.new_game(difficulty="easy") != GAME.new_game(difficulty="normal")


def test_listings_claimed_in_id_order_are_in_id_order() -> None:
    seen: set[str] = set()
    for state in resting_states():
        frame = flow.DRIVER.frame(state)
        if isinstance(frame, Decide):
            ids = [action_id(a) for a in frame.options(state)]
            if frame.in_id_order:
                assert ids == sorted(set(ids)), (type(frame).__name__, ids)
                seen.add(type(frame).__name__)
            assert [action_id(a) for a in GAME.legal_actions(state)] == sorted(set(ids))
    assert {"Preparation", "PlayerTurn", "ExplorePick", "ExploreMode"} <= seen


def test_a_fire_frame_resolves_its_trig_as_the_driver_would() -> None:
    fired = passives = 0
    for state in resting_states()[::3]:
        for trigger in TRIGGERS:
            trig = fire(state, trigger)
            if trig is None:
                assert flow.run(state.push(Fire(trigger))) == flow.run(state)
                continue
            fired += 1
            # the long way: the Trig on top, run by the driver
            on_top = state.push(trig)
            assert flow.run(state.push(Fire(trigger))) == flow.run(on_top), (trigger, state)
            later = attrs.evolve(trig, stage=1)
            if not available(on_top, trig) and available(on_top, later):
                passives += 1
                # the long way of a Trig moving on to its Passives: the stage-1 frame on top, run by the driver
                assert flow.run(on_top) == flow.run(state.push(later))
    assert fired > 100 and passives > 0


def test_an_op_on_a_changed_stack_is_the_op_after_the_change() -> None:
    states = [s for s in resting_states() if s.pending][::5]
    ops = [op for m in GAME.new_game().pack.monsters for row in m.table for op in row.effects]
    ops += [Op("lose", res="se", n=20), Op("lose", res="me", n=1), Op("gain", res="food", n=1)]
    assert states and ops
    for i, state in enumerate(states):
        pending = state.pending.pop()
        for op in ops[i % 4 :: 4]:
            assert run_op(state, op, "x:y", pending) == run_op(replace(state, pending=pending), op, "x:y"), op


def test_a_monster_act_is_its_effect_list_run_after_its_pop() -> None:
    checked = fused = 0
    for state in resting_states()[::2]:
        c = state.combat
        if c is None or not c.started or state.outcome:
            continue
        for face in range(1, 7):
            for turn in ((), (TurnStart(),)):  # the monster's turn as stacked: the player's turn under the act
                rolled = state.push(*turn, MonsterAct(), combat=attrs.evolve(c, roll=face))
                row = monster(rolled).table[face - 1]
                if not row.effects or any(o.op == "condition" for o in row.effects):
                    continue  # the ignore and re-roll paths are unchanged
                if any(o.id == row.kind for o in statics(rolled, "ignore")):
                    continue
                long_way = run_ops(rolled.pop(), row.effects, f"monster:{c.monster}")
                assert flow.run(MonsterAct().resolve(rolled)) == flow.run(long_way), (face, state)
                checked += 1
                fused += bool(turn) and len(row.effects) == 1 and plain.loss(rolled, row.effects[0]) is not None
    assert checked > 50 and fused > 10


def test_leading_gains_run_at_once_as_their_exec_frame_would_run_them() -> None:
    lists = [
        (Op("gain", res="food", n=1), Op("gain", res="wood", n=2)),
        (Op("gain", res="se", n=30), Op("gain", res="cunning", n=1), Op("lose", res="se", n=3)),
        (Op("gain", res="metal", n=1, scale="level"), Op("condition", id="paralyzed", n=1)),
    ]
    for state in resting_states()[::9]:
        for ops in lists:
            assert flow.run(run_ops(state, ops, "x:y")) == flow.run(state.push(Exec(ops, "x:y"))), (ops, state)


def test_an_ability_is_in_play_exactly_when_its_card_is_listed() -> None:
    for state in resting_states()[::4]:
        listed = cards_in_play(state)
        names = [*listed, "character:nobody", "skill:none", "condition:none", "monster:none", "weapon:x", "x"]
        for src in names:
            assert is_in_play(state, src) == (src in listed), src


def test_a_card_draw_lists_the_piles_outcomes_and_draws_as_the_plain_definition() -> None:
    draws = [s for s in resting_states() if isinstance(s.pending.top, CardDraw)]
    assert draws
    for state in draws[::3]:
        frame = state.pending.top
        assert isinstance(frame, CardDraw)
        pile = frame.pile(state)
        listed = GAME.chance_outcomes(state)
        assert [(a, p) for a, p in listed] == [(DrawCard(c), p) for c, p in pile.draw_outcomes()]
        for card, _ in pile.draw_outcomes():
            assert pile.draw(card) == _drawn_plainly(pile, card)
    with pytest.raises(ValueError, match="no 'a' to draw"):
        Pile.of([1, 2]).draw("a")  # type: ignore[arg-type]  # a card of another type is not in the pile
    with pytest.raises(ValueError, match="no 3 to draw"):
        Pile.of([1, 2]).draw(3)


def _drawn_plainly(pile: Pile[int], card: int) -> Pile[int]:
    """A draw by the definition: the multiset less one ``card`` (the discards reshuffled in when it is empty)."""
    source = pile.reshuffled() if not pile.counts else pile
    cards = list(source.cards())
    cards.remove(card)
    return Pile.of(cards, source.discards)


def _content_costs(state: State) -> list[tuple[Op, ...]]:
    """Every cost the pack prints: weapon attacks and upgrades, abilities, encounters' Spend fields."""
    t = tables(state)
    costs = [a.cost for w in t.weapons.values() for a in w.attacks]
    costs += [u.cost for w in t.weapons.values() for u in w.upgrades]
    costs += [a.cost for abilities in t.abilities.values() for a in abilities]
    costs += [e.spend for e in state.pack.encounters]
    return [*costs, (Op("spend", res="se", n=2, scale="level"),), (Op("spend", res="food", n=1),)]


def test_a_cost_checked_from_its_memoized_need_is_the_plain_check() -> None:
    states = resting_states()[::6]
    costs = _content_costs(states[0])
    for state in states:
        for ops in costs:
            plain = [0] * len(state.res)
            for o in ops:
                if o.op == "spend":
                    plain[RES[o.res]] += o.n * (state.level if o.scale == "level" else 1)
            assert can_pay(state, ops) == affords(state, plain), ops
            short = plain[SE] > state.amount(SE)
            plans = (_plan(state, plain, False), _plan(state, plain, True)) if short else (None, None)
            assert ambiguous(state, ops) == (None not in plans and plans[0] != plans[1]), ops
            for u in (u for w in tables(state).weapons.values() for u in w.upgrades):
                for combat in (False, True):
                    # the Craft's Time: Small Effort in a Level 4 battle, Time in the Travel Phase, else nothing
                    slot = SE if combat and state.level == LAST_LEVEL else TIME if not combat else None
                    extra = needs(u.cost, state.level)
                    if slot is not None:
                        extra[slot] += u.time
                    assert _craft_affordable(state, u, combat) == affords(state, extra), (u, combat)
    fresh = (Op("spend", res="se", n=1),)
    assert cost_need(fresh) == cost_need((Op("spend", res="se", n=1),)) != cost_need(fresh, TIME, 1)


def test_a_skipped_or_general_turn_stacks_the_monster_turn_as_the_driver_would() -> None:
    turns = [s for s in resting_states() if isinstance(s.pending.top, PlayerTurn) and not s.pending.top.extra]
    checked = 0
    for state in turns:
        for action in GAME.legal_actions(state):
            if not isinstance(action, Act) or not (action.verb == SKIP or action.verb in GENERAL):
                continue
            # the long way: the turn's frame replaced by a MonsterTurn frame, the choice made, the driver on
            after = state.replace_top(MonsterTurn())
            if action.verb in GENERAL:
                after = general_action(after, action.verb)
            assert GAME.step(state, action) == flow.run(after), (action, state)
            checked += 1
    assert checked > 20


def test_the_action_abilities_and_their_uses_are_the_plain_listing() -> None:
    for state in resting_states()[::3]:
        actions = tables(state).actions
        plain = [*actions[f"character:{state.options.character}"]]
        for sid in state.skills:
            plain += actions[f"skill:{sid}"]
        assert list(action_abilities(state)) == plain
        for phase in ("travel", "combat"):
            expected = [Use(i) for i, (src, _, a) in enumerate(plain) if use_ok(state, src, a, phase)]
            assert use_actions(state, phase) == expected, (phase, state)
