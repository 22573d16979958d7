"""The game study against known answers: Kuhn poker's exact seat values and branching, a game where chance decides
everything, one where it decides nothing, hand-computed variance shares and lead changes, restricted play whose
effect is certain, and the separate chance stream of ``records.play``."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any, ClassVar

import attrs
import numpy as np
import pytest

from tabletop_core import RandomAgent, play, replay
from tabletop_core.agents import FirstAgent
from tabletop_core.analysis import (
    RestrictedGame,
    Restriction,
    Study,
    analyze,
    dumps,
    load_restrictions,
    run_study,
    summarize,
)
from tabletop_core.analysis.report import markdown, rewrite_report, write_report
from tabletop_core.analysis.stats import lead_changes, luck_and_skill
from tabletop_core.analysis.trace import trace_game
from tabletop_core.errors import IllegalActionError, OptionError
from tabletop_core.game import Game
from tabletop_core.spec import CHANCE, TERMINAL, ChanceMode, GameSpec, Information, Utility
from tabletop_core.testing.kuhn import GAME as KUHN

KUHN_NAME = "tabletop_core.testing.kuhn:GAME"
HERE = "tests.core.test_analysis_study"


@attrs.frozen
class CoinOptions:
    """``luck``: a fair coin decides the game and the one decision does not matter; otherwise no chance at all
    and the decision is the result."""

    luck: bool = True


@attrs.frozen
class CoinState:
    """``stage`` 0: the coin (luck only); 1: pick 0 or 1; 2: over."""

    TAG: ClassVar[str] = "coin.state"
    options: CoinOptions
    stage: int = 0
    coin: int = 0
    pick: int = 0


class CoinGame(Game[CoinState, int, CoinOptions]):
    """A one-player game whose result is all luck or all skill (see :class:`CoinOptions`)."""

    spec = GameSpec(
        short_name="coin",
        long_name="Coin test game",
        min_num_players=1,
        max_num_players=1,
        chance_mode=ChanceMode.EXPLICIT_STOCHASTIC,
        information=Information.PERFECT,
        utility=Utility.GENERAL_SUM,
        min_utility=0.0,
        max_utility=1.0,
        num_distinct_actions=2,
        max_chance_outcomes=2,
        max_game_length=2,
        observation_shape=(1,),
    )
    state_type = CoinState
    action_type = int
    options_type = CoinOptions

    def initial_state(self, options: CoinOptions) -> CoinState:
        return CoinState(options, stage=0 if options.luck else 1)

    def current_player(self, state: CoinState) -> int:
        return (CHANCE, 0, TERMINAL)[state.stage]

    def legal_actions(self, state: CoinState) -> tuple[int, ...]:
        return () if state.stage == 2 else (0, 1)

    def chance_outcomes(self, state: CoinState) -> tuple[tuple[int, float], ...]:
        return ((0, 0.5), (1, 0.5)) if state.stage == 0 else ()

    def _apply(self, state: CoinState, action: int) -> CoinState:
        if state.stage == 0:
            return attrs.evolve(state, stage=1, coin=action)
        return attrs.evolve(state, stage=2, pick=action)

    def returns(self, state: CoinState) -> tuple[float, ...]:
        if state.stage != 2:
            return (0.0,)
        return (float(state.coin if state.options.luck else state.pick),)

    def observe(self, state: CoinState, player: int) -> CoinState:
        return state

    def action_id(self, action: int) -> int:
        return action

    def action_from_id(self, state: CoinState, action_id: int) -> int:
        if action_id not in self.legal_actions(state):
            raise IllegalActionError(f"coin: no action id {action_id} here")
        return action_id

    def action_to_str(self, state: CoinState, action: int) -> str:
        return f"{'heads' if action else 'tails'}" if state.stage == 0 else f"pick {action}"

    def observation_tensor(self, state: CoinState, player: int) -> np.ndarray:
        return np.array([state.stage], dtype=np.float32)

    def render(self, state: CoinState, player: int | None = None) -> str:
        return f"stage {state.stage}"

    def restrictions(self, options: CoinOptions) -> list[Restriction]:
        """The game's own hook: pick 1 may be forbidden; a rule that never matches changes nothing."""
        return [Restriction("move", "pick 1", r"^pick 1$"), Restriction("move", "never", r"^nothing$")]


