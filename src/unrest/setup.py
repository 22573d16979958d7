"""Setup (rulebook "Setup" 2-6): the District row, the opening hand and the Missions, as chance nodes.

- "Place the 5 District tokens ... randomly between the two players in a row": one chance node per position,
  uniform over the Districts not yet laid. Capitol variant: "Place the Capitol District in the center, with
  two Districts on each side": the Capitol is laid third without chance.
- "Shuffle the Rebel deck ... The Rebellion draws 5 cards": five draws, each a chance node over the remaining
  cards.
- "Place the 4 Empire Power tokens ... face up": all tokens start face up.
- "Place the Revolution Mission card face up ... randomly deal three of them": three chance nodes, uniform
  over the Missions not yet dealt (Revolution excluded).

The research game (``UnrestOptions.research``; not the published game, for tabular algorithms such as CFR): a
Capitol game whose row (:data:`RESEARCH_ROW`) and Missions (:data:`RESEARCH_MISSIONS`) are laid in a fixed
order (chance nodes with one outcome each, so the history keeps its shape), whose Rebel deck is the four cards of
:data:`RESEARCH_DECK` and opening hand :data:`RESEARCH_HAND` cards, and whose Empire starts with Surveil and Destroy
face up (:data:`RESEARCH_TOKENS`, as in the second round of a Power cycle: with Blockade up, blockading the Capitol
would win the one round outright). The opening hand leaves fewer than three cards in the deck, so round 1 is the
Final Encounter (undrawn: the two cards left stay hidden from both) and the game has one round under the
published rules: plan three cards, the Empire's two actions, the cards moved to any District, the liberation
check, the end.
"""

from __future__ import annotations

from operator import getitem

from tabletop_core.fastcopy import replacer
from tabletop_core.flow import Position
from unrest.actions import DEAL_MISSIONS, DRAWS, SET_DISTRICTS, DealMission, Draw, Outcome, SetDistrict
from unrest.rules.cards import DECK, DECK_SIZE, parse_card
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
    next_step,
    position,
)

__all__ = [
    "RESEARCH_DECK",
    "RESEARCH_HAND",
    "RESEARCH_MISSIONS",
    "RESEARCH_ROW",
    "RESEARCH_TOKENS",
    "ROWS",
    "apply_setup",
    "deck_for",
    "draw",
    "draw_outcomes",
    "initial",
    "setup_outcomes",
]


def _deck(*names: str) -> tuple[int, ...]:
    counts = [0] * len(DECK)
    for name in names:
        counts[parse_card(name)] += 1
    return tuple(counts)


#: The research game's Rebel deck: 6, 5 and 3 of Upheaval, 4 of Intelligence and one Misdirection. Every pair of
#: the Upheavals meets Civil Disobedience, the 4 of Intelligence with the 3 of Upheaval Energized Press.
RESEARCH_DECK = _deck("6U", "5U", "3U", "M")
#: The research game's opening hand (the plan's three cards).
RESEARCH_HAND = 3
#: The research game's row as laid (the Capitol is laid third, in the centre, by the Capitol rule).
RESEARCH_ROW: tuple[District, ...] = (0, 1, 3, 4)
#: The research game's Missions beneath the Revolution: Espionage, Energized Press, Civil Disobedience.
RESEARCH_MISSIONS: tuple[int, ...] = (6, 7, 8)
#: The research game's Empire Power tokens face up at the start (by power): Surveil and Destroy.
RESEARCH_TOKENS = (True, True, False, False)


def deck_for(options: UnrestOptions) -> tuple[int, ...]:
    """The Rebel deck a game with ``options`` starts with (copies per card kind): every card but in the research
    game."""
    return RESEARCH_DECK if options.research else DECK


def initial(options: UnrestOptions) -> UnrestState:
    """The table before setup chance: no District laid, only the Revolution, the full deck, tokens face up."""
    research = options.research
    return UnrestState(
        options=options,
        pos=FLOW.start(0),
        row=(),
        missions=(0,),
        deck=deck_for(options),
        hand=(),
        stacks=((),) * N_DISTRICTS,
        freed=(0,) * N_DISTRICTS,
        tokens=RESEARCH_TOKENS if research else (True,) * N_POWERS,
        to_draw=RESEARCH_HAND if research else HAND_SIZE,
    )


#: By card kind, copies left and cards left, the outcome ``(Draw(kind), copies / cards)``: shared pairs, so a draw
#: step divides nothing and builds no pair (decks hold at most 4 copies of a kind and 24 cards).
_DRAW_PAIRS = tuple(
    tuple(tuple((DRAWS[k], n / size if size else 0.0) for size in range(DECK_SIZE + 1)) for n in range(5))
    for k in range(len(DECK))
)


