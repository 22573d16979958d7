"""Setup (rulebook "Setup" 2-6): the District row, the opening hand and the Missions, as chance nodes.

- "Place the 5 District tokens ... randomly between the two players in a row": one chance node per position,
  uniform over the Districts not yet laid. Capitol variant: "Place the Capitol District in the center, with
  two Districts on each side": the Capitol is laid third without chance.
- "Shuffle the Rebel deck ... The Rebellion draws 5 cards": five draws, each a chance node over the remaining
  cards.
- "Place the 4 Empire Power tokens ... face up": all tokens start face up.
- "Place the Revolution Mission card face up ... randomly deal three of them": three chance nodes, uniform
  over the Missions not yet dealt (Revolution excluded).
"""

from __future__ import annotations

from tabletop_core.fastcopy import replace
from unrest.actions import DEAL_MISSIONS, DRAWS, SET_DISTRICTS, DealMission, Draw, Outcome, SetDistrict
from unrest.rules.cards import DECK
from unrest.state import (
    CAPITOL,
    FLOW,
    HAND_SIZE,
    MISSIONS_DEALT,
    N_DISTRICTS,
    N_MISSIONS,
    N_POWERS,
    VARIANTS,
    District,
    UnrestOptions,
    UnrestState,
)

__all__ = ["ROWS", "apply_setup", "draw", "draw_outcomes", "initial", "setup_outcomes"]


def initial(options: UnrestOptions) -> UnrestState:
    """The table before setup chance: no District laid, only the Revolution, the full deck, tokens face up."""
    return UnrestState(
        options=options,
        pos=FLOW.start(0),
        row=(),
        missions=(0,),
        deck=DECK,
        hand=(),
        stacks=((),) * N_DISTRICTS,
        freed=(0,) * N_DISTRICTS,
        tokens=(True,) * N_POWERS,
        to_draw=HAND_SIZE,
    )


def draw_outcomes(deck: tuple[int, ...]) -> tuple[tuple[Draw, float], ...]:
    """Each card kind left in the deck with probability copies / cards left."""
    size = sum(deck)
    return tuple((DRAWS[k], n / size) for k, n in enumerate(deck) if n)


def setup_outcomes(state: UnrestState) -> tuple[tuple[Outcome, float], ...]:
    """The chance outcomes of a setup step."""
    step = state.pos.step
    if step == "districts":
        capitol = state.options.variant == "capitol"
        left = [d for d in range(N_DISTRICTS) if d not in state.row and not (capitol and d == CAPITOL)]
        return tuple((SET_DISTRICTS[d], 1 / len(left)) for d in left)
    if step == "missions":
        left = [m for m in range(1, N_MISSIONS) if m not in state.missions]
        return tuple((DEAL_MISSIONS[m], 1 / len(left)) for m in left)
    return draw_outcomes(state.deck)


def draw(state: UnrestState, card: int) -> UnrestState:
    """The state after the Rebellion draws ``card`` from the deck into the hand."""
    deck = list(state.deck)
    deck[card] -= 1
    hand = tuple(sorted((*state.hand, card)))
    return replace(state, deck=tuple(deck), hand=hand, to_draw=state.to_draw - 1, draws=(*state.draws, card))


def apply_setup(state: UnrestState, outcome: Outcome) -> UnrestState:
    """Apply a setup chance outcome, moving to the next setup step (and then round 1) when one is complete."""
    if isinstance(outcome, SetDistrict):
        row = (*state.row, outcome.district)
        if state.options.variant == "capitol" and len(row) == 2:
            row = (*row, CAPITOL)
        pos = FLOW.next(state.pos) if len(row) == N_DISTRICTS else state.pos
        return replace(state, row=row, laid=row, pos=pos)
    if isinstance(outcome, Draw):
        state = draw(state, outcome.card)
        return replace(state, pos=FLOW.next(state.pos)) if state.to_draw == 0 else state
    assert isinstance(outcome, DealMission)
    missions = (*state.missions, outcome.mission)
    if len(missions) == 1 + MISSIONS_DEALT:
        return replace(state, missions=missions, pos=FLOW.at("rebellion", "target", 1))
    return replace(state, missions=missions)


def _rows(options: UnrestOptions) -> tuple[frozenset[tuple[District, ...]], frozenset[tuple[District, ...]]]:
    """Every row setup lays with ``options``: those still being laid, and the whole ones."""
    laying: set[tuple[District, ...]] = set()
    whole: set[tuple[District, ...]] = set()
    todo = [initial(options)]
    while todo:
        state = todo.pop()
        if state.pos.step != "districts":
            whole.add(state.row)
            continue
        laying.add(state.row)
        todo.extend(apply_setup(state, outcome) for outcome, _ in setup_outcomes(state))
    return frozenset(laying), frozenset(whole)


#: By variant, the rows setup lays: (still being laid, whole); what a saved row must be one of.
ROWS = {variant: _rows(UnrestOptions(variant)) for variant in VARIANTS}
