"""The Runebound co-op combat game: the ``Game`` that ties state, actions, rules and views together.

>>> from runebound_coop import GAME
>>> state = GAME.new_game(seed=3, heroes=("Corbin",), enemies=("Orc Brigand",))
>>> GAME.current_player(state), GAME.describe_step(state)
(0, 'Corbin vs Orc Brigand, round 1, actions')
"""

from __future__ import annotations

from typing import Any

import numpy as np

from runebound_coop import glossary
from runebound_coop.actions import (
    NUM_ACTIONS,
    Action,
    Attack,
    Choose,
    Copy,
    Double,
    Engage,
    Exert,
    Flip,
    Land,
    Pass,
    Recast,
    Respond,
    Surge,
    Withdraw,
    action_id,
    decode_decision,
)
from runebound_coop.content.schema import Sym
from runebound_coop.rules.choices import apply_choice
from runebound_coop.rules.enemy import ability_effects, resolve_sources
from runebound_coop.rules.flow import advance, available_heroes, land, next_round, start_fight, withdraw
from runebound_coop.rules.hero import hero_actions, hero_apply
from runebound_coop.rules.setup import Setup, setup_of
from runebound_coop.rules.tokens import faces_of, fight_of, showing, spend, with_fight
from runebound_coop.state import (
    ENEMY,
    ENEMY_REF,
    FLOW,
    HERO,
    CancelFrame,
    ChoiceFrame,
    Fight,
    RuneboundOptions,
    RuneboundState,
)
from runebound_coop.view import OBSERVATION_SHAPE, RuneboundView, observation_tensor, render
from tabletop_core.components import TwoSidedToken
from tabletop_core.errors import IllegalActionError
from tabletop_core.flow import Pending
from tabletop_core.game import Game
from tabletop_core.spec import CHANCE, TERMINAL, ChanceMode, GameSpec, Information, Utility

__all__ = ["GAME", "RuneboundCoop"]

_CAST = tuple((Land(side), p) for side, p in TwoSidedToken.cast_outcomes())


