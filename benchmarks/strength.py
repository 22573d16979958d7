"""The search bots' strength table, measured with the simulation runner (``make strength``, ``make strength-full``).

Three experiments, each a resumable simulation under ``--out``:

* Unrest: ISMCTS against each heuristic bot, from each seat (ISMCTS as the Rebellion against the Empire bot, and
  as the Empire against the Rebellion bot); the heuristic bots against each other for reference.
* Unbroken on Normal: MCTS and the heuristic bot on the same deals, per character.
* Runebound: MCTS alone in a sample of solo fights, against the exact optimal win probability of
  ``runebound_coop.odds`` (the hero maximizing its chance to win; fights capped at ``max_rounds``), two ways: the
  win rate against the optimum, and the shortfall by regret (each game replayed from its record, and at every hero
  decision the win probability the chosen action gave up against the best one, exactly, by
  ``runebound_coop.exact.Solver.regret``; the mean of the games' sums estimates the shortfall with a far smaller
  interval than the win rate's).

``--budget short`` fits in about ten minutes of CPU (fixed iteration counts, so it reproduces exactly);
``--budget second`` is "1 s per move" as fixed iteration counts (each configuration's iterations per CPU second
on the idle 2-core machine, see ``SECOND``), so it reproduces on any machine and under any load; its Runebound
search has the exploration and widening ``tabletop tune`` found against the exact regret (``TUNED``), and the
table refuses a ``--seed`` whose games share seeds with the deals it was tuned on; ``--budget full``
is the full table (1 s of wall time per move, 400 games per seat), hours of CPU: run it on a Ray cluster with
``--backend ray --address ADDR``. ``--games N`` plays N games per line instead of the budget's number (a larger N
extends a finished run), ``--fights K`` the first K Runebound fights, ``--fight HERO:ENEMY`` (repeatable) the
named ones, and ``--runebound-agent SPEC`` replaces the budget's Runebound search (the Runebound target names no
time budget). Prints a Markdown table and writes it to
``OUT/strength-PARTS.md``.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
import tomllib
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from tabletop_core import load_game
from tabletop_core.records import Record, replay
from tabletop_core.simulation import Simulation, load_results, run, seat_outcomes
from tabletop_core.simulation.stats import mean_interval, wilson_interval

FIGHTS = (
    ("Corbin", "Undead Horde"),
    ("Elian", "Orc Brigand"),
    ("Lissa", "Dreadbringer"),
    ("Corbin", "Barrow Wyrm"),
    ("Elian", "Dragon Hybrid"),
    ("Lissa", "Undead Horde"),
)
CHARACTERS = ("sneak", "sage", "hunter", "brawler")
MAX_ROUNDS = 2

#: Iterations per CPU second of each configuration on the idle 2-core machine: the benchmark's MCTS figure for
#: main (``python -m benchmarks.run GAME --seconds 1``, random rollouts: Runebound 881, Unbroken 1,146, Unrest 666)
#: times the configuration's rate relative to it, measured side by side on the same states (docs/simulation.md).
#: Runebound's is rescaled to today's search: ``python -m benchmarks.calibrate "mcts:iterations=300,chance=widen"``
#: gave 2.65 times a4b613f's rate on main (median of three pairs, 18:00 UTC 2026-12-01), so 773 became 2,050.
SECOND = {"unrest": 489, "unbroken": 262, "runebound": 2050}

#: Agents tuned by ``tabletop tune`` (docs/design.md, "Tuning bots"): each file names the tuned spec and the deals it
#: was tuned on, which the table refuses to measure it on.
TUNED = Path(__file__).parent / "tuned"


def tuned_agent(name: str) -> tuple[str, range]:
    """The spec of the tuned agent ``TUNED/NAME.toml`` and the deals it was tuned on.

    >>> tuned_agent("runebound-mcts")[0].startswith("mcts:iterations=2050,")
    True
    """
    doc = tomllib.loads((TUNED / f"{name}.toml").read_text(encoding="utf-8"))
    start, stop = doc["tuned_on"]["deals"]
    return str(doc["agent"]), range(int(start), int(stop))


#: The Runebound search of the ``second`` budget: 2,050 iterations with the tuned exploration and widening.
RUNEBOUND_TUNED, RUNEBOUND_TUNED_ON = tuned_agent("runebound-mcts")

BUDGETS: dict[str, dict[str, Any]] = {
    "short": {
        "unrest_agent": "ismcts:iterations=60",
        "unrest_games": 40,
        "unbroken_agent": "mcts:iterations=30,rollout=heuristic",
        "unbroken_games": 6,
        "runebound_agent": "mcts:iterations=200,objective=win",
        "runebound_games": 60,
        "fights": FIGHTS[:3],
    },
    "second": {
        # stop_early: the same move as the whole count, sooner (no tree is kept between an Unrest seat's moves).
        "unrest_agent": f"ismcts:iterations={SECOND['unrest']},prior=heuristic,stop_early=true",
        "unrest_games": 20,
        "unbroken_agent": f"mcts:iterations={SECOND['unbroken']},rollout=heuristic,prior=heuristic,normalize=observed",
        "unbroken_games": 4,
        "runebound_agent": RUNEBOUND_TUNED,
        "runebound_games": 40,
        "fights": FIGHTS[:3],
    },
    "full": {
        "unrest_agent": "ismcts:seconds=1",
        "unrest_games": 400,
        "unbroken_agent": "mcts:seconds=1,rollout=heuristic",
        "unbroken_games": 400,
        "runebound_agent": "mcts:seconds=1,objective=win",
        "runebound_games": 400,
        "fights": FIGHTS,
    },
}


def _rate(game: Any, lines: Sequence[dict[str, Any]], seat: int) -> tuple[int, int, str]:
    wins = sum(ln["returns"] is not None and seat_outcomes(game.spec, ln["returns"])[seat] == "win" for ln in lines)
    if not lines:
        return 0, 0, "not played"
    low, high = wilson_interval(wins, len(lines))
    return wins, len(lines), f"{100 * wins / len(lines):.1f}% ({100 * low:.0f}-{100 * high:.0f}%)"


def _exact(folder: Path, compute: Callable[[], float]) -> float:
    """The fight's exact optimal win probability, computed once and kept beside its games."""
    cached = folder / "exact_odds.json"
    if cached.exists():
        return float(json.loads(cached.read_text(encoding="utf-8"))["win"])
    win = compute()
    folder.mkdir(parents=True, exist_ok=True)
    cached.write_text(json.dumps({"win": win}), encoding="utf-8")
    return win


