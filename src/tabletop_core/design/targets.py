"""Balance targets: a TOML file of what a game's content should achieve, measured over a grid of options.

A targets file::

    game = "unbroken"
    agents = ["heuristic"]            # one spec per seat (default: the game's own bots)

    [grid]                            # every target is measured over these cells (all combinations)
    character = ["sneak", "sage", "hunter", "brawler"]
    difficulty = ["easy", "normal", "hard"]

    [free]                            # what `tabletop tune` may change, with inclusive bounds
    "monster.kobold.health" = [3, 8]

    [[target]]
    name = "characters within 1.5x on each difficulty"
    measure = "win"
    spread = "character"              # max/min of the measure across this axis ...
    per = "difficulty"                # ... once for each value of this one (else pooled over the others)
    at_most = 1.5

    [[target]]
    name = "Level 1 monsters within 2x"
    measures = ["lethality:kobold", "lethality:hyena"]   # max/min across these measures, pooled over the grid
    at_most = 2.0

    [[target]]
    name = "normal win rate"
    measure = "win"
    where = { difficulty = "normal" } # only these cells
    at_least = 0.05
    at_most = 0.15

Every cell plays the same deals (deal ``d`` seeded ``game_seed(0, d)``: the deal numbers are the "seeds" that
``tune`` and ``certify`` take as ranges), so each target's statistic is resampled by deal across all cells at once
(:func:`resampled_sums`), which keeps the pairing between cells.
"""

from __future__ import annotations

import itertools
import json
import math
import tomllib
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs
import numpy as np

from tabletop_core.errors import OptionError

__all__ = [
    "MAX_TARGETS_BYTES",
    "MAX_TARGETS_DEPTH",
    "Cell",
    "Target",
    "Targets",
    "evaluate",
    "load_targets",
    "parse_seeds",
    "read_targets_document",
    "resampled_sums",
    "statistic",
]

#: A targets file larger than this is refused unread.
MAX_TARGETS_BYTES = 1 << 20
#: A targets file whose tables and lists nest deeper than this is refused (its keys nest three deep at most).
MAX_TARGETS_DEPTH = 16

Tallies = dict[str, tuple[float, float]]
#: One cell's options, as sorted ``(axis, value)`` pairs.
Cell = tuple[tuple[str, Any], ...]


@attrs.frozen
class Target:
    """One target (see the module). ``spread`` names a grid axis; ``measures`` a list to spread across."""

    name: str
    measure: str = ""
    measures: tuple[str, ...] = ()
    spread: str = ""
    per: str = ""
    where: tuple[tuple[str, Any], ...] = ()
    at_least: float | None = None
    at_most: float | None = None

    def bounds(self) -> str:
        lo, hi = self.at_least, self.at_most
        if lo is not None and hi is not None:
            return f"within [{lo:g}, {hi:g}]"
        return f">= {lo:g}" if lo is not None else f"<= {hi:g}"


@attrs.frozen
class Targets:
    """A targets file, read and checked."""

    game: str
    agents: tuple[str, ...]
    grid: tuple[tuple[str, tuple[Any, ...]], ...]
    free: tuple[tuple[str, tuple[float, float]], ...]
    targets: tuple[Target, ...]
    options: tuple[tuple[str, Any], ...] = ()

    def cells(self) -> list[Cell]:
        axes = [a for a, _ in self.grid]
        return [tuple(zip(axes, values, strict=True)) for values in itertools.product(*(v for _, v in self.grid))]

    def subtargets(self) -> list[tuple[str, Target, Cell]]:
        """Each target, split by its ``per`` axis: (label, target, fixed cell values)."""
        out: list[tuple[str, Target, Cell]] = []
        grid = dict(self.grid)
        for t in self.targets:
            if t.per:
                for value in grid[t.per]:
                    out.append((f"{t.name} [{t.per}={value}]", t, ((t.per, value),)))
            else:
                out.append((t.name, t, ()))
        return out


def _fail(where: str, problem: str) -> OptionError:
    return OptionError(f"targets file {where}: {problem}")


def load_targets(path: str | Path) -> Targets:
    """Read and check a targets file (a regular file of at most 1 MiB, TOML nested at most
    :data:`MAX_TARGETS_DEPTH` deep; see the module).

    Raises:
        OptionError: naming the file and the key of the first mistake.
    """
    return parse_targets(read_targets_document(path), str(path))


def read_targets_document(path: str | Path) -> dict[str, Any]:
    """A targets file's TOML document, read within the bounds of :func:`load_targets` (a balance tuning's, or an
    agent tuning's: :func:`tabletop_core.design.bots.parse_agent_tuning`).

    Raises:
        OptionError: the file cannot be read, is not TOML, or nests too deeply.
    """
    from tabletop_core.files import read_regular

    text = read_regular(Path(path), max_bytes=MAX_TARGETS_BYTES, error=_fail).decode("utf-8", "replace")
    deep = f"nested too deeply (past {MAX_TARGETS_DEPTH} tables and lists)"
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise _fail(str(path), f"not valid TOML: {exc}") from None
    except RecursionError:  # the TOML reader recurses once per bracket
        raise _fail(str(path), deep) from None
    if _depth(doc) > MAX_TARGETS_DEPTH:  # values are later written as JSON, which recurses too
        raise _fail(str(path), deep)
    return doc


