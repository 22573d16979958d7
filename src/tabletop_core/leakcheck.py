"""Hidden-information conformance: nothing a seat can read depends on what it cannot see, and determinizers sample
the right worlds.

:func:`check_leaks` runs on one finished playout (the states and actions :func:`~tabletop_core.conformance.check_game`
collected) and raises :class:`LeakError` (a :class:`~tabletop_core.conformance.ConformanceError`) naming the seed,
the step, the seat and the first differing field. ``check_game`` calls it for every game whose spec is not
``PERFECT`` information; :class:`LeakBudget` bounds the cost.

The method, for a few states ``s`` spread along the playout (``LeakBudget.states``) and every seat ``p``:

1. **Worlds.** ``w = determinize(s, p, rng)`` (``LeakBudget.worlds`` of them) and, when the game offers it,
   ``w = game.redeal(s, p, rng)`` (a re-deal written independently of the determinizer). Everything ``p`` can read
   at ``w`` must equal what it reads at ``s``: :func:`seat_readings` (``observe``, the observation tensor, the
   information state and its tensor, ``render(s, p)``, ``observation_string``, ``card_texts``, ``legend``, the
   public and private observations where the game says them, when ``p`` is to act its legal actions, the mask,
   the action strings and the step rules, and the error texts ``p`` can provoke (:func:`refusals`: ``step`` of a
   value that is no action, ``parse_action`` of a text that names none, and at ``p``'s own decision ``step`` of a
   move its legal actions lack), and the adapters' readings when their frameworks are installed
   (OpenSpiel's observation and information-state strings and tensors, PettingZoo's observation, Gymnasium's
   observation for one-player games).
2. **Re-walked histories** (the per-seat descriptions and the replay as ``p`` saw it). A determinized world has no
   history, so the history check builds one: walk from the initial state along the playout's steps; at ``p``'s own
   decisions take ``p``'s own action (``p`` knows what it did); at every other step (chance or another seat) take a
   random legal action among those after which ``p``'s observation (and information state, where the game offers one)
   equals the playout's at the same step, backtracking a little (``LeakBudget.walk_nodes``) when no action fits. The
   walk and the playout therefore have **the same ``p``-visible history** at every step (the same observations in the
   same order and the same own moves), which is exactly what makes the comparison sound: ``describe(before, action,
   after, p)`` of every transition walked, the refusal texts at every state walked, and everything in
   :func:`seat_readings` at the walk's last state, must equal the playout's. Where the walk cannot be continued (the
   rules forbid every alternative that keeps ``p``'s view, e.g. a card revealed later that the walk dealt elsewhere)
   it stops and the prefix walked is compared: the histories agree as far as the walk's history is consistent. At
   ``p``'s own decisions of the walk, ``p``'s legal actions, mask and action strings must match the playout's too.
3. **Determinizer consistency.** Every world must pass ``validate_state``, be a state the rules can reach with the
   same ``p``-visible history, and share ``p``'s readings. Reachability is proven three ways, the first the game
   offers: the world is a member of ``game.enumerate_information_set(s, p)``; or the game rebuilds the world's
   history (``game.rebuild_history(w, p)``: the actions, chance outcomes included, from the initial state to ``w``),
   which is replayed under the rules (every action legal, the replay ending at ``w`` itself) and must show ``p`` the
   playout's view at every step, make ``p``'s own moves and describe every transition to ``p`` as the playout does
   and give ``p`` the playout's refusal texts at every step, whoever is to act (this is also the world's re-walked
   history of step 2, through every round, so the blind walk is not needed); otherwise the targeted walk of step 2
   must reach the world itself within ``LeakBudget.reach_nodes`` nodes, which proves it for small games and leaves it
   unproven, not failed, when the search runs out on a large one (``LeakBudget.prove`` fails it instead).
   :attr:`LeakCheck.proven` and :attr:`LeakCheck.unproven` count the worlds each way.
4. **Determinizer frequencies.** Where the game enumerates ``p``'s information set (``(state, probability)`` pairs:
   the posterior given what ``p`` saw, each history weighted by its chance probabilities, the other seats'
   decisions taken as uninformative, as ISMCTS samples), ``LeakBudget.samples`` worlds are drawn with a fixed seed
   from the determinizer (and from ``redeal``); a sampler that returns the true state every time fails at once,
   and the counts must pass Pearson's chi-square goodness-of-fit test (``scipy.stats.chisquare``; cells with an
   expected count under 5 pooled) at significance ``LeakBudget.alpha`` (0.001).

Cost (the default :class:`LeakBudget`): the first 4 playouts of a run; 3 states each; per state and seat 2 worlds
from each sampler and one re-walk of at most 300 states (the targeted search for a world's history: 100); two
frequency tests of 300 worlds per run; the adapters compared in the first 2 playouts. Measured on this project's
loaded 2-core machine: 300 Kuhn playouts take 5.3 s instead of 3.6 s (with the one-time adapter imports), the
first 4 Unrest playouts of a run 2 to 3 s more. Unrest's rebuilt histories cost what the blind search did (0.85 s
of CPU for the leak checks of 4 random playouts without the adapters, 0.86 s with the rebuild turned off) and prove
all 48 worlds reachable where the search proved 16 and left 32 unproven.

>>> from tabletop_core.conformance import check_game
>>> from tabletop_core.testing.kuhn import GAME
>>> check_game(GAME, games=3, seed=0).games
3
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from functools import partial
from typing import TYPE_CHECKING, Any

import attrs
import numpy as np

from tabletop_core.errors import ConformanceError
from tabletop_core.game import Game
from tabletop_core.spec import Information

if TYPE_CHECKING:
    from attrs import AttrsInstance

__all__ = ["LeakBudget", "LeakCheck", "LeakError", "check_leaks", "chi_square_p", "refusals", "seat_readings"]


@attrs.frozen
class LeakBudget:
    """How much hidden-information checking one playout gets.

    Attributes:
        playouts: the first playouts of a run that are checked (the others are not).
        states: states sampled along each playout (spread evenly, the last state included).
        worlds: determinized worlds per sampled state and seat.
        walks: re-walked histories per sampled state and seat.
        walk_nodes: the most states one re-walk may visit (backtracking included).
        reach_nodes: the most states the search for a history reaching a world may visit (0: no search); when it
            runs out the world's reachability is not proven, and not failed either.
        samples: worlds drawn from each sampler for one frequency test.
        frequency_tests: frequency tests per run, at the first enumerable positions (two states or more) met.
        alpha: the significance of the frequency test.
        adapter_playouts: the first playouts of a run in which the framework adapters' readings are compared too
            (when their frameworks are installed; 0: never).
        prove: fail a world whose reachability is not proven (the search ran out, or ``reach_nodes`` is 0),
            instead of leaving it unproven.
    """

    playouts: int = 4
    states: int = 3
    worlds: int = 2
    walks: int = 1
    walk_nodes: int = 300
    reach_nodes: int = 100
    samples: int = 300
    frequency_tests: int = 2
    alpha: float = 1e-3
    adapter_playouts: int = 2
    prove: bool = False


class LeakError(ConformanceError):
    """A seat can read something that depends on what it cannot see, or a determinizer samples wrong worlds.

    Attributes:
        seat: the seat whose readings differ (or whose worlds are wrong).
        field: the first differing reading (``"render"``, ``"describe"``, ``"information_state_tensor"``, ...).
    """

    def __init__(  # noqa: PLR0917  # ConformanceError's positional fields, then the seat's
        self, game: str, seed: int, step: int, check: str, detail: str, seat: int, field: str
    ) -> None:
        self.seat, self.field = seat, field
        super().__init__(game, seed, step, check, f"seat {seat}, {field}: {detail}")


LEAK = "hidden information stays hidden"
REACHABLE = "determinized worlds are reachable with the seat's history"
TRUTH = "determinizer does not keep the true state"
FREQUENCIES = "determinized worlds follow the posterior"


def seat_readings(game: Game[Any, Any, Any], state: object, player: int) -> Iterator[tuple[str, Any]]:
    """Everything ``player`` can read at ``state``, as ``(field, value)`` pairs in a fixed order."""
    spec = game.spec
    view = game.observe(state, player)
    yield "observe", view
    picture = getattr(view, "svg", None)
    if callable(picture):  # a view that draws itself (``tabletop_core.render``): its picture is read too
        yield "picture", picture()
    yield "observation_tensor", game.observation_tensor(state, player)
    if spec.provides_information_state:
        yield "information_state", game.information_state(state, player)
        yield "information_state_tensor", game.information_state_tensor(state, player)
    yield "render", game.render(state, player)
    yield "observation_string", game.observation_string(state, player)
    yield "card_texts", game.card_texts(state, player)
    yield "legend", game.legend(state, player)
    try:
        public = game.public_observation(state)
        yield "public_observation", public
        drawn = getattr(public, "svg", None)
        if callable(drawn):  # what a spectator's page shows
            yield "public picture", drawn()
        yield "private_observation", game.private_observation(state, player)
    except NotImplementedError:
        pass
    to_act = game.current_player(state) == player
    yield "to act", to_act
    if to_act:
        legal = game.legal_actions(state)
        yield "legal_actions", tuple(game.action_id(a) for a in legal)
        yield "legal_action_mask", game.legal_action_mask(state)
        yield "action strings", tuple(game.action_to_str(state, a) for a in legal)
        yield "step_rules", game.step_rules(state)
    yield from refusals(game, state, player, to_act)


class _NotAnAction:
    """What a seat may submit that no game accepts (with a repr that is the same in every world)."""

    def __repr__(self) -> str:
        return "<not an action>"


NOT_AN_ACTION = _NotAnAction()
UNREADABLE = "no such move"


def _refusal(attempt: Callable[[], Any]) -> str:
    """The text of the error ``attempt`` raises (its type and message), or that it was accepted."""
    try:
        attempt()
    except Exception as exc:  # the text of any refusal is a reading, whatever its type
        return f"{type(exc).__name__}: {exc}"
    return "accepted"


def refusals(game: Game[Any, Any, Any], state: object, player: int, to_act: bool) -> Iterator[tuple[str, str]]:
    """The error texts ``player`` can provoke at ``state``, as ``(field, text)`` pairs: ``step`` of a value that
    is no action and ``parse_action`` of a text that names none (refused in every world, whoever is to act), and
    when ``player`` is to act, ``step`` of the first decision its legal actions do not hold (it knows which those
    are, so refused in every world it cannot tell apart)."""
    yield "refusal of step", _refusal(partial(game.step, state, NOT_AN_ACTION))
    yield "refusal of parse_action", _refusal(partial(game.parse_action, state, UNREADABLE))
    if not to_act:
        return
    legal = set(game.legal_action_ids(state))
    for i in range(game.spec.num_distinct_actions):
        if i in legal:
            continue
        try:
            action = game.action_from_id(state, i)
        except ValueError:  # an id the codec reserves: not a move the seat can name
            continue
        yield f"refusal of step of id {i}", _refusal(partial(game.step, state, action))
        return


def _first_difference(game: Game[Any, Any, Any], field: str, a: object, b: object) -> str | None:
    """How ``a`` and ``b`` differ (``None`` if equal); arrays by their first index and, with a layout, its piece."""
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        x, y = np.asarray(a), np.asarray(b)
        if x.shape != y.shape:
            return f"shapes {x.shape} and {y.shape}"
        diff = np.flatnonzero(x.ravel() != y.ravel())
        if not diff.size:
            return None
        i = int(diff[0])
        layout = getattr(game, f"{field.removesuffix('_tensor')}_layout", None)
        piece = ""
        if layout is not None:
            piece = next((f" (piece {n!r})" for n, s in layout.slices.items() if s.start <= i < s.stop), "")
        return f"index {i}{piece}: {x.ravel()[i]} in the playout, {y.ravel()[i]} in the world"
    if a == b:
        return None
    return f"{a!r:.300} in the playout, {b!r:.300} in the world"


class LeakCheck:
    """The hidden-information checks of one conformance run: :meth:`playout` checks each finished playout.

    Built once per run, so that the adapters are loaded once and the frequency tests spread over the run
    (``LeakBudget.frequency_tests`` positions in all, at the first enumerable ones found).

    Attributes:
        proven: worlds proven reachable with the seat's history (listed by the enumeration, replayed from
            ``rebuild_history``, or reached by the search).
        unproven: worlds whose reachability the search could not decide within ``LeakBudget.reach_nodes``.
    """

    def __init__(self, game: Game[Any, Any, Any], budget: LeakBudget | None = None) -> None:
        self.game, self.budget = game, budget or LeakBudget()
        self.name = game.spec.short_name
        self.info = game.spec.provides_information_state
        self.active = game.spec.information != Information.PERFECT and self.budget.states > 0
        self.adapters: list[tuple[str, Callable[[Any, int], dict[str, Any]]]] = []
        self.adapted: Any = None
        self.seed, self.rng = 0, np.random.default_rng(0)
        self.playouts = self.frequency_tests = 0
        self.proven = self.unproven = 0
        self.cache: dict[tuple[int, int], dict[str, Any]] = {}
        self.refusal_cache: dict[tuple[int, int], dict[str, str]] = {}
        self.keys: dict[tuple[int, int], Any] = {}

    def fail(self, step: int, check: str, seat: int, field: str, detail: str) -> LeakError:
        return LeakError(self.name, self.seed, step, check, detail, seat, field)

    def readings(self, state: object, seat: int) -> dict[str, Any]:
        key = (id(state), seat)
        if key not in self.cache:
            self.cache[key] = dict(seat_readings(self.game, state, seat))
        return self.cache[key]

    def compare(self, step: int, seat: int, truth: object, world: object, what: str, *, adapters: bool = True) -> None:
        seen = self.readings(truth, seat)
        for field, value in seat_readings(self.game, world, seat):
            why = _first_difference(self.game, field, seen.get(field), value)
            if why is not None:
                raise self.fail(step, LEAK, seat, field, f"{what}: {why}")
        if not adapters or self.playouts > self.budget.adapter_playouts:
            return
        for name, read in self.adapters:
            a, b = read(truth, seat), read(world, seat)
            for field in a:
                why = _first_difference(self.game, field, a[field], b.get(field))
                if why is not None:
                    raise self.fail(step, LEAK, seat, f"{name} {field}", f"{what}: {why}")

    def key(self, state: object, seat: int) -> Any:
        view = self.game.observe(state, seat)
        return (view, self.game.information_state(state, seat)) if self.info else view

    def trail_key(self, state: object, seat: int) -> Any:
        """:meth:`key` of a playout state, kept for the rest of the playout."""
        k = (id(state), seat)
        if k not in self.keys:
            self.keys[k] = self.key(state, seat)
        return self.keys[k]

    def options(self, state: object, truth: object, action: object, step: int, seat: int) -> list[Any]:
        """The actions a walk may try at ``state`` (step ``step``, where the playout took ``action``)."""
        game = self.game
        if game.current_player(state) != seat:
            options = list(game.legal_actions(state))
            self.rng.shuffle(options)
            return options
        # The seat's own decision: the same readings (legal actions and their strings included), the same move.
        self.compare(step, seat, truth, state, f"at its decision at step {step} of a re-walked history", adapters=False)
        return [action]

    def walk(
        self, trail: Sequence[Any], actions: Sequence[Any], seat: int, target: object = None, nodes_left: int = 0
    ) -> tuple[list[Any], list[Any], bool]:
        """A history with ``seat``'s view of ``trail`` at every step (see the module docstring).

        Returns the states and actions of the longest walk found (with ``target``, of a walk ending at ``target``,
        or nothing) and whether the search finished within the budget.
        """
        game, end = self.game, len(actions)
        keys = [self.key(s, seat) for s in trail]
        states: list[Any] = [trail[0]]
        taken: list[Any] = []
        untried = [self.options(trail[0], trail[0], actions[0], 0, seat)] if end else []
        best: tuple[list[Any], list[Any]] = (list(states), [])
        nodes = 0
        while nodes < (nodes_left or self.budget.walk_nodes):
            i = len(states) - 1
            if i == end and (target is None or states[-1] == target):
                return states, taken, True
            moved = False
            while i < end and untried[-1]:
                action = untried[-1].pop()
                after = game.step(states[-1], action)
                nodes += 1
                if self.key(after, seat) == keys[i + 1]:
                    states.append(after)
                    taken.append(action)
                    if i + 1 < end:
                        untried.append(self.options(after, trail[i + 1], actions[i + 1], i + 1, seat))
                    moved = True
                    break
            if moved:
                if len(states) > len(best[0]):
                    best = (list(states), list(taken))
                continue
            if len(states) == 1:
                return ([], [], True) if target is not None else (*best, True)
            states.pop()
            taken.pop()
            if i < end:
                untried.pop()
        return ([], [], False) if target is not None else (*best, False)

    def refused(self, state: object, seat: int) -> dict[str, str]:
        """:func:`refusals` of a playout state, kept for the rest of the playout."""
        k = (id(state), seat)
        if k not in self.refusal_cache:
            to_act = self.game.current_player(state) == seat
            self.refusal_cache[k] = dict(refusals(self.game, state, seat, to_act))
        return self.refusal_cache[k]

    def compare_refusals(self, step: int, seat: int, truth: object, state: object, what: str) -> None:
        """The error texts ``seat`` can provoke at ``state`` (a step of a history it cannot tell from the
        playout's) are the playout's at the same step."""
        seen = self.refused(truth, seat)
        for field, text in refusals(self.game, state, seat, self.game.current_player(state) == seat):
            if seen.get(field) != text:
                raise self.fail(step, LEAK, seat, field, f"{what}: {seen.get(field)!r} vs {text!r}")

    def compare_descriptions(
        self, step: int, seat: int, truth: tuple[Any, Any, Any], world: tuple[Any, Any, Any], what: str
    ) -> None:
        """The seat's and a spectator's descriptions of a transition are the playout's in a world the seat cannot
        tell from it (what the seat cannot tell apart, no spectator can)."""
        for field, mine, theirs in (
            ("describe", self.game.describe(*truth, seat), self.game.describe(*world, seat)),
            ("describe_public", self.game.describe_public(*truth), self.game.describe_public(*world)),
        ):
            if mine != theirs:
                raise self.fail(step, LEAK, seat, field, f"transition {step} of {what}: {mine!r} vs {theirs!r}")

    def check_walk(self, trail: Sequence[Any], actions: Sequence[Any], seat: int) -> None:
        walked, taken, _ = self.walk(trail, actions, seat)
        for i, action in enumerate(taken):
            self.compare_descriptions(
                i, seat, (trail[i], actions[i], trail[i + 1]), (walked[i], action, walked[i + 1]), "a re-walked history"
            )
            self.compare_refusals(i + 1, seat, trail[i + 1], walked[i + 1], f"step {i + 1} of a re-walked history")
        last = len(walked) - 1
        self.compare(last, seat, trail[last], walked[last], f"step {last} of a re-walked history")

    def check_world(
        self,
        step: int,
        *,
        world: object,
        seat: int,
        sampler: str,
        members: dict[Any, int] | None,
        trail: Sequence[Any],
        actions: Sequence[Any],
    ) -> bool:
        """Check one world; whether its history was rebuilt and walked (``game.rebuild_history``)."""
        game, truth = self.game, trail[step]
        try:
            game.validate_state(world)
        except ValueError as exc:
            raise self.fail(step, REACHABLE, seat, sampler, f"validate_state: {exc}") from exc
        self.compare(step, seat, truth, world, f"a world from {sampler}")
        if members is not None:
            if world not in members:
                raise self.fail(step, REACHABLE, seat, sampler, f"{world!r:.300} is not in the information set")
            self.proven += 1
            return False
        try:
            history = game.rebuild_history(world, seat)
        except ValueError as exc:
            raise self.fail(step, REACHABLE, seat, sampler, f"rebuild_history: {exc}") from exc
        if history is not None:
            self.check_history(
                step, world=world, seat=seat, sampler=sampler, history=history, trail=trail, actions=actions
            )
            self.proven += 1
            return True
        found: list[Any] = []
        finished = False
        if self.budget.reach_nodes:
            found, _, finished = self.walk(trail[: step + 1], actions[:step], seat, world, self.budget.reach_nodes)
        if found:
            self.proven += 1
        elif finished:
            raise self.fail(step, REACHABLE, seat, sampler, f"no history with the seat's view reaches {world!r:.300}")
        elif self.budget.prove:
            raise self.fail(
                step, REACHABLE, seat, sampler, f"not proven: the search ran out after {self.budget.reach_nodes} states"
            )
        else:
            self.unproven += 1
        return False

    def check_history(
        self,
        step: int,
        *,
        world: object,
        seat: int,
        sampler: str,
        history: Sequence[Any],
        trail: Sequence[Any],
        actions: Sequence[Any],
    ) -> None:
        """Replay ``history`` (``rebuild_history`` of ``world``, sampled at ``trail[step]``) under the rules: each
        action legal, the seat's view the playout's at every step, its own moves the playout's, every transition
        described to it as in the playout, its readings the same at its decisions, and the end ``world``."""
        game = self.game
        if len(history) != step:
            raise self.fail(
                step,
                REACHABLE,
                seat,
                sampler,
                f"rebuild_history gives {len(history)} actions for a world at step {step}",
            )
        state = trail[0]
        for i, action in enumerate(history):
            if game.current_player(state) == seat:
                if action != actions[i]:
                    raise self.fail(
                        i,
                        REACHABLE,
                        seat,
                        sampler,
                        f"the world's history plays {action!r} for the seat, not {actions[i]!r}",
                    )
                self.compare(
                    i, seat, trail[i], state, f"at its decision at step {i} of a world's history", adapters=False
                )
            if not game.is_legal(state, action):
                raise self.fail(
                    i, REACHABLE, seat, sampler, f"action {i} of the world's history, {action!r}, is illegal"
                )
            after = game.step(state, action)
            if self.key(after, seat) != self.trail_key(trail[i + 1], seat):
                raise self.fail(
                    i + 1, REACHABLE, seat, sampler, f"the world's history shows the seat another view at step {i + 1}"
                )
            self.compare_descriptions(
                i, seat, (trail[i], actions[i], trail[i + 1]), (state, action, after), "a world's history"
            )
            self.compare_refusals(i + 1, seat, trail[i + 1], after, f"step {i + 1} of a world's history")
            state = after
        if state != world:
            raise self.fail(
                step, REACHABLE, seat, sampler, f"the world's history ends at another state: {state!r:.300}"
            )

    def check_frequencies(
        self,
        step: int,
        truth: object,
        seat: int,
        listed: Sequence[tuple[Any, float]],
        samplers: Sequence[tuple[str, Callable[[], Any]]],
    ) -> None:
        n = self.budget.samples
        members = {s: i for i, (s, _) in enumerate(listed)}
        expected = np.asarray([p for _, p in listed]) * n
        small = expected < 5
        for name, draw in samplers:
            counts = np.zeros(len(listed))
            kept = 0
            for _ in range(n):
                world = draw()
                if world not in members:
                    raise self.fail(step, REACHABLE, seat, name, f"{world!r:.300} is not in the information set")
                counts[members[world]] += 1
                kept += world == truth
            if kept == n:
                raise self.fail(step, TRUTH, seat, name, f"all {n} worlds are the true state")
            obs, exp = counts, expected
            if small.any():
                obs = np.append(counts[~small], counts[small].sum())
                exp = np.append(expected[~small], expected[small].sum())
            if len(obs) < 2:
                continue
            p_value = chi_square_p(obs, exp)
            if p_value < self.budget.alpha:
                raise self.fail(
                    step,
                    FREQUENCIES,
                    seat,
                    name,
                    f"chi-square p = {p_value:.2g} < {self.budget.alpha} over {n} worlds: counts {counts.tolist()}, "
                    f"expected {expected.round(1).tolist()}",
                )

    def playout(self, trail: Sequence[Any], actions: Sequence[Any], seed: int) -> None:
        """Check one playout: its states ``trail`` and the ``actions`` between them (the module docstring).

        Raises:
            LeakError: naming the seed, the step, the seat and the first differing field.
        """
        self.playouts += 1
        if not self.active or self.playouts > self.budget.playouts:
            return
        game, budget = self.game, self.budget
        self.seed, self.rng, self.cache, self.keys = seed, np.random.default_rng([seed, 19]), {}, {}
        self.refusal_cache = {}
        options = game.options(trail[0])
        if budget.adapter_playouts >= self.playouts and options != self.adapted:
            self.adapters, self.adapted = _adapters(game, options), options
        picks = sorted({round(x) for x in np.linspace(0, len(trail) - 1, budget.states)})
        for step in picks:
            truth = trail[step]
            for seat in range(game.num_players(truth)):
                listed = game.enumerate_information_set(truth, seat)
                members = None if listed is None else self.check_listed(step, truth, seat, listed)
                samplers: list[tuple[str, Callable[[], Any]]] = [
                    ("determinize", partial(game.determinize, truth, seat, self.rng))
                ]
                if game.redeal(truth, seat, self.rng) is not None:
                    samplers.append(("redeal", partial(game.redeal, truth, seat, self.rng)))
                rebuilt = False
                for name, draw in samplers:
                    for _ in range(budget.worlds):
                        rebuilt |= self.check_world(
                            step, world=draw(), seat=seat, sampler=name, members=members, trail=trail, actions=actions
                        )
                for _ in range(0 if rebuilt else budget.walks):
                    self.check_walk(trail[: step + 1], actions[:step], seat)
                if listed is not None and len(listed) > 1 and self.frequency_tests < budget.frequency_tests:
                    self.frequency_tests += 1
                    self.check_frequencies(step, truth, seat, listed, samplers)

    def check_listed(self, step: int, truth: object, seat: int, listed: Sequence[tuple[Any, float]]) -> dict[Any, int]:
        members = {s: i for i, (s, _) in enumerate(listed)}
        total = sum(p for _, p in listed)
        if truth not in members or abs(total - 1.0) > 1e-9 or any(p <= 0 for _, p in listed):
            raise self.fail(
                step,
                REACHABLE,
                seat,
                "enumerate_information_set",
                f"the true state is {'' if truth in members else 'not '}listed; probabilities {[p for _, p in listed]}",
            )
        for s, _ in listed:
            self.compare(step, seat, truth, s, "a state of enumerate_information_set")
        return members


def check_leaks(
    game: Game[Any, Any, Any],
    trail: Sequence[Any],
    actions: Sequence[Any],
    seed: int,
    budget: LeakBudget | None = None,
) -> None:
    """Check one playout (its states ``trail`` and the ``actions`` between them) for leaks (module docstring).

    Raises:
        LeakError: naming the seed, the step, the seat and the first differing field.
    """
    LeakCheck(game, budget).playout(trail, actions, seed)


def chi_square_p(observed: Sequence[float] | np.ndarray, expected: Sequence[float] | np.ndarray) -> float:
    """Pearson's chi-square goodness-of-fit p-value (``len - 1`` degrees of freedom).

    The survival function is ``scipy.special.chdtrc`` where scipy is installed (it is in the test extras);
    otherwise the upper regularized gamma function computed here (series below ``a + 1``, Lentz's continued fraction
    above), which the tests check against scipy.
    """
    obs, exp = np.asarray(observed, dtype=float), np.asarray(expected, dtype=float)
    stat = float(((obs - exp) ** 2 / exp).sum())
    try:
        from scipy.special import chdtrc
    except ImportError:  # the core install has no scipy
        return _upper_gamma(0.5 * (len(obs) - 1), 0.5 * stat)
    return float(chdtrc(len(obs) - 1, stat))


def _upper_gamma(a: float, x: float) -> float:
    """Q(a, x) = Gamma(a, x) / Gamma(a), the chi-square survival function at ``2x`` with ``2a`` degrees."""
    if x <= 0:
        return 1.0
    front = math.exp(a * math.log(x) - x - math.lgamma(a))
    if x < a + 1:
        term = total = 1.0 / a
        k = a
        while abs(term) > abs(total) * 1e-15:
            k += 1
            term *= x / k
            total += term
        return max(0.0, 1.0 - front * total)
    tiny = 1e-300
    b, c, d = x + 1 - a, 1 / tiny, 1 / (x + 1 - a)
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-15:
            break
    return front * h


def _adapters(
    game: Game[Any, Any, Any], options: AttrsInstance
) -> list[tuple[str, Callable[[Any, int], dict[str, Any]]]]:
    """The installed adapters' readings of a state (of a game with ``options``) for a seat."""
    found: list[tuple[str, Callable[[Any, int], dict[str, Any]]]] = []
    values = {f.name: getattr(options, f.name) for f in attrs.fields(type(options)) if f.init}
    players = game.num_players(game.initial_state(options))
    try:
        from tabletop_core.adapters import openspiel
    except ImportError:
        pass
    else:
        try:
            loaded = openspiel.load(game, **values)
        except Exception:  # pyspiel names are global: another game object holds this short name
            loaded = None
        if loaded is not None:
            info = game.spec.provides_information_state

            def spiel(state: object, seat: int) -> dict[str, Any]:
                os_state = loaded.state_from_tabletop(state)
                out: dict[str, Any] = {
                    "observation_string": os_state.observation_string(seat),
                    "observation_tensor": np.asarray(os_state.observation_tensor(seat)),
                }
                if info:
                    out["information_state_tensor"] = np.asarray(os_state.information_state_tensor(seat))
                return out

            found.append(("OpenSpiel", spiel))
    try:
        from tabletop_core.adapters.pettingzoo import TabletopAECEnv
    except ImportError:
        pass
    else:
        env = TabletopAECEnv(game, options=values)
        env.reset(seed=0)

        def zoo(state: object, seat: int) -> dict[str, Any]:
            env._state = state
            obs = env.observe(env.possible_agents[seat])
            return {"observation": obs["observation"], "action_mask": obs["action_mask"]}

        found.append(("PettingZoo", zoo))
    if players == 1:
        try:
            from tabletop_core.adapters.gymnasium import TabletopEnv
        except ImportError:
            pass
        else:
            gym = TabletopEnv(game, options=values)
            gym.reset(seed=0)

            def gymnasium(state: object, seat: int) -> dict[str, Any]:
                gym._state = state
                return {"observation": gym._observation(), "action_mask": gym.action_masks()}

            found.append(("Gymnasium", gymnasium))
    return found