def regret_sums(game: Any, solver: Any, records: Sequence[Record]) -> list[float]:
    """Each game's summed regret (``Solver.regret``: the win probability each hero decision gave up against the
    best one), replayed from its record. Their mean estimates how far the policy that played falls below the
    optimal chance to win, exactly in expectation (the performance difference lemma)."""
    sums = []
    for record in records:
        states = replay(record, game, states=True)
        total = 0.0
        for state, action_id in zip(states, record.actions, strict=False):  # the final state takes no action
            if game.current_player(state) >= 0:
                total += solver.regret(state, game.action_from_id(state, action_id))
        sums.append(total)
    return sums


def _shortfall_sums(game: Any, solver: Any, folder: Path, lines: Sequence[dict[str, Any]]) -> list[float] | None:
    """The games' regret sums, read from their records (``None`` when a game kept no record)."""
    if not all(isinstance(ln.get("record"), str) for ln in lines):
        return None
    records = [Record.from_json((folder / ln["record"]).read_text(encoding="utf-8")) for ln in lines]
    return regret_sums(game, solver, records)


def _points(mean: float, low: float, high: float) -> str:
    return f"{100 * mean:.2f} pp ({100 * low:.2f} to {100 * high:.2f})"


def _shortfall_text(sums: list[float] | None) -> str:
    if sums is None:
        return "no records kept"
    return _points(*mean_interval(sums)) if sums else "not played"


def pooled_shortfall(samples: Sequence[Sequence[float]]) -> tuple[float, float, float]:
    """The mean over fights of each fight's mean shortfall, with its 95% normal interval (the fights' games are
    independent samples, so the variance of the average is the sum of the fights' squared standard errors over
    the number of fights squared).

    >>> pooled_shortfall([[0.0, 0.02], [0.01, 0.03]])[0]
    0.015
    """
    from scipy import stats

    means = [statistics.fmean(x) for x in samples]
    variance = sum(statistics.variance(x) / len(x) for x in samples) / len(samples) ** 2
    mean, half = statistics.fmean(means), float(stats.norm.ppf(0.975)) * math.sqrt(variance)
    return mean, mean - half, mean + half


