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
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from itertools import combinations
from typing import Any

import attrs
import numpy as np

from tabletop_core.agents.specs import parse_agent_spec, resolve_seat, seat_names
from tabletop_core.errors import OptionError
from tabletop_core.registry import load_game

__all__ = ["SIMULATION_FORMAT", "Simulation", "game_seed"]

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
        if self.games < 0:
            raise OptionError(f"games must be >= 0, not {self.games}")
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

        Raises:
            OptionError: for an unknown seat, a seat given twice, too few agents, or agents no seating can seat.
        """
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
        specs = {t: parse_agent_spec(t) for t in (*fixed.values(), *pool)}
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

    def tasks(self) -> list[tuple[int, int]]:
        """Every game as ``(seating, deal)``, seating by seating."""
        return [(s, d) for s in range(len(self.seatings)) for d in range(self.games)]

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
        """Read :meth:`to_json`'s document.

        Raises:
            OptionError: when the document is not a simulation plan of this version.
        """
        try:
            doc = json.loads(text)
            if doc.get("format") != SIMULATION_FORMAT or doc.get("version") != _VERSION:
                raise OptionError(f"not a simulation plan of version {_VERSION}: {text[:80]!r}")
            body = doc["simulation"]
            return cls(
                str(body["game"]),
                tuple(tuple(str(a) for a in s) for s in body["seatings"]),
                int(body["games"]),
                int(body["seed"]),
                tuple(sorted(dict(body["options"]).items())),
            )
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            raise OptionError(f"bad simulation plan: {exc}") from exc

    def same_work(self, other: Simulation) -> bool:
        """Whether ``other`` plays the same games (it may play more or fewer per seating): resume is safe."""
        return attrs.evolve(self, games=0) == attrs.evolve(other, games=0)
