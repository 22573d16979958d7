"""Tune an agent's parameters with Optuna: against a reference agent on paired deals, or against the exact regret.

An agent tuning is a targets file with an ``[agent]`` table instead of ``[free]`` and ``[[target]]``::

    game = "runebound_coop"
    [options]                          # every game's options
    max_rounds = 2
    [agent]
    spec = "mcts:iterations=2050,chance=widen,objective=win,exploration_scale=spread"
    against = "exact"                  # the exact regret (a game that offers it), or a reference agent spec
    seat = 0                           # the seat the tuned agent plays (the reference plays the same seat)
    measure = "win"                    # against a reference: "win" or "return" of that seat
    cells = [{ heroes = ["Elian"], enemies = ["Orc Brigand"] }]   # option sets, each played on every deal
    [agent.free]
    exploration = [0.05, 3.0, "log"]   # floats, searched on a log scale
    widening = [0.5, 4.0]
    iterations = [100, 2000]           # two whole numbers: a whole-number parameter
    rollout = ["random", "heuristic"]  # words: one of them

The agent's ``spec`` is trial 0: its free parameters start at the values it gives (else at the agent's own
defaults), so a study always measures the untuned agent first. Every trial plays deal ``d`` of the tuning range in
every cell with the agents' seed ``game_seed(0, d)`` and the chance seed ``game_seed(1, d)``, the same two seeds
``tabletop compare`` uses (common random numbers), with the game's own bots (or ``others``) in the other seats.

Its **loss** (minimized) is

* against a reference agent, the reference's mean measure minus the trial's on the same deals: the paired
  difference, whose noise is only the part of the luck the two agents meet differently. The reference plays the
  deals once per study (its results are kept in the study);
* against ``exact``, the trial's mean summed regret: at every decision of the seat, the chance to win the chosen
  action gave up against the best one, exactly (the game's ``exact_regret(state)``; Runebound's
  ``runebound_coop.exact.Solver.regret``). By the performance difference lemma its expectation is exactly the
  agent's shortfall from the optimal chance to win, with far less spread than a win rate.

A time budget is a parameter too (``seconds`` in the spec); since a measure by the clock measures the machine's
load, tune at the fixed iteration count a second buys (as the strength table in ``docs/simulation.md`` does), or
tune ``iterations`` itself where another parameter trades speed for strength.

The study lives in an Optuna storage exactly as a pack tuning's (resumable, shared through one storage URL), and
remembers what it tunes. The tuned agent file written (:func:`tuned_agent_text`) starts with
``# tabletop-tune: seeds=A:B``: :func:`held_out` refuses to measure it on deals that share a seed with those.
"""

from __future__ import annotations

import hashlib
import inspect
import json
import math
import statistics
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import attrs
import numpy as np

from tabletop_core.errors import OptionError

if TYPE_CHECKING:
    from optuna.trial import Trial

    from tabletop_core.game import Game

__all__ = [
    "AgentTuneResult",
    "AgentTuning",
    "Param",
    "agent_spec_with",
    "held_out",
    "measure_agents",
    "parse_agent_tuning",
    "play_agent_deals",
    "seeds_overlap",
    "tune_agent",
    "tuned_agent_text",
]

#: The deals' base seed: deal ``d`` seeds the agents with ``game_seed(DEAL_SEED, d)``, chance ``game_seed(DEAL_SEED
#: + 1, d)``.
DEAL_SEED = 0
#: Significant digits a tuned float keeps (the value played is the value written).
DIGITS = 4
#: Deals per batch handed to a worker.
BATCH = 8

Cell = tuple[tuple[str, Any], ...]


def _fail(where: str, problem: str) -> OptionError:
    return OptionError(f"targets file {where}: {problem}")


