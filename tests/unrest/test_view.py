"""Hidden information: what each player sees, leak tests, the tensor, and the Empire's determinizer."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import permutations

import attrs
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import unrest
from tabletop_core import RandomAgent, TabletopError, play
from tests.playouts import random_moves, random_playout
from tests.unrest.helpers import (
    CAPITOL,
    COUP,
    ESPIONAGE,
    FORTIFIED,
    PEACE,
    PLENTY,
    PLOT,
    POLICE,
    REVOLUTION,
    TRUTH,
    act,
    cards,
    destroyed_early,
    final_placement,
    plan,
    stack,
    strings,
    table,
)
from unrest.actions import Action
from unrest.invariants import validate_table
from unrest.rules.cards import MISDIRECTION, card_name, parse_card
from unrest.rules.liberation import met_missions
from unrest.rules.missions import MISSIONS
from unrest.state import EMPIRE, REBELLION, Destroyed, StackCard, UnrestState
from unrest.view import HIDDEN, OBSERVATION_SHAPE


def sample_states(seed: int, every: int = 3) -> list[UnrestState]:
    """States along a random game (every ``every``-th decision node)."""
    rng = np.random.default_rng(seed)

    def randomly(state: UnrestState, legal: Sequence[Action]) -> Action:
        return RandomAgent().act(None, legal, rng)

    states = list(random_playout(unrest.GAME, unrest.new_game(seed=seed), rng, choose=randomly, chance="settle"))
    return [s for i, s in enumerate(states[:-1]) if unrest.current_player(s) >= 0 and i % every == 0] + states[-1:]


def planned() -> UnrestState:
    return act(table(hand="2I 3U 4D 5S 6I"), "target Peace", "plan 2I hidden", "plan 3U hidden", "plan 4D revealed")


def test_observe_empire_sees_revealed_cards_and_where_hidden_cards_lie() -> None:
    state = table(hand="2I 3U", stacks={PEACE: stack("(5D) 3S"), CAPITOL: stack("(M)")}, rnd=2)
    view = unrest.observe(state, EMPIRE)
    assert view.hand == () and view.hand_size == 2 and view.deck_size == sum(state.deck)
    assert [(c.card, c.revealed) for c in view.stacks[PEACE]] == [(HIDDEN, False), (parse_card("3S"), True)]
    assert [c.card for c in view.stacks[CAPITOL]] == [HIDDEN]
    rebel = unrest.observe(state, REBELLION)
    assert rebel.hand == cards("2I 3U") and rebel.stacks[PEACE][0].card == parse_card("5D")
    assert not hasattr(rebel, "deck")


def test_observe_empire_sees_planned_facings_only() -> None:
    view = unrest.observe(planned(), EMPIRE)
    assert [(p.card, p.revealed) for p in view.plan if p] == [
        (HIDDEN, False),
        (HIDDEN, False),
        (parse_card("4D"), True),
    ]


def test_observe_destroyed_hidden_card_stays_unseen_by_the_empire() -> None:
    state = act(planned(), "destroy card 1")
    assert unrest.observe(state, EMPIRE).destroyed[0].card == HIDDEN
    assert unrest.observe(state, REBELLION).destroyed[0].card == parse_card("2I")


def test_observe_is_hashable_and_tensor_has_the_spec_shape() -> None:
    for state in sample_states(1, every=5):
        for player in (REBELLION, EMPIRE):
            view = unrest.observe(state, player)
            assert hash(view) == hash(unrest.observe(state, player))
            tensor = unrest.observation_tensor(state, player)
            assert tensor.shape == OBSERVATION_SHAPE and tensor.dtype == np.float32


# ----- leak tests: states that differ only in what the Empire cannot see
# ----------------------------------------


def _swap_hidden(state: UnrestState) -> UnrestState:
    """Swap the card under the first hidden plan slot with a hand card of another kind (a fact the Empire
    cannot see)."""
    slot = next(i for i, p in enumerate(state.plan) if p is not None and not p.revealed)
    old = state.plan[slot]
    assert old is not None
    new_kind = next(k for k in state.hand if k != old.card)
    hand = list(state.hand)
    hand.remove(new_kind)
    hand.append(old.card)
    plan_ = list(state.plan)
    plan_[slot] = attrs.evolve(old, card=new_kind)
    return attrs.evolve(state, hand=tuple(sorted(hand)), plan=tuple(plan_))


def test_leak_hidden_plan_and_hand_swap_gives_equal_empire_views() -> None:
    a = planned()
    b = _swap_hidden(a)
    assert a != b
    assert unrest.observe(a, EMPIRE) == unrest.observe(b, EMPIRE)
    assert np.array_equal(unrest.observation_tensor(a, EMPIRE), unrest.observation_tensor(b, EMPIRE))
    assert unrest.observe(a, REBELLION) != unrest.observe(b, REBELLION)


def test_leak_hidden_stack_card_and_deck_swap_gives_equal_empire_views() -> None:
    a = table(hand="2I 3U 4D 5S 6I", stacks={PEACE: stack("(5D) 3S")}, rnd=2)
    b = table(hand="2I 3U 4D 5S 6I", stacks={PEACE: stack("(6D) 3S")}, rnd=2)
    assert a.deck != b.deck
    assert unrest.observe(a, EMPIRE) == unrest.observe(b, EMPIRE)
    assert np.array_equal(unrest.observation_tensor(a, EMPIRE), unrest.observation_tensor(b, EMPIRE))
    # The Rebellion sees its stacks; neither player sees the deck order (there is none) or contents.
    assert unrest.observe(a, REBELLION) != unrest.observe(b, REBELLION)


def test_leak_deck_contents_are_invisible_to_both_players_beyond_their_size() -> None:
    a = table(hand="2I 3U 4D 5S 6I", deck="M 2S")
    b = table(hand="2I 3U 4D 5S 6I", deck="3S 2S")
    for player in (REBELLION, EMPIRE):
        assert unrest.observe(a, player) == unrest.observe(b, player)


@given(seed=st.integers(0, 10_000), pick=st.integers(0, 1_000))
def test_leak_determinized_states_keep_the_empire_view_and_tensor(seed: int, pick: int) -> None:
    states = sample_states(seed, every=4)
    state = states[pick % len(states)]
    det = unrest.determinize(state, EMPIRE, np.random.default_rng(seed))
    assert unrest.observe(det, EMPIRE) == unrest.observe(state, EMPIRE)
    assert np.array_equal(unrest.observation_tensor(det, EMPIRE), unrest.observation_tensor(state, EMPIRE))
    unrest.GAME.validate_state(det)
    if not unrest.is_terminal(det):
        assert unrest.legal_actions(det)


def test_determinize_for_the_rebellion_is_the_state() -> None:
    state = planned()
    assert unrest.determinize(state, REBELLION, np.random.default_rng(0)) is state


def test_determinize_varies_the_hidden_cards() -> None:
    state = planned()
    seen = {unrest.determinize(state, EMPIRE, np.random.default_rng(s)).plan[0] for s in range(30)}
    assert len(seen) > 5


def test_determinize_destroyed_hidden_card_is_not_misdirection() -> None:
    state = act(planned(), "destroy card 1")
    for s in range(200):
        det = unrest.determinize(state, EMPIRE, np.random.default_rng(s))
        assert det.destroyed[0].card != MISDIRECTION


def test_determinize_unliberated_stacks_meet_no_mission_at_past_round_ends() -> None:
    # Peace holds a revealed 4I and a hidden card from round 1; Espionage is on the table, so the hidden card
    # cannot be a Disruption of 4 or more (Peace would have been liberated at the end of round 1).
    state = table(
        hand="2I 3U 5S 6I 2S",
        stacks={PEACE: stack("4I (4D)")},
        rnd=2,
        missions=(REVOLUTION, ESPIONAGE, COUP, PLOT),
    )
    for s in range(300):
        det = unrest.determinize(state, EMPIRE, np.random.default_rng(s))
        assert not any(m.is_met(det.stacks[PEACE]) for m in (MISSIONS[ESPIONAGE],))


def test_determinize_all_hidden_final_plan_is_all_misdirection() -> None:
    state = table(
        hand="M M M",
        deck="",
        rnd=8,
        step="plan",
        final=True,
        tokens=(True,) * 4,
        destroyed=destroyed_early(range(21)),
        missions=(REVOLUTION, ESPIONAGE, COUP, PLOT),
        row=(PLENTY, PEACE, CAPITOL, POLICE, TRUTH),
    )
    state = act(state, "plan M hidden", "plan M hidden", "plan M hidden")
    assert unrest.current_player(state) == EMPIRE
    det = unrest.determinize(state, EMPIRE, np.random.default_rng(0))
    assert all(p is not None and p.card == MISDIRECTION for p in det.plan)


# ----- the posterior test
# ---------------------------------------------------------------------------------------

UNSEEN = ("M", "M", "4D", "6I", "3U")
PLACES = ("plan 1", "plan 2", "Peace", "Police", "destroyed")


def posterior_position() -> UnrestState:
    """Final Encounter, Empire to act. Unseen: two Misdirection, 4D, 6I, 3U, in five places: the two hidden
    plan slots, a hidden card in Peace (round 6, beside a revealed 4I), a hidden card in Police (round 7,
    beside revealed 3I and 3S) and a hidden destroyed card. Every other card is revealed (destroyed)."""
    hidden = dict(zip(PLACES, ("M", "6I", "4D", "M", "3U"), strict=True))  # the truth
    shown = {"2S", "4I", "3I", "3S", *(f"{v}{s}" for v in range(2, 7) for s in "IUDS")}
    shown -= {"4D", "6I", "3U"}
    stacks = {
        PEACE: (StackCard(parse_card("4I"), True, 6), StackCard(parse_card(hidden["Peace"]), False, 6)),
        POLICE: (
            StackCard(parse_card("3I"), True, 7),
            StackCard(parse_card("3S"), True, 7),
            StackCard(parse_card(hidden["Police"]), False, 7),
        ),
    }
    rest = [*sorted(shown - {"2S", "4I", "3I", "3S"}), "M", "M"]
    destroyed = [*destroyed_early(parse_card(n) for n in rest), Destroyed(parse_card(hidden["destroyed"]), False, 5)]
    return table(
        hand="",
        deck="",
        stacks=stacks,
        planned=plan(f"({hidden['plan 1']}) ({hidden['plan 2']}) 2S"),
        destroyed=destroyed,
        rnd=8,
        step="defend",
        final=True,
        missions=(REVOLUTION, ESPIONAGE, COUP, PLOT),
    )


def exact_posterior() -> dict[tuple[str, str], float]:
    """Enumerate every arrangement of the five physical unseen cards (the two Misdirection cards distinct)."""
    counts: Counter[tuple[str, str]] = Counter()
    total = 0
    for perm in permutations(range(5)):
        deal = {place: UNSEEN[i] for place, i in zip(PLACES, perm, strict=True)}
        if deal["destroyed"] == "M":  # a destroyed Misdirection is revealed
            continue
        if deal["Peace"] == "4D":  # 4I + 4D meets Espionage: Peace would have been liberated in round 6
            continue
        if deal["Police"] == "3U":  # three 3s meet Coordinated Plot: liberated in round 7
            continue
        total += 1
        counts.update(deal.items())
    return {key: n / total for key, n in counts.items()}


def observed(det: UnrestState) -> dict[str, str]:
    from unrest.rules.cards import card_name

    plan_cards = [p for p in det.plan if p is not None]
    return {
        "plan 1": card_name(plan_cards[0].card),
        "plan 2": card_name(plan_cards[1].card),
        "Peace": card_name(det.stacks[PEACE][1].card),
        "Police": card_name(det.stacks[POLICE][2].card),
        "destroyed": card_name(det.destroyed[-1].card),
    }


def test_determinize_frequencies_match_the_exact_posterior() -> None:
    state = posterior_position()
    # No play reaches this table (most of the deck destroyed face up by round 8; the Empire destroys one card a
    # round at most), so loading it would refuse its history (empty log); the table is one the rules allow,
    # which is what the posterior needs.
    validate_table(state)
    with pytest.raises(ValueError):
        unrest.GAME.validate_state(state)
    exact = exact_posterior()
    rng = np.random.default_rng(2024)
    n = 4000
    counts: Counter[tuple[str, str]] = Counter()
    for _ in range(n):
        counts.update(observed(unrest.determinize(state, EMPIRE, rng)).items())
    keys = set(exact) | set(counts)
    for key in keys:
        assert abs(counts[key] / n - exact.get(key, 0.0)) < 0.03, (key, counts[key] / n, exact.get(key, 0.0))
    # Impossible deals never appear.
    assert counts[("destroyed", "M")] == 0 and counts[("Peace", "4D")] == 0 and counts[("Police", "3U")] == 0


def test_leak_random_play_views_never_show_hidden_kinds() -> None:
    final, _ = play(unrest.GAME, [RandomAgent(), RandomAgent()], seed=5)
    view = unrest.observe(final, EMPIRE)
    for s, truth in zip(view.stacks, final.stacks, strict=True):
        for seen, card in zip(s, truth, strict=True):
            assert (seen.card == HIDDEN) == (not card.revealed)


def test_determinize_at_a_proof_decision_keeps_the_proof_open() -> None:
    state = table(
        hand="6U 6S",
        planned=plan("(5D) 2I"),
        stacks={PEACE: stack("(3I) (4I)")},
        rnd=2,
        step="place",
        aoi=(PEACE, CAPITOL),
        tokens=(False, False, True, True),
        missions=(REVOLUTION, ESPIONAGE, COUP, 5),
    )
    state = act(state, "place 5D in Peace", "place 2I in Peace")
    assert state.step == "liberate" and unrest.current_player(state) == REBELLION
    view = unrest.observe(state, EMPIRE)
    assert view.proving == PEACE and view.may_reveal == ()
    choices = set()
    for s in range(100):
        det = unrest.determinize(state, EMPIRE, np.random.default_rng(s))
        assert unrest.observe(det, EMPIRE) == view
        # The District being proven meets a Mission, and its proof has a next card, in every determinization.
        assert met_missions(det, PEACE)
        choices.add(len(unrest.legal_actions(det)))
    # Whether the Rebellion has a choice is hidden from the Empire: both kinds of deal are drawn.
    assert choices >= {1, 2}


def test_render_shows_the_empire_only_its_view() -> None:
    state = act(planned(), "reroute card 1 to Truth")
    empire = unrest.render(state, EMPIRE)
    assert "Ministry of Truth: (??)" in empire and "Hand: 2 cards" in empire and "5S" not in empire
    rebel = unrest.render(state, REBELLION)
    assert "Ministry of Truth: (2I)" in rebel and "Hand: 6I 5S" in rebel and "Deck" not in rebel
    assert "Deck (unordered)" in unrest.render(state)


def test_determinize_that_gives_up_raises_instead_of_leaking_the_truth(monkeypatch: pytest.MonkeyPatch) -> None:
    import unrest.determinization as det_module

    monkeypatch.setattr(det_module, "MAX_TRIES", 0)
    with pytest.raises(TabletopError, match="refusing to return the true state"):
        unrest.determinize(planned(), EMPIRE, np.random.default_rng(0))


@pytest.mark.parametrize("player", [-1, 2, -4, True])
def test_observe_and_determinize_refuse_a_player_that_is_not_a_seat(player: int) -> None:
    # CHANCE (-1) or TERMINAL (-4), as current_player returns them, would otherwise get the whole truth back.
    state = planned()
    for call in (
        lambda: unrest.observe(state, player),
        lambda: unrest.observation_tensor(state, player),
        lambda: unrest.determinize(state, player, np.random.default_rng(0)),
        lambda: unrest.render(state, player),
    ):
        with pytest.raises(ValueError, match=f"no player {player!r}"):
            call()


def _shuffle_unseen(state: UnrestState, rng: np.random.Generator) -> UnrestState:
    """Deal every card the Empire has not seen face up to a random unseen place (hand, deck, hidden planned,
    stacked or destroyed cards), ignoring every rule: a view that depends on any of them differs."""
    cards_: list[int] = [*state.hand]
    cards_ += [k for k, n in enumerate(state.deck) for _ in range(n)]
    cards_ += [p.card for p in state.plan if p is not None and not p.revealed]
    cards_ += [c.card for s in state.stacks for c in s if not c.revealed]
    cards_ += [x.card for x in state.destroyed if not x.revealed]
    it = iter(rng.permutation(np.array(cards_, dtype=np.int64)).tolist())
    hand = tuple(sorted(next(it) for _ in state.hand))
    deck = [0] * len(state.deck)
    for _ in range(sum(state.deck)):
        deck[next(it)] += 1
    plan_ = tuple(p if p is None or p.revealed else attrs.evolve(p, card=next(it)) for p in state.plan)
    stacks = tuple(tuple(c if c.revealed else attrs.evolve(c, card=next(it)) for c in s) for s in state.stacks)
    destroyed = tuple(x if x.revealed else attrs.evolve(x, card=next(it)) for x in state.destroyed)
    return attrs.evolve(state, hand=hand, deck=tuple(deck), plan=plan_, stacks=stacks, destroyed=destroyed)


@given(seed=st.integers(0, 10_000))
def test_leak_any_deal_of_the_unseen_cards_gives_the_same_empire_view_and_tensor(seed: int) -> None:
    rng = np.random.default_rng(seed)
    for state in sample_states(seed, every=7):
        other = _shuffle_unseen(state, rng)
        assert unrest.observe(other, EMPIRE) == unrest.observe(state, EMPIRE)
        assert np.array_equal(unrest.observation_tensor(other, EMPIRE), unrest.observation_tensor(state, EMPIRE))
        assert unrest.render(other, EMPIRE) == unrest.render(state, EMPIRE)
        assert unrest.information_state(other, EMPIRE) == unrest.information_state(state, EMPIRE)
        assert np.array_equal(
            unrest.information_state_tensor(other, EMPIRE), unrest.information_state_tensor(state, EMPIRE)
        )


def test_determinize_at_a_proof_decision_matches_the_exact_posterior() -> None:
    # Final Encounter. Unseen: M, 3I, 4I, 5D, 6U. Places: Peace's two hidden round-6 cards, the 5D just placed
    # hidden in Peace beside a revealed 2I, a hidden round-7 card in Plenty beside a revealed 4D, and a hidden
    # destroyed card. Peace is being proven, nothing turned up yet. The rules, written out by hand below, leave
    # the deals where Peace meets Espionage (the 5D and an Intelligence card in it), its round-6 pair did not
    # (not {4I, 5D}), Plenty never did (not the 4I) and the destroyed card is not the M: all equally likely.
    state = final_placement(
        stacks={PEACE: stack("(3I) (4I)", rnd=6), PLENTY: stack("4D (M)", rnd=7)},
        planned="(5D) 2I",
        hidden_destroyed=[Destroyed(parse_card("6U"), False, 6)],
        missions=(REVOLUTION, ESPIONAGE, COUP, PLOT),
    )
    # No play reaches this table (most of the deck destroyed face up by round 8; the Empire destroys one card a
    # round at most), so loading it would refuse its history (empty log); the table is one the rules allow,
    # which is what the posterior needs.
    validate_table(state)
    with pytest.raises(ValueError):
        unrest.GAME.validate_state(state)
    state = act(state, "place 5D in Peace", "place 2I in Peace")
    assert state.step == "liberate" and unrest.observe(state, EMPIRE).proving == PEACE
    from unrest.rules.cards import card_name

    rng = np.random.default_rng(7)
    n = 2000
    deals: Counter[tuple[str, ...]] = Counter()
    for _ in range(n):
        det = unrest.determinize(state, EMPIRE, rng)
        peace = tuple(card_name(c.card) for c in det.stacks[PEACE][:3])
        deals[(*peace, card_name(det.stacks[PLENTY][1].card), card_name(det.destroyed[-1].card))] += 1
    expected: set[tuple[str, ...]] = set()
    for p0, p1, p2, plenty, gone in permutations(("M", "3I", "4I", "5D", "6U")):
        in_peace = {p0, p1, p2}
        if gone == "M" or plenty == "4I" or {p0, p1} == {"4I", "5D"}:
            continue
        if "5D" in in_peace and in_peace & {"3I", "4I"}:
            expected.add((p0, p1, p2, plenty, gone))
    assert len(expected) == 28
    assert set(deals) == expected
    for deal in expected:
        assert abs(deals[deal] / n - 1 / len(expected)) < 0.02, (deal, deals[deal] / n)


def test_determinize_at_a_proof_that_counts_the_cards_seen_elsewhere_matches_the_exact_posterior() -> None:
    # The proof is minimal against everything the Empire knows, and the determinizer judges
    # each world's proof the same way. Final Encounter; unseen: 2S, 5S, 3I, M (the 6S and every other card face up),
    # the 5S in the Rebellion's hand. Peace holds 4D 4S and a hidden round-7 card X, then gets 6D face up and the
    # hidden M and 3I: Fortified Organizers (Disruption 10 above Supplies). The Rebellion's one minimal proof is
    # {M, 3I}: with both shown the last hidden card is 2S or 5S (4 + 5 < 10); shown in stack order, the M (card 5)
    # first. Seeing the M turned up first, the Empire knows X is not the 3I (the proof would then be {X, M}, X first)
    # nor the M, so X is 2S or 5S and the card in hand the other one: two worlds, equally likely. Were each hidden
    # card any card not seen in Peace (the 6S too), the only proof would be all three cards, X first. (With the 5S
    # destroyed face down instead of in hand, the 3I alone proves it: see test_minimal_proofs.py.)
    state = final_placement(
        hand="5S",
        stacks={PEACE: stack("4D 4S (2S)", rnd=7)},
        planned="6D (M) (3I)",
        missions=(REVOLUTION, FORTIFIED, COUP, PLOT),
    )
    # No play reaches this table (most of the deck destroyed face up by round 8; the Empire destroys one card a
    # round at most), so loading it would refuse its history (empty log); the table is one the rules allow,
    # which is what the posterior needs.
    validate_table(state)
    with pytest.raises(ValueError):
        unrest.GAME.validate_state(state)
    state = act(state, "place 6D in Peace", "place M in Peace", "place 3I in Peace")
    assert state.step == "liberate" and strings(state) == ["reveal M (card 5)"]
    state = act(state, "reveal M (card 5)")
    assert strings(state) == ["reveal 3I (card 6)"]
    rng = np.random.default_rng(13)
    n = 1000
    deals: Counter[tuple[str, str]] = Counter()
    for _ in range(n):
        det = unrest.determinize(state, EMPIRE, rng)
        assert det.pending.top == state.pending.top  # the world's own proof: {M, 3I}, the M shown
        deals[(card_name(det.stacks[PEACE][2].card), card_name(det.hand[0]))] += 1
    assert set(deals) == {("2S", "5S"), ("5S", "2S")}
    assert abs(deals[("2S", "5S")] / n - 0.5) < 0.05


def test_leak_whether_the_rebellion_had_a_choice_of_proof_is_not_seen() -> None:
    # Peace: 3I and a hidden card, then 5D hidden and 2I face up: Espionage. With a 4I as the hidden card the
    # Rebellion may prove with 3I or 4I; with an M only 3I proves it. At the table the Empire sees the same
    # thing either way (the Rebellion turns up 3I and 5D), so the game must not stop for a decision in one
    # case and play the proof by itself in the other: the Empire's views along the same play stay equal.
    def at_place(hidden: str) -> UnrestState:
        return table(
            hand="6U 6S",
            planned=plan("(5D) 2I"),
            stacks={PEACE: stack(f"(3I) ({hidden})")},
            rnd=2,
            step="place",
            aoi=(PEACE, CAPITOL),
            tokens=(False, False, True, True),
            missions=(REVOLUTION, ESPIONAGE, COUP, PLOT),
        )

    a, b = at_place("4I"), at_place("M")
    for move in ("place 5D in Peace", "place 2I in Peace", "reveal 3I (card 1)", "reveal 5D (card 3)"):
        a, b = act(a, move), act(b, move)
        assert unrest.observe(a, EMPIRE) == unrest.observe(b, EMPIRE), move
        assert unrest.current_player(a) == unrest.current_player(b), move
    assert a.liberated == b.liberated == (PEACE,) and a.step == b.step == "draw"


# ----- describe: what each seat learns from a transition, in words ------------------------------------------------


def test_describe_names_cards_to_the_rebellion_and_hides_them_from_the_empire() -> None:
    state = planned()
    after = act(state, "destroy card 1")
    destroy = unrest.parse_action(state, "destroy card 1")
    assert unrest.GAME.describe(state, destroy, after, EMPIRE) == ("you destroy the hidden card 1",)
    assert unrest.GAME.describe(state, destroy, after, REBELLION) == ("the Empire destroys 2 of Intelligence",)
    assert unrest.GAME.describe(state, destroy, after) == ("the Empire destroys 2 of Intelligence",)
    assert [unrest.GAME.seat_name(state, p) for p in (REBELLION, EMPIRE)] == ["Rebellion", "Empire"]
    hand = table(hand="2I 3U 4D 5S 6I")
    aimed = act(hand, "target Peace")
    plan_ = unrest.parse_action(aimed, "plan 5S hidden")
    planned_ = unrest.step(aimed, plan_)
    assert unrest.GAME.describe(aimed, plan_, planned_, EMPIRE) == ("the Rebellion plans a hidden card",)
    assert unrest.GAME.describe(aimed, plan_, planned_, REBELLION) == ("you plan 5 of Supplies hidden",)


def test_describe_a_draw_is_a_card_to_the_empire() -> None:
    state = table(hand="2I 3U", step="draw", rnd=2)
    state = attrs.evolve(state, to_draw=3)
    draw = unrest.parse_action(state, "draw 5S")
    after = unrest.step(state, draw)
    assert unrest.GAME.describe(state, draw, after, REBELLION) == ("you draw 5 of Supplies",)
    assert unrest.GAME.describe(state, draw, after, EMPIRE) == ("the Rebellion draws a card",)


def _twin_action(before: UnrestState, action: object, other: UnrestState) -> object | None:
    """The action in ``other`` that the Empire cannot tell from ``action`` in ``before``."""
    from unrest.actions import DRAWS, Draw, Plan

    if isinstance(action, Plan) and action.hidden:
        return next((Plan(k, True) for k in other.hand if unrest.is_legal(other, Plan(k, True))), None)
    if isinstance(action, Draw):
        return next((DRAWS[k] for k, n in enumerate(other.deck) if n), None)
    return action if unrest.is_legal(other, action) else None  # type: ignore[arg-type]  # an Unrest action


@given(seed=st.integers(0, 10_000))
def test_leak_describe_gives_the_empire_the_same_lines_in_any_deal_of_the_unseen_cards(seed: int) -> None:
    rng = np.random.default_rng(seed)
    compared = 0
    for state, action, after in random_moves(unrest.GAME, unrest.new_game(seed=seed), rng, chance="uniform"):
        if state.round > 0:
            other = _shuffle_unseen(state, rng)
            twin = _twin_action(state, action, other)
            if twin is not None and unrest.observe(other, EMPIRE) == unrest.observe(state, EMPIRE):
                other_after = unrest.step(other, twin)  # type: ignore[arg-type]  # an Unrest action
                if unrest.observe(other_after, EMPIRE) == unrest.observe(after, EMPIRE):
                    mine = unrest.GAME.describe(state, action, after, EMPIRE)
                    assert unrest.GAME.describe(other, twin, other_after, EMPIRE) == mine, mine  # type: ignore[arg-type]  # an Unrest action
                    compared += 1
    assert compared > 10
