"""Open-loop Monte Carlo tree search that serves perfect information, chance and hidden information alike.

The tree is keyed by the sequence of decision ids from the root; chance outcomes are never nodes of the tree but
are sampled afresh from their exact distribution on every iteration (open-loop chance sampling). So a chance node
with a thousand outcomes costs no more than one with two: the statistics of the decision that follows average
over the outcomes with their true probabilities, and the tree never splits into branches that are each visited
once. In a hidden-information game every iteration starts from a new ``determinize`` of the root, which makes the
search a single-observer information-set MCTS (SO-ISMCTS, Cowling, Powley and Whitehouse 2012): actions are
scored with availability counts, because an action legal in one determinization may not be in another.

Budgets: ``iterations`` (a count) and ``seconds`` (wall time per decision), whichever ends first. A count gives
the same game for the same seed on any machine; a time budget does not, because the number of iterations it
buys depends on the machine and its load.

Rollouts: uniform random by default; ``rollout="heuristic"`` plays the game's own bots
(``Game.default_agents``) to the end, and any :class:`RolloutPolicy` may be given.

Chance: open-loop sampling (``chance="sample"``, the default) is cheap and needs no memory per outcome, but it
averages the decisions that follow a chance node over all its outcomes, so it undervalues a gamble whose best
follow-up depends on how the dice fell. ``chance="widen"`` puts chance outcomes in the tree (closed loop) with
progressive widening (Couetoux et al. 2011, "double progressive widening"): a chance node visited ``n`` times
holds at most ``ceil(widening * (n + 1) ** widening_power)`` sampled outcomes, and once full it samples among
them in proportion to their true probabilities. Each kept outcome is visited often enough to learn its own
follow-up, and the node grows toward the full distribution as the budget grows, so the search stays sound with
thousands of outcomes (tests/core/test_mcts.py shows the open-loop search picking the wrong move where the
widened one picks the right one).

Prior: by default selection is UCB1, which tries every action once before any twice, so a budget smaller than a
few visits per action spreads its rollouts evenly and picks on noise. ``prior="heuristic"`` (the game's own bots)
or any :class:`RolloutPolicy` makes selection PUCT (Silver et al. 2017, with the policy as a one-move prior):
``q + exploration * p * sqrt(m) / (1 + n)``, where the policy's move in the node's current state has prior
probability ``p = prior_weight + (1 - prior_weight) / k`` and every other of the ``k`` legal actions
``(1 - prior_weight) / k``. A small budget then starts from the policy's move and moves off it only when the
rollouts say so; every action keeps a positive prior, so a large budget still finds what the policy misses
(tests/core/test_mcts.py, a corridor of fatal doors).

Objective: by default (``objective="return"``) each seat's backed-up value is its return, so the search maximizes
the expected return. ``objective="win"`` backs up 1 for a game the seat won and 0 otherwise, judged by
:func:`tabletop_core.outcomes.seat_outcomes` (the project's one rule for wins: in a co-op game the
party wins together; a tie, such as a Runebound withdrawal, scores 0 like a loss), so the search maximizes the
probability of winning. Where a game lets a seat bank a tie (Runebound: a withdrawal returns 0, a loss -1), the two
differ: the expected return prefers the sure tie to a gamble that wins less than half the time, the chance to win
takes the gamble. A rollout cut at ``rollout_limit`` scores what ``evaluate`` (default ``game.returns``) says of the
state it stopped in, judged by the same rule: under ``"win"`` it counts as a win only if those returns would be a
win at the end of the game (a game's returns before the end are usually all 0, which is no win).

Exploration: ``exploration`` is the UCB (or PUCT) constant on values scaled to [0, 1]. With
``exploration_scale="spread"`` each node multiplies it by the standard deviation of the values backed up through
the node over 1/2 (the largest a value in [0, 1] can have), at least :attr:`MCTSAgent.SPREAD_FLOOR` of it. Where
rollouts almost always score the same (under ``objective="win"``, random rollouts of a hard game that rarely win)
the actions' means differ by hundredths while a fixed constant explores by tenths, so a small budget spreads its
visits evenly and picks on noise; scaled, the exploration shrinks to what the values can tell apart, and where
they are spread it stays as given (tests/core/test_mcts_exploration.py).

Stopping early: with an iteration budget, ``stop_early=True`` ends a decision's search as soon as the most
visited action at the root leads every other by more than the iterations left. Each iteration adds one visit to
one root action, so no other action could reach its count, and the move is the one the whole budget would have
chosen from the same generator: the same play for less time (the rule of "smart pruning" in Go engines). What
differs is what comes after: the generator has made fewer draws, and a kept subtree (``reuse``) holds fewer
visits for the next decision, so with tree reuse a stopped search leaves the next one less to start from.

Cost: an iteration's time is almost all the game's own calls (a random rollout to the end), so the search asks
the game as little as it can: in a perfect-information search a node whose path from the root holds only edges
of the tree (decisions, and widened chance outcomes) stands for one state, and keeps its legal actions, their ids
and each tried edge's successor, so later visits ask the game nothing there. Past an open-loop chance outcome, or
over determinizations, nodes stand for many states and cache nothing.

Tree reuse: when the searching agent is the only player of the game, the subtree under the action it played
becomes the next decision's root. Open loop, that is the subtree itself, kept only when the move led straight to
the next decision (its statistics average over every chance outcome that could follow the move, which says
nothing about the one that did: after a low roll they would still say "keep", because rolls are high on
average); widened, it is the subtree under the chance outcomes that happened, found by the state they led to
(perfect information only). With other players between its moves the agent is not told their moves, so it
searches afresh. An agent plays one game at a time (the runners build fresh agents for every game); call
:meth:`MCTSAgent.reset` before reusing an instance for another game.

>>> from tabletop_core.testing.kuhn import GAME
>>> from tabletop_core import play, RandomAgent
>>> _, record = play(GAME, [MCTSAgent(iterations=50), RandomAgent()], seed=1)
>>> record.returns is not None
True
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

import numpy as np

from tabletop_core.agent import Agent, SearchAgent, choose_action
from tabletop_core.chance import outcome_at
from tabletop_core.errors import TabletopError
from tabletop_core.outcomes import seat_outcomes
from tabletop_core.spec import CHANCE, TERMINAL, GameSpec, Information

if TYPE_CHECKING:
    from tabletop_core.game import Game

__all__ = ["AgentRollout", "MCTSAgent", "RandomRollout", "RolloutPolicy"]

S = TypeVar("S")
A = TypeVar("A")


class RolloutPolicy(Protocol):
    """Chooses the actions of a rollout, for every player."""

    def __call__(self, game: Game[S, A, Any], state: S, player: int, legal: Sequence[A], rng: np.random.Generator) -> A:
        """One of ``legal``, the move of ``player`` in ``state``."""
        ...


class RandomRollout:
    """Uniformly random rollout moves."""

    def __call__(self, game: Game[S, A, Any], state: S, player: int, legal: Sequence[A], rng: np.random.Generator) -> A:
        """A uniformly random legal action."""
        return legal[int(rng.integers(len(legal)))]

    def __repr__(self) -> str:
        return "RandomRollout()"


class AgentRollout:
    """Rollout moves chosen by agents, one per seat (for example the game's heuristic bots).

    Each agent sees only ``game.observe(state, player)`` (or a determinization, for a search agent), as it would
    at the table.

    Args:
        agents: one agent per seat; ``None`` means the game's own bots, taken from ``game.default_agents``
            at the first rollout.
    """

    def __init__(self, agents: Sequence[Agent | SearchAgent] | None = None) -> None:
        self.agents: list[Agent | SearchAgent] | None = list(agents) if agents is not None else None

    def __call__(self, game: Game[S, A, Any], state: S, player: int, legal: Sequence[A], rng: np.random.Generator) -> A:
        """The seat's agent's move."""
        if self.agents is None:
            self.agents = list(game.default_agents(state))
        return choose_action(self.agents[player], game, state, player, rng)

    def __repr__(self) -> str:
        return "AgentRollout(heuristic)" if self.agents is None else f"AgentRollout({self.agents!r})"


class _Draws:
    """Uniform draws in [0, 1) from a generator, taken a block at a time.

    One ``Generator.random(64)`` call costs about as much as two scalar draws, and a scalar
    ``Generator.integers`` several; a search makes dozens of draws per iteration. The draws are the generator's
    own stream, so a seed still fixes the search.
    """

    __slots__ = ("buf", "rng")

    BLOCK = 64

    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng
        self.buf: list[float] = []

    def refill(self) -> list[float]:
        """The buffer, refilled with a fresh block."""
        self.buf = self.rng.random(self.BLOCK).tolist()
        return self.buf

    def index(self, n: int) -> int:
        """A uniform index in ``range(n)``."""
        buf = self.buf or self.refill()
        x = buf.pop() * n
        return int(x) if 0.0 <= x < n else (n - 1 if x >= n else 0)  # a duck-typed generator's bad draw, folded

    def outcome(self, outcomes: Sequence[tuple[Any, float]]) -> Any:
        """One of ``(outcome, probability)`` pairs, by probability (as :func:`~tabletop_core.chance.sample_outcome`)."""
        buf = self.buf or self.refill()
        return outcome_at(outcomes, buf.pop())

    def position(self, outcomes: Sequence[tuple[Any, float]]) -> int:
        """The position in ``outcomes`` of the outcome :meth:`outcome` would draw (from the same one draw)."""
        buf = self.buf or self.refill()
        u = buf.pop()
        acc = 0.0
        for k, (_, p) in enumerate(outcomes):
            acc += p
            if u < acc:
                return k
        return len(outcomes) - 1


def _win_values(spec: GameSpec, returns: Sequence[float]) -> tuple[float, ...]:
    """Each seat's value under ``objective="win"``: 1.0 for a won game, 0.0 for a tie or a loss."""
    return tuple(1.0 if o == "win" else 0.0 for o in seat_outcomes(spec, returns))


class _Node:
    """A decision (or, widened, a chance) node: statistics per action id, and what an exact path caches.

    In a perfect-information search a node whose path from the root holds decisions and widened chance outcomes
    only (edges of the tree) stands for one state, the same on every visit: it keeps that state's actor, its legal
    actions (at a widened chance node, its outcomes) with their ids, and the state each tried edge led to
    (``after``), so later visits ask the game nothing there. Open loop, a sampled chance outcome is no edge: the
    nodes below it stand for the states of every outcome, and cache nothing (``legal`` stays ``None``), as do all
    nodes of a search over determinizations.
    """

    __slots__ = ("actor", "after", "avail", "count", "ids", "legal", "squares", "state", "total", "visits", "wins")

    def __init__(self) -> None:
        self.visits: dict[int, int] = {}
        self.wins: dict[int, float] = {}
        # Over all the node's visits (``exploration_scale="spread"`` only): their number, values' sum and squares.
        self.count = 0
        self.total = 0.0
        self.squares = 0.0
        self.avail: dict[int, int] = {}
        self.state: Any = None  # widened search, perfect information: the state, for tree reuse
        self.legal: Sequence[Any] | None = None
        self.ids: list[int] = []
        self.actor = 0
        self.after: dict[int, Any] = {}


Tree = dict[tuple[int, ...], _Node]


class MCTSAgent:
    """UCT search with open-loop chance sampling (a :class:`~tabletop_core.agents.SearchAgent`).

    Args:
        iterations: the most simulations per decision (default 200, or unlimited when ``seconds`` is given).
        seconds: the most wall time per decision, in seconds (``None``: no time limit).
        exploration: the UCB constant, applied to returns scaled to [0, 1] (see ``normalize``).
        normalize: ``"spec"`` scales returns by the spec's utility bounds; ``"observed"`` by the lowest and highest
            return this search's rollouts have met (for a game whose utility bounds are far wider than its usual
            results, such as Unbroken's scores, so the exploration constant keeps its meaning).
        rollout_limit: the most actions a rollout takes before ``evaluate`` scores the state.
        evaluate: scores a non-terminal state for every player (default: ``game.returns``).
        rollout: ``"random"``, ``"heuristic"`` (the game's own bots, see :class:`AgentRollout`) or a
            :class:`RolloutPolicy`.
        rollout_policy: the older form of a custom rollout, ``(state, legal_actions, rng) -> action``.
        reuse: keep the subtree of the chosen action for the next decision, where that is sound (see the module).
        chance: ``"sample"`` (open loop) or ``"widen"`` (outcomes in the tree, with progressive widening).
        widening: the widening coefficient (``chance="widen"``).
        widening_power: the widening exponent, in (0, 1) (``chance="widen"``).
        prior: ``None`` (UCB1, every action tried once before any is tried twice), ``"heuristic"`` (the game's own
            bots), ``"rollout"`` (the rollout policy) or a :class:`RolloutPolicy`: the policy's move at each tree
            node gets ``prior_weight`` of a prior distribution (the rest spread evenly over the legal actions) and
            selection is PUCT (see the module), so a small budget starts from the policy's move and leaves it only
            on evidence.
        prior_weight: the prior's share on the policy's move, in [0, 1).
        objective: ``"return"`` (maximize the expected return) or ``"win"`` (maximize the probability of winning:
            each seat backs up 1 for a won game and 0 for a tie or a loss, by
            :func:`~tabletop_core.outcomes.seat_outcomes`; a rollout cut at ``rollout_limit`` is judged
            on ``evaluate``'s returns the same way). See the module.
        exploration_scale: ``"fixed"`` (the constant as given) or ``"spread"`` (at each node, the constant times
            the standard deviation of the node's backed-up values over 1/2, at least ``SPREAD_FLOOR`` of it). See
            the module.
        stop_early: with ``iterations``, end a decision's search once no other root action can reach the most
            visited one's count in the iterations left (the same move, sooner; see the module).
    """

    #: Whether every iteration starts from a fresh determinization (``ISMCTSAgent`` sets it always).
    always_determinize = False
    #: Under ``exploration_scale="spread"``, the least share of ``exploration`` a node keeps (a node whose every
    #: rollout scored the same still tries its other actions, slowly).
    SPREAD_FLOOR = 0.1

    def __init__(
        self,
        iterations: int | None = None,
        *,
        seconds: float | None = None,
        exploration: float = 1.4,
        rollout_limit: int = 400,
        evaluate: Callable[[Any, Any], Sequence[float]] | None = None,
        rollout: str | RolloutPolicy = "random",
        rollout_policy: Callable[[Any, Sequence[Any], np.random.Generator], Any] | None = None,
        reuse: bool = True,
        chance: str = "sample",
        widening: float = 1.0,
        widening_power: float = 0.5,
        normalize: str = "spec",
        prior: str | RolloutPolicy | None = None,
        prior_weight: float = 0.5,
        objective: str = "return",
        exploration_scale: str = "fixed",
        stop_early: bool = False,
    ) -> None:
        if normalize not in ("observed", "spec"):
            raise TabletopError(f"{type(self).__name__}: normalize must be 'observed' or 'spec', not {normalize!r}")
        if chance not in ("sample", "widen"):
            raise TabletopError(f"{type(self).__name__}: chance must be 'sample' or 'widen', not {chance!r}")
        if not (widening > 0 and 0 < widening_power < 1):
            raise TabletopError(f"{type(self).__name__}: need widening > 0 and 0 < widening_power < 1")
        if not 0 <= prior_weight < 1:
            raise TabletopError(f"{type(self).__name__}: prior_weight must be in [0, 1), not {prior_weight}")
        if objective not in ("return", "win"):
            raise TabletopError(f"{type(self).__name__}: objective must be 'return' or 'win', not {objective!r}")
        if exploration_scale not in ("fixed", "spread"):
            raise TabletopError(
                f"{type(self).__name__}: exploration_scale must be 'fixed' or 'spread', not {exploration_scale!r}"
            )
        if iterations is not None and iterations < 1:
            raise TabletopError(f"{type(self).__name__}: iterations must be >= 1, not {iterations}")
        if seconds is not None and not seconds > 0:
            raise TabletopError(f"{type(self).__name__}: seconds must be > 0, not {seconds}")
        self.iterations = iterations if iterations is not None else (200 if seconds is None else None)
        self.seconds = seconds
        self.exploration = exploration
        self.rollout_limit = rollout_limit
        self.evaluate = evaluate
        self.rollout_name = rollout if isinstance(rollout, str) else repr(rollout)
        self.policy: RolloutPolicy = self._policy(rollout, rollout_policy)
        self.reuse = reuse
        self.widen = chance == "widen"
        self.widening = widening
        self.widening_power = widening_power
        self.normalize = normalize
        self.prior_name = prior if prior is None or isinstance(prior, str) else repr(prior)
        self.prior: RolloutPolicy | None = None if prior is None else self._prior(prior)
        self.prior_weight = prior_weight
        self.objective = objective
        self.spread = exploration_scale == "spread"
        self.stop_early = bool(stop_early)
        self._seen = [math.inf, -math.inf]  # the lowest and highest rollout return of the current search
        self._norm = (0.0, 1.0)  # (low, scale) that maps a mean return to [0, 1] in the UCB score
        self._kept: Tree | None = None
        self._after: Any = None  # open loop: the state the kept subtree's root stands for (the chosen move's result)
        self._draws = _Draws(np.random.default_rng(0))  # replaced by one on the caller's generator per decision
        #: Iterations run for the last decision, and root visits it inherited by tree reuse.
        self.last_iterations = 0
        self.reused_visits = 0

    @staticmethod
    def _policy(
        rollout: str | RolloutPolicy, legacy: Callable[[Any, Sequence[Any], np.random.Generator], Any] | None
    ) -> RolloutPolicy:
        if legacy is not None:
            return lambda game, state, player, legal, rng: legacy(state, legal, rng)
        if rollout == "random":
            return RandomRollout()
        if rollout == "heuristic":
            return AgentRollout()
        if isinstance(rollout, str):
            raise TabletopError(f"MCTSAgent: rollout must be 'random', 'heuristic' or a policy, not {rollout!r}")
        return rollout

    def _prior(self, prior: str | RolloutPolicy) -> RolloutPolicy:
        if prior == "rollout":
            return self.policy
        if prior == "heuristic":
            return AgentRollout()
        if isinstance(prior, str):
            raise TabletopError(
                f"{type(self).__name__}: prior must be 'heuristic', 'rollout', a policy or None, not {prior!r}"
            )
        return prior

    def __repr__(self) -> str:
        text = (
            f"{type(self).__name__}(iterations={self.iterations}, seconds={self.seconds}, "
            f"exploration={self.exploration}, rollout={self.rollout_name!r}"
        )
        if self.widen:
            text += f", chance='widen', widening={self.widening}, widening_power={self.widening_power}"
        if self.prior is not None:
            text += f", prior={self.prior_name!r}, prior_weight={self.prior_weight}"
        if self.objective != "return":
            text += f", objective={self.objective!r}"
        if self.spread:
            text += ", exploration_scale='spread'"
        if self.stop_early:
            text += ", stop_early=True"
        return text + ")"

    def reset(self) -> None:
        """Forget the kept subtree (before playing another game with this instance)."""
        self._kept = self._after = None

    def act_in(self, game: Game[S, A, Any], state: S, player: int, rng: np.random.Generator) -> A:
        """Search from ``state`` (a determinization when information is hidden) and return the most visited action."""
        legal = game.legal_actions(state)
        if len(legal) == 1:
            self._kept = None
            return legal[0]
        hidden = self.always_determinize or game.spec.information == Information.IMPERFECT
        low, high = game.spec.min_utility, game.spec.max_utility
        if self.objective == "win":
            low, high = 0.0, 1.0  # the backed-up values are 1 (won) and 0 (tie or loss)
        scale = 1.0 / (high - low) if high > low else 1.0
        self._seen = [math.inf, -math.inf]
        ids = [game.action_id(a) for a in legal]
        tree = self._reused(state, ids, hidden) if self.reuse and game.num_players(state) == 1 else None
        tree = tree if tree is not None else {}
        self.reused_visits = sum(tree[()].visits.values()) if () in tree else 0
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        self._draws = _Draws(rng)
        done = 0
        cap = self.iterations if self.stop_early else None
        while (self.iterations is None or done < self.iterations) and (
            deadline is None or done == 0 or time.perf_counter() < deadline
        ):
            root = game.determinize(state, player, rng) if hidden else state
            self._iterate(game, root, tree, rng, (low, scale), keep_states=self.widen and not hidden, exact=not hidden)
            done += 1
            if cap is not None and self._settled(tree[()].visits, ids, cap - done):
                break
        self.last_iterations = done
        node = tree[()]
        by_id = dict(zip(ids, legal, strict=True))
        best = max(by_id, key=lambda i: (node.visits.get(i, 0), node.wins.get(i, 0.0), -i))
        self._kept = {key[1:]: n for key, n in tree.items() if key and key[0] == best} if self.reuse else None
        if self._kept and not self.widen:
            after = node.after.get(best)  # the chosen move's result, if the tree kept it
            self._after = game.apply_unchecked(state, by_id[best]) if after is None else after
        else:
            self._after = None
        return by_id[best]

    @staticmethod
    def _settled(visits: dict[int, int], ids: Sequence[int], left: int) -> bool:
        """Whether the most visited of ``ids`` leads every other by more than ``left`` visits (none can catch it)."""
        first = second = 0
        for i in ids:
            v = visits.get(i, 0)
            if v > first:
                first, second = v, first
            elif v > second:
                second = v
        return first > second + left

    def _reused(self, state: object, ids: Sequence[int], hidden: bool) -> Tree | None:
        """The kept subtree that ``state`` roots, if any (see the module)."""
        kept, self._kept = self._kept, None
        if not kept:
            return None
        if self.widen:
            if hidden:
                return None
            # The outcomes that happened since: the chance-only path whose decision node holds this state.
            found = [k for k, n in kept.items() if all(x < 0 for x in k) and n.state is not None and n.state == state]
            if not found:
                return None
            kept = {key[len(found[0]) :]: n for key, n in kept.items() if key[: len(found[0])] == found[0]}
        elif not (self._after is state or self._after == state):
            # Open loop, the kept root's statistics average over every chance outcome that could follow the move;
            # once one has happened they answer another question (keep a low roll because rolls are high on
            # average), so they are kept only when the move led straight to this decision.
            return None
        if () not in kept or not set(ids) <= set(kept[()].avail):
            return None
        return kept

    def _iterate(
        self,
        game: Game[S, A, Any],
        state: S,
        tree: Tree,
        rng: np.random.Generator,
        norm: tuple[float, float],
        *,
        keep_states: bool,
        exact: bool,
    ) -> None:
        """One iteration: select down the tree, expand one node, roll out, back up.

        ``exact``: ``state`` is the root itself (perfect information), so the nodes reached by edges of the tree
        alone may cache their state's legal actions and successors (see :class:`_Node`); the first open-loop
        chance outcome on the path ends that.
        """
        low, scale = norm
        key: tuple[int, ...] = ()
        trail: list[tuple[_Node, int, int]] = []
        current_player, legal_actions, apply = game.current_player, game.legal_actions, game.apply_unchecked
        action_id, draws = game.action_id, self._draws
        widen = self.widen
        while True:
            node = tree.get(key)
            if exact and node is not None and node.legal is not None:
                actor, legal, ids = node.actor, node.legal, node.ids
                fresh = False
            else:
                actor = current_player(state)
                if actor == TERMINAL:
                    break
                if actor == CHANCE and not widen:
                    exact = False  # open loop: the nodes below stand for every outcome's state
                    state = apply(state, draws.outcome(game.chance_outcomes(state)))
                    continue
                fresh = node is None
                if node is None:
                    node = tree[key] = _Node()
                    if keep_states and actor != CHANCE:
                        node.state = state
                if actor == CHANCE:  # widened: the outcomes are edges of the tree
                    legal = game.chance_outcomes(state)
                    ids = [action_id(a) for a, _ in legal]
                else:
                    legal = legal_actions(state)
                    ids = [action_id(a) for a in legal]
                if exact:
                    node.actor, node.legal, node.ids = actor, legal, ids
            if actor == CHANCE:
                k = self._widened(node, legal, ids)
                chosen = ids[k]
                if exact:
                    after = node.after
                    nxt = after.get(chosen)
                    if nxt is None:
                        nxt = after[chosen] = apply(state, legal[k][0])
                    state = nxt
                else:
                    state = apply(state, legal[k][0])
                key = (*key, -1 - chosen)
                continue
            avail, visits = node.avail, node.visits
            seen = avail.get
            for i in ids:
                avail[i] = seen(i, 0) + 1
            if self.prior is not None:
                # The policy's move in this very state: open loop and across determinizations a node's state varies.
                k = self._best_puct(node, ids, action_id(self.prior(game, state, actor, legal, rng)))
                untried = ids[k] not in visits
            else:
                unvisited = [k for k, i in enumerate(ids) if i not in visits]
                k = unvisited[draws.index(len(unvisited))] if unvisited else self._best_ucb(node, ids)
                untried = bool(unvisited)
            chosen = ids[k]
            trail.append((node, chosen, actor))
            if exact:
                after = node.after
                nxt = after.get(chosen)
                if nxt is None:
                    nxt = after[chosen] = apply(state, legal[k])
                state = nxt
            else:
                state = apply(state, legal[k])
            key = (*key, chosen)
            if fresh or untried:
                break
        values = self._rollout(game, state, rng)
        if self.objective == "win":
            values = _win_values(game.spec, values)
        self._seen[0] = min(self._seen[0], *values)
        self._seen[1] = max(self._seen[1], *values)
        if self.normalize == "observed":
            lo, hi = self._seen
            low, scale = (lo, 1.0 / (hi - lo)) if hi > lo else (lo, 0.0)
        self._norm = (low, scale)
        for node, action, actor in trail:
            node.visits[action] = node.visits.get(action, 0) + 1
            node.wins[action] = node.wins.get(action, 0.0) + values[actor]
        if self.spread:
            for node, _, actor in trail:
                v = values[actor]
                node.count += 1
                node.total += v
                node.squares += v * v

    def _widened(self, node: _Node, outcomes: Sequence[tuple[Any, float]], ids: Sequence[int]) -> int:
        """The position in ``outcomes`` (with ids ``ids``) of a chance outcome under progressive widening: a fresh
        draw while the node may grow, else one of its outcomes in proportion to their true probabilities."""
        seen = node.visits
        allowed = math.ceil(self.widening * (sum(seen.values()) + 1) ** self.widening_power)
        kept = [(k, p) for k, (_, p) in enumerate(outcomes) if ids[k] in seen]
        mass = sum(p for _, p in kept)
        if len(kept) < min(allowed, len(outcomes)) or mass <= 0:
            k = self._draws.position(outcomes)
        else:
            k = self._draws.outcome(tuple((k, p / mass) for k, p in kept))
        oid = ids[k]
        seen[oid] = seen.get(oid, 0) + 1
        return int(k)

    def _exploration(self, node: _Node, scale: float) -> float:
        """The exploration constant at ``node``: ``exploration``, or under ``exploration_scale="spread"`` that times
        the standard deviation of the node's backed-up values (scaled to [0, 1]) over 1/2, the largest it can be,
        and at least :attr:`SPREAD_FLOOR` of it."""
        c = self.exploration
        if not self.spread or node.count < 2:
            return c
        mean = node.total / node.count
        variance = (node.squares / node.count - mean * mean) * scale * scale
        share = 2.0 * math.sqrt(variance) if variance > 0 else 0.0
        return c * (share if share > self.SPREAD_FLOOR else self.SPREAD_FLOOR)

    def _best_ucb(self, node: _Node, ids: Sequence[int]) -> int:
        """The position in ``ids`` of the highest :meth:`_ucb` score (the first of equal scores, as ``max``)."""
        low, scale = self._norm
        c = self._exploration(node, scale)
        visits, wins, avail = node.visits, node.wins, node.avail
        log, sqrt = math.log, math.sqrt
        best = -math.inf
        best_k = -1
        for k, i in enumerate(ids):
            n = visits[i]
            score = (wins[i] / n - low) * scale + c * sqrt(log(avail[i]) / n)
            if best_k < 0 or score > best:
                best, best_k = score, k
        return best_k

    def _best_puct(self, node: _Node, ids: Sequence[int], favourite: int) -> int:
        """The position in ``ids`` of the highest PUCT score, with ``favourite`` the prior policy's move (the first
        of equal scores).

        ``q + c * p * sqrt(m) / (1 + n)``: ``q`` the action's mean return scaled to [0, 1] (an untried action
        takes the mean over all of the node's visits, or 0.5 before any), ``p`` its prior probability,
        ``n`` its visits and ``m`` its availability count less one (the visits of the node while it was legal).
        """
        low, scale = self._norm
        c = self._exploration(node, scale)
        visits, wins, avail = node.visits, node.wins, node.avail
        weight = self.prior_weight
        base = (1.0 - weight) / len(ids)
        total = sum(visits.get(i, 0) for i in ids)
        fpu = (sum(wins.get(i, 0.0) for i in ids) / total - low) * scale if total else 0.5
        sqrt = math.sqrt
        best = -math.inf
        best_k = -1
        for k, i in enumerate(ids):
            n = visits.get(i, 0)
            p = base + weight if i == favourite else base
            q = (wins[i] / n - low) * scale if n else fpu
            score = q + c * p * sqrt(avail[i] - 1 if avail[i] > 1 else 1) / (1 + n)
            if score > best:
                best, best_k = score, k
        return best_k

    def _ucb(self, node: _Node, action: int) -> float:
        n = node.visits[action]
        low, scale = self._norm
        mean = (node.wins[action] / n - low) * scale
        return mean + self._exploration(node, scale) * math.sqrt(math.log(node.avail[action]) / n)

    def _rollout(self, game: Game[S, A, Any], state: S, rng: np.random.Generator) -> Sequence[float]:
        state = self._playout(game, state, rng)
        if game.current_player(state) == TERMINAL:
            return tuple(game.returns(state))
        if self.evaluate is not None:
            return tuple(self.evaluate(game, state))
        return tuple(game.returns(state))

    def _playout(self, game: Game[S, A, Any], state: S, rng: np.random.Generator) -> S:
        """Up to ``rollout_limit`` actions of the rollout policy from ``state``, stopping at the end; the state
        reached."""
        current_player, legal_actions, apply = game.current_player, game.legal_actions, game.apply_unchecked
        chance_outcomes, policy, draws = game.chance_outcomes, self.policy, self._draws
        uniform = type(policy) is RandomRollout  # its move inline, from the block of draws, without the call
        buf = draws.buf
        for _ in range(self.rollout_limit):
            actor = current_player(state)
            if actor == TERMINAL:
                return state
            if actor == CHANCE:
                # sample_outcome inline, on a buffered draw
                outcomes = chance_outcomes(state)
                u = buf.pop() if buf else (buf := draws.refill()).pop()
                acc = 0.0
                action = outcomes[-1][0]
                for outcome, p in outcomes:
                    acc += p
                    if u < acc:
                        action = outcome
                        break
            elif uniform:
                legal = legal_actions(state)
                n = len(legal)
                x = (buf.pop() if buf else (buf := draws.refill()).pop()) * n
                # int(x) folded into [0, n): a duck-typed generator's draw may be negative, too large or NaN
                action = legal[int(x) if 0.0 <= x < n else (n - 1 if x >= n else 0)]
            else:
                action = policy(game, state, actor, legal_actions(state), rng)
            state = apply(state, action)
        return state