@attrs.frozen
class Param:
    """One free parameter: a range (``low``..``high``, on a log scale with ``log``; whole numbers with
    ``integer``) or a list of ``choices``."""

    name: str
    low: float = 0.0
    high: float = 0.0
    log: bool = False
    integer: bool = False
    choices: tuple[Any, ...] = ()

    def suggest(self, trial: Trial) -> Any:  # Any: a number or one of the choices, as the agent takes it
        """The trial's value (a float keeps :data:`DIGITS` significant digits)."""
        if self.choices:
            return trial.suggest_categorical(self.name, list(self.choices))
        if self.integer:
            return int(trial.suggest_int(self.name, int(self.low), int(self.high), log=self.log))
        return self.played(trial.suggest_float(self.name, self.low, self.high, log=self.log))

    def played(self, raw: float | str) -> Any:
        """The value a trial plays for the sampler's ``raw`` value (a float keeps :data:`DIGITS` digits)."""
        if self.choices:
            return raw
        return int(raw) if self.integer else float(f"{raw:.{DIGITS}g}")

    def ends(self) -> tuple[Any, ...]:
        """The extreme values (or every choice): what the agent must accept."""
        if self.choices:
            return self.choices
        return (int(self.low), int(self.high)) if self.integer else (self.low, self.high)

    def admits(self, value: object) -> bool:
        """Whether ``value`` lies in the parameter's range (or among its choices)."""
        if self.choices:
            return value in self.choices
        if isinstance(value, bool) or not isinstance(value, int | float):
            return False
        return self.low <= value <= self.high and (not self.integer or float(value).is_integer())


@attrs.frozen
class AgentTuning:
    """An ``[agent]`` tuning, read and checked (see the module)."""

    game: str
    spec: str
    free: tuple[Param, ...]
    against: str = "heuristic"
    seat: int = 0
    measure: str = "win"
    others: tuple[str, ...] = ()
    cells: tuple[Cell, ...] = ((),)
    options: tuple[tuple[str, Any], ...] = ()

    @property
    def exact(self) -> bool:
        return self.against == "exact"


def _param(name: str, value: object, where: str) -> Param:
    if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
        if len(value) == 3 and value[2] == "log":
            raise _fail(where, 'a log scale needs numbers: [low, high, "log"]')
        return Param(name, choices=tuple(value))
    if isinstance(value, list) and len(value) in (2, 3):
        *bounds, scale = value if len(value) == 3 else [*value, ""]
        if scale not in ("", "log"):
            raise _fail(where, f'the third entry may only be "log", not {scale!r}')
        if any(isinstance(b, bool) or not isinstance(b, int | float) or not math.isfinite(b) for b in bounds):
            raise _fail(where, f"bounds must be finite numbers, not {bounds!r}")
        lo, hi = bounds
        if lo > hi:
            raise _fail(where, f"low {lo:g} is above high {hi:g}")
        if scale == "log" and lo <= 0:
            raise _fail(where, "a log scale needs a low bound above 0")
        integer = isinstance(lo, int) and isinstance(hi, int)
        return Param(name, float(lo), float(hi), log=scale == "log", integer=integer)
    raise _fail(where, 'give [low, high], [low, high, "log"] or a list of words')


