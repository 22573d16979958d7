"""Records, the runner and replay."""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
from enum import StrEnum
from typing import Any, ClassVar

import attrs
import numpy as np
import pytest

from tabletop_core import FirstAgent, RandomAgent, Record, StateFormatError, play, replay, to_json
from tabletop_core.errors import OptionError
from tabletop_core.records import Step, options_from_json, options_json, playout
from tabletop_core.spec import CHANCE
from tabletop_core.testing.kuhn import GAME


def test_play_returns_final_state_and_a_complete_record() -> None:
    state, record = play(GAME, [RandomAgent(), RandomAgent()], seed=5)
    assert GAME.is_terminal(state)
    assert record.game == "kuhn" and record.seed == 5 and record.options == {}
    assert record.returns == GAME.returns(state)
    assert len(record.actions) >= 4  # two deals, at least two decisions


def test_replay_reproduces_every_state() -> None:
    state, record = play(GAME, [RandomAgent(), FirstAgent()], seed=8)
    states = replay(Record.from_json(record.to_json()), GAME, states=True)
    assert states[-1] == state and len(states) == len(record.actions) + 1


def test_replay_finds_the_game_by_name() -> None:
    import unrest

    state, record = play(unrest.GAME, [RandomAgent(), RandomAgent()], seed=2)
    assert replay(record.to_json()) == state


def test_same_seed_same_game_in_another_process() -> None:
    _, record = play(GAME, [RandomAgent(), RandomAgent()], seed=1234)
    code = (
        "from tabletop_core import play, RandomAgent, to_json; from tabletop_core.testing.kuhn import GAME;"
        "s, r = play(GAME, [RandomAgent(), RandomAgent()], seed=1234); print(r.to_json()); print(to_json(s))"
    )
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True).stdout.split("\n")
    other = Record.from_json(out[0])
    assert other.actions == record.actions and out[1] == to_json(replay(record, GAME))


def test_a_record_of_another_format_version_is_rejected() -> None:
    _, record = play(GAME, [RandomAgent(), RandomAgent()], seed=3)
    doc = json.loads(record.to_json())
    doc["version"] = 2
    with pytest.raises(StateFormatError, match="version 2 is not supported"):
        Record.from_json(json.dumps(doc))


@pytest.mark.parametrize(
    ("field", "value", "needle"),
    [
        ("actions", [0, 1, 9], "does not apply"),
        ("actions", [0, 0], "does not apply"),
        ("returns", [2.0, -2.0], "states returns|does not apply|replay gives"),
        ("game", "unrest_typo", "not 'kuhn'"),
        ("options", {"colour": "red"}, "options are invalid"),
        ("actions", "0,1", "actions"),
    ],
)
def test_a_corrupted_record_is_rejected(field: str, value: object, needle: str) -> None:
    _, record = play(GAME, [FirstAgent(), FirstAgent()], seed=3)
    doc = json.loads(record.to_json())
    doc["record"][field] = value
    with pytest.raises(StateFormatError, match=needle):
        replay(Record.from_json(json.dumps(doc)), GAME)


def test_a_record_that_stops_early_claims_no_returns() -> None:
    state, record = play(GAME, [FirstAgent(), FirstAgent()], seed=3, max_steps=3)
    assert record.returns is None and not GAME.is_terminal(state)
    assert replay(record, GAME) == state


def test_play_needs_one_agent_per_player() -> None:
    with pytest.raises(OptionError, match="2 players need 2 agents"):
        play(GAME, [RandomAgent()], seed=1)


class Mode(StrEnum):
    EASY = "easy"
    HARD = "hard"


@attrs.frozen
class RichOptions:
    TAG: ClassVar[str] = "test.options"
    mode: Mode = attrs.field(default=Mode.EASY, validator=attrs.validators.instance_of(Mode))
    seats: tuple[str, ...] = ("a", "b")


class _RichGame:
    options_type = RichOptions


def test_records_keep_tagged_enum_and_tuple_options_with_their_types() -> None:
    options = RichOptions(Mode.HARD, ("x", "y", "z"))
    data = json.loads(json.dumps(options_json(options)))
    assert data == {"mode": "hard", "seats": ["x", "y", "z"]}
    back = options_from_json(_RichGame(), data)
    assert back == options and type(back.mode) is Mode and type(back.seats) is tuple
    with pytest.raises(StateFormatError, match="mode"):
        options_from_json(_RichGame(), {"mode": "brutal", "seats": []})


def test_playout_is_the_loop_play_runs_and_on_step_sees_every_step() -> None:
    seen: list[Step[Any, Any]] = []
    final, record = play(GAME, [RandomAgent(), RandomAgent()], seed=11, on_step=seen.append)
    assert tuple(s.action_id for s in seen) == record.actions
    assert [s.index for s in seen] == list(range(len(seen)))
    assert seen[-1].after == final and seen[0].before == GAME.initial_state(GAME.make_options())
    assert all(a.after == b.before for a, b in itertools.pairwise(seen))
    assert [s.player for s in seen[:2]] == [CHANCE, CHANCE] and all(s.player in (0, 1) for s in seen[2:])
    # The same seed through the bare generator gives the same steps; max_steps stops it early.
    start = GAME.initial_state(GAME.make_options())
    again = list(playout(GAME, [RandomAgent(), RandomAgent()], start, seed=11))
    assert again == seen
    assert len(list(playout(GAME, [RandomAgent(), RandomAgent()], start, seed=11, max_steps=3))) == 3
    _, short = play(GAME, [RandomAgent(), RandomAgent()], seed=11, max_steps=3)
    assert short.returns is None and short.actions == record.actions[:3]
    with pytest.raises(OptionError, match="rng or a seed"):
        next(playout(GAME, [RandomAgent(), RandomAgent()], start, np.random.default_rng(0), seed=1))
