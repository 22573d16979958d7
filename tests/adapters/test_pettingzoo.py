"""The PettingZoo adapter: PettingZoo's own api_test and seed_test on every game, masks, chance, rewards, deepcopy."""

from __future__ import annotations

import copy
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest
from gymnasium import spaces
from pettingzoo.test import api_test, max_cycles_test, render_test, seed_test, state_test

from tabletop_core import IllegalActionError, OptionError
from tabletop_core.adapters.pettingzoo import TabletopAECEnv, env, parallel_env
from tabletop_core.testing.kuhn import GAME as KUHN
from tests.adapters.games import INSTALLED, Case, cases
from tests.adapters.solo import GAME as SOLO

_CYCLES = {"kuhn": 200, "kuhn_recall": 100, "solo": 200}


def test_every_library_game_is_among_the_environments_tested() -> None:
    tested = cases()
    assert {c.name for c in tested} >= {"kuhn", "unrest", "unbroken", "runebound_coop"}
    parties = [c for c in tested if c.name == "runebound_coop" and len(c.options.get("heroes", ())) >= 2]
    assert parties and all(len(TabletopAECEnv(c.game, options=c.options).possible_agents) >= 2 for c in parties)
    solo = TabletopAECEnv(INSTALLED["unbroken"])
    assert solo.possible_agents == ["player_0"]


# The observation is the {"observation", "action_mask"} Dict of PettingZoo's classic games, which api_test exempts
# from these two warnings only by their names.
@pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be:UserWarning")
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array:UserWarning")
@pytest.mark.parametrize("case", cases(), ids=lambda c: c.id)
def test_pettingzoo_api_test_passes(case: Case, capsys: pytest.CaptureFixture[str]) -> None:
    api_test(TabletopAECEnv(case.game, options=case.options), num_cycles=_CYCLES.get(case.name, 60))
    assert "Passed API test" in capsys.readouterr().out


@pytest.mark.parametrize("case", cases(), ids=lambda c: c.id)
def test_pettingzoo_seed_test_passes(case: Case) -> None:
    seed_test(lambda: TabletopAECEnv(case.game, options=case.options), num_cycles=_CYCLES.get(case.name, 40))


def _play_masked(e: TabletopAECEnv, rng: np.random.Generator, steps: int | None = None) -> list[Any]:
    """Step with uniformly random legal actions; return what each step showed."""
    trace = []
    for n, agent in enumerate(e.agent_iter()):
        if steps is not None and n >= steps:
            break
        obs, reward, terminated, truncated, _ = e.last()
        trace.append((agent, obs["observation"].tolist(), obs["action_mask"].tolist(), reward, terminated))
        if terminated or truncated:
            e.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        e.step(int(rng.choice(legal)))
    return trace


def test_agents_spaces_and_masks_follow_the_game() -> None:
    e = env(KUHN)
    e.reset(seed=0)
    assert e.possible_agents == ["player_0", "player_1"] and e.agents == e.possible_agents
    space = e.action_space("player_0")
    assert isinstance(space, spaces.Discrete) and space.n == KUHN.spec.num_distinct_actions
    obs = e.observe("player_0")
    assert obs["observation"].dtype == np.float32 and obs["observation"].shape == KUHN.spec.observation_shape
    assert obs["action_mask"].dtype == np.int8 and obs["action_mask"].tolist() == [1, 1]
    assert e.observe("player_1")["action_mask"].tolist() == [0, 0]  # not player 1's turn
    assert np.array_equal(obs["observation"], KUHN.observation_tensor(e.tabletop_state, 0))
    assert str(e) == "kuhn_v0"
    named = env(KUHN, agent_names=["alice", "bob"])
    named.reset(seed=0)
    assert named.agent_selection == "alice"


def test_chance_is_resolved_from_the_reset_seed() -> None:
    deals = set()
    for seed in range(12):
        a, b = env(KUHN), env(KUHN)
        a.reset(seed=seed)
        b.reset(seed=seed)
        assert a.tabletop_state == b.tabletop_state
        assert not KUHN.is_chance_node(a.tabletop_state)
        assert a.tabletop_state == KUHN.new_game(seed=seed)  # the same draws as the library's own seeding
        deals.add(a.tabletop_state.hands)
    assert len(deals) > 3