def parse_agent_tuning(doc: Mapping[str, Any], file: str = "<targets>") -> AgentTuning:
    """Check an agent-tuning document already read from TOML (see the module).

    >>> t = parse_agent_tuning({"game": "g", "agent": {"spec": "mcts", "free": {"exploration": [0.1, 3.0, "log"]}}})
    >>> t.free[0].log, t.against, t.cells
    (True, 'heuristic', ((),))
    """
    known = {"game", "agent", "options"}
    for key in doc:
        if key not in known:
            raise _fail(f"{file}: {key}", f"unknown key beside [agent] (known: {sorted(known)})")
    game = doc.get("game")
    if not isinstance(game, str) or not game:
        raise _fail(f"{file}: game", 'name the game (game = "unbroken")')
    options = doc.get("options", {})
    if not isinstance(options, dict):
        raise _fail(f"{file}: options", "a table of option = value")
    agent = doc.get("agent")
    if not isinstance(agent, dict):
        raise _fail(f"{file}: agent", "a table: spec, free, against, seat, measure, others, cells")
    allowed = {"spec", "free", "against", "seat", "measure", "others", "cells"}
    extra = set(agent) - allowed
    if extra:
        raise _fail(f"{file}: agent", f"unknown keys {sorted(extra)} (known: {sorted(allowed)})")
    spec = agent.get("spec")
    if not isinstance(spec, str) or not spec:
        raise _fail(f"{file}: agent.spec", 'the agent tuned, as a spec ("mcts:iterations=200")')
    free_doc = agent.get("free")
    if not isinstance(free_doc, dict) or not free_doc:
        raise _fail(f"{file}: agent.free", "a table of parameter = [low, high] (at least one)")
    free = tuple(_param(str(k), v, f"{file}: agent.free.{k}") for k, v in free_doc.items())
    against = agent.get("against", "heuristic")
    if not isinstance(against, str) or not against:
        raise _fail(f"{file}: agent.against", '"exact" or a reference agent spec')
    seat = agent.get("seat", 0)
    if isinstance(seat, bool) or not isinstance(seat, int) or seat < 0:
        raise _fail(f"{file}: agent.seat", "a seat index (0 for the first)")
    measure = agent.get("measure", "win")
    if measure not in ("win", "return"):
        raise _fail(f"{file}: agent.measure", f'"win" or "return", not {measure!r}')
    others = agent.get("others", [])
    if not isinstance(others, list) or not all(isinstance(a, str) for a in others):
        raise _fail(f"{file}: agent.others", "a list of agent specs, one per other seat")
    cells_doc = agent.get("cells", [{}])
    if not isinstance(cells_doc, list) or not cells_doc or not all(isinstance(c, dict) for c in cells_doc):
        raise _fail(f"{file}: agent.cells", "a list of option tables, each played on every deal")
    if len(cells_doc) > 64:
        raise _fail(f"{file}: agent.cells", "at most 64 cells")
    cells = tuple(tuple(sorted((str(k), _frozen(v)) for k, v in c.items())) for c in cells_doc)
    opts = tuple(sorted((str(k), _frozen(v)) for k, v in options.items()))
    return AgentTuning(str(game), spec, free, against, seat, str(measure), tuple(others), cells, opts)


def _frozen(value: object) -> object:
    """A TOML value as the options take it (lists as tuples)."""
    if isinstance(value, list):
        return tuple(_frozen(v) for v in value)
    return value


def agent_spec_with(spec: str, values: Mapping[str, Any]) -> str:
    """``spec`` with ``values`` as parameters (a value it already gives is replaced).

    >>> agent_spec_with("mcts:iterations=200,exploration=9", {"exploration": 0.7, "rollout": "heuristic"})
    'mcts:iterations=200,exploration=0.7,rollout=heuristic'
    >>> agent_spec_with("mcts", {"exploration": 0.7})
    'mcts:exploration=0.7'
    """
    from tabletop_core.agents.specs import parse_agent_spec

    parsed = parse_agent_spec(spec)
    params = dict(parsed.params)
    params.update(values)
    head = spec.strip().partition(":")[0]
    by_path = parsed.kind == "class" or (parsed.kind == "installed" and parsed.target.startswith(f"{head}:"))
    if by_path:  # module:Class[:params]
        head = parsed.target
    body = ",".join(f"{k}={v if isinstance(v, str) else json.dumps(v)}" for k, v in params.items())
    return f"{head}:{body}" if body else head


def _starts(tuning: AgentTuning, game: Game[Any, Any, Any]) -> dict[str, Any]:
    """Each free parameter's start: the spec's value, else the agent's own default."""
    from tabletop_core.agents.specs import parse_agent_spec

    parsed = parse_agent_spec(tuning.spec)
    given = dict(parsed.params)
    state0 = game.initial_state(game.make_options(**dict(tuning.options), **dict(tuning.cells[0])))
    agent = parsed.build(game, state0, tuning.seat)  # the spec itself builds (its parameters are checked)
    signature: Mapping[str, inspect.Parameter]
    try:
        signature = inspect.signature(type(agent)).parameters
    except (TypeError, ValueError):  # no signature to read: every start must then be written in the spec
        signature = {}
    starts: dict[str, Any] = {}
    for p in tuning.free:  # a parameter the agent does not take is refused by its own check, in the spec's words
        _build(game, tuning, agent_spec_with(tuning.spec, {p.name: p.ends()[0]}))
        if p.name in given:
            value = given[p.name]
        elif p.name in signature and signature[p.name].default not in (inspect.Parameter.empty, None):
            value = signature[p.name].default
        else:
            raise OptionError(f"free parameter {p.name}: the agent gives no default; write its start in the spec")
        if not p.admits(value):
            bounds = list(p.choices) if p.choices else f"[{p.low:g}, {p.high:g}]"
            raise OptionError(f"free parameter {p.name}: its start {value!r} lies outside {bounds}")
        starts[p.name] = int(value) if p.integer else value
    return starts