COIN = CoinGame()


class LastAgent:
    """Always the legal action with the highest id (deterministic, the opposite of ``first``)."""

    def act(self, view: Any, legal_actions: Sequence[Any], rng: np.random.Generator) -> Any:
        """The last legal action."""
        return legal_actions[-1]


def kuhn_hook(game: Any, options: Any) -> list[Restriction]:
    """A hook from outside the game: player moves named by their text."""
    return [Restriction("move", "bet", r"^bet$")]


# ----- the separate chance stream -------------------------------------------------------------------------------


def test_a_chance_seed_gives_other_players_the_same_deal() -> None:
    _, a = play(KUHN, [RandomAgent(), RandomAgent()], seed=5, chance_seed=11)
    _, b = play(KUHN, [FirstAgent(), FirstAgent()], seed=99, chance_seed=11)
    assert a.actions[:2] == b.actions[:2]  # the two deal outcomes
    deals = {play(KUHN, [FirstAgent(), FirstAgent()], seed=1, chance_seed=c)[1].actions[:2] for c in range(30)}
    assert len(deals) > 3  # and another chance seed deals other cards
    replay(a, KUHN)  # a record with a chance seed replays like any other


def test_without_a_chance_seed_a_seed_gives_the_game_it_always_gave() -> None:
    for seed in range(20):
        _, old = play(KUHN, [RandomAgent(), RandomAgent()], seed=seed)
        _, again = play(KUHN, [RandomAgent(), RandomAgent()], seed=seed, chance_seed=None)
        assert old == again
    # One stream for chance and choices: the agents' draws shift the next deal's; the stored golden records pin
    # the exact old games (tests/golden).
    assert play(KUHN, [RandomAgent()] * 2, seed=3)[1].to_json() == play(KUHN, [RandomAgent()] * 2, seed=3)[1].to_json()


def test_trace_game_plays_what_play_plays_with_the_same_two_seeds() -> None:
    for deal in range(15):
        trace = trace_game(KUHN, [RandomAgent(), RandomAgent()], chance_seed=deal, agent_seed=100 + deal)
        _, record = play(KUHN, [RandomAgent(), RandomAgent()], seed=100 + deal, chance_seed=deal)
        states = replay(record, KUHN, states=True)
        widths = [len(KUHN.legal_actions(s)) for s in states[:-1] if KUHN.current_player(s) >= 0]
        assert trace["branching"] == widths
        assert trace["returns"] == list(record.returns or ())
        assert trace["actions"] == len(record.actions)


# ----- Kuhn poker: known answers ----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def kuhn() -> dict[str, Any]:
    study = Study.build(
        KUHN_NAME,
        ["random"],
        games=500,
        ladder_games=6,
        budgets=(2, 8, 32),
        drama_games=5,
        restrict_games=60,
        restrictions=f"{HERE}:kuhn_hook",
    )
    return analyze(study)


def test_kuhn_random_seat_advantage_is_the_exact_one(kuhn: dict[str, Any]) -> None:
    sec = kuhn["seat_advantage"]
    exact = sec["exact_uniform"]
    assert exact["mean_returns"] == pytest.approx([0.125, -0.125])  # derived by hand in tests/core/data/golden.json
    for row, value, chance in zip(sec["rows"], exact["mean_returns"], exact["win_chances"], strict=True):
        assert row["games"] == 500
        # the exact values lie within the 95% intervals widened to 99.9% (3.29 / 1.96 of their half-widths)
        for (low, high), mid, truth in (
            (row["return_interval"], row["mean_return"], value),
            (row["win_interval"], row["win_rate"], chance),
        ):
            assert abs(truth - mid) < 1.68 * (high - low) / 2
    # Kuhn has no ties: the seats' wins add up to the games
    assert sum(r["wins"] for r in sec["rows"]) == 500


