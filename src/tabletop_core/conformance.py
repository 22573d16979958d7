"""The conformance suite: the protocol's promises, checked at every state of seeded random playouts.

``check_game(game, games=100, seed=0)`` raises :class:`ConformanceError` on the first violation, naming the seed,
the step and the check; users run it on their own games too.

>>> from tabletop_core.testing.kuhn import GAME
>>> check_game(GAME, games=5, seed=0).states > 0
True
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Generic, TypeVar

import attrs
import numpy as np

from tabletop_core.agents import Agent, RandomAgent, SearchAgent
from tabletop_core.errors import ConformanceError, IllegalActionError
from tabletop_core.flow import Driver, Pending
from tabletop_core.game import Game
from tabletop_core.leakcheck import LeakBudget, LeakCheck
from tabletop_core.records import Record, options_json, playout, replay
from tabletop_core.serialize import from_json, to_json
from tabletop_core.spec import CHANCE, TERMINAL

__all__ = ["ConformanceError", "ConformanceReport", "check_game"]

S = TypeVar("S")
A = TypeVar("A")

_PROB_TOLERANCE = 1e-9
_PARSE_ALL = 12


@attrs.frozen
class ConformanceReport:
    """What a passing run covered."""

    games: int
    states: int
    decisions: int
    chance_nodes: int
    terminal: int


class _Checker(Generic[S, A]):
    def __init__(
        self, game: Game[S, A, Any], seed: int, rng: np.random.Generator, invariant: Callable[[S], None] | None = None
    ) -> None:
        self.game, self.seed, self.rng, self.invariant = game, seed, rng, invariant
        self.name = game.spec.short_name
        self.step_index = 0
        self.decisions_seen: dict[int, dict[Any, int]] = {}

    def fail(self, check: str, detail: str) -> ConformanceError:
        return ConformanceError(self.name, self.seed, self.step_index, check, detail)

    def expect(self, ok: bool, check: str, detail: str) -> None:
        if not ok:
            raise self.fail(check, detail)

    def check_state(self, state: S, deep: bool) -> tuple[A, ...]:
        game, spec = self.game, self.game.spec
        player = game.current_player(state)
        n = game.num_players(state)
        self.expect(player in (CHANCE, TERMINAL) or 0 <= player < n, "current_player", f"player {player}")
        legal = game.legal_actions(state)
        self.expect(isinstance(legal, tuple), "legal_actions is a tuple", type(legal).__name__)
        self.expect(game.is_terminal(state) == (player == TERMINAL), "is_terminal", f"player {player}")
        if player == TERMINAL:
            self.expect(not legal, "no actions when terminal", f"{len(legal)} actions")
        else:
            self.expect(bool(legal), "legal actions non-empty", f"none at {game.describe_step(state)}")
        ids = [game.action_id(a) for a in legal]
        self.expect(len(set(ids)) == len(ids), "legal actions unique", f"ids {ids}")
        self.expect(ids == sorted(ids), "legal actions sorted by id", f"ids {ids}")
        self.expect(len(set(legal)) == len(legal), "legal actions unique", "equal actions repeated")
        space = spec.max_chance_outcomes if player == CHANCE else spec.num_distinct_actions
        self.expect(all(0 <= i < space for i in ids), "action ids in range", f"ids {ids} not in range({space})")
        if player == CHANCE:
            outcomes = game.chance_outcomes(state)
            self.expect(tuple(a for a, _ in outcomes) == legal, "chance outcomes are the legal actions", f"{outcomes}")
            probs = [p for _, p in outcomes]
            self.expect(all(p > 0 for p in probs), "chance probabilities positive", f"{probs}")
            self.expect(
                math.isclose(sum(probs), 1.0, abs_tol=_PROB_TOLERANCE),
                "chance probabilities sum to 1",
                f"{sum(probs)}",
            )
        mask = game.legal_action_mask(state)
        self.expect(mask.dtype == np.bool_ and mask.shape == (space,), "mask shape", f"{mask.dtype} {mask.shape}")
        self.expect(sorted(np.flatnonzero(mask).tolist()) == ids, "mask matches legal actions", f"{ids}")
        texts = [" ".join(game.action_to_str(state, a).lower().split()) for a in legal]
        self.expect(len(set(texts)) == len(texts), "action strings unique", f"{texts}")
        # parse_action is O(len(legal)) per call: read back every string of small sets, a spread sample of large.
        sample = range(len(legal)) if len(legal) <= _PARSE_ALL else np.linspace(0, len(legal) - 1, _PARSE_ALL)
        for k in sorted({int(i) for i in sample}):
            a = legal[k]
            text = game.action_to_str(state, a)
            self.expect(game.parse_action(state, text) == a, "string codec round trip", f"{text!r} -> {a!r}")
        for a in legal:
            self.expect(game.action_from_id(state, game.action_id(a)) == a, "id codec round trip", repr(a))
            self.expect(game.is_legal(state, a), "is_legal agrees with legal_actions", repr(a))
        self.check_frames(state)
        try:
            game.validate_state(state)
        except ValueError as exc:
            raise self.fail("validate_state holds at every reachable state", str(exc)) from exc
        if self.invariant is not None:
            try:
                self.invariant(state)
            except (AssertionError, ValueError) as exc:
                raise self.fail("game invariant", f"{type(exc).__name__}: {exc}") from exc
        for p in range(n):
            tensor = game.observation_tensor(state, p)
            self.expect(
                tensor.dtype == np.float32 and tensor.shape == spec.observation_shape,
                "observation tensor shape and dtype",
                f"{tensor.dtype} {tensor.shape}, spec {spec.observation_shape}",
            )
            view = game.observe(state, p)
            self.expect(hash(view) == hash(game.observe(state, p)), "observe is a hashable value", f"player {p}")
            det = game.determinize(state, p, self.rng)
            self.expect(game.observe(det, p) == view, "determinize keeps the view", f"player {p}")
            if spec.provides_information_state:
                self.check_information_state(state, det, p, player)
        if deep:
            self.check_deep(state, legal, player)
        return legal

    def check_frames(self, state: S) -> None:
        """A driven game with a frame registry: the frame that owns the next event is of a registered kind, and
        every frame of the state's pending stack of a kind registered as one that may be pending."""
        driver = getattr(self.game, "driver", None)
        frames = driver.frames if isinstance(driver, Driver) else None
        if frames is None:
            return
        owner = driver.locate(state)  # type: ignore[union-attr]  # a Driver, since it has frames
        self.expect(
            owner is None or type(owner) in frames,
            "every frame is of a registered kind",
            f"{type(owner).__name__} is no kind of frame {frames.name} registers",
        )
        stack = getattr(state, "pending", None)
        if isinstance(stack, Pending):
            try:
                frames.check_stack(stack.frames)
            except ValueError as exc:
                raise self.fail("every pending frame is of a registered pending kind", str(exc)) from exc

    def check_information_state(self, state: S, det: S, p: int, to_act: int) -> None:
        """Shape, value, no leak through determinization, and perfect recall at ``p``'s own decisions."""
        game, spec = self.game, self.game.spec
        tensor = game.information_state_tensor(state, p)
        shape = spec.information_state_tensor_shape
        self.expect(
            tensor.dtype == np.float32 and tensor.shape == shape,
            "information state tensor shape and dtype",
            f"{tensor.dtype} {tensor.shape}, spec {shape}",
        )
        info = game.information_state(state, p)
        self.expect(hash(info) == hash(game.information_state(state, p)), "information state is a value", f"{p}")
        self.expect(
            game.information_state(det, p) == info and np.array_equal(game.information_state_tensor(det, p), tensor),
            "determinize keeps the information state",
            f"player {p}",
        )
        if p == to_act:
            # Perfect recall: a player's decisions along one game are made in different information states (each
            # remembers the earlier ones), so an information state seen at an earlier decision is a lapse.
            earlier = self.decisions_seen.setdefault(p, {}).setdefault(info, self.step_index)
            self.expect(
                earlier == self.step_index,
                "information state is perfect recall",
                f"player {p} decides at steps {earlier} and {self.step_index} in the same information state",
            )

    def check_deep(self, state: S, legal: tuple[A, ...], player: int) -> None:
        game = self.game
        before_json, before_hash = to_json(state), hash(state)
        try:
            back = from_json(game, before_json)
        except Exception as exc:  # report any failure of the round trip as a violation
            raise self.fail("JSON round trip", f"{type(exc).__name__}: {exc}") from exc
        self.expect(back == state, "JSON round trip gives an equal state", before_json[:200])
        for a in legal:
            game.step(state, a)
            self.expect(to_json(state) == before_json and hash(state) == before_hash, "step never mutates", repr(a))
            action_back = from_json(game, to_json(a))
            self.expect(action_back == a, "action JSON round trip", repr(a))
        if player == TERMINAL:
            return
        legal_ids = {game.action_id(a) for a in legal}
        space = game.spec.max_chance_outcomes if player == CHANCE else game.spec.num_distinct_actions
        for bad_id in [i for i in range(space) if i not in legal_ids][:3]:
            try:
                bad = game.action_from_id(state, bad_id)
            except (IllegalActionError, ValueError):
                continue
            self.expect_illegal(state, bad, before_json)
        self.expect_illegal(state, object(), before_json)

    def expect_illegal(self, state: S, action: Any, before_json: str) -> None:  # Any: wrong types on purpose
        game = self.game
        self.expect(not game.is_legal(state, action), "is_legal rejects", repr(action))
        try:
            game.step(state, action)
        except IllegalActionError:
            pass
        except Exception as exc:  # anything but IllegalActionError is a violation
            raise self.fail("illegal action raises IllegalActionError", f"{type(exc).__name__}: {exc}") from exc
        else:
            raise self.fail("illegal action raises IllegalActionError", f"{action!r} was applied")
        self.expect(to_json(state) == before_json, "illegal action leaves the state unchanged", repr(action))
        game.legal_actions(state)