def _plan(tuning: AgentTuning, spec: str, *, records: bool) -> str:
    return json.dumps(
        {
            "spec": spec,
            "seat": tuning.seat,
            "others": list(tuning.others),
            "measure": tuning.measure,
            "options": [list(kv) for kv in tuning.options],
            "cells": [[list(kv) for kv in cell] for cell in tuning.cells],
            "records": records,
        }
    )


def _options(pairs: Sequence[Sequence[Any]]) -> dict[str, Any]:
    return {str(k): _frozen(v) for k, v in pairs}


def play_agent_deals(args: tuple[str, str, Sequence[tuple[int, int]]]) -> list[tuple[int, int, float, str | None]]:
    """Play ``(cell, deal)`` games with the plan's agent in its seat (what a worker runs): each game's measure of
    that seat and, when the plan asks, its record as JSON (for the exact regret)."""
    from tabletop_core.agents.specs import parse_agent_spec, seat_names
    from tabletop_core.outcomes import seat_outcomes
    from tabletop_core.records import play
    from tabletop_core.registry import load_game
    from tabletop_core.simulation.plan import game_seed

    game_name, plan_text, games = args
    plan = json.loads(plan_text)
    game = load_game(game_name)
    seat = int(plan["seat"])
    base = _options(plan["options"])
    out: list[tuple[int, int, float, str | None]] = []
    for cell, deal in games:
        opts = {**base, **_options(plan["cells"][cell])}
        state0 = game.initial_state(game.make_options(**opts))
        n = len(seat_names(game, state0))
        others = list(plan["others"]) or ["heuristic"] * (n - 1)
        texts = [*others[:seat], plan["spec"], *others[seat:]]
        agents = [parse_agent_spec(t).build(game, state0, s) for s, t in enumerate(texts)]
        _final, rec = play(
            game, agents, seed=game_seed(DEAL_SEED, deal), chance_seed=game_seed(DEAL_SEED + 1, deal), options=opts
        )
        if rec.returns is None:  # cut by the game's length limit: the worst result
            value = 0.0 if plan["measure"] == "win" else float(game.spec.min_utility)
        elif plan["measure"] == "win":
            value = 1.0 if seat_outcomes(game.spec, rec.returns)[seat] == "win" else 0.0
        else:
            value = float(rec.returns[seat])
        out.append((cell, deal, value, rec.to_json() if plan["records"] else None))
    return out


@attrs.define
class _Regrets:
    """The exact regret of each cell, its solver made once (for the whole study, in this process)."""

    game: Any
    tuning: AgentTuning
    solvers: dict[int, Callable[[Any, Any], float]] = attrs.Factory(dict)

    def of(self, cell: int, record_text: str) -> float:
        from tabletop_core.records import Record, replay

        regret = self.solvers.get(cell)
        if regret is None:
            opts = {**dict(self.tuning.options), **dict(self.tuning.cells[cell])}
            try:
                regret = self.game.exact_regret(self.game.initial_state(self.game.make_options(**opts)))
            except ValueError as exc:  # the game solves no such position exactly
                raise OptionError(f"[agent] cell {dict(self.tuning.cells[cell])}: no exact regret: {exc}") from exc
            self.solvers[cell] = regret
        record = Record.from_json(record_text)
        states = replay(record, self.game, states=True)
        total = 0.0
        for state, action_id in zip(states, record.actions, strict=False):  # the final state takes no action
            if self.game.current_player(state) == self.tuning.seat:
                total += regret(state, self.game.action_from_id(state, action_id))
        return total