def _depth(value: object) -> int:
    """How deeply ``value``'s tables and lists nest (a number: 0), counted without recursion."""
    deepest = 0
    todo: list[tuple[object, int]] = [(value, 0)]
    while todo:
        item, depth = todo.pop()
        if isinstance(item, dict):
            children: list[object] = list(item.values())
        elif isinstance(item, list):
            children = list(item)
        else:
            continue
        deepest = max(deepest, depth + 1)
        todo.extend((child, depth + 1) for child in children)
    return deepest


def _number(value: object, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise _fail(where, f"{value!r} is not a finite number")
    return float(value)


def parse_targets(doc: Mapping[str, Any], file: str = "<targets>") -> Targets:
    """Check a targets document already read from TOML."""
    known = {"game", "agents", "grid", "free", "target", "options"}
    for key in doc:
        if key not in known:
            raise _fail(f"{file}: {key}", f"unknown key (known: {sorted(known)})")
    game = doc.get("game")
    if not isinstance(game, str) or not game:
        raise _fail(f"{file}: game", 'name the game (game = "unbroken")')
    agents = doc.get("agents", [])
    if not isinstance(agents, list) or not all(isinstance(a, str) for a in agents):
        raise _fail(f"{file}: agents", "a list of agent specs, one per seat")
    grid_doc = doc.get("grid", {})
    if not isinstance(grid_doc, dict):
        raise _fail(f"{file}: grid", "a table of axis = [values]")
    grid = []
    for axis, values in grid_doc.items():
        if not isinstance(values, list) or not values or len(values) > 64:
            raise _fail(f"{file}: grid.{axis}", "a list of 1 to 64 option values")
        grid.append((str(axis), tuple(values)))
    options = doc.get("options", {})
    if not isinstance(options, dict):
        raise _fail(f"{file}: options", "a table of option = value")
    free_doc = doc.get("free", {})
    if not isinstance(free_doc, dict):
        raise _fail(f"{file}: free", 'a table of "SECTION.ID.FIELD" = [low, high]')
    free = []
    for field, bounds in free_doc.items():
        where = f"{file}: free.{field}"
        if not isinstance(bounds, list) or len(bounds) != 2:
            raise _fail(where, "give [low, high]")
        lo, hi = (_number(b, where) for b in bounds)
        if lo > hi:
            raise _fail(where, f"low {lo:g} is above high {hi:g}")
        free.append((str(field), (lo, hi)))
    raw = doc.get("target", [])
    if not isinstance(raw, list) or not raw:
        raise _fail(f"{file}: target", "declare at least one [[target]]")
    axes = dict(grid)
    targets = []
    for i, t in enumerate(raw):
        where = f"{file}: target[{i}]"
        if not isinstance(t, dict):
            raise _fail(where, "write each target as a [[target]] table")
        extra = set(t) - {f.name for f in attrs.fields(Target)}
        if extra:
            raise _fail(where, f"unknown keys {sorted(extra)}")
        name = t.get("name", f"target {i + 1}")
        measure = t.get("measure", "")
        measures = tuple(t.get("measures", ()))
        if bool(measure) == bool(measures):
            raise _fail(where, "give one of measure = NAME or measures = [NAMES]")
        if measures and (len(measures) < 2 or not all(isinstance(m, str) for m in measures)):
            raise _fail(where, "measures lists two or more measure names")
        spread, per = t.get("spread", ""), t.get("per", "")
        for key, axis in (("spread", spread), ("per", per)):
            if axis and axis not in axes:
                raise _fail(f"{where}.{key}", f"{axis!r} is not a grid axis ({sorted(axes)})")
        if spread and measures:
            raise _fail(where, "spread across an axis needs one measure, not a list")
        if per and per == spread:
            raise _fail(where, "per and spread name the same axis")
        wh = t.get("where", {})
        if not isinstance(wh, dict) or any(k not in axes or v not in axes[k] for k, v in wh.items()):
            raise _fail(f"{where}.where", "a table of grid axis = one of its values")
        low_bound = _number(t["at_least"], f"{where}.at_least") if "at_least" in t else None
        high_bound = _number(t["at_most"], f"{where}.at_most") if "at_most" in t else None
        if low_bound is None and high_bound is None:
            raise _fail(where, "give at_least, at_most or both")
        if (spread or measures) and low_bound is not None:
            raise _fail(where, "a spread (max/min) takes at_most only")
        targets.append(
            Target(str(name), str(measure), measures, spread, per, tuple(sorted(wh.items())), low_bound, high_bound)
        )
    return Targets(game, tuple(agents), tuple(grid), tuple(free), tuple(targets), tuple(sorted(options.items())))


def parse_seeds(text: str) -> range:
    """A range of deal numbers, ``START:END`` (END excluded) or ``COUNT`` (from 0).

    >>> parse_seeds("1000:1500")
    range(1000, 1500)
    """
    start, sep, end = text.partition(":")
    try:
        lo, hi = (int(start), int(end)) if sep else (0, int(start))
    except ValueError:
        raise OptionError(f"seeds {text!r}: write START:END (deal numbers, END excluded) or a count") from None
    if lo < 0 or hi <= lo or hi - lo > 10_000_000:
        raise OptionError(f"seeds {text!r}: need 0 <= START < END, at most 10,000,000 deals")
    return range(lo, hi)


def evaluate(
    targets: Targets,
    seeds: range,
    *,
    pack: Path | None = None,
    workers: int = 1,
    backend: str = "local",
    address: str | None = None,
) -> tuple[list[Cell], np.ndarray, list[str]]:
    """Play every cell on every deal of ``seeds``: ``(cells, data[cell, deal, measure, (num, den)], measures)``."""
    from tabletop_core.design.compare import Variant, play_deals
    from tabletop_core.simulation.runner import map_batches, usable_workers

    cells = targets.cells()
    base = dict(targets.options)
    if pack is not None:
        base["pack"] = pack
    variants = [
        Variant(json.dumps(cell), tuple(sorted({**base, **dict(cell)}.items())), targets.agents) for cell in cells
    ]
    plan = json.dumps({"variants": [v.to_json() for v in variants], "options": [], "seed": 0})
    size = 25
    deals = list(seeds)
    batches = [tuple(deals[i : i + size]) for i in range(0, len(deals), size)]
    workers = usable_workers(workers, len(batches), backend=backend, address=address)
    rows: dict[int, list[Tallies | None]] = {}
    for result in map_batches(
        play_deals, ((targets.game, plan, b) for b in batches), workers=workers, backend=backend, address=address
    ):
        rows.update(dict(result))
    names = sorted({k for row in rows.values() for t in row if t is not None for k in t})
    index = {m: j for j, m in enumerate(names)}
    data = np.zeros((len(cells), len(deals), len(names), 2))
    for k, deal in enumerate(deals):
        for c, tallies in enumerate(rows[deal]):
            for m, (n, d) in (tallies or {}).items():
                data[c, k, index[m]] = (n, d)
    return cells, data, names


def _ratio(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(den > 0, num / np.where(den > 0, den, 1.0), np.nan)


def _spread(values: np.ndarray) -> np.ndarray:
    """max/min along the last axis (inf when the smallest is 0 and the largest is not; nan when any is nan)."""
    hi = values.max(axis=-1)
    lo = values.min(axis=-1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(lo > 0, hi / np.where(lo > 0, lo, 1.0), np.where(hi > 0, np.inf, 1.0))


def statistic(  # noqa: PLR0917 (the target, its part and the data it reads, as the docs name them)
    targets: Targets, target: Target, fixed: Cell, cells: Sequence[Cell], sums: np.ndarray, names: Sequence[str]
) -> np.ndarray:
    """A target's statistic for each resample: ``sums`` is ``[resample, cell, measure, (num, den)]``, each cell's
    measures summed over the resample's deals (see :func:`resampled_sums`)."""
    wanted = {**dict(target.where), **dict(fixed)}
    keep = [i for i, cell in enumerate(cells) if all(dict(cell)[k] == v for k, v in wanted.items())]
    index = {m: j for j, m in enumerate(names)}

    def pooled(cell_ids: Sequence[int], measure: str) -> np.ndarray:
        if measure not in index or not cell_ids:
            return np.full(sums.shape[0], np.nan)
        part = sums[:, cell_ids, index[measure]].sum(axis=1)  # [r, 2]
        return _ratio(part[:, 0], part[:, 1])

    if target.measures:
        return _spread(np.stack([pooled(keep, m) for m in target.measures], axis=-1))
    if target.spread:
        values = dict(targets.grid)[target.spread]
        groups = [[i for i in keep if dict(cells[i])[target.spread] == v] for v in values]
        return _spread(np.stack([pooled(g, target.measure) for g in groups], axis=-1))
    return pooled(keep, target.measure)


def resampled_sums(data: np.ndarray, resamples: int, seed: int) -> np.ndarray:
    """``[resample, cell, measure, 2]``: each bootstrap resample of the deals (the same deals for every cell, so the
    cells stay paired), as multinomial deal counts applied to ``data[cell, deal, measure, 2]``. Resample 0 is the
    sample itself."""
    rng = np.random.default_rng(seed)
    deals = data.shape[1]
    weights = np.empty((resamples + 1, deals))
    weights[0] = 1.0
    weights[1:] = rng.multinomial(deals, np.full(deals, 1.0 / deals), size=resamples)
    sums: np.ndarray = np.einsum("rd,cdmk->rcmk", weights, data, optimize=True)
    return sums
