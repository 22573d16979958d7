"""Records: every mutant either fails to replay with StateFormatError or replays to a state that plays out."""

from __future__ import annotations

import functools
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tabletop_core.agents import RandomAgent
from tabletop_core.errors import StateFormatError
from tabletop_core.records import Record, play, replay
from tests.fuzz.games import GAMES, LONG, checked_playout, examples
from tests.fuzz.mutate import MUTATIONS, envelope_mutants, mutate, paths


@functools.cache
def records(name: str) -> tuple[str, ...]:
    """Records of a few seeded random games of ``name``, one stopped early."""
    game = GAMES[name]
    state = game.new_game(seed=0)
    agents = [RandomAgent() for _ in range(game.num_players(state))]
    out = [play(game, agents, seed)[1].to_json() for seed in range(6 if LONG else 2)]
    out.append(play(game, agents, 9, max_steps=15)[1].to_json())
    return tuple(out)


def replay_or_refuse(name: str, text: str, seed: int) -> None:
    """Replay ``text``: a refusal is a StateFormatError; a replayed state plays out."""
    game = GAMES[name]
    try:
        state = replay(text, game)
    except StateFormatError as exc:
        assert str(exc)
        return
    checked_playout(game, state, seed, steps=60)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_seed_records_replay(name: str) -> None:
    for text in records(name):
        replay(text, GAMES[name])


@pytest.mark.parametrize("name", sorted(GAMES))
@settings(max_examples=examples(40), suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(data=st.data())
def test_mutated_records_are_refused_or_replay_and_play_out(name: str, data: st.DataObject) -> None:
    texts = records(name)
    doc = json.loads(texts[data.draw(st.integers(0, len(texts) - 1), label="record")])
    places = [p for p in paths(doc) if len(p) >= 2]
    at = places[data.draw(st.integers(0, len(places) - 1), label="place")]
    family = data.draw(st.sampled_from(sorted(MUTATIONS)), label="family")
    mutant = mutate(doc, at, family, data.draw(st.integers(0, 50), label="pick"))
    if mutant is not None:
        replay_or_refuse(name, json.dumps(mutant), data.draw(st.integers(0, 2**16), label="seed"))


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_action_id_of_a_record_mutated_is_refused_or_replays(name: str) -> None:
    doc = json.loads(records(name)[0])
    actions = doc["record"]["actions"]
    for i in range(0, len(actions), max(1, len(actions) // (60 if LONG else 12))):
        for pick in (0, 1, 2, 3, 8):
            mutant = mutate(doc, ("record", "actions", i), "numbers", pick)
            assert mutant is not None
            replay_or_refuse(name, json.dumps(mutant), pick)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_record_returns_that_do_not_match_are_refused(name: str) -> None:
    record = Record.from_json(records(name)[0])
    assert record.returns is not None
    for returns in ([9.0] * len(record.returns), [], [*record.returns, 0.0]):
        doc = json.loads(record.to_json())
        doc["record"]["returns"] = returns
        with pytest.raises(StateFormatError, match="returns"):
            replay(json.dumps(doc), GAMES[name])


@pytest.mark.parametrize("name", sorted(GAMES))
def test_broken_record_envelopes_are_refused(name: str) -> None:
    for text in envelope_mutants(records(name)[0]):
        with pytest.raises(StateFormatError):
            replay(text, GAMES[name])