def _play(
    tuning: AgentTuning,
    spec: str,
    seeds: range,
    regrets: _Regrets | None,
    *,
    workers: int,
    backend: str,
    address: str | None,
) -> np.ndarray:
    """``values[cell, deal]``: the measure (or, for the exact regret, the summed regret) of every game."""
    from tabletop_core.simulation.runner import map_batches, usable_workers

    games = [(c, d) for c in range(len(tuning.cells)) for d in seeds]
    batches = [tuple(games[i : i + BATCH]) for i in range(0, len(games), BATCH)]
    plan = _plan(tuning, spec, records=regrets is not None)
    workers = usable_workers(workers, len(batches), backend=backend, address=address)
    values = np.zeros((len(tuning.cells), len(seeds)))
    for result in map_batches(
        play_agent_deals, ((tuning.game, plan, b) for b in batches), workers=workers, backend=backend, address=address
    ):
        for cell, deal, value, record in result:
            values[cell, deal - seeds.start] = value if regrets is None or record is None else regrets.of(cell, record)
    return values


def _check(tuning: AgentTuning, game: Game[Any, Any, Any]) -> None:
    from tabletop_core.agents.specs import parse_agent_spec, seat_names

    for cell in tuning.cells:
        state0 = game.initial_state(game.make_options(**dict(tuning.options), **dict(cell)))
        n = len(seat_names(game, state0))
        if tuning.seat >= n:
            raise OptionError(f"[agent] seat {tuning.seat}: {game.spec.short_name} has {n} seats")
        if tuning.others and len(tuning.others) != n - 1:
            raise OptionError(f"[agent] others: {n - 1} other seats, {len(tuning.others)} agents")
        for text in tuning.others:
            parse_agent_spec(text)
    if tuning.exact:
        if not callable(getattr(game, "exact_regret", None)):
            raise OptionError(
                f"{game.spec.short_name} offers no exact regret (a game's exact_regret(state)): tune against a "
                'reference agent instead (against = "heuristic")'
            )
    else:
        parse_agent_spec(tuning.against)


def study_key(tuning: AgentTuning, seeds: range) -> str:
    """A digest of what an agent study tunes (the tuning and the deals); resuming with another is refused."""
    text = json.dumps([attrs.asdict(tuning, recurse=True), [seeds.start, seeds.stop]], sort_keys=True, default=str)
    return hashlib.sha256(("agent:" + text).encode("utf-8")).hexdigest()


def _mean_se(diff: np.ndarray) -> tuple[float, float]:
    flat = [float(x) for x in diff.ravel()]
    se = statistics.stdev(flat) / math.sqrt(len(flat)) if len(flat) > 1 else math.nan
    return statistics.fmean(flat), se


