"""Tune a content pack's free numbers toward balance targets, with Optuna.

The targets file (:mod:`tabletop_core.design.targets`) names the fields ``tune`` may change (``[free]``, each with
inclusive bounds) and the targets to reach. Each trial is a pack: the default pack with the trial's values for the
free fields, written as a pack file (:func:`tabletop_core.design.packs.pack_text`) and played on every deal of the
tuning range in every cell of the grid. A field the rulebook prints (``source = "rulebook"``) cannot be free: the
targets file is refused before anything is played.

The trial's **loss** is the sum over the (sub)targets of how far each statistic lies outside its bounds, measured on
the deals played (no resampling): for a spread (a max/min ratio) ``log(value / at_most)`` above the bound; for a
rate or a mean, the distance to the nearest bound divided by that bound's size (at least 0.01), so that a win rate
5 points under a 10% floor weighs as much as a ratio 1.65 times its ceiling. A statistic that cannot be computed (no
game had the measure) costs 1, an infinite spread 10. A pack that meets every target on the tuning deals has loss
0. Meeting them on the tuning deals is not a claim: ``tabletop certify`` decides it on other deals. A trial whose
numbers the game's own content checks refuse is pruned (not counted as finished), with the reason kept on it.

The study lives in an Optuna storage: by default a SQLite file beside the output pack (``PACK.optuna.db``), so an
interrupted run resumes where it stopped (``--trials`` is the study's total, not the run's), and several processes
may tune one study by naming the same storage URL and study name: on one machine, or on several through a database
server all of them reach (``postgresql+psycopg://...``), each process playing its trials' games on its own workers.
Each trial's pack is a file in the process's temporary folder, so ``--backend ray`` plays a trial's games on a Ray
cluster only where its workers can read that folder (a single-node Ray, or a shared filesystem). The first trial of
a new study is the default pack itself, so the report always compares the tuned pack with the untouched one. A
study remembers its game, its targets and its tuning deals; resuming it with others is refused.

The pack written is the best trial's, with a ``# tabletop-tune: seeds=A:B`` line (the deals it was tuned on, which
``certify`` refuses) and a report of every change.
"""

from __future__ import annotations

import hashlib
import json
import math
import tempfile
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs
import numpy as np

from tabletop_core.design.packs import check_field, content_of, free_fields, pack_text
from tabletop_core.design.targets import Target, Targets, evaluate, resampled_sums, statistic
from tabletop_core.errors import OptionError, TabletopError

if TYPE_CHECKING:
    import optuna

    from tabletop_core.game import Game

__all__ = ["TuneResult", "loss_of", "study_key", "tune", "tuned_pack_text", "violation"]

#: What an incomputable statistic costs, and what an infinite spread (a rate of 0 beside a positive one) costs.
MISSING_COST = 1.0
INFINITE_COST = 10.0


def violation(target: Target, value: float) -> float:
    """How far ``value`` lies outside ``target``'s bounds (0 inside; see the module)."""
    if math.isnan(value):
        return MISSING_COST
    if math.isinf(value):
        return INFINITE_COST
    if target.spread or target.measures:
        hi = target.at_most
        if hi is None or value <= hi:
            return 0.0
        return math.log(value / hi) if hi > 0 else INFINITE_COST
    cost = 0.0
    if target.at_least is not None and value < target.at_least:
        cost = (target.at_least - value) / max(abs(target.at_least), 0.01)
    if target.at_most is not None and value > target.at_most:
        cost = (value - target.at_most) / max(abs(target.at_most), 0.01)
    return cost


def loss_of(
    targets: Targets, cells: Sequence[Any], data: np.ndarray, names: Sequence[str]
) -> tuple[float, dict[str, float]]:
    """The loss of played data, and each (sub)target's statistic on the deals played."""
    sums = resampled_sums(data, 0, 0)  # resample 0 is the sample itself
    values: dict[str, float] = {}
    loss = 0.0
    for label, target, fixed in targets.subtargets():
        value = float(statistic(targets, target, fixed, cells, sums, names)[0])
        values[label] = value
        loss += violation(target, value)
    return loss, values


