"""The Gymnasium adapter: Gymnasium's own check_env on every one-player game, masks in info, seeding, rewards."""

from __future__ import annotations

import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium import spaces
from gymnasium.utils.env_checker import check_env

from tabletop_core import IllegalActionError, OptionError
from tabletop_core.adapters.gymnasium import TabletopEnv, register_env
from tabletop_core.testing.kuhn import GAME as KUHN
from tests.adapters.games import Case, cases
from tests.adapters.solo import GAME as SOLO
from tests.adapters.solo import Scoring

ONE_PLAYER = cases(players=1)


def test_unbroken_and_solo_runebound_fights_are_among_the_games_checked() -> None:
    assert {c.name for c in ONE_PLAYER} >= {"solo", "unbroken", "runebound_coop"}
    fights = [c for c in ONE_PLAYER if c.name == "runebound_coop"]
    assert all(len(c.options["heroes"]) == 1 for c in fights) and len(fights) >= 4


# The other render modes are checked through gymnasium.make in test_register_env_makes_the_game_available...
@pytest.mark.filterwarnings("ignore:.*Not able to test alternative render modes:UserWarning")
@pytest.mark.parametrize("case", ONE_PLAYER, ids=lambda c: c.id)
def test_gymnasium_check_env_passes(case: Case) -> None:
    with warnings.catch_warnings():
        # check_env warns about unbounded Box observations; our tensors have no declared bounds.
        warnings.filterwarnings("ignore", message=".*(infinity|precision).*")
        check_env(TabletopEnv(case.game, options=case.options))
        check_env(TabletopEnv(case.game, options=case.options, render_mode="ansi"))
        check_env(TabletopEnv(case.game, options=case.options, render_mode="human"))


def _episode(env: TabletopEnv, seed: int, rng: np.random.Generator) -> tuple[list[list[float]], float]:
    obs, info = env.reset(seed=seed)
    seen = [obs.tolist()]
    total = 0.0
    terminated = False
    while not terminated:
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        obs, reward, terminated, truncated, info = env.step(action)
        assert truncated is False
        seen.append(obs.tolist())
        total += reward
    return seen, total


def test_masks_in_info_mark_exactly_the_legal_actions() -> None:
    env = TabletopEnv(SOLO)
    obs, info = env.reset(seed=0)
    assert info["action_mask"].dtype == np.int8
    assert np.flatnonzero(info["action_mask"]).tolist() == list(SOLO.legal_action_ids(env.tabletop_state))
    assert env.action_masks().tolist() == [True, True]
    assert np.array_equal(obs, SOLO.observation_tensor(env.tabletop_state, 0))


def test_a_seed_fixes_the_episode_and_the_return_is_the_sum_of_rewards() -> None:
    env = TabletopEnv(SOLO, options={"scoring": Scoring.POINTS})
    first = _episode(env, 5, np.random.default_rng(1))
    again = _episode(env, 5, np.random.default_rng(1))
    assert first == again
    assert first[1] == pytest.approx(SOLO.returns(env.tabletop_state)[0])
    starts = {tuple(_episode(env, s, np.random.default_rng(0))[0][0]) for s in range(10)}
    assert len(starts) > 1  # the setup roll comes from the seed


def test_illegal_actions_are_ignored_by_default_or_raise() -> None:
    env = TabletopEnv(SOLO, illegal_action_reward=-1.0)
    env.reset(seed=0)
    before = env.tabletop_state
    _obs, reward, terminated, truncated, info = env.step(5)
    assert env.tabletop_state == before and reward == -1.0 and info["illegal_action"] is True
    assert not terminated and not truncated
    strict = TabletopEnv(SOLO, illegal_action="raise")
    strict.reset(seed=0)
    with pytest.raises(IllegalActionError, match="cannot play id 5"):
        strict.step(5)
    # What a sampler hands over (a NumPy integer) reads as a plain id in the message.
    with pytest.raises(IllegalActionError, match=r"cannot play id 5 at .*; legal ids: \[0, 1\]$"):
        strict.step(np.int64(5))


def test_a_finished_episode_must_be_reset() -> None:
    env = TabletopEnv(SOLO, options={"turns": 1})
    _episode(env, 0, np.random.default_rng(0))
    with pytest.raises(IllegalActionError, match="reset"):
        env.step(1)


