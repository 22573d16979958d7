"""Every example script runs to completion, and the benchmark runs (briefly) so neither can rot."""

from __future__ import annotations

import io
import json
import math
import statistics
import subprocess
import sys
from collections.abc import Sequence
from contextlib import redirect_stdout
from pathlib import Path
from typing import Any

import pytest

from benchmarks.run import RATE_COLUMNS, Subject, Work, _measure
from benchmarks.run import main as bench_main
from benchmarks.soak import main as soak_main
from benchmarks.soak import soak
from tabletop_core.fastcopy import COMPILED

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "examples").glob("*.py"))


def test_there_are_examples() -> None:
    assert any(p.name == "search_kuhn.py" for p in EXAMPLES)


@pytest.mark.parametrize("script", EXAMPLES, ids=lambda p: p.name)
def test_example_runs(script: Path) -> None:
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip(), f"{script.name} printed nothing"


def test_benchmark_runs_and_reports_rates() -> None:
    out = io.StringIO()
    with redirect_stdout(out):
        assert (
            bench_main(["--seconds", "0.05", "--retain", "200", "--no-openspiel", "tabletop_core.testing.kuhn:GAME"])
            == 0
        )
    header, row = out.getvalue().splitlines()
    assert header.split()[:2] == ["game", "step/s"] and row.startswith("kuhn")
    assert all(float(cell.replace(",", "")) > 0 for cell in row.split()[1:])


def test_benchmark_measures_openspiel_kuhn_in_the_same_run_and_writes_ratios(tmp_path: Path) -> None:
    path = tmp_path / "bench.json"
    with redirect_stdout(io.StringIO()):
        assert bench_main(["--seconds", "0.05", "--retain", "200", "--json", str(path), "unrest"]) == 0
    result = json.loads(path.read_text(encoding="utf-8"))
    assert set(result["figures"]) == {"python_kuhn_poker", "openspiel kuhn_poker", "unrest"}
    assert result["ratios"]["python_kuhn_poker"]["step/s"] == 1.0
    unrest = result["figures"]["unrest"]
    assert unrest["det/s"] > 0 and unrest["bytes/state"] > 0 and unrest["mcts it/s"] > 0
    # Each sweep's ratio is taken inside the sweep (the games took turns there); the table's is their median.
    ratio = result["ratios"]["unrest"]["step/s"]
    each = [sweep["unrest"]["step/s"] / sweep["python_kuhn_poker"]["step/s"] for sweep in result["sweeps"]]
    assert len(each) == 3 and ratio == statistics.median(each)


def _drifting_subjects(clock: list[float], names: tuple[str, ...]) -> list[Subject]:
    """Subjects doing the same work on a machine that runs twice as fast for its first 1.5 seconds as after."""

    def work(part: int, parts: int, seconds: float) -> tuple[float, float]:
        units = 0.0
        for _ in range(100):  # the work of ``seconds``, a hundredth at a time, at the machine's speed then
            units += seconds / 100 * (2.0 if clock[0] < 1.5 else 1.0)
            clock[0] += seconds / 100
        return units, seconds

    def memory(retained: int) -> float:
        return 1.0

    return [Subject(name, dict.fromkeys(RATE_COLUMNS, work), memory) for name in names]


def test_benchmark_games_take_turns_so_a_drifting_machine_moves_their_figures_alike() -> None:
    clock = [0.0]
    rows = _measure(_drifting_subjects(clock, ("a", "b")), 2.0, 0.1, 10)
    # Apart by at most the piece in which the machine slowed down (here 1 of 20).
    assert rows["a"]["step/s"] == pytest.approx(rows["b"]["step/s"], rel=0.05)
    # Two seconds each, one after the other, would have put most of the slowdown on the second game.
    clock[0] = 0.0
    rows = _measure(_drifting_subjects(clock, ("a", "b")), 2.0, 2.0, 10)
    assert rows["a"]["step/s"] == pytest.approx(1.75) and rows["b"]["step/s"] == pytest.approx(1.0)