def check_game(
    game: Game[S, A, Any],
    games: int = 100,
    seed: int = 0,
    *,
    options: Mapping[str, Any] | None = None,
    agents: Sequence[Agent | SearchAgent] | None = None,
    deep_every: int = 1,
    invariant: Callable[[S], None] | None = None,
    leaks: LeakBudget | None = None,
    progress: Callable[[int, int], object] | None = None,
) -> ConformanceReport:
    """Play ``games`` seeded playouts (seeds ``seed, seed+1, ...``) and check every protocol promise at each state.

    The playouts are :func:`~tabletop_core.records.playout`'s, the loop ``play`` and the CLI use; each state is
    checked before the next action is chosen.

    Args:
        game: the ``Game`` to check.
        games: how many playouts.
        seed: the first seed.
        options: ``new_game`` options for every playout.
        agents: one agent per player (default: random agents).
        deep_every: run the expensive checks (JSON round trip, stepping every legal action, illegal actions)
            at every ``deep_every``-th state; 1 checks them everywhere.
        invariant: a game-specific check run at every state (raise ``AssertionError`` or ``ValueError`` to fail),
            in addition to the game's own ``validate_state``.
        leaks: the budget of the hidden-information checks (:mod:`tabletop_core.leakcheck`), run on every playout
            of a game that is not of perfect information; ``LeakBudget(states=0)`` turns them off.
        progress: called as ``progress(done, games)`` at the start and after each playout.

    Raises:
        ConformanceError: on the first violation, naming the seed, the step and the check.
    """
    totals = {"states": 0, "decisions": 0, "chance": 0, "terminal": 0}
    spec = game.spec
    hidden = LeakCheck(game, leaks)
    if progress is not None:
        progress(0, games)
    for g in range(games):
        game_seed = seed + g
        checker = _Checker(game, game_seed, np.random.default_rng([game_seed, 1]), invariant)
        state = game.initial_state(game.make_options(**dict(options or {})))
        players = game.num_players(state)
        bots: Sequence[Agent | SearchAgent] = agents if agents is not None else [RandomAgent()] * players
        ids: list[int] = []
        trail = [state]
        checker.check_state(state, deep=True)
        totals["states"] += 1
        steps = playout(game, bots, state, np.random.default_rng(game_seed), max_steps=spec.max_game_length)
        for step in steps:
            totals["chance" if step.player == CHANCE else "decisions"] += 1
            state = step.after
            ids.append(step.action_id)
            trail.append(state)
            checker.step_index += 1
            checker.check_state(state, deep=checker.step_index % deep_every == 0)
            totals["states"] += 1
        checker.expect(game.is_terminal(state), "length within max_game_length", f"{spec.max_game_length}")
        totals["terminal"] += 1
        returns = tuple(game.returns(state))
        checker.expect(len(returns) == players, "one return per player", f"{returns}")
        checker.expect(
            all(spec.min_utility - 1e-9 <= r <= spec.max_utility + 1e-9 for r in returns),
            "returns within the spec's bounds",
            f"{returns} not in [{spec.min_utility}, {spec.max_utility}]",
        )
        if spec.utility_sum is not None:
            checker.expect(math.isclose(sum(returns), spec.utility_sum, abs_tol=1e-9), "utility sum", f"{returns}")
        opts = game.options(state)
        record = Record(spec.short_name, options_json(opts), game_seed, tuple(ids), returns)
        try:
            replayed = replay(Record.from_json(record.to_json()), game, states=True)
        except Exception as exc:  # a record that cannot be replayed is a violation, whatever the cause
            raise checker.fail("replaying the record reproduces the game", f"{type(exc).__name__}: {exc}") from exc
        checker.expect(tuple(replayed) == tuple(trail), "replaying the record reproduces the game", f"{len(ids)} ids")
        hidden.playout(trail, [game.action_from_id(s, i) for s, i in zip(trail, ids, strict=False)], game_seed)
        if progress is not None:
            progress(g + 1, games)
    return ConformanceReport(games, totals["states"], totals["decisions"], totals["chance"], totals["terminal"])
