"""Gymnasium adapter: any one-player ``tabletop_core.Game`` as a single-agent environment (extra ``gymnasium``).

- ``action_space`` is ``Discrete(spec.num_distinct_actions)`` over the game's decision ids; ``observation_space`` is a
  float32 ``Box`` of ``spec.observation_shape`` holding ``game.observation_tensor(state, 0)``, bounded by the game's
  declared ``spec.tensor_bounds`` (unbounded only for a game that declares none).
- ``info["action_mask"]`` (int8, one entry per action id) marks the legal actions, so masked samplers
  (``env.action_space.sample(info["action_mask"])``) and masked policies work. When the episode has ended there is
  no legal action, and the mask marks action ``action_space.start`` (0) alone: the action Gymnasium's masked
  sampling returns for a mask without legal actions, which the vector environments' default (next-step)
  autoreset discards when it resets; so masked sampling, and a masked softmax, are defined at every step.
- Chance (setup included) is drawn from ``env.np_random``, which ``reset(seed=...)`` seeds, so a seed fixes an
  episode for a given sequence of actions.
- The reward of a step is the change of the player's return (our games pay at the end, so the last step pays the
  final return); ``terminated`` is the end of the game; ``truncated`` is always False (wrap the environment in
  ``gymnasium.wrappers.TimeLimit`` to cap episodes).
- An action outside the legal ones is ignored by default (``illegal_action="noop"``: the state does not change, the
  reward is ``illegal_action_reward``, ``info["illegal_action"]`` is True), because Gymnasium's checker and unmasked
  learners sample the whole action space; ``illegal_action="raise"`` raises ``IllegalActionError`` instead.
- ``reset(options=...)`` ignores its options: the game's options are given once, to the constructor.
- ``render_mode="ansi"``: ``render()`` returns the table as text; ``"human"``: ``render()`` prints it (after each
  ``reset`` and ``step`` too, as Gymnasium's human mode does).
- Every installed game is registered with Gymnasium as ``tabletop/<name>-v0`` (:func:`register_envs`), so
  ``gymnasium.make("tabletop/unbroken-v0")`` works: with Gymnasium 0.29 after ``import gymnasium`` alone (the
  package's ``gymnasium.envs`` entry point), with Gymnasium 1.x, which has no plug-in entry points, after importing
  this module, or in one call as ``gymnasium.make("tabletop_core.adapters.gymnasium:tabletop/unbroken-v0")``. Only
  a game whose options give one player can be made (``options={"heroes": ["Elian"]}`` for a solo Runebound fight).
  The registered entry point is the importable string ``"tabletop_core.adapters.gymnasium:TabletopEnv"`` and the
  game is named by its installed name, so a registered spec survives ``EnvSpec.to_json`` and worker processes.
  :func:`register_env` registers a game object of your own the same way.

>>> from tabletop_core.adapters.gymnasium import TabletopEnv
>>> from tabletop_core.testing.kuhn import GAME
>>> TabletopEnv(GAME)
Traceback (most recent call last):
...
tabletop_core.errors.OptionError: kuhn: a Gymnasium environment needs a one-player game; these options give 2 players
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

try:
    import gymnasium
    from gymnasium import spaces
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise ImportError(
        "tabletop_core.adapters.gymnasium needs Gymnasium: pip install -e '.[gymnasium]' in a clone"
    ) from exc

from tabletop_core.adapters._common import check_illegal_mode, decode_action, shown
from tabletop_core.chance import settle
from tabletop_core.errors import IllegalActionError, OptionError
from tabletop_core.registry import available_games, load_game
from tabletop_core.spec import TERMINAL

if TYPE_CHECKING:
    from tabletop_core.game import Game

__all__ = ["ENTRY_POINT", "TabletopEnv", "register_env", "register_envs"]

#: What every registered environment id builds: an importable string, as Gymnasium's specs expect.
ENTRY_POINT = "tabletop_core.adapters.gymnasium:TabletopEnv"


class TabletopEnv(gymnasium.Env[np.ndarray, np.int64]):
    """A single-agent environment playing one-player game with fixed options.

    Args:
        game: any ``tabletop_core.Game`` whose options give one player, or the name of an installed game
            (``"unbroken"``), as a registered environment id passes it.
        options: the game's options (``game.new_game(**options)``).
        render_mode: ``None``, ``"ansi"`` (``render()`` returns the table as text) or ``"human"`` (it prints it).
        illegal_action: ``"noop"`` (default) or ``"raise"``; see the module docstring.
        illegal_action_reward: the reward for an ignored illegal action.
    """

    metadata: dict[str, Any] = {  # noqa: RUF012  # gymnasium.Env declares metadata as a plain attribute
        "render_modes": ["ansi", "human"],
        "render_fps": 4,
    }

    def __init__(
        self,
        game: Game[Any, Any, Any] | str,
        *,
        options: Mapping[str, Any] | None = None,
        render_mode: str | None = None,
        illegal_action: str = "noop",
        illegal_action_reward: float = 0.0,
    ) -> None:
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise OptionError(f"render_mode must be None, 'ansi' or 'human', not {render_mode!r}")
        check_illegal_mode(illegal_action)
        if isinstance(game, str):
            game = _installed_game(game)
        self.game = game
        self.game_options = dict(options or {})
        self._initial = game.initial_state(game.make_options(**self.game_options))
        players = int(game.num_players(self._initial))
        if players != 1:
            raise OptionError(
                f"{game.spec.short_name}: a Gymnasium environment needs a one-player game; "
                f"these options give {players} players"
            )
        spec = game.spec
        self.render_mode = render_mode
        self.illegal_action = illegal_action
        self.illegal_action_reward = float(illegal_action_reward)
        low, high = spec.tensor_bounds if spec.tensor_bounds is not None else (-np.inf, np.inf)
        self.observation_space = spaces.Box(low, high, shape=tuple(spec.observation_shape), dtype=np.float32)
        self._actions = spaces.Discrete(spec.num_distinct_actions)
        self.action_space = self._actions
        self._state: Any = None

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Start a new game; its setup chance is drawn from ``self.np_random`` (seeded by ``seed``)."""
        super().reset(seed=seed)
        self._state = settle(self.game, self._initial, self.np_random)
        self._show()
        return self._observation(), self._info()

    def step(self, action: object) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """Apply one decision id, then resolve the chance that follows from ``self.np_random``."""
        state = self._require_state()
        if self.game.current_player(state) == TERMINAL:
            raise IllegalActionError(f"{self.game.spec.short_name}: the game is over; call reset()")
        tt_action = self._decode(state, action)
        if tt_action is None:
            if self.illegal_action == "raise":
                raise IllegalActionError(
                    f"{self.game.spec.short_name}: cannot play id {shown(action)} at "
                    f"{self.game.describe_step(state)}; "
                    f"legal ids: {list(self.game.legal_action_ids(state))}"
                )
            info = self._info()
            info["illegal_action"] = True
            self._show()
            return self._observation(), self.illegal_action_reward, False, False, info
        before = float(self.game.returns(state)[0])
        nxt = self.game.step(state, tt_action, rng=self.np_random)
        self._state = nxt
        reward = float(self.game.returns(nxt)[0]) - before
        self._show()
        return self._observation(), reward, bool(self.game.is_terminal(nxt)), False, self._info()

    def render(self) -> str | None:
        """The table as text (``render_mode="ansi"``), or printed (``"human"``, returning ``None``)."""
        if self.render_mode is None:
            return None
        text = str(self.game.render(self._require_state(), 0))
        if self.render_mode == "human":
            print(text)  # "human" rendering is printing, for a text game
            return None
        return text

    def action_masks(self) -> np.ndarray:
        """The current action mask as bools (the method name that masked-PPO wrappers look for); see ``_mask``."""
        return self._mask().astype(bool)

    @property
    def tabletop_state(self) -> Any:
        """The current (immutable) tabletop state."""
        return self._require_state()

    # ----- internals -------------------------------------------------------------------------------------------

    def _require_state(self) -> Any:
        if self._state is None:
            raise RuntimeError("call reset() before using the environment")
        return self._state

    def _show(self) -> None:
        if self.render_mode == "human":
            self.render()

    def _mask(self) -> np.ndarray:
        mask = np.zeros(self.game.spec.num_distinct_actions, dtype=np.int8)
        state = self._require_state()
        if self.game.is_terminal(state):
            mask[int(self._actions.start)] = 1  # see the module docstring: the action autoreset discards
        else:
            mask[list(self.game.legal_action_ids(state))] = 1
        return mask

    def _observation(self) -> np.ndarray:
        tensor = self.game.observation_tensor(self._require_state(), 0)
        return np.array(tensor, dtype=np.float32, copy=True)

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self._mask()}

    def _decode(self, state: object, action: object) -> Any:
        return decode_action(self.game, state, action)


