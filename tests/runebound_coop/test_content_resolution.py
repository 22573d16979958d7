"""The options resolve their content once: no step looks it up again, and no module of the game keeps it.

The rules read ``state.options.setup``; ``build_setup`` builds the content the first time an options object's is
read (a new game's, as ``make_options`` makes them, or a saved game's, as it loads), and equal options share it.
The content is no part of the options' value: equality, hashing, repr and JSON see the options alone.
"""

from __future__ import annotations

import ast
import collections.abc
import itertools
import sys
import types
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import runebound_coop as rb
from runebound_coop.content import roster
from runebound_coop.content.roster import Setup
from runebound_coop.state import RuneboundOptions, RuneboundState
from tabletop_core import serialize, to_json
from tabletop_core.serialize import state_from_json
from tabletop_core.spec import TERMINAL
from tests.playouts import random_playout

_PACKAGE = Path(rb.__file__).parent


def _count_resolutions(monkeypatch: pytest.MonkeyPatch) -> list[RuneboundOptions]:
    """Replace ``build_setup`` wherever the package holds it with one that records the options it resolves."""
    original = roster.build_setup
    calls: list[RuneboundOptions] = []

    def counted(options: RuneboundOptions) -> Setup:
        calls.append(options)
        return original(options)

    for name, module in list(sys.modules.items()):
        if (name == "runebound_coop" or name.startswith("runebound_coop.")) and (
            getattr(module, "build_setup", None) is original
        ):
            monkeypatch.setattr(module, "build_setup", counted)
    return calls


def _play_and_read(state: RuneboundState, seed: int) -> tuple[RuneboundState, int]:
    """Play a random game from ``state`` to its end, reading everything a front end reads at every step; the
    terminal state and the steps taken."""
    steps = 0
    before = state
    for after in random_playout(rb.GAME, state, np.random.default_rng(seed)):
        rb.GAME.validate_state(after)
        rb.GAME.describe_step(after)
        rb.GAME.render(after)
        rb.GAME.observation_tensor(after, 0)
        rb.GAME.returns(after)
        if rb.GAME.current_player(after) != TERMINAL:
            for action in rb.GAME.legal_actions(after)[:3]:
                rb.GAME.action_to_str(after, action)
        if after is not before:
            steps += 1
        before = after
    return before, steps


def test_a_game_resolves_its_content_once_and_a_saved_copy_of_it_loads_with_the_same_content(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls = _count_resolutions(monkeypatch)
    # Options no other test makes, so no equal options resolved before.
    options = RuneboundOptions(heroes=("Tatianna", "Lord Hawthorne"), enemies=("Mirror Imp", "Ogre"), max_rounds=37)
    state = rb.GAME.initial_state(options)
    assert calls == [options]
    middle = list(itertools.islice(random_playout(rb.GAME, state, np.random.default_rng(5)), 40))[-1]
    end, steps = _play_and_read(state, seed=11)
    assert steps > 50 and rb.GAME.current_player(end) == TERMINAL
    assert len(calls) == 1, "a step resolved the content again"

    loaded = state_from_json(rb.GAME, to_json(middle))
    assert loaded == middle and loaded.options is not options
    assert loaded.options.setup is options.setup and len(calls) == 1  # equal options share the content
    _, steps = _play_and_read(loaded, seed=12)
    assert steps > 10 and len(calls) == 1, "a step of a loaded game resolved the content again"


def test_a_new_game_of_options_made_before_resolves_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    rb.new_game(heroes=("Lissa",), enemies=("Ogre",), max_rounds=9)  # made (and kept) before counting
    calls = _count_resolutions(monkeypatch)
    for seed in range(3):
        _play_and_read(rb.new_game(heroes=("Lissa",), enemies=("Ogre",), max_rounds=9), seed)
    assert calls == []


def _module_level_mutables(module: types.ModuleType) -> list[str]:
    found = []
    for name, value in vars(module).items():
        if name.startswith("__") and name.endswith("__"):
            continue
        mutable = isinstance(
            value, (collections.abc.MutableMapping, collections.abc.MutableSequence, collections.abc.MutableSet)
        )
        cached = callable(value) and (hasattr(value, "cache_info") or hasattr(value, "cache_clear"))
        if mutable or cached:
            found.append(name)
    return found


@pytest.mark.parametrize("module", [roster, sys.modules["runebound_coop.state"]], ids=lambda m: m.__name__)
def test_the_content_modules_keep_no_mutable_container_or_cache_at_module_level(module: types.ModuleType) -> None:
    assert _module_level_mutables(module) == []


def test_the_mutable_finder_finds_a_list_a_dict_and_a_cache() -> None:
    import functools

    probe = types.ModuleType("probe")
    probe.__dict__.update(last=[], by_key={}, cached=functools.lru_cache(maxsize=4)(len), fine=(1, 2), text="x")
    assert sorted(_module_level_mutables(probe)) == ["by_key", "cached", "last"]


def _resolver_calls(source: str) -> int:
    """How many times ``source`` calls ``build_setup`` (by name or as an attribute)."""
    count = 0
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call):
            func: Any = node.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
            count += name == "build_setup"
    return count


def test_only_the_options_resolve_their_content() -> None:
    """The content is built by ``RuneboundOptions.setup`` (the first time it is read) and by
    ``setup.check_options``, which resolves anew on purpose; a rule, view or bot calling the resolver would build
    the content again at every step."""
    callers = {
        str(path.relative_to(_PACKAGE)): n
        for path in sorted(_PACKAGE.rglob("*.py"))
        if (n := _resolver_calls(path.read_text(encoding="utf-8")))
    }
    assert callers == {"state.py": 1, "setup.py": 1}
    assert _resolver_calls("x = roster.build_setup(options)\ny = build_setup(o)") == 2


def test_the_content_is_no_part_of_the_options_value() -> None:
    made = rb.GAME.make_options(heroes=("Elian",), enemies=("Ogre",), act=2)
    other = RuneboundOptions(heroes=("Elian",), enemies=("Ogre",), act=2)
    assert made.setup is other.setup  # equal options share their content
    assert made == other and hash(made) == hash(other)
    assert "setup" not in repr(made) and repr(made) == repr(other)
    data = serialize.unstructure(made)
    names = ["heroes", "enemies", "assets", "cards", "enemy_choices", "act", "retreat", "hand", "max_rounds", "pack"]
    assert sorted(set(data) - {"$type"}) == sorted(names)
    assert serialize.structure(data, RuneboundOptions) == made
    assert "setup" not in to_json(rb.new_game(heroes=("Elian",), enemies=("Ogre",)))


def test_options_naming_content_the_pack_lacks_are_made_and_refused_where_the_content_is_read() -> None:
    options = RuneboundOptions(heroes=("Nobody",))
    for _ in range(2):  # refused every time: nothing was kept
        with pytest.raises(ValueError, match="unknown hero 'Nobody'"):
            rb.GAME.initial_state(options)
