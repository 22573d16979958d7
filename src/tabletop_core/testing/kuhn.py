"""Kuhn poker: the small test game of the core (chance, hidden information, two players, zero-sum).

Three cards (J, Q, K) are dealt one to each player from a :class:`~tabletop_core.components.Pile` (two chance
nodes over the remaining cards). Each antes 1. Player 0 passes or bets 1; after a pass player 1 may pass
(showdown for 1) or bet, and then player 0 calls or folds; after a bet player 1 calls (showdown for 2) or folds.
It is also the template for adding a game: see ``docs/adding-a-game.md``.

>>> state = GAME.new_game(seed=1)
>>> GAME.render(state, 0)
'player 0 holds Q; history: -'
"""

from __future__ import annotations

from typing import ClassVar

import attrs
import numpy as np

from tabletop_core.components import Pile
from tabletop_core.errors import IllegalActionError
from tabletop_core.game import Game
from tabletop_core.spec import CHANCE, TERMINAL, ChanceMode, GameSpec, Information, Utility

__all__ = ["GAME", "Deal", "Kuhn", "KuhnOptions", "KuhnState", "KuhnView", "Move"]

CARDS = "JQK"
PASS, BET = 0, 1
_SHOWDOWN = {(PASS, PASS): 1, (BET, BET): 2, (PASS, BET, BET): 2}
_FOLD = {(BET, PASS): 0, (PASS, BET, PASS): 1}  # history -> the player who wins by the fold


@attrs.frozen
class KuhnOptions:
    """Kuhn poker has no options."""


@attrs.frozen
class Move:
    """A betting decision: ``PASS`` (check/fold) or ``BET`` (bet/call)."""

    TAG: ClassVar[str] = "kuhn.move"
    bet: int = attrs.field(validator=attrs.validators.in_((PASS, BET)))


@attrs.frozen
class Deal:
    """A chance outcome: the next card dealt (0 = J, 1 = Q, 2 = K)."""

    TAG: ClassVar[str] = "kuhn.deal"
    card: int = attrs.field(validator=attrs.validators.in_((0, 1, 2)))


@attrs.frozen
class KuhnState:
    """The whole truth: the undealt cards, the hands dealt so far and the betting history."""

    TAG: ClassVar[str] = "kuhn.state"
    options: KuhnOptions
    deck: Pile[int]
    hands: tuple[int, ...] = ()
    history: tuple[int, ...] = ()


@attrs.frozen
class KuhnView:
    """What one player knows: their own card (if dealt) and the public betting history."""

    player: int
    card: int | None
    history: tuple[int, ...]