def _installed_game(name: str) -> Game[Any, Any, Any]:
    # A name reaches us from a registered (possibly deserialized) spec: resolve it among the installed games only,
    # never as a module path to import.
    if name not in available_games():
        raise OptionError(f"no installed game named {name!r}; installed: {', '.join(available_games()) or 'none'}")
    return load_game(name)


def register_env(game: Game[Any, Any, Any], env_id: str | None = None, **kwargs: object) -> str:
    """Register ``TabletopEnv(game, **kwargs)`` with Gymnasium so ``gymnasium.make(env_id)`` builds it.

    ``env_id`` defaults to ``tabletop/<short_name>-v0``; registering the same id again is a no-op.
    ``gymnasium.make(env_id, options={...}, render_mode="ansi")`` passes its keywords on to ``TabletopEnv``. The
    entry point is :data:`ENTRY_POINT`; an installed game is named in the spec's keywords by its name, any other
    game object is passed as it is.

    Returns:
        The environment id.
    """
    env_id = env_id or f"tabletop/{game.spec.short_name}-v0"
    if env_id not in gymnasium.registry:
        name = game.spec.short_name
        named = name in available_games() and load_game(name) is game
        kwargs = {"game": name if named else game, **kwargs}
        gymnasium.register(id=env_id, entry_point=ENTRY_POINT, kwargs=kwargs)
    return env_id


def register_envs() -> tuple[str, ...]:
    """Register ``tabletop/<name>-v0`` for every installed game (what the ``gymnasium.envs`` entry point calls).

    The games are not imported here: each id names its game, which is loaded when the environment is made. Ids
    already registered are left as they are.

    Returns:
        The environment ids, sorted.
    """
    ids = []
    for name in available_games():
        env_id = f"tabletop/{name}-v0"
        if env_id not in gymnasium.registry:
            gymnasium.register(id=env_id, entry_point=ENTRY_POINT, kwargs={"game": name})
        ids.append(env_id)
    return tuple(ids)


register_envs()