class RuneboundCoop(Game[RuneboundState, Action, RuneboundOptions]):
    """Runebound (3rd ed.) cooperative combat: 1-4 heroes against an encounter, enemies played by their boards."""

    spec = GameSpec(
        short_name="runebound_coop",
        long_name="Runebound: Unbreakable Bonds co-op combat",
        min_num_players=1,
        max_num_players=5,
        chance_mode=ChanceMode.EXPLICIT_STOCHASTIC,
        information=Information.PERFECT,
        # The heroes share one utility; with enemy_choices="player" the enemy player gets its negation.
        utility=Utility.GENERAL_SUM,
        min_utility=-1.0,
        max_utility=1.0,
        num_distinct_actions=NUM_ACTIONS,
        max_chance_outcomes=2,
        # 12 fights at most (8 enemies + 4 heroes), 50 rounds each, under 100 steps per round.
        max_game_length=12 * 50 * 100 + 12,
        observation_shape=OBSERVATION_SHAPE,
    )
    state_type = RuneboundState
    action_type = Action
    options_type = RuneboundOptions

    # ----- rules -------------------------------------------------------------------------------------------------

    def initial_state(self, options: RuneboundOptions) -> RuneboundState:
        """No damage, full hands; the first fight starts at once with one hero (its first cast is a chance node)."""
        setup = setup_of(options)
        state = RuneboundState(
            options,
            FLOW.start(),
            Pending(),
            (0,) * len(setup.heroes),
            (0,) * len(setup.enemies),
            hand=(options.hand,) * len(setup.heroes),
        )
        return advance(state, setup)

    def num_players(self, state: RuneboundState) -> int:
        """The heroes, plus the enemy player with ``enemy_choices="player"``."""
        return state.options.num_players

    def current_player(self, state: RuneboundState) -> int:
        """The enemy player at its choices, chance while tokens are cast, else the engaged hero (or the party's
        lowest available hero when choosing who engages)."""
        if state.pos.phase == "over":
            return TERMINAL
        top = state.pending.top
        if isinstance(top, ChoiceFrame):
            return len(state.options.heroes)
        fight = state.fight
        if fight is None:
            return available_heroes(state)[0]
        if top is None and fight.casting:
            return CHANCE
        return fight.hero

    def legal_actions(self, state: RuneboundState) -> tuple[Action, ...]:
        player = self.current_player(state)
        if player == TERMINAL:
            return ()
        if player == CHANCE:
            return (Land(0), Land(1))
        top = state.pending.top
        if isinstance(top, CancelFrame):
            return (Respond(False), Respond(True))
        if isinstance(top, ChoiceFrame):
            return tuple(Choose(k) for k in range(len(top.candidates)))
        if state.fight is None:
            return tuple(Engage(h) for h in available_heroes(state))
        if state.pos.step == "round_end":
            return (Withdraw(False), Withdraw(True))
        return tuple(sorted(hero_actions(state, setup_of(state.options)), key=action_id))

    def chance_outcomes(self, state: RuneboundState) -> tuple[tuple[Action, float], ...]:
        if self.current_player(state) != CHANCE:
            return ()
        return _CAST

    def is_legal(self, state: RuneboundState, action: Action) -> bool:
        if not isinstance(action, Action):
            return False
        return super().is_legal(state, action)

    def _apply(self, state: RuneboundState, action: Action) -> RuneboundState:
        setup = setup_of(state.options)
        if isinstance(action, Land):
            state = land(state, action.side)
            if fight_of(state).casting:
                return state  # more tokens to cast: still a chance node, nothing else can happen yet
        elif isinstance(action, Respond):
            frame = state.pending.top
            assert isinstance(frame, CancelFrame)  # legal only under a cancel frame
            state = state.but(pending=state.pending.pop())
            fight = fight_of(state)
            if action.cancel:
                state = spend(state, HERO, [showing(setup, fight, HERO, Sym.TACTICS)[0]])
            else:
                ability = setup.enemies[fight.enemy].abilities[frame.ability]
                state = ability_effects(state, setup, ability, -1)
        elif isinstance(action, Choose):
            choice = state.pending.top
            assert isinstance(choice, ChoiceFrame)  # legal only under a choice frame
            state = state.but(pending=state.pending.pop())
            state = apply_choice(state, setup, choice.kind, choice.source, choice.candidates[action.option])
            if choice.rest:
                state = resolve_sources(state, setup, choice.kind, choice.rest, choice.symbol)
        elif isinstance(action, Engage):
            state = start_fight(state, setup, action.hero)
        elif isinstance(action, Withdraw):
            state = withdraw(state) if action.leave else next_round(state, setup)
        else:
            state = hero_apply(state, setup, action)
            fight = fight_of(state)
            turn = HERO if (fight.passed >> ENEMY) & 1 else ENEMY
            state = with_fight(state, fight.but(turn=turn))
        return advance(state, setup)

    def returns(self, state: RuneboundState) -> tuple[float, ...]:
        """Every hero: +1 if every enemy is defeated, -1 if every hero is, else 0; the enemy player the negation."""
        n = self.num_players(state)
        if state.pos.phase != "over":
            return (0.0,) * n
        setup = setup_of(state.options)
        if all(d >= e.health for d, e in zip(state.enemy_damage, setup.enemies, strict=True)):
            party = 1.0
        elif state.out == (1 << len(setup.heroes)) - 1:
            party = -1.0
        else:
            party = 0.0
        heroes = (party,) * len(setup.heroes)
        return (*heroes, -party) if n > len(setup.heroes) else heroes

    def observe(self, state: RuneboundState, player: int) -> RuneboundView:
        """The whole state: combat hides nothing."""
        return RuneboundView(player, state)

    def observation_tensor(self, state: RuneboundState, player: int) -> np.ndarray:
        return observation_tensor(self.observe(state, player))

    def describe_transition(self, before: RuneboundState, action: Action, after: RuneboundState) -> tuple[str, ...]:
        """Damage dealt or healed and combatants defeated in one step (the enemy's board acts inside steps)."""
        setup = setup_of(after.options)
        heroes = [(h.name, h.health) for h in setup.heroes]
        enemies = [(e.name, e.health) for e in setup.enemies]
        return (
            *_damage_lines(heroes, before.hero_damage, after.hero_damage),
            *_damage_lines(enemies, before.enemy_damage, after.enemy_damage),
        )

    def render(self, state: RuneboundState, player: int | None = None) -> str:
        return render(state, player)

    # ----- codec -------------------------------------------------------------------------------------------------

    def action_id(self, action: Action) -> int:
        return action_id(action)

    def action_from_id(self, state: RuneboundState, action_id: int) -> Action:
        if self.current_player(state) == CHANCE:
            if action_id not in (0, 1) or type(action_id) is not int:
                raise IllegalActionError(f"runebound_coop: no cast outcome {action_id!r} (0: face a, 1: face b)")
            return Land(action_id)
        return decode_decision(action_id)

    def action_to_str(self, state: RuneboundState, action: Action) -> str:
        setup = setup_of(state.options)
        fight = state.fight
        if isinstance(action, Land):
            return _land_text(setup, fight, action.side, recast=state.pos.step != "cast")
        if isinstance(action, Pass):
            return "pass"
        if isinstance(action, Engage):
            return f"engage {action.hero} {setup.heroes[action.hero].name}"
        if isinstance(action, Respond):
            return "cancel" if action.cancel else "allow"
        if isinstance(action, Withdraw):
            return "withdraw" if action.leave else "stay"
        if isinstance(action, Attack):
            return f"attack {action.symbol.value}"
        if isinstance(action, Copy):
            return f"copy {action.value} {action.symbol.value}"
        by = " by tactics" if getattr(action, "tactics", False) else ""
        if isinstance(action, Flip):
            return f"flip {action.target}{by}"
        if isinstance(action, Recast):
            return f"recast enemy {action.target}{by}"
        if isinstance(action, Double):
            return f"double {action.target}"
        if fight is None:
            return repr(action)
        if isinstance(action, Surge):
            return f"surge {action.ability} {setup.heroes[fight.hero].abilities[action.ability].name}{by}"
        if isinstance(action, Exert):
            card = setup.heroes[fight.hero].cards[action.card].name
            return f"exert {action.card} {card}" + (f" {action.symbol.value}" if action.symbol else "")
        top = state.pending.top
        if isinstance(top, ChoiceFrame) and action.option < len(top.candidates):
            ref = top.candidates[action.option]
            side, i = (ENEMY, ref - ENEMY_REF) if ref >= ENEMY_REF else (HERO, ref)
            face = faces_of(setup, fight, side)[i][fight.pool(side).side(i)]
            who = "enemy" if side == ENEMY else "hero"
            return f"choose {action.option} {top.kind} {who} {i} {face}"
        return f"choose {action.option}"

    # ----- helpers -----------------------------------------------------------------------------------------------

    def describe_step(self, state: RuneboundState) -> str:
        if state.pos.phase == "over":
            return "encounter over"
        fight = state.fight
        if fight is None:
            return "the party chooses who engages the next enemy"
        setup = setup_of(state.options)
        where = f"{setup.heroes[fight.hero].name} vs {setup.enemies[fight.enemy].name}, round {state.pos.round}"
        top = state.pending.top
        if top is not None:
            return f"{where}, {'cancel?' if isinstance(top, CancelFrame) else 'enemy choice'}"
        return f"{where}, {state.pos.step}"

    def validate_state(self, state: RuneboundState) -> None:
        """Damage within health, hands within the option, a known flow position, pools and casts within the tokens."""
        setup = setup_of(state.options)
        if len(state.hero_damage) != len(setup.heroes) or len(state.enemy_damage) != len(setup.enemies):
            raise ValueError("one damage count per hero and per enemy")
        if len(state.hand) != len(setup.heroes) or not all(0 <= h <= state.options.hand for h in state.hand):
            raise ValueError(f"hand: one count in 0..{state.options.hand} per hero")
        for d, h in zip(state.hero_damage, setup.heroes, strict=True):
            if not 0 <= d <= h.health:
                raise ValueError(f"{h.name}: damage {d} outside 0..{h.health}")
        for d, e in zip(state.enemy_damage, setup.enemies, strict=True):
            if not 0 <= d <= e.health:
                raise ValueError(f"{e.name}: damage {d} outside 0..{e.health}")
        FLOW.at(state.pos.phase, state.pos.step, state.pos.round)
        fight = state.fight
        if fight is not None:
            if not (0 <= fight.hero < len(setup.heroes) and 0 <= fight.enemy < len(setup.enemies)):
                raise ValueError("fight: bad hero or enemy index")
            for side in (HERO, ENEMY):
                faces = faces_of(setup, fight, side)
                n = len(faces)
                pool = fight.pool(side)
                who = "hero" if side == HERO else "enemy"
                if max(pool.sides, pool.spent, pool.removed) >> n:
                    raise ValueError(f"{who} pool: bits beyond the {n} tokens")
                if pool.spent & pool.removed:
                    raise ValueError(f"{who} pool: a token both spent and removed")
                targets = [link & 15 for link in pool.links]
                if len(set(targets)) != len(targets):
                    raise ValueError(f"{who} pool: a token doubled twice")
                for link in pool.links:
                    d, t = link >> 4, link & 15
                    if not (d < n and t < n and d != t) or faces[d][pool.side(d)].symbol != Sym.DOUBLE:
                        raise ValueError(f"{who} pool: link {link} does not join a double to another token")
                    if not (pool.spent >> d) & 1 or (pool.removed >> t) & 1:
                        raise ValueError(f"{who} pool: link {link}: the double must be spent, its target not removed")
            for ref in fight.casting:
                side, i = (ENEMY, ref - ENEMY_REF) if ref >= ENEMY_REF else (HERO, ref)
                if not 0 <= i < len(faces_of(setup, fight, side)):
                    raise ValueError(f"casting: bad token ref {ref}")

    def legend(self, state: RuneboundState, player: int | None = None) -> tuple[tuple[str, str], ...]:
        """The symbols the render prints (see :mod:`runebound_coop.glossary`)."""
        return glossary.legend(state, player)

    def step_rules(self, state: RuneboundState) -> str:
        """The rule of the current step (see :mod:`runebound_coop.glossary`)."""
        return glossary.step_rules(state)

    def card_texts(self, state: RuneboundState, player: int | None = None) -> tuple[tuple[str, str], ...]:
        """The text of every card in view (see :mod:`runebound_coop.glossary`)."""
        return glossary.card_texts(state, player)

    def end_reason(self, state: RuneboundState) -> str:
        """Why the game ended (see :mod:`runebound_coop.glossary`)."""
        return glossary.end_reason(state)

    def headline(self, state: RuneboundState) -> str:
        """Where the game stands, for logs (see :mod:`runebound_coop.glossary`)."""
        return glossary.headline(state)

    def default_agents(self, state: RuneboundState) -> list[Any]:
        """A heuristic hero per hero (see :mod:`runebound_coop.bots`)."""
        from runebound_coop.bots import default_agents

        return default_agents(state)