def test_kuhn_length_and_branching_are_exact(kuhn: dict[str, Any]) -> None:
    length, branching = kuhn["length"], kuhn["branching"]
    assert length["chance_events"]["mean"] == 2.0 and length["chance_events"]["method"] == "no spread"
    # three decisions exactly when player 0 passes and player 1 bets: 1/4 of uniform games, so 2.25 on average
    low, high = length["decisions"]["interval"]
    assert low < 2.25 < high and length["decisions"]["min"] == 2 and length["decisions"]["max"] == 3
    assert length["choice_share"] == {"value": 1.0, "interval": [None, None], "games": 500, "method": "no spread"}
    assert length["rounds"] is None  # Kuhn tells no rounds
    assert branching["mean"]["value"] == 2.0 and branching["max"] == 2
    assert all(b["mean"] == 2.0 for b in branching["by_decision"])
    third = next(b for b in branching["by_decision"] if b["decision"] == 2)
    assert 0.2 * 500 < third["games"] < 0.3 * 500  # the games with a third decision


def test_kuhn_drama_uses_the_exact_odds_and_ends_on_the_result(kuhn: dict[str, Any]) -> None:
    sec = kuhn["drama"]
    assert sec["games"] == 5 and sec["method"] == ["exact"]
    for ex in sec["examples"]:
        assert sorted(ex["chances"][-1]) == [0.0, 1.0]  # the final point is the outcome
        assert all(abs(sum(p) - 1.0) < 1e-9 for p in ex["chances"])  # zero-sum, no ties: chances add to 1


def test_kuhn_ladder_rates_every_agent_and_fits_the_budget(kuhn: dict[str, Any]) -> None:
    sec = kuhn["ladder"]
    assert len(sec["conditions"]) == 6 * 2 and all(r["games"] == 6 * 2 for r in sec["conditions"])  # 2 replicates
    rated = {r["entry"] for r in sec["ratings"]["entries"]}
    assert rated == set(Study.build(KUHN_NAME, budgets=(2, 8, 32)).ladder)
    assert sec["contests"] == 6 * 2 and len(sec["ratings"]["seat_terms"]) == 1
    assert sec["budget_rise"]["games"] == 3 * 2 * 6 * 2
    luck = kuhn["luck"]
    assert luck["games"] == 6 * 12 * 2 and luck["deals"] == 6 and luck["replicates"] == 2
    assert not luck["enough"] and luck["terms"]["deal"]["share"] is None  # 6 deals: too few for any share


def test_kuhn_restricted_betting_is_paired_with_the_same_deals(kuhn: dict[str, Any]) -> None:
    (item,) = kuhn["restricted"]["items"]
    assert item["item"] == "move bet" and item["games"] == 60
    assert item["games_restricted"] == 60  # every game has a decision with bet among its moves
    # Never betting: every game is a check-down showdown for 1, so each seat wins exactly its good deals
    assert all(s["win_change"]["games"] == 60 for s in item["seats"])


# ----- luck against skill: the two extremes -----------------------------------------------------------------------


def test_chance_decides_everything() -> None:
    study = Study(
        f"{HERE}:COIN",
        ("random",),
        allow_import=True,
        games=10,
        ladder=("random", "first", f"{HERE}:LastAgent"),
        ladder_games=40,
        sections=("luck",),
    )
    terms = analyze(study)["luck"]["terms"]
    assert terms["agent"]["share"] == pytest.approx(0.0, abs=1e-12)
    assert terms["deal"]["share"] == pytest.approx(1.0)
    assert terms["within"]["share"] == pytest.approx(0.0, abs=1e-12)
    assert terms["deal_by_condition"]["share"] == pytest.approx(0.0, abs=1e-12)
    assert terms["deal"]["interval"] == pytest.approx([1.0, 1.0])