def _mean(lines: Sequence[dict[str, Any]]) -> str:
    return f"{sum(ln['returns'][0] for ln in lines) / len(lines):.1f}" if lines else "-"


def budget_of(
    name: str,
    games: int | None = None,
    first: int | None = None,
    fights: Sequence[str] | None = None,
    runebound_agent: str | None = None,
) -> dict[str, Any]:
    """The budget ``name`` with the command line's changes: ``games`` per line, the ``first`` fights or the named
    ``fights`` (``HERO:ENEMY``), another Runebound agent spec.

    >>> budget_of("second", fights=["Elian:Orc Brigand"], runebound_agent="mcts:iterations=9")["fights"]
    (('Elian', 'Orc Brigand'),)

    Raises:
        ValueError: for a fight not written ``HERO:ENEMY``, or both ``first`` and ``fights``.
    """
    budget = dict(BUDGETS[name])
    if games is not None:
        budget.update(unrest_games=games, unbroken_games=games, runebound_games=games)
    if first is not None and fights:
        raise ValueError("give --fights K or --fight HERO:ENEMY, not both")
    if first is not None:
        budget["fights"] = FIGHTS[:first]
    if fights:
        pairs = [tuple(part.strip() for part in text.split(":")) for text in fights]
        bad = [text for text, pair in zip(fights, pairs, strict=True) if len(pair) != 2 or not all(pair)]
        if bad:
            raise ValueError(f"--fight {bad[0]!r}: write HERO:ENEMY, as in 'Elian:Orc Brigand'")
        budget["fights"] = tuple(pairs)
    if runebound_agent is not None:
        budget["runebound_agent"] = runebound_agent
    return budget