def _land_text(setup: Setup, fight: Fight | None, side: int, *, recast: bool) -> str:
    """A cast outcome named by its token and the face it shows, e.g. ``Elian token 2 lands S*``; a recast during
    the combat actions (an agility or Relentless) is marked ``(recast)``."""
    if fight is None or not fight.casting:
        return f"land {'ab'[side]}"
    ref = fight.casting[0]
    who, i = (ENEMY, ref - ENEMY_REF) if ref >= ENEMY_REF else (HERO, ref)
    name = setup.heroes[fight.hero].name if who == HERO else setup.enemies[fight.enemy].name
    faces = faces_of(setup, fight, who)[i]
    text = f"{name} token {i} lands {faces[side]}"
    if str(faces[0]) == str(faces[1]):
        text += f" (side {'ab'[side]})"  # both faces alike (custom content): the side keeps the texts apart
    return text + " (recast)" if recast else text


GAME = RuneboundCoop()


def _damage_lines(combatants: list[tuple[str, int]], old: tuple[int, ...], new: tuple[int, ...]) -> list[str]:
    lines: list[str] = []
    for (name, health), was, now in zip(combatants, old, new, strict=True):
        if now != was:
            verb = "takes" if now > was else "heals"
            lines.append(f"{name} {verb} {abs(now - was)} damage ({now}/{health})")
            if now >= health > was:
                lines.append(f"{name} is defeated")
    return lines
