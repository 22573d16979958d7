"""The adapter docs' code blocks and the adapter examples run, and the examples compute what they claim."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = sorted((ROOT / "docs" / "adapters").glob("*.md"))
BLOCK = re.compile(r"```python\n(.*?)```", re.DOTALL)
EXAMPLES = sorted(
    p for pattern in ("openspiel_*.py", "pettingzoo_*.py", "gymnasium_*.py") for p in (ROOT / "examples").glob(pattern)
)


def _blocks() -> list[tuple[str, int, str]]:
    return [
        (page.name, i, code) for page in PAGES for i, code in enumerate(BLOCK.findall(page.read_text(encoding="utf-8")))
    ]


def _example(name: str) -> ModuleType:
    path = ROOT / "examples" / name
    spec = importlib.util.spec_from_file_location(f"adapter_example_{path.stem}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_there_is_a_page_per_framework_with_code() -> None:
    assert {p.name for p in PAGES} >= {"openspiel.md", "pettingzoo.md", "gymnasium.md"}
    assert {page for page, _, _ in _blocks()} >= {"openspiel.md", "pettingzoo.md", "gymnasium.md"}


@pytest.mark.parametrize(("page", "index", "code"), _blocks(), ids=lambda v: str(v)[:24])
def test_doc_block_runs(page: str, index: int, code: str, tmp_path: Path) -> None:
    script = tmp_path / "block.py"
    script.write_text(code, encoding="utf-8")
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, f"{page} block {index} failed:\n{done.stderr}"
    assert done.stdout.strip(), f"{page} block {index} printed nothing"


def test_every_adapter_example_defines_main_and_is_run_here() -> None:
    names = {p.name for p in EXAMPLES}
    assert {
        "openspiel_cfr_kuhn.py",
        "openspiel_mcts_unbroken.py",
        "openspiel_ismcts_unrest.py",
        "pettingzoo_unrest.py",
        "pettingzoo_runebound_coop.py",
        "gymnasium_unbroken.py",
        "gymnasium_runebound_fight.py",
        "openspiel_qlearning_runebound.py",
    } <= names
    for path in EXAMPLES:
        text = path.read_text(encoding="utf-8")
        assert "def main(" in text and 'if __name__ == "__main__":' in text, path.name
        tested = Path(__file__).read_text(encoding="utf-8")
        assert f'_example("{path.name}")' in tested, f"{path.name} has no test here"


def test_openspiel_cfr_kuhn_example_reaches_kuhns_value() -> None:
    gap, value = _example("openspiel_cfr_kuhn.py").main(iterations=150)
    assert gap < 0.02
    assert value == pytest.approx(-1 / 18, abs=0.005)


def test_openspiel_mcts_unbroken_example_plays_mcts_and_random() -> None:
    results = _example("openspiel_mcts_unbroken.py").main(games=1, simulations=5)
    assert set(results) == {"mcts", "random"}
    for score, decisions in results.values():
        assert score >= -1.0 and decisions >= 1


def test_gymnasium_unbroken_example_plays_seeded_episodes() -> None:
    example = _example("gymnasium_unbroken.py")
    first = example.main(episodes=2)
    assert first == example.main(episodes=2)  # seeded: the same episodes again
    assert all(steps >= 1 for _, steps in first)


def test_openspiel_ismcts_unrest_example_plays_the_empire() -> None:
    returns = _example("openspiel_ismcts_unrest.py").main(games=1, simulations=5)
    assert len(returns) == 1 and returns[0] in (-1.0, 1.0)


def test_pettingzoo_unrest_example_branches_a_copy() -> None:
    game, branch = _example("pettingzoo_unrest.py").main(seed=5)
    for rewards in (game, branch):
        assert set(rewards) == {"rebellion_0", "empire_1"}
        assert sum(rewards.values()) == 0.0 and abs(rewards["empire_1"]) == 1.0  # zero-sum, decided


def test_pettingzoo_runebound_coop_example_shares_one_fate() -> None:
    results = _example("pettingzoo_runebound_coop.py").main(games=2)
    for totals in results:
        assert len(totals) == 3 and len(set(totals.values())) == 1  # the party shares one utility


def test_gymnasium_runebound_fight_example_fights_every_board() -> None:
    means = _example("gymnasium_runebound_fight.py").main(episodes=2)
    assert set(means) == {"warrior", "mystic", "savage", "trickster"}
    assert all(-1.0 <= m <= 1.0 for m in means.values())


def test_openspiel_qlearning_runebound_example_beats_random_play() -> None:
    learned, random = _example("openspiel_qlearning_runebound.py").main(episodes=300, evaluation=200)
    assert -1.0 <= random < learned <= 1.0
    assert learned - random > 0.5  # seeded: about +0.8 against -0.25


def test_openspiel_cfr_unrest_research_example_drives_nashconv_below_five_hundredths() -> None:
    rows = _example("openspiel_mccfr_unrest_research.py").main(iterations=10, checkpoints=(1, 3, 10))
    gaps = [gap for _, _, gap, _ in rows]
    assert [done for done, *_ in rows] == [1, 3, 10]
    assert gaps[0] > gaps[1] > gaps[2] and gaps[-1] < 0.05  # about 1.92, 0.32, 0.035
    assert {states for *_, states in rows} == {389}


def test_the_unrest_research_endgame_information_states_are_perfect_recall() -> None:
    """Two histories share a player's information state exactly when the player saw and did the same things."""
    import pyspiel

    game = _example("openspiel_mccfr_unrest_research.py").endgame()
    seen: dict[tuple[int, str], set[tuple[object, ...]]] = {}
    start = game.new_initial_state()
    first: tuple[tuple[object, ...], ...] = tuple((start.observation_string(p),) for p in range(2))
    stack = [(start, first)]
    while stack:
        state, trail = stack.pop()
        if state.is_terminal():
            continue
        actor = state.current_player()
        if actor >= 0:
            seen.setdefault((actor, state.information_state_string()), set()).add(trail[actor])
        chance = actor == pyspiel.PlayerId.CHANCE
        for action in [a for a, _ in state.chance_outcomes()] if chance else state.legal_actions():
            child = state.child(action)
            seen_now: list[tuple[object, ...]] = [
                (action if p == actor else None, child.observation_string(p)) for p in range(2)
            ]
            stack.append((child, tuple(trail[p] + seen_now[p] for p in range(2))))
    assert all(len(trails) == 1 for trails in seen.values())  # one information state: one thing seen and done
    owners: dict[tuple[int, tuple[object, ...]], str] = {}
    for (player, info), trails in seen.items():
        for t in trails:
            assert owners.setdefault((player, t), info) == info  # one thing seen and done: one information state