#: The same pairs by cards left, then kind, then copies left (``None`` for no copy): a draw's outcomes are
#: ``_BY_SIZE[size][k][deck[k]]`` for every kind, the ``None`` dropped, picked in C by ``map`` and ``filter``.
_BY_SIZE = tuple(
    tuple((None, *(_DRAW_PAIRS[k][n][size] for n in range(1, 5))) for k in range(len(DECK)))
    for size in range(DECK_SIZE + 1)
)


#: The outcomes of the decks asked about, by the deck (a tuple of ints, keyed by value): a search's rollouts from
#: one table draw from the same few decks again and again. Emptied when full (a bounded cache of a pure function).
_OUTCOMES: dict[tuple[int, ...], tuple[tuple[Draw, float], ...]] = {}
#: Small, so that entries go while they are young: a search asks again about the decks of its last few rollouts,
#: and random playouts hardly ever ask twice. At 16,384 entries, the entries lived long enough to be moved to the
#: cyclic collector's oldest generation and set off its full collections (see docs/performance.md, "Unrest").
_OUTCOMES_SIZE = 1 << 9


def draw_outcomes(deck: tuple[int, ...]) -> tuple[tuple[Draw, float], ...]:
    """Each card kind left in the deck with probability copies / cards left."""
    known = _OUTCOMES.get(deck)
    if known is not None:
        return known
    size = sum(deck)
    if size > DECK_SIZE or max(deck) > 4 or min(deck) < 0 or len(deck) != len(DECK):  # hand-made: divide
        return tuple((DRAWS[k], n / size) for k, n in enumerate(deck) if n)
    outcomes = tuple(filter(None, map(getitem, _BY_SIZE[size], deck)))
    if len(_OUTCOMES) >= _OUTCOMES_SIZE:
        _OUTCOMES.clear()
    _OUTCOMES[deck] = outcomes
    return outcomes


def setup_outcomes(state: UnrestState) -> tuple[tuple[Outcome, float], ...]:
    """The chance outcomes of a setup step."""
    step = state.pos.step
    if state.options.research and step == "districts":
        return ((SET_DISTRICTS[RESEARCH_ROW[sum(d != CAPITOL for d in state.row)]], 1.0),)
    if state.options.research and step == "missions":
        return ((DEAL_MISSIONS[RESEARCH_MISSIONS[len(state.missions) - 1]], 1.0),)
    if step == "districts":
        capitol = state.options.variant == "capitol"
        left = [d for d in range(N_DISTRICTS) if d not in state.row and not (capitol and d == CAPITOL)]
        return tuple((SET_DISTRICTS[d], 1 / len(left)) for d in left)
    if step == "missions":
        left = [m for m in range(1, N_MISSIONS) if m not in state.missions]
        return tuple((DEAL_MISSIONS[m], 1 / len(left)) for m in left)
    return draw_outcomes(state.deck)


def draw(state: UnrestState, card: int, pos: Position | None = None) -> UnrestState:
    """The state after the Rebellion draws ``card`` from the deck into the hand (and play moves to ``pos``, if
    given, in the same copy)."""
    o = state
    deck = list(o.deck)
    deck[card] -= 1
    hand = tuple(sorted((*o.hand, card)))
    return _drawn(o, o.pos if pos is None else pos, tuple(deck), hand, o.to_draw - 1, (*o.draws, card))


# The setup's copies of the state, one prepared copy per set of fields changed (see ``unrest.rules.round``).
_drawn = replacer(UnrestState, "pos", "deck", "hand", "to_draw", "draws")
_laid = replacer(UnrestState, "pos", "row", "laid")
_dealt = replacer(UnrestState, "pos", "missions", "final")


def apply_setup(state: UnrestState, outcome: Outcome) -> UnrestState:
    """Apply a setup chance outcome, moving to the next setup step (and then round 1) when one is complete."""
    if isinstance(outcome, SetDistrict):
        row = (*state.row, outcome.district)
        if state.options.variant == "capitol" and len(row) == 2:
            row = (*row, CAPITOL)
        pos = next_step(state.pos) if len(row) == N_DISTRICTS else state.pos
        return _laid(state, pos, row, row)
    if isinstance(outcome, Draw):
        return draw(state, outcome.card, pos=next_step(state.pos) if state.to_draw == 1 else state.pos)
    assert isinstance(outcome, DealMission)
    o = state
    missions = (*o.missions, outcome.mission)
    final = o.final
    pos = o.pos
    if len(missions) == 1 + MISSIONS_DEALT and o.options.research:
        final, pos = True, position(1, "plan")
    elif len(missions) == 1 + MISSIONS_DEALT:
        pos = position(1, "target")
    return _dealt(o, pos, missions, final)


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
