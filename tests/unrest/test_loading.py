"""A loaded state is one the rules reach: ``from_json`` refuses every state whose logs no history of the rules
replays (``rebuild_history`` refuses it), even where the table alone passes every invariant."""

from __future__ import annotations

import attrs
import pytest

import unrest
from tabletop_core.errors import StateFormatError
from tabletop_core.serialize import from_json, to_json
from tests.unrest.helpers import game_states
from unrest import invariants, worlds
from unrest.actions import NUM_MOVE_CODES
from unrest.state import UnrestState


def round_three() -> UnrestState:
    """The start of round 3 of a seeded game between the bots."""
    return next(s for s in game_states(0, bots=True) if s.round == 3 and s.step == "target")


def _rebuilds(state: UnrestState) -> bool:
    try:
        worlds.rebuild_history(unrest.GAME, state)
    except ValueError:
        return False
    return True


def _table_passes(state: UnrestState) -> bool:
    try:
        invariants.validate_state(state)
    except ValueError:
        return False
    return True


def _loads(state: UnrestState) -> bool:
    try:
        loaded: UnrestState = from_json(unrest.GAME, to_json(state))
    except StateFormatError:
        return False
    return loaded == state


def _tampered_moves(state: UnrestState) -> list[UnrestState]:
    """``state`` with one id of its public move log changed, where the table's invariants still pass."""
    out = []
    for i, code in enumerate(state.moves):
        for other in range(NUM_MOVE_CODES):
            if other != code:
                bad = attrs.evolve(state, moves=(*state.moves[:i], other, *state.moves[i + 1 :]))
                if _table_passes(bad):
                    out.append(bad)
    return out


def test_a_state_no_play_reaches_is_refused_by_from_json_when_rebuild_history_refuses_it() -> None:
    state = round_three()
    assert _loads(state) and _rebuilds(state)
    tampered = _tampered_moves(state)
    dropped = [attrs.evolve(state, missions=state.missions[:j] + state.missions[j + 1 :]) for j in (1, 2, 3)]
    tampered += [s for s in dropped if _table_passes(s)]
    refused = [s for s in tampered if not _rebuilds(s)]
    # Such states exist: one changed id of the log, and a Mission dropped in round 3, pass the table's invariants.
    assert any(s.missions == state.missions for s in refused)
    assert any(len(s.missions) < len(state.missions) for s in refused)
    for bad in tampered:
        assert _loads(bad) == _rebuilds(bad)


@pytest.mark.parametrize("seed", [1, 2])
def test_every_state_of_a_played_game_still_loads(seed: int) -> None:
    for state in game_states(seed)[::4]:
        assert from_json(unrest.GAME, to_json(state)) == state