def test_rewards_are_the_returns_and_everyone_leaves_at_the_end() -> None:
    e = env(KUHN)
    e.reset(seed=4)
    e.step(1)  # player 0 bets
    e.step(0)  # player 1 folds
    assert all(e.terminations.values())
    assert e.rewards == {"player_0": 1.0, "player_1": -1.0}
    assert e.last()[1] == 1.0 and e.last()[2] is True
    e.step(None)
    e.step(None)
    assert e.agents == []


def test_one_player_game_has_one_agent() -> None:
    e = env(SOLO)
    e.reset(seed=2)
    assert e.possible_agents == ["player_0"]
    trace = _play_masked(e, np.random.default_rng(0))
    assert trace[-1][4] is True and e.agents == []


def _only_hold_left() -> TabletopAECEnv:
    """A Solo environment after three rolls without a bust, where only ``hold`` (id 1) is legal."""
    for seed in range(50):
        e = env(SOLO, options={"turns": 1, "target": 20})
        e.reset(seed=seed)
        for _ in range(3):
            if e.terminations["player_0"]:
                break
            e.step(0)
        if e.agents and not e.terminations["player_0"] and e.observe("player_0")["action_mask"].tolist() == [0, 1]:
            return e
    raise AssertionError("no seed below 50 rolls three times without a bust")


def test_illegal_actions_raise_or_are_ignored() -> None:
    e = _only_hold_left()
    with pytest.raises(IllegalActionError, match="cannot play id 0"):
        e.step(0)
    with pytest.raises(IllegalActionError, match=r"player_0 \(player 0\) cannot play id 0 at .*; legal ids: \[1\]$"):
        e.step(np.int64(0))  # what a sampler hands over reads as a plain id
    noop = env(SOLO, options={"turns": 1}, illegal_action="noop", illegal_action_reward=-0.5)
    noop.reset(seed=0)
    before = noop.tabletop_state
    noop.step(7)
    assert noop.tabletop_state == before and noop.infos["player_0"] == {"illegal_action": True}
    assert noop.last()[1] == -0.5
    with pytest.raises(OptionError):
        env(SOLO, illegal_action="ignore")


def test_deepcopy_gives_an_independent_environment_in_the_same_position() -> None:
    e = env(KUHN)
    e.reset(seed=11)
    e.step(0)  # player 0 passes
    twin = copy.deepcopy(e)
    assert twin.tabletop_state == e.tabletop_state and twin.agent_selection == e.agent_selection
    assert twin.game is e.game
    assert twin.action_space("player_0") is not e.action_space("player_0")
    # Same actions from the same position give the same game (the generator was copied, not shared).
    rng_a, rng_b = np.random.default_rng(5), np.random.default_rng(5)
    assert _play_masked(e, rng_a) == _play_masked(twin, rng_b)
    # And moving one leaves the other where it was.
    g = env(SOLO)
    g.reset(seed=3)
    h = copy.deepcopy(g)
    frozen = h.tabletop_state
    _play_masked(g, np.random.default_rng(1))
    assert g.agents == [] and h.agents == ["player_0"] and h.tabletop_state == frozen
    # Chance after the copy is drawn independently but identically.
    g2 = env(SOLO)
    g2.reset(seed=9)
    h2 = copy.deepcopy(g2)
    g2.step(0)
    h2.step(0)
    assert g2.tabletop_state == h2.tabletop_state


def test_render_and_global_state(capsys: pytest.CaptureFixture[str]) -> None:
    e = env(KUHN, render_mode="ansi")
    e.reset(seed=1)
    assert e.render() == KUHN.render(e.tabletop_state)
    # Kuhn hides each card from the other player: the state is both players' information states, in seat order.
    assert e.state().shape == e.state_space.shape == (2 * KUHN.spec.observation_shape[0],)
    assert np.array_equal(e.state(), KUHN.state_tensor(e.tabletop_state))
    assert e.state_space.contains(e.state()) and e.state_space.bounded_below.all() and e.state_space.bounded_above.all()
    quiet = env(KUHN)
    quiet.reset(seed=1)
    assert quiet.render() is None
    loud = env(KUHN, render_mode="human")
    loud.reset(seed=1)
    capsys.readouterr()
    assert loud.render() is None and capsys.readouterr().out == KUHN.render(loud.tabletop_state) + "\n"
    with pytest.raises(OptionError):
        env(KUHN, render_mode="rgb_array")