def test_chance_decides_nothing() -> None:
    study = Study(
        f"{HERE}:COIN",
        ("random",),
        allow_import=True,
        games=10,
        ladder=("first", f"{HERE}:LastAgent"),
        ladder_games=12,
        options=(("luck", False),),
        sections=("luck", "ladder"),
    )
    result = analyze(study)
    terms = result["luck"]["terms"]
    assert terms["agent"]["share"] == pytest.approx(1.0)
    assert terms["deal"]["share"] == pytest.approx(0.0, abs=1e-12)
    rows = {r["agent"]: r for r in result["ladder"]["conditions"]}
    assert rows["first"]["win_rate"] == 0.0 and rows[f"{HERE}:LastAgent"]["win_rate"] == 1.0
    assert result["ladder"]["ratings"]["entries"][0]["entry"] == f"{HERE}:LastAgent"


def test_variance_shares_match_a_hand_computation() -> None:
    # 10 deals, 2 agents, 1 seat, 2 replicates: y = deal effect d (0..9) + 3 for agent b + replicate noise +-1/2
    y = np.zeros((10, 2, 1, 2))
    for d in range(10):
        for a in range(2):
            y[d, a, 0] = [d + 3 * a - 0.5, d + 3 * a + 0.5]
    out = luck_and_skill(y, ["a", "b"])
    ss_deal = 4 * sum((d - 4.5) ** 2 for d in range(10))  # 330
    ss_agent = 20 * 2 * 1.5**2  # 90
    ss_within = 40 * 0.25  # 10
    total = ss_deal + ss_agent + ss_within
    terms = out["terms"]
    assert out["total_sum_of_squares"] == pytest.approx(total)
    assert terms["deal"]["share"] == pytest.approx(ss_deal / total)
    assert terms["agent"]["share"] == pytest.approx(ss_agent / total)
    assert terms["within"]["share"] == pytest.approx(ss_within / total)
    assert terms["deal_by_condition"]["share"] == pytest.approx(0.0, abs=1e-12)
    assert terms["seat"]["df"] == 0 and terms["within"]["df"] == 20
    flat = luck_and_skill(np.ones((10, 2, 1, 2)), ["a", "b"])
    assert flat["terms"]["agent"]["share"] is None  # no variance: no shares to give


def test_luck_shares_agree_with_a_statsmodels_anova() -> None:
    import pandas as pd  # type: ignore[import-untyped]  # pandas ships no stubs here; statsmodels formulas need a frame
    from statsmodels.formula.api import ols
    from statsmodels.stats.anova import anova_lm

    rng = np.random.default_rng(5)
    d_, a_, s_, r_ = 12, 3, 2, 2
    y = (
        rng.normal(size=(d_, 1, 1, 1))
        + rng.normal(size=(1, a_, 1, 1))
        + rng.normal(size=(1, 1, s_, 1))
        + 0.5 * rng.normal(size=(d_, a_, s_, r_))
    )
    out = luck_and_skill(y, ["x", "y", "z"], ["p", "q"])
    rows = [
        {"y": y[d, a, s, r], "deal": d, "agent": a, "seat": s, "cond": a * s_ + s}
        for d in range(d_)
        for a in range(a_)
        for s in range(s_)
        for r in range(r_)
    ]
    frame = pd.DataFrame(rows)
    table = anova_lm(ols("y ~ C(seat) * C(agent) + C(deal)", data=frame).fit(), typ=1)
    cells = anova_lm(ols("y ~ C(deal) + C(cond) + C(deal):C(cond)", data=frame).fit(), typ=1)
    total = float(((frame["y"] - frame["y"].mean()) ** 2).sum())
    expect = {
        "seat": table.loc["C(seat)", "sum_sq"],
        "agent": table.loc["C(agent)", "sum_sq"],
        "agent_by_seat": table.loc["C(seat):C(agent)", "sum_sq"],
        "deal": table.loc["C(deal)", "sum_sq"],
        "deal_by_condition": cells.loc["C(deal):C(cond)", "sum_sq"],
        "within": cells.loc["Residual", "sum_sq"],
    }
    for key, ss in expect.items():
        assert out["terms"][key]["share"] == pytest.approx(ss / total, rel=1e-6, abs=1e-9), key
    assert out["terms"]["agent"]["p_value"] == pytest.approx(table.loc["C(agent)", "PR(>F)"], rel=1e-6)
    for key in expect:
        low, high = out["terms"][key]["interval"]
        assert 0.0 <= low <= high <= 1.0


