"""The rulebook's Play Sample, move by move, in a game played from its setup.

The Sample describes one round: the Rebellion already has a hidden 3 of Intelligence in the rightmost District,
and all four Empire Power tokens are face up at its start (so that afterwards "The Empire has access to their
Destroy and Blockade actions in the next round"). Such a round can first be round 3: rounds 1 and 2 below put
the 3I there and use all four tokens, by the rules, from a setup whose every chance outcome is named. Then
round 3 follows the Sample's five steps, checking what each player sees.
"""

from __future__ import annotations

import unrest
from tests.unrest.helpers import CAPITOL, COUP, ESPIONAGE, PEACE, PLENTY, POLICE, REVOLUTION, TRUTH, act, cards, strings
from unrest.state import BLOCKADE, DESTROY, EMPIRE, REBELLION, StackCard, UnrestState
from unrest.view import HIDDEN

CIVIL = 8


def seen(state: UnrestState, district: int, player: int = EMPIRE) -> list[tuple[int, bool]]:
    """The cards of ``district`` as ``player`` sees them: (kind or HIDDEN, face up)."""
    return [(c.card, c.revealed) for c in unrest.observe(state, player).stacks[district]]


def before_the_sample() -> UnrestState:
    """Setup and rounds 1-2 of a legal game leading to the Sample's round."""
    state = unrest.new_game()
    # Setup: the row left to right, the opening hand, then the three Missions beneath the Revolution.
    state = act(state, *(f"district {d}" for d in ("Plenty", "Peace", "Capitol", "Police", "Truth")))
    state = act(state, "draw 3I", "draw 2S", "draw 4S", "draw 6U", "draw 5U")
    state = act(state, "mission Espionage", "mission Coup", "mission Civil Disobedience")
    assert state.round == 1 and state.row == (PLENTY, PEACE, CAPITOL, POLICE, TRUTH)
    assert state.missions == (REVOLUTION, ESPIONAGE, COUP, CIVIL)
    # Round 1: the 3I goes hidden into the rightmost District; the Empire uses Destroy and Blockade.
    state = act(state, "target Police", "plan 3I hidden", "plan 2S hidden", "plan 4S revealed")
    state = act(state, "destroy card 2", "blockade Plenty")
    state = act(state, "place 3I in Truth", "place 4S in Police")
    state = act(state, "draw 4U", "draw 5D", "draw 2I")
    assert state.tokens == (True, False, True, False)
    # Round 2: elsewhere; the Empire uses its other two tokens, Surveil and Reroute.
    state = act(state, "target Plenty", "plan 6U hidden", "plan 4U hidden", "plan 5U revealed")
    state = act(state, "surveil card 1", "reroute card 3 to Capitol")
    state = act(state, "place 6U in Plenty", "place 4U in Peace")
    assert state.liberated == ()
    # All four tokens were used over two rounds: they flip back face up.
    assert state.tokens == (True, True, True, True)
    return act(state, "draw 3S", "draw 2U", "draw 6S")


def test_play_sample() -> None:
    state = before_the_sample()
    assert state.round == 3 and state.step == "target"
    assert state.hand == tuple(sorted(cards("5D 2I 3S 2U 6S")))
    # The 3I lies hidden in the rightmost District: the Rebellion sees it, the Empire does not.
    assert seen(state, TRUTH, REBELLION) == [(cards("3I")[0], False)]
    assert seen(state, TRUTH) == [(HIDDEN, False)]

    # 1. "The Rebellion places the Area of Interest token between the two rightmost Districts. They then choose
    #    3 cards from their hand of 5. They play two cards hidden-the 5 of Disruption and the 2 of
    #    Intelligence, and one card revealed-the 3 of Supplies."
    assert len(state.hand) == 5
    state = act(state, "target Police")
    assert state.aoi == (POLICE, TRUTH) == state.row[-2:]
    state = act(state, "plan 5D hidden", "plan 2I hidden", "plan 3S revealed")
    assert unrest.current_player(state) == EMPIRE
    empire = unrest.observe(state, EMPIRE)
    assert [(p.card, p.revealed) for p in empire.plan if p is not None] == [
        (HIDDEN, False),
        (HIDDEN, False),
        (cards("3S")[0], True),
    ]

    # 2. "The Empire then decides to Surveil. They reveal the Intelligence card. They use their second action to
    #    Reroute the 3 of Supplies to the leftmost District."
    state = act(state, "surveil card 2")
    plan_seen = unrest.observe(state, EMPIRE).plan
    assert plan_seen[1] is not None and (plan_seen[1].card, plan_seen[1].revealed) == (cards("2I")[0], True)
    assert plan_seen[0] is not None and plan_seen[0].card == HIDDEN
    assert state.row[0] == PLENTY
    state = act(state, "reroute card 3 to Plenty")
    assert state.stacks[PLENTY][-1] == StackCard(cards("3S")[0], True, 3)
    assert state.tokens == (False, True, False, True)

    # 3. "The Rebellion places the 2 of Intelligence and the 5 of Disruption in the rightmost District. Because
    #    there was already a 3 of Intelligence hidden in that District, they complete the Espionage Mission
    #    and liberate that District."
    assert unrest.current_player(state) == REBELLION
    assert {s.split()[-1] for s in strings(state)} == {"Police", "Truth"}
    state = act(state, "place 5D in Truth", "place 2I in Truth")
    # Espionage holds (Intelligence 3+2, Disruption 5; the 2I is already face up): the Rebellion turns up the
    # 3I and the 5D, the only minimal proof, one card at a time.
    assert unrest.observe(state, EMPIRE).proving == TRUTH
    assert seen(state, TRUTH) == [(HIDDEN, False), (HIDDEN, False), (cards("2I")[0], True)]
    assert strings(state) == ["reveal 3I (card 1)"]
    state = act(state, "reveal 3I (card 1)")
    assert strings(state) == ["reveal 5D (card 2)"]
    state = act(state, "reveal 5D (card 2)")

    # 4. "They then remove the liberated District and all cards beneath it to the side of the play area. All
    #    cards maintain their position (hidden / revealed) and are kept with the liberated District."
    assert state.liberated == (TRUTH,) and state.freed[TRUTH] == 3
    assert state.row == (PLENTY, PEACE, CAPITOL, POLICE)
    # The 3I and the 5D were turned up to prove Espionage, and the Empire now sees them.
    assert seen(state, TRUTH) == [(cards("3I")[0], True), (cards("5D")[0], True), (cards("2I")[0], True)]
    assert [c.proved for c in state.stacks[TRUTH]] == [True, True, False]
    # Only Truth left play: the other stacks stay, the Rebellion has not won yet.
    assert unrest.current_player(state) != REBELLION and state.winner == -1
    #    "The Rebellion draws 3 cards from their deck for the next round."
    assert state.step == "draw" and state.to_draw == 3 and len(state.hand) == 2
    state = act(state, "draw 4I", "draw M", "draw 3U")
    assert len(state.hand) == 5 and state.round == 4

    # 5. "The Empire has access to their Destroy and Blockade actions in the next round."
    assert state.tokens == (False, True, False, True)
    state = act(state, "target Plenty", "plan M hidden", "plan 6S hidden", "plan 4I revealed")
    powers = {s.split()[0] for s in strings(state)}
    assert powers == {"destroy", "blockade"}
    assert state.tokens[DESTROY] and state.tokens[BLOCKADE]
    # The merged row makes Police the rightmost District now, adjacent to Capitol.
    assert "blockade Police" in strings(state) and "blockade Truth" not in strings(state)
