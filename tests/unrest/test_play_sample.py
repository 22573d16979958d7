"""The rulebook's Play Sample, move by move."""

from __future__ import annotations

import unrest
from tests.unrest.helpers import (
    CIVIL,
    COUP,
    ESPIONAGE,
    PLENTY,
    POLICE,
    REVOLUTION,
    TRUTH,
    act,
    cards,
    stack,
    strings,
)
from tests.unrest.helpers import table as make_table
from unrest.state import BLOCKADE, DESTROY, EMPIRE, REBELLION, StackCard


def test_play_sample() -> None:
    # Round 3, all four Empire tokens face up again; a 3 of Intelligence lies hidden in the rightmost District
    # (Ministry of Truth) since round 2. Espionage is one of the Missions on the table.
    state = make_table(
        hand="5D 2I 3S 6U 2U",
        stacks={TRUTH: stack("(3I)", rnd=2)},
        rnd=3,
        missions=(REVOLUTION, ESPIONAGE, COUP, CIVIL),
    )
    unrest.GAME.validate_state(state)
    # 1. The Area of Interest between the two rightmost Districts; 5D and 2I hidden, 3S revealed.
    state = act(state, "target Police")
    assert state.aoi == (POLICE, TRUTH)
    state = act(state, "plan 5D hidden", "plan 2I hidden", "plan 3S revealed")
    assert unrest.current_player(state) == EMPIRE
    # 2. The Empire Surveils the Intelligence card, then Reroutes the 3 of Supplies to the leftmost District.
    state = act(state, "surveil card 2")
    assert state.plan[1] is not None and state.plan[1].revealed
    state = act(state, "reroute card 3 to Plenty")
    assert state.stacks[PLENTY] == (StackCard(cards("3S")[0], True, 3),)
    # 3. The Rebellion places the 2I and the 5D in the rightmost District: with the hidden 3I, Espionage.
    assert unrest.current_player(state) == REBELLION
    state = act(state, "place 5D in Truth", "place 2I in Truth")
    # 4. The District and its cards leave play, facings kept (the 3I and 5D revealed to prove Espionage).
    assert state.liberated == (TRUTH,)
    assert state.row == (0, 1, 2, POLICE)
    assert [(c.card, c.revealed) for c in state.stacks[TRUTH]] == [
        (cards("3I")[0], True),
        (cards("5D")[0], True),
        (cards("2I")[0], True),
    ]
    # The Rebellion draws 3 cards for the next round.
    assert state.step == "draw" and state.to_draw == 3
    state = act(state, "draw 4I", "draw M", "draw 5U")
    assert len(state.hand) == 5 and state.round == 4
    # 5. The Empire has access to Destroy and Blockade in the next round.
    assert state.tokens == (False, True, False, True)
    state = act(state, "target Plenty", "plan M hidden", "plan 6U hidden", "plan 4I revealed")
    powers = {s.split()[0] for s in strings(state)}
    assert powers == {"destroy", "blockade"}
    assert state.tokens[DESTROY] and state.tokens[BLOCKADE]