@attrs.frozen
class AgentTuneResult:
    """A finished agent tuning: the best trial's parameters and the evidence for them (on the tuning deals)."""

    game: str
    spec: str
    against: str
    seeds: range
    trials: int
    starts: Mapping[str, Any]
    best: Mapping[str, Any]
    best_trial: int
    loss_before: float
    loss_after: float
    se_before: float
    se_after: float

    @property
    def tuned_spec(self) -> str:
        """The agent spec with the tuned parameters."""
        return agent_spec_with(self.spec, self.best)

    @property
    def loss_name(self) -> str:
        """What the loss measures, in words."""
        if self.against == "exact":
            return "shortfall from the optimal chance to win (mean summed exact regret)"
        return f"`{self.against}`'s mean minus the agent's, on the same deals"

    def to_dict(self) -> dict[str, Any]:
        """The result as JSON-ready data."""
        return {
            "game": self.game,
            "kind": "agent",
            "seeds": [self.seeds.start, self.seeds.stop],
            "trials": self.trials,
            "best_trial": self.best_trial,
            "against": self.against,
            "spec": self.spec,
            "tuned": self.tuned_spec,
            "loss": {"default": self.loss_before, "tuned": self.loss_after, "measures": self.loss_name},
            "standard_error": {"default": self.se_before, "tuned": self.se_after},
            "changes": [
                {"field": k, "default": self.starts[k], "tuned": v} for k, v in self.best.items() if v != self.starts[k]
            ],
        }

    def report(self) -> str:
        """A Markdown report: each parameter's start and tuned value, and the loss of both on the tuning deals."""
        lines = [
            f"# Tuning of an agent for {self.game}",
            "",
            f"{self.trials} trials on deals {self.seeds.start}:{self.seeds.stop}; best trial {self.best_trial}. "
            f"Loss: {self.loss_name}. Measured on the tuning deals: measure the tuned agent on others.",
            "",
            f"- started from `{self.spec}`: loss {self.loss_before:.4g} (standard error {self.se_before:.2g})",
            f"- tuned `{self.tuned_spec}`: loss {self.loss_after:.4g} (standard error {self.se_after:.2g})",
            "",
            "| parameter | start | tuned |",
            "|---|---:|---:|",
        ]
        lines += [f"| `{k}` | {self.starts[k]} | {v} |" for k, v in self.best.items()]
        return "\n".join(lines) + "\n"


def tune_agent(
    tuning: AgentTuning,
    seeds: range,
    *,
    trials: int,
    storage: str,
    study_name: str = "tabletop-tune",
    workers: int = 1,
    backend: str = "local",
    address: str | None = None,
    sampler_seed: int = 0,
    progress: Callable[[int, int], None] | None = None,
) -> AgentTuneResult:
    """Run (or resume) the agent study until it holds ``trials`` finished trials, and return its best agent.

    Raises:
        OptionError: a bad parameter, seat or reference, a start outside its bounds, ``exact`` for a game without
            an exact regret, or a stored study that tunes something else.
    """
    import optuna  # the `design` extra

    from tabletop_core.design.tune import open_study
    from tabletop_core.registry import installed_game

    game = installed_game(tuning.game)
    _check(tuning, game)
    starts = _starts(tuning, game)
    for p in tuning.free:  # every bound builds (the agent checks its own parameters)
        for value in p.ends():
            _build(game, tuning, agent_spec_with(tuning.spec, {**starts, p.name: value}))

    study = open_study(
        study_name,
        storage,
        sampler_seed=sampler_seed,
        key=study_key(tuning, seeds),
        game=tuning.game,
        seeds=seeds,
        start=starts,
        what="another agent, reference",
    )
    where: dict[str, Any] = {"workers": workers, "backend": backend, "address": address}
    regrets = _Regrets(game, tuning) if tuning.exact else None
    reference: np.ndarray | None = None
    if not tuning.exact:
        kept = study.user_attrs.get("reference")
        if kept is None:
            reference = _play(tuning, tuning.against, seeds, None, **where)
            study.set_user_attr("reference", reference.tolist())
        else:
            reference = np.asarray(kept, dtype=float)

    def finished() -> int:
        return len(study.get_trials(deepcopy=False, states=(optuna.trial.TrialState.COMPLETE,)))

    def objective(trial: Trial) -> float:
        values = {p.name: p.suggest(trial) for p in tuning.free}
        played = _play(tuning, agent_spec_with(tuning.spec, values), seeds, regrets, **where)
        loss, se = _mean_se(played if reference is None else reference - played)
        trial.set_user_attr("se", se)
        if progress is not None:
            progress(finished() + 1, trials)
        return loss

    left = trials - finished()
    if left > 0:
        study.optimize(objective, n_trials=left, catch=())
    done = study.get_trials(deepcopy=False, states=(optuna.trial.TrialState.COMPLETE,))
    best = min(done, key=lambda t: (t.value, t.number))
    first = min(done, key=lambda t: t.number)
    return AgentTuneResult(
        game=tuning.game,
        spec=tuning.spec,
        against=tuning.against,
        seeds=seeds,
        trials=len(done),
        starts=starts,
        best={p.name: p.played(best.params[p.name]) for p in tuning.free},
        best_trial=best.number,
        loss_before=float(first.value or 0.0),
        loss_after=float(best.value or 0.0),
        se_before=float(first.user_attrs.get("se", math.nan)),
        se_after=float(best.user_attrs.get("se", math.nan)),
    )