def test_only_one_player_games_make_gymnasium_environments() -> None:
    with pytest.raises(OptionError, match="one-player"):
        TabletopEnv(KUHN)
    with pytest.raises(OptionError):
        TabletopEnv(SOLO, render_mode="rgb_array")
    env = TabletopEnv(SOLO, render_mode="ansi")
    env.reset(seed=0)
    assert env.render() == SOLO.render(env.tabletop_state, 0)


def test_register_env_makes_the_game_available_to_gymnasium_make() -> None:
    env_id = register_env(SOLO)
    assert env_id == "tabletop/solo-v0" and register_env(SOLO) == env_id
    env = gymnasium.make(env_id, options={"turns": 2}, render_mode="ansi")
    assert isinstance(env.unwrapped, TabletopEnv) and env.unwrapped.game_options == {"turns": 2}
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*(infinity|precision).*")
        check_env(env.unwrapped)  # with a spec, the checker also tries the other render modes
    _observation, info = env.reset(seed=0)
    assert info["action_mask"].tolist() == [1, 1]


# ----- the mask at the end of an episode, bounds, render modes, vector environments -------------------


def test_the_mask_of_a_finished_episode_marks_only_the_action_masked_sampling_falls_back_to() -> None:
    env = TabletopEnv(SOLO, options={"turns": 1})
    _obs, info = env.reset(seed=0)
    terminated = False
    while not terminated:
        _obs, _reward, terminated, _truncated, info = env.step(env.action_space.sample(info["action_mask"]))
    assert info["action_mask"].tolist() == [1, 0] and env.action_masks().tolist() == [True, False]
    assert isinstance(env.action_space, spaces.Discrete) and env.action_space.start == 0
    assert env.action_space.sample(np.zeros(2, np.int8)) == 0  # Gymnasium's own fallback for a mask with no action


def test_observation_bounds_are_the_declared_tensor_bounds() -> None:
    space = TabletopEnv(SOLO).observation_space
    assert SOLO.spec.tensor_bounds == (0.0, 1.0) and isinstance(space, spaces.Box)
    assert space.is_bounded("both") and (space.low == 0.0).all() and (space.high == 1.0).all()


@pytest.mark.parametrize("case", ONE_PLAYER, ids=lambda c: c.id)
def test_declared_bounds_are_finite_and_hold(case: Case) -> None:
    env = TabletopEnv(case.game, options=case.options)
    bounds = case.game.spec.tensor_bounds
    assert isinstance(env.observation_space, spaces.Box)
    assert env.observation_space.is_bounded("both") == (bounds is not None)
    rng = np.random.default_rng(3)
    for seed in range(3):
        seen, _ = _episode(env, seed, rng)
        assert all(env.observation_space.contains(np.asarray(o, np.float32)) for o in seen)


def test_human_rendering_prints_the_table(capsys: pytest.CaptureFixture[str]) -> None:
    env = TabletopEnv(SOLO, render_mode="human")
    env.reset(seed=0)
    assert capsys.readouterr().out == SOLO.render(env.tabletop_state, 0) + "\n"  # shown after reset
    assert env.render() is None and capsys.readouterr().out.strip()


@pytest.mark.parametrize("case", ONE_PLAYER, ids=lambda c: c.id)
def test_vector_envs_with_the_default_autoreset_sample_masked_actions_throughout(case: Case) -> None:
    env_id = register_env(case.game)
    # Strict: an illegal action raises, so every step below took a legal action or was discarded by the autoreset.
    envs = gymnasium.make_vec(env_id, num_envs=3, options=dict(case.options), illegal_action="raise")
    assert envs.metadata["autoreset_mode"] == gymnasium.vector.AutoresetMode.NEXT_STEP
    envs.action_space.seed(0)
    _obs, info = envs.reset(seed=1)
    finished = 0
    for _ in range(150):
        masks = info["action_mask"]
        assert masks.dtype == np.int8 and (masks.sum(axis=1) >= 1).all()  # a masked softmax is defined everywhere
        actions = envs.action_space.sample(mask=tuple(masks))
        _obs, _rewards, terminated, truncated, info = envs.step(actions)
        finished += int(terminated.sum() + truncated.sum())
    envs.close()
    assert finished >= 1  # episodes ended and were reset along the way