def test_the_agents_own_randomness_is_measured_by_replicates() -> None:
    # In the luck-free coin game a random agent's own seed decides everything: the within-cell term takes it all
    study = Study(
        f"{HERE}:COIN",
        ("random",),
        allow_import=True,
        games=10,
        ladder=("random", "first"),
        ladder_games=12,
        luck_replicates=3,
        options=(("luck", False),),
        sections=("luck",),
    )
    terms = analyze(study)["luck"]["terms"]
    assert terms["deal"]["p_value"] > 0.01  # the deal explains no more than the replicates' spread
    assert terms["within"]["share"] > 0.3 and terms["within"]["interval"][0] > 0.0


def test_lead_changes_and_swings_match_a_hand_count() -> None:
    series = [[0.6, 0.4], [0.4, 0.6], [0.5, 0.5], [0.7, 0.3], [1.0, 0.0]]
    changes, total, largest = lead_changes(KUHN.spec, series)
    assert changes == 2  # 0 -> 1, then (the tie keeps seat 1 ahead) 1 -> 0
    assert total == pytest.approx(0.2 + 0.1 + 0.2 + 0.3) and largest == pytest.approx(0.3)
    solo = [[0.6], [0.4], [0.5], [0.3], [0.9]]
    changes, total, largest = lead_changes(COIN.spec, solo)
    assert changes == 2 and total == pytest.approx(0.2 + 0.1 + 0.2 + 0.6) and largest == pytest.approx(0.6)


# ----- restricted play ---------------------------------------------------------------------------------------------


def test_restricted_play_measures_a_certain_effect_and_a_null_one() -> None:
    study = Study(
        f"{HERE}:COIN",
        (f"{HERE}:LastAgent",),
        allow_import=True,
        games=25,
        restrict_games=25,
        options=(("luck", False),),
        sections=("restricted",),
    )
    items = {r["item"]: r for r in analyze(study)["restricted"]["items"]}
    forbidden = items["move pick 1"]["seats"][0]["win_change"]
    assert forbidden["change"] == -1.0 and forbidden["games"] == 25 and forbidden["worse"] == 25
    assert forbidden["interval"][0] == -1.0 and forbidden["interval"][1] < -0.7  # Wilson: all at one end
    assert forbidden["p_value"] < 1e-6 and forbidden["holm_survives"] and forbidden["bh_survives"]
    assert items["move pick 1"]["games_restricted"] == 25
    never = items["move never"]
    assert never["seats"][0]["win_change"]["change"] == 0.0 and never["unchanged_games"] == 25
    assert never["games_restricted"] == 0


def test_a_restricted_game_keeps_a_forced_move_and_refuses_a_bad_hook() -> None:
    game = RestrictedGame(COIN, Restriction("move", "all", r"^pick"))
    state = COIN.initial_state(CoinOptions(luck=False))
    assert game.legal_actions(state) == (0, 1)  # every action matches: the player keeps them all
    with pytest.raises(OptionError, match="neither forbids"):
        Restriction("card", "x")
    with pytest.raises(OptionError, match="bad pattern"):
        Restriction("card", "x", "(")
    with pytest.raises(OptionError, match="restriction hook"):
        load_restrictions(KUHN, hook="tests.core.no_such_module:hook")
    assert load_restrictions(KUHN) == []  # Kuhn declares no content


# ----- the report and the command line ------------------------------------------------------------------------------


