"""The ``Game`` object of Unrest: the protocol, delegated to the core driver of the rules
(:data:`unrest.rules.flow.DRIVER`), the views, the notation and the determinizer.

>>> import unrest
>>> state = unrest.new_game(seed=3)
>>> unrest.current_player(state), state.step, len(state.hand)
(0, 'target', 5)
>>> action = unrest.legal_actions(state)[0]
>>> unrest.parse_action(state, unrest.action_to_str(state, action)) == action
True
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tabletop_core.flow import Driven
from tabletop_core.spec import CHANCE, ChanceMode, GameSpec, Information, Utility
from unrest import bots, glossary, invariants, notation, setup, view, worlds
from unrest.actions import NUM_ACTIONS, NUM_OUTCOMES, Action, action_from_id, action_id
from unrest.determinization import determinize_empire
from unrest.rules import flow
from unrest.rules.cards import DECK_SIZE
from unrest.state import (
    DRAW_SIZE,
    EMPIRE,
    EMPIRE_ACTIONS,
    HAND_SIZE,
    LAST_ROUND,
    MISSIONS_DEALT,
    N_DISTRICTS,
    PLAN_SIZE,
    REBELLION,
    UnrestOptions,
    UnrestState,
)
from unrest.view import INFORMATION_STATE_SHAPE, OBSERVATION_SHAPE, UnrestInformation, UnrestView

__all__ = ["GAME", "Unrest"]

#: The steps whose legal actions (and their texts) are public: see :meth:`Unrest.public_legal_actions`.
_PUBLIC_STEPS = frozenset({"target", "defend", "districts", "missions"})


class Unrest(Driven[UnrestState, Action, UnrestOptions]):
    """The rules of Unrest: player 0 the Rebellion, player 1 the Empire."""

    spec = GameSpec(
        short_name="unrest",
        long_name="Unrest",
        min_num_players=2,
        max_num_players=2,
        chance_mode=ChanceMode.EXPLICIT_STOCHASTIC,
        information=Information.IMPERFECT,
        utility=Utility.ZERO_SUM,
        min_utility=-1.0,
        max_utility=1.0,
        num_distinct_actions=NUM_ACTIONS,
        max_chance_outcomes=NUM_OUTCOMES,
        # Setup (the row, the opening hand, the Missions); each round's target, plan, defence, placement and
        # draw; proof reveals, at most one per card.
        max_game_length=N_DISTRICTS
        + HAND_SIZE
        + MISSIONS_DEALT
        + LAST_ROUND * (1 + PLAN_SIZE + EMPIRE_ACTIONS + PLAN_SIZE + DRAW_SIZE)
        + DECK_SIZE,
        observation_shape=OBSERVATION_SHAPE,
        utility_sum=0.0,
        provides_information_state=True,
        information_state_shape=INFORMATION_STATE_SHAPE,
        # Flags, one-hots and shares, and counts of cards: none exceeds the deck (a stack, the hand or the destroyed
        # pile holds at most every card; hand size / HAND_SIZE at most DECK_SIZE / HAND_SIZE).
        tensor_bounds=(0.0, float(DECK_SIZE)),
    )
    state_type = UnrestState
    action_type = Action
    options_type = UnrestOptions
    driver = flow.DRIVER

    def initial_state(self, options: UnrestOptions) -> UnrestState:
        """The first chance node of setup."""
        return flow.run(setup.initial(options))

    def returns(self, state: UnrestState) -> tuple[float, ...]:
        """+1 to the winner and -1 to the loser once the game is over; 0 each before."""
        if state.winner < 0:
            return (0.0, 0.0)
        return (1.0, -1.0) if state.winner == REBELLION else (-1.0, 1.0)

    def observe(self, state: UnrestState, player: int) -> UnrestView:
        """What ``player`` may know (see :mod:`unrest.view`)."""
        return view.observe(state, player)

    def determinize(self, state: UnrestState, player: int, rng: np.random.Generator) -> UnrestState:
        """A full state drawn uniformly among those consistent with ``player``'s information state (see
        :mod:`unrest.determinization`); the Rebellion's is ``state`` (its view determines the deck).

        Raises:
            ValueError: if ``player`` is not 0 or 1 (not ``CHANCE`` either: that would return the truth).
        """
        view.check_player(player)
        return determinize_empire(state, rng) if player == EMPIRE else state

    def rebuild_history(self, world: UnrestState, player: int) -> tuple[Action, ...]:
        """The history that replays ``world``'s logs under the rules (see :func:`unrest.worlds.rebuild_history`).

        Raises:
            ValueError: when no history of the rules reaches ``world``.
        """
        return worlds.rebuild_history(self, world)

    def observation_tensor(self, state: UnrestState, player: int) -> np.ndarray:
        """The view of ``player`` as a float32 vector (see :func:`unrest.view.observation_tensor`)."""
        return view.observation_tensor(view.observe(state, player))

    def information_state(self, state: UnrestState, player: int) -> UnrestInformation:
        """What ``player`` has seen and done so far, perfect recall (see :class:`unrest.view.UnrestInformation`)."""
        return view.information_state(state, player)

    def information_state_tensor(self, state: UnrestState, player: int) -> np.ndarray:
        """``player``'s information state as a float32 vector (see :func:`unrest.view.information_state_tensor`)."""
        return view.information_state_tensor(view.information_state(state, player))

    def action_id(self, action: Action) -> int:
        """Decision ids in ``range(NUM_ACTIONS)``; chance outcome ids in ``range(NUM_OUTCOMES)``."""
        return action_id(action)

    def action_from_id(self, state: UnrestState, action_id: int) -> Action:
        """Decode ``action_id`` in the id space of ``state``'s node (see :func:`unrest.actions.action_from_id`)."""
        return action_from_id(state, action_id, chance=self.current_player(state) == CHANCE)

    def action_to_str(self, state: UnrestState, action: Action) -> str:
        """The action in the notation of :mod:`unrest.notation`."""
        return notation.action_to_str(state, action)

    def parse_action(self, state: UnrestState, text: str) -> Action:
        """Read an action in the notation of :mod:`unrest.notation` (case and spacing are not significant).

        Raises:
            IllegalActionError: when no legal action reads as ``text``.
        """
        action = notation.read_action(state, text)
        if action is not None and self.is_legal(state, action):
            return action
        return super().parse_action(state, text)

    def public_legal_actions(self, state: UnrestState) -> tuple[Action, ...] | None:
        """The legal actions where both seats know them: the Empire's defence (the planned cards' slots and
        facings, the tokens and the row are on the table), the Rebellion's target (the row) and the setup's
        Districts and Missions (what is left of public pieces). The Rebellion's plan, placement and proofs name
        its cards, and a draw the deck's: ``None`` there, so that no refusal message shows them."""
        if state.pending.top is None and state.pos.step in _PUBLIC_STEPS and state.winner < 0:
            return self.legal_actions(state)
        return None

    def describe_step(self, state: UnrestState) -> str:
        """Round, phase and step (and the Final Encounter)."""
        return view.describe_step(state)

    def validate_state(self, state: UnrestState) -> None:
        """Check the invariants of a (deserialized) state (see :mod:`unrest.invariants`)."""
        invariants.validate_state(state)

    def validate_loaded(self, state: UnrestState) -> None:
        """A loaded state must be one the rules reach: the invariants, then its history rebuilt from its logs and
        replayed under the rules (:func:`unrest.worlds.rebuild_history`), so that no state :meth:`rebuild_history`
        refuses loads. On the load path only: the replay costs about a millisecond, ``step`` nothing."""
        invariants.validate_state(state)
        worlds.rebuild_history(self, state)

    def describe_transition(self, before: UnrestState, action: Action, after: UnrestState) -> tuple[str, ...]:
        """Liberations and the end of the game, which the rules bring about inside a step."""
        return view.describe_transition(before, after)

    def describe(
        self, before: UnrestState, action: Action, after: UnrestState, player: int | None = None
    ) -> tuple[str, ...]:
        """What ``player`` learns from the transition, in words (see :func:`unrest.view.describe`)."""
        return view.describe(before, action, after, player)

    def describe_public(self, before: UnrestState, action: Action, after: UnrestState) -> tuple[str, ...]:
        """What a spectator learns: what the Empire learns, in the third person (see :func:`unrest.view.describe`)."""
        return view.describe(before, action, after, view.PUBLIC)

    def seat_name(self, state: UnrestState, player: int) -> str:
        """ "Rebellion" or "Empire" (see :func:`unrest.view.seat_name`)."""
        return view.seat_name(player)

    def render(self, state: UnrestState, player: int | None = None) -> str:
        """The table as text, as ``player`` sees it (the whole truth when ``None``; see :func:`unrest.view.render`)."""
        return view.render(state, player)

    def legend(self, state: UnrestState, player: int | None = None) -> tuple[tuple[str, str], ...]:
        """The symbols the render prints (see :mod:`unrest.glossary`)."""
        return glossary.legend(state, player)

    def step_rules(self, state: UnrestState) -> str:
        """The rule of the current step (see :mod:`unrest.glossary`)."""
        return glossary.step_rules(state)

    def card_texts(self, state: UnrestState, player: int | None = None) -> tuple[tuple[str, str], ...]:
        """The Mission and Power texts on the table (see :mod:`unrest.glossary`)."""
        return glossary.card_texts(state, player)

    def end_reason(self, state: UnrestState) -> str:
        """Why the game ended (see :mod:`unrest.glossary`)."""
        return glossary.end_reason(state)

    def headline(self, state: UnrestState) -> str:
        """The round (see :mod:`unrest.glossary`)."""
        return glossary.headline(state)

    def default_agents(self, state: UnrestState) -> list[Any]:
        """The heuristic Rebellion and Empire bots."""
        return [bots.RebellionBot(), bots.EmpireBot()]

    def public_observation(self, state: UnrestState) -> UnrestView:
        """What both players see (see :func:`unrest.view.public_view`)."""
        return view.public_view(state)


GAME = Unrest()
