"""The fast exact solver (ShiftSolver): every field of its answer equal to the RoundSolver's, to the last bit.

The pinned answers were recorded with ``main``'s RoundSolver (commit a4b613f) before the fast solver existed, as
``float.hex`` strings, so an optimisation that changes a single bit fails here.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

import runebound_coop as rb
from runebound_coop.exact import RoundSolver, fight_state
from runebound_coop.exact_shift import ShiftSolver, heals, traced_run
from runebound_coop.rules.flow import DRIVER
from runebound_coop.state import RuneboundState
from tabletop_core import sample_outcome
from tabletop_core.fastcopy import replace
from tabletop_core.spec import CHANCE


def _start(hero: str, enemy: str, damage: tuple[int, int, int] = (0, 0, 2), **options: Any) -> RuneboundState:
    """A solo fight's first cast, the hero and the enemy wounded and the hand as ``damage`` says."""
    h, e, k = damage
    return replace(fight_state(rb.GAME, hero, enemy, **options), hero_damage=(h,), enemy_damage=(e,), hand=(k,))


def _hexes(result: rb.Odds) -> dict[str, Any]:
    return {
        "win": result.win.hex(),
        "loss": result.loss.hex(),
        "undecided": result.undecided.hex(),
        "damage": [d.hex() for d in result.damage],
        "states": result.states,
    }


# Recorded from main's RoundSolver (a4b613f): 172 s of CPU on the loaded 2-core machine for the first.
ELIAN_SORCERER_10 = {
    "win": "0x1.a916287305cd2p-1",
    "loss": "0x1.5ba75e33e8aecp-3",
    "undecided": "0x1.cc00000000000p-47",
    "damage": [
        "0x0.0p+0",
        "0x1.fd00000000000p-11",
        "0x1.b71d565fd7a53p-7",
        "0x1.635191a140cf4p-4",
        "0x1.462422449920dp-3",
        "0x1.23e0e9a7a3ff9p-3",
        "0x1.5a77ba80be18fp-3",
        "0x1.e78354cad94dap-4",
        "0x1.1d0292c3118f1p-3",
        "0x1.5ba75e33e8aeap-3",
    ],
    "states": 762520,
}

PINNED: list[tuple[str, str, dict[str, Any], tuple[int, int, int], dict[str, Any]]] = [
    # No healing on either side, a skill card in hand, 10 rounds from a wounded start.
    (
        "Elian",
        "Sorcerer",
        {"max_rounds": 10},
        (6, 2, 2),
        {
            "win": "0x1.57143fa5040b5p-1",
            "loss": "0x1.51d780b5f7e85p-2",
            "undecided": "0x1.1000000000000p-50",
            "damage": [
                *["0x0.0p+0"] * 6,
                "0x1.a448912244891p-2",
                "0x1.d602d02b504b3p-4",
                "0x1.28be7439def74p-3",
                "0x1.51d780b5f7e89p-2",
            ],
            "states": 78245,
        },
    ),
    # The Horde's warrior board heals it: the enemy's damage is not shifted.
    (
        "Corbin",
        "Undead Horde",
        {"max_rounds": 6},
        (7, 1, 2),
        {
            "win": "0x1.3dd6442fba732p-1",
            "loss": "0x1.845377934cfb5p-2",
            "undecided": "0x1.a7c3ce0000000p-31",
            "damage": [
                *["0x0.0p+0"] * 7,
                "0x1.f18022d14ca51p-2",
                "0x1.1d54cea9c0ae0p-4",
                "0x1.0b5cc7c3d8d08p-4",
                "0x1.845377934cfb4p-2",
            ],
            "states": 31821,
        },
    ),
    # The enemy's choices become 2 damage to the hero.
    (
        "Lissa",
        "Lantern Wisp",
        {"max_rounds": 5, "enemy_choices": "damage"},
        (7, 1, 2),
        {
            "win": "0x1.a431f29bca31dp-2",
            "loss": "0x1.2de6881a71946p-1",
            "undecided": "0x1.fa5ea54b00000p-19",
            "damage": [
                *["0x0.0p+0"] * 7,
                "0x1.3a4da2436e749p-2",
                "0x1.a795361eb98bap-4",
                "0x1.2de6881a71944p-1",
            ],
            "states": 26101,  # every flip offered (the lowest-index agility token too): more states, same odds
        },
    ),
]


@pytest.mark.slow
def test_odds_elian_sorcerer_10_rounds_is_mains_answer_to_the_bit() -> None:
    """The 10-round fight: the same win, loss, undecided, damage distribution and state count as main's solver."""
    assert _hexes(rb.odds("Elian", "Sorcerer", max_rounds=10)) == ELIAN_SORCERER_10


