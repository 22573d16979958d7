"""Compare variants of a game (content packs, options, agents) on the same deals: common random numbers.

Every variant plays deal ``d`` with the same two seeds: the agents' seed ``game_seed(seed, d)`` and a separate
chance seed ``game_seed(seed + 1, d)`` (see ``chance_seed`` of :func:`tabletop_core.records.play`), so the dice,
draws and shuffles line up for as long as the variants reach the same chance nodes. Each game is reduced to its
measures (:func:`measures_of`), and each measure of each variant is compared with the baseline (the first
variant) by :func:`~tabletop_core.design.paired.paired_difference`, then adjusted across measures.

Measures every game has: ``win`` (per seat in games of several seats, ``win:SEAT``), ``return`` (likewise) and
``length`` (actions, chance included). A game adds its own through an optional method
``tally(steps, final) -> {name: (numerator, denominator)}`` (Unbroken: score, Level reached, each Level's and each
monster's lethality, each card's use).

>>> from tabletop_core.design.compare import Variant, compare
>>> result = compare("tabletop_core.testing.kuhn:GAME", [Variant("mcts", agents=("mcts:iterations=20", "random")),
...                           Variant("random", agents=("random", "random"))], games=30, seed=3)
>>> [row.measure for row in result.rows]
['length', 'return:player 0', 'return:player 1', 'win:player 0', 'win:player 1']
>>> row = result.rows[3]  # the second variant's win rate as player 0 against the first's
>>> row.diff < 0, row.test
(True, 'McNemar exact')
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol, TypeVar, runtime_checkable

import attrs
import numpy as np

from tabletop_core.agents.specs import parse_agent_spec, seat_names
from tabletop_core.design.paired import Difference, adjust, paired_difference
from tabletop_core.errors import OptionError
from tabletop_core.game import Game
from tabletop_core.outcomes import seat_outcomes
from tabletop_core.records import Step, play
from tabletop_core.registry import load_game
from tabletop_core.simulation.plan import game_seed

__all__ = ["Comparison", "Tallies", "Variant", "compare", "measures_of", "play_deals"]

#: A game's measures: name -> (numerator, denominator) of one game.
Tallies = dict[str, tuple[float, float]]

#: The most deals one comparison plays (each is one game per variant).
MAX_GAMES = 1_000_000

S = TypeVar("S")


@runtime_checkable
class _Tallying(Protocol[S]):
    """A game that adds its own measures: it tallies its own steps and final state."""

    def tally(self, steps: Sequence[Step[S, Any]], final: S) -> Mapping[str, tuple[float, float]]: ...


@attrs.frozen
class Variant:
    """One way to play the game.

    Attributes:
        label: how the report names it.
        options: game options as ``(name, value)`` pairs, over the comparison's base options; a value that is a
            :class:`pathlib.Path` is a content pack file or folder the game loads (``pack``).
        agents: an agent spec per seat (default: the game's own bots, ``heuristic``).
    """

    label: str
    options: tuple[tuple[str, Any], ...] = ()
    agents: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        opts = [[k, {"path": str(v)} if isinstance(v, Path) else v] for k, v in self.options]
        return {"label": self.label, "options": opts, "agents": list(self.agents)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Variant:
        opts = tuple(
            (str(k), Path(v["path"]) if isinstance(v, dict) and set(v) == {"path"} else v) for k, v in data["options"]
        )
        return cls(str(data["label"]), opts, tuple(str(a) for a in data["agents"]))


@attrs.frozen
class Comparison:
    """The result of :func:`compare`: per variant after the first, one :class:`Difference` per measure."""

    game: str
    variants: tuple[Variant, ...]
    games: int
    seed: int
    confidence: float
    rows_by_variant: tuple[tuple[Difference, ...], ...]
    incomplete: tuple[int, ...]

    @property
    def rows(self) -> tuple[Difference, ...]:
        """The rows of the second variant against the first."""
        return self.rows_by_variant[0]

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "games": self.games,
            "seed": self.seed,
            "confidence": self.confidence,
            "seeds": "agents game_seed(seed, deal); chance game_seed(seed + 1, deal)",
            "baseline": self.variants[0].to_json(),
            "variants": [
                {"variant": v.to_json(), "unfinished": n, "rows": [r.to_dict() for r in rows]}
                for v, n, rows in zip(self.variants[1:], self.incomplete[1:], self.rows_by_variant, strict=True)
            ],
        }


def measures_of(game: Game[S, Any, Any], state0: S, steps: Sequence[Step[S, Any]], final: S) -> Tallies:
    """The measures of one finished game (see the module)."""
    names = seat_names(game, state0)
    returns = game.returns(final)
    outcomes = seat_outcomes(game.spec, returns)
    out: Tallies = {}
    solo = len(names) == 1
    for seat, name in enumerate(names):
        suffix = "" if solo else f":{name}"
        out[f"win{suffix}"] = (1.0 if outcomes[seat] == "win" else 0.0, 1.0)
        out[f"return{suffix}"] = (float(returns[seat]), 1.0)
    out["length"] = (float(len(steps)), 1.0)
    if isinstance(game, _Tallying):
        for key, (n, d) in game.tally(steps, final).items():
            out[key] = (float(n), float(d))
    return out


def _options(base: Mapping[str, Any], variant: Variant) -> dict[str, Any]:
    return {**base, **dict(variant.options)}


def play_deals(args: tuple[str, str, Sequence[int]]) -> list[tuple[int, list[Tallies | None]]]:
    """Play some deals under every variant (what a worker runs). ``None`` marks a game cut by its length limit."""
    game_name, plan_text, deals = args
    plan = json.loads(plan_text)
    game = load_game(game_name)
    variants = [Variant.from_json(v) for v in plan["variants"]]
    base = dict(plan["options"])
    seed = int(plan["seed"])
    built = []
    for v in variants:
        opts = _options(base, v)
        state0 = game.initial_state(game.make_options(**opts))
        texts = v.agents or ("heuristic",) * len(seat_names(game, state0))
        built.append((opts, state0, [parse_agent_spec(s) for s in texts]))
    out = []
    for deal in deals:
        row: list[Tallies | None] = []
        for opts, state0, specs in built:
            agents = [spec.build(game, state0, seat) for seat, spec in enumerate(specs)]
            steps: list[Step[Any, Any]] = []
            final, rec = play(
                game,
                agents,
                seed=game_seed(seed, deal),
                chance_seed=game_seed(seed + 1, deal),
                options=opts,
                on_step=steps.append,
            )
            row.append(None if rec.returns is None else measures_of(game, state0, steps, final))
        out.append((deal, row))
    return out


def _batches(games: int, size: int) -> Iterable[tuple[int, ...]]:
    for start in range(0, games, size):
        yield tuple(range(start, min(games, start + size)))


def compare(
    game: str,
    variants: Sequence[Variant],
    *,
    games: int,
    seed: int = 0,
    options: Mapping[str, Any] | None = None,
    confidence: float = 0.95,
    workers: int = 1,
    backend: str = "local",
    address: str | None = None,
    resamples: int = 2000,
    measures: Sequence[str] | None = None,
) -> Comparison:
    """Play ``games`` deals under every variant and compare each later variant with the first (see the module).

    Args:
        game: an installed game's name.
        variants: two or more; the first is the baseline.
        games: deals played by every variant.
        seed: the comparison's seed (deal ``d``'s seeds derive from it).
        options: options every variant starts from.
        confidence: of every interval; a difference is called when its Holm-adjusted p is below ``1 - confidence``.
        workers: worker processes, or Ray CPUs (see :func:`tabletop_core.simulation.runner.map_batches`).
        backend: where the games run: ``local`` (a process pool) or ``ray``.
        address: the Ray cluster to join (``None``: a local Ray instance).
        resamples: bootstrap and permutation resamples per measure.
        measures: keep only these measures (names, or prefixes ending in ``:``); default every measure.

    Raises:
        OptionError: fewer than two variants, labels used twice, bad numbers, or options a variant cannot play.
    """
    from tabletop_core.simulation.runner import map_batches, usable_workers

    if len(variants) < 2:
        raise OptionError("a comparison needs at least two variants (the first is the baseline)")
    labels = [v.label for v in variants]
    if len(set(labels)) != len(labels):
        raise OptionError(f"variant labels must differ: {labels}")
    if type(games) is not int or not 2 <= games <= MAX_GAMES:
        raise OptionError(f"games must be a whole number from 2 to {MAX_GAMES:,}, not {games!r}")
    if type(seed) is not int or seed < 0:
        raise OptionError(f"seed must be a whole number >= 0, not {seed!r}")
    obj = load_game(game)
    base = dict(options or {})
    for v in variants:  # every variant's options and agents are checked before any game is played
        opts = _options(base, v)
        state0 = obj.initial_state(obj.make_options(**opts))
        names = seat_names(obj, state0)
        if v.agents and len(v.agents) != len(names):
            raise OptionError(f"variant {v.label!r}: {len(names)} seats ({', '.join(names)}), {len(v.agents)} agents")
        for text in v.agents:
            parse_agent_spec(text)
    plan = json.dumps({"variants": [v.to_json() for v in variants], "options": sorted(base.items()), "seed": seed})
    size = max(1, min(50, games // (4 * max(1, workers)) or 1))
    workers = usable_workers(workers, -(-games // size), backend=backend, address=address)
    per_deal: dict[int, list[Tallies | None]] = {}
    batches = ((game, plan, deals) for deals in _batches(games, size))
    for result in map_batches(play_deals, batches, workers=workers, backend=backend, address=address):
        for deal, row in result:
            per_deal[deal] = row
    return summarize(
        game, variants, per_deal, games=games, seed=seed, confidence=confidence, resamples=resamples, measures=measures
    )


def _wanted(name: str, measures: Sequence[str] | None) -> bool:
    if not measures:
        return True
    return any(name == m or (m.endswith(":") and name.startswith(m)) for m in measures)


def summarize(
    game: str,
    variants: Sequence[Variant],
    per_deal: Mapping[int, Sequence[Tallies | None]],
    *,
    games: int,
    seed: int,
    confidence: float = 0.95,
    resamples: int = 2000,
    measures: Sequence[str] | None = None,
) -> Comparison:
    """The comparison of played deals: only deals every variant finished are paired."""
    deals = sorted(d for d, row in per_deal.items() if all(t is not None for t in row))
    incomplete = tuple(sum(1 for row in per_deal.values() if row[i] is None) for i in range(len(variants)))
    names = sorted({k for d in deals for t in per_deal[d] if t is not None for k in t if _wanted(k, measures)})
    tables = []
    for i in range(1, len(variants)):
        rows = []
        for m in names:
            arr = np.zeros((4, len(deals)))
            for j, d in enumerate(deals):
                ta, tb = per_deal[d][0], per_deal[d][i]
                assert ta is not None and tb is not None
                arr[0, j], arr[1, j] = ta.get(m, (0.0, 0.0))
                arr[2, j], arr[3, j] = tb.get(m, (0.0, 0.0))
            rows.append(paired_difference(m, *arr, confidence=confidence, resamples=resamples, seed=seed + i))
        tables.append(adjust(rows))
    return Comparison(game, tuple(variants), games, seed, confidence, tuple(tables), incomplete)


def pack_variant(path: str | os.PathLike[str], label: str | None = None) -> Variant:
    """A variant that plays a content pack file or folder (the game's ``pack`` option)."""
    p = Path(path)
    return Variant(label or p.stem, (("pack", p),))