def _build(game: Game[Any, Any, Any], tuning: AgentTuning, spec: str) -> None:
    from tabletop_core.agents.specs import parse_agent_spec

    state0 = game.initial_state(game.make_options(**dict(tuning.options), **dict(tuning.cells[0])))
    parse_agent_spec(spec).build(game, state0, tuning.seat)


def tuned_agent_text(result: AgentTuneResult) -> str:
    """The tuned agent's file (TOML): the tuned spec, the spec it started from and the deals it was tuned on (the
    ``# tabletop-tune: seeds=A:B`` line :func:`held_out` reads)."""
    import tomli_w  # the `design` extra

    head = f"# tabletop-tune: seeds={result.seeds.start}:{result.seeds.stop} trials={result.trials}\n"
    head += f"# loss ({result.loss_name}): {result.loss_before:.4g} at the start, {result.loss_after:.4g} tuned\n"
    body = {
        "game": result.game,
        "agent": result.tuned_spec,
        "start": result.spec,
        "against": result.against,
        "tuned_on": {"deal_seed": DEAL_SEED, "deals": [result.seeds.start, result.seeds.stop]},
        "tuned": dict(result.best),
        "defaults": dict(result.starts),
    }
    return head + tomli_w.dumps(body)


def seeds_overlap(tuned: range, seed: int, deals: range, *, chance_stream: bool = True) -> bool:
    """Whether games seeded from ``seed`` on ``deals`` (deal ``d``: ``game_seed(seed, d)``, and with
    ``chance_stream`` chance from ``game_seed(seed + 1, d)``) share a seed with the tuning games of the deals
    ``tuned`` (``game_seed(0, d)`` and ``game_seed(1, d)``).

    >>> seeds_overlap(range(0, 40), 0, range(30, 60)), seeds_overlap(range(0, 40), 2026, range(0, 100))
    (True, False)
    """
    ours = {DEAL_SEED, DEAL_SEED + 1}
    theirs = {seed, seed + 1} if chance_stream else {seed}
    return bool(ours & theirs) and max(tuned.start, deals.start) < min(tuned.stop, deals.stop)


def held_out(tuned: range, seed: int, deals: range, *, chance_stream: bool = True) -> None:
    """Refuse to measure an agent tuned on ``tuned`` on games that share a seed with its tuning games.

    Raises:
        OptionError: the games overlap the tuning games (see :func:`seeds_overlap`).
    """
    if seeds_overlap(tuned, seed, deals, chance_stream=chance_stream):
        raise OptionError(
            f"deals {deals.start}:{deals.stop} (seed {seed}) share seeds with the deals {tuned.start}:{tuned.stop} "
            "the agent was tuned on; measure it on deals nobody tuned on"
        )


def measure_agents(
    tuning: AgentTuning,
    specs: Sequence[str],
    seeds: range,
    *,
    tuned: range | None = None,
    workers: int = 1,
    backend: str = "local",
    address: str | None = None,
) -> list[tuple[str, float, float]]:
    """Each spec's loss (as the tuning defines it) with its standard error, on ``seeds`` (refused when they overlap
    the deals ``tuned`` on, see :func:`held_out`)."""
    from tabletop_core.registry import installed_game

    if tuned is not None:
        held_out(tuned, DEAL_SEED, seeds)
    game = installed_game(tuning.game)
    _check(tuning, game)
    where: dict[str, Any] = {"workers": workers, "backend": backend, "address": address}
    regrets = _Regrets(game, tuning) if tuning.exact else None
    reference = None if tuning.exact else _play(tuning, tuning.against, seeds, None, **where)
    out = []
    for spec in specs:
        played = _play(tuning, spec, seeds, regrets, **where)
        out.append((spec, *_mean_se(played if reference is None else reference - played)))
    return out
