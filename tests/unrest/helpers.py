"""Builders for hand-made Unrest positions used across the tests."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import attrs
import numpy as np

import unrest
from tabletop_core.agents import RandomAgent
from tabletop_core.flow import Position
from tests.playouts import random_playout
from unrest.actions import Action
from unrest.determinization import batch_of, draw_deadlines
from unrest.rules.cards import DECK, KINDS, parse_card
from unrest.rules.missions import Mission, missions_for
from unrest.state import EMPIRE, FLOW, N_DISTRICTS, Destroyed, Planned, StackCard, UnrestOptions, UnrestState

PLENTY, PEACE, CAPITOL, POLICE, TRUTH = range(5)
REVOLUTION, SURGE, FORTIFIED, COUP, PLOT, SLEEPER, ESPIONAGE, PRESS, CIVIL = range(9)


def cards(text: str) -> tuple[int, ...]:
    """Card kinds from names: ``cards("3I 5D M")``."""
    return tuple(parse_card(t) for t in text.split())


def stack(text: str, rnd: int = 1) -> tuple[StackCard, ...]:
    """A stack from names; a name in parentheses is hidden: ``stack("(3I) 2S")``."""
    out = []
    for t in text.split():
        hidden = t.startswith("(")
        out.append(StackCard(parse_card(t.strip("()")), not hidden, rnd))
    return tuple(out)


def plan(text: str) -> tuple[Planned, ...]:
    """Planned cards from names; a name in parentheses is hidden."""
    return tuple(Planned(parse_card(t.strip("()")), not t.startswith("(")) for t in text.split())


def position(step: str, rnd: int) -> Position:
    """The flow position of ``step`` in round ``rnd``."""
    phase = next(p.name for p in FLOW.phases if step in p.steps)
    return FLOW.at(phase, step, rnd)


def table(
    *,
    hand: str = "",
    stacks: dict[int, tuple[StackCard, ...]] | None = None,
    row: tuple[int, ...] = (PLENTY, PEACE, CAPITOL, POLICE, TRUTH),
    missions: tuple[int, ...] = (REVOLUTION, COUP, PLOT, SLEEPER),
    rnd: int = 1,
    step: str = "target",
    tokens: tuple[bool, ...] = (True, True, True, True),
    variant: str = "standard",
    freed: dict[int, int] | None = None,
    destroyed: Iterable[Destroyed] = (),
    planned: tuple[Planned | None, ...] = (),
    aoi: tuple[int, ...] = (),
    final: bool = False,
    deck: str | None = None,
) -> UnrestState:
    """A hand-made position; the deck holds every card not placed elsewhere unless ``deck`` names it."""
    all_stacks = [(stacks or {}).get(d, ()) for d in range(5)]
    freed_t = tuple((freed or {}).get(d, 0) for d in range(5))
    hand_t = tuple(sorted(cards(hand)))
    destroyed_t = tuple(destroyed)
    counts = list(DECK)
    used = [*hand_t, *(c.card for s in all_stacks for c in s), *(x.card for x in destroyed_t)]
    used += [p.card for p in planned if p is not None]
    for k in used:
        counts[k] -= 1
    if deck is not None:
        want = [0] * KINDS
        for k in cards(deck):
            want[k] += 1
        counts = want
    state = UnrestState(
        options=UnrestOptions(variant),
        pos=position(step, rnd),
        row=row,
        missions=missions,
        deck=tuple(counts),
        hand=hand_t,
        stacks=tuple(all_stacks),
        freed=freed_t,
        tokens=tokens,
        aoi=aoi,
        plan=planned,
        destroyed=destroyed_t,
        final=final,
        laid=_laid(row, freed_t, variant),
    )
    return with_draws(state)


def _laid(row: tuple[int, ...], freed: tuple[int, ...], variant: str) -> tuple[int, ...]:
    """A row as laid at setup that leaves ``row`` once the liberated Districts are gone (the Capitol in the
    centre in the Capitol variant): liberated Districts go to the right end, or to the left end while the Capitol
    needs them to reach the centre."""
    laid = list(row)
    for d in range(5):
        if freed[d] and d not in laid:
            if variant == "capitol" and CAPITOL in laid and laid.index(CAPITOL) < 2:
                laid.insert(0, d)
            else:
                laid.append(d)
    return tuple(laid)


def destroyed_early(kinds: Iterable[int]) -> list[Destroyed]:
    """Revealed destroyed cards, each in the earliest round the draws allow (the ``i``-th in the round after the
    draw batch of the ``i``-th card drawn), for positions that need many cards out of the way."""
    return [Destroyed(k, True, batch_of(i) + 1) for i, k in enumerate(kinds)]


def final_placement(
    *,
    stacks: dict[int, tuple[StackCard, ...]],
    planned: str,
    missions: tuple[int, ...],
    hand: str = "",
    hidden_destroyed: Iterable[Destroyed] = (),
) -> UnrestState:
    """The Rebellion's placement in the Final Encounter (round 8, the deck drawn out, Surveil and Destroy used) with
    every card not in ``hand``, ``stacks``, ``planned`` (:func:`plan`) or ``hidden_destroyed`` destroyed face up in
    an earlier round (:func:`destroyed_early`, by kind), then the hidden destroyed cards: a table the rules allow but
    no play reaches (the Empire destroys one card a round at most), for posteriors over the few cards left unseen."""
    planned_t = plan(planned)
    hidden = list(hidden_destroyed)
    counts = list(DECK)
    for k in (*cards(hand), *(c.card for s in stacks.values() for c in s), *(p.card for p in planned_t)):
        counts[k] -= 1
    for x in hidden:
        counts[x.card] -= 1
    rest = [k for k in range(KINDS) for _ in range(counts[k])]
    return table(
        hand=hand,
        deck="",
        stacks=stacks,
        planned=planned_t,
        destroyed=[*destroyed_early(rest), *hidden],
        rnd=8,
        step="place",
        final=True,
        tokens=(False, False, True, True),
        missions=missions,
    )


def with_draws(state: UnrestState) -> UnrestState:
    """``state`` with the Rebellion's draws filled in, earliest deadline first (every card drawn by the round
    before it was planned): a draw log history allows whenever one exists."""
    n = sum(DECK) - sum(state.deck)
    sized = attrs.evolve(state, draws=(0,) * n)
    due = sorted(draw_deadlines(sized), key=lambda card: (card[1], card[0]))
    return attrs.evolve(state, draws=tuple(k for k, _ in due))


def act(state: UnrestState, *texts: str) -> UnrestState:
    """Apply actions written as strings (decisions or chance outcomes), checked."""
    for text in texts:
        state = unrest.step(state, unrest.parse_action(state, text))
    return state


def strings(state: UnrestState) -> list[str]:
    """The legal actions of ``state`` as strings."""
    return [unrest.action_to_str(state, a) for a in unrest.legal_actions(state)]


def game_states(
    seed: int, *, variant: str = "standard", bots: bool = False, random_empire: bool = False
) -> list[UnrestState]:
    """Every state of a seeded game between random agents (or the heuristic bots; or the Rebellion bot against a
    random Empire, which the Rebellion mostly wins)."""
    rng = np.random.default_rng(seed)
    state = unrest.new_game(seed=seed, variant=variant)
    agents = unrest.GAME.default_agents(state) if bots else [RandomAgent(), RandomAgent()]
    if random_empire:
        agents = [unrest.GAME.default_agents(state)[0], RandomAgent()]

    def by_agent(state: UnrestState, legal: Sequence[Action]) -> Action:
        player = unrest.current_player(state)
        return agents[player].act(unrest.observe(state, player), legal, rng)

    return list(random_playout(unrest.GAME, state, rng, choose=by_agent, chance="settle"))


def rng(seed: int = 0) -> np.random.Generator:
    """A seeded generator."""
    return np.random.default_rng(seed)


def prove(state: UnrestState) -> UnrestState:
    """Play the Rebellion's reveals while liberation proofs are pending, asserting each time that only one card
    may come next (a proof with no choice; tests of a real choice name their reveals)."""
    while not unrest.is_terminal(state) and state.step == "liberate":
        legal = unrest.legal_actions(state)
        assert len(legal) == 1, strings(state)
        state = unrest.step(state, legal[0])
    return state


def random_states(games: int, seed: int) -> list[UnrestState]:
    """Every state of seeded random games, the variants alternating (standard first)."""
    rng = np.random.default_rng(seed)
    out: list[UnrestState] = []
    for g in range(games):
        out.extend(random_playout(unrest, unrest.new_game(variant="capitol" if g % 2 else "standard"), rng))
    return out


def snapshot_checks_plainly(state: UnrestState) -> tuple[tuple[int, tuple[int, ...], tuple[Mission, ...]], ...]:
    """Each stack as it stood at the end of each finished round while its District was in play (proof reveals of
    a later liberation undone), where that snapshot holds a hidden card."""
    cur = state.pos.round
    done = cur if state.pos.step == "draw" or state.winner == EMPIRE else cur - 1
    out = []
    for d in range(N_DISTRICTS):
        stack = state.stacks[d]
        freed = state.freed[d]
        for r in sorted({c.round for c in stack}):
            if r > done or (freed and r >= freed):
                continue
            snapshot = [c for c in stack if c.round <= r]
            if freed and freed > r:
                snapshot = [attrs.evolve(c, revealed=False, proved=False) if c.proved else c for c in snapshot]
            if all(c.revealed for c in snapshot):
                continue
            out.append((d, tuple(i for i, c in enumerate(stack) if c.round <= r), missions_for(state, d)))
    return tuple(out)