def test_benchmark_pieces_rotate_which_game_goes_first() -> None:
    calls: list[tuple[str, str, int]] = []

    def subject(name: str) -> Subject:
        def work_of(column: str) -> Work:
            def work(part: int, parts: int, seconds: float) -> tuple[float, float]:
                calls.append((column, name, part))
                assert parts == 3 and seconds == pytest.approx(0.1)
                return 10.0, seconds

            return work

        work: dict[str, Work | None] = {c: work_of(c) for c in RATE_COLUMNS}
        return Subject(name, work | {"det/s": None}, lambda n: 1.0)

    rows = _measure([subject("a"), subject("b")], 0.3, 0.1, 10)
    # Every game measures a piece of one figure before any measures its next; each round, the next game starts.
    steps = [(name, part) for column, name, part in calls if column == "step/s"]
    assert steps == [("a", 0), ("b", 0), ("b", 1), ("a", 1), ("a", 2), ("b", 2)]
    assert calls[:6] == [("step/s", *call) for call in steps]
    assert rows["a"]["legal/s"] == pytest.approx(100.0) and math.isnan(rows["a"]["det/s"])


def test_benchmark_figures_are_the_median_of_its_sweeps(tmp_path: Path) -> None:
    path = tmp_path / "bench.json"
    args = ["--seconds", "0.02", "--retain", "100", "--repeat", "3", "--no-openspiel", "--json", str(path)]
    with redirect_stdout(io.StringIO()):
        assert bench_main([*args, "tabletop_core.testing.kuhn:GAME"]) == 0
    result = json.loads(path.read_text(encoding="utf-8"))
    assert result["repeat"] == 3 and len(result["sweeps"]) == 3
    for column, figure in result["figures"]["kuhn"].items():
        assert figure == statistics.median(sweep["kuhn"][column] for sweep in result["sweeps"])


def test_benchmark_counts_the_simulations_openspiel_mcts_runs() -> None:
    import open_spiel.python.games  # noqa: F401  # registers OpenSpiel's pure-Python games
    import pyspiel

    from benchmarks.run import MCTS_ITERATIONS, _os_playouts, os_mcts_rate

    game = pyspiel.load_game("python_kuhn_poker")
    _, samples = _os_playouts(game, 0.05, child=True)
    choices = [s for s in samples if len(s.legal_actions()) > 1][:5]
    # A solving bot proves Kuhn poker's root after a few simulations and stops: the yardstick must run all 100.
    _, runs = os_mcts_rate(game, choices, 10.0)
    assert runs == [MCTS_ITERATIONS] * len(choices)


def test_benchmark_memory_figure_does_not_depend_on_earlier_garbage() -> None:
    from benchmarks.run import _bytes_per_state, _retained
    from tabletop_core.testing.kuhn import GAME

    def states(n: int) -> list[object]:
        return _retained(GAME, n)

    _bytes_per_state(states, 2000)  # the first run of a process also fills the game's caches: not its states
    first = _bytes_per_state(states, 2000)
    junk = [(i, i + 1) for i in range(50_000)]  # garbage that fills the interpreter's free lists
    del junk
    assert _bytes_per_state(states, 2000) == pytest.approx(first, rel=0.02)


def test_strength_regret_sums_are_zero_for_optimal_play_and_positive_for_a_weak_policy() -> None:
    from benchmarks.strength import regret_sums
    from runebound_coop import GAME as RUNEBOUND
    from runebound_coop.exact import Solver, fight_state
    from tabletop_core.records import play

    solver = Solver(RUNEBOUND, fight_state(RUNEBOUND, "Elian", "Cliff Harpy", max_rounds=1))

    class Optimal:  # a search agent: sees the true state (a solo fight hides nothing)
        def act_in(self, game: object, state: Any, player: int, rng: object) -> object:
            return solver.best_action(state)

    class Last:
        def act(self, view: object, legal: Sequence[object], rng: object) -> object:
            return legal[-1]

    options = {"heroes": ["Elian"], "enemies": ["Cliff Harpy"], "max_rounds": 1}
    best = [play(RUNEBOUND, [Optimal()], seed=seed, options=options)[1] for seed in range(12)]
    weak = [play(RUNEBOUND, [Last()], seed=seed, options=options)[1] for seed in range(12)]
    assert regret_sums(RUNEBOUND, solver, best) == [0.0] * 12
    sums = regret_sums(RUNEBOUND, solver, weak)
    assert all(x >= 0.0 for x in sums) and sum(sums) > 0.0