def main(argv: Sequence[str] | None = None) -> int:
    """Run the experiments and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--budget", choices=sorted(BUDGETS), default="short")
    parser.add_argument("--out", default="strength-results")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--backend", choices=("local", "ray"), default="local")
    parser.add_argument("--address")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--only", choices=("unrest", "unbroken", "runebound"), action="append")
    parser.add_argument("--games", type=int, help="games per line (default: the budget's)")
    parser.add_argument("--fights", type=int, help="how many of the Runebound fights (default: the budget's)")
    parser.add_argument("--fight", action="append", help="a Runebound fight HERO:ENEMY to play (repeatable)")
    parser.add_argument("--runebound-agent", help="the Runebound search's agent spec (default: the budget's)")
    parser.add_argument(
        "--collect", action="store_true", help="tabulate the games already under --out, playing none (a cut run)"
    )
    args = parser.parse_args(argv)
    try:
        budget = budget_of(args.budget, args.games, args.fights, args.fight, args.runebound_agent)
    except ValueError as exc:
        parser.error(str(exc))
    if budget["runebound_agent"] == RUNEBOUND_TUNED and "runebound" in (args.only or ["runebound"]):
        from tabletop_core.design.bots import seeds_overlap

        if seeds_overlap(RUNEBOUND_TUNED_ON, args.seed, range(budget["runebound_games"]), chance_stream=False):
            parser.error(
                f"--seed {args.seed}: the tuned Runebound search was tuned on these deals "
                f"({RUNEBOUND_TUNED_ON.start}:{RUNEBOUND_TUNED_ON.stop} of seed 0); measure it on others"
            )
    out = Path(args.out)
    kw: dict[str, Any] = {"workers": args.workers, "backend": args.backend, "address": args.address}

    def play(sim: Simulation, folder: Path, records: bool = False) -> Sequence[dict[str, Any]]:
        if not args.collect:
            return run(sim, folder, records=records, **kw).lines
        return load_results(folder).lines if (folder / "run.json").exists() else ()

    command = " ".join(["python -m benchmarks.strength", *(argv if argv is not None else sys.argv[1:])])
    rows = [f"Budget `{args.budget}`, seed {args.seed}: `{command}`", ""]
    parts = args.only or ["unrest", "unbroken", "runebound"]
    start = time.perf_counter()

    if "unrest" in parts:
        agent, games = budget["unrest_agent"], budget["unrest_games"]
        rows += ["| Unrest | games | win rate (95% Wilson) |", "|---|---:|---|"]
        for label, seats, seat in (
            (f"`{agent}` as the Rebellion vs the Empire bot", {"1": "heuristic"}, 0),
            (f"`{agent}` as the Empire vs the Rebellion bot", {"0": "heuristic"}, 1),
            ("the Rebellion bot vs the Empire bot (reference)", {"0": "heuristic", "1": "heuristic"}, 0),
        ):
            pool = [] if len(seats) == 2 else [agent]
            sim = Simulation.build("unrest", seats, pool, games=games, seed=args.seed)
            lines = play(sim, out / f"unrest-seat{seat}-{len(pool)}")
            rows.append(f"| {label} | {len(lines)} | {_rate(load_game('unrest'), lines, seat)[2]} |")
        rows.append("")

    if "unbroken" in parts:
        agent, games = budget["unbroken_agent"], budget["unbroken_games"]
        rows += [
            f"| Unbroken, Normal | games (MCTS/bot) | `{agent}` wins | mean score | heuristic wins | mean score |",
            "|---|---:|---|---:|---|---:|",
        ]
        for character in CHARACTERS:
            opts: dict[str, Any] = {"character": character, "difficulty": "normal"}
            sim = Simulation.build("unbroken", pool=[agent, "heuristic"], games=games, seed=args.seed, options=opts)
            played = play(sim, out / f"unbroken-{character}")
            cells = []
            for s in range(2):
                lines = [ln for ln in played if ln["seating"] == s]
                cells += [_rate(load_game("unbroken"), lines, 0)[2], _mean(lines)]
            counts = "/".join(str(sum(ln["seating"] == s for ln in played)) for s in range(2))
            rows.append(f"| {character} | {counts} | {' | '.join(cells)} |")
        rows.append("")

    if "runebound" in parts:
        from runebound_coop import GAME as RUNEBOUND
        from runebound_coop import odds
        from runebound_coop.exact import Solver, fight_state

        agent, games = budget["runebound_agent"], budget["runebound_games"]
        rb_game = load_game("runebound_coop")
        rows += [
            f"| Runebound fight (max_rounds={MAX_ROUNDS}) | games | `{agent}` wins | exact optimum | "
            "difference | its shortfall by regret | heuristic wins | heuristic's shortfall |",
            "|---|---:|---|---:|---:|---|---|---|",
        ]
        shortfalls: tuple[list[list[float] | None], list[list[float] | None]] = ([], [])  # MCTS's, the bot's
        for hero, enemy in budget["fights"]:
            opts = {"heroes": [hero], "enemies": [enemy], "max_rounds": MAX_ROUNDS}
            folder = out / f"runebound-{hero}-{enemy}".replace(" ", "_")
            best = _exact(folder, lambda: odds(hero, enemy, max_rounds=MAX_ROUNDS).win)  # noqa: B023  # called at once
            sim = Simulation.build(
                "runebound_coop", pool=[agent, "heuristic"], games=games, seed=args.seed, options=opts
            )
            played = play(sim, folder, records=True)
            mcts = [ln for ln in played if ln["seating"] == 0]
            heur = [ln for ln in played if ln["seating"] == 1]
            wins, n, text = _rate(rb_game, mcts, 0)
            diff = 100 * (wins / n - best) if n else float("nan")
            heuristic = _rate(rb_game, heur, 0)[2]
            solver = Solver(RUNEBOUND, fight_state(RUNEBOUND, hero, enemy, max_rounds=MAX_ROUNDS))
            sums = [_shortfall_sums(rb_game, solver, folder, lines) for lines in (mcts, heur)]
            for kept, got in zip(shortfalls, sums, strict=True):
                kept.append(got)
            short, heur_short = (_shortfall_text(x) for x in sums)
            rows.append(
                f"| {hero} vs {enemy} | {n} | {text} | {100 * best:.1f}% | {diff:+.1f} pp | {short} | {heuristic} "
                f"| {heur_short} |"
            )
        pooled = []
        for per_fight in shortfalls:
            known = [x for x in per_fight if x is not None and len(x) > 1]
            pooled.append(_points(*pooled_shortfall(known)) if len(known) == len(per_fight) else "-")
        rows.append(f"| the {len(budget['fights'])} fights, averaged | | | | | {pooled[0]} | | {pooled[1]} |")
        rows.append("")

    rows.append(f"Wall time {time.perf_counter() - start:.0f} s with {args.workers} workers ({args.backend}).")
    text = "\n".join(rows) + "\n"
    out.mkdir(parents=True, exist_ok=True)
    (out / f"strength-{'-'.join(parts)}.md").write_text(text, encoding="utf-8")
    print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
