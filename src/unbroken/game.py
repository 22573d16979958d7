"""The ``Game`` object that ties Unbroken's rules to the core protocol.

>>> from unbroken import GAME
>>> state = GAME.new_game(seed=3)
>>> GAME.current_player(state), state.pos.step
(0, 'preparation')
>>> GAME.action_to_str(state, GAME.legal_actions(state)[0])
'fight'
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

import numpy as np

from tabletop_core.components import Pile
from tabletop_core.errors import IllegalActionError
from tabletop_core.game import Game
from tabletop_core.spec import CHANCE, TERMINAL, ChanceMode, GameSpec, Information, Utility
from unbroken import glossary
from unbroken.actions import (
    MAX_CHANCE,
    NUM_ACTIONS,
    VERBS,
    Act,
    Action,
    Attack,
    Craft,
    Die,
    DrawCard,
    Eat,
    Pick,
    Respond,
    Use,
    action_id,
    decision_from_id,
)
from unbroken.content.loader import get_pack
from unbroken.content.schema import RESOURCES, Op
from unbroken.rules import engine
from unbroken.rules.combat import monster
from unbroken.rules.travel import action_abilities
from unbroken.rules.triggers import label
from unbroken.state import CAPS, FLOW, SCORE, SE, Choose, Cont, Draw, Options, Roll, State, Trig, new_tracks
from unbroken.view import OBS_SHAPE, View, observation, observe, render, score

__all__ = ["GAME", "LOSS", "MAX_SCORE", "Unbroken"]

#: The return of a lost game: below every win (a win returns its score, 0 or more).
LOSS = -1.0
#: The best possible score (every scoring track full).
MAX_SCORE = float(sum(c * p for c, p in zip(CAPS, SCORE, strict=True)))


class Unbroken(Game[State, Action, Options]):
    """The rules of Unbroken (solo): returns are the score on a win, -1 on a loss."""

    spec = GameSpec(
        short_name="unbroken",
        long_name="Unbroken",
        min_num_players=1,
        max_num_players=1,
        chance_mode=ChanceMode.EXPLICIT_STOCHASTIC,
        information=Information.PERFECT,
        utility=Utility.GENERAL_SUM,
        min_utility=LOSS,
        max_utility=MAX_SCORE,
        num_distinct_actions=NUM_ACTIONS,
        max_chance_outcomes=MAX_CHANCE,
        max_game_length=5000,
        observation_shape=OBS_SHAPE,
    )
    state_type = State
    action_type = Act | Pick | Craft | Attack | Use | Respond | Eat | Die | DrawCard
    options_type = Options

    def initial_state(self, options: Options) -> State:
        """Setup: Bare Hands, shuffled decks, the character's Ability Uses, Small Effort by difficulty."""
        pack = get_pack(options.pack, options.pack_sha256)
        se = {"easy": 15 if options.easy_se15 else 13, "normal": 13, "hard": 10}[options.difficulty]
        state = State(
            options=options,
            pos=FLOW.start(),
            res=new_tracks(se),
            uses=1,
            encounters=Pile.of(pack.encounter_deck()),
            skill_deck=Pile.of(range(len(pack.skills))),
        )
        if options.difficulty == "easy":
            state = state.push(Cont("skill_keep"), Draw("skill", 2), Roll("easy"))
        return engine.advance(state)

    def current_player(self, state: State) -> int:
        """TERMINAL when the game is over, CHANCE at a roll or draw, else the player (0)."""
        if state.outcome:
            return TERMINAL
        return CHANCE if engine.is_chance(state) else 0

    def legal_actions(self, state: State) -> tuple[Action, ...]:
        """Every legal action sorted by id (the chance outcomes at a chance node)."""
        if state.outcome:
            return ()
        if engine.is_chance(state):
            return tuple(a for a, _ in engine.chance_outcomes(state))
        return tuple(sorted(engine.decisions(state), key=action_id))

    def chance_outcomes(self, state: State) -> tuple[tuple[Action, float], ...]:
        """The outcomes of a roll (1/6 each) or a draw (count/size over the remaining cards)."""
        if state.outcome or not engine.is_chance(state):
            return ()
        return engine.chance_outcomes(state)

    def _apply(self, state: State, action: Action) -> State:
        return engine.apply(state, action)

    def is_legal(self, state: State, action: Action) -> bool:
        """Whether ``action`` is legal, without building the outcome list at chance nodes."""
        try:
            if state.outcome:
                return False
            if engine.is_chance(state):
                return engine.chance_legal(state, action)
            return action in engine.decisions(state)
        except (TypeError, ValueError):
            return False

    def parse_action(self, state: State, text: str) -> Action:
        """Read an action as :meth:`action_to_str` writes it (draws and rolls are read directly)."""
        wanted = " ".join(text.lower().split())
        if engine.is_chance(state) and state.outcome == 0:
            top = state.pending.top
            found: Action | None = None
            head = " ".join(wanted.replace(":", " ").split()[:2])
            if isinstance(top, Roll) and head in _ROLLS:
                found = _ROLLS[head]
            elif isinstance(top, Draw) and wanted.startswith("draw "):
                index = _names(state.options.pack, state.options.pack_sha256, top.deck).get(wanted[5:])
                found = None if index is None else DrawCard(index)
            if found is not None and engine.chance_legal(state, found):
                return found
            raise IllegalActionError(self._illegal_message(state, text, "cannot read"))
        return super().parse_action(state, text)

    def returns(self, state: State) -> tuple[float, ...]:
        """The score on a win, ``LOSS`` (-1) on a loss, 0.0 while the game is running."""
        if state.outcome > 0:
            return (float(score(state)),)
        return (LOSS,) if state.outcome < 0 else (0.0,)

    def observe(self, state: State, player: int) -> View:
        """The player's view: the whole state (nothing is hidden but future chance)."""
        return observe(state, player)

    def action_id(self, action: Action) -> int:
        """The stable id of ``action`` (see :mod:`unbroken.actions`)."""
        return action_id(action)

    def action_from_id(self, state: State, action_id: int) -> Action:
        """Decode ``action_id`` as a chance outcome at chance nodes, else as a decision."""
        try:
            if engine.is_chance(state):
                if isinstance(state.pending.top, Roll):
                    return Die(action_id + 1)
                return DrawCard(action_id)
            return decision_from_id(action_id)
        except (TypeError, ValueError) as exc:
            raise IllegalActionError(
                f"unbroken: no action with id {action_id!r} at {self.describe_step(state)}"
            ) from exc

    def action_to_str(self, state: State, action: Action) -> str:
        """A short readable form: ``explore``, ``attack cleave``, ``pick 1 Lichen Wall``, ``roll 6``."""
        pack = state.pack
        top = state.pending.top
        if isinstance(action, Die):
            return _roll_text(state, action.face)
        if isinstance(action, DrawCard):
            deck = pack.encounters if isinstance(top, Draw) and top.deck == "enc" else pack.skills
            return f"draw {deck[action.index].name}" if action.index < len(deck) else f"draw #{action.index}"
        if isinstance(action, Act):
            return VERBS[action.verb]
        if isinstance(action, Eat):
            return f"eat {action.n}"
        if isinstance(action, Craft):
            ups = pack.weapon(state.weapon).upgrades
            return f"craft {ups[action.i].to}" if action.i < len(ups) else f"craft #{action.i}"
        if isinstance(action, Attack):
            attacks = pack.weapon(state.weapon).attacks
            return f"attack {attacks[action.i].name}" if action.i < len(attacks) else f"attack #{action.i}"
        if isinstance(action, Use):
            abil = action_abilities(state)
            if action.i < len(abil):
                src, index, _ = abil[action.i]
                return f"use {label(state, src, index)}"
            return f"use #{action.i}"
        if isinstance(action, Respond):
            if isinstance(top, Trig) and action.i < len(top.cands):
                c = top.cands[action.i]
                return f"respond {action.i} {label(state, c.src, c.index)}"
            return f"respond {action.i}"
        return f"pick {action.i} {self._pick_label(state, action.i)}"

    @staticmethod
    def _pick_label(state: State, i: int) -> str:
        top = state.pending.top
        pack = state.pack
        if isinstance(top, Choose) and i < len(top.labels):
            return top.labels[i]
        if isinstance(top, Cont) and top.kind == "explore_pick" and i < len(state.revealed):
            return pack.encounters[state.revealed[i]].name
        if isinstance(top, Cont) and top.kind == "pay":
            return ("medium effort first", "large effort first")[i] if i < 2 else ""
        if isinstance(top, Cont) and top.kind == "skill_keep" and i < len(state.offered):
            return pack.skills[state.offered[i]].name
        return ""

    def observation_tensor(self, state: State, player: int) -> np.ndarray:
        """The float32 tensor of ``observe(state, player)``."""
        return observation(self.observe(state, player))

    def render(self, state: State, player: int | None = None) -> str:
        """A text picture of the Display."""
        return render(state)

    def describe_step(self, state: State) -> str:
        """The Level, phase/step and the pending frame, for messages."""
        top = state.pending.top
        frame = "" if top is None else f", pending {type(top).__name__.lower()} {getattr(top, 'kind', '')}".rstrip()
        return f"Level {state.level} {state.pos.phase}/{state.pos.step}{frame}"

    def validate_state(self, state: State) -> None:
        """Refuse a (deserialized) state that breaks an invariant or names cards the pack lacks."""
        if not 1 <= state.pos.round <= 4:
            raise ValueError(f"Level {state.pos.round} is not 1..4")
        if state.outcome not in (-1, 0, 1):
            raise ValueError(f"bad outcome {state.outcome}")
        if len(state.res) != 9:
            raise ValueError("nine resource tracks expected")
        if not state.weapons or state.weapons[0] != "bare_hands":
            raise ValueError("Bare Hands must be the first weapon")
        if state.amount(SE) < 0:
            raise ValueError("negative Small Effort")
        pack = state.pack
        ids = {w.id for w in pack.weapons}
        if any(w not in ids for w in state.weapons + state.aside):
            raise ValueError("unknown weapon")
        if any(sk not in {x.id for x in pack.skills} for sk in state.skills):
            raise ValueError("unknown skill")
        cond_ids = {c.id for c in pack.conditions}
        if any(c.id not in cond_ids or c.tokens < 0 for c in state.conditions + state.next_conditions):
            raise ValueError("unknown condition or negative tokens")
        monsters = {m.id for m in pack.monsters}
        if (state.monster and state.monster not in monsters) or (
            state.combat is not None and state.combat.monster not in monsters
        ):
            raise ValueError("unknown monster")
        if not 0 <= state.uses <= 4:
            raise ValueError(f"bad Ability Uses {state.uses}")
        enc_ok = all(0 <= i < len(pack.encounters) for i in (*state.encounters.cards(), *state.encounters.discards))
        skill_ok = all(0 <= i < len(pack.skills) for i in (*state.skill_deck.cards(), *state.skill_deck.discards))
        if not enc_ok or not skill_ok or any(not 0 <= i < len(pack.encounters) for i in state.revealed):
            raise ValueError("card index outside the pack")
        if any(not 0 <= i < len(pack.skills) for i in state.offered):
            raise ValueError("skill index outside the pack")

    def legend(self, state: State, player: int | None = None) -> tuple[tuple[str, str], ...]:
        """The symbols the render prints (see :mod:`unbroken.glossary`)."""
        return glossary.legend(state, player)

    def step_rules(self, state: State) -> str:
        """The rule of the current step (see :mod:`unbroken.glossary`)."""
        return glossary.step_rules(state)

    def card_texts(self, state: State, player: int | None = None) -> tuple[tuple[str, str], ...]:
        """The text of every card in view (see :mod:`unbroken.glossary`)."""
        return glossary.card_texts(state, player)

    def end_reason(self, state: State) -> str:
        """Why the game ended (see :mod:`unbroken.glossary`)."""
        return glossary.end_reason(state)

    def headline(self, state: State) -> str:
        """Where the game stands, for logs (see :mod:`unbroken.glossary`)."""
        return glossary.headline(state)

    def default_agents(self, state: State) -> list[Any]:
        """The heuristic bot."""
        from unbroken.bots import HeuristicAgent

        return [HeuristicAgent()]


