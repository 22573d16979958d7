"""Saved states: every mutant either fails to load with StateFormatError (naming what is wrong) or loads as a state
on which every protocol function and a random checked playout succeed (no other exception, ever)."""

from __future__ import annotations

import functools
import json
from typing import Any

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tabletop_core.errors import StateFormatError
from tabletop_core.serialize import _CONVERTER, _FAST, from_json, to_json
from tests.fuzz.games import GAMES, LONG, checked_playout, examples, sample_states
from tests.fuzz.mutate import MUTATIONS, envelope_mutants, mutate, paths

#: Options that reach every kind of frame (Runebound's enemy player, Unbroken's three difficulties, Unrest's
#: Capitol variant).
OPTIONS: dict[str, list[dict[str, Any]]] = {
    "unbroken": [{"difficulty": "easy"}, {}, {"difficulty": "hard"}],
    "runebound_coop": [{"enemy_choices": "player"}, {"enemy_choices": "player", "retreat": True}, {}],
    "unrest": [{}, {"variant": "capitol"}],
}
PLAYOUT = 400 if LONG else 60


@functools.cache
def seed_docs(name: str) -> tuple[str, ...]:
    """Saved states of a few seeded games of ``name`` (their beginning, middle and end)."""
    game = GAMES[name]
    out = []
    for seed, options in enumerate(OPTIONS[name] * (4 if LONG else 1)):
        for state in sample_states(game, seed, 8, **options):
            out.append(to_json(state))
    return tuple(out)


def load_or_play(name: str, text: str, seed: int = 0) -> bool:
    """Load ``text``; a refusal must be a StateFormatError, a loaded state must play out. True when it loaded."""
    game = GAMES[name]
    try:
        state = from_json(game, text)
    except StateFormatError as exc:
        assert str(exc), "a StateFormatError says what is wrong"
        return False
    checked_playout(game, state, seed, steps=PLAYOUT)
    return True


@pytest.mark.parametrize("name", sorted(GAMES))
@settings(max_examples=examples(60), suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(data=st.data())
def test_mutated_saved_states_are_refused_or_play_out(name: str, data: st.DataObject) -> None:
    docs = seed_docs(name)
    text = docs[data.draw(st.integers(0, len(docs) - 1), label="state")]
    doc = json.loads(text)
    mutant = doc
    for _ in range(data.draw(st.integers(1, 3), label="mutations")):
        places = list(paths(mutant))
        at = places[data.draw(st.integers(0, len(places) - 1), label="place")]
        family = data.draw(st.sampled_from(sorted(MUTATIONS)), label="family")
        changed = mutate(mutant, at, family, data.draw(st.integers(0, 50), label="pick"))
        mutant = mutant if changed is None else changed
    load_or_play(name, json.dumps(mutant), seed=data.draw(st.integers(0, 2**16), label="seed"))


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_field_of_a_saved_state_mutated_is_refused_or_plays_out(name: str) -> None:
    # Field by field: every place of a mid-game state, each number nudged and replaced, each list shortened,
    # lengthened and reordered, each value given the wrong type.
    docs = seed_docs(name)
    loaded = refused = 0
    for text in docs[3::3] if LONG else docs[3:4]:
        doc = json.loads(text)
        for at in paths(doc["data"]):
            place = ("data", *at)
            for family, picks in (("numbers", (0, 1, 2, 6)), ("types", (0, 1)), ("lists", (0, 2, 4, 7))):
                for pick in picks:
                    mutant = mutate(doc, place, family, pick)
                    if mutant is None:
                        continue
                    if load_or_play(name, json.dumps(mutant), seed=pick):
                        loaded += 1
                    else:
                        refused += 1
    assert refused and loaded, (refused, loaded)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_broken_envelopes_are_refused(name: str) -> None:
    for text in envelope_mutants(seed_docs(name)[0]):
        with pytest.raises(StateFormatError):
            from_json(GAMES[name], text)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_fast_structuring_accepts_only_what_the_detailed_converter_accepts(name: str) -> None:
    # serialize.structure tries its fast converter first (flat records in one step, hooks found once) and on any
    # failure the detailed one; the fast one must build what the detailed one builds, refuse whatever it refuses,
    # and take every saved state itself (or loading is no faster). Every place of saved states, each mutated.
    cl = GAMES[name].state_type
    taken = refused = 0
    for text in seed_docs(name)[1::6]:
        data = json.loads(text)["data"]
        assert _FAST.structure(data, cl) == _CONVERTER.structure(data, cl)
        for at in paths(data):
            for family in ("numbers", "types", "lists", "objects", "strings"):  # sizes are check_sizes' part
                for pick in (0, 3, 6):
                    mutant = mutate(data, at, family, pick)
                    if mutant is None:
                        continue
                    try:
                        fast = _FAST.structure(mutant, cl)
                    except Exception:  # any failure: the detailed converter decides (and names the defect)
                        refused += 1
                        continue
                    assert _CONVERTER.structure(mutant, cl) == fast, at
                    taken += 1
    assert taken and refused, (taken, refused)


def test_flat_records_are_built_once_and_shared() -> None:
    # A loaded Unrest state's cards, position and options are frozen values built through a bounded cache:
    # loading the same game again builds none of them anew, and each equals the class called on its fields.
    text = next(t for t in seed_docs("unrest") if '"unrest.destroyed"' in t)
    game = GAMES["unrest"]
    first, second = from_json(game, text), from_json(game, text)
    assert first == second
    cards = [c for stack in first.stacks for c in stack] + list(first.destroyed)
    again = [c for stack in second.stacks for c in stack] + list(second.destroyed)
    assert cards and all(a is b for a, b in zip(cards, again, strict=True))
    assert first.options is second.options and first.pos is second.pos
    assert all(c == type(c)(*attrs.astuple(c, recurse=False)) for c in cards)
    assert first.stacks is not second.stacks  # only the flat records are shared, never a state's containers