def study_key(targets: Targets, seeds: range) -> str:
    """A digest of what a study tunes: the targets (game, agents, grid, options, free fields, targets) and the
    deals; a study resumed with another key is refused."""
    text = json.dumps([attrs.asdict(targets, recurse=True), [seeds.start, seeds.stop]], sort_keys=True, default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@attrs.frozen
class TuneResult:
    """A finished tuning: the best pack's values and the evidence for it."""

    game: str
    seeds: range
    trials: int
    defaults: Mapping[str, float]
    best: Mapping[str, float]
    best_trial: int
    loss_before: float
    loss_after: float
    before: Mapping[str, float]
    after: Mapping[str, float]

    def changes(self) -> dict[str, tuple[float, float]]:
        """Each field the best pack changes: ``(default, tuned)``."""
        return {f: (self.defaults[f], v) for f, v in sorted(self.best.items()) if v != self.defaults[f]}

    def to_dict(self) -> dict[str, Any]:
        """The result as JSON-ready data."""
        return {
            "game": self.game,
            "seeds": [self.seeds.start, self.seeds.stop],
            "trials": self.trials,
            "best_trial": self.best_trial,
            "loss": {"default": self.loss_before, "tuned": self.loss_after},
            "changes": [{"field": f, "default": d, "tuned": t} for f, (d, t) in self.changes().items()],
            "targets": [
                {"target": label, "default": self.before.get(label), "tuned": self.after.get(label)}
                for label in self.after
            ],
        }

    def report(self) -> str:
        """A Markdown report: what changed and how each target moved on the tuning deals."""
        lines = [
            f"# Tuning of {self.game}",
            "",
            f"{self.trials} trials on deals {self.seeds.start}:{self.seeds.stop}; best trial {self.best_trial}; "
            f"loss {self.loss_before:.4g} for the default pack, {self.loss_after:.4g} tuned. These figures are "
            "measured on the tuning deals: certify the pack on others (`tabletop certify`).",
            "",
            "| field | default | tuned |",
            "|---|---:|---:|",
        ]
        changes = self.changes()
        lines += [f"| `{f}` | {d:g} | {t:g} |" for f, (d, t) in changes.items()] or ["| (none) | | |"]
        lines += ["", "| target | default pack | tuned pack |", "|---|---:|---:|"]
        lines += [f"| {label} | {self.before.get(label, math.nan):.4g} | {v:.4g} |" for label, v in self.after.items()]
        return "\n".join(lines) + "\n"


def _suggest(trial: optuna.Trial, field: str, bounds: tuple[float, float], default: float) -> float:
    lo, hi = bounds
    if isinstance(default, int) and float(lo).is_integer() and float(hi).is_integer():
        return int(trial.suggest_int(field, int(lo), int(hi)))
    return float(trial.suggest_float(field, lo, hi))


def open_study(
    study_name: str,
    storage: str,
    *,
    sampler_seed: int,
    key: str,
    game: str,
    seeds: range,
    start: Mapping[str, Any],
    what: str,
) -> optuna.Study:
    """The Optuna study ``study_name`` in ``storage``, made (with ``start`` as its first trial) or resumed.

    A new study records ``key``, the game and the deals; a stored one must have the same key.

    Raises:
        OptionError: the stored study tunes ``what`` else (another key), naming what it tunes.
    """
    import optuna  # the `design` extra

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    study = optuna.create_study(
        study_name=study_name,
        storage=storage,
        direction="minimize",
        load_if_exists=True,
        sampler=optuna.samplers.TPESampler(seed=sampler_seed),
    )
    stored = study.user_attrs.get("key")
    if stored is None:
        study.set_user_attr("key", key)
        study.set_user_attr("game", game)
        study.set_user_attr("seeds", [seeds.start, seeds.stop])
        study.enqueue_trial(dict(start))
    elif stored != key:
        raise OptionError(
            f"study {study_name!r} in {storage} tunes {what} or deals "
            f"({study.user_attrs.get('game')}, deals {study.user_attrs.get('seeds')}): name another --study"
        )
    return study


def tune(
    targets: Targets,
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
) -> TuneResult:
    """Run (or resume) the study until it holds ``trials`` finished trials, and return its best pack.

    Raises:
        OptionError: no free field, a field that does not exist or is fixed, a bound outside what the game
            accepts, or a stored study that tunes something else.
    """
    import optuna  # the `design` extra

    from tabletop_core.registry import installed_game

    game = installed_game(targets.game)
    if not targets.free:
        raise OptionError("the targets file marks no field free: add a [free] table of fields and bounds")
    content = content_of(game)
    for field, _bounds in targets.free:
        check_field(game, field, content)
    defaults = {f: v for f, v in free_fields(game).items() if f in dict(targets.free)}
    for field, (lo, hi) in targets.free:
        if not lo <= defaults[field] <= hi:
            raise OptionError(f"free field {field}: its default {defaults[field]:g} lies outside [{lo:g}, {hi:g}]")
    study = open_study(
        study_name,
        storage,
        sampler_seed=sampler_seed,
        key=study_key(targets, seeds),
        game=targets.game,
        seeds=seeds,
        start=defaults,
        what="other targets",
    )

    def finished() -> int:
        return len(study.get_trials(deepcopy=False, states=(optuna.trial.TrialState.COMPLETE,)))

    with tempfile.TemporaryDirectory(prefix="tabletop-tune-") as tmp:

        def objective(trial: optuna.Trial) -> float:
            values = {f: _suggest(trial, f, bounds, defaults[f]) for f, bounds in targets.free}
            path = Path(tmp) / f"trial-{trial.number}.toml"
            path.write_text(pack_text(game, values), encoding="utf-8")
            try:
                cells, data, names = evaluate(
                    targets, seeds, pack=path, workers=workers, backend=backend, address=address
                )
            except TabletopError as exc:  # the game refuses these numbers (its own content checks): not a pack
                trial.set_user_attr("refused", str(exc))
                raise optuna.TrialPruned(str(exc)) from None
            loss, stats = loss_of(targets, cells, data, names)
            trial.set_user_attr("statistics", {k: (None if math.isnan(v) else v) for k, v in stats.items()})
            if progress is not None:
                progress(finished() + 1, trials)
            return loss

        left = trials - finished()
        if left > 0:
            study.optimize(objective, n_trials=left, catch=())
    done = study.get_trials(deepcopy=False, states=(optuna.trial.TrialState.COMPLETE,))
    best = min(done, key=lambda t: (t.value, t.number))
    first = min(done, key=lambda t: t.number)

    def stats(t: optuna.trial.FrozenTrial) -> dict[str, float]:
        return {k: (math.nan if v is None else float(v)) for k, v in t.user_attrs.get("statistics", {}).items()}

    return TuneResult(
        game=targets.game,
        seeds=seeds,
        trials=len(done),
        defaults=defaults,
        best={f: best.params[f] for f in defaults},
        best_trial=best.number,
        loss_before=float(first.value or 0.0),
        loss_after=float(best.value or 0.0),
        before=stats(first),
        after=stats(best),
    )


def tuned_pack_text(game: Game[Any, Any, Any], result: TuneResult) -> str:
    """The tuned pack's file: the changes, with the deals it was tuned on and its report as comments."""
    note = f"tabletop-tune: seeds={result.seeds.start}:{result.seeds.stop} trials={result.trials}\n"
    note += "".join(f"{f}: {d:g} -> {t:g}\n" for f, (d, t) in result.changes().items())
    return pack_text(game, {f: t for f, (_d, t) in result.changes().items()}, note=note)