def test_the_report_states_every_section_with_its_games(tmp_path: Path) -> None:
    study = Study.build(KUHN_NAME, ["random"], games=20, ladder_games=2, budgets=(2, 4, 8), drama_games=2)
    result, traces = run_study(study, workers=2)
    assert analyze(study) | {"seconds": 0} == result | {"seconds": 0}  # one process or two: the same numbers
    paths = write_report(result, tmp_path, traces=traces, reading="Kuhn is small.")
    names = {p.name for p in paths}
    assert {"analysis.json", "games.jsonl", "report.md", "seats.png", "ladder.png"} <= names
    assert "luck.png" not in names  # 2 deals: no shares, so no plot of them
    text = (tmp_path / "report.md").read_text()
    for heading in ("Seat advantage", "Game length", "Branching", "Skill ladder", "Luck against skill", "Drama"):
        assert f"## {heading}" in text
    assert "Kuhn is small." in text and "| 0 player 0 | 20 |" in text
    assert "Too few deals (2)" in text and "too few games (4)" in text  # 2 deals x 2 replicates per condition
    assert json.loads((tmp_path / "analysis.json").read_text())["games_played"] == len(traces)
    assert "![seats](seats.png)" not in markdown(result)  # no plot files given, none linked
    assert summarize(study, traces) | {"seconds": 0} == result | {"seconds": 0}  # the numbers are the traces'
    with pytest.raises(OptionError, match="not the"):
        summarize(study, traces[1:])
    rewrite_report(tmp_path, reading="Rewritten.", traces=False)
    assert "Rewritten." in (tmp_path / "report.md").read_text() and not (tmp_path / "games.jsonl").exists()
    assert json.loads((tmp_path / "analysis.json").read_text())["ladder"] == json.loads(dumps(result))["ladder"]


@pytest.mark.parametrize(
    ("game", "item"),
    [("runebound_coop", "enemy Sorcerer"), ("unbroken", "skill Daring"), ("unrest", "ability reroute")],
)
def test_the_command_line_writes_a_miniature_report_of_each_game(tmp_path: Path, game: str, item: str) -> None:
    from tabletop_core.cli import main

    out = tmp_path / game
    sizes = ["--games=10", "--ladder-games=1", "--drama-games=1", "--drama-points=2", "--drama-rollouts=2"]
    agents = ["--agents", "random", "--ladder", "random", "first"]
    code = main(["analyze", game, *agents, *sizes, "--restrict-games=1", f"--out={out}", "--quiet"])
    assert code == 0
    result = json.loads((out / "analysis.json").read_text())
    assert item in [r["item"] for r in result["restricted"]["items"]]
    assert result["length"]["games"] == 10 and result["length"]["rounds"]["mean"] >= 1
    assert {"report.md", "seats.png", "restricted.png"} <= {p.name for p in out.iterdir()}
    traces = [json.loads(line) for line in (out / "games.jsonl").read_text().splitlines()]
    base = [t for t in traces if t["task"]["kind"] == "base"]
    # the statistics agree with a recount from the traces
    assert result["length"]["decisions"]["mean"] == pytest.approx(sum(t["decisions"] for t in base) / 10)
    share = sum(t["choices"] for t in base) / sum(t["decisions"] for t in base)
    assert result["length"]["choice_share"]["value"] == pytest.approx(share)
    widths = [w for t in base for w in t["branching"]]
    assert result["branching"]["mean"]["value"] == pytest.approx(sum(widths) / len(widths))


def test_the_command_line_refuses_bad_input(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    from tabletop_core.cli import main

    for bad in (["--budgets=0,x"], ["--budgets=0"], ["--sections", "nonsense"]):
        with pytest.raises(SystemExit) as stop:
            main(["analyze", KUHN_NAME, *bad, f"--out={tmp_path}"])
        assert stop.value.code == 2
    assert main(["analyze", KUHN_NAME, "--agents", "random", "random", "random", f"--out={tmp_path}"]) == 2
    assert "2 seats need one agent or 2" in capsys.readouterr().err
