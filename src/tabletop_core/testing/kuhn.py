"""Kuhn poker: the small test game of the core (chance, hidden information, two players, zero-sum).

Three cards (J, Q, K) are dealt one to each player from a :class:`~tabletop_core.components.Pile` (two chance
nodes over the remaining cards). Each antes 1. Player 0 passes or bets 1; after a pass player 1 may pass
(showdown for 1) or bet, and then player 0 calls or folds; after a bet player 1 calls (showdown for 2) or folds.
The rules are two frames on the core's flow driver (the deal is a :class:`~tabletop_core.flow.Chance` frame, the
betting a :class:`~tabletop_core.flow.Decision` frame) and the observation is a declared
:class:`~tabletop_core.tensor.TensorLayout`; ``docs/adding-a-game.md`` walks through the pattern.

>>> state = GAME.new_game(seed=1)
>>> GAME.render(state, 0)
'player 0 holds Q; history: -'
"""

from __future__ import annotations

import functools
from typing import ClassVar

import attrs
import numpy as np

from tabletop_core.components import Pile
from tabletop_core.errors import IllegalActionError
from tabletop_core.fastcopy import replace, replacer
from tabletop_core.flow import Chance, Decision, Driven, Driver, Flow, Phase
from tabletop_core.spec import CHANCE, ChanceMode, GameSpec, Information, Utility
from tabletop_core.tensor import TensorLayout

__all__ = ["DRIVER", "GAME", "OBSERVATION", "Deal", "Kuhn", "KuhnOptions", "KuhnState", "KuhnView", "Move"]

CARDS = "JQK"
PASS, BET = 0, 1
_SHOWDOWN = {(PASS, PASS): 1, (BET, BET): 2, (PASS, BET, BET): 2}
_FOLD = {(BET, PASS): 0, (PASS, BET, PASS): 1}  # history -> the player who wins by the fold
_ENDS = frozenset((*_SHOWDOWN, *_FOLD))


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


# ----- the rules: the deal, then the betting ----------------------------------------------------------------------

FLOW = Flow((Phase("deal", ("cards",)), Phase("betting", ("bets",))))
_DEAL, _BETTING = FLOW.start(), FLOW.at("betting")


_DEALS = (Deal(0), Deal(1), Deal(2))


@functools.lru_cache(maxsize=16)
def _deal_outcomes(deck: Pile[int]) -> tuple[tuple[Deal, float], ...]:
    """The deals from ``deck`` (a pure function of the pile: a cache of the few piles Kuhn poker has)."""
    return tuple((_DEALS[card], p) for card, p in deck.draw_outcomes())


@functools.lru_cache(maxsize=16)
def _drawn(deck: Pile[int], card: int) -> Pile[int]:
    """``deck`` after drawing ``card`` (a pure function of two values: a cache of the few draws Kuhn poker has)."""
    return deck.draw(card)


#: The state copies the two verbs make, each prepared once (see :func:`~tabletop_core.fastcopy.replacer`).
_with_deal = replacer(KuhnState, "deck", "hands")
_with_history = replacer(KuhnState, "history")
_FULL_DECK = Pile.of((0, 1, 2))


class DealCard(Chance[KuhnState, Deal]):
    """Chance deals the next card from the undealt ones (player 0's first, then player 1's)."""

    def chance_outcomes(self, state: KuhnState) -> tuple[tuple[Deal, float], ...]:
        return _deal_outcomes(state.deck)

    def apply(self, state: KuhnState, action: Deal) -> KuhnState:
        card = action.card
        return _with_deal(state, _drawn(state.deck, card), (*state.hands, card))


class Bet(Decision[KuhnState, Move]):
    """The players alternate, player 0 first: pass (check or fold) or bet (bet or call)."""

    _MOVES = (Move(PASS), Move(BET))

    def actor(self, state: KuhnState) -> int:
        return len(state.history) % 2

    def legal_actions(self, state: KuhnState) -> tuple[Move, ...]:
        return self._MOVES

    def is_legal(self, state: KuhnState, action: object) -> bool:
        return isinstance(action, Move)

    def apply(self, state: KuhnState, action: Move) -> KuhnState:
        return _with_history(state, (*state.history, action.bet))