_ROLLS: dict[str, Action] = {f"roll {f}": Die(f) for f in range(1, 7)}
#: Resource names as the rulebook writes them.
RES_NAMES = dict(
    zip(
        RESOURCES,
        ("Small Effort", "Medium Effort", "Large Effort", "Cunning", "Food", "Wood", "Metal", "Treasure", "Time"),
        strict=True,
    )
)


def _ops_text(ops: tuple[Op, ...]) -> str:
    """A short reading of an effect list (for roll outcomes)."""
    parts = []
    for o in ops:
        words = o.op.replace("_", " ")
        if o.res in RES_NAMES:
            words += f" {o.n} {RES_NAMES[o.res]}"
        elif o.id:
            words += f" {o.id.replace('_', ' ')}"
        elif o.n:
            words += f" {o.n}"
        parts.append(words)
    return ", ".join(parts) or "no effect"


def _roll_text(state: State, face: int) -> str:
    """``roll N: what it means``: the monster revealed, the Combat Action rolled, an effect's branch."""
    top = state.pending.top
    text = f"roll {face}"
    if not isinstance(top, Roll) or not 1 <= face <= 6:
        return text
    if top.purpose == "monster":
        return f"{text}: {state.pack.monster_for(state.level, face).name}"
    if top.purpose == "easy":
        return f"{text}: +1 {RES_NAMES[RESOURCES[engine.EASY_RESOURCE[face - 1]]]}"
    if top.purpose in ("combat", "reroll") and state.combat is not None:
        row = monster(state).table[face - 1]
        return f"{text}: {row.text or row.kind.upper()}"
    if top.purpose == "op":
        kind, _, cid = top.src.partition(":")
        name = state.pack.condition(cid).name if kind == "condition" else cid.replace("_", " ")
        return f"{text}: {name}: {_ops_text(top.then if face <= top.n else top.alt)}"
    return text


@functools.lru_cache(maxsize=32)
def _names(pack: str, digest: str, deck: str) -> Mapping[str, int]:
    """Card name -> pack index for reading draws (a read-only view: the memo is shared)."""
    p = get_pack(pack, digest)
    names = [c.name for c in p.encounters] if deck == "enc" else [c.name for c in p.skills]
    return MappingProxyType({" ".join(n.lower().split()): i for i, n in reversed(list(enumerate(names)))})


GAME = Unbroken()