def test_calibrate_reports_a_configurations_rate_and_needs_a_fixed_count(capsys: pytest.CaptureFixture[str]) -> None:
    from benchmarks.calibrate import fight_states
    from benchmarks.calibrate import main as calibrate_main

    assert calibrate_main(["mcts:iterations=4,chance=widen"]) == 0
    out = capsys.readouterr().out
    assert "iterations per CPU second" in out and f"over {len(fight_states())} states" in out
    with pytest.raises(SystemExit):
        calibrate_main(["mcts:seconds=1"])


def test_strength_pools_the_fights_shortfalls_by_their_standard_errors() -> None:
    from benchmarks.strength import pooled_shortfall

    a, b = [0.0, 0.02, 0.04], [0.01, 0.03]
    mean, low, high = pooled_shortfall([a, b])
    # The average of the two fights' means; the half-width is 1.96 standard errors of that average.
    se = (statistics.variance(a) / 3 + statistics.variance(b) / 2) ** 0.5 / 2
    assert mean == pytest.approx(0.02) and high - mean == pytest.approx(1.959964 * se, rel=1e-6)
    assert mean - low == pytest.approx(high - mean)


def test_soak_counts_steps_and_reports_no_failures(capsys: pytest.CaptureFixture[str]) -> None:
    assert soak_main(["--steps", "40", "--batch", "5", "--workers", "1", "tabletop_core.testing.kuhn:GAME"]) == 0
    out = capsys.readouterr().out
    assert "0 failures" in out and "soak: " in out and "on 1 processes" in out


def test_soak_shares_each_game_among_worker_processes(capsys: pytest.CaptureFixture[str]) -> None:
    from benchmarks.soak import shares

    assert shares(7, 2) == [4, 3] and shares(1, 2) == [1, 0] and sum(shares(1_000_000, 3)) == 1_000_000
    assert soak_main(["--steps", "40", "--batch", "5", "--workers", "2", "tabletop_core.testing.kuhn:GAME"]) == 0
    out = capsys.readouterr().out
    # The parent sums both workers' shares: at least the 40 steps asked for, over two seed ranges.
    line = next(x for x in out.splitlines() if x.startswith("tabletop_core.testing.kuhn:GAME:"))
    assert int(line.split(": ")[1].split(" steps")[0].replace(",", "")) >= 40
    assert "0 failures" in line and "on 2 processes" in out


def test_soak_counts_a_conformance_failure_and_goes_on(monkeypatch: pytest.MonkeyPatch) -> None:
    from tabletop_core.testing.kuhn import GAME

    # A broken promise: validate_state refuses every state after the deal.
    def broken(state: object) -> None:
        if GAME.current_player(state) >= 0:  # type: ignore[arg-type]  # a Kuhn state
            raise ValueError("broken on purpose")

    monkeypatch.setattr(GAME, "validate_state", broken)
    done, playouts, failures = soak("tabletop_core.testing.kuhn:GAME", 10, deep_every=100, leak_playouts=0, batch=4)
    assert failures >= 1 and done >= 10 and playouts >= failures


