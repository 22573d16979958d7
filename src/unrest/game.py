"""The ``Game`` object of Unrest: ties the state, the rules, the views and the determinizer together.

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

from tabletop_core.errors import IllegalActionError
from tabletop_core.game import Game
from tabletop_core.spec import CHANCE, TERMINAL, ChanceMode, GameSpec, Information, Utility
from unrest import setup
from unrest.actions import (
    DEAL_MISSIONS,
    DECISIONS,
    DRAWS,
    NUM_ACTIONS,
    NUM_MOVE_CODES,
    NUM_OUTCOMES,
    SET_DISTRICTS,
    Action,
    Blockade,
    DealMission,
    Destroy,
    Draw,
    Outcome,
    Place,
    Plan,
    Reroute,
    Reveal,
    SetDistrict,
    Surveil,
    Target,
    decision_id,
    outcome_id,
    public_code,
)
from unrest.content import CONTENT
from unrest.determinization import determinize_empire, draws_fit
from unrest.rules import liberation
from unrest.rules import round as rnd
from unrest.rules.cards import DECK, KINDS, MISDIRECTION, card_name, parse_card
from unrest.state import CAPITOL, EMPIRE, FLOW, POWERS, REBELLION, UnrestOptions, UnrestState
from unrest.view import (
    HIDDEN,
    INFORMATION_STATE_SHAPE,
    MAX_MOVES,
    OBSERVATION_SHAPE,
    UnrestInformation,
    UnrestView,
    check_player,
    information_state,
    information_state_tensor,
    observation_tensor,
    observe,
)

__all__ = ["GAME", "Unrest"]

#: The last round: 24 cards, 5 in the opening hand and 3 drawn a round, leave 1 for round 7's draw, so round 8
#: is the Final Encounter.
LAST_ROUND = 8
_CHANCE_STEPS = frozenset({"districts", "hand", "missions", "draw"})
_SHORT = tuple(d.short for d in CONTENT.districts)
_NAME = tuple(d.name for d in CONTENT.districts)
_BY_SHORT = {d.short.lower(): d.id for d in CONTENT.districts}
_MISSION_BY_NAME = {m.name.lower(): m.id for m in CONTENT.missions}


class Unrest(Game[UnrestState, Action, UnrestOptions]):
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
        # Setup 5 + 5 + 3; 8 rounds of target 1, plan 3, defend 2, place 3, reveals (at most 24 in all), draws
        # 3.
        max_game_length=13 + 8 * 12 + 24,
        observation_shape=OBSERVATION_SHAPE,
        utility_sum=0.0,
        provides_information_state=True,
        information_state_shape=INFORMATION_STATE_SHAPE,
    )
    state_type = UnrestState
    action_type = Action
    options_type = UnrestOptions

    # ----- the rules
    # ---------------------------------------------------------------------------------------------

    def initial_state(self, options: UnrestOptions) -> UnrestState:
        """The first chance node of setup."""
        return setup.initial(options)

    def current_player(self, state: UnrestState) -> int:
        """The Rebellion (0), the Empire (1), ``CHANCE`` or ``TERMINAL``."""
        if state.winner >= 0:
            return TERMINAL
        step = state.pos.step
        if step in _CHANCE_STEPS:
            return CHANCE
        return EMPIRE if step == "defend" else REBELLION

    def legal_actions(self, state: UnrestState) -> tuple[Action, ...]:
        """Every legal decision (or chance outcome), sorted by id."""
        if state.winner >= 0:
            return ()
        step = state.pos.step
        if step == "plan":
            return rnd.plan_actions(state)
        if step == "defend":
            return rnd.defend_actions(state)
        if step == "place":
            return rnd.place_actions(state)
        if step == "target":
            return rnd.target_actions(state)
        if step == "liberate":
            return liberation.reveal_actions(state)
        return tuple(a for a, _ in self.chance_outcomes(state))

    def chance_outcomes(self, state: UnrestState) -> tuple[tuple[Action, float], ...]:
        """Exact outcome probabilities at a chance node (empty elsewhere)."""
        if state.winner >= 0 or state.pos.step not in _CHANCE_STEPS:
            return ()
        if state.pos.step == "draw":
            return setup.draw_outcomes(state.deck)
        return setup.setup_outcomes(state)

    def is_legal(self, state: UnrestState, action: Action) -> bool:
        """Whether ``action`` is legal in ``state`` (never raises; draws and placements checked directly)."""
        if state.winner >= 0:
            return False
        step = state.pos.step
        if isinstance(action, Draw):
            return step in ("hand", "draw") and state.deck[action.card] > 0
        if isinstance(action, Place):
            if step != "place":
                return False
            slot = next(i for i, p in enumerate(state.plan) if p is not None)
            return action.slot == slot and action.district in rnd.place_targets(state)
        if isinstance(action, Target):
            return step == "target" and action.district in state.row[:-1]
        if isinstance(action, Plan):
            return step == "plan" and rnd.plan_legal(state, action)
        if isinstance(action, Surveil | Destroy | Reroute | Blockade):
            return step == "defend" and rnd.power_legal(state, action)
        try:
            return action in self.legal_actions(state)
        except (TypeError, ValueError):
            return False

    def _apply(self, state: UnrestState, action: Action) -> UnrestState:
        if isinstance(action, Draw):
            if state.pos.step == "draw":
                state = setup.draw(state, action.card)
                return liberation.next_round(state) if state.to_draw == 0 else state
            return setup.apply_setup(state, action)
        if isinstance(action, (SetDistrict, DealMission)):
            return setup.apply_setup(state, action)
        if isinstance(action, Plan):
            after = rnd.apply_plan(state, action)
        elif isinstance(action, Place):
            after = rnd.apply_place(state, action)
        elif isinstance(action, (Surveil, Destroy, Reroute, Blockade)):
            after = rnd.apply_power(state, action)
        elif isinstance(action, Target):
            after = rnd.apply_target(state, action)
        else:
            after = liberation.apply_reveal(state, action)
        # Both players remember every decision (a hidden plan without its card): the information state.
        return after.logged(public_code(action))

    def returns(self, state: UnrestState) -> tuple[float, ...]:
        """+1 to the winner and -1 to the loser once the game is over; 0 each before."""
        if state.winner < 0:
            return (0.0, 0.0)
        return (1.0, -1.0) if state.winner == REBELLION else (-1.0, 1.0)

    # ----- information
    # -------------------------------------------------------------------------------------------

    def observe(self, state: UnrestState, player: int) -> UnrestView:
        """What ``player`` may know (see :mod:`unrest.view`)."""
        return observe(state, player)

    def determinize(self, state: UnrestState, player: int, rng: np.random.Generator) -> UnrestState:
        """A full state drawn uniformly among those consistent with ``player``'s information state (its view and
        the decisions so far; see :mod:`unrest.determinization`).

        The Rebellion sees all but the deck, which its view determines, so its determinization is ``state``.

        Raises:
            ValueError: if ``player`` is not 0 or 1 (not ``CHANCE`` either: that would return the truth).
        """
        check_player(player)
        if player == EMPIRE:
            return determinize_empire(state, rng)
        return state

    def observation_tensor(self, state: UnrestState, player: int) -> np.ndarray:
        """The view of ``player`` as a float32 vector (see :func:`unrest.view.observation_tensor`)."""
        return observation_tensor(observe(state, player))

    def information_state(self, state: UnrestState, player: int) -> UnrestInformation:
        """What ``player`` has seen and done so far, perfect recall (see :class:`unrest.view.UnrestInformation`)."""
        return information_state(state, player)

    def information_state_tensor(self, state: UnrestState, player: int) -> np.ndarray:
        """``player``'s information state as a float32 vector (see :func:`unrest.view.information_state_tensor`)."""
        return information_state_tensor(information_state(state, player))

    # ----- action codecs
    # -----------------------------------------------------------------------------------------

    def action_id(self, action: Action) -> int:
        """Decision ids in ``range(NUM_ACTIONS)``; chance outcome ids in ``range(NUM_OUTCOMES)``."""
        if isinstance(action, (Draw, SetDistrict, DealMission)):
            return outcome_id(action)
        return decision_id(action)

    def action_from_id(self, state: UnrestState, action_id: int) -> Action:
        """Decode ``action_id`` in the id space of ``state``'s node."""
        if type(action_id) is not int:
            raise IllegalActionError(f"unrest: action id must be an int, not {action_id!r}")
        if self.current_player(state) == CHANCE:
            step = state.pos.step
            table: tuple[Outcome, ...] = (
                SET_DISTRICTS if step == "districts" else DEAL_MISSIONS if step == "missions" else DRAWS
            )
            if 0 <= action_id < len(table):
                return table[action_id]
        elif 0 <= action_id < NUM_ACTIONS:
            return DECISIONS[action_id]
        raise IllegalActionError(f"unrest: no action with id {action_id!r} at {self.describe_step(state)}")

    def action_to_str(self, state: UnrestState, action: Action) -> str:
        """Readable forms: ``target Plenty and Peace``, ``plan 5D hidden``, ``surveil card 2``, ``reroute card 1 to
        Truth``, ``blockade Peace``, ``place 3S in Police``, ``reveal 4I``, ``district Capitol``, ``mission
        Coup``, ``draw 2U``."""
        if isinstance(action, Plan):
            return f"plan {card_name(action.card)} {'hidden' if action.hidden else 'revealed'}"
        if isinstance(action, Place):
            return f"place {self._slot_card(state, action.slot)} in {_SHORT[action.district]}"
        if isinstance(action, Draw):
            return f"draw {card_name(action.card)}"
        if isinstance(action, Target):
            return f"target {_target_pair(state, action.district)}"
        if isinstance(action, Surveil):
            return f"surveil card {action.slot + 1}"
        if isinstance(action, Destroy):
            return f"destroy card {action.slot + 1}"
        if isinstance(action, Reroute):
            return f"reroute card {action.slot + 1} to {_SHORT[action.district]}"
        if isinstance(action, Blockade):
            return f"blockade {_SHORT[action.district]}"
        if isinstance(action, Reveal):
            frame = state.pending.top
            stack = state.stacks[frame.district] if frame is not None else ()
            name = card_name(stack[action.index].card) if action.index < len(stack) else "?"
            return f"reveal {name} (card {action.index + 1})"
        if isinstance(action, SetDistrict):
            return f"district {_SHORT[action.district]}"
        return f"mission {CONTENT.missions[action.mission].name}"

    def parse_action(self, state: UnrestState, text: str) -> Action:
        """Read an action written as :meth:`action_to_str` writes it (case and spacing are not significant).

        Reads the grammar directly (no scan of every legal action's string) and falls back to the scan. A
        target may also be named by its left District alone (``target Plenty``).

        Raises:
            IllegalActionError: when no legal action reads as ``text``.
        """
        wanted = " ".join(str(text).lower().split())
        try:
            action = self._read(state, wanted.split(" "))
        except (ValueError, KeyError, IndexError, StopIteration):
            action = None
        if action is not None and self.is_legal(state, action):
            if " ".join(self.action_to_str(state, action).lower().split()) == wanted:
                return action
            if isinstance(action, Target) and wanted == f"target {_SHORT[action.district].lower()}":
                return action
        return super().parse_action(state, text)

    @staticmethod
    def _read(state: UnrestState, w: list[str]) -> Action | None:
        verb = w[0]
        if verb == "plan":
            return Plan(parse_card(w[1]), w[2] == "hidden")
        if verb == "place":
            slot = next(i for i, p in enumerate(state.plan) if p is not None)
            return Place(slot, _BY_SHORT[w[-1]])
        if verb == "draw":
            return DRAWS[parse_card(w[1])]
        if verb == "target":
            return Target(_BY_SHORT[w[1]])
        if verb in ("surveil", "destroy"):
            return (Surveil if verb == "surveil" else Destroy)(int(w[2]) - 1)
        if verb == "reroute":
            return Reroute(int(w[2]) - 1, _BY_SHORT[w[4]])
        if verb == "blockade":
            return Blockade(_BY_SHORT[w[1]])
        if verb == "reveal":
            return Reveal(int(w[-1].rstrip(")")) - 1)
        if verb == "district":
            return SetDistrict(_BY_SHORT[w[1]])
        if verb == "mission":
            return DealMission(_MISSION_BY_NAME[" ".join(w[1:])])
        return None

    @staticmethod
    def _slot_card(state: UnrestState, slot: int) -> str:
        p = state.plan[slot] if slot < len(state.plan) else None
        return card_name(p.card) if p is not None else f"card {slot + 1}"

    # ----- the rest of the protocol
    # ------------------------------------------------------------------------------

    def describe_step(self, state: UnrestState) -> str:
        """Round, phase and step (and the Final Encounter)."""
        if state.winner >= 0:
            return f"game over ({'Rebellion' if state.winner == REBELLION else 'Empire'} won)"
        if state.pos.round == 0:
            return f"setup: {state.pos.step}"
        final = " (Final Encounter)" if state.final and state.pos.step != "draw" else ""
        return f"round {state.pos.round}{final}: {state.pos.phase} phase, {state.pos.step} step"

    def validate_state(self, state: UnrestState) -> None:
        """Check the invariants of a (deserialized) state: card conservation, the row, the flow position."""
        FLOW.at(state.pos.phase, state.pos.step)
        rnd_now = state.pos.round
        if not 0 <= rnd_now <= LAST_ROUND:
            raise ValueError(f"round {rnd_now} is outside the game's rounds 0..{LAST_ROUND}")
        placed = [c.round for s in state.stacks for c in s] + [x.round for x in state.destroyed]
        if any(not 1 <= r <= rnd_now for r in placed):
            raise ValueError(f"a card was placed or destroyed in a round outside 1..{rnd_now} (the current round)")
        if len(state.deck) != KINDS or any(n < 0 for n in state.deck):
            raise ValueError("deck must give a non-negative count for each of the 21 card kinds")
        if len(state.stacks) != 5 or len(state.freed) != 5 or len(state.tokens) != 4:
            raise ValueError("stacks and freed need 5 entries, tokens 4")
        if list(state.hand) != sorted(state.hand):
            raise ValueError("hand must be sorted")
        counts = list(state.deck)
        for k in state.hand:
            counts[k] += 1
        for stack in state.stacks:
            for c in stack:
                counts[c.card] += 1
        for p in state.plan:
            if p is not None:
                counts[p.card] += 1
                if p.revealed and p.card == MISDIRECTION:
                    raise ValueError("a Misdirection card is never planned revealed")
        for x in state.destroyed:
            counts[x.card] += 1
            if x.card == MISDIRECTION and not x.revealed:
                raise ValueError("a destroyed Misdirection card is revealed")
        if tuple(counts) != DECK:
            raise ValueError(f"cards are not conserved: {counts} != {list(DECK)}")
        in_play = [d for d in range(5) if not state.freed[d]]
        if state.pos.round > 0 and sorted(state.row) != in_play:
            raise ValueError(f"row {state.row} must hold exactly the unliberated Districts {in_play}")
        if state.pos.round == 0 and state.pos.step == "districts":
            if state.laid != state.row:
                raise ValueError(f"laid {state.laid} must be the row {state.row} while the row is being laid")
            row = state.row
            if len(row) >= 5 or len(set(row)) != len(row) or any(type(d) is not int or not 0 <= d < 5 for d in row):
                raise ValueError(f"row {row} being laid must hold fewer than 5 distinct Districts")
            capitol_at = [i for i, d in enumerate(row) if d == CAPITOL]
            if state.options.variant == "capitol" and (len(row) == 2 or capitol_at != ([2] if len(row) > 2 else [])):
                raise ValueError(f"row {row}: the Capitol variant lays the Capitol third, right after the second")
        else:
            if sorted(state.laid) != list(range(5)):
                raise ValueError(f"laid {state.laid} must hold the five Districts as they were laid")
            if state.row != tuple(d for d in state.laid if not state.freed[d]):
                raise ValueError(f"row {state.row} must be the row as laid {state.laid} without liberated Districts")
            if state.options.variant == "capitol" and state.laid[2] != CAPITOL:
                raise ValueError("the Capitol variant lays the Capitol in the centre")
        if len(set(state.missions)) != len(state.missions) or state.missions[:1] != (0,):
            raise ValueError("missions must be distinct, Revolution first")
        if any(not 0 <= m < len(CONTENT.missions) for m in state.missions):
            raise ValueError("unknown mission id")
        if state.winner not in (-1, REBELLION, EMPIRE):
            raise ValueError("winner must be -1, 0 or 1")
        for d in state.aoi if state.pos.step not in ("liberate", "draw") else ():
            if d not in state.row:
                raise ValueError("the Area of Interest marks Districts in play")
        if any(state.tokens[p] for p in state.used) or len(set(state.used)) != len(state.used):
            raise ValueError("powers used this round are distinct and face down")
        planned = any(p is not None for p in state.plan)
        if len(state.plan) > rnd.PLAN_SIZE or (planned and state.pos.step not in ("plan", "defend", "place")):
            raise ValueError("at most three planned cards, only between planning and placement")
        if state.pos.step == "place" and state.winner < 0 and not planned:
            raise ValueError("the placement step needs a planned card left to place")
        top = state.pending.top
        if (top is not None) != (state.pos.step == "liberate" and state.winner < 0):
            raise ValueError("a pending proof exists exactly at an undecided liberation step")
        if len(state.moves) > MAX_MOVES or any(type(m) is not int or not 0 <= m < NUM_MOVE_CODES for m in state.moves):
            raise ValueError(f"moves must be at most {MAX_MOVES} public codes in 0..{NUM_MOVE_CODES - 1}")
        if state.pos.round == 0 and state.moves:
            raise ValueError("no decision is taken during setup, so no move is logged")
        why = draws_fit(state)
        if why is not None:
            raise ValueError(why)

    def describe_transition(self, before: UnrestState, action: Action, after: UnrestState) -> tuple[str, ...]:
        """Liberations and the end of the game, which the rules bring about inside a step."""
        lines = [
            f"{_NAME[d]} is liberated (round {after.freed[d]})"
            for d in range(5)
            if after.freed[d] and not before.freed[d]
        ]
        if after.winner >= 0 and before.winner < 0:
            lines.append(f"the {'Rebellion' if after.winner == REBELLION else 'Empire'} wins")
        return tuple(lines)

    def render(self, state: UnrestState, player: int | None = None) -> str:
        """The table as text: the row with stacks, the plan, the tokens, the hand, as ``player`` sees it (the whole
        truth, deck included, when ``player`` is ``None``)."""
        view = observe(state, REBELLION if player is None else player)
        lines = [f"Unrest, {self.describe_step(state)}"]
        missions = ", ".join(CONTENT.missions[m].name for m in view.missions)
        lines.append(f"Missions: {missions}")
        for d in view.row:
            marks = "".join([" [AoI]" if d in view.aoi else "", " [Blockade]" if d == view.blockade else ""])
            lines.append(f"  {_NAME[d]}{marks}: {_cards(view.stacks[d])}")
        for d in range(5):
            if view.freed[d]:
                lines.append(f"  liberated in round {view.freed[d]}: {_NAME[d]}: {_cards(view.stacks[d])}")
        if any(p is not None for p in view.plan):
            plan = ", ".join(
                f"{i + 1}:{_card(p.card, p.revealed)}" if p is not None else f"{i + 1}:-"
                for i, p in enumerate(view.plan)
            )
            lines.append(f"Plan: {plan}")
        if view.proving >= 0:
            stack = view.stacks[view.proving]
            shown = " ".join(card_name(stack[i].card) for i in view.chosen)
            so_far = f"revealed {shown} so far" if shown else "nothing revealed yet"
            lines.append(f"Proving {_NAME[view.proving]}: {so_far}")
        up = [POWERS[t] for t, face_up in enumerate(view.tokens) if face_up]
        lines.append(f"Empire tokens face up: {', '.join(up) or 'none'}")
        if view.player == REBELLION:
            hand = " ".join(card_name(k) for k in view.hand) or "-"
        else:
            hand = f"{view.hand_size} cards"
        lines.append(f"Hand: {hand}; deck: {view.deck_size} cards")
        if player is None and view.deck_size:
            lines.append(
                "Deck (unordered): " + " ".join(card_name(k) for k, n in enumerate(state.deck) for _ in range(n))
            )
        if view.destroyed:
            lines.append(f"Destroyed: {_cards(view.destroyed)}")
        return "\n".join(lines)

    def default_agents(self, state: UnrestState) -> list[Any]:
        """The heuristic Rebellion and Empire bots."""
        from unrest.bots import EmpireBot, RebellionBot

        return [RebellionBot(), EmpireBot()]


def _target_pair(state: UnrestState, district: int) -> str:
    """``Plenty and Peace``: the District a target names and its right-hand neighbour (when it has one)."""
    row = state.row
    if district in row[:-1]:
        return f"{_SHORT[district]} and {_SHORT[row[row.index(district) + 1]]}"
    return _SHORT[district]


def _card(kind: int, revealed: bool) -> str:
    name = "??" if kind == HIDDEN else card_name(kind)
    return name if revealed else f"({name})"


def _cards(cards: Any) -> str:
    return " ".join(_card(c.card, c.revealed) for c in cards) or "-"


GAME = Unrest()