@pytest.mark.parametrize(("hero", "enemy", "options", "damage", "expected"), PINNED, ids=lambda v: str(v)[:12])
def test_shift_solver_gives_mains_pinned_answers(
    hero: str, enemy: str, options: dict[str, Any], damage: tuple[int, int, int], expected: dict[str, Any]
) -> None:
    assert _hexes(ShiftSolver(rb.GAME, _start(hero, enemy, damage, **options)).odds()) == expected


@pytest.mark.parametrize(
    ("hero", "enemy", "options", "damage"),
    [
        ("Corbin", "Undead Horde", {"max_rounds": 1}, (0, 0, 2)),
        ("Corbin", "Ogre", {"max_rounds": 2, "enemy_choices": "damage"}, (8, 5, 2)),
        ("Elian", "Sorcerer", {"max_rounds": 2}, (8, 4, 2)),
        ("Corbin", "Undead Horde", {"max_rounds": 1, "cards": (("Field Dressing",),)}, (8, 2, 1)),
        ("Elian", "Sorcerer", {"max_rounds": 3}, (8, 3, 0)),
    ],
)
def test_shift_solver_matches_the_round_solver(
    hero: str, enemy: str, options: dict[str, Any], damage: tuple[int, int, int]
) -> None:
    """The reference (a memo of whole states, explored with the rules for every situation) and the fast solver
    agree on every field, exactly."""
    state = _start(hero, enemy, damage, **options)
    assert ShiftSolver(rb.GAME, state).odds() == RoundSolver(rb.GAME, state).odds()


def test_shift_solver_closed_form(tmp_path: Path) -> None:
    """The one-token toy fight: the hero wins in the first round whose cast shows 3 physical."""
    (tmp_path / "heroes.toml").write_text('[[hero]]\nname = "Toy"\nhealth = 5\ntokens = ["3P/B"]\nsource = "standin"\n')
    (tmp_path / "token_sets.toml").write_text(
        '[[token_set]]\ntrait = "warrior"\nsource = "standin"\ntokens = [{ id = "X", faces = "B/B" }]\n'
    )
    (tmp_path / "enemies.toml").write_text(
        '[[enemy]]\nname = "Dummy"\ntrait = "warrior"\nhealth = 3\nsource = "standin"\n'
    )
    for rounds in (1, 4, 9):
        state = fight_state(rb.GAME, "Toy", "Dummy", pack=tmp_path, max_rounds=rounds)
        result = ShiftSolver(rb.GAME, state).odds()
        assert result.win == 1 - 0.5**rounds
        assert result == RoundSolver(rb.GAME, state).odds()


def test_traced_run_ends_where_the_driver_runs_to() -> None:
    """The traced loop passes through states and rests exactly where the core's driver does."""
    rng = np.random.default_rng(5)
    checked = 0
    for seed in range(6):
        state = rb.new_game(seed=seed, heroes=("Elian",), enemies=("Sorcerer",))
        while not rb.is_terminal(state):
            if rb.current_player(state) == CHANCE:
                action = sample_outcome(rb.chance_outcomes(state), rng)
            else:
                legal = rb.legal_actions(state)
                action = legal[int(rng.integers(len(legal)))]
            applied = DRIVER.frame(state).apply(state, action)
            trace = traced_run(applied)
            assert trace[0] is applied
            assert trace[-1] == DRIVER.run(applied) == rb.GAME.apply_unchecked(state, action)
            state = trace[-1]
            checked += 1
    assert checked > 50


def test_heals_reads_abilities_cards_and_board() -> None:
    def of(hero: str, enemy: str, **options: Any) -> tuple[bool, bool]:
        return heals(fight_state(rb.GAME, hero, enemy, **options).options.setup)

    assert of("Elian", "Sorcerer") == (False, False)
    assert of("Corbin", "Undead Horde") == (False, True)  # the warrior board's title heals
    assert of("Elian", "Grave Whisperer") == (False, True)  # Siphon heals
    assert of("Elian", "Sorcerer", cards=(("Field Dressing",),)) == (True, False)


def test_shift_solver_refuses_retreat_and_odds_then_uses_the_round_solver() -> None:
    state = fight_state(rb.GAME, "Corbin", "Undead Horde", max_rounds=1, retreat=True)
    with pytest.raises(ValueError, match="retreat"):
        ShiftSolver(rb.GAME, state)
    assert rb.odds("Corbin", "Undead Horde", max_rounds=1, retreat=True) == RoundSolver(rb.GAME, state).odds()
    state = fight_state(rb.GAME, "Corbin", "Undead Horde", max_rounds=1)
    with pytest.raises(ValueError, match="first cast of a round"):
        ShiftSolver(rb.GAME, rb.step(state, rb.GAME.action_from_id(state, 0)))
