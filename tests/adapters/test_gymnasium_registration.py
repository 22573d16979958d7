"""Every installed game is registered with Gymnasium under an importable entry point, named by the game's name."""

from __future__ import annotations

import pickle
import subprocess
import sys
from importlib.metadata import entry_points

import gymnasium
import pytest
from gymnasium.envs.registration import EnvSpec, load_env_creator

from tabletop_core import OptionError, available_games
from tabletop_core.adapters import gymnasium as adapter
from tabletop_core.adapters.gymnasium import ENTRY_POINT, TabletopEnv, register_env, register_envs
from tests.adapters.solo import GAME as SOLO


def test_the_package_declares_a_gymnasium_envs_entry_point_that_registers_the_games() -> None:
    found = [ep for ep in entry_points(group="gymnasium.envs") if ep.value.startswith("tabletop_core.")]
    assert [ep.name for ep in found] == ["tabletop"]
    assert found[0].load() is register_envs
    assert register_envs() == tuple(f"tabletop/{name}-v0" for name in available_games())


@pytest.mark.parametrize("name", available_games())
def test_each_installed_game_has_an_id_whose_entry_point_is_an_importable_string(name: str) -> None:
    spec = gymnasium.spec(f"tabletop/{name}-v0")
    assert spec.entry_point == ENTRY_POINT and isinstance(spec.entry_point, str)
    assert load_env_creator(spec.entry_point) is TabletopEnv
    assert spec.kwargs == {"game": name}
    again = EnvSpec.from_json(spec.to_json())
    assert again == spec and pickle.loads(pickle.dumps(spec)) == spec


def test_the_registered_unbroken_id_makes_an_environment_from_a_serialized_spec() -> None:
    spec = EnvSpec.from_json(gymnasium.spec("tabletop/unbroken-v0").to_json())
    env = gymnasium.make(spec)
    assert isinstance(env.unwrapped, TabletopEnv) and env.unwrapped.game.spec.short_name == "unbroken"
    _obs, info = env.reset(seed=1)
    assert info["action_mask"].sum() >= 1
    solo = gymnasium.make("tabletop/runebound_coop-v0", options={"heroes": ["Elian"]})
    assert solo.reset(seed=2)[1]["action_mask"].sum() >= 1


def test_gymnasium_make_finds_the_games_from_the_module_part_of_the_id_in_a_fresh_process() -> None:
    code = (
        "import gymnasium\n"
        "env = gymnasium.make('tabletop_core.adapters.gymnasium:tabletop/unbroken-v0')\n"
        "obs, info = env.reset(seed=3)\n"
        "print(type(env.unwrapped).__name__, obs.shape, int(info['action_mask'].sum()) > 0)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split()[0] == "TabletopEnv" and done.stdout.split()[-1] == "True"


def test_a_game_named_in_a_spec_is_looked_up_among_the_installed_games_only() -> None:
    with pytest.raises(OptionError, match="no installed game named 'os:path'"):
        TabletopEnv("os:path")
    with pytest.raises(OptionError, match="one-player game"):
        gymnasium.make("tabletop/unrest-v0")


def test_a_game_object_of_ones_own_is_registered_with_the_same_entry_point() -> None:
    env_id = register_env(SOLO, "tabletop-test/solo-registered-v0")
    spec = gymnasium.spec(env_id)
    assert spec.entry_point == adapter.ENTRY_POINT and spec.kwargs["game"] is SOLO
    assert isinstance(gymnasium.make(env_id).unwrapped, TabletopEnv)
