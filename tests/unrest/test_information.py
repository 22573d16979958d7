"""The information state: perfect recall for both players, nothing hidden leaks, and the Empire's
determinizations carry a draw order that history allows, drawn uniformly."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import attrs
import numpy as np
import pytest

import unrest
from tabletop_core.errors import StateFormatError
from tabletop_core.serialize import from_json, to_json
from tests.unrest.helpers import (
    CAPITOL,
    COUP,
    ESPIONAGE,
    PEACE,
    PLENTY,
    POLICE,
    REVOLUTION,
    SLEEPER,
    TRUTH,
    act,
    cards,
    game_states,
    plan,
    stack,
    table,
)
from unrest.actions import NUM_MOVE_CODES, PLAN_HIDDEN, Plan, public_code
from unrest.determinization import batch_of, sample_draws
from unrest.limits import MAX_DRAWS, MAX_MOVES
from unrest.rules.cards import KINDS, card_name
from unrest.rules.liberation import met_missions
from unrest.state import EMPIRE, REBELLION, UnrestState
from unrest.view import (
    HIDDEN,
    INFORMATION_STATE_SHAPE,
    OBSERVATION_SHAPE,
    UnrestInformation,
    UnrestView,
)


def decode(tensor: np.ndarray) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """Read the row as laid, the moves and the draws back out of an information state tensor (written
    independently of the code)."""
    n = OBSERVATION_SHAPE[0]
    laid_block = tensor[n : n + 25].reshape(5, 5)
    assert set(np.unique(laid_block).tolist()) <= {0.0, 1.0} and (laid_block.sum(axis=1) <= 1).all()
    laid = tuple(int(row.argmax()) for row in laid_block if row.any())
    n += 25
    moves_block = tensor[n : n + MAX_MOVES * NUM_MOVE_CODES].reshape(MAX_MOVES, NUM_MOVE_CODES)
    n += MAX_MOVES * NUM_MOVE_CODES
    draws_block = tensor[n : n + MAX_DRAWS * KINDS].reshape(MAX_DRAWS, KINDS)
    assert set(np.unique(moves_block).tolist()) <= {0.0, 1.0} and (moves_block.sum(axis=1) <= 1).all()
    assert set(np.unique(draws_block).tolist()) <= {0.0, 1.0} and (draws_block.sum(axis=1) <= 1).all()
    moves = tuple(int(row.argmax()) for row in moves_block if row.any())
    draws = tuple(int(row.argmax()) for row in draws_block if row.any())
    return laid, moves, draws


Seen = tuple[int, bool, int]


def decode_detail(
    tensor: np.ndarray,
) -> tuple[tuple[int, ...], tuple[int, ...], tuple[tuple[Seen, ...], ...], tuple[tuple[int, int], ...], int]:
    """Read the dealt Missions (Revolution first), the liberation rounds, the stacks as (kind or HIDDEN, proved,
    round) by position, the destroyed cards as (kind or HIDDEN, round) and the winner back out of the tensor's last
    block (written independently of the code)."""
    block = tensor[INFORMATION_STATE_SHAPE[0] - (27 + 40 + 5 * 24 * 31 + 24 * 30 + 2) :]
    assert set(np.unique(block).tolist()) <= {0.0, 1.0}
    dealt = block[:27].reshape(3, 9)
    missions = (0, *(int(row.argmax()) for row in dealt if row.any()))
    freed = tuple(int(row.argmax()) + 1 if row.any() else 0 for row in block[27:67].reshape(5, 8))
    stacks = []
    for rows in block[67 : 67 + 5 * 24 * 31].reshape(5, 24, 31):
        stacks.append(
            tuple(
                (int(r[:22].argmax()) if r[21] == 0 else HIDDEN, bool(r[22]), int(r[23:].argmax()) + 1)
                for r in rows
                if r.any()
            )
        )
    n = 67 + 5 * 24 * 31
    destroyed = tuple(
        (int(r[:22].argmax()) if r[21] == 0 else HIDDEN, int(r[22:].argmax()) + 1)
        for r in block[n : n + 24 * 30].reshape(24, 30)
        if r.any()
    )
    won = block[-2:]
    return missions, freed, tuple(stacks), destroyed, int(won.argmax()) if won.any() else -1


def detail_of(view: UnrestView) -> tuple[object, ...]:
    """What :func:`decode_detail` should read for ``view``."""
    stacks = tuple(tuple((c.card, c.proved, c.round) for c in stack) for stack in view.stacks)
    destroyed = tuple((x.card, x.round) for x in view.destroyed)
    return view.missions, view.freed, stacks, destroyed, view.winner


# ----- perfect recall ----------------------------------------------------------------------------------------


def round_one(target: str) -> UnrestState:
    """Round 1 with the Area of Interest on ``target``, three cards into Peace, then the same draws."""
    state = table(hand="2I 4U 6D 3S 5S")
    return act(
        state,
        target,
        "plan 2I hidden",
        "plan 4U hidden",
        "plan 6D revealed",
        "blockade Truth",
        "surveil card 1",
        "place 2I in Peace",
        "place 4U in Peace",
        "place 6D in Peace",
        "draw 2U",
        "draw 3U",
        "draw 4I",
    )


def test_the_information_state_remembers_the_area_of_interest_the_table_forgets() -> None:
    # The Area of Interest on Plenty and Peace, or on Peace and Capitol: the same cards end in Peace, and by round
    # 2 the table (and so both views) is the same. The information states are not: each player saw the target.
    a, b = round_one("target Plenty"), round_one("target Peace")
    assert a.round == b.round == 2 and a.step == b.step == "target"
    assert attrs.evolve(a, moves=b.moves) == b
    for player in (REBELLION, EMPIRE):
        assert unrest.observe(a, player) == unrest.observe(b, player)
        assert unrest.information_state(a, player) != unrest.information_state(b, player)
        tensors = [unrest.information_state_tensor(s, player) for s in (a, b)]
        assert not np.array_equal(tensors[0], tensors[1])


def liberated_peace(row: tuple[int, ...], aoi: tuple[int, ...]) -> UnrestState:
    """Round 2: two cards into Peace complete Espionage; Peace is liberated and the draws follow."""
    state = table(
        hand="6U 6S",
        planned=plan("(5D) 2I"),
        stacks={PEACE: stack("(3I) (M)")},
        missions=(REVOLUTION, ESPIONAGE, COUP, SLEEPER),
        rnd=2,
        step="place",
        aoi=aoi,
        row=row,
        tokens=(False, False, True, True),
    )
    moves = ("place 5D in Peace", "place 2I in Peace", "reveal 3I (card 1)", "reveal 5D (card 3)")
    return act(state, *moves, "draw 2U", "draw 3U", "draw 4U")


def test_the_information_state_remembers_where_a_liberated_district_lay() -> None:
    # Peace laid left or right of the Capitol: once Peace is liberated the row, the stacks and the logged moves are
    # the same, but both players saw the row as it was laid.
    a = liberated_peace((PLENTY, PEACE, CAPITOL, POLICE, TRUTH), (PEACE, CAPITOL))
    b = liberated_peace((PLENTY, CAPITOL, PEACE, POLICE, TRUTH), (CAPITOL, PEACE))
    assert a.freed[PEACE] == b.freed[PEACE] == 2 and a.row == b.row == (PLENTY, CAPITOL, POLICE, TRUTH)
    assert a.moves == b.moves and a.round == b.round == 3
    for player in (REBELLION, EMPIRE):
        assert unrest.observe(a, player) == unrest.observe(b, player)
        assert unrest.information_state(a, player) != unrest.information_state(b, player)
        tensors = [unrest.information_state_tensor(s, player) for s in (a, b)]
        assert not np.array_equal(tensors[0], tensors[1])


def swapped_proof(first: str, second: str) -> UnrestState:
    """Round 1: two hidden cards into Peace, ``first`` below ``second``; they complete Espionage and the proof turns
    them up in stack order."""
    state = table(hand="4I 4D 2U 3S 5S", missions=(REVOLUTION, ESPIONAGE, COUP, SLEEPER))
    return act(
        state,
        "target Peace",
        f"plan {first} hidden",
        f"plan {second} hidden",
        "plan 2U revealed",
        "blockade Truth",
        "reroute card 3 to Police",
        f"place {first} in Peace",
        f"place {second} in Peace",
        f"reveal {first} (card 1)",
        f"reveal {second} (card 2)",
        "draw 2I",
        "draw 3I",
        "draw 5I",
    )


def test_the_tensor_tells_apart_the_order_of_cards_in_a_stack() -> None:
    # The Rebellion planned 4I then 4D, or 4D then 4I (its own choices differ), and the Empire saw the proof turn up
    # 4I first or 4D first. The moves are the same and Peace holds the same two cards, in another order: the tensor
    # must keep the order, as the information state does (and a Reveal names a stack position).
    a, b = swapped_proof("4I", "4D"), swapped_proof("4D", "4I")
    assert a.moves == b.moves and a.freed[PEACE] == b.freed[PEACE] == 1 and a.round == 2
    for player in (REBELLION, EMPIRE):
        assert unrest.information_state(a, player) != unrest.information_state(b, player)
        tensors = [unrest.information_state_tensor(s, player) for s in (a, b)]
        assert not np.array_equal(tensors[0], tensors[1])


def test_the_tensor_keeps_the_order_the_missions_were_dealt_in() -> None:
    start = act(
        unrest.new_game(),
        *("district Plenty", "district Peace", "district Capitol", "district Police", "district Truth"),
        *("draw 2I", "draw 4U", "draw 6D", "draw 3S", "draw 5S"),
    )
    a = act(start, "mission Coup", "mission Coordinated Plot", "mission Sleeper Cell")
    b = act(start, "mission Sleeper Cell", "mission Coordinated Plot", "mission Coup")
    for player in (REBELLION, EMPIRE):
        assert unrest.information_state(a, player) != unrest.information_state(b, player)
        tensors = [unrest.information_state_tensor(s, player) for s in (a, b)]
        assert not np.array_equal(tensors[0], tensors[1])


def test_the_rebellion_remembers_its_draw_order_and_the_empire_never_saw_it() -> None:
    start = unrest.new_game()
    setup = ["district Plenty", "district Peace", "district Capitol", "district Police", "district Truth"]
    hand = ["draw 2I", "draw 4U", "draw 6D", "draw 3S", "draw 5S"]
    missions = ["mission Coup", "mission Coordinated Plot", "mission Sleeper Cell"]
    a = act(start, *setup, *hand, *missions)
    b = act(start, *setup, *reversed(hand), *missions)
    assert a.hand == b.hand and a.draws != b.draws and attrs.evolve(a, draws=b.draws) == b
    assert unrest.information_state(a, EMPIRE) == unrest.information_state(b, EMPIRE)
    assert np.array_equal(unrest.information_state_tensor(a, EMPIRE), unrest.information_state_tensor(b, EMPIRE))
    assert unrest.information_state(a, REBELLION) != unrest.information_state(b, REBELLION)
    assert unrest.information_state(a, REBELLION).draws == cards("2I 4U 6D 3S 5S")


def test_a_hidden_plan_is_logged_without_its_card() -> None:
    base = act(table(hand="2I 4U 6D 3S 5S"), "target Peace")
    a = act(base, "plan 2I hidden")
    b = act(base, "plan 4U hidden")
    assert a.moves[-1] == b.moves[-1] == PLAN_HIDDEN
    assert unrest.information_state(a, EMPIRE) == unrest.information_state(b, EMPIRE)
    revealed = act(base, "plan 2I revealed")
    assert revealed.moves[-1] == public_code(Plan(cards("2I")[0], False)) != PLAN_HIDDEN


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_information_states_extend_the_earlier_ones_and_decode_from_the_tensor(seed: int) -> None:
    states = game_states(seed)
    before: dict[int, UnrestInformation] = {}
    for state in states:
        for player in (REBELLION, EMPIRE):
            info = unrest.information_state(state, player)
            tensor = unrest.information_state_tensor(state, player)
            assert tensor.shape == INFORMATION_STATE_SHAPE and tensor.dtype == np.float32
            assert np.array_equal(tensor[: OBSERVATION_SHAPE[0]], unrest.observation_tensor(state, player))
            assert decode(tensor) == (info.laid, info.moves, info.draws)
            assert decode_detail(tensor) == detail_of(info.view)
            assert info.draws == (state.draws if player == REBELLION else ())
            old = before.get(player)
            if old is not None:
                assert info.moves[: len(old.moves)] == old.moves
                assert info.draws[: len(old.draws)] == old.draws
            before[player] = info
    last = states[-1]
    decisions = sum(1 for s in states[:-1] if unrest.current_player(s) >= 0)
    assert len(last.moves) == decisions and len(last.draws) == 24 - last.deck_size


def test_every_decision_of_a_game_fits_the_tensor() -> None:
    # MAX_MOVES is a true bound: the longest of many random games stays within it.
    longest = max(len(game_states(seed)[-1].moves) for seed in range(40))
    assert longest <= MAX_MOVES


# ----- the draw order of a determinization --------------------------------------------------------------------


def drawn_position() -> UnrestState:
    """Round 2, planning: three cards placed in round 1 (so drawn in the opening hand) and five in hand.

    Played from the start of round 1 (the log must show how the cards reached Peace): the Empire blockades Plenty
    and reroutes the first planned card to Peace, the Rebellion places the other two there.
    """
    state = act(
        table(hand="2U 4S 5I 2I 3U"),
        "target Plenty",
        "plan 2U hidden",
        "plan 4S revealed",
        "plan 5I hidden",
        "blockade Plenty",
        "reroute card 1 to Peace",
        "place 4S in Peace",
        "place 5I in Peace",
        "draw 4D",
        "draw 5S",
        "draw 6I",
        "target Plenty",
    )
    assert state.stacks[PEACE] == stack("(2U) 4S (5I)", rnd=1) and state.hand == tuple(sorted(cards("2I 3U 4D 5S 6I")))
    return state


def test_sample_draws_is_uniform_over_the_orders_history_allows() -> None:
    state = drawn_position()
    unrest.GAME.validate_state(state)
    hand = [card_name(k) for k in state.hand]
    rng = np.random.default_rng(11)
    n = 6000
    pairs: Counter[frozenset[str]] = Counter()
    first: Counter[str] = Counter()
    for _ in range(n):
        draws = sample_draws(state, rng)
        names = [card_name(k) for k in draws]
        opening, end_of_round_1 = names[:5], names[5:]
        # The round-1 cards were in the opening hand; two of the five in hand joined them, any two equally likely.
        assert {"2U", "4S", "5I"} <= set(opening) and len(end_of_round_1) == 3
        pairs[frozenset(set(opening) - {"2U", "4S", "5I"})] += 1
        first[names[0]] += 1
        unrest.GAME.validate_state(attrs.evolve(state, draws=draws))
    assert set(pairs) == {frozenset(p) for p in combinations(hand, 2)}
    for count in pairs.values():
        assert abs(count / n - 1 / 10) < 0.02
    # Within a batch every order is equally likely: each opening card is first with chance 1/5 x P(in opening).
    for name in ("2U", "4S", "5I"):
        assert abs(first[name] / n - 1 / 5) < 0.02
    for name in hand:
        assert abs(first[name] / n - (2 / 5) / 5) < 0.015


def test_the_empires_worlds_carry_a_resampled_draw_order() -> None:
    states = [s for s in game_states(4) if s.round >= 3 and unrest.current_player(s) == EMPIRE]
    state = states[0]
    rng = np.random.default_rng(5)
    orders = set()
    for _ in range(200):
        world = unrest.determinize(state, EMPIRE, rng)
        unrest.GAME.validate_state(world)
        assert unrest.information_state(world, EMPIRE) == unrest.information_state(state, EMPIRE)
        assert [batch_of(i) for i in range(len(world.draws))] == [batch_of(i) for i in range(len(state.draws))]
        orders.add(world.draws)
    assert len(orders) > 150  # drawn afresh each time, not copied from the truth


def test_when_the_rebellion_wins_the_districts_left_of_the_last_liberation_met_no_mission() -> None:
    # Round 3: the M hidden in Peace and the 2S and 4D into the Capitol; the Capitol meets Espionage and is the third
    # District liberated, so the game ends. The check ran left to right: Peace (3I 4U 5S and the hidden card) met no
    # Mission, else it would have been liberated first. The Empire's worlds must not put a 2 or a 6 there (Sleeper
    # Cell).
    state = table(
        hand="6U 6S",
        planned=plan("(M) (2S) 4D"),
        stacks={PEACE: stack("3I 4U 5S"), CAPITOL: stack("4I", rnd=2)},
        missions=(REVOLUTION, ESPIONAGE, COUP, SLEEPER),
        rnd=3,
        step="place",
        aoi=(PEACE, CAPITOL),
        row=(PLENTY, PEACE, CAPITOL),
        freed={POLICE: 1, TRUTH: 2},
    )
    state = act(state, "place M in Peace", "place 2S in Capitol", "place 4D in Capitol")
    assert unrest.is_terminal(state) and state.winner == REBELLION and state.freed[CAPITOL] == 3
    rng = np.random.default_rng(3)
    for _ in range(200):
        world = unrest.determinize(state, EMPIRE, rng)
        assert not met_missions(world, PEACE), unrest.render(world)
        assert unrest.information_state(world, EMPIRE) == unrest.information_state(state, EMPIRE)


# ----- malformed logs are refused -----------------------------------------------------------------------------


def _tampered(what: str) -> UnrestState:
    state = drawn_position()
    if what == "draws not the cards gone from the deck":
        return attrs.evolve(state, draws=state.draws[:-1])
    if what == "a card drawn after it was planned":
        # The round-1 cards moved to the end of round 1's draw: too late to have been planned in round 1.
        return attrs.evolve(state, draws=(*state.draws[3:], *state.draws[:3]))
    if what == "a row that is not the row as laid":
        return attrs.evolve(state, laid=(*state.laid[1:], state.laid[0]))
    if what == "a move code out of range":
        return attrs.evolve(state, moves=(NUM_MOVE_CODES,))
    return attrs.evolve(state, moves=(0,) * (MAX_MOVES + 1))


@pytest.mark.parametrize(
    "what",
    [
        "draws not the cards gone from the deck",
        "a card drawn after it was planned",
        "a move code out of range",
        "more moves than a game holds",
        "a row that is not the row as laid",
    ],
)
def test_a_saved_game_with_an_impossible_log_is_refused(what: str) -> None:
    assert from_json(unrest.GAME, to_json(drawn_position())) == drawn_position()
    bad = _tampered(what)
    with pytest.raises(StateFormatError, match="inconsistent state"):
        from_json(unrest.GAME, to_json(bad))


def laying(variant: str, row: tuple[int, ...]) -> UnrestState:
    """The setup while the row is being laid, ``row`` laid so far."""
    return attrs.evolve(unrest.GAME.initial_state(unrest.UnrestOptions(variant)), row=row, laid=row)


@pytest.mark.parametrize(
    ("variant", "row"),
    [
        ("standard", (PEACE, PEACE)),
        ("standard", (PLENTY, 7)),
        ("capitol", (CAPITOL,)),
        ("capitol", (PLENTY, PEACE)),
        ("capitol", (PLENTY, CAPITOL, PEACE)),
        ("capitol", (PLENTY, PEACE, POLICE)),
    ],
)
def test_a_row_no_setup_lays_is_refused_while_it_is_laid(variant: str, row: tuple[int, ...]) -> None:
    # Each District is laid once; the Capitol variant lays the Capitol third, right after the second District.
    with pytest.raises(StateFormatError, match="inconsistent state"):
        from_json(unrest.GAME, to_json(laying(variant, row)))


def test_every_row_setup_lays_loads() -> None:
    for variant in ("standard", "capitol"):
        state = unrest.GAME.initial_state(unrest.UnrestOptions(variant))
        while state.step == "districts":
            assert from_json(unrest.GAME, to_json(state)) == state
            state = unrest.step(state, unrest.legal_actions(state)[-1])


def test_a_decision_logged_during_setup_is_refused() -> None:
    start = unrest.new_game()
    assert from_json(unrest.GAME, to_json(start)) == start
    with pytest.raises(StateFormatError, match="inconsistent state"):
        from_json(unrest.GAME, to_json(attrs.evolve(start, moves=(0,))))


def test_the_hand_written_copy_keeps_every_field() -> None:
    state = next(s for s in game_states(6) if s.round >= 3 and s.step == "place")
    assert state.logged(7) == attrs.evolve(state, moves=(*state.moves, 7))
    # logged() lists the fields by position: a new field must be added there too.
    assert [f.name for f in attrs.fields(UnrestState)][-3:] == ["moves", "draws", "laid"]
    assert len(attrs.fields(UnrestState)) == 21
