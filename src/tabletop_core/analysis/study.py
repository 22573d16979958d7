"""A game study: what :func:`analyze` plays and how it turns the games into the report's numbers.

A :class:`Study` is a plain value (names, specs and counts). Its games are of three kinds, all played with the
separate chance stream (:func:`~tabletop_core.records.play`'s ``chance_seed``), deal ``d`` always drawing its chance
from the same seed:

* **the base games**: ``games`` deals with the studied agents in every seat: seat advantage, game length, real
  choices and branching; the first ``drama_games`` of them also estimate their win chances (drama).
* **the ladder**: each ladder agent (random, first, the heuristic bot and MCTS, or ISMCTS in a game of hidden
  information, at three budgets) plays ``ladder_games`` deals. In a competitive game it takes each seat in turn
  against the reference agent (the studied agent of the other seats); in a solo or co-op game it plays every seat.
  Each deal is played ``luck_replicates`` times under every condition, with other seeds of the agents' own
  choices. The ladder is rated by a Bradley-Terry fit with a seat term (:func:`tabletop_core.simulation.stats.
  ratings`; on each deal and replicate every two conditions compared by their result) and gives the rise of the
  win rate with the search budget.
* **luck against skill** reuses the ladder: the same deals under every agent, seat and replicate, the agent's
  result in each cell, and the sums of squares of seat, agent, deal, their interactions and the replicates
  (:func:`~tabletop_core.analysis.stats.luck_and_skill`).
* **restricted play**: for each item the game's hook lists, ``restrict_games`` deals with the item taken away,
  each paired with the base game of the same chance and agent seeds (so an item that never comes up changes
  nothing at all).
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Mapping, Sequence
from functools import partial
from typing import TYPE_CHECKING, Any, TypedDict, TypeVar, Unpack

import attrs
import numpy as np

from tabletop_core.agents.specs import parse_agent_spec, seat_names
from tabletop_core.analysis import stats
from tabletop_core.analysis.exact import expected_returns
from tabletop_core.analysis.tasks import Progress, run_tasks
from tabletop_core.errors import OptionError, TabletopError
from tabletop_core.outcomes import competitive, seat_outcomes, win_rule
from tabletop_core.registry import load_game
from tabletop_core.restrict import Restriction, load_restrictions
from tabletop_core.simulation.stats import wilson_interval
from tabletop_core.spec import Information

if TYPE_CHECKING:
    from tabletop_core.game import Game
    from tabletop_core.spec import GameSpec

__all__ = [
    "DEFAULT_BUDGETS",
    "SECTIONS",
    "Study",
    "StudyCounts",
    "analyze",
    "dumps",
    "run_study",
    "study_from_json",
    "study_seed",
    "summarize",
]

S = TypeVar("S")

#: The report's sections, in order.
SECTIONS = ("seats", "length", "branching", "ladder", "luck", "drama", "restricted")
#: The search budgets (iterations per decision) of the default ladder.
DEFAULT_BUDGETS = (10, 30, 90)
_SCORE = {"win": 1.0, "tie": 0.5, "loss": 0.0}
_EXACT_STATES = 2_000


def study_seed(seed: int, *key: int) -> int:
    """The seed of one stream of a study: NumPy ``SeedSequence`` spawn keys, below 2**53 (exact in JSON).

    >>> study_seed(0, 0, 5) == study_seed(0, 0, 5) != study_seed(0, 1, 5)
    True
    """
    return int(np.random.SeedSequence(seed, spawn_key=key).generate_state(1, np.uint64)[0]) >> 11


def _budget(spec: str, allow_import: bool) -> int | None:
    parsed = parse_agent_spec(spec, allow_import=allow_import)
    value = dict(parsed.params).get("iterations")
    return int(value) if parsed.kind in ("mcts", "ismcts") and isinstance(value, int) else None


class StudyCounts(TypedDict, total=False):
    """The :class:`Study` fields :meth:`Study.build` passes on as they are (see the class for each)."""

    ladder_games: int
    drama_games: int
    drama_points: int
    drama_rollouts: int
    restrict_games: int
    luck_replicates: int
    restrictions: str
    seed: int
    sections: tuple[str, ...]


@attrs.frozen
class Study:
    """What to play (see the module); build one with :meth:`build`.

    Attributes:
        game: a name :func:`~tabletop_core.registry.load_game` reads.
        agents: the studied agent spec of every seat.
        games: base games.
        ladder: the ladder's agent specs.
        ladder_games: deals per ladder condition.
        drama_games: base games that estimate their win chances.
        drama_points: win-chance estimates per such game (the final state adds one).
        drama_rollouts: rollouts per estimate where no exact odds exist.
        restrict_games: games per restricted item (at most ``games``).
        luck_replicates: games of each ladder deal and condition, each with its own agent seed (the luck model
            measures the agents' own randomness from them).
        restrictions: the restriction hook as ``module:ATTR`` (empty: the game's own, if any).
        seed: the study's seed.
        options: game options as (name, JSON value) pairs.
        sections: the sections to compute.
    """

    game: str
    agents: tuple[str, ...]
    games: int = 200
    ladder: tuple[str, ...] = ()
    ladder_games: int = 20
    drama_games: int = 20
    drama_points: int = 12
    drama_rollouts: int = 8
    restrict_games: int = 100
    luck_replicates: int = 2
    restrictions: str = ""
    seed: int = 0
    options: tuple[tuple[str, Any], ...] = ()
    sections: tuple[str, ...] = SECTIONS
    allow_import: bool = False

    def __attrs_post_init__(self) -> None:
        if self.luck_replicates < 1:
            raise OptionError(f"luck_replicates must be >= 1, not {self.luck_replicates}")
        for name in ("games", "ladder_games", "drama_games", "drama_points", "drama_rollouts", "restrict_games"):
            if getattr(self, name) < 0:
                raise OptionError(f"{name} must be >= 0, not {getattr(self, name)}")
        if self.games < 1:
            raise OptionError("a study needs at least one base game (games >= 1)")
        unknown = [s for s in self.sections if s not in SECTIONS]
        if unknown:
            raise OptionError(f"unknown sections {unknown}; the sections are {', '.join(SECTIONS)}")

    @classmethod
    def build(
        cls,
        game: str,
        agents: Sequence[str] | None = None,
        *,
        games: int = 200,
        budgets: Sequence[int] = DEFAULT_BUDGETS,
        ladder: Sequence[str] | None = None,
        options: Mapping[str, Any] | None = None,
        allow_import: bool = False,
        **counts: Unpack[StudyCounts],
    ) -> Study:
        """A study with the defaults filled in.

        Args:
            game: the game's name.
            agents: one spec for every seat, or one per seat (default: ``heuristic``).
            games: base games.
            budgets: the search budgets of the default ladder.
            ladder: the ladder's agents (default: random, first, heuristic and MCTS or ISMCTS at ``budgets``).
            options: game options.
            allow_import: let the agent specs, given here in code or typed on the command line (never read from a
                file), import a class by module path (see :func:`~tabletop_core.agents.specs.parse_agent_spec`).
            counts: any other :class:`Study` field (``ladder_games=10``, ``seed=3``, ``sections=(...)``).

        Raises:
            OptionError: for a wrong number of agents, or an agent that cannot play its seat.
        """
        obj = load_game(game)
        opts = dict(options or {})
        state = obj.initial_state(obj.make_options(**opts))
        n = obj.num_players(state)
        chosen = list(agents or ["heuristic"])
        if len(chosen) == 1:
            chosen *= n
        if len(chosen) != n:
            raise OptionError(f"{obj.spec.short_name}: {n} seats need one agent or {n}, got {len(chosen)}")
        for seat, text in enumerate(chosen):
            allowed = parse_agent_spec(text, allow_import=allow_import).seats()
            if allowed is not None and seat not in allowed:
                raise OptionError(f"agent {text!r} cannot play seat {seat}; it plays {sorted(allowed)}")
        if ladder is None:
            search = "ismcts" if obj.spec.information == Information.IMPERFECT else "mcts"
            ladder = ["random", "first", "heuristic", *(f"{search}:iterations={b}" for b in budgets)]
        for text in ladder:
            if parse_agent_spec(text, allow_import=allow_import).seats() is not None:
                raise OptionError(f"ladder agent {text!r} is bound to seats; a ladder agent must play every seat")
        return cls(
            game,
            tuple(chosen),
            games,
            tuple(ladder),
            options=tuple(sorted(opts.items())),
            allow_import=allow_import,
            **counts,
        )

    def to_json(self) -> dict[str, Any]:
        """The study as JSON values."""
        data = attrs.asdict(self)
        data["options"] = dict(self.options)
        return data


def _exact_seats(game: Game[S, Any, Any], state: S) -> dict[str, Any] | None:
    """Exact per-seat mean returns and win chances (ties half) under uniform random play, for small games."""

    def score(s: S) -> tuple[float, ...]:
        return tuple(_SCORE[o] for o in seat_outcomes(game.spec, game.returns(s)))

    try:
        returns = expected_returns(game, state, max_states=_EXACT_STATES)
        wins = expected_returns(game, state, max_states=_EXACT_STATES, value=score)
    except TabletopError:
        return None
    return {"mean_returns": list(returns), "win_chances": list(wins)}


def _seat_score(trace: Mapping[str, Any], seat: int) -> float:
    return _SCORE[trace["outcomes"][seat]]


def _seat_return(trace: Mapping[str, Any], seat: int) -> float:
    return float(trace["returns"][seat])


def _rounds(trace: Mapping[str, Any]) -> float:
    return float(trace["rounds"] or 0)


def analyze(
    study: Study,
    *,
    workers: int = 1,
    backend: str = "local",
    address: str | None = None,
    progress: Progress | None = None,
) -> dict[str, Any]:
    """Play the study's games and compute every section's numbers (a JSON-ready dict; see :func:`run_study`).

    Args:
        study: what to play.
        workers: processes (``local``) or CPUs of a local Ray instance (``ray`` without ``address``).
        backend: ``local`` (this process for one worker, else a process pool) or ``ray``.
        address: the Ray cluster to join.
        progress: called as ``progress(done, total)`` as games finish: ``total`` games, ``done`` the work finished
            in games of average cost (a search or drama game counts for more; see
            :class:`~tabletop_core.analysis.tasks.WorkMeter`), so that its rate gives a fair ETA.

    Raises:
        OptionError: for bad options, agents or backend.
    """
    return run_study(study, workers=workers, backend=backend, address=address, progress=progress)[0]


@attrs.frozen
class _Plan:
    """The games of a study and what the summary needs to read them."""

    tasks: list[dict[str, Any]]
    conditions: list[tuple[str, int | None, list[str]]]  # label, studied seat (None: every seat), seating
    items: list[Restriction]


def _plan(study: Study, game: Game[Any, Any, Any], names: Sequence[str], versus: bool) -> _Plan:
    options = dict(study.options)
    want = set(study.sections)

    def chance_seed(deal: int) -> int:
        return study_seed(study.seed, 0, deal)

    tasks: list[dict[str, Any]] = []
    base = {"game": study.game, "options": options}
    drama_on = "drama" in want
    for d in range(study.games):
        tasks.append(
            {
                **base,
                "kind": "base",
                "seating": list(study.agents),
                "allow_import": study.allow_import,
                "deal": d,
                "chance_seed": chance_seed(d),
                "agent_seed": study_seed(study.seed, 1, d),
                "drama_points": study.drama_points if drama_on and d < study.drama_games else 0,
                "drama_rollouts": study.drama_rollouts,
            }
        )
    conditions: list[tuple[str, int | None, list[str]]] = []
    if want & {"ladder", "luck"}:
        for agent in study.ladder:
            if versus:
                for seat in range(len(names)):
                    seating = list(study.agents)
                    seating[seat] = agent
                    conditions.append((f"{agent} as {names[seat]}", seat, seating))
            else:
                conditions.append((agent, None, [agent] * len(names)))
        for c, (_, _, seating) in enumerate(conditions):
            for d in range(study.ladder_games):
                for r in range(study.luck_replicates):
                    tasks.append(
                        {
                            **base,
                            "kind": "ladder",
                            "condition": c,
                            "seating": seating,
                            "allow_import": study.allow_import,
                            "deal": d,
                            "replicate": r,
                            "chance_seed": chance_seed(d),
                            "agent_seed": study_seed(study.seed, 2, c, d)
                            if r == 0
                            else study_seed(study.seed, 3, c, d, r),
                        }
                    )
    items: list[Restriction] = (
        load_restrictions(game, options, study.restrictions or None) if "restricted" in want else []
    )
    for j, item in enumerate(items):
        for d in range(min(study.restrict_games, study.games)):
            tasks.append(
                {
                    **base,
                    "kind": "restricted",
                    "item": j,
                    "restriction": item.to_json(),
                    "seating": list(study.agents),
                    "allow_import": study.allow_import,
                    "deal": d,
                    "chance_seed": chance_seed(d),
                    "agent_seed": study_seed(study.seed, 1, d),
                }
            )
    return _Plan(tasks, conditions, items)


def run_study(
    study: Study,
    *,
    workers: int = 1,
    backend: str = "local",
    address: str | None = None,
    progress: Progress | None = None,
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """As :func:`analyze`, and every game's trace too (its task under ``task``)."""
    started = time.perf_counter()
    game = load_game(study.game)
    state = game.initial_state(game.make_options(**dict(study.options)))
    names = list(seat_names(game, state))
    plan = _plan(study, game, names, competitive(game.spec, len(names)))
    traces = run_tasks(plan.tasks, workers=workers, backend=backend, address=address, progress=progress)
    for task, trace in zip(plan.tasks, traces, strict=True):
        trace["task"] = task
    result = summarize(study, traces)
    result["seconds"] = round(time.perf_counter() - started, 3)
    return result, traces


def summarize(study: Study, traces: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Every section's numbers from the traces of a study's games (:func:`run_study`'s, or ``games.jsonl``'s).

    Raises:
        OptionError: when the traces are not the games of this study.
    """
    game = load_game(study.game)
    state = game.initial_state(game.make_options(**dict(study.options)))
    names = list(seat_names(game, state))
    n = len(names)
    versus = competitive(game.spec, n)
    want = set(study.sections)
    plan = _plan(study, game, names, versus)
    if [t.get("task", {}).get("agent_seed") for t in traces] != [t["agent_seed"] for t in plan.tasks]:
        raise OptionError(f"these {len(traces)} traces are not the {len(plan.tasks)} games of this study")
    conditions, items = plan.conditions, plan.items
    paired = min(study.restrict_games, study.games)
    base_traces = [t for t in traces if t["task"]["kind"] == "base"]
    result: dict[str, Any] = {
        "format": "tabletop-rules/analysis",
        "version": 1,
        "game": study.game,
        "short_name": game.spec.short_name,
        "seats": names,
        "competitive": versus,
        "win_rule": win_rule(game.spec, n),
        "study": study.to_json(),
        "games_played": len(traces),
    }
    if "seats" in want:
        section: dict[str, Any] = {"rows": stats.seat_advantage(game.spec, names, base_traces)}
        if all(parse_agent_spec(a, allow_import=study.allow_import).kind == "random" for a in study.agents):
            section["exact_uniform"] = _exact_seats(game, state)
        result["seat_advantage"] = section
    if "length" in want:
        result["length"] = stats.lengths(base_traces)
    if "branching" in want:
        result["branching"] = stats.branching(base_traces)
    if conditions:
        ladder_traces = [t for t in traces if t["task"]["kind"] == "ladder"]
        by_cond: list[list[dict[str, Any]]] = [[] for _ in conditions]
        for t in ladder_traces:
            by_cond[t["task"]["condition"]].append(t)
        if "ladder" in want:
            result["ladder"] = _ladder(study, game, state, names, conditions, by_cond=by_cond, versus=versus)
        if "luck" in want:
            result["luck"] = _luck(study, names, conditions, by_cond, versus)
    if "drama" in want:
        result["drama"] = stats.drama(game.spec, base_traces, study.drama_rollouts)
    if "restricted" in want:
        result["restricted"] = _restricted(game.spec, items, traces, base_traces[:paired], versus=versus, names=names)
    return result


def study_from_json(data: Mapping[str, Any]) -> Study:
    """The study of :meth:`Study.to_json`'s form (as ``analysis.json`` holds it under ``study``)."""
    fields = dict(data)
    fields["options"] = tuple(sorted(dict(fields["options"]).items()))
    for key in ("agents", "ladder", "sections"):
        fields[key] = tuple(fields[key])
    return Study(**fields)


def _result(trace: Mapping[str, Any], seat: int | None) -> float:
    """A condition's result in one game: the studied seat's return, or the party's mean return."""
    returns = trace["returns"]
    return float(returns[seat]) if seat is not None else float(sum(returns) / len(returns))


def _score_of(trace: Mapping[str, Any], seat: int | None) -> float:
    return _seat_score(trace, seat if seat is not None else 0)


def _ladder(
    study: Study,
    game: Game[S, Any, Any],
    state: S,
    names: Sequence[str],
    conditions: Sequence[tuple[str, int | None, list[str]]],
    *,
    by_cond: Sequence[Sequence[Mapping[str, Any]]],
    versus: bool,
) -> dict[str, Any]:
    from scipy import stats as sps

    from tabletop_core.simulation.stats import entry_names, ratings

    bounds = (game.spec.min_utility, game.spec.max_utility)
    rows = []
    per_agent: dict[str, list[tuple[float, float]]] = {a: [] for a in study.ladder}
    for (label, seat, seating), games in zip(conditions, by_cond, strict=True):
        done = [t for t in games if t["returns"] is not None]
        agent = seating[seat] if seat is not None else seating[0]
        scores = [_score_of(t, seat) for t in done]
        wins = sum(1 for t in done if t["outcomes"][seat if seat is not None else 0] == "win")
        ret = stats.mean_row([_result(t, seat) for t in done], bounds)
        rows.append(
            {
                "condition": label,
                "agent": agent,
                "seat": seat,
                "games": len(done),
                "wins": wins,
                "win_rate": wins / len(done) if done else None,
                "win_interval": list(wilson_interval(wins, len(done))),
                "mean_return": ret["mean"],
                "return_interval": ret["interval"],
                "return_method": ret["method"],
            }
        )
        per_agent[agent].extend((s, _result(t, seat)) for s, t in zip(scores, done, strict=True))
    # Rating comparisons: on each deal and replicate, every two conditions that played it, by their result (every
    # condition met the same chance), so the ladder agents are compared on equal luck, with a seat term for the
    # side each played; a reference seat is not a contestant. The bootstrap draws whole deals.
    entry = {}
    for _, seat, seating in conditions:
        agent = seating[seat] if seat is not None else seating[0]
        if versus and seat is not None:
            entry[agent, seat] = entry_names(game, state, [agent] * len(names), names)[seat]
        else:
            entry[agent, 0] = agent
    cells: dict[tuple[int, int], list[tuple[str, int, float]]] = {}
    for (_, seat, seating), games in zip(conditions, by_cond, strict=True):
        agent = seating[seat] if seat is not None else seating[0]
        for t in games:
            if t["returns"] is not None:
                key = (t["task"]["deal"], t["task"].get("replicate", 0))
                s = seat if seat is not None else 0
                cells.setdefault(key, []).append((entry[agent, s], s, _result(t, seat)))
    comps: list[tuple[str, str, float, int, int]] = []
    groups: list[int] = []
    for (deal, _), members in sorted(cells.items()):
        for i in range(len(members)):
            for j in range(i + 1, len(members)):
                (ea, sa, va), (eb, sb, vb) = members[i], members[j]
                if ea == eb:
                    continue
                score = 1.0 if va > vb + 1e-9 else 0.0 if vb > va + 1e-9 else 0.5
                comps.append((ea, eb, score, sa, sb))
                groups.append(deal)
    rated = ratings(comps, seats=len(names) if versus else 1, seat_names=names, groups=groups)
    agents_rows: list[dict[str, Any]] = []
    for agent in study.ladder:
        pairs = per_agent[agent]
        scores = [p[0] for p in pairs]
        agents_rows.append(
            {
                "agent": agent,
                "budget": _budget(agent, study.allow_import),
                "games": len(pairs),
                "score": stats.mean_row(scores, (0.0, 1.0)),
            }
        )
    rise = None
    budgeted = [
        (math.log2(b), s) for a in study.ladder if (b := _budget(a, study.allow_import)) for s, _ in per_agent[a]
    ]
    if len({x for x, _ in budgeted}) >= 2 and len(budgeted) >= 3:
        ys = [y for _, y in budgeted]
        if len(set(ys)) == 1:  # every budget scored the same: the slope is 0 exactly, with nothing to fit
            rise = {"per_doubling": 0.0, "interval": [0.0, 0.0], "games": len(budgeted), "p_value": None}
        else:
            fit = sps.linregress([x for x, _ in budgeted], ys)
            tq = float(sps.t.ppf(0.975, len(budgeted) - 2))
            slope, err = float(fit.slope), float(fit.stderr)
            rise = {
                "per_doubling": slope,
                "interval": [slope - tq * err, slope + tq * err],
                "games": len(budgeted),
                "p_value": float(fit.pvalue),
            }
    return {
        "conditions": rows,
        "agents": agents_rows,
        "ratings": rated,
        "contests": len(cells),
        "budget_rise": rise,
        "reference": list(study.agents),
    }


def _luck(
    study: Study,
    names: Sequence[str],
    conditions: Sequence[tuple[str, int | None, list[str]]],
    by_cond: Sequence[Sequence[Mapping[str, Any]]],
    versus: bool,
) -> dict[str, Any]:
    agents = list(study.ladder)
    seats = list(names) if versus else ["every seat"]
    where: dict[tuple[int, int], int] = {}
    for c, (_, seat, seating) in enumerate(conditions):
        agent = seating[seat] if seat is not None else seating[0]
        where[agents.index(agent), seat if seat is not None else 0] = c
    reps = study.luck_replicates
    index = [{(t["task"]["deal"], t["task"].get("replicate", 0)): t for t in games} for games in by_cond]
    deals = [
        d
        for d in range(study.ladder_games)
        if all(
            (d, r) in index[c] and index[c][d, r]["returns"] is not None
            for c in range(len(conditions))
            for r in range(reps)
        )
    ]
    table = np.zeros((len(deals), len(agents), len(seats), reps))
    for i, d in enumerate(deals):
        for (a, s), c in where.items():
            for r in range(reps):
                table[i, a, s, r] = _result(index[c][d, r], conditions[c][1])
    out = stats.luck_and_skill(table, agents, seats)
    out["result"] = "the return of the ladder agent's seat" if versus else "the party's mean return"
    out["unfinished_deals"] = study.ladder_games - len(deals)
    return out


def _restricted(
    spec: GameSpec,
    items: Sequence[Restriction],
    traces: Sequence[Mapping[str, Any]],
    baseline: Sequence[Mapping[str, Any]],
    *,
    versus: bool,
    names: Sequence[str],
) -> dict[str, Any]:
    rows = []
    seats = range(len(names)) if versus else range(1)
    span = spec.max_utility - spec.min_utility
    spread = (-span, span)
    for j, item in enumerate(items):
        games = [t for t in traces if t["task"]["kind"] == "restricted" and t["task"]["item"] == j]
        games.sort(key=lambda t: t["task"]["deal"])
        row: dict[str, Any] = {
            "item": item.label,
            "kind": item.kind,
            "name": item.name,
            "how": item.how,
            "games": len(games),
            "games_restricted": sum(1 for t in games if t["restricted"]),
            "restricted_decisions": stats.mean_row([t["restricted"] for t in games]),
            "unchanged_games": sum(
                1
                for t, b in zip(games, baseline, strict=True)
                if t["returns"] == b["returns"] and t["actions"] == b["actions"]
            ),
        }
        row["seats"] = [
            {
                "seat": s,
                "seat_name": names[s] if versus else "every seat",
                "win_change": stats.paired_change(games, baseline, partial(_seat_score, seat=s), (-1.0, 1.0)),
                "return_change": stats.paired_change(games, baseline, partial(_seat_return, seat=s), spread),
                "rounds_change": stats.paired_change(games, baseline, _rounds),
            }
            for s in seats
        ]
        rows.append(row)
    # The family: every item at every seat; the adjustments are over all of them at once.
    family = [s["win_change"] for r in rows for s in r["seats"]]
    adjusted = stats.adjust([w["p_value"] for w in family])
    for k, w in enumerate(family):
        w["holm_p"], w["bh_p"] = adjusted["holm"][k], adjusted["bh"][k]
        w["holm_survives"], w["bh_survives"] = adjusted["holm_reject"][k], adjusted["bh_reject"][k]
    rows.sort(key=lambda r: -abs(r["seats"][0]["win_change"]["change"] or 0.0))
    by_seat = [
        {
            "seat": s,
            "seat_name": names[s] if versus else "every seat",
            "nominal": sum(1 for r in rows if r["seats"][k]["win_change"]["p_value"] < 0.05),
            "holm": sum(1 for r in rows if r["seats"][k]["win_change"]["holm_survives"]),
            "bh": sum(1 for r in rows if r["seats"][k]["win_change"]["bh_survives"]),
        }
        for k, s in enumerate(seats)
    ]
    return {
        "items": rows,
        "baseline_games": len(baseline),
        "hook": bool(items),
        "tests": len(family),
        "significant": by_seat,
    }


def dumps(result: Mapping[str, Any]) -> str:
    """The analysis as a JSON document (NaN and infinities written as null)."""

    def clean(x: object) -> Any:
        if isinstance(x, float):
            return x if math.isfinite(x) else None
        if isinstance(x, dict):
            return {k: clean(v) for k, v in x.items()}
        if isinstance(x, (list, tuple)):
            return [clean(v) for v in x]
        if isinstance(x, np.generic):
            return clean(x.item())
        return x

    return json.dumps(clean(result), indent=1, sort_keys=True, allow_nan=False) + "\n"