DRIVER: Driver[KuhnState, Move | Deal] = Driver(
    "kuhn",
    FLOW,
    {("deal", "cards"): DealCard(), ("betting", "bets"): Bet()},
    position=lambda s: _DEAL if len(s.hands) < 2 else _BETTING,  # derived: the state stores no position
    over=lambda s: s.history in _ENDS,
)

#: The observation tensor: whose view (one-hot), the private card (one-hot), each betting round's move (one-hot).
OBSERVATION = TensorLayout((("player", (2,)), ("card", (3,)), ("bets", (3, 2))))


# ----- the game: delegations, codec, notation, view --------------------------------------------------------------


@attrs.frozen
class KuhnView:
    """What one player knows: their own card (if dealt) and the public betting history."""

    player: int
    card: int | None
    history: tuple[int, ...]


_OTHERS = tuple(tuple(c for c in range(3) if c != own) for own in range(3))  # the cards another player may hold
_UNDEALT = tuple(Pile.of([c]) for c in range(3))  # the deck once both other cards are dealt


class Kuhn(Driven[KuhnState, Move | Deal, KuhnOptions]):
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
        observation_shape=OBSERVATION.shape,
        utility_sum=0.0,
        provides_information_state=True,
        tensor_bounds=(0.0, 1.0),
    )
    state_type = KuhnState
    action_type = Move | Deal
    options_type = KuhnOptions
    driver = DRIVER
    #: The layouts the conformance suite names tensor pieces by.
    observation_layout = OBSERVATION
    information_state_layout = OBSERVATION

    def initial_state(self, options: KuhnOptions) -> KuhnState:
        return DRIVER.run(KuhnState(options, _FULL_DECK))

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

    def public_legal_actions(self, state: KuhnState) -> tuple[Move | Deal, ...] | None:
        """The bets (pass, bet) are public; the deal's outcomes, the cards left, are not."""
        return None if self.current_player(state) == CHANCE else self.legal_actions(state)

    def determinize(self, state: KuhnState, player: int, rng: np.random.Generator) -> KuhnState:
        if len(state.hands) < 2:
            return state
        own = state.hands[player]
        pool = _OTHERS[own]
        card = pool[int(rng.integers(len(pool)))]
        hands = (own, card) if player == 0 else (card, own)
        return replace(state, deck=_UNDEALT[3 - own - card], hands=hands)

    def enumerate_information_set(self, state: KuhnState, player: int) -> tuple[tuple[KuhnState, float], ...]:
        """Every deal of the opponent's card from the cards ``player`` has not seen, by its share of them."""
        if len(state.hands) < 2:
            return ((state, 1.0),)
        other = 1 - player
        unseen = [state.hands[other], *state.deck.cards()]
        out = []
        for card in sorted(set(unseen)):
            rest = list(unseen)
            rest.remove(card)
            hands = (card, state.hands[1]) if other == 0 else (state.hands[0], card)
            out.append((replace(state, deck=Pile.of(sorted(rest)), hands=hands), unseen.count(card) / len(unseen)))
        return tuple(out)

    def redeal(self, state: KuhnState, player: int, rng: np.random.Generator) -> KuhnState:
        """Shuffle the cards ``player`` has not seen and deal the opponent the first (a second determinizer)."""
        if len(state.hands) < 2:
            return state
        other = 1 - player
        unseen = [state.hands[other], *state.deck.cards()]
        order = rng.permutation(len(unseen))
        card, rest = unseen[order[0]], sorted(unseen[i] for i in order[1:])
        hands = (card, state.hands[1]) if other == 0 else (state.hands[0], card)
        return replace(state, deck=Pile.of(rest), hands=hands)

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
        tensor, pieces = OBSERVATION.new()
        pieces["player"][view.player] = 1.0
        if view.card is not None:
            pieces["card"][view.card] = 1.0
        for i, bet in enumerate(view.history):
            pieces["bets"][i, bet] = 1.0
        return tensor

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
