"""Simulation: seatings and roles, wins by utility, seeds, JSON Lines results that resume, statistics, the CLI."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from tabletop_core import OptionError, StateFormatError
from tabletop_core.agents.specs import parse_agent_spec, resolve_seat
from tabletop_core.cli import main
from tabletop_core.simulation import Simulation, game_seed, load_results, run, seat_outcomes
from tabletop_core.simulation.stats import mean_interval, wilson_interval
from tabletop_core.testing.kuhn import GAME as KUHN
from tabletop_core.testing.kuhn import Kuhn, KuhnState

KUHN_NAME = "tabletop_core.testing.kuhn:GAME"


def _games(lines: Any) -> list[dict[str, Any]]:
    """Result lines without their wall times (the only field that differs between runs)."""
    return [{k: v for k, v in ln.items() if k != "seconds"} for ln in lines]


# ----- seats, roles and agent specs ---------------------------------------------------------------------------


def test_bound_agents_are_never_rotated_into_a_seat_they_cannot_play() -> None:
    sim = Simulation.build("unrest", pool=["unrest.bots:EmpireBot", "random"], games=1)
    assert sim.seatings == (("random", "unrest.bots:EmpireBot"),)
    both = Simulation.build("unrest", pool=["heuristic", "random"], games=1)
    assert both.seatings == (("heuristic", "random"), ("random", "heuristic"))


def test_a_bound_agent_fixed_to_the_wrong_seat_is_refused() -> None:
    with pytest.raises(OptionError, match="cannot play seat 0"):
        Simulation.build("unrest", {"0": "unrest.bots:EmpireBot"}, games=1)


def test_a_user_rebellion_bot_meets_the_built_in_empire_bot() -> None:
    sim = Simulation.build("unrest", {"1": "heuristic"}, ["random"], games=4, seed=2)
    results = run(sim)
    assert [ln["agents"] for ln in results.lines] == [["random", "heuristic"]] * 4
    assert all(ln["returns"] is not None for ln in results.lines)


class NamedKuhn(Kuhn):
    """Kuhn poker whose seats have role names."""

    def seat_name(self, state: KuhnState, player: int) -> str:
        return ("First Bettor", "Second")[player]


NAMED = NamedKuhn()


def test_roles_are_named_by_the_games_seat_names() -> None:
    sim = Simulation.build("tests.core.test_simulation:NAMED", {"second": "first", "first-bettor": "random"}, games=1)
    assert sim.seatings == (("random", "first"),)
    assert resolve_seat("player 1", ("a", "b")) == 1
    with pytest.raises(OptionError, match="seats are 0 \\(First Bettor\\), 1 \\(Second\\)"):
        Simulation.build("tests.core.test_simulation:NAMED", {"dealer": "random"}, games=1)


def test_a_league_plays_every_pair_in_both_seats() -> None:
    sim = Simulation.build(KUHN_NAME, pool=["random", "first", "mcts:iterations=5"], games=1)
    assert len(sim.seatings) == 6
    assert {frozenset(s) for s in sim.seatings} == {
        frozenset({"random", "first"}),
        frozenset({"random", "mcts:iterations=5"}),
        frozenset({"first", "mcts:iterations=5"}),
    }


def test_one_pool_agent_fills_a_party() -> None:
    sim = Simulation.build("runebound_coop", pool=["random"], games=1, options={"heroes": ["Corbin", "Elian"]})
    assert sim.seatings == (("random", "random"),)


def test_too_few_agents_are_refused() -> None:
    with pytest.raises(OptionError, match="need agents, got 2"):
        Simulation.build(
            "runebound_coop", pool=["random", "first"], games=1, options={"heroes": ["Corbin", "Elian", "Lissa"]}
        )


def test_agent_specs_read_parameters_and_classes() -> None:
    assert parse_agent_spec("ismcts:seconds=1,rollout=heuristic").params == (("seconds", 1), ("rollout", "heuristic"))
    assert parse_agent_spec("unrest.bots:EmpireBot").seats() == frozenset({1})
    with pytest.raises(OptionError, match="not an installed agent"):
        parse_agent_spec("alphazero")
    with pytest.raises(OptionError, match="key=value"):
        parse_agent_spec("mcts:400")
    with pytest.raises(OptionError, match="allow-import-agent"):
        parse_agent_spec("nowhere.at_all:Bot")
    with pytest.raises(OptionError, match="cannot load"):
        parse_agent_spec("nowhere.at_all:Bot", allow_import=True).seats()


# ----- wins by utility ----------------------------------------------------------------------------------------


def test_zero_sum_wins_go_to_the_highest_return_and_ties_are_counted() -> None:
    assert seat_outcomes(KUHN.spec, (2.0, -2.0)) == ("win", "loss")
    assert seat_outcomes(KUHN.spec, (0.0, 0.0)) == ("tie", "tie")


def test_a_co_op_party_wins_and_loses_together() -> None:
    import runebound_coop

    assert seat_outcomes(runebound_coop.GAME.spec, (1.0, 1.0, 1.0)) == ("win",) * 3
    assert seat_outcomes(runebound_coop.GAME.spec, (-1.0, -1.0)) == ("loss", "loss")
    assert seat_outcomes(runebound_coop.GAME.spec, (0.0,)) == ("tie",)  # withdrawn, the fight undecided


def test_a_solo_win_is_a_won_game() -> None:
    import unbroken

    assert seat_outcomes(unbroken.GAME.spec, (unbroken.LOSS,)) == ("loss",)
    assert seat_outcomes(unbroken.GAME.spec, (92.0,)) == ("win",)
    from tests.core.flowgame import GAME as FLOW_GAME  # a score game whose worst return is 0: any score wins

    assert seat_outcomes(FLOW_GAME.spec, (3.0,)) == ("win",) and seat_outcomes(FLOW_GAME.spec, (0.0,)) == ("loss",)


def test_co_op_results_count_the_partys_wins() -> None:
    sim = Simulation.build(
        "runebound_coop", pool=["heuristic"], games=6, seed=5, options={"heroes": ["Corbin", "Elian"]}
    )
    results = run(sim)
    won = sum(ln["returns"][0] > 0 for ln in results.lines)
    row = results.summary()["agents"][0]
    assert won > 0 and row["wins"] == won and row["games"] == 6  # the party's games, each counted once


# ----- seeds, backends, files ---------------------------------------------------------------------------------


def test_game_seeds_depend_only_on_the_seed_and_the_deal() -> None:
    sim = Simulation.build(KUHN_NAME, pool=["random", "first"], games=3, seed=9)
    assert [sim.seed_of(d) for d in range(3)] == [game_seed(9, d) for d in range(3)]
    assert len({game_seed(9, d) for d in range(100)}) == 100
    assert all(0 <= game_seed(9, d) < 2**53 for d in range(100))  # exact in JSON, as records require


def test_results_are_identical_for_one_and_two_workers(tmp_path: Path) -> None:
    sim = Simulation.build(KUHN_NAME, pool=["mcts:iterations=20", "random"], games=15, seed=3)
    one = run(sim, tmp_path / "one", workers=1)
    two = run(sim, tmp_path / "two", workers=2, batch_size=2)
    assert one.complete and _games(one.lines) == _games(two.lines)
    assert _games(load_results(tmp_path / "two").lines) == _games(one.lines)


def test_result_lines_carry_the_seed_agents_returns_length_and_time(tmp_path: Path) -> None:
    run(Simulation.build(KUHN_NAME, pool=["random", "first"], games=2, seed=1), tmp_path, records=True)
    first = json.loads((tmp_path / "games.jsonl").read_text().splitlines()[0])
    assert {"seed", "agents", "returns", "length", "decisions", "seconds", "outcomes", "seats"} <= set(first)
    from tabletop_core import replay

    record = (tmp_path / first["record"]).read_text()
    assert KUHN.returns(replay(record, KUHN)) == tuple(first["returns"])
    assert (tmp_path / "summary.json").exists()


def test_rerunning_resumes_and_more_games_extend(tmp_path: Path) -> None:
    sim = Simulation.build(KUHN_NAME, pool=["random", "first"], games=3, seed=4)
    run(sim, tmp_path)
    seen: list[int] = []
    more = Simulation.build(KUHN_NAME, pool=["random", "first"], games=5, seed=4)
    results = run(more, tmp_path, progress=lambda done, total: seen.append(done))
    assert seen[0] == 6 and seen[-1] == 10  # the 6 finished games were kept, 4 played
    assert _games(results.lines) == _games(run(more).lines)
    assert len((tmp_path / "games.jsonl").read_text().splitlines()) == 10


def test_another_simulation_in_the_same_directory_is_refused(tmp_path: Path) -> None:
    run(Simulation.build(KUHN_NAME, pool=["random", "first"], games=1), tmp_path)
    with pytest.raises(OptionError, match="another simulation"):
        run(Simulation.build(KUHN_NAME, pool=["random", "first"], games=1, seed=8), tmp_path)


def test_a_line_cut_short_by_a_hard_stop_is_dropped_and_replayed(tmp_path: Path) -> None:
    sim = Simulation.build(KUHN_NAME, pool=["random", "first"], games=2, seed=4)
    full = run(sim, tmp_path)
    path = tmp_path / "games.jsonl"
    text = path.read_text()
    path.write_text(text[: len(text) - 20])  # the last line loses its end
    assert len(load_results(tmp_path).lines) == 3
    assert _games(run(sim, tmp_path).lines) == _games(full.lines)


def test_a_directory_without_a_simulation_is_reported(tmp_path: Path) -> None:
    with pytest.raises(StateFormatError, match="not a simulation results directory"):
        load_results(tmp_path)


def test_bad_backends_and_workers_are_refused() -> None:
    sim = Simulation.build(KUHN_NAME, pool=["random", "first"], games=1)
    with pytest.raises(OptionError, match="backend"):
        run(sim, backend="spark")
    with pytest.raises(OptionError, match="workers"):
        run(sim, workers=0)
    with pytest.raises(OptionError, match="ray backend"):
        run(sim, address="ray://head:10001")


# ----- statistics ---------------------------------------------------------------------------------------------


def test_intervals_come_from_scipy() -> None:
    from scipy.stats import binomtest

    ci = binomtest(25, 30).proportion_ci(method="wilson")
    assert wilson_interval(25, 30) == pytest.approx((ci.low, ci.high))
    mean, low, high = mean_interval([1.0, 2.0, 3.0, 4.0])
    assert mean == 2.5 and low < 2.5 < high
    assert mean_interval([1.0, 1.0]) == (1.0, 1.0, 1.0)


def test_the_summary_has_seats_head_to_head_and_ratings() -> None:
    sim = Simulation.build(KUHN_NAME, pool=["mcts:iterations=40", "random", "first"], games=20, seed=1)
    summary = run(sim).summary()
    assert {r["agent"] for r in summary["agents"]} == {"mcts:iterations=40", "random", "first"}
    assert len(summary["seats"]) == 6 and all(r["games"] == 40 for r in summary["seats"])
    cell = next(c for c in summary["head_to_head"] if c["agent"] == "mcts:iterations=40" and c["opponent"] == "random")
    assert cell["games"] == 40
    assert summary["ratings"]["entries"][-1]["entry"] == "first"  # the one every other agent beats most rates last
    assert all(r["comparisons"] == 80 for r in summary["ratings"]["entries"])


def test_a_solo_league_is_rated_on_shared_deals() -> None:
    sim = Simulation.build("tests.core.flowgame:GAME", pool=["mcts:iterations=30", "first", "random"], games=8)
    summary = run(sim).summary()
    assert len(sim.seatings) == 3 and summary["head_to_head"] == []
    assert summary["ratings"]["entries"][0]["entry"] == "mcts:iterations=30"
    assert all("score_share" in r for r in summary["agents"])


# ----- the command line ---------------------------------------------------------------------------------------


def test_simulate_and_report_from_the_command_line(tmp_path: Path) -> None:
    out = io.StringIO()
    argv = ["simulate", KUHN_NAME, "--agent", "0=mcts:iterations=10", "--agent", "1=random", "--games", "6"]
    assert main([*argv, "--out", str(tmp_path), "--workers", "2"], out) == 0
    text = out.getvalue()
    assert "6/6 games" in text and "games/s" in text and "agents by seat" in text
    report = io.StringIO()
    assert main(["report", str(tmp_path)], report) == 0
    assert "head to head" in report.getvalue() and "ratings: Bradley-Terry" in report.getvalue()
    for name in ("win_rates.png", "ratings.png", "returns.png"):
        assert (tmp_path / "plots" / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_simulate_reports_bad_agents_as_one_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["simulate", "unrest", "--agent", "0=unrest.bots:EmpireBot", "--out", str(tmp_path)]) == 2
    assert "cannot play seat 0" in capsys.readouterr().err
