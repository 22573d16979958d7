"""PettingZoo adapter: any ``tabletop_core.Game`` as an AEC environment (extra ``pettingzoo``).

>>> from tabletop_core.testing.kuhn import GAME
>>> env = TabletopAECEnv(GAME)
>>> env.reset(seed=1)
>>> env.agent_selection, env.possible_agents
('player_0', ['player_0', 'player_1'])
>>> obs, reward, terminated, truncated, info = env.last()
>>> obs["action_mask"].tolist()
[1, 1]
>>> env.step(1)
>>> env.agent_selection
'player_1'

- One agent per player (``player_0``, ``player_1``, ... unless ``agent_names`` is given); a one-player game has one
  agent, a co-operative game one per seat, each rewarded by its own return.
- Action spaces are ``Discrete(spec.num_distinct_actions)`` over the game's decision ids. Observations are dicts
  ``{"observation": game.observation_tensor(state, player), "action_mask": int8 mask}``; the mask is all zeros for
  an agent that is not the one to act.
- Chance is never an agent: after each action the chance nodes that follow are resolved from the generator that
  ``reset(seed=...)`` created (``reset()`` without a seed keeps drawing from the current one, as Gymnasium does).
- Rewards are the change of ``game.returns`` caused by each step (our games pay at the end, so the final step pays
  each agent its return). When the game ends every agent is terminated together, and each is then stepped with
  ``None`` to leave, as PettingZoo's turn-based environments do.
- An illegal action raises ``IllegalActionError`` (``illegal_action="raise"``, the default: PettingZoo's tests and
  masked samplers never send one) or is ignored (``"noop"``: no state change, the agent acts again, its reward is
  ``illegal_action_reward`` and ``infos[agent]["illegal_action"]`` is True).
- ``copy.deepcopy(env)`` gives an independent environment in the same position, with a copy of the generator (so it
  replays the same chance for the same actions); the game object and the immutable state are shared.
- ``reset(options=...)`` ignores its options: the game's options are given once, to the constructor.
- ``state()`` is ``game.state_tensor(state)``, the whole state as one vector (every seat's information, for
  centralized critics), in ``state_space``; the ``Box`` spaces take their bounds from ``spec.tensor_bounds``
  (unbounded where the game declares none).
- ``render_mode="ansi"``: ``render()`` returns the table as text; ``"human"``: ``render()`` prints it.
- ``max_cycles=N`` truncates every agent after ``N`` steps of the environment (each an agent's action, legal or
  ignored), PettingZoo's episode cap; :func:`parallel_env` gives the game as a ``ParallelEnv`` in which only the
  agent to move acts at each step (PettingZoo's ``turn_based_aec_to_parallel``).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypedDict, Unpack

import numpy as np

try:
    from gymnasium import spaces
    from pettingzoo import AECEnv, ParallelEnv
    from pettingzoo.utils.conversions import turn_based_aec_to_parallel
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise ImportError(
        "tabletop_core.adapters.pettingzoo needs PettingZoo: pip install -e '.[pettingzoo]' in a clone"
    ) from exc

from tabletop_core.adapters._common import check_illegal_mode, decode_action, shown
from tabletop_core.chance import settle
from tabletop_core.errors import IllegalActionError, OptionError
from tabletop_core.spec import CHANCE, TERMINAL

if TYPE_CHECKING:
    from tabletop_core.game import Game

__all__ = ["EnvKeywords", "TabletopAECEnv", "env", "parallel_env"]


class TabletopAECEnv(AECEnv):  # type: ignore[misc]  # pettingzoo's AECEnv is untyped for mypy here
    """An AEC (agent-environment-cycle) environment playing one game with fixed options.

    Args:
        game: any ``tabletop_core.Game``.
        options: the game's options (``game.new_game(**options)``).
        agent_names: one name per player (default ``player_0``, ``player_1``, ...).
        render_mode: ``None``, ``"ansi"`` (``render()`` returns the table as text) or ``"human"`` (it prints it).
        illegal_action: ``"raise"`` (default) or ``"noop"``; see the module docstring.
        illegal_action_reward: the reward for an ignored illegal action in ``"noop"`` mode.
        max_cycles: truncate every agent after this many steps (``None``: never); see the module docstring.
    """

    metadata: dict[str, Any] = {  # noqa: RUF012  # AECEnv declares metadata as a plain attribute
        "render_modes": ["human", "ansi"],
        "render_fps": 4,
        "name": "tabletop_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        game: Game[Any, Any, Any],
        *,
        options: Mapping[str, Any] | None = None,
        agent_names: Sequence[str] | None = None,
        render_mode: str | None = None,
        illegal_action: str = "raise",
        illegal_action_reward: float = 0.0,
        max_cycles: int | None = None,
    ) -> None:
        super().__init__()
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise OptionError(f"render_mode must be None, 'human' or 'ansi', not {render_mode!r}")
        if max_cycles is not None and (type(max_cycles) is not int or max_cycles < 1):
            raise OptionError(f"max_cycles must be a positive int or None, not {max_cycles!r}")
        self.max_cycles = max_cycles
        check_illegal_mode(illegal_action)
        self.game = game
        self.game_options = dict(options or {})
        self._initial = game.initial_state(game.make_options(**self.game_options))
        players = int(game.num_players(self._initial))
        names = list(agent_names) if agent_names is not None else [f"player_{i}" for i in range(players)]
        if len(names) != players or len(set(names)) != players:
            raise OptionError(f"{game.spec.short_name}: {players} players need {players} distinct agent names")
        self.metadata = {**type(self).metadata, "name": f"{game.spec.short_name}_v0"}
        self.render_mode = render_mode
        self.illegal_action = illegal_action
        self.illegal_action_reward = float(illegal_action_reward)
        self.possible_agents: list[str] = names
        self._index = {name: i for i, name in enumerate(names)}
        spec = game.spec
        low, high = spec.tensor_bounds if spec.tensor_bounds is not None else (-np.inf, np.inf)
        self.observation_spaces = {
            name: spaces.Dict(
                {
                    "observation": spaces.Box(low, high, shape=tuple(spec.observation_shape), dtype=np.float32),
                    "action_mask": spaces.Box(0, 1, shape=(spec.num_distinct_actions,), dtype=np.int8),
                }
            )
            for name in names
        }
        self.action_spaces = {name: spaces.Discrete(spec.num_distinct_actions) for name in names}
        self.state_space = spaces.Box(
            low, high, shape=tuple(game.state_tensor_shape(game.options(self._initial))), dtype=np.float32
        )
        self._cycles = 0
        self._rng: np.random.Generator | None = None
        self._state: Any = None
        self.agents: list[str] = []

    # ----- PettingZoo API -------------------------------------------------------------------------------------

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The observation space of ``agent`` (the same object on every call)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The action space of ``agent`` (the same object on every call)."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game; chance (setup included) is drawn from ``np.random.default_rng(seed)``."""
        if seed is not None or self._rng is None:
            self._rng = np.random.default_rng(seed)
        self._state = settle(self.game, self._initial, self._rng)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._skip_agent_selection = None
        self._cycles = 0
        self._after_move(self._state)

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """``agent``'s observation tensor and action mask (all zeros unless it is the agent to act)."""
        player = self._index[agent]
        state = self._require_state()
        mask = np.zeros(self.game.spec.num_distinct_actions, dtype=np.int8)
        if self.game.current_player(state) == player:
            mask[list(self.game.legal_action_ids(state))] = 1
        tensor = np.asarray(self.game.observation_tensor(state, player), dtype=np.float32)
        return {"observation": tensor.copy(), "action_mask": mask}

    def step(self, action: object) -> None:
        """Apply the selected agent's action (a decision id), then resolve the chance that follows."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state = self._require_state()
        player = self._index[agent]
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        tt_action = self._decode(state, action)
        if tt_action is None:
            if self.illegal_action == "raise":
                raise IllegalActionError(
                    f"{self.game.spec.short_name}: {agent} (player {player}) cannot play id {shown(action)} at "
                    f"{self.game.describe_step(state)}; legal ids: {list(self.game.legal_action_ids(state))}"
                )
            self.rewards[agent] = self.illegal_action_reward
            self.infos[agent] = {"illegal_action": True}
            self._count_cycle()
            self._accumulate_rewards()
            return
        before = self.game.returns(state)
        nxt = self.game.step(state, tt_action, rng=self._rng)
        after = self.game.returns(nxt)
        for name, i in self._index.items():
            self.rewards[name] = float(after[i]) - float(before[i])
        self.infos = {a: {} for a in self.agents}
        self._state = nxt
        self._after_move(nxt)
        self._count_cycle()
        self._accumulate_rewards()

    def render(self) -> str | None:
        """The table as text (``render_mode="ansi"``), or printed (``"human"``, returning ``None``)."""
        if self.render_mode is None:
            return None
        text = str(self.game.render(self._require_state()))
        if self.render_mode == "human":
            print(text)  # "human" rendering is printing, by PettingZoo's definition
            return None
        return text

    def state(self) -> np.ndarray:
        """The whole state as one vector (``game.state_tensor``), for centralized training; in ``state_space``."""
        return np.asarray(self.game.state_tensor(self._require_state()), dtype=np.float32).reshape(
            self.state_space.shape
        )

    def close(self) -> None:
        """Nothing to release."""

    # ----- beyond PettingZoo -----------------------------------------------------------------------------------

    @property
    def tabletop_state(self) -> Any:
        """The current (immutable) tabletop state."""
        return self._require_state()

    def __deepcopy__(self, memo: dict[int, Any]) -> TabletopAECEnv:
        clone = type(self).__new__(type(self))
        memo[id(self)] = clone
        shared = {"game", "_initial", "_state"}  # the game object is stateless and states are immutable values
        for key, value in self.__dict__.items():
            setattr(clone, key, value if key in shared else copy.deepcopy(value, memo))
        return clone

    # ----- internals -------------------------------------------------------------------------------------------

    def _require_state(self) -> Any:
        if self._state is None:
            raise RuntimeError("call reset() before using the environment")
        return self._state

    def _decode(self, state: object, action: object) -> Any:
        return decode_action(self.game, state, action)

    def _count_cycle(self) -> None:
        self._cycles += 1
        if self.max_cycles is not None and self._cycles >= self.max_cycles and not any(self.terminations.values()):
            for name in self.agents:
                self.truncations[name] = True
            self.agent_selection = self.agents[0]

    def _after_move(self, state: object) -> None:
        player = self.game.current_player(state)
        if player == TERMINAL:
            for name in self.agents:
                self.terminations[name] = True
            # Every agent leaves with a None step, starting from the first.
            self.agent_selection = self.agents[0]
            return
        if player == CHANCE:  # settle() leaves no chance node behind; a game that does is broken
            raise RuntimeError(
                f"{self.game.spec.short_name}: chance left unresolved at {self.game.describe_step(state)}"
            )
        self.agent_selection = self.possible_agents[player]


class EnvKeywords(TypedDict, total=False):
    """The keywords of :class:`TabletopAECEnv` after the game, which :func:`env` and :func:`parallel_env` pass on."""

    options: Mapping[str, Any] | None
    agent_names: Sequence[str] | None
    render_mode: str | None
    illegal_action: str
    illegal_action_reward: float
    max_cycles: int | None


def env(game: Game[Any, Any, Any], **kwargs: Unpack[EnvKeywords]) -> TabletopAECEnv:
    """``TabletopAECEnv(game, **kwargs)``, named as PettingZoo's environment constructors are."""
    return TabletopAECEnv(game, **kwargs)


def parallel_env(game: Game[Any, Any, Any], **kwargs: Unpack[EnvKeywords]) -> ParallelEnv:
    """The game as a ``ParallelEnv``: at each step only the agent to move acts (the others' actions are ignored).

    PettingZoo's ``turn_based_aec_to_parallel`` of ``TabletopAECEnv(game, **kwargs)``; its ``state()`` and
    ``state_space`` are the AEC environment's.
    """
    return turn_based_aec_to_parallel(TabletopAECEnv(game, **kwargs))
