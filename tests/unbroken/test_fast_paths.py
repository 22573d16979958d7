"""The shortcuts of the hot path give exactly what the long way gives (see ``docs/performance-unbroken.md``).

Each test compares, on states sampled from random games of every difficulty and character, a shortcut with the
frames it stands for run by the driver: a ``Fire`` frame left out (``triggers.push_fire``), an effect list's first
op run at once (``effects.run_ops``), a roll taking a ``Fire`` that activates nothing with it
(``combat.CombatRoll.apply``), and the shared tracks (``state.track_at``).
"""

from __future__ import annotations

import functools

import attrs
import numpy as np

from tabletop_core.components import Track
from tabletop_core.flow import Pending
from tests.playouts import random_playout
from unbroken.actions import Die
from unbroken.content.schema import TRIGGERS, Op
from unbroken.rules import flow
from unbroken.rules.cards import activates
from unbroken.rules.combat import CombatRoll
from unbroken.rules.effects import Exec, run_ops
from unbroken.rules.tables import tables
from unbroken.rules.triggers import Fire, fire, push_fire
from unbroken.rules.verbs import die
from unbroken.state import CAPS, RESOURCES, TRACKS, State, track_at

from .helpers import GAME

CHARACTERS = ("sneak", "sage", "hunter", "brawler")
VARIANTS = [(d, c) for d in ("easy", "normal", "hard") for c in CHARACTERS]


@functools.cache
def resting_states() -> tuple[State, ...]:
    """Every resting state (decision or chance node) of a few random games of each variant."""
    rng = np.random.default_rng(16)
    out: list[State] = []
    for difficulty, character in VARIANTS:
        for _ in range(4):
            states = list(random_playout(GAME, GAME.new_game(difficulty=difficulty, character=character), rng))
            out.extend(states[:-1])  # the terminal state is not a resting state
    return tuple(out)


def test_the_sample_reaches_battles_with_responses() -> None:
    states = resting_states()
    assert len(states) > 500
    assert any(s.combat is not None and s.combat.started for s in states)
    assert any(fire(s, t) is not None for s in states for t in TRIGGERS)


def test_a_fire_frame_left_out_changes_nothing() -> None:
    for state in resting_states():
        for trigger in TRIGGERS:
            long_way = flow.run(state.push(Fire(trigger)))
            assert flow.run(push_fire(state, trigger)) == long_way, (trigger, state)
            assert (push_fire(state, trigger) == state) == (fire(state, trigger) is None)
            assert activates(state, trigger) == (fire(state, trigger) is not None)


def test_a_fire_frame_is_kept_when_the_cards_in_play_change() -> None:
    state = next(s for s in resting_states() if s.combat is not None and s.pending)
    assert state.combat is not None
    others = [m for m in tables(state).monsters if m != state.combat.monster]
    changed = attrs.evolve(state.combat, monster=others[0])
    pushed = push_fire(state, "turn_start", combat=changed)
    assert pushed.pending.top == Fire("turn_start") and pushed.combat == changed
    assert push_fire(state, "turn_start", conditions=()).pending.top == Fire("turn_start")


def _effect_lists(state: State) -> list[tuple[Op, ...]]:
    t = tables(state)
    lists = [row.effects for m in t.monsters.values() for row in m.table if row.effects]
    lists += [e.gain for e in state.pack.encounters if e.gain]
    return lists


def test_an_effect_list_run_at_once_gives_what_its_exec_frame_gives() -> None:
    states = resting_states()[::7]
    lists = _effect_lists(states[0])
    for i, state in enumerate(states):
        # the ops as the rules would run them from this state: on top of its stack, as a frame's last act
        for ops in lists[i % 5 :: 5]:
            long_way = flow.run(state.push(Exec(ops, "x:y")))
            assert flow.run(run_ops(state, ops, "x:y")) == long_way, (ops, state)


def test_an_effect_list_in_a_finished_game_stays_unrun() -> None:
    state = attrs.evolve(resting_states()[0], outcome=-1)
    ops = (Op("gain", res="food", n=1),)
    assert run_ops(state, ops, "x:y") == state.push(Exec(ops, "x:y"))


def test_a_roll_takes_a_fire_that_activates_nothing_with_it() -> None:
    rolls = [s for s in resting_states() if isinstance(s.pending.top, CombatRoll)]
    assert rolls
    for state in rolls:
        for face in range(1, 7):
            # the long way: pop the roll, set the face, then let the driver resolve what is under it
            assert state.combat is not None
            set_face = attrs.evolve(state, pending=state.pending.pop(), combat=attrs.evolve(state.combat, roll=face))
            assert GAME.step(state, Die(face)) == flow.run(set_face)


def test_tracks_are_shared_values() -> None:
    for r, name in enumerate(RESOURCES):
        for v in range(CAPS[r] + 1):
            t = Track(name, 0, high=CAPS[r])
            assert track_at(t, r, v) is TRACKS[r][v]
            assert TRACKS[r][v] == Track(name, v, high=CAPS[r])
    odd = Track("food", 1, high=3)
    assert track_at(odd, RESOURCES.index("food"), 2) == Track("food", 2, high=3)
    assert GAME.new_game().res == tuple(TRACKS[r][t.value] for r, t in enumerate(GAME.new_game().res))


def test_a_lost_game_ends_with_the_stack_the_driver_would_leave() -> None:
    states = [s for s in resting_states() if s.pending][::20]
    assert states
    for state in states:
        assert die(state) == flow.run(attrs.evolve(state, outcome=-1))
        assert die(state).pending == Pending() and die(state).outcome == -1