def test_soak_frequency_test_is_strict_on_false_alarms_and_still_catches_a_biased_determinizer(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # private: a biased determinizer is built from the test game's own deal tables
    import attrs
    import numpy as np

    from benchmarks.soak import SOAK_ALPHA, SOAK_SAMPLES
    from tabletop_core.testing import kuhn

    assert SOAK_ALPHA <= 1e-6 and SOAK_SAMPLES >= 1000  # tens of thousands of tests per soak
    fair = kuhn.GAME.determinize

    def biased(state: kuhn.KuhnState, player: int, rng: np.random.Generator) -> kuhn.KuhnState:
        # A 60/40 split of the opponent's two possible cards: the soak's test must still see it.
        if len(state.hands) < 2:
            return state
        world = fair(state, player, rng)
        pool = kuhn._OTHERS[state.hands[player]]
        if rng.random() < 0.2:
            card = pool[0]
            hands = (state.hands[player], card) if player == 0 else (card, state.hands[player])
            return attrs.evolve(world, hands=hands, deck=kuhn._UNDEALT[3 - state.hands[player] - card])
        return world

    monkeypatch.setattr(kuhn.GAME, "determinize", biased)
    _, _, failures = soak("tabletop_core.testing.kuhn:GAME", 10, deep_every=100, leak_playouts=1, batch=4)
    assert failures >= 1


def test_strength_budget_takes_named_fights_and_another_runebound_agent() -> None:
    from benchmarks.strength import BUDGETS, FIGHTS, budget_of

    plain = budget_of("second")
    assert plain == BUDGETS["second"] and plain is not BUDGETS["second"]
    named = budget_of("second", games=7, fights=["Elian:Orc Brigand", " Elian : Dragon Hybrid"], runebound_agent="x")
    assert named["fights"] == (("Elian", "Orc Brigand"), ("Elian", "Dragon Hybrid"))
    assert named["runebound_agent"] == "x" and named["runebound_games"] == named["unrest_games"] == 7
    assert budget_of("short", first=2)["fights"] == FIGHTS[:2]
    for bad in (["Elian"], ["Elian:"], ["a:b:c"]):
        with pytest.raises(ValueError, match="HERO:ENEMY"):
            budget_of("second", fights=bad)
    with pytest.raises(ValueError, match="not both"):
        budget_of("second", first=2, fights=["Elian:Orc Brigand"])


@pytest.mark.parametrize("name", ["runebound_coop", "unrest", "unbroken"])
def test_fixed_work_plays_its_steps_then_its_searches(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    # The instruction counts of docs/performance.md are of this fixed work: the count of steps is exact, and the
    # searches run from decisions the playout kept.
    from benchmarks.fixed_work import main as fixed_main
    from benchmarks.fixed_work import run as fixed_run

    assert fixed_run(name, 300, 2) == (300, 2)
    assert fixed_run(name, 50) == (50, 0)
    assert fixed_main([name, "40", "--searches", "1"]) == 0
    assert capsys.readouterr().out == f"{name}: 40 steps, 1 searches\n"


@pytest.mark.skipif(not COMPILED, reason="the package was built without its C accelerator")
def test_the_accelerator_benchmark_times_every_compiled_part_against_attrs_own(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from benchmarks.accelerator import GAMES, PARTS, THRESHOLD, _work, accelerated_values
    from benchmarks.accelerator import main as accelerator_main

    # The work compared is the same work: each pure piece builds, hashes and compares what the compiled one does.
    values = accelerated_values("unrest", steps=60)
    assert {type(v).__name__ for v in values} >= {"UnrestState", "Position"}
    for part, (compiled, pure) in _work(values).items():
        assert compiled() == pure() or part == "hash", part
    out = tmp_path / "acc.json"
    assert (
        accelerator_main(["--no-games", "--seconds", "0.02", "--slice", "0.01", "--repeat", "1", "--json", str(out)])
        == 0
    )
    result = json.loads(out.read_text())
    assert result["threshold"] == THRESHOLD and set(result["parts"]) == set(GAMES)
    assert all(set(row) == set(PARTS) for row in result["parts"].values())
    # The compiled hash is on hash-cached classes only: Runebound's; the other games have no hash figure.
    assert result["parts"]["runebound_coop"]["hash"] > 0
    assert result["parts"]["unrest"]["hash"] is None and result["parts"]["unbroken"]["hash"] is None
    assert all(r > 0 for row in result["parts"].values() for p, r in row.items() if p != "hash")
    assert "parts under 1.25x:" in capsys.readouterr().out