@pytest.mark.parametrize("case", cases(), ids=lambda c: c.id)
def test_deepcopy_is_independent_and_in_the_same_position_for_every_game(case: Case) -> None:
    e = TabletopAECEnv(case.game, options=case.options)
    e.reset(seed=21)
    _play_masked(e, np.random.default_rng(0), steps=6)
    twin = copy.deepcopy(e)
    assert twin.tabletop_state == e.tabletop_state
    assert (twin.agents, twin.agent_selection, twin.terminations) == (e.agents, e.agent_selection, e.terminations)
    frozen = twin.tabletop_state
    original = _play_masked(e, np.random.default_rng(7))
    assert twin.tabletop_state == frozen  # playing the original on did not move the copy
    assert _play_masked(twin, np.random.default_rng(7)) == original  # same actions, same chance: same game


# ----- PettingZoo's state, render and max-cycles tests ------------------------------------------------


@pytest.mark.parametrize("case", cases(), ids=lambda c: c.id)
def test_pettingzoo_state_test_passes(case: Case) -> None:
    # state_test samples the whole action space, so the environments ignore illegal actions here.
    aec = TabletopAECEnv(case.game, options=case.options, illegal_action="noop")
    state_test(
        aec, parallel_env(case.game, options=case.options, illegal_action="noop"), num_cycles=_CYCLES.get(case.name, 30)
    )
    aec.reset(seed=3)
    assert (
        aec.state().shape
        == aec.state_space.shape
        == case.game.state_tensor_shape(case.game.make_options(**case.options))
    )
    assert np.array_equal(aec.state(), case.game.state_tensor(aec.tabletop_state))


@pytest.mark.parametrize("case", cases(), ids=lambda c: c.id)
def test_pettingzoo_render_test_passes(case: Case, capsys: pytest.CaptureFixture[str]) -> None:
    def make(render_mode: str | None = None) -> TabletopAECEnv:
        return TabletopAECEnv(case.game, options=case.options, render_mode=render_mode)

    render_test(make)
    assert make().metadata["render_modes"] == ["human", "ansi"]
    assert capsys.readouterr().out.strip()  # human mode printed the table


def _capped(case: Case, max_cycles: int, *, parallel: bool) -> Any:
    """An environment of ``case`` capped at ``max_cycles``, its chance and its action sampling seeded."""
    kwargs: dict[str, Any] = {"options": case.options, "illegal_action": "noop", "max_cycles": max_cycles}
    made = parallel_env(case.game, **kwargs) if parallel else TabletopAECEnv(case.game, **kwargs)
    made.reset(seed=7)  # max_cycles_test resets without a seed: the generator seeded here goes on
    for i, agent in enumerate(made.possible_agents):
        made.action_space(agent).seed(11 + i)
    return made


#: Where PettingZoo's max_cycles_test applies: a one-agent game whose shortest episode outlasts its 4 cycles.
#: Unbroken on easy and normal always takes more than 4 decisions; a Runebound fight can end on its first decision,
#: and in the turn-based games with several agents one agent acts several times in a row, not once per cycle.
MAX_CYCLES_CASES = [c for c in cases(players=1) if c.name == "unbroken" and c.options["difficulty"] != "hard"]


@pytest.mark.parametrize("case", MAX_CYCLES_CASES, ids=lambda c: c.id)
def test_pettingzoo_max_cycles_test_passes(case: Case) -> None:
    max_cycles_test(
        SimpleNamespace(
            env=lambda max_cycles: _capped(case, max_cycles, parallel=False),
            parallel_env=lambda max_cycles: _capped(case, max_cycles, parallel=True),
        )
    )


def test_max_cycles_truncates_every_agent_and_counts_ignored_actions() -> None:
    e = env(KUHN, illegal_action="noop", max_cycles=2)
    e.reset(seed=0)
    e.step(5)  # ignored: an illegal id still takes a step
    assert not any(e.truncations.values())
    e.step(0)  # player 0 passes: the second step
    assert all(e.truncations.values()) and not any(e.terminations.values())
    e.step(None)
    e.step(None)
    assert e.agents == []
    with pytest.raises(OptionError, match="max_cycles"):
        env(KUHN, max_cycles=0)
