"""What a simulation plays: seatings (an agent spec per seat), games per seating, per-game seeds.

A :class:`Simulation` is a plain value (text and numbers only), so it is written beside the results, compared on
resume and shipped to workers and Ray tasks as JSON. Game ``deal`` of every seating uses the seed
:func:`game_seed` ``(seed, deal)``, so different seatings meet the same opening chance, and every game's seed
depends only on the simulation's seed and the deal, never on the number of workers or the backend.

>>> sim = Simulation.build("tabletop_core.testing.kuhn:GAME", pool=["random", "first"], games=3, seed=1)
>>> sim.seatings
(('random', 'first'), ('first', 'random'))
>>> len(sim.tasks()), sim.tasks()[:2]
(6, [(0, 0), (0, 1)])

The tasks are computed as they are asked for, never held in a list, so a plan of 10**12 games costs no memory.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from itertools import combinations
from typing import Any, overload

import attrs
import numpy as np

from tabletop_core.agents.specs import parse_agent_spec, resolve_seat, seat_names
from tabletop_core.errors import OptionError
from tabletop_core.registry import load_game

__all__ = ["SIMULATION_FORMAT", "Simulation", "Tasks", "game_seed"]

SIMULATION_FORMAT = "tabletop-rules/simulation"
_VERSION = 1


def game_seed(seed: int, deal: int) -> int:
    """The seed of game ``deal`` of a simulation seeded ``seed`` (NumPy ``SeedSequence`` spawn keys), below 2**53.

    >>> game_seed(7, 0) == game_seed(7, 0) != game_seed(7, 1)
    True
    """
    # 53 bits, so the seed is exact in every JSON reader (records refuse larger integers).
    return int(np.random.SeedSequence(seed, spawn_key=(deal,)).generate_state(1, np.uint64)[0]) >> 11


def _rotations(
    free: Sequence[int], pool: Sequence[str], seatable: Mapping[str, frozenset[int] | None]
) -> list[dict[int, str]]:
    """The cyclic shifts of ``pool`` over the ``free`` seats that seat every agent where it can play."""

    def fits(agent: str, seat: int) -> bool:
        allowed = seatable[agent]
        return allowed is None or seat in allowed

    out: list[dict[int, str]] = []
    for shift in range(len(pool)):
        order = [pool[(k + shift) % len(pool)] for k in range(len(pool))]
        seating = dict(zip(free, order, strict=True))
        if all(fits(a, s) for s, a in seating.items()) and seating not in out:
            out.append(seating)
    return out


class Tasks(Sequence[tuple[int, int]]):
    """Every game of a plan as ``(seating, deal)``, seating by seating, computed on demand (never materialised).

    >>> tasks = Tasks(2, 10**12)
    >>> len(tasks), tasks[0], tasks[-1], list(tasks.after(set(), start=(1, 10**12 - 2)))
    (2000000000000, (0, 0), (1, 999999999999), [(1, 999999999998), (1, 999999999999)])
    """

    def __init__(self, seatings: int, games: int) -> None:
        self.seatings, self.games = seatings, games

    def __len__(self) -> int:
        return self.seatings * self.games

    @overload
    def __getitem__(self, index: int) -> tuple[int, int]: ...
    @overload
    def __getitem__(self, index: slice) -> list[tuple[int, int]]: ...
    def __getitem__(self, index: int | slice) -> tuple[int, int] | list[tuple[int, int]]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        n = len(self)
        if index < 0:
            index += n
        if not 0 <= index < n:
            raise IndexError(index)
        return divmod(index, self.games)

    def __iter__(self) -> Iterator[tuple[int, int]]:
        return self.after(frozenset())

    def __contains__(self, item: object) -> bool:
        if not (isinstance(item, tuple) and len(item) == 2 and all(type(x) is int for x in item)):
            return False
        seating, deal = item
        return bool(0 <= seating < self.seatings and 0 <= deal < self.games)

    def after(
        self, done: set[tuple[int, int]] | frozenset[tuple[int, int]], start: tuple[int, int] = (0, 0)
    ) -> Iterator[tuple[int, int]]:
        """The tasks from ``start`` on that ``done`` does not hold, one at a time."""
        for seating in range(start[0], self.seatings):
            for deal in range(start[1] if seating == start[0] else 0, self.games):
                if (seating, deal) not in done:
                    yield seating, deal


@attrs.frozen
class Simulation:
    """The plan of a simulation.

    Attributes:
        game: a name :func:`~tabletop_core.registry.load_game` reads (an installed game, or ``module:ATTR``).
        seatings: each seating names an agent spec per seat.
        games: games played per seating.
        seed: the simulation's seed (see :func:`game_seed`).
        options: the game options, as ``(name, JSON value)`` pairs.
    """

    game: str
    seatings: tuple[tuple[str, ...], ...]
    games: int
    seed: int = 0
    options: tuple[tuple[str, Any], ...] = ()

    def __attrs_post_init__(self) -> None:
        if type(self.games) is not int or self.games < 0:
            raise OptionError(f"games must be a whole number >= 0, not {self.games!r}")
        if type(self.seed) is not int or self.seed < 0:
            raise OptionError(f"seed must be a whole number >= 0, not {self.seed!r}")
        if not self.seatings:
            raise OptionError("a simulation needs at least one seating")

    @classmethod
    def build(
        cls,
        game: str,
        seats: Mapping[str, str] | None = None,
        pool: Sequence[str] = (),
        *,
        games: int,
        seed: int = 0,
        options: Mapping[str, Any] | None = None,
        allow_import: bool = False,
    ) -> Simulation:
        """Seatings from fixed seats and a pool of agents that rotate through the other seats.

        Args:
            game: the game's name.
            seats: agents fixed to a seat, keyed by seat index, ``player N`` or seat name (``empire``).
            pool: agents for the remaining seats. As many as the free seats: one match, the agents rotated
                through them (each cyclic shift that seats every agent where it can play). More: a league, every
                combination of that many agents as a match, each rotated. Exactly one: it takes every free seat
                (a co-op party, self-play).
            games: games per seating.
            seed: the simulation's seed.
            options: game options.
            allow_import: let agent specs import a class by module path (see
                :func:`~tabletop_core.agents.specs.parse_agent_spec`); the runner needs the same flag to play them.

        Raises:
            OptionError: for an unknown seat, a seat given twice, too few agents, or agents no seating can seat.
        """
        cls(game, ((),), games, seed)  # the numbers are checked before any game is loaded
        obj = load_game(game)
        opts = dict(options or {})
        state = obj.initial_state(obj.make_options(**opts))
        names = seat_names(obj, state)
        fixed: dict[int, str] = {}
        for key, spec in (seats or {}).items():
            seat = resolve_seat(str(key), names)
            if seat in fixed:
                raise OptionError(f"seat {seat} ({names[seat]}) is given two agents")
            fixed[seat] = spec
        free = [s for s in range(len(names)) if s not in fixed]
        specs = {t: parse_agent_spec(t, allow_import=allow_import) for t in (*fixed.values(), *pool)}
        seatable = {t: s.seats() for t, s in specs.items()}
        for seat, text in fixed.items():
            allowed = seatable[text]
            if allowed is not None and seat not in allowed:
                raise OptionError(f"agent {text!r} cannot play seat {seat} ({names[seat]}); it plays {sorted(allowed)}")
        if not free:
            if pool:
                raise OptionError(f"every seat is fixed; the pool {list(pool)} has no seat left")
            groups: list[tuple[str, ...]] = [()]
        elif len(pool) == 1:
            groups = [tuple(pool) * len(free)]
        elif len(pool) >= len(free):
            groups = list(combinations(pool, len(free)))
        else:
            raise OptionError(
                f"{len(free)} free seats ({', '.join(names[s] for s in free)}) need agents, got {len(pool)}"
            )
        seatings: list[tuple[str, ...]] = []
        for group in groups:
            for rot in _rotations(free, group, seatable) if group else [{}]:
                full = {**fixed, **rot}
                seating = tuple(full[s] for s in range(len(names)))
                if seating not in seatings:
                    seatings.append(seating)
        if not seatings:
            raise OptionError(f"no seating seats every agent where it can play: {list(pool)} over seats {free}")
        return cls(game, tuple(seatings), games, seed, tuple(sorted(opts.items())))

    def tasks(self) -> Tasks:
        """Every game as ``(seating, deal)``, seating by seating (a sequence computed on demand)."""
        return Tasks(len(self.seatings), self.games)

    def seed_of(self, deal: int) -> int:
        """The seed of every seating's game ``deal``."""
        return game_seed(self.seed, deal)

    def to_json(self) -> str:
        """The plan as a JSON document."""
        body = {
            "game": self.game,
            "seatings": [list(s) for s in self.seatings],
            "games": self.games,
            "seed": self.seed,
            "options": dict(self.options),
        }
        return json.dumps({"format": SIMULATION_FORMAT, "version": _VERSION, "simulation": body}, sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> Simulation:
        """Read :meth:`to_json`'s document (bounded: see :func:`tabletop_core.serialize.parse_json`).

        The game and agents it names are not loaded here; a reader that plays or summarizes them resolves them
        against the installed registries (:func:`~tabletop_core.registry.installed_game`).

        Raises:
            OptionError: when the document is not a simulation plan of this version.
        """
        from tabletop_core.errors import StateFormatError
        from tabletop_core.serialize import parse_json

        try:
            doc = parse_json(text)
        except StateFormatError as exc:
            raise OptionError(f"bad simulation plan: {exc}") from None
        try:
            if not isinstance(doc, dict) or doc.get("format") != SIMULATION_FORMAT or doc.get("version") != _VERSION:
                raise OptionError(f"not a simulation plan of version {_VERSION}: {text[:80]!r}")
            body = doc["simulation"]
            seatings = body["seatings"]
            if not isinstance(body["game"], str) or not isinstance(seatings, list):
                raise TypeError("the game must be a name and the seatings a list")
            if not all(isinstance(s, list) and all(isinstance(a, str) for a in s) for s in seatings):
                raise TypeError("each seating must be a list of agent specs")
            if len({len(s) for s in seatings}) > 1:
                raise TypeError("the seatings seat different numbers of players")
            return cls(
                body["game"],
                tuple(tuple(s) for s in seatings),
                body["games"],
                body["seed"],
                tuple(sorted(dict(body["options"]).items())),
            )
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            raise OptionError(f"bad simulation plan: {exc}") from exc

    def same_work(self, other: Simulation) -> bool:
        """Whether ``other`` plays the same games (it may play more or fewer per seating): resume is safe."""
        return attrs.evolve(self, games=0) == attrs.evolve(other, games=0)
