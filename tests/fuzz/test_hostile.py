"""Each hostile input the trust review found, as a named regression test: refused fast, with StateFormatError
naming where (a path in the document, or the broken invariant and its value)."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tabletop_core.agents import RandomAgent
from tabletop_core.errors import StateFormatError
from tabletop_core.records import play, replay
from tabletop_core.serialize import (
    MAX_BYTES,
    MAX_DEPTH,
    MAX_KEYS,
    MAX_LIST,
    MAX_STRING,
    check_sizes,
    from_json,
    to_json,
)
from tests.fuzz.games import GAMES, examples, sample_states
from tests.playouts import random_playout

#: Generous for a loaded 2-core machine: the checks are linear and take milliseconds when idle.
FAST = 2.0


def find(name: str, wanted: Callable[[Any], bool], **options: Any) -> dict[str, Any]:
    """The parsed saved state of the first state of a seeded random game of ``name`` that is ``wanted``."""
    game = GAMES[name]
    for seed in range(200):
        for state in random_playout(game, game.new_game(seed=seed, **options), np.random.default_rng(seed)):
            if not game.is_terminal(state) and wanted(state):
                doc: dict[str, Any] = json.loads(to_json(state))
                return doc
    raise AssertionError(f"no {name} game reached the wanted state")


def refused(name: str, doc: dict[str, Any] | str, needle: str) -> float:
    """Assert that loading ``doc`` raises StateFormatError matching ``needle``; the seconds it took."""
    text = doc if isinstance(doc, str) else json.dumps(doc)
    start = time.perf_counter()
    with pytest.raises(StateFormatError, match=needle):
        from_json(GAMES[name], text)
    took = time.perf_counter() - start
    assert took < FAST, f"refusing took {took:.2f} s"
    return took


def _unbroken() -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(to_json(GAMES["unbroken"].new_game(seed=1)))
    return doc


# ----- sizes, before any work -----------------------------------------------------------------------------------


def test_deep_nesting_is_refused_before_parsing_recurses() -> None:
    head = '{"format":"tabletop-rules","version":1,"type":"unbroken.state","data":'
    refused("unbroken", head + "[" * 200_000 + "]" * 200_000 + "}", r"nested too deeply .*at character \d+")
    refused("unbroken", head + "[" * 40 + "]" * 40 + "}", r"\$\.data\[0\]\[0\].*nested too deeply")


def test_a_huge_list_is_refused_naming_its_place() -> None:
    doc = _unbroken()
    doc["data"]["revealed"] = [0] * 1_000_000
    refused("unbroken", doc, r"\$\.data\.revealed: a list of 1000000 items")


def test_a_long_string_is_refused_naming_its_place() -> None:
    doc = _unbroken()
    doc["data"]["monster"] = "x" * 3_000_000
    refused("unbroken", doc, r"\$\.data\.monster: a string of 3000000 characters")


def test_a_document_past_the_byte_bound_is_refused_unread() -> None:
    refused("unbroken", " " * (MAX_BYTES + 1), "too large")
    start = time.perf_counter()
    with pytest.raises(StateFormatError, match="bytes is too large"):
        from_json(GAMES["unbroken"], b" " * (MAX_BYTES + 1))
    assert time.perf_counter() - start < FAST


def test_an_object_with_too_many_keys_is_refused() -> None:
    doc = _unbroken()
    doc["data"]["options"].update({f"k{i}": 0 for i in range(1000)})
    refused("unbroken", doc, r"\$\.data\.options: an object of \d+ keys")


@pytest.mark.parametrize("count", [2**53, 10**7, 76])
def test_an_unbroken_pile_count_past_its_deck_is_refused_without_expanding_it(count: int) -> None:
    # 2**53 copies made from_json never return (the validator expanded the pile); 10**7 took half a second.
    doc = _unbroken()
    doc["data"]["encounters"]["counts"][0][1] = count
    refused("unbroken", doc, f"encounter pile: {count} copies of card 0")


def test_an_unbroken_skill_pile_past_its_deck_is_refused() -> None:
    doc = _unbroken()
    doc["data"]["skill_deck"]["discards"] = [0] * 5000
    refused("unbroken", doc, "skill discards: 5000 cards")


# ----- Unbroken: position, tracks, frames -------------------------------------------------------------------------


def test_unbroken_a_phase_without_that_step_is_refused() -> None:
    doc = _unbroken()
    doc["data"]["pos"]["step"] = "battle"
    refused("unbroken", doc, "no step 'battle'")


def test_unbroken_a_monster_tracker_outside_combat_is_refused() -> None:
    doc = find("unbroken", lambda s: s.combat is not None and s.combat.started)
    doc["data"]["pos"] = {"round": doc["data"]["pos"]["round"], "phase": "travel", "step": "preparation"}
    refused("unbroken", doc, "outside the Combat Phase")


def test_unbroken_a_battle_frame_outside_a_battle_is_refused() -> None:
    doc = _unbroken()
    doc["data"]["pending"]["frames"].append({"$type": "unbroken.player_turn", "extra": False})
    refused("unbroken", doc, "battle frame")


@pytest.mark.parametrize(("field", "value"), [("low", 3), ("high", 99), ("name", "food")])
def test_unbroken_a_track_unlike_its_resource_is_refused(field: str, value: Any) -> None:
    doc = _unbroken()
    doc["data"]["res"][8][field] = value
    refused("unbroken", doc, "is not the track 'time'")


def test_unbroken_an_unknown_character_is_refused() -> None:
    doc = _unbroken()
    doc["data"]["options"]["character"] = ""
    refused("unbroken", doc, "unknown character")


def test_unbroken_an_effect_no_card_or_rule_makes_is_refused() -> None:
    # An op with res = "" raised KeyError mid-game.
    doc = _unbroken()
    op = {"op": "gain", "res": "", "n": 1}
    doc["data"]["pending"]["frames"].append({"$type": "unbroken.exec", "ops": [op], "src": ""})
    refused("unbroken", doc, "effect")


def test_unbroken_a_draw_past_the_picks_is_refused() -> None:
    doc = find("unbroken", lambda s: type(s.pending.top).__name__ == "DrawEncounters")
    doc["data"]["pending"]["frames"][-1]["n"] = 10_000  # more cards than any deck holds (and than the pick ids)
    refused("unbroken", doc, "encounters to pick from")


# ----- Runebound: frames, fights, turns, rounds --------------------------------------------------------------


def _fight(**options: Any) -> dict[str, Any]:
    return find("runebound_coop", lambda s: s.fight is not None and s.pos.step == "actions", **options)


def test_runebound_a_choice_frame_without_an_enemy_player_is_refused() -> None:
    # current_player returned 2 in a 2-player game.
    doc = _fight()
    doc["data"]["pending"]["frames"] = [
        {"$type": "runebound_coop.choice", "kind": "recast_foe", "source": -1, "candidates": [0, 1]}
    ]
    refused("runebound_coop", doc, "only an enemy player is asked")


def test_runebound_a_frame_with_no_fight_is_refused() -> None:
    doc = find("runebound_coop", lambda s: s.fight is None and s.pos.phase == "encounter")
    doc["data"]["pending"]["frames"] = [{"$type": "runebound_coop.cancel", "ability": 0}]
    refused("runebound_coop", doc, "no fight")


@pytest.mark.parametrize("candidates", [[-1, 0], [0, 99], [0, 0], [0]])
def test_runebound_choice_candidates_the_rules_do_not_offer_are_refused(candidates: list[int]) -> None:
    doc = _fight(enemy_choices="player")
    doc["data"]["pending"]["frames"] = [
        {"$type": "runebound_coop.choice", "kind": "recast_foe", "source": -1, "candidates": candidates}
    ]
    refused("runebound_coop", doc, "candidates must be")


def test_runebound_a_pool_with_bits_beyond_its_tokens_is_refused() -> None:
    doc = _fight()
    doc["data"]["fight"]["hero_pool"]["spent"] = 1 << 20
    refused("runebound_coop", doc, "bits beyond")


@pytest.mark.parametrize(("field", "value", "needle"), [("turn", 5, "turn 5"), ("passed", -1, "passed -1")])
def test_runebound_an_unchecked_turn_is_refused(field: str, value: int, needle: str) -> None:
    doc = _fight()
    doc["data"]["fight"][field] = value
    refused("runebound_coop", doc, needle)


@pytest.mark.parametrize("round_", [0, 11, 2**40])
def test_runebound_a_round_outside_max_rounds_is_refused(round_: int) -> None:
    doc = _fight()
    doc["data"]["pos"]["round"] = round_
    refused("runebound_coop", doc, f"round {round_}")


def test_runebound_a_fight_against_an_enemy_out_of_order_is_refused() -> None:
    doc = _fight()
    doc["data"]["fight"]["enemy"] = 1 - doc["data"]["fight"]["enemy"]
    refused("runebound_coop", doc, "not the next undefeated enemy")


# ----- Unrest: draws, Area of Interest, liberations, winner, facings ----------------------------------------------


def _unrest(step: str) -> dict[str, Any]:
    return find("unrest", lambda s: s.pos.step == step and s.pos.round >= 2 and not s.final)


def test_unrest_cards_to_draw_outside_the_draw_step_are_refused() -> None:
    # to_draw = 1 at the wrong step (or 0 at the draw step) left a non-terminal state with no legal action.
    doc = _unrest("plan")
    doc["data"]["to_draw"] = 1
    refused("unrest", doc, "cards to draw")
    doc = _unrest("draw")
    doc["data"]["to_draw"] = 0
    refused("unrest", doc, "cards to draw|cards drawn")


def test_unrest_a_duplicate_area_of_interest_is_refused() -> None:
    # Duplicate entries gave duplicate legal actions.
    doc = _unrest("place")
    doc["data"]["aoi"] = [doc["data"]["aoi"][0]] * 2
    refused("unrest", doc, "Area of Interest")


@pytest.mark.parametrize("freed", [-1, 99])
def test_unrest_a_liberation_round_out_of_range_is_refused(freed: int) -> None:
    doc = _unrest("plan")
    doc["data"]["freed"][0] = freed
    refused("unrest", doc, "freed in round")


def test_unrest_a_winner_in_an_undecided_position_is_refused() -> None:
    doc = _unrest("plan")
    doc["data"]["winner"] = 1
    refused("unrest", doc, "winner is decided")


def test_unrest_a_plan_facing_that_contradicts_the_log_is_refused() -> None:
    doc = find("unrest", lambda s: s.pos.step == "defend" and any(p is not None and not p.revealed for p in s.plan))
    slot = next(i for i, p in enumerate(doc["data"]["plan"]) if p is not None and not p["revealed"])
    doc["data"]["plan"][slot]["revealed"] = True
    refused("unrest", doc, "plan slot")


def test_unrest_missions_that_contradict_earlier_liberation_checks_are_refused() -> None:
    # Mission ids changed under a played game made determinize fail (no deal fits the truth's own history):
    # such a state is refused, and any that loads determinizes for both seats.
    game = GAMES["unrest"]
    refusals = 0
    for seed in range(4):
        for state in sample_states(game, seed, 4):
            doc = json.loads(to_json(state))
            for i in range(1, len(doc["data"]["missions"])):
                for m in range(1, 9):
                    mutant = json.loads(json.dumps(doc))
                    mutant["data"]["missions"][i] = m
                    try:
                        loaded = from_json(game, json.dumps(mutant))
                    except StateFormatError:
                        refusals += 1
                        continue
                    for player in (0, 1):
                        game.determinize(loaded, player, np.random.default_rng(seed))
    assert refusals


@pytest.mark.parametrize(("field", "name"), [("heroes", ""), ("enemies", ""), ("heroes", "Nobody")])
def test_runebound_a_record_naming_an_unknown_hero_or_enemy_is_refused(field: str, name: str) -> None:
    # Found by the long fuzz profile: replay built the game from the record's options and the setup's ValueError
    # (an unknown hero) escaped as itself.
    game = GAMES["runebound_coop"]
    agents = [RandomAgent() for _ in range(game.num_players(game.new_game()))]
    doc = json.loads(play(game, agents, 0)[1].to_json())
    doc["record"]["options"][field][0] = name
    with pytest.raises(StateFormatError, match="record options are invalid"):
        replay(json.dumps(doc), game)


# ----- the size check is its definition -------------------------------------------------------------------------


def _breaks_a_bound(value: Any, strings: bool, depth: int = 0) -> bool:
    """Whether ``value`` breaks a bound of :func:`check_sizes`, by the definition (recursive, no shortcut)."""
    if type(value) is str:
        return strings and len(value) > MAX_STRING
    if type(value) is list:
        return depth >= MAX_DEPTH or len(value) > MAX_LIST or any(_breaks_a_bound(v, strings, depth + 1) for v in value)
    if type(value) is dict:
        return (
            depth >= MAX_DEPTH
            or len(value) > MAX_KEYS
            or (strings and any(len(k) > MAX_STRING for k in value))
            or any(_breaks_a_bound(v, strings, depth + 1) for v in value.values())
        )
    return False


def _nested(value: Any, depth: int) -> Any:
    for _ in range(depth):
        value = [value]
    return value


#: Values at and just past each bound, and values of every JSON kind, short and long containers (the check looks
#: at containers of up to 32 values one by one and longer ones by their set of kinds).
_EDGES = st.sampled_from(
    [
        "x" * MAX_STRING,
        "x" * (MAX_STRING + 1),
        [0] * MAX_LIST,
        [0] * (MAX_LIST + 1),
        {f"k{i}": i for i in range(MAX_KEYS)},
        {f"k{i}": i for i in range(MAX_KEYS + 1)},
        {"x" * (MAX_STRING + 1): 0},
        _nested(0, MAX_DEPTH - 3),
        _nested(0, MAX_DEPTH - 2),
        [0] * 40 + ["x" * (MAX_STRING + 1)],
        [0] * 40 + [[0]],
    ]
)
_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=5) | _EDGES,
    lambda inner: st.lists(inner, max_size=40) | st.dictionaries(st.text(max_size=3), inner, max_size=6),
    max_leaves=20,
)


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(value=_JSON, strings=st.booleans())
def test_the_size_check_refuses_exactly_what_breaks_a_bound(value: Any, strings: bool) -> None:
    if _breaks_a_bound(value, strings):
        with pytest.raises(StateFormatError):
            check_sizes(value, strings=strings)
    else:
        check_sizes(value, strings=strings)
