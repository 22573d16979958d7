"""OpenSpiel's generate_playthrough on every game and variant, checked against the committed playthroughs.

A difference means a rule, an encoding, a string or a chance distribution changed. If that was meant, regenerate
them with ``make playthroughs`` and commit the new files with the change that caused them.
"""

from __future__ import annotations

import difflib

import pytest

from tabletop_core.adapters import openspiel
from tests.adapters.games import Case
from tests.adapters.playthroughs.record import DIRECTORY, actions_of, playthrough, playthrough_cases

CASES = playthrough_cases()


def test_there_is_one_playthrough_per_tested_game_and_variant_and_no_other() -> None:
    assert {p.stem for p in DIRECTORY.glob("*.txt")} == set(CASES)
    assert {c.name for c in CASES.values()} >= {"unrest", "unbroken", "runebound_coop", "kuhn"}


@pytest.mark.parametrize("stem", sorted(CASES))
def test_generate_playthrough_reproduces_the_committed_playthrough(stem: str) -> None:
    case: Case = CASES[stem]
    recorded = (DIRECTORY / f"{stem}.txt").read_text(encoding="utf-8")
    game_string, actions = actions_of(recorded)
    assert game_string == str(openspiel.load(case.game, **case.options))
    assert actions  # the game was played, not only described
    again = playthrough(case, actions)
    if again != recorded:
        diff = "\n".join(
            list(difflib.unified_diff(recorded.splitlines(), again.splitlines(), "committed", "now", lineterm=""))[:40]
        )
        pytest.fail(
            f"{stem}.txt ({case.id}) no longer matches; if the change is meant, run `make playthroughs`\n{diff}"
        )