class Kuhn(Game[KuhnState, Move | Deal, KuhnOptions]):
    """The rules of Kuhn poker."""

    spec = GameSpec(
        short_name="kuhn",
        long_name="Kuhn poker",
        min_num_players=2,
        max_num_players=2,
        chance_mode=ChanceMode.EXPLICIT_STOCHASTIC,
        information=Information.IMPERFECT,
        utility=Utility.ZERO_SUM,
        min_utility=-2.0,
        max_utility=2.0,
        num_distinct_actions=2,
        max_chance_outcomes=3,
        max_game_length=5,
        observation_shape=(11,),
        utility_sum=0.0,
        provides_information_state=True,
        tensor_bounds=(0.0, 1.0),
    )
    state_type = KuhnState
    action_type = Move | Deal
    options_type = KuhnOptions

    def initial_state(self, options: KuhnOptions) -> KuhnState:
        return KuhnState(options, Pile.of([0, 1, 2]))

    def current_player(self, state: KuhnState) -> int:
        if len(state.hands) < 2:
            return CHANCE
        if state.history in _SHOWDOWN or state.history in _FOLD:
            return TERMINAL
        return len(state.history) % 2

    def legal_actions(self, state: KuhnState) -> tuple[Move | Deal, ...]:
        player = self.current_player(state)
        if player == CHANCE:
            return tuple(a for a, _ in self.chance_outcomes(state))
        if player == TERMINAL:
            return ()
        return (Move(PASS), Move(BET))

    def chance_outcomes(self, state: KuhnState) -> tuple[tuple[Move | Deal, float], ...]:
        if self.current_player(state) != CHANCE:
            return ()
        return tuple((Deal(card), p) for card, p in state.deck.draw_outcomes())

    def _apply(self, state: KuhnState, action: Move | Deal) -> KuhnState:
        if isinstance(action, Deal):
            return attrs.evolve(state, deck=state.deck.draw(action.card), hands=(*state.hands, action.card))
        return attrs.evolve(state, history=(*state.history, action.bet))

    def returns(self, state: KuhnState) -> tuple[float, ...]:
        h = state.history
        if h in _FOLD:
            winner = _FOLD[h]
            # The folder loses what it put in: its ante plus any bet (1 in every folding line).
            return (1.0, -1.0) if winner == 0 else (-1.0, 1.0)
        if h in _SHOWDOWN and len(state.hands) == 2:
            stake = float(_SHOWDOWN[h])
            return (stake, -stake) if state.hands[0] > state.hands[1] else (-stake, stake)
        return (0.0, 0.0)

    def observe(self, state: KuhnState, player: int) -> KuhnView:
        card = state.hands[player] if player < len(state.hands) else None
        return KuhnView(player, card, state.history)

    def public_observation(self, state: KuhnState) -> KuhnView:
        """The betting, which both players see: a view of no seat (``player`` -1) with no card."""
        return KuhnView(-1, None, state.history)

    def determinize(self, state: KuhnState, player: int, rng: np.random.Generator) -> KuhnState:
        if len(state.hands) < 2:
            return state
        other = 1 - player
        pool = [c for c in range(3) if c != state.hands[player]]
        card = pool[int(rng.integers(len(pool)))]
        hands = list(state.hands)
        hands[other] = card
        deck = Pile.of([c for c in range(3) if c not in hands])
        return attrs.evolve(state, deck=deck, hands=tuple(hands))

    def action_id(self, action: Move | Deal) -> int:
        return action.card if isinstance(action, Deal) else action.bet

    def action_from_id(self, state: KuhnState, action_id: int) -> Move | Deal:
        try:
            return Deal(action_id) if self.current_player(state) == CHANCE else Move(action_id)
        except ValueError as exc:
            raise IllegalActionError(f"kuhn: no action with id {action_id!r} at {self.describe_step(state)}") from exc

    def action_to_str(self, state: KuhnState, action: Move | Deal) -> str:
        if isinstance(action, Deal):
            return f"deal {CARDS[action.card]}"
        return "bet" if action.bet == BET else "pass"

    def observation_tensor(self, state: KuhnState, player: int) -> np.ndarray:
        view = self.observe(state, player)
        out = np.zeros(self.spec.observation_shape, dtype=np.float32)
        out[view.player] = 1.0
        if view.card is not None:
            out[2 + view.card] = 1.0
        for i, bet in enumerate(view.history):
            out[5 + 2 * i + bet] = 1.0
        return out

    def validate_state(self, state: KuhnState) -> None:
        dealt = sorted([*state.hands, *state.deck.cards(), *state.deck.discards])
        if dealt != [0, 1, 2] or len(state.hands) > 2:
            raise ValueError(f"hands {state.hands} and deck {state.deck.cards()} are not the three cards")
        if any(b not in (PASS, BET) for b in state.history):
            raise ValueError(f"history {state.history} holds a move that is neither pass nor bet")
        if (state.history and len(state.hands) < 2) or not any(
            state.history == h[: len(state.history)] for h in (*_SHOWDOWN, *_FOLD)
        ):
            raise ValueError(f"history {state.history} is not a Kuhn betting line")

    def describe_step(self, state: KuhnState) -> str:
        if len(state.hands) < 2:
            return f"the deal (card {len(state.hands) + 1} of 2)"
        return f"the betting after {self._history(state.history)}"

    def render(self, state: KuhnState, player: int | None = None) -> str:
        hist = self._history(state.history)
        if player is None:
            hands = " ".join(CARDS[c] for c in state.hands) or "-"
            return f"hands: {hands}; history: {hist}"
        view = self.observe(state, player)
        held = CARDS[view.card] if view.card is not None else "nothing yet"
        return f"player {player} holds {held}; history: {hist}"

    @staticmethod
    def _history(history: tuple[int, ...]) -> str:
        return " ".join("bet" if b == BET else "pass" for b in history) or "-"


GAME = Kuhn()
